//! The document tab: the invoice's PDF in the page on a chosen letter paper, with a
//! download link. The PDF is fetched with the key, shown through an object URL and
//! fetched again (old URL revoked) when the paper changes.

use crate::api::invoice_documents::{get_invoice_pdf, Paper};
use crate::components::paper_select::PaperSelect;
use crate::components::pdf_preview::{PdfDoc, PdfDownload, PdfFrame};
use crate::i18n::{fill, t};
use leptos::prelude::*;

/// The PDF of invoice `invoice_id` with its letter-paper choice and download link.
#[component]
pub fn DocumentTab(
    /// The invoice id.
    invoice_id: i64,
    /// The invoice number (`R2611-001`); `None` for drafts.
    identifier: Option<String>,
) -> impl IntoView {
    let paper = RwSignal::new(Paper::Default);
    let doc = PdfDoc::new();
    Effect::new(move |_| {
        let chosen = paper.get();
        doc.load(Box::pin(get_invoice_pdf(invoice_id, chosen)));
    });
    let texts = t().invoice_detail();
    let name = identifier.unwrap_or_else(|| texts.draft_name.into());
    let title = fill(texts.document_title, &[("number", &name)]);
    let file_name = fill(texts.file_name, &[("name", &name)]);
    view! {
        <div class="doc-toolbar">
            <label for="doc-paper">{texts.letter_paper}</label>
            <PaperSelect id="doc-paper" paper=paper />
            <PdfDownload doc=doc file_name=file_name />
        </div>
        <PdfFrame doc=doc title=title />
    }
}
