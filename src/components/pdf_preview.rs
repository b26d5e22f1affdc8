//! PDFs shown inside the page: a document is fetched with the key (so it cannot be a plain
//! link), turned into a `Blob` object URL and shown in an `<iframe>`.
//!
//! [`PdfDoc`] owns the object URL: a newer load replaces (and revokes) it, a load that was
//! overtaken by a newer one is cancelled and its answer ignored, and everything is revoked
//! when the component that created it goes away. [`PdfFrame`] shows a document with a
//! "Rendering…" overlay (visible once a load takes longer than 300 ms, UI.md) and the
//! server's message on failure; [`PdfDownload`] is a download link for it.

use crate::api::ApiError;
use crate::i18n::{fill, t};
use futures::future::LocalBoxFuture;
use leptos::prelude::*;
use leptos::task::spawn_local_scoped_with_cancellation;
use web_sys::{Blob, Url};

/// A fetched PDF: its object URL, whether a load is running and the last failure. Copy:
/// signal handles.
#[derive(Clone, Copy)]
pub struct PdfDoc {
    /// The object URL of the document shown (`blob:…`); `None` before the first answer.
    pub url: RwSignal<Option<String>>,
    /// True while a load is running.
    pub loading: RwSignal<bool>,
    /// The failure of the last load, if it failed.
    pub error: RwSignal<Option<ApiError>>,
    generation: StoredValue<u64>,
    task: StoredValue<Option<Owner>>,
    parent: StoredValue<Option<Owner>>,
}

impl PdfDoc {
    /// An empty document, tied to the current owner: on its cleanup the running load is
    /// cancelled and the object URL revoked.
    pub fn new() -> Self {
        let doc = PdfDoc {
            url: RwSignal::new(None),
            loading: RwSignal::new(false),
            error: RwSignal::new(None),
            generation: StoredValue::new(0),
            task: StoredValue::new(None),
            parent: StoredValue::new(Owner::current()),
        };
        on_cleanup(move || {
            doc.cancel();
            if let Some(url) = doc.url.try_get_untracked().flatten() {
                let _ = Url::revoke_object_url(&url);
            }
        });
        doc
    }

    /// Starts loading `fetch`, cancelling a load still running. Its answer replaces the
    /// document unless another load started in the meantime.
    pub fn load(&self, fetch: LocalBoxFuture<'static, Result<Blob, ApiError>>) {
        self.cancel();
        let generation = self.begin();
        let this = *self;
        let owner = match self.parent.get_value() {
            Some(parent) => parent.child(),
            None => Owner::new(),
        };
        owner.with(|| {
            spawn_local_scoped_with_cancellation(async move {
                let result = fetch.await;
                this.finish(generation, result);
            })
        });
        self.task.set_value(Some(owner));
    }

    /// Marks a new load as started and returns its number.
    pub fn begin(&self) -> u64 {
        let generation = self.generation.get_value() + 1;
        self.generation.set_value(generation);
        self.loading.set(true);
        generation
    }

    /// Takes the answer of load `generation`: shows it (revoking the previous URL) or the
    /// failure. Returns false, changing nothing, when a newer load has started since.
    pub fn finish(&self, generation: u64, result: Result<Blob, ApiError>) -> bool {
        if generation != self.generation.get_value() {
            return false;
        }
        self.loading.set(false);
        match result.and_then(|blob| {
            Url::create_object_url_with_blob(&blob)
                .map_err(|_| ApiError::local(t().widgets().not_shown))
        }) {
            Ok(url) => {
                self.error.set(None);
                self.replace_url(Some(url));
            }
            Err(e) => self.error.set(Some(e)),
        }
        true
    }

    /// Cancels a running load (its request is aborted).
    pub fn cancel(&self) {
        if let Some(owner) = self.task.try_update_value(Option::take).flatten() {
            owner.cleanup();
        }
    }

    fn replace_url(&self, url: Option<String>) {
        if let Some(old) = self.url.get_untracked() {
            let _ = Url::revoke_object_url(&old);
        }
        self.url.set(url);
    }
}

impl Default for PdfDoc {
    fn default() -> Self {
        Self::new()
    }
}

/// The document in an `<iframe>`, with the "Rendering…" overlay and failures.
#[component]
pub fn PdfFrame(
    /// The document shown.
    doc: PdfDoc,
    /// The frame's accessible title, e.g. `"Invoice R2611-001"`.
    #[prop(into)]
    title: Signal<String>,
) -> impl IntoView {
    let busy = move || doc.loading.get();
    view! {
        <div class="pdf-frame-wrap" aria-busy=move || busy().to_string()>
            {move || match doc.url.get() {
                Some(url) => view! { <iframe class="pdf-frame" src=url title=move || title.get()></iframe> }.into_any(),
                None => view! { <div class="pdf-frame pdf-frame-empty"></div> }.into_any(),
            }}
            <Show when=busy>
                <div class="pdf-rendering" role="status">
                    <span class="pdf-rendering-label">{t().widgets().rendering}</span>
                </div>
            </Show>
            {move || {
                doc.error.get().map(|e| view! { <p class="pdf-error" role="alert">{fill(t().widgets().not_shown_reason, &[("message", &e.message)])}</p> })
            }}
        </div>
    }
}

/// A download link for the document, named `file_name`; absent until it has loaded.
#[component]
pub fn PdfDownload(
    /// The document.
    doc: PdfDoc,
    /// The file name offered, e.g. `"R2611-001.pdf"`.
    #[prop(into)]
    file_name: Signal<String>,
    /// The link text.
    #[prop(into, default = t().widgets().download_pdf.into())]
    label: String,
) -> impl IntoView {
    move || {
        let label = label.clone();
        doc.url.get().map(|url| {
            view! {
                <a class="btn btn-quiet pdf-download" href=url download=move || file_name.get()>
                    {label}
                </a>
            }
        })
    }
}

/// Saves `blob` as a file named `file_name` (an object URL on a temporary `<a download>`,
/// clicked, then revoked once the browser has taken the download).
pub fn save_blob(blob: &Blob, file_name: &str) -> Result<(), ApiError> {
    let failed = |_| ApiError::local(t().widgets().not_saved_file);
    let url = Url::create_object_url_with_blob(blob).map_err(failed)?;
    let link: web_sys::HtmlElement =
        wasm_bindgen::JsCast::unchecked_into(document().create_element("a").map_err(failed)?);
    link.set_attribute("href", &url).map_err(failed)?;
    link.set_attribute("download", file_name).map_err(failed)?;
    link.set_class_name("visually-hidden");
    let body = document()
        .body()
        .ok_or_else(|| ApiError::local(t().widgets().no_body))?;
    body.append_child(&link).map_err(failed)?;
    link.click();
    let _ = body.remove_child(&link);
    set_timeout(
        move || {
            let _ = Url::revoke_object_url(&url);
        },
        std::time::Duration::from_secs(10),
    );
    Ok(())
}

/// A document in a wide dialog with a Close button (a reminder letter shown from a list):
/// [`PdfFrame`] of `doc`, titled `title` (also the dialog's accessible name).
#[component]
pub fn PdfDialog(
    /// Open state.
    open: RwSignal<bool>,
    /// The dialog's heading and the frame's title.
    title: RwSignal<String>,
    /// The document shown.
    doc: PdfDoc,
) -> impl IntoView {
    view! {
        <crate::components::dialog::Dialog open=open title=title class="dialog-wide">
            <PdfFrame doc=doc title=title />
            <div class="dialog-actions">
                <button type="button" class="btn" on:click=move |_| open.set(false)>{t().common().close}</button>
            </div>
        </crate::components::dialog::Dialog>
    }
}
