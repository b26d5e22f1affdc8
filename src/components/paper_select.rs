//! The letter-paper choice of a document: a `<select>` of the account's letter papers (the
//! default one marked) plus "Blank", used by the invoice and offer document tabs and the
//! send-e-mail dialog.

use crate::api::invoice_documents::Paper;
use crate::components::frame::AccountContext;
use crate::i18n::{fill, t};
use kontor_model::account::LetterPaper;
use leptos::prelude::*;

/// The account's letter papers (empty until the account has loaded).
pub fn use_letter_papers() -> Signal<Vec<LetterPaper>> {
    let account = AccountContext::use_context().map(|c| c.account());
    Signal::derive(move || {
        account
            .and_then(|a| a.get())
            .and_then(Result::ok)
            .map(|a| a.letter_papers)
            .unwrap_or_default()
    })
}

/// A `<select>` of the letter papers (the default one marked) plus "Blank".
/// A letter paper's name in the current language: the names of the papers every
/// installation starts with ("White", "Letterhead") are put into German (issue 34:
/// "letter paper names"); a name an admin gave stays as written.
pub fn paper_name(name: &str) -> String {
    match name {
        "White" => t().widgets().paper_white.to_string(),
        "Letterhead" => t().widgets().paper_letterhead.to_string(),
        other => other.to_string(),
    }
}

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
                    {if p.default { fill(t().widgets().paper_default, &[("name", &paper_name(&p.name))]) } else { paper_name(&p.name) }}
                </option>
            </For>
            {(!without_blank).then(|| view! { <option value="blank" selected=move || paper.get() == Paper::Blank>{t().widgets().paper_blank}</option> })}
        </select>
    }
}
