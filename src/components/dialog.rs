//! Modal dialogs on the native `<dialog>` element: the page behind is inert, Tab cycles
//! inside, Esc closes, and focus goes back to where it was before opening.

use leptos::html;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::JsCast;

const FOCUSABLE: &str =
    "button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";

fn focusables(dialog: &web_sys::HtmlDialogElement) -> Vec<web_sys::HtmlElement> {
    let Ok(list) = dialog.query_selector_all(FOCUSABLE) else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<web_sys::HtmlElement>().ok())
        .collect()
}

fn active_element() -> Option<web_sys::HtmlElement> {
    document()
        .active_element()?
        .dyn_into::<web_sys::HtmlElement>()
        .ok()
}

/// A modal dialog shown while `open` is true. Its content is built each time it opens
/// (so inputs start empty); buttons inside set `open` to false to close it.
#[component]
pub fn Dialog(
    /// Open state: true shows the dialog; Esc and closing set it back to false.
    open: RwSignal<bool>,
    /// The heading, also the dialog's accessible name.
    #[prop(into)]
    title: Signal<String>,
    /// Extra classes, e.g. `"dialog-wide"`.
    #[prop(optional)]
    class: &'static str,
    /// The body and the buttons.
    children: ChildrenFn,
) -> impl IntoView {
    let node = NodeRef::<html::Dialog>::new();
    let previous = StoredValue::new(SendWrapper::new(None::<web_sys::HtmlElement>));
    Effect::new(move |_| {
        let is_open = open.get();
        let Some(dialog) = node.get() else { return };
        if is_open && !dialog.open() {
            previous.set_value(SendWrapper::new(active_element()));
            let _ = dialog.show_modal();
            request_animation_frame(move || {
                if let Some(d) = node.get_untracked() {
                    let preferred = d
                        .query_selector("[autofocus]")
                        .ok()
                        .flatten()
                        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
                    if let Some(first) = preferred.or_else(|| focusables(&d).into_iter().next()) {
                        let _ = first.focus();
                    }
                }
            });
        } else if !is_open && dialog.open() {
            dialog.close();
            if let Some(el) = previous.with_value(|p| (**p).clone()) {
                let _ = el.focus();
            }
        }
    });
    let on_keydown = move |ev: web_sys::KeyboardEvent| {
        if ev.key() != "Tab" {
            return;
        }
        let Some(dialog) = node.get_untracked() else {
            return;
        };
        let items = focusables(&dialog);
        let (Some(first), Some(last)) = (items.first(), items.last()) else {
            return;
        };
        let active = active_element();
        if ev.shift_key() && active.as_ref() == Some(first) {
            ev.prevent_default();
            let _ = last.focus();
        } else if !ev.shift_key() && active.as_ref() == Some(last) {
            ev.prevent_default();
            let _ = first.focus();
        }
    };
    let heading_id = format!("dialog-title-{}", next_dialog_id());
    let labelled_by = heading_id.clone();
    view! {
        <dialog
            node_ref=node
            class=format!("dialog {class}")
            aria-labelledby=labelled_by
            on:cancel=move |ev: leptos::ev::Event| {
                ev.prevent_default();
                open.set(false);
            }
            on:keydown=on_keydown
        >
            <Show when=move || open.get()>
                <h2 class="dialog-title" id=heading_id.clone()>
                    {move || title.get()}
                </h2>
                {children()}
            </Show>
        </dialog>
    }
}

fn next_dialog_id() -> u32 {
    thread_local! { static NEXT: std::cell::Cell<u32> = const { std::cell::Cell::new(1) }; }
    NEXT.with(|n| {
        let id = n.get();
        n.set(id + 1);
        id
    })
}
