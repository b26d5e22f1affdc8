//! The dashboard's cards: a figure per currency (amount and count, a link to the list
//! filtered to exactly those records) and the table of the oldest open invoices.

use super::links;
use crate::components::date::format_date;
use crate::components::list_totals::count_text;
use crate::components::money::format_money;
use crate::i18n::{fill, t};
use crate::paths::href;
use kontor_model::dashboard::OpenInvoice;
use kontor_model::Decimal;
use leptos::prelude::*;

/// One figure of a card: the amount of `count` records in `currency`.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// ISO 4217 code.
    pub currency: String,
    /// How many records.
    pub count: i64,
    /// Their sum (currency units).
    pub amount: Decimal,
}

/// A card with a title and one figure per currency, each a link to `list` (the filtered
/// list); `empty` when there is none.
#[component]
pub fn FigureCard(
    /// Card title ("Open receivables").
    title: &'static str,
    /// `data-card` name for tests and styling.
    name: &'static str,
    /// The figures, one per currency.
    figures: Vec<Figure>,
    /// What the records are called, plural ("invoices").
    noun: &'static str,
    /// The list the figures link to (in-app path with query).
    list: String,
    /// The text when there are no figures.
    empty: &'static str,
    /// Marks the figures as a warning (overdue).
    #[prop(optional)]
    warn: bool,
) -> impl IntoView {
    let body = if figures.is_empty() {
        view! { <p class="dash-empty">{empty}</p> }.into_any()
    } else {
        figures
            .into_iter()
            .map(|f| {
                let amount = format_money(f.amount, &f.currency);
                let count = count_text(f.count, noun);
                view! {
                    <a class="dash-figure" class:is-warning=warn href=href(&list) data-currency=f.currency.clone()>
                        <span class="dash-amount money">{amount}</span>
                        <span class="dash-count">{count}</span>
                    </a>
                }
            })
            .collect_view()
            .into_any()
    };
    view! {
        <section class="section dash-card" data-card=name aria-labelledby=format!("dash-{name}")>
            <h2 class="section-title" id=format!("dash-{name}")>{title}</h2>
            {body}
        </section>
    }
}

/// "12 days overdue", "1 day overdue", or "Due <date>" when not yet past (German
/// „12 Tage überfällig“, „Fällig am 23.11.2026“).
pub fn due_text(invoice: &OpenInvoice) -> String {
    let texts = t().dashboard_cards();
    match invoice.days_overdue {
        0 => fill(texts.due_on, &[("date", &format_date(invoice.due_date))]),
        1 => texts.overdue_one.into(),
        n => fill(texts.overdue_other, &[("n", &n.to_string())]),
    }
}

/// The oldest open invoices: number, customer, due, open amount; each row's number links
/// to the invoice.
#[component]
pub fn OldestInvoices(
    /// Up to five open invoices, earliest due date first.
    invoices: Vec<OpenInvoice>,
) -> impl IntoView {
    let texts = t().dashboard_cards();
    let body = if invoices.is_empty() {
        view! { <p class="dash-empty">{texts.no_open_invoices}</p> }.into_any()
    } else {
        let rows = invoices
            .into_iter()
            .map(|i| {
                let due = due_text(&i);
                let number = i.identifier.clone().unwrap_or_else(|| format!("#{}", i.id));
                let overdue = i.days_overdue > 0;
                view! {
                    <tr data-id=i.id>
                        <td class="cell-number">
                            <a href=href(&links::invoice(i.id))>{number}</a>
                        </td>
                        <td class="cell-customer">{i.customer.name.clone()}</td>
                        <td class="cell-due" class:is-overdue=overdue>{due}</td>
                        <td class="num money">{format_money(i.open_amount, &i.currency)}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <table class="dash-table">
                <thead>
                    <tr>
                        <th scope="col">{t().list().number}</th>
                        <th scope="col">{t().list().customer}</th>
                        <th scope="col">{t().list().due}</th>
                        <th scope="col" class="num">{t().list().open}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
            <p class="dash-more">
                <a href=href(&links::open_invoices())>{texts.all_open}</a>
            </p>
        }
        .into_any()
    };
    view! {
        <section class="section dash-card dash-wide" data-card="oldest" aria-labelledby="dash-oldest">
            <h2 class="section-title" id="dash-oldest">{texts.oldest_title}</h2>
            {body}
        </section>
    }
}
