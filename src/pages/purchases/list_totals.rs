//! Gross totals per currency for the list's filter (`docs/decisions.md` § Purchases in the
//! app): all matching purchases are fetched in pages of 100 up to [`MAX_PAGES`]; when the
//! filter matches more, the sums of the page shown are used and labelled as such.

use crate::api::purchases::list_purchases;
use crate::api::ApiError;
use crate::components::money::format_money;
use kontor_model::purchase::Purchase;
use kontor_model::query::PurchaseFilter;
use kontor_model::Decimal;
use leptos::prelude::*;
use std::collections::BTreeMap;

/// Pages of 100 fetched at most for the totals (1,000 purchases).
pub const MAX_PAGES: u32 = 10;

/// Gross sums per currency of `purchases`, ordered by currency code.
pub fn gross_by_currency(purchases: &[Purchase]) -> BTreeMap<String, Decimal> {
    let mut sums = BTreeMap::new();
    for p in purchases {
        *sums.entry(p.currency.clone()).or_insert(Decimal::ZERO) += p.gross_total;
    }
    sums
}

/// The sums for `filter` over all pages, or `None` when more than [`MAX_PAGES`] pages match.
pub async fn filter_totals(
    filter: &PurchaseFilter,
) -> Result<Option<BTreeMap<String, Decimal>>, ApiError> {
    let mut f = filter.clone();
    f.paging.per_page = Some(100);
    let mut all = Vec::new();
    for page in 1..=MAX_PAGES {
        f.paging.page = Some(page);
        let got = list_purchases(&f).await?;
        let pages = got.page_count();
        all.extend(got.items);
        if page >= pages {
            return Ok(Some(gross_by_currency(&all)));
        }
    }
    Ok(None)
}

/// The totals bar: "Total gross: 1,234.00 EUR · 50.00 USD".
#[component]
pub fn TotalsBar(
    /// Sums per currency.
    sums: BTreeMap<String, Decimal>,
    /// True when only the page shown is summed.
    this_page_only: bool,
) -> impl IntoView {
    let text = sums
        .iter()
        .map(|(c, s)| format_money(*s, c))
        .collect::<Vec<_>>()
        .join(" · ");
    let label = if this_page_only {
        "Gross on this page:"
    } else {
        "Gross total of all matches:"
    };
    view! {
        <p class="purchase-totals" data-totals="purchases">
            <span class="muted">{label}</span>
            " "
            <strong class="money">{if text.is_empty() { "–".to_string() } else { text }}</strong>
        </p>
    }
}
