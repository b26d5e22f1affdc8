//! Totals of the rows, computed by [`kontor_model::totals::compute_totals`] as the user
//! types, and the summary box that shows them.

use super::row::PositionRow;
use super::row_view::EditorState;
use crate::components::locale::format_input;
use crate::components::money::format_money;
use crate::i18n::{fill, t};
use kontor_model::position::PositionType;
use kontor_model::position_vat::TaxCategory;
use kontor_model::totals::{compute_document_totals, DocumentTotals, TaxGroup};
use kontor_model::vat::VatChoice;
use kontor_model::Decimal;
use leptos::prelude::*;
use std::collections::HashMap;

/// The document totals of `rows` (with their VAT groups, one per category and rate:
/// [`compute_document_totals`]), recomputed when any amount, type, VAT choice, the
/// discount, the document's VAT or the currency changes; `None` while the amounts are too
/// large to add up (shown as "—", refused with field errors on save).
pub fn use_totals(
    rows: RwSignal<Vec<PositionRow>>,
    currency: Signal<String>,
    discount: Signal<Decimal>,
    document_vat: Signal<VatChoice>,
) -> Memo<Option<DocumentTotals>> {
    Memo::new(move |_| {
        let amounts: Vec<_> = rows.with(|list| list.iter().map(PositionRow::amounts).collect());
        currency.with(|c| {
            document_vat.with(|vat| compute_document_totals(&amounts, discount.get(), vat, c).ok())
        })
    })
}

/// The label of a VAT group's tax line: "VAT 19 %", "VAT 0 %", "Exempt (no VAT)",
/// "VAT (reverse charge)", "VAT (intra-EU, exempt)", "VAT (export, exempt)".
pub fn group_label(group: &TaxGroup) -> String {
    tax_line_label(group.category, group.rate)
}

/// The label of the tax line of VAT `category` at `rate` percent (see [`group_label`]).
pub fn tax_line_label(category: TaxCategory, rate: Decimal) -> String {
    let n = t().position_editor_totals();
    match category {
        TaxCategory::Standard | TaxCategory::Reduced | TaxCategory::Zero => {
            fill(n.vat_rate, &[("rate", &format_input(rate.normalize()))])
        }
        TaxCategory::Exempt => n.exempt.into(),
        TaxCategory::ReverseCharge => n.reverse_charge.into(),
        TaxCategory::IntraEu => n.intra_eu.into(),
        TaxCategory::Export => n.export.into(),
    }
}

/// The `data-tax-group` of a group's line: `standard:19`, `exempt:0`.
fn group_key(group: &TaxGroup) -> String {
    format!("{}:{}", group.category.as_str(), group.rate.normalize())
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
    /// The discount in percent (shown in the label).
    #[prop(into)]
    discount: Signal<Decimal>,
    /// The editor: its currency, and its document VAT (the tax rate shown in the label;
    /// reverse charge: the tax line says so).
    state: EditorState,
) -> impl IntoView {
    let currency = state.currency;
    let vat = state.document_vat;
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
        <dl class="totals-box" aria-label=t().position_editor_totals().label aria-live="polite">
            <div class="totals-line">
                <dt>{t().position_editor_totals().positions}</dt>
                <dd class="money" data-total="items">{amount(|t| t.items_total)}</dd>
            </div>
            <Show when=move || !discount.get().is_zero()>
                <div class="totals-line">
                    <dt>{move || fill(t().position_editor_totals().discount, &[("percent", &percent(discount.get()))])}</dt>
                    <dd class="money" data-total="discount">{amount(|t| -t.discount_amount)}</dd>
                </div>
            </Show>
            <div class="totals-line">
                <dt>{t().position_editor_totals().net_total}</dt>
                <dd class="money" data-total="net">{amount(|t| t.net_total)}</dd>
            </div>
            {move || {
                let groups = totals.with(|t| t.as_ref().map(|t| t.groups.clone()).unwrap_or_default());
                if groups.len() <= 1 {
                    // One rate: one tax line, as before per-position VAT.
                    let group = groups.first().cloned();
                    let label = match &group {
                        Some(g) => group_label(g),
                        None if vat.with(|v| v.reverse_charge) => t().position_editor_totals().reverse_charge.to_string(),
                        None => fill(t().position_editor_totals().vat_rate, &[("rate", &percent(vat.with(|v| v.tax)))]),
                    };
                    let key = group.as_ref().map(group_key);
                    view! {
                        <div class="totals-line" data-tax-group=key>
                            <dt>{label}</dt>
                            <dd class="money" data-total="tax">{amount(|t| t.tax_amount)}</dd>
                        </div>
                    }
                    .into_any()
                } else {
                    // Several rates: one line per rate with its net, then the tax total.
                    let lines = groups
                        .into_iter()
                        .map(|g| {
                            let on = currency.with(|c| format_money(g.net_total, c));
                            let tax = currency.with(|c| format_money(g.tax_total, c));
                            view! {
                                <div class="totals-line totals-group" data-tax-group=group_key(&g)>
                                    <dt>{group_label(&g)} <span class="totals-on">{fill(t().position_editor_totals().on, &[("amount", &on)])}</span></dt>
                                    <dd class="money">{tax}</dd>
                                </div>
                            }
                        })
                        .collect_view();
                    view! {
                        {lines}
                        <div class="totals-line">
                            <dt>{t().position_editor_totals().vat_total}</dt>
                            <dd class="money" data-total="tax">{amount(|t| t.tax_amount)}</dd>
                        </div>
                    }
                    .into_any()
                }
            }}
            <div class="totals-line totals-gross">
                <dt>{t().position_editor_totals().gross_total}</dt>
                <dd class="money" data-total="gross">{amount(|t| t.gross_total)}</dd>
            </div>
        </dl>
    }
}

/// The tax lines of a stored invoice or offer from its `tax_breakdown`: one line labelled
/// `single_label` when there is at most one group (as before per-position VAT), else one
/// line per group ("VAT 7 % on 50.00 EUR") and a "VAT total".
#[component]
pub fn StoredTaxLines(
    /// The document's `tax_breakdown`.
    breakdown: Vec<kontor_model::position_vat::TaxBreakdown>,
    /// The document's tax amount (gross − net).
    tax_total: Decimal,
    /// The currency code.
    #[prop(into)]
    currency: String,
    /// The label of a single tax line ("VAT 19 %", "VAT (reverse charge)").
    #[prop(into)]
    single_label: String,
) -> impl IntoView {
    if breakdown.len() <= 1 {
        let label = breakdown
            .first()
            .map(|g| tax_line_label(g.tax_category, g.tax))
            .unwrap_or(single_label);
        return view! {
            <div class="totals-line"><dt>{label}</dt><dd class="money">{format_money(tax_total, &currency)}</dd></div>
        }
        .into_any();
    }
    let lines = breakdown
        .iter()
        .map(|g| {
            let on = format_money(g.net_total, &currency);
            view! {
                <div class="totals-line totals-group" data-tax-group=format!("{}:{}", g.tax_category.as_str(), g.tax.normalize())>
                    <dt>{tax_line_label(g.tax_category, g.tax)} <span class="totals-on">{fill(t().position_editor_totals().on, &[("amount", &on)])}</span></dt>
                    <dd class="money">{format_money(g.tax_total, &currency)}</dd>
                </div>
            }
        })
        .collect_view();
    view! {
        {lines}
        <div class="totals-line"><dt>{t().position_editor_totals().vat_total}</dt><dd class="money">{format_money(tax_total, &currency)}</dd></div>
    }
    .into_any()
}
