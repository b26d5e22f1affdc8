//! Receipt documents from the user's disk: a drop zone with a file picker (drag and drop
//! or click), an optional progress bar, and reading a file as base64 for the creation body.

use crate::api::ApiError;
use crate::i18n::t;
use futures::channel::oneshot;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::JsCast;

/// File types the server accepts for purchase documents.
pub const ACCEPT: &str = "application/pdf,image/png,image/jpeg";
/// Largest document the server accepts (10 MiB).
pub const MAX_BYTES: f64 = 10.0 * 1024.0 * 1024.0;

/// The base64 text of `file` (read with `FileReader.readAsDataURL`, prefix removed).
pub async fn read_base64(file: &web_sys::File) -> Result<String, ApiError> {
    let failed = |_| ApiError::local(t().widgets_files().not_read);
    let reader = web_sys::FileReader::new().map_err(failed)?;
    let (tx, rx) = oneshot::channel::<()>();
    let tx = SendWrapper::new(std::cell::RefCell::new(Some(tx)));
    let on_end = Closure::<dyn Fn()>::new(move || {
        if let Some(tx) = tx.borrow_mut().take() {
            let _ = tx.send(());
        }
    });
    reader.set_onloadend(Some(on_end.as_ref().unchecked_ref()));
    reader.read_as_data_url(file).map_err(failed)?;
    let _ = rx.await;
    drop(on_end);
    let url = reader
        .result()
        .ok()
        .and_then(|r| r.as_string())
        .unwrap_or_default();
    url.split_once(";base64,")
        .map(|(_, b64)| b64.to_string())
        .ok_or_else(|| ApiError::local(t().widgets_files().not_read))
}

/// A message when `file` is obviously not acceptable (type or size), before sending.
pub fn check_file(file: &web_sys::File) -> Option<String> {
    if file.size() > MAX_BYTES {
        return Some(t().widgets_files().too_large.into());
    }
    let kind = file.type_();
    (!kind.is_empty() && !ACCEPT.split(',').any(|a| a == kind))
        .then(|| t().widgets_files().only_documents.into())
}

/// A drop zone: drop a file on it, or click "Choose file". Shows `progress` (percent)
/// while `busy`. With `multiple`, every dropped or chosen file is handed to `on_file` in
/// order (the caller queues them); otherwise only the first.
#[component]
pub fn DropZone(
    /// The input's id (tests and labels use it).
    #[prop(into)]
    id: String,
    /// The text in the zone.
    #[prop(into)]
    label: String,
    /// Called with the chosen or dropped file.
    on_file: Callback<SendWrapper<web_sys::File>>,
    /// True while an upload runs (the zone shows the progress bar).
    #[prop(into, optional)]
    busy: Signal<bool>,
    /// Upload progress in percent.
    #[prop(into, optional)]
    progress: Signal<u8>,
    /// The file picker's `accept` list (default: [`ACCEPT`]).
    #[prop(default = ACCEPT)]
    accept: &'static str,
    /// Whether several files may be dropped or chosen at once.
    #[prop(optional)]
    multiple: bool,
) -> impl IntoView {
    let each = move |files: Option<web_sys::FileList>| {
        let Some(files) = files else { return };
        let count = if multiple {
            files.length()
        } else {
            files.length().min(1)
        };
        for index in 0..count {
            if let Some(file) = files.get(index) {
                on_file.run(SendWrapper::new(file));
            }
        }
    };
    let over = RwSignal::new(false);
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        over.set(false);
        each(ev.data_transfer().and_then(|d| d.files()));
    };
    let on_pick = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        each(input.files());
        input.set_value("");
    };
    view! {
        <div
            class="drop-zone"
            class:is-over=move || over.get()
            on:dragover=move |ev: web_sys::DragEvent| { ev.prevent_default(); over.set(true); }
            on:dragleave=move |_| over.set(false)
            on:drop=on_drop
        >
            <p>{label}</p>
            <label class="btn btn-small" for=id.clone()>{t().widgets_files().choose_file}</label>
            <input id=id class="visually-hidden" type="file" accept=accept multiple=multiple on:change=on_pick />
            <Show when=move || busy.get()>
                <div class="upload-progress">
                    <progress max="100" value=move || progress.get().to_string() aria-label=t().widgets_files().upload_progress></progress>
                    <span class="muted">{move || format!("{} %", progress.get())}</span>
                </div>
            </Show>
        </div>
    }
}
