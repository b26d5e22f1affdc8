//! A confirmation on the shared [`Dialog`]: a question, one sentence saying what happens,
//! "Cancel" and the confirming button. Used wherever an action asks before it acts
//! (finalizing an invoice from the detail page or the form, billing an offer again).

use crate::components::dialog::Dialog;
use leptos::prelude::*;

/// The question before an invoice gets its number (detail page "Finalize", form "Create
/// invoice" and "Save and finalize"), in English; [`finalize_title`] is the current
/// language's.
pub const FINALIZE_TITLE: &str = "Finalize this invoice?";
/// What finalizing does, in English; [`finalize_text`] is the current language's.
pub const FINALIZE_TEXT: &str = "It gets the next invoice number and can no longer be edited.";

/// The question before an invoice gets its number, in the current language.
pub fn finalize_title() -> String {
    crate::i18n::t().invoice_form().finalize_title.to_string()
}

/// What finalizing does, in the current language.
pub fn finalize_text() -> String {
    crate::i18n::t().invoice_form().finalize_text.to_string()
}

/// A modal question with "Cancel" and `confirm_label`; `on_confirm` runs on confirming
/// (the caller closes the dialog or navigates away).
#[component]
pub fn ConfirmDialog(
    /// Open state.
    open: RwSignal<bool>,
    /// The question (the dialog's title).
    #[prop(into)]
    title: Signal<String>,
    /// What happens when confirmed.
    #[prop(into)]
    text: Signal<String>,
    /// The confirming button's label.
    #[prop(into)]
    confirm_label: String,
    /// True while the confirmed action runs (the button is disabled).
    #[prop(optional, into)]
    pending: Signal<bool>,
    /// Id of the confirming button (for tests and links).
    #[prop(optional)]
    confirm_id: &'static str,
    /// Runs on confirming.
    on_confirm: Callback<()>,
    /// A warning shown under the text while `Some` (a backdated invoice, issue 34).
    #[prop(optional, into)]
    warning: Signal<Option<String>>,
) -> impl IntoView {
    let label = StoredValue::new(confirm_label);
    view! {
        <Dialog open=open title=title>
            <p class="confirm-text">{move || text.get()}</p>
            {move || warning.get().map(|w| view! { <p class="confirm-warning" role="alert">{w}</p> })}
            <div class="dialog-actions">
                <button type="button" class="btn" on:click=move |_| open.set(false)>{crate::i18n::t().common().cancel}</button>
                <button type="button" class="btn btn-primary" id=confirm_id autofocus
                    disabled=move || pending.get() on:click=move |_| on_confirm.run(())>
                    {label.get_value()}
                </button>
            </div>
        </Dialog>
    }
}
