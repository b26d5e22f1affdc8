//! Gross totals per currency for the list's filter (`docs/decisions.md` § List layer):
//! one request to `GET /purchases/totals` with the list's filters, summed by the server
//! over every matching purchase.

use crate::components::money::format_money;
use kontor_model::purchase::PurchaseTotal;
use leptos::prelude::*;

/// The totals bar: "Gross total of all matches: 1,234.00 EUR · 50.00 USD".
#[component]
pub fn TotalsBar(
    /// Sums per currency, as the server answered them (ordered by currency code).
    totals: Vec<PurchaseTotal>,
) -> impl IntoView {
    let text = totals
        .iter()
        .map(|t| format_money(t.gross_total, &t.currency))
        .collect::<Vec<_>>()
        .join(" · ");
    view! {
        <p class="purchase-totals" data-totals="purchases">
            <span class="muted">"Gross total of all matches:"</span>
            " "
            <strong class="money">{if text.is_empty() { "–".to_string() } else { text }}</strong>
        </p>
    }
}
