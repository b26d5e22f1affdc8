//! The content of an imported e-invoice (issue 10): the server's readable HTML view
//! (`GET /purchases/{id}/e_invoice.html`, fetched with the key into a `Blob`) in an
//! `<iframe sandbox="">` (no scripts, no same-origin rights, no forms) through an object
//! URL, and a link to the original file.

use crate::api::einvoices::get_purchase_einvoice_html;
use crate::components::pdf_preview::PdfDoc;
use crate::i18n::{fill, t};
use leptos::prelude::*;

/// "XRechnung (CII)" for an import's `format` and `syntax`.
pub fn format_label(format: &str, syntax: &str) -> String {
    let name = match format {
        "xrechnung" => "XRechnung",
        "factur-x" => "Factur-X / ZUGFeRD",
        "en16931" => "EN 16931",
        other => other,
    };
    format!("{name} ({})", syntax.to_uppercase())
}

/// The e-invoice section of a purchase imported from an e-invoice.
#[component]
pub fn EInvoiceSection(
    /// The purchase.
    purchase_id: i64,
    /// What was imported, e.g. "XRechnung (UBL)".
    #[prop(into)]
    label: String,
    /// The original file (signed link), when stored.
    file_url: Option<String>,
    /// The original file's name offered for download.
    #[prop(into)]
    file_name: String,
) -> impl IntoView {
    let doc = PdfDoc::new();
    doc.load(Box::pin(get_purchase_einvoice_html(purchase_id)));
    view! {
        <section class="section" aria-labelledby="einvoice-title" id="einvoice">
            <div class="section-head">
                <h2 class="section-title" id="einvoice-title">{t().purchase_einvoice().title}</h2>
                <span class="muted">{label}</span>
                {file_url.map(|url| view! {
                    <a class="btn btn-quiet btn-small" id="einvoice-original" href=url download=file_name target="_blank" rel="noopener">
                        {t().purchase_einvoice().original_file}
                    </a>
                })}
            </div>
            <div class="einvoice-frame-wrap" aria-busy=move || doc.loading.get().to_string()>
                {move || match doc.url.get() {
                    Some(url) => view! {
                        <iframe class="einvoice-frame" sandbox="" src=url title=t().purchase_einvoice().frame_title></iframe>
                    }.into_any(),
                    None => view! { <div class="einvoice-frame einvoice-frame-empty"></div> }.into_any(),
                }}
                <Show when=move || doc.loading.get()>
                    <p class="muted" role="status">{t().purchase_einvoice().loading}</p>
                </Show>
                {move || doc.error.get().map(|e| view! {
                    <p class="field-error" role="alert">{fill(t().purchase_einvoice().could_not_show, &[("message", &e.message)])}</p>
                })}
            </div>
        </section>
    }
}
