//! "Add payment": a dialog with the date (today) and the amount (the open amount),
//! checked before sending; the server's 422 errors appear at the field. After saving the
//! invoice is fetched again, so its status badge follows (partially paid, paid).

use super::form_fields::error_of;
use super::payment_rules::{open_amount, payment_body};
use crate::api::payments::create_invoice_payment;
use crate::api::ApiError;
use crate::components::date::{iso, today};
use crate::components::dialog::Dialog;
use crate::components::field::Field;
use crate::components::money::format_money;
use crate::components::task::Task;
use crate::components::toast::Toasts;
use kontor_model::error::FieldErrors;
use kontor_model::invoice::Invoice;
use kontor_model::payment::Payment;
use leptos::prelude::*;

/// The "Add payment" button and its dialog.
#[component]
pub fn AddPayment(
    /// The invoice paid.
    invoice: Invoice,
    /// Called after the payment was recorded (reload the invoice).
    on_changed: Callback<()>,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let id = invoice.id;
    let currency = StoredValue::new(invoice.currency.clone());
    let open_now = open_amount(&invoice);
    let open = RwSignal::new(false);
    let date = RwSignal::new(String::new());
    let amount = RwSignal::new(String::new());
    let errors = RwSignal::new(FieldErrors::new());
    let failure = RwSignal::new(None::<String>);
    let save = Task::new();
    let finished = move |answer: Result<Payment, ApiError>| match answer {
        Ok(p) => {
            open.set(false);
            toasts.success(format!(
                "Payment of {} recorded.",
                format_money(p.paid_total, &p.currency)
            ));
            on_changed.run(());
        }
        Err(e) if e.is_unprocessable() && !e.errors.is_empty() => errors.set(e.errors),
        Err(e) => failure.set(Some(e.message)),
    };
    let start = move |_| {
        date.set(iso(today()));
        amount.set(if open_now.is_zero() {
            String::new()
        } else {
            open_now.to_string()
        });
        errors.set(FieldErrors::new());
        failure.set(None);
        open.set(true);
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        failure.set(None);
        let body = currency
            .with_value(|c| payment_body(id, c, &date.get_untracked(), &amount.get_untracked()));
        match body {
            Ok(body) => {
                errors.set(FieldErrors::new());
                save.run(async move { create_invoice_payment(&body).await }, finished);
            }
            Err(e) => errors.set(e),
        }
    };
    let pending = save.pending;
    let open_text = currency.with_value(|c| format_money(open_now, c));
    view! {
        <button type="button" class="btn btn-primary" id="add-payment" on:click=start>
            "Add payment"
        </button>
        <Dialog open=open title="Add payment">
            <form novalidate on:submit=submit>
                <p class="muted">{format!("Open amount: {open_text}")}</p>
                <Field id="payment-date" label="Date received" required=true error=error_of(errors, "date")>
                    <input id="payment-date" type="date" bind:value=date />
                </Field>
                <Field id="payment-amount" label=currency.with_value(|c| format!("Amount ({c})")) required=true error=error_of(errors, "paid_total")>
                    <input id="payment-amount" class="input-number" inputmode="decimal" autofocus bind:value=amount />
                </Field>
                <p class="field-error" role="alert">{move || failure.get()}</p>
                <div class="dialog-actions">
                    <button type="button" class="btn" on:click=move |_| open.set(false)>"Cancel"</button>
                    <button type="submit" class="btn btn-primary" disabled=move || pending.get()>
                        {move || if pending.get() { "Saving…" } else { "Save payment" }}
                    </button>
                </div>
            </form>
        </Dialog>
    }
}
