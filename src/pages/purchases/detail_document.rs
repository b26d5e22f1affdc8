//! The receipt document of a purchase: images inline, PDFs fetched from the signed
//! `file_url` into a `Blob` and shown through an object URL (revoked on cleanup, see
//! [`PdfDoc`]); and replacing the document by picking or dropping a file, with an upload
//! progress bar and the server's 422 message.

use crate::api::purchases::store_purchase_document;
use crate::api::ApiError;
use crate::components::drop_zone::{check_file, DropZone};
use crate::components::field::field_message;
use crate::components::pdf_preview::{PdfDoc, PdfFrame};
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use kontor_model::purchase::Purchase;
use leptos::prelude::*;
use send_wrapper::SendWrapper;

/// Fetches `url` (a signed link, no key needed) as a `Blob`.
pub async fn fetch_blob(url: String) -> Result<web_sys::Blob, ApiError> {
    let failed = |_| ApiError::local(t().purchase_document().could_not_load);
    let response = gloo_net::http::Request::get(&url)
        .send()
        .await
        .map_err(|_| ApiError::local(t().purchase_document().could_not_load))?;
    if !response.ok() {
        return Err(ApiError {
            status: response.status(),
            ..ApiError::local(t().purchase_document().link_expired)
        });
    }
    let raw: web_sys::Response = response.into();
    let blob = wasm_bindgen_futures::JsFuture::from(raw.blob().map_err(failed)?)
        .await
        .map_err(failed)?;
    Ok(wasm_bindgen::JsCast::unchecked_into(blob))
}

/// The file extension for a stored document's content type (a name for documents stored
/// before names were kept).
fn extension(content_type: &str) -> &'static str {
    match content_type {
        "image/png" => "png",
        "image/jpeg" => "jpg",
        t if t.contains("xml") => "xml",
        _ => "pdf",
    }
}

/// The document section: preview and replacement.
#[component]
pub fn DocumentSection(
    /// The purchase (its `file_url`, `file_name` and `file_content_type`).
    purchase: Purchase,
    /// Called after the document was replaced (reload the purchase).
    on_changed: Callback<()>,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let id = purchase.id;
    let kind = purchase.file_content_type.clone().unwrap_or_default();
    // The stored file by its name ("receipt.pdf"), never its content type or storage key.
    let file_name = purchase.file_url.as_ref().map(|url| {
        let name = purchase
            .file_name
            .clone()
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| format!("{}.{}", purchase.identifier, extension(&kind)));
        let download = name.clone();
        view! { <a class="document-name" id="document-name" href=url.clone() download=download target="_blank" rel="noopener">{name}</a> }
    });
    let preview = match purchase.file_url.clone() {
        None => view! { <p class="muted" id="document-none">{t().purchase_document().none}</p> }.into_any(),
        // An XML e-invoice: its content is shown in the e-invoice section; here the file.
        Some(url) if kind.contains("xml") => view! {
            <p id="document-xml">
                {t().purchase_document().xml_original} " "
                <a href=url target="_blank" rel="noopener">{t().purchase_document().open_xml}</a>
            </p>
        }.into_any(),
        Some(url) if kind.starts_with("image/") => view! {
            <img class="purchase-image" id="document-image" src=url alt=fill(t().purchase_document().receipt_of, &[("identifier", &purchase.identifier)]) />
        }.into_any(),
        Some(url) => {
            let doc = PdfDoc::new();
            doc.load(Box::pin(fetch_blob(url)));
            view! { <div id="document-pdf"><PdfFrame doc=doc title=fill(t().purchase_document().receipt_of, &[("identifier", &purchase.identifier)]) /></div> }.into_any()
        }
    };
    let progress = RwSignal::new(0u8);
    let error = RwSignal::new(None::<String>);
    let upload = Action::new_local(move |file: &SendWrapper<web_sys::File>| {
        let file = file.clone();
        async move { store_purchase_document(id, &file, progress).await }
    });
    Effect::new(move |_| match upload.value().get() {
        Some(Ok(_)) => {
            toasts.success(t().purchase_document().stored);
            on_changed.run(());
        }
        Some(Err(e)) => error.set(Some(
            field_message(&e.errors, "file")
                .map(|m| fill(t().purchase_document().file_error, &[("message", &m)]))
                .unwrap_or(e.message),
        )),
        None => {}
    });
    let on_file = Callback::new(move |file: SendWrapper<web_sys::File>| {
        error.set(check_file(&file));
        if error.get_untracked().is_none() {
            upload.dispatch_local(file);
        }
    });
    let busy = upload.pending();
    view! {
        <section class="section" aria-labelledby="document-title">
            <div class="section-head">
                <h2 class="section-title" id="document-title">{t().purchase_document().title}</h2>
                {file_name}
            </div>
            {preview}
            <DropZone id="document-file" label=t().purchase_document().drop_label on_file=on_file busy=busy progress=progress />
            <p class="field-error" role="alert" id="document-error">{move || error.get()}</p>
        </section>
    }
}
