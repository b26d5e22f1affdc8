//! Reversal: the "Reverse" action (only when `can_reverse_invoice`), confirmed in a dialog
//! that says what happens, which lands on the new reversal invoice; and the links between
//! a reversed invoice and its reversal.

use crate::api::invoices::{get_invoice, reverse_invoice};
use crate::api::ApiError;
use crate::components::dialog::Dialog;
use crate::components::task::{load_once, Task};
use crate::components::timeline::split_at_placeholder;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use crate::paths::href;
use kontor_model::invoice::Invoice;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// The "Reverse" button and its confirmation.
#[component]
pub fn ReverseAction(
    /// The invoice to reverse.
    invoice: Invoice,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let navigate = use_navigate();
    let id = invoice.id;
    let number = invoice.identifier.clone().unwrap_or_default();
    let open = RwSignal::new(false);
    let reverse = Task::new();
    let texts = t().invoice_detail_actions();
    let finished = move |answer: Result<Invoice, ApiError>| {
        open.set(false);
        match answer {
            Ok(reversal) => {
                toasts.success(fill(
                    texts.reversal_created,
                    &[("number", &reversal.identifier.clone().unwrap_or_default())],
                ));
                navigate(&format!("/invoices/{}", reversal.id), Default::default());
            }
            Err(e) => toasts.error(fill(texts.reverse_failed, &[("message", &e.message)])),
        }
    };
    let pending = reverse.pending;
    view! {
        <button type="button" class="btn btn-danger-quiet" id="reverse" on:click=move |_| open.set(true)>
            {texts.reverse}
        </button>
        <Dialog open=open title=fill(texts.reverse_title, &[("number", &number)])>
            <p>{texts.reverse_text}</p>
            <div class="dialog-actions">
                <button type="button" class="btn" on:click=move |_| open.set(false)>{t().common().cancel}</button>
                {
                    let finished = finished.clone();
                    view! {
                        <button type="button" class="btn btn-danger" id="confirm-reverse" disabled=move || pending.get()
                            on:click=move |_| reverse.run(reverse_invoice(id), finished.clone())>
                            {texts.create_reversal}
                        </button>
                    }
                }
            </div>
        </Dialog>
    }
}

/// "Reversed by …" or "Reversal of …" with a link to the other invoice; nothing when
/// neither applies.
#[component]
pub fn ReversalLink(
    /// The invoice shown.
    invoice: Invoice,
) -> impl IntoView {
    let texts = t().invoice_detail_actions();
    let (sentence, other) = match (invoice.reversal_invoice_id, invoice.reversed_invoice_id) {
        (Some(other), _) => (texts.reversed_by, other),
        (None, Some(other)) => (texts.reversal_of, other),
        (None, None) => return None,
    };
    let number = load_once(get_invoice(other));
    let label = move || match number.get() {
        Some(Ok(i)) => fill(
            texts.invoice_number,
            &[("number", &i.identifier.unwrap_or_default())],
        ),
        _ => fill(texts.invoice_id, &[("id", &other.to_string())]),
    };
    let (before, after) = split_at_placeholder(sentence, "invoice");
    Some(view! {
        <p class="reversal-link" data-reversal-link=other.to_string()>
            {before} <a href=href(&format!("/invoices/{other}"))>{label}</a> {after}
        </p>
    })
}
