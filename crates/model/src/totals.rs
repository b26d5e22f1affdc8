//! Document totals of invoices and offers (`decisions.md` § Totals).
//!
//! - `item`: `net_total = quantity × unit_price`, or the given `net_total` when quantity and
//!   unit price are absent (lump sum); rounded to the currency's minor unit.
//! - `title`, `description`, `separator`, `page-break`: 0.
//! - `subtotal`: the sum of the items since the previous subtotal (or the start); not
//!   counted again in the document total.
//! - Optional (offer) positions are shown but not counted.
//! - Counted items are grouped by VAT (category, effective rate) — issue 10 contract
//!   § Per-position VAT, [`crate::position_vat::effective_vat`]. Per group:
//!   `net = round(Σ items × (1 − discount/100))`, `tax = round(net × rate/100)` (0 for
//!   every category but standard and reduced). `net_total = Σ net`,
//!   tax amount `= Σ tax`, `gross_total = net_total + Σ tax`. With one group (every
//!   document before issue 10) this is `net_total = round(Σ items × (1 − discount/100))`,
//!   `gross_total = net_total + round(net_total × tax/100)`; reverse charge: tax 0.

use crate::arith::{add, mul_round, sub};
use crate::money::{minor_units, round_money};
use crate::position::PositionType;
use crate::position_vat::{effective_vat, TaxBreakdown, TaxCategory};
use crate::vat::VatChoice;
use rust_decimal::Decimal;

/// The amounts of one position as the totals need them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PositionAmounts {
    /// The position type; `None` (not yet chosen) counts as nothing.
    pub kind: Option<PositionType>,
    /// Quantity (any sign), if given.
    pub quantity: Option<Decimal>,
    /// Unit price in currency units (any sign), if given.
    pub unit_price: Option<Decimal>,
    /// A given net total: used for lump-sum items (no quantity and no unit price).
    pub net_total: Option<Decimal>,
    /// Offer positions marked optional are shown but not counted.
    pub optional: bool,
    /// The position's own VAT rate in percent; `None` inherits the document's (issue 10).
    pub tax: Option<Decimal>,
    /// The position's VAT category; `None` derives it from the document (issue 10).
    pub tax_category: Option<TaxCategory>,
}

/// One VAT group of a document's counted items: all amounts in currency units, rounded
/// to the currency's minor unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaxGroup {
    /// The group's category.
    pub category: TaxCategory,
    /// The group's rate in percent (normalized: `19`, `7`, `0`).
    pub rate: Decimal,
    /// Σ the group's counted item net totals before the discount.
    pub items_total: Decimal,
    /// `round(items_total × (1 − discount/100))`.
    pub net_total: Decimal,
    /// `round(net_total × rate/100)`; 0 unless standard or reduced.
    pub tax_total: Decimal,
}

impl TaxGroup {
    /// The wire entry of `tax_breakdown`.
    pub fn breakdown(&self) -> TaxBreakdown {
        TaxBreakdown {
            tax_category: self.category,
            tax: self.rate,
            net_total: self.net_total,
            tax_total: self.tax_total,
        }
    }
}

/// The computed totals of a document, all rounded to the currency's minor unit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DocumentTotals {
    /// Net total of each position in input order (subtotal rows carry their running sum).
    pub positions: Vec<Decimal>,
    /// Σ counted item net totals before the discount.
    pub items_total: Decimal,
    /// Discount amount (`items_total − net_total`), ≥ 0 for a positive discount.
    pub discount_amount: Decimal,
    /// Net total after the discount.
    pub net_total: Decimal,
    /// Tax amount (0 with reverse charge).
    pub tax_amount: Decimal,
    /// `net_total + tax_amount`.
    pub gross_total: Decimal,
    /// The VAT groups of the counted items, ordered by category then rate descending
    /// (issue 10); empty when nothing is counted.
    pub groups: Vec<TaxGroup>,
}

impl DocumentTotals {
    /// The `tax_breakdown` of the output: one entry per group, in group order.
    pub fn tax_breakdown(&self) -> Vec<TaxBreakdown> {
        self.groups.iter().map(TaxGroup::breakdown).collect()
    }

    /// The distinct effective rates of the groups (percent): the PDF prints a rate per
    /// position only when there is more than one.
    pub fn distinct_rates(&self) -> usize {
        let mut rates: Vec<Decimal> = self.groups.iter().map(|g| g.rate).collect();
        rates.sort();
        rates.dedup();
        rates.len()
    }
}

/// Why totals could not be computed: an amount or a sum does not fit the decimal type.
/// Validation keeps every amount below [`crate::limits::MAX_AMOUNT`], so a valid body
/// never gets this; the server answers it with a 422 naming [`TotalsError::field`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TotalsError {
    /// The field the overflow comes from: `items[2].unit_price` (quantity × unit price),
    /// `items[2].net_total` (lump sum), `items` (the sum), `discount` or `tax`.
    pub field: String,
}

impl TotalsError {
    fn at(field: impl Into<String>) -> Self {
        TotalsError {
            field: field.into(),
        }
    }

    /// The message for the field.
    pub fn message(&self) -> crate::error::Message {
        crate::error::messages::AMOUNT_OR_TOTAL_TOO_LARGE_N.with([crate::limits::MAX_AMOUNT])
    }
}

impl std::fmt::Display for TotalsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.field, self.message())
    }
}

impl std::error::Error for TotalsError {}

/// Net total of one `item` position before any document-level rule: `quantity × unit_price`
/// when both are given, else the given lump-sum `net_total`, else 0; rounded once, half away
/// from zero, to `currency`'s minor unit. `None` when the product does not fit the decimal
/// type (never panics, never saturates).
pub fn item_net_total(position: &PositionAmounts, currency: &str) -> Option<Decimal> {
    let places = minor_units(currency);
    match (position.quantity, position.unit_price) {
        (Some(q), Some(p)) => mul_round(q, p, places),
        (None, None) => Some(round_money(
            position.net_total.unwrap_or_default(),
            currency,
        )),
        // One of the two given: the missing one counts as 0 (validation refuses this on save).
        _ => Some(round_money(Decimal::ZERO, currency)),
    }
}

/// Computes position and document totals of a document whose positions all inherit its
/// VAT or carry their own, for a document without the intra-EU flag (the signature of
/// every caller before issue 10; see [`compute_document_totals`]).
///
/// `discount` and `tax` are percentages (`19` means 19 %); `reverse_charge` sets the tax to
/// 0. Every step is checked and rounded once: an amount or sum that does not fit the
/// decimal type is a [`TotalsError`] naming the field, never a panic or a saturated value.
pub fn compute_totals(
    positions: &[PositionAmounts],
    discount: Decimal,
    tax: Decimal,
    reverse_charge: bool,
    currency: &str,
) -> Result<DocumentTotals, TotalsError> {
    let document = VatChoice {
        tax,
        reverse_charge,
        intra_eu: false,
    };
    compute_document_totals(positions, discount, &document, currency)
}

/// Computes position and document totals with VAT per position (issue 10 contract
/// § Per-position VAT): `document` is the document's VAT (its `tax` in percent is the
/// default rate of positions without one; reverse charge and intra-EU decide the derived
/// category), `discount` in percent.
///
/// Counted items (type `item`, not optional) are grouped by
/// [`effective_vat`](crate::position_vat::effective_vat) (category, rate); per group
/// `net = round(Σ items × (1 − discount/100))` and `tax = round(net × rate/100)`, 0 for
/// categories that charge no tax. `net_total = Σ net`, `tax_amount = Σ tax`,
/// `gross_total = net_total + tax_amount`. Errors: a [`TotalsError`] naming the field
/// (`items[i].unit_price`, `items`, `discount`, `tax`) when a value does not fit.
pub fn compute_document_totals(
    positions: &[PositionAmounts],
    discount: Decimal,
    document: &VatChoice,
    currency: &str,
) -> Result<DocumentTotals, TotalsError> {
    let places = minor_units(currency);
    let zero = round_money(Decimal::ZERO, currency);
    let mut out = DocumentTotals {
        positions: Vec::with_capacity(positions.len()),
        items_total: zero,
        net_total: zero,
        tax_amount: zero,
        ..Default::default()
    };
    let mut running = zero;
    for (i, position) in positions.iter().enumerate() {
        let value = match position.kind {
            Some(PositionType::Item) => {
                let net = item_net_total(position, currency)
                    .ok_or_else(|| TotalsError::at(format!("items[{i}].unit_price")))?;
                if !position.optional {
                    let sum = |a: Decimal| add(a, net).ok_or_else(|| TotalsError::at("items"));
                    running = sum(running)?;
                    out.items_total = sum(out.items_total)?;
                    let vat = effective_vat(position.tax, position.tax_category, document);
                    let rate = vat.rate.normalize();
                    match out
                        .groups
                        .iter_mut()
                        .find(|g| g.category == vat.category && g.rate == rate)
                    {
                        Some(g) => g.items_total = sum(g.items_total)?,
                        None => out.groups.push(TaxGroup {
                            category: vat.category,
                            rate,
                            items_total: sum(zero)?,
                            net_total: zero,
                            tax_total: zero,
                        }),
                    }
                }
                net
            }
            Some(PositionType::Subtotal) => std::mem::replace(&mut running, zero),
            _ => zero,
        };
        out.positions.push(value);
    }
    out.groups
        .sort_by(|a, b| a.category.cmp(&b.category).then(b.rate.cmp(&a.rate)));
    let factor = sub(Decimal::ONE, discount / Decimal::ONE_HUNDRED)
        .ok_or_else(|| TotalsError::at("discount"))?;
    for g in &mut out.groups {
        g.net_total =
            mul_round(g.items_total, factor, places).ok_or_else(|| TotalsError::at("discount"))?;
        g.tax_total = if g.category.charges_tax() {
            mul_round(g.net_total, g.rate / Decimal::ONE_HUNDRED, places)
                .ok_or_else(|| TotalsError::at("tax"))?
        } else {
            zero
        };
        out.net_total =
            add(out.net_total, g.net_total).ok_or_else(|| TotalsError::at("discount"))?;
        out.tax_amount = add(out.tax_amount, g.tax_total).ok_or_else(|| TotalsError::at("tax"))?;
    }
    out.discount_amount =
        sub(out.items_total, out.net_total).ok_or_else(|| TotalsError::at("discount"))?;
    out.gross_total = add(out.net_total, out.tax_amount).ok_or_else(|| TotalsError::at("tax"))?;
    Ok(out)
}

#[cfg(test)]
mod tests;
