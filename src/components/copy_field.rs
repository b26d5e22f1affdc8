//! A read-only text with a Copy button (the invitation link, a new key's secret).

use crate::i18n::t;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

/// Writes `text` to the clipboard (`navigator.clipboard.writeText`); false when the
/// browser offers no clipboard here (e.g. not a secure context).
pub fn copy_to_clipboard(text: &str) -> bool {
    let navigator: JsValue = window().navigator().into();
    let Ok(clipboard) = js_sys::Reflect::get(&navigator, &"clipboard".into()) else {
        return false;
    };
    if clipboard.is_undefined() {
        return false;
    }
    let Ok(write) = js_sys::Reflect::get(&clipboard, &"writeText".into()) else {
        return false;
    };
    write
        .dyn_into::<js_sys::Function>()
        .and_then(|f| f.call1(&clipboard, &text.into()))
        .is_ok()
}

/// The value in a read-only input (selected on focus) and a Copy button that says
/// "Copied" for a moment.
#[component]
pub fn CopyField(
    /// The input's id (and the label's `for`).
    id: &'static str,
    /// The label.
    label: &'static str,
    /// The text to copy.
    #[prop(into)]
    value: String,
) -> impl IntoView {
    let copied = RwSignal::new(false);
    let text = StoredValue::new(value.clone());
    view! {
        <div class="field copy-field">
            <label for=id>{label}</label>
            <div class="copy-row">
                <input id=id type="text" readonly=true value=value
                    on:focus=|ev| {
                        if let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                            input.select();
                        }
                    } />
                <button type="button" class="btn" id=format!("{id}-copy")
                    on:click=move |_| copied.set(copy_to_clipboard(&text.get_value()))>
                    {move || if copied.get() { t().people_common().copied } else { t().common().copy }}
                </button>
            </div>
        </div>
    }
}
