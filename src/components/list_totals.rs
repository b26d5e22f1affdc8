//! The totals under a list (issue 11 § Find and see): one row per currency with the
//! number of matches, net, gross and (invoices, purchases) open amount over every record
//! the list's filter matches — not only the page shown. The sums are the server's
//! (`GET /{invoices,offers,purchases}/summary` with the list's filters,
//! `kontor_model::query::ListSummary`); nothing is added up in the browser.

use crate::api::ApiError;
use crate::components::money::format_money;
use crate::i18n::{fill, t};
use kontor_model::query::CurrencyTotals;
use leptos::prelude::*;

/// "1 invoice", "12 invoices" (German "1 Rechnung", "12 Rechnungen"): `noun` is a regular
/// English plural (invoices, offers, purchases) naming the catalogue's `count` texts;
/// other nouns are counted in English.
pub fn count_text(count: i64, noun: &str) -> String {
    let key = format!("{noun}_{}", if count == 1 { "one" } else { "many" });
    if let Some(text) = t().count().get(&key) {
        return fill(text, &[("n", &count.to_string())]);
    }
    if count == 1 {
        format!("1 {}", noun.strip_suffix('s').unwrap_or(noun))
    } else {
        format!("{count} {noun}")
    }
}

/// The totals table: "Totals of all matches" and per currency count, net, gross and,
/// with `show_open`, the open amount. No currency (nothing matches) shows nothing.
#[component]
pub fn ListTotals(
    /// The sums per currency as the server answered them (ordered by currency code).
    totals: Vec<CurrencyTotals>,
    /// Show the open amount column (invoices, purchases; offers have none).
    #[prop(optional)]
    show_open: bool,
    /// What a match is called, plural ("invoices"), for the count cell.
    noun: &'static str,
) -> impl IntoView {
    if totals.is_empty() {
        return ().into_any();
    }
    let rows = totals
        .into_iter()
        .map(|t| {
            let open = t
                .open_amount
                .map(|o| format_money(o, &t.currency))
                .unwrap_or_else(|| "–".into());
            view! {
                <tr data-currency=t.currency.clone()>
                    <th scope="row">{t.currency.clone()}</th>
                    <td class="num" data-total="count">{count_text(t.count, noun)}</td>
                    <td class="num money" data-total="net">{format_money(t.net_total, &t.currency)}</td>
                    <td class="num money" data-total="gross">{format_money(t.gross_total, &t.currency)}</td>
                    {show_open.then(|| view! { <td class="num money" data-total="open">{open}</td> })}
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="list-totals-wrap">
            <table class="list-totals" data-totals=noun>
                <caption>{t().totals().caption}</caption>
                <thead>
                    <tr>
                        <th scope="col">{t().totals().currency}</th>
                        <th scope="col" class="num">{t().totals().count}</th>
                        <th scope="col" class="num">{t().totals().net}</th>
                        <th scope="col" class="num">{t().totals().gross}</th>
                        {show_open.then(|| view! { <th scope="col" class="num">{t().totals().open}</th> })}
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any()
}

/// The totals once loaded: the table, "Summing…" while the request runs, or a quiet note
/// when the sums could not be had (the list itself stays usable).
#[component]
pub fn ListTotalsLoad(
    /// The summary request of the list's filter (`None` while it runs).
    #[prop(into)]
    totals: Signal<Option<Result<Vec<CurrencyTotals>, ApiError>>>,
    /// Show the open amount column.
    #[prop(optional)]
    show_open: bool,
    /// What a match is called, plural ("invoices").
    noun: &'static str,
) -> impl IntoView {
    move || {
        match totals.get() {
        Some(Ok(all)) => {
            view! { <ListTotals totals=all show_open=show_open noun=noun /> }.into_any()
        }
        Some(Err(e)) => view! {
            <p class="list-totals-note muted">{fill(t().totals().unavailable, &[("message", &e.message)])}</p>
        }
        .into_any(),
        None => {
            view! { <p class="list-totals-note muted" aria-live="polite">{t().totals().summing}</p> }.into_any()
        }
    }
    }
}
