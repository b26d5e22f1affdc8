//! Totals of the rows, computed by [`kontor_model::totals::compute_totals`] as the user
//! types, and the summary box that shows them.

use super::row::PositionRow;
use crate::components::locale::format_input;
use crate::components::money::format_money;
use kontor_model::position::PositionType;
use kontor_model::totals::{compute_totals, DocumentTotals};
use kontor_model::Decimal;
use leptos::prelude::*;
use std::collections::HashMap;

/// The document totals of `rows`, recomputed when any amount, type, the discount, the tax,
/// reverse charge or the currency changes; `None` while the amounts are too large to add
/// up (shown as "—", refused with field errors on save).
pub fn use_totals(
    rows: RwSignal<Vec<PositionRow>>,
    currency: Signal<String>,
    discount: Signal<Decimal>,
    tax: Signal<Decimal>,
    reverse_charge: Signal<bool>,
) -> Memo<Option<DocumentTotals>> {
    Memo::new(move |_| {
        let amounts: Vec<_> = rows.with(|list| list.iter().map(PositionRow::amounts).collect());
        currency.with(|c| {
            compute_totals(&amounts, discount.get(), tax.get(), reverse_charge.get(), c).ok()
        })
    })
}

/// The running sum of each subtotal row, by row key (only subtotal rows listen to it).
pub fn use_subtotals(
    rows: RwSignal<Vec<PositionRow>>,
    totals: Memo<Option<DocumentTotals>>,
) -> Memo<HashMap<u64, Decimal>> {
    Memo::new(move |_| {
        totals.with(|t| {
            let Some(t) = t else {
                return HashMap::new();
            };
            rows.with(|list| {
                list.iter()
                    .zip(&t.positions)
                    .filter(|(row, _)| row.kind.get() == PositionType::Subtotal)
                    .map(|(row, value)| (row.key, *value))
                    .collect()
            })
        })
    })
}

/// The summary box: items, discount, net, tax and gross.
#[component]
pub fn TotalsBox(
    /// The totals to show (`None`: too large to add up, shown as "—").
    totals: Memo<Option<DocumentTotals>>,
    /// The currency code.
    #[prop(into)]
    currency: Signal<String>,
    /// The discount in percent (shown in the label).
    #[prop(into)]
    discount: Signal<Decimal>,
    /// The tax rate in percent (shown in the label).
    #[prop(into)]
    tax: Signal<Decimal>,
    /// Reverse charge: the tax line says so.
    #[prop(into)]
    reverse_charge: Signal<bool>,
) -> impl IntoView {
    let amount = move |pick: fn(&DocumentTotals) -> Decimal| {
        move || {
            currency.with(|c| {
                totals.with(|t| {
                    t.as_ref()
                        .map(|t| format_money(pick(t), c))
                        .unwrap_or_else(|| "—".into())
                })
            })
        }
    };
    let percent = |d: Decimal| format_input(d.normalize());
    view! {
        <dl class="totals-box" aria-label="Totals" aria-live="polite">
            <div class="totals-line">
                <dt>"Positions"</dt>
                <dd class="money" data-total="items">{amount(|t| t.items_total)}</dd>
            </div>
            <Show when=move || !discount.get().is_zero()>
                <div class="totals-line">
                    <dt>{move || format!("Discount {} %", percent(discount.get()))}</dt>
                    <dd class="money" data-total="discount">{amount(|t| -t.discount_amount)}</dd>
                </div>
            </Show>
            <div class="totals-line">
                <dt>"Net total"</dt>
                <dd class="money" data-total="net">{amount(|t| t.net_total)}</dd>
            </div>
            <div class="totals-line">
                <dt>
                    {move || {
                        if reverse_charge.get() {
                            "Tax (reverse charge)".to_string()
                        } else {
                            format!("Tax {} %", percent(tax.get()))
                        }
                    }}
                </dt>
                <dd class="money" data-total="tax">{amount(|t| t.tax_amount)}</dd>
            </div>
            <div class="totals-line totals-gross">
                <dt>"Gross total"</dt>
                <dd class="money" data-total="gross">{amount(|t| t.gross_total)}</dd>
            </div>
        </dl>
    }
}
