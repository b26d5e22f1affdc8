//! "Copy" on an invoice (issue 11 § Edit, delete, copy): `POST /invoices/{id}/copy` makes
//! a new draft with the same customer, positions, texts and tags, dated today; the draft
//! opens in the invoice editor.

use crate::api::invoices::copy_invoice;
use crate::components::task::Task;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// The "Copy" button of invoice `invoice_id`.
#[component]
pub fn CopyInvoiceAction(
    /// The invoice to copy.
    invoice_id: i64,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let navigate = use_navigate();
    let task = Task::new();
    let texts = t().invoice_detail_actions();
    let copy = move |_| {
        let navigate = navigate.clone();
        task.run(copy_invoice(invoice_id), move |r| match r {
            Ok(draft) => {
                toasts.success(texts.copied.to_string());
                navigate(&format!("/invoices/{}/edit", draft.id), Default::default());
            }
            Err(e) => toasts.error(fill(texts.copy_failed, &[("message", &e.message)])),
        });
    };
    view! {
        <button type="button" class="btn" id="invoice-copy" disabled=move || task.pending.get() on:click=copy>
            {move || if task.pending.get() { texts.copying } else { texts.copy }}
        </button>
    }
}
