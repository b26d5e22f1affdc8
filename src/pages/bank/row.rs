//! One bank transaction: booking date, counterparty, text, amount, state; the payments
//! booked from it (with undo), its suggestions (each confirmed with one click; Enter on the
//! row confirms the best), "Match by hand…" and ignore / undo ignore.

use super::manual::ManualMatch;
use crate::api::bank::{ignore, match_invoice, match_purchase, unignore, unmatch};
use crate::api::ApiError;
use crate::components::date::format_date;
use crate::components::money::format_money;
use crate::components::task::Task;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use crate::paths::href;
use kontor_model::bank::{BankSuggestion, BankTransaction, TransactionState};
use kontor_model::bank_matching::Reason;
use leptos::prelude::*;

/// A reason in words.
fn reason_text(r: Reason) -> &'static str {
    let texts = t().bank_page();
    match r {
        Reason::PaymentReference => texts.reason_reference,
        Reason::Number => texts.reason_number,
        Reason::AmountEqualsOpen => texts.reason_amount,
        Reason::AmountEqualsDiscounted => texts.reason_discount,
        Reason::Iban => texts.reason_iban,
        Reason::Name => texts.reason_name,
        Reason::NumberFragment => texts.reason_fragment,
    }
}

/// The row.
#[component]
pub fn TransactionRow(
    /// The transaction.
    transaction: BankTransaction,
    /// Called after a change (the page reloads the list and counts).
    on_changed: Callback<()>,
) -> impl IntoView {
    let texts = t().bank_page();
    let toasts = Toasts::use_context();
    let task = Task::new();
    let id = transaction.id;
    let cur = transaction.currency.clone();
    let done = move |ok: &'static str| {
        move |answer: Result<BankTransaction, ApiError>| match answer {
            Ok(_) => {
                toasts.success(ok);
                on_changed.run(());
            }
            Err(e) => toasts.error(fill(t().bank_page().failed, &[("message", &e.message)])),
        }
    };
    let confirm = move |s: &BankSuggestion| {
        if let Some(invoice) = s.invoice_id {
            task.run(match_invoice(id, invoice), done(t().bank_page().matched));
        } else if let Some(purchase) = s.purchase_id {
            task.run(match_purchase(id, purchase), done(t().bank_page().matched));
        }
    };
    let suggestions = StoredValue::new(transaction.suggestions.clone());
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let on_row = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(t).ok())
            .is_some_and(|el| el.class_list().contains("bank-transaction"));
        if ev.key() == "Enter" && on_row {
            if let Some(best) = suggestions.with_value(|s| s.first().cloned()) {
                ev.prevent_default();
                confirm(&best);
            }
        }
    };
    let open = RwSignal::new(false);
    let state = transaction.state;
    let amount_class = if transaction.amount.is_sign_negative() {
        "money bank-debit"
    } else {
        "money bank-credit"
    };
    view! {
        <li class="bank-transaction" tabindex="0" data-transaction-id=id.to_string() on:keydown=on_key
            aria-label=fill(texts.row_label, &[("date", &format_date(transaction.booking_date)), ("amount", &format_money(transaction.amount, &cur))])>
            <div class="bank-main">
                <span class="bank-date">{format_date(transaction.booking_date)}</span>
                <span class="bank-party">{transaction.counterparty_name.clone().unwrap_or_default()}</span>
                <span class=amount_class>{format_money(transaction.amount, &cur)}</span>
            </div>
            <p class="muted bank-text">{transaction.remittance_information.clone().or(transaction.creditor_reference.clone()).unwrap_or_default()}</p>
            {(!transaction.matches.is_empty()).then(|| view! {
                <ul class="bank-matches">
                    {transaction.matches.iter().map(|m| {
                        let (link, label) = match (m.invoice_id, m.purchase_id) {
                            (Some(i), _) => (href(&format!("/invoices/{i}")), fill(texts.paid_invoice, &[("id", &i.to_string())])),
                            (_, Some(p)) => (href(&format!("/purchases/{p}")), fill(texts.paid_purchase, &[("id", &p.to_string())])),
                            _ => (String::new(), String::new()),
                        };
                        view! { <li><a href=link>{label}</a> " " <span class="money">{format_money(m.amount, &cur)}</span></li> }
                    }).collect_view()}
                </ul>
            })}
            {(state == TransactionState::Suggested).then(|| view! {
                <ul class="bank-suggestions" aria-label=texts.suggestions>
                    {transaction.suggestions.iter().enumerate().map(|(n, s)| {
                        let s2 = s.clone();
                        let reasons = s.reasons.iter().map(|r| reason_text(*r)).collect::<Vec<_>>().join(", ");
                        let what = s.identifier.clone().unwrap_or_else(|| s.invoice_id.or(s.purchase_id).unwrap_or_default().to_string());
                        view! {
                            <li class="bank-suggestion">
                                <span>{what}</span>
                                <span class="money">{format_money(s.amount, &cur)}</span>
                                <span class="muted">{reasons}</span>
                                <button type="button" class="btn btn-small btn-primary" id=format!("confirm-{id}-{n}")
                                    disabled=move || task.pending.get() on:click=move |_| confirm(&s2)>{texts.confirm}</button>
                            </li>
                        }
                    }).collect_view()}
                </ul>
            })}
            <div class="bank-actions">
                {match state {
                    TransactionState::Matched => view! {
                        <button type="button" class="btn btn-small" id=format!("unmatch-{id}") disabled=move || task.pending.get()
                            on:click=move |_| task.run(unmatch(id), done(t().bank_page().undone))>{texts.undo}</button>
                    }.into_any(),
                    TransactionState::Ignored => view! {
                        <button type="button" class="btn btn-small" id=format!("unignore-{id}") disabled=move || task.pending.get()
                            on:click=move |_| task.run(unignore(id), done(t().bank_page().unignored))>{texts.unignore}</button>
                    }.into_any(),
                    _ => view! {
                        <button type="button" class="btn btn-small" id=format!("manual-{id}") on:click=move |_| open.set(true)>{texts.manual}</button>
                        <button type="button" class="btn btn-small btn-danger-quiet" id=format!("ignore-{id}") disabled=move || task.pending.get()
                            on:click=move |_| task.run(ignore(id), done(t().bank_page().ignored))>{texts.ignore}</button>
                    }.into_any(),
                }}
            </div>
            <ManualMatch open=open transaction=transaction.clone() on_changed=on_changed />
        </li>
    }
}
