//! The payments tab: paid and open amounts, the payments with edit (a dialog with date and
//! amount) and delete (confirmed in a dialog), "Add payment" when the rules allow it, and
//! the reminders below. A payment that took a cash discount shows it.

use super::detail_reminders::RemindersSection;
use super::payment_dialog::{balance, paid_amount, payment_body, AddPayment};
use crate::api::payments::{delete_invoice_payment, update_invoice_payment};
use crate::api::ApiError;
use crate::components::date::format_date;
use crate::components::date::iso;
use crate::components::dialog::Dialog;
use crate::components::field::{error_of, Field};
use crate::components::locale::format_input;
use crate::components::money::format_money;
use crate::components::task::Task;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use kontor_model::error::FieldErrors;
use kontor_model::invoice::Invoice;
use kontor_model::payment::Payment;
use kontor_model::payment_rules::Balance;
use kontor_model::status::can_record_payment;
use leptos::prelude::*;

/// Payments and reminders of `invoice`.
#[component]
pub fn PaymentsTab(
    /// The invoice with its payments and reminders.
    invoice: Invoice,
    /// Called after a change (reload the invoice).
    on_changed: Callback<()>,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let texts = t().invoice_detail_payments();
    let payments = invoice.payments.clone().unwrap_or_default();
    let currency = invoice.currency.clone();
    let payable = can_record_payment(invoice.status);
    let deleting = RwSignal::new(None::<Payment>);
    let confirm_open = RwSignal::new(false);
    let delete = Task::new();
    let finished = move |answer: Result<(), ApiError>| {
        confirm_open.set(false);
        match answer {
            Ok(()) => {
                toasts.success(texts.deleted);
                on_changed.run(());
            }
            Err(e) => toasts.error(fill(texts.delete_failed, &[("message", &e.message)])),
        }
    };
    let what = move || {
        deleting
            .get()
            .map(|p| {
                fill(
                    texts.delete_text,
                    &[
                        ("amount", &format_money(p.paid_total, &p.currency)),
                        ("date", &format_date(p.date)),
                    ],
                )
            })
            .unwrap_or_default()
    };
    let delete_pending = delete.pending;
    let paid = format_money(paid_amount(&invoice), &currency);
    let total = format_money(invoice.gross_total, &currency);
    let summary = match balance(&invoice) {
        Balance::Credit(c) => fill(
            texts.summary_credit,
            &[
                ("paid", &paid),
                ("total", &total),
                ("credit", &format_money(c, &currency)),
            ],
        ),
        Balance::Open(v) | Balance::Settled(v) => fill(
            texts.summary_open,
            &[
                ("paid", &paid),
                ("total", &total),
                ("open", &format_money(v, &currency)),
            ],
        ),
    };
    // Editing a payment: the dialog's fields, errors and save.
    let editing = RwSignal::new(None::<Payment>);
    let edit_open = RwSignal::new(false);
    let (edit_date, edit_amount) = (RwSignal::new(String::new()), RwSignal::new(String::new()));
    let edit_errors = RwSignal::new(FieldErrors::new());
    let edit_failure = RwSignal::new(None::<String>);
    let edit = Task::new();
    let edited = move |answer: Result<Payment, ApiError>| match answer {
        Ok(_) => {
            edit_open.set(false);
            toasts.success(texts.updated);
            on_changed.run(());
        }
        Err(e) if e.is_unprocessable() && !e.errors.is_empty() => edit_errors.set(e.errors),
        Err(e) => edit_failure.set(Some(e.message)),
    };
    let start_edit = move |p: Payment| {
        edit_date.set(iso(p.date));
        edit_amount.set(format_input(kontor_model::money::round_money(
            p.paid_total,
            &p.currency,
        )));
        edit_errors.set(FieldErrors::new());
        edit_failure.set(None);
        editing.set(Some(p));
        edit_open.set(true);
    };
    let save_edit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let Some(p) = editing.get_untracked() else {
            return;
        };
        let date_text = edit_date.get_untracked();
        match payment_body(
            p.invoice_id,
            &p.currency,
            &date_text,
            &edit_amount.get_untracked(),
        ) {
            Ok(body) => {
                edit_errors.set(FieldErrors::new());
                edit.run(
                    async move { update_invoice_payment(p.id, &body).await },
                    edited,
                );
            }
            Err(e) => edit_errors.set(e),
        }
    };
    let edit_pending = edit.pending;
    let rows = payments
        .into_iter()
        .map(|p| {
            let amount = format_money(p.paid_total, &p.currency);
            let label = fill(texts.delete_label, &[("amount", &amount)]);
            let edit_label = fill(texts.edit_label, &[("amount", &amount)]);
            let discount = (!p.cash_discount.is_zero()).then(|| {
                fill(
                    texts.cash_discount_note,
                    &[("amount", &format_money(p.cash_discount, &p.currency))],
                )
            });
            let date = format_date(p.date);
            let for_edit = p.clone();
            // Issue 32: a payment from the bank names its transaction (counterparty, text).
            let bank = p.bank_transaction_id.map(|id| {
                let tx = LocalResource::new(move || crate::api::bank::get_transaction(id));
                view! {
                    <div class="muted payment-bank" data-bank-transaction=id.to_string()>
                        {texts.from_bank} " "
                        {move || tx.get().and_then(Result::ok).map(|t| {
                            let who = t.counterparty_name.unwrap_or_default();
                            let text = t.remittance_information.or(t.creditor_reference).unwrap_or_default();
                            format!("· {who} · {text}")
                        })}
                    </div>
                }
            });
            view! {
                <tr>
                    <td>{date}{bank}</td>
                    <td class="num money">{amount}{discount.map(|d| view! { <span class="muted payment-discount">" "{d}</span> })}</td>
                    <td class="num">
                        <button type="button" class="btn btn-small" aria-label=edit_label
                            on:click=move |_| start_edit(for_edit.clone())>
                            {texts.edit}
                        </button>
                        " "
                        <button type="button" class="btn btn-small btn-danger-quiet" aria-label=label
                            on:click=move |_| { deleting.set(Some(p.clone())); confirm_open.set(true); }>
                            {texts.delete}
                        </button>
                    </td>
                </tr>
            }
        })
        .collect::<Vec<_>>();
    let empty = rows.is_empty();
    view! {
        <section class="section" aria-labelledby="payments-title">
            <div class="section-head">
                <h2 class="section-title" id="payments-title">{texts.payments}</h2>
                <span class="muted money" data-summary="payments">{summary}</span>
                <span class="section-head-end">
                    {payable.then(|| view! { <AddPayment invoice=invoice.clone() on_changed=on_changed /> })}
                </span>
            </div>
            {if empty {
                view! { <p class="muted">{texts.no_payments}</p> }.into_any()
            } else {
                view! {
                    <table class="table payments-table">
                        <thead><tr><th scope="col">{texts.date}</th><th scope="col" class="num">{texts.amount}</th><th scope="col" class="num"><span class="visually-hidden">{texts.actions}</span></th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                }
                .into_any()
            }}
        </section>
        <RemindersSection invoice=invoice on_changed=on_changed />
        <Dialog open=edit_open title=texts.edit_title.to_string()>
            <form novalidate on:submit=save_edit>
                <Field id="edit-payment-date" label=texts.date_received required=true error=error_of(edit_errors, "date")>
                    <input id="edit-payment-date" type="date" bind:value=edit_date />
                </Field>
                <Field id="edit-payment-amount" label=fill(texts.amount_currency, &[("currency", &currency)]) required=true error=error_of(edit_errors, "paid_total")>
                    <input id="edit-payment-amount" class="input-number" inputmode="decimal" bind:value=edit_amount />
                </Field>
                <p class="field-error" role="alert">{move || edit_failure.get()}</p>
                <div class="dialog-actions">
                    <button type="button" class="btn" on:click=move |_| edit_open.set(false)>{t().common().cancel}</button>
                    <button type="submit" class="btn btn-primary" disabled=move || edit_pending.get()>
                        {move || if edit_pending.get() { texts.saving } else { texts.save_payment }}
                    </button>
                </div>
            </form>
        </Dialog>
        <Dialog open=confirm_open title=texts.delete_title.to_string()>
            <p>{what}</p>
            <div class="dialog-actions">
                <button type="button" class="btn" on:click=move |_| confirm_open.set(false)>{t().common().cancel}</button>
                <button type="button" class="btn btn-danger" disabled=move || delete_pending.get()
                    on:click=move |_| {
                        if let Some(p) = deleting.get_untracked() {
                            delete.run(delete_invoice_payment(p.id), finished);
                        }
                    }>
                    {texts.delete_payment}
                </button>
            </div>
        </Dialog>
    }
}
