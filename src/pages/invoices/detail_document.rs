//! The document tab: the invoice's PDF in the page on a chosen letter paper, with a
//! download link. The PDF is fetched with the key, shown through an object URL and
//! fetched again (old URL revoked) when the paper changes.

use crate::api::invoice_documents::{get_invoice_pdf, Paper};
use crate::components::frame::AccountContext;
use crate::components::pdf_preview::{PdfDoc, PdfDownload, PdfFrame};
use kontor_model::account::LetterPaper;
use leptos::prelude::*;

/// The account's letter papers (empty until the account has loaded).
pub fn use_letter_papers() -> Signal<Vec<LetterPaper>> {
    let account = AccountContext::use_context().map(|c| c.account);
    Signal::derive(move || {
        account
            .and_then(|a| a.get())
            .and_then(Result::ok)
            .map(|a| a.letter_papers)
            .unwrap_or_default()
    })
}

/// A `<select>` of the letter papers (the default one marked) plus "Blank".
#[component]
pub fn PaperSelect(
    /// The element id (for the label).
    id: &'static str,
    /// The chosen paper; [`Paper::Default`] shows the default paper as chosen.
    paper: RwSignal<Paper>,
    /// Leaves out "Blank" (offers print on a letter paper only).
    #[prop(optional)]
    without_blank: bool,
) -> impl IntoView {
    let papers = use_letter_papers();
    let is_chosen = move |p: &LetterPaper| match paper.get() {
        Paper::Default => p.default,
        Paper::Id(id) => id == p.id,
        Paper::Blank => false,
    };
    view! {
        <select id=id on:change=move |ev| paper.set(Paper::from_value(&event_target_value(&ev)))>
            <For each=move || papers.get() key=|p| p.id let:p>
                <option value=p.id.to_string() selected={let p = p.clone(); move || is_chosen(&p)}>
                    {if p.default { format!("{} (default)", p.name) } else { p.name.clone() }}
                </option>
            </For>
            {(!without_blank).then(|| view! { <option value="blank" selected=move || paper.get() == Paper::Blank>"Blank (no letter paper)"</option> })}
        </select>
    }
}

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
    let name = identifier.unwrap_or_else(|| "draft".into());
    let title = format!("Invoice {name}");
    let file_name = format!("{name}.pdf");
    view! {
        <div class="doc-toolbar">
            <label for="doc-paper">"Letter paper"</label>
            <PaperSelect id="doc-paper" paper=paper />
            <PdfDownload doc=doc file_name=file_name />
        </div>
        <PdfFrame doc=doc title=title />
    }
}
