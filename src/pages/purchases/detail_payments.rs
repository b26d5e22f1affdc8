//! Payments made for a purchase: the list, "Add payment" (date and amount, the open
//! amount proposed) and deleting one after a confirmation.

use crate::api::purchases::{create_purchase_payment, delete_purchase_payment};
use crate::components::date::{format_date, iso, parse_iso, today};
use crate::components::dialog::Dialog;
use crate::components::field::{field_message, Field};
use crate::components::locale::{format_input, parse_typed};
use crate::components::money::format_money;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::payment_rules::{paid_sum, unpaid_amount, validate_payment};
use kontor_model::purchase::{NewPurchasePayment, Purchase};
use kontor_model::Decimal;
use leptos::prelude::*;

/// The payments section of a purchase.
#[component]
pub fn PaymentsSection(
    /// The purchase with its payments.
    purchase: Purchase,
    /// Called after a change (reload the purchase).
    on_changed: Callback<()>,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let cur = StoredValue::new(purchase.currency.clone());
    let payments: Vec<Decimal> = purchase.payments.iter().map(|p| p.total).collect();
    let paid = paid_sum(payments.iter().copied()).unwrap_or_default();
    let open_amount = unpaid_amount(purchase.gross_total, &payments, &purchase.currency);
    let deleting = RwSignal::new(None::<i64>);
    let confirm = RwSignal::new(false);
    let delete = Action::new_local(move |id: &i64| {
        let id = *id;
        async move { delete_purchase_payment(id).await }
    });
    Effect::new(move |_| match delete.value().get() {
        Some(Ok(())) => {
            confirm.set(false);
            toasts.success(t().purchase_payments().deleted);
            on_changed.run(());
        }
        Some(Err(e)) => {
            confirm.set(false);
            toasts.error(fill(
                t().purchase_payments().delete_failed,
                &[("message", &e.message)],
            ));
        }
        None => {}
    });
    let rows = purchase.payments.iter().map(|p| {
        let (pid, amount) = (p.id, cur.with_value(|c| format_money(p.total, c)));
        view! {
            <tr>
                <td>{format_date(p.date)}</td>
                <td class="num money">{amount.clone()}</td>
                <td class="num">
                    <button type="button" class="btn btn-small btn-danger-quiet" aria-label=fill(t().purchase_payments().delete_aria, &[("amount", &amount)])
                        on:click=move |_| { deleting.set(Some(pid)); confirm.set(true); }>{t().common().delete}</button>
                </td>
            </tr>
        }
    }).collect::<Vec<_>>();
    let empty = rows.is_empty();
    let summary = cur.with_value(|c| {
        fill(
            t().purchase_payments().summary,
            &[
                ("paid", &format_money(paid, c)),
                ("total", &format_money(purchase.gross_total, c)),
            ],
        )
    });
    let pending = delete.pending();
    view! {
        <section class="section" aria-labelledby="payments-title">
            <div class="section-head">
                <h2 class="section-title" id="payments-title">{t().purchase_payments().title}</h2>
                <span class="muted money">{summary}</span>
                <AddPurchasePayment purchase_id=purchase.id currency=purchase.currency.clone() open_amount=open_amount on_changed=on_changed />
            </div>
            {if empty {
                view! { <p class="muted">{t().purchase_payments().none}</p> }.into_any()
            } else {
                view! {
                    <table class="table payments-table">
                        <thead><tr><th scope="col">{t().purchase_payments().col_date}</th><th scope="col" class="num">{t().purchase_payments().col_amount}</th><th scope="col" class="num"><span class="visually-hidden">{t().purchase_payments().actions}</span></th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                }.into_any()
            }}
        </section>
        <Dialog open=confirm title=t().purchase_payments().confirm_title>
            <p>{t().purchase_payments().confirm_text}</p>
            <div class="dialog-actions">
                <button type="button" class="btn" on:click=move |_| confirm.set(false)>{t().common().cancel}</button>
                <button type="button" class="btn btn-danger" disabled=move || pending.get()
                    on:click=move |_| { if let Some(id) = deleting.get_untracked() { delete.dispatch_local(id); } }>
                    {t().purchase_payments().delete_payment}
                </button>
            </div>
        </Dialog>
    }
}

/// "Add payment" and its dialog.
#[component]
fn AddPurchasePayment(
    /// The purchase paid.
    purchase_id: i64,
    /// Its currency.
    currency: String,
    /// The amount still open (proposed).
    open_amount: Decimal,
    /// Called after the payment was recorded.
    on_changed: Callback<()>,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let currency_code = StoredValue::new(currency.clone());
    let open = RwSignal::new(false);
    let date = RwSignal::new(String::new());
    let amount = RwSignal::new(String::new());
    let errors = RwSignal::new(FieldErrors::new());
    let save = Action::new_local(move |b: &NewPurchasePayment| {
        let b = b.clone();
        async move { create_purchase_payment(&b).await }
    });
    Effect::new(move |_| match save.value().get() {
        Some(Ok(_)) => {
            open.set(false);
            toasts.success(t().purchase_payments().recorded);
            on_changed.run(());
        }
        Some(Err(e)) if !e.errors.is_empty() => errors.set(e.errors),
        Some(Err(e)) => errors.set(FieldErrors::from([(
            "base".to_string(),
            vec![kontor_model::error::Message::verbatim(e.message)],
        )])),
        None => {}
    });
    let start = move |_| {
        date.set(iso(today()));
        amount.set(if open_amount.is_zero() {
            String::new()
        } else {
            format_input(open_amount)
        });
        errors.set(FieldErrors::new());
        open.set(true);
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let d = parse_iso(&date.get_untracked());
        let typed = amount.get_untracked();
        // The amount as the user writes numbers (`1.000,00` in German).
        let parsed = parse_typed(&typed);
        let total = parsed.clone().ok().flatten();
        let mut e = currency_code.with_value(|c| validate_payment(d, total, "total", c));
        if let Err(message) = parsed {
            e.remove("total");
            push_error(&mut e, "total", message);
        }
        if !e.is_empty() {
            errors.set(e);
            return;
        }
        save.dispatch_local(NewPurchasePayment {
            purchase_id: Some(purchase_id),
            date: d,
            total,
        });
    };
    let err =
        move |path: &'static str| Signal::derive(move || errors.with(|e| field_message(e, path)));
    let pending = save.pending();
    view! {
        <button type="button" class="btn" id="add-purchase-payment" on:click=start>{t().purchase_payments().add}</button>
        <Dialog open=open title=t().purchase_payments().add>
            <form novalidate on:submit=submit>
                <Field id="pp-date" label=t().purchase_payments().date_paid required=true error=err("date")>
                    <input id="pp-date" type="date" bind:value=date />
                </Field>
                <Field id="pp-total" label=fill(t().purchase_payments().amount_label, &[("currency", &currency)]) required=true error=err("total")>
                    <input id="pp-total" class="input-number" inputmode="decimal" autofocus bind:value=amount />
                </Field>
                <p class="field-error" role="alert">{move || errors.with(|e| field_message(e, "base"))}</p>
                <div class="dialog-actions">
                    <button type="button" class="btn" on:click=move |_| open.set(false)>{t().common().cancel}</button>
                    <button type="submit" class="btn btn-primary" disabled=move || pending.get()>{t().purchase_payments().save}</button>
                </div>
            </form>
        </Dialog>
    }
}
