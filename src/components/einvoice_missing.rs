//! What an invoice still lacks to be an e-invoice (issue 10): the list of missing fields
//! with a link to where each is set, and the dialog shown when a draft is finalized with
//! gaps — "Finalize anyway", or blocked for customers who receive XRechnung (the server
//! refuses those with 422 too). Used by the invoice detail page and the invoice form.

use crate::api::einvoices::{field_label, place_link};
use crate::components::dialog::Dialog;
use crate::i18n::t;
use crate::paths::href;
use kontor_model::einvoice::{MissingField, Place};
use leptos::prelude::*;

/// The missing fields with their messages and a link to where each is set (settings, the
/// customer's form, the invoice's form).
#[component]
pub fn MissingList(
    /// What is missing.
    missing: Vec<MissingField>,
    /// The invoice's customer (link to its form).
    customer_id: i64,
    /// The invoice (link to its form, drafts).
    invoice_id: i64,
) -> impl IntoView {
    view! {
        <ul class="einvoice-missing">
            {missing
                .into_iter()
                .map(|m| {
                    let (to, _) = place_link(m.place, customer_id, invoice_id);
                    let set_in = match m.place {
                        Place::Settings => t().widgets_einvoice().set_in_settings,
                        Place::Customer => t().widgets_einvoice().set_in_customer,
                        Place::Invoice => t().widgets_einvoice().set_in_invoice,
                    };
                    view! {
                        <li data-missing=m.field.clone()>
                            <strong>{capitalized(&field_label(&m.field))}</strong>
                            ": " {m.message} " "
                            <a href=href(&to)>{set_in}</a>
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
}

/// The question before finalizing a draft that is not a valid e-invoice yet.
#[component]
pub fn MissingDialog(
    /// Open state.
    open: RwSignal<bool>,
    /// What is missing (without the invoice number, which finalizing assigns).
    #[prop(into)]
    missing: Signal<Vec<MissingField>>,
    /// The invoice's customer.
    #[prop(into)]
    customer_id: Signal<i64>,
    /// The draft.
    invoice_id: i64,
    /// The customer receives XRechnung: no "Finalize anyway".
    #[prop(into)]
    blocked: Signal<bool>,
    /// True while finalizing runs.
    #[prop(into)]
    pending: Signal<bool>,
    /// "Finalize anyway" (the dialog closes first).
    on_finalize: Callback<()>,
    /// A warning shown above the buttons while `Some` (a backdated invoice, issue 34).
    #[prop(optional, into)]
    warning: Signal<Option<String>>,
) -> impl IntoView {
    let title = Signal::derive(move || {
        if blocked.get() {
            t().widgets_einvoice().blocked_title.to_string()
        } else {
            t().widgets_einvoice().not_valid_title.to_string()
        }
    });
    view! {
        <Dialog open=open title=title>
            <p>
                {move || if blocked.get() {
                    t().widgets_einvoice().blocked_text
                } else {
                    t().widgets_einvoice().not_valid_text
                }}
            </p>
            {move || view! { <MissingList missing=missing.get() customer_id=customer_id.get() invoice_id=invoice_id /> }}
            {move || warning.get().filter(|_| !blocked.get()).map(|w| view! { <p class="confirm-warning" role="alert">{w}</p> })}
            <div class="dialog-actions">
                <button type="button" class="btn" autofocus on:click=move |_| open.set(false)>
                    {move || if blocked.get() { t().common().close } else { t().common().cancel }}
                </button>
                <Show when=move || !blocked.get()>
                    <button
                        type="button"
                        class="btn btn-primary"
                        id="finalize-anyway"
                        disabled=move || pending.get()
                        on:click=move |_| {
                            open.set(false);
                            on_finalize.run(());
                        }
                    >
                        {t().widgets_einvoice().finalize_anyway}
                    </button>
                </Show>
            </div>
        </Dialog>
    }
}

/// `text` with its first letter upper case ("country" → "Country").
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
