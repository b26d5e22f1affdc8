//! "Match by hand": search the open invoices (for money in) or purchases (for money out),
//! give each chosen document its part, see the remainder of the transfer, book.

use crate::api::bank::match_allocations;
use crate::api::invoices::list_invoices;
use crate::api::purchases::list_purchases;
use crate::api::ApiError;
use crate::components::dialog::Dialog;
use crate::components::locale::{format_input, typed_value};
use crate::components::money::format_money;
use crate::components::task::Task;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use kontor_model::bank::{Allocation, BankTransaction};
use kontor_model::bank_matching::remainder;
use kontor_model::invoice::Invoice;
use kontor_model::payment_rules::unpaid_amount;
use kontor_model::query::{InvoiceFilter, PurchaseFilter};
use kontor_model::Decimal;
use leptos::prelude::*;

/// A document that can take money: id, label, what is open.
#[derive(Clone, Debug, PartialEq)]
struct Candidate {
    id: i64,
    label: String,
    open: Decimal,
}

async fn search(credit: bool, term: String, currency: String) -> Result<Vec<Candidate>, ApiError> {
    if credit {
        let filter = InvoiceFilter {
            term: Some(term).filter(|t| !t.trim().is_empty()),
            open: Some(true),
            ..Default::default()
        };
        let page = list_invoices::<Invoice>(&filter).await?;
        Ok(page
            .items
            .into_iter()
            .filter(|i| i.currency == currency && i.open_amount > Decimal::ZERO)
            .map(|i| Candidate {
                id: i.id,
                label: format!(
                    "{} · {}",
                    i.identifier.clone().unwrap_or_default(),
                    i.customer
                        .as_ref()
                        .map(|c| c.name.clone())
                        .unwrap_or_default()
                ),
                open: i.open_amount,
            })
            .collect())
    } else {
        let filter = PurchaseFilter {
            term: Some(term).filter(|t| !t.trim().is_empty()),
            ..Default::default()
        };
        let page = list_purchases(&filter).await?;
        Ok(page
            .items
            .into_iter()
            .filter(|p| p.currency == currency)
            .map(|p| {
                let paid: Vec<Decimal> = p.payments.iter().map(|x| x.total).collect();
                Candidate {
                    id: p.id,
                    label: format!(
                        "{} · {}",
                        p.receipt_identifier,
                        p.company
                            .as_ref()
                            .map(|c| c.name.clone())
                            .unwrap_or_default()
                    ),
                    open: unpaid_amount(p.gross_total, &paid, &p.currency),
                }
            })
            .filter(|c| c.open > Decimal::ZERO)
            .collect())
    }
}

/// The dialog for `transaction`.
#[component]
pub fn ManualMatch(
    /// Open state.
    open: RwSignal<bool>,
    /// The transaction.
    transaction: BankTransaction,
    /// Called after booking.
    on_changed: Callback<()>,
) -> impl IntoView {
    let texts = t().bank_page();
    let toasts = Toasts::use_context();
    let id = transaction.id;
    let credit = transaction.amount > Decimal::ZERO;
    let whole = transaction.amount.abs();
    let currency = transaction.currency.clone();
    let term = RwSignal::new(String::new());
    let found = RwSignal::new(Vec::<Candidate>::new());
    // Chosen documents and the typed part of each.
    let chosen = RwSignal::new(Vec::<(Candidate, RwSignal<String>)>::new());
    let task = Task::new();
    let failure = RwSignal::new(None::<String>);
    let cur = StoredValue::new(currency.clone());
    let run_search = move || {
        let (q, c) = (term.get_untracked(), cur.get_value());
        leptos::task::spawn_local(async move {
            match search(credit, q, c).await {
                Ok(list) => found.set(list),
                Err(e) => failure.set(Some(e.message)),
            }
        });
    };
    Effect::new(move |_| {
        if open.get() {
            run_search();
        }
    });
    let parts = move || -> Vec<Decimal> {
        chosen.with(|c| {
            c.iter()
                .map(|(_, s)| s.with(|t| typed_value(t)).unwrap_or_default())
                .collect()
        })
    };
    let rest = move || remainder(whole, &parts()).ok();
    let add = move |c: Candidate| {
        if chosen.with(|list| list.iter().any(|(x, _)| x.id == c.id)) {
            return;
        }
        let left = whole - parts().iter().copied().sum::<Decimal>();
        let part = c.open.min(left.max(Decimal::ZERO));
        chosen.update(|list| list.push((c, RwSignal::new(format_input(part)))));
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let allocations: Vec<Allocation> = chosen.with_untracked(|list| {
            list.iter()
                .map(|(c, s)| Allocation {
                    invoice_id: credit.then_some(c.id),
                    purchase_id: (!credit).then_some(c.id),
                    amount: s.with_untracked(|t| typed_value(t)),
                })
                .collect()
        });
        task.run(
            match_allocations(id, allocations),
            move |answer| match answer {
                Ok(_) => {
                    open.set(false);
                    toasts.success(t().bank_page().matched);
                    on_changed.run(());
                }
                Err(e) => failure.set(Some(e.message)),
            },
        );
    };
    let title = fill(
        texts.manual_title,
        &[("amount", &format_money(transaction.amount, &currency))],
    );
    view! {
        <Dialog open=open title=Signal::derive(move || title.clone()) class="dialog-wide">
            <form novalidate on:submit=submit>
                <div class="field">
                    <label for=format!("manual-term-{id}")>{if credit { texts.search_invoices } else { texts.search_purchases }}</label>
                    <input id=format!("manual-term-{id}") type="search" bind:value=term
                        on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Enter" { ev.prevent_default(); run_search(); } />
                </div>
                <ul class="manual-found">
                    {move || found.get().into_iter().map(|c| {
                        let label = c.label.clone();
                        let open_text = format_money(c.open, &cur.get_value());
                        let c2 = c.clone();
                        view! {
                            <li>
                                <span>{label}</span> " " <span class="money muted">{open_text}</span> " "
                                <button type="button" class="btn btn-small" data-candidate=c.id.to_string() on:click=move |_| add(c2.clone())>{t().bank_page().add}</button>
                            </li>
                        }
                    }).collect_view()}
                </ul>
                <table class="table manual-parts">
                    <tbody>
                        {move || chosen.get().into_iter().map(|(c, part)| view! {
                            <tr>
                                <td>{c.label.clone()}</td>
                                <td class="num"><input class="input-number" inputmode="decimal" aria-label=t().bank_page().part bind:value=part /></td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
                <p id=format!("manual-rest-{id}") class="manual-rest">
                    {move || match rest() {
                        Some(r) => fill(t().bank_page().remainder, &[("amount", &format_money(r, &cur.get_value()))]),
                        None => t().bank_page().too_much.to_string(),
                    }}
                </p>
                {move || failure.get().map(|m| view! { <p class="field-error" role="alert">{m}</p> })}
                <div class="dialog-actions">
                    <button type="button" class="btn" on:click=move |_| open.set(false)>{t().common().cancel}</button>
                    <button type="submit" class="btn btn-primary" id=format!("manual-book-{id}")
                        disabled=move || task.pending.get() || chosen.with(|c| c.is_empty()) || rest().is_none()>{t().bank_page().book}</button>
                </div>
            </form>
        </Dialog>
    }
}
