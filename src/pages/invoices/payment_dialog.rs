//! "Add payment": a dialog with the date (today) and the amount (the open amount),
//! checked before sending with the model's payment rule; the server's 422 errors appear at
//! the field. An amount above the open amount is recorded only after a confirmation (the
//! difference becomes a credit). After saving the invoice is fetched again, so its status
//! badge follows (partially paid, paid).

use crate::api::payments::create_invoice_payment;
use crate::api::ApiError;
use crate::components::date::{iso, parse_iso, today};
use crate::components::dialog::Dialog;
use crate::components::field::{error_of, Field};
use crate::components::locale::{format_input, parse_typed};
use crate::components::money::format_money;
use crate::components::task::Task;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::invoice::Invoice;
use kontor_model::payment::{NewPayment, Payment};
use kontor_model::payment_rules::{self, is_overpayment, paid_sum, validate_payment, Balance};
use kontor_model::Decimal;
use leptos::prelude::*;

/// What the invoice's payments settled (currency units): their amounts plus the cash
/// discount a payment took (issue 14); 0 when it overflows.
pub fn paid_amount(invoice: &Invoice) -> Decimal {
    paid_sum(settled(invoice)).unwrap_or_default()
}

/// Each payment's amount and each cash discount taken, as settled amounts.
fn settled(invoice: &Invoice) -> impl Iterator<Item = Decimal> + '_ {
    invoice
        .payments
        .iter()
        .flatten()
        .flat_map(|p| [p.paid_total, p.cash_discount])
}

/// The invoice's balance (open, settled or credit) from the model's rule.
pub fn balance(invoice: &Invoice) -> Balance {
    Balance::of(invoice.gross_total, paid_amount(invoice), &invoice.currency)
        .unwrap_or(Balance::Settled(Decimal::ZERO))
}

/// What is still to be paid, never below zero (`119.00` gross, `50` paid → `69.00`).
pub fn unpaid_amount(invoice: &Invoice) -> Decimal {
    let payments: Vec<Decimal> = settled(invoice).collect();
    payment_rules::unpaid_amount(invoice.gross_total, &payments, &invoice.currency)
}

/// The payment body from the dialog's texts, or the field errors (`date`, `paid_total`)
/// named like the server's.
pub fn payment_body(
    invoice_id: i64,
    currency: &str,
    date_text: &str,
    amount_text: &str,
) -> Result<NewPayment, FieldErrors> {
    let date = parse_iso(date_text);
    // The amount as the user writes numbers (`1.000,00` in German).
    let parsed = parse_typed(amount_text);
    let paid_total = parsed.clone().ok().flatten();
    let mut errors = validate_payment(date, paid_total, "paid_total", currency);
    if let Err(message) = parsed {
        errors.remove("paid_total");
        push_error(&mut errors, "paid_total", message);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(NewPayment {
        invoice_id: Some(invoice_id),
        date,
        paid_total,
        currency: Some(currency.to_string()),
    })
}

/// The "Add payment" button and its dialog.
#[component]
pub fn AddPayment(
    /// The invoice paid.
    invoice: Invoice,
    /// Called after the payment was recorded (reload the invoice).
    on_changed: Callback<()>,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let texts = t().invoice_detail_payments();
    let id = invoice.id;
    let currency = StoredValue::new(invoice.currency.clone());
    let open_now = unpaid_amount(&invoice);
    let open = RwSignal::new(false);
    let date = RwSignal::new(String::new());
    let amount = RwSignal::new(String::new());
    let errors = RwSignal::new(FieldErrors::new());
    let failure = RwSignal::new(None::<String>);
    let save = Task::new();
    // A body above the open amount, waiting for the user's confirmation.
    let over = RwSignal::new(None::<NewPayment>);
    let finished = move |answer: Result<Payment, ApiError>| match answer {
        Ok(p) => {
            open.set(false);
            toasts.success(fill(
                texts.recorded,
                &[("amount", &format_money(p.paid_total, &p.currency))],
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
            format_input(open_now)
        });
        errors.set(FieldErrors::new());
        failure.set(None);
        over.set(None);
        open.set(true);
    };
    let record = move |body: NewPayment| {
        save.run(async move { create_invoice_payment(&body).await }, finished);
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        failure.set(None);
        let body = currency
            .with_value(|c| payment_body(id, c, &date.get_untracked(), &amount.get_untracked()));
        match body {
            Ok(body) => {
                errors.set(FieldErrors::new());
                if body.paid_total.is_some_and(|a| is_overpayment(a, open_now)) {
                    over.set(Some(body));
                } else {
                    record(body);
                }
            }
            Err(e) => errors.set(e),
        }
    };
    let pending = save.pending;
    let open_text = currency.with_value(|c| format_money(open_now, c));
    let over_text = move || {
        over.get()
            .and_then(|b| b.paid_total)
            .map(|amount| {
                currency.with_value(|c| {
                    fill(
                        texts.overpayment,
                        &[
                            ("amount", &format_money(amount, c)),
                            ("open", &format_money(open_now, c)),
                            (
                                "credit",
                                &format_money(amount.checked_sub(open_now).unwrap_or_default(), c),
                            ),
                        ],
                    )
                })
            })
            .unwrap_or_default()
    };
    let confirm_over = move |_| {
        if let Some(body) = over.get_untracked() {
            record(body);
        }
    };
    view! {
        <button type="button" class="btn btn-primary" id="add-payment" on:click=start>
            {texts.add_payment}
        </button>
        <Dialog open=open title=texts.add_payment.to_string()>
            <Show when=move || over.with(Option::is_some)>
                <div class="overpayment" role="alertdialog" aria-labelledby="overpayment-text">
                    <p id="overpayment-text">{over_text}</p>
                    <p class="field-error" role="alert">{move || failure.get()}</p>
                    <div class="dialog-actions">
                        <button type="button" class="btn" id="overpayment-back" on:click=move |_| over.set(None)>{texts.change_amount}</button>
                        <button type="button" class="btn btn-primary" id="overpayment-confirm" disabled=move || pending.get() on:click=confirm_over>
                            {move || if pending.get() { texts.saving } else { texts.record_anyway }}
                        </button>
                    </div>
                </div>
            </Show>
            <form novalidate on:submit=submit hidden=move || over.with(Option::is_some)>
                <p class="muted">{fill(texts.open_amount, &[("amount", &open_text)])}</p>
                <Field id="payment-date" label=texts.date_received required=true error=error_of(errors, "date")>
                    <input id="payment-date" type="date" bind:value=date />
                </Field>
                <Field id="payment-amount" label=currency.with_value(|c| fill(texts.amount_currency, &[("currency", c)])) required=true error=error_of(errors, "paid_total")>
                    <input id="payment-amount" class="input-number" inputmode="decimal" autofocus bind:value=amount />
                </Field>
                <p class="field-error" role="alert">{move || failure.get()}</p>
                <div class="dialog-actions">
                    <button type="button" class="btn" on:click=move |_| open.set(false)>{t().common().cancel}</button>
                    <button type="submit" class="btn btn-primary" disabled=move || pending.get()>
                        {move || if pending.get() { texts.saving } else { texts.save_payment }}
                    </button>
                </div>
            </form>
        </Dialog>
    }
}
