//! Document totals of invoices and offers (`decisions.md` § Totals).
//!
//! - `item`: `net_total = quantity × unit_price`, or the given `net_total` when quantity and
//!   unit price are absent (lump sum); rounded to the currency's minor unit.
//! - `title`, `description`, `separator`, `page-break`: 0.
//! - `subtotal`: the sum of the items since the previous subtotal (or the start); not
//!   counted again in the document total.
//! - Optional (offer) positions are shown but not counted.
//! - `net_total = round(Σ items × (1 − discount/100))`,
//!   `gross_total = net_total + round(net_total × tax/100)`; reverse charge: tax 0.

use crate::arith::{add, mul_round, sub};
use crate::money::{minor_units, round_money};
use crate::position::PositionType;
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
}

/// Why totals could not be computed: an amount or a sum does not fit the decimal type.
/// Validation keeps every amount below [`crate::validation::MAX_AMOUNT`], so a valid body
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
    pub fn message(&self) -> String {
        format!(
            "is too large: amounts and totals must stay below {} currency units",
            crate::validation::MAX_AMOUNT
        )
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

/// Computes position and document totals.
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
    let places = minor_units(currency);
    let zero = round_money(Decimal::ZERO, currency);
    let mut out = DocumentTotals {
        positions: Vec::with_capacity(positions.len()),
        items_total: zero,
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
                }
                net
            }
            Some(PositionType::Subtotal) => std::mem::replace(&mut running, zero),
            _ => zero,
        };
        out.positions.push(value);
    }
    let factor = sub(Decimal::ONE, discount / Decimal::ONE_HUNDRED)
        .ok_or_else(|| TotalsError::at("discount"))?;
    out.net_total =
        mul_round(out.items_total, factor, places).ok_or_else(|| TotalsError::at("discount"))?;
    out.discount_amount =
        sub(out.items_total, out.net_total).ok_or_else(|| TotalsError::at("discount"))?;
    out.tax_amount = if reverse_charge {
        zero
    } else {
        mul_round(out.net_total, tax / Decimal::ONE_HUNDRED, places)
            .ok_or_else(|| TotalsError::at("tax"))?
    };
    out.gross_total = add(out.net_total, out.tax_amount).ok_or_else(|| TotalsError::at("tax"))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::str::FromStr;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    fn item(q: &str, p: &str) -> PositionAmounts {
        PositionAmounts {
            kind: Some(PositionType::Item),
            quantity: Some(d(q)),
            unit_price: Some(d(p)),
            ..Default::default()
        }
    }

    fn lump(n: &str) -> PositionAmounts {
        PositionAmounts {
            kind: Some(PositionType::Item),
            net_total: Some(d(n)),
            ..Default::default()
        }
    }

    fn of(kind: PositionType) -> PositionAmounts {
        PositionAmounts {
            kind: Some(kind),
            ..Default::default()
        }
    }

    #[test]
    fn item_is_quantity_times_unit_price_rounded() {
        let t = compute_totals(
            &[item("3", "0.1"), item("1.5", "3.333")],
            Decimal::ZERO,
            d("19"),
            false,
            "EUR",
        )
        .unwrap();
        assert_eq!(t.positions, vec![d("0.3"), d("5.00")]);
        assert_eq!(t.net_total, d("5.30"));
        assert_eq!(t.tax_amount, d("1.01")); // 1.007 → 1.01
        assert_eq!(t.gross_total, d("6.31"));
    }

    #[test]
    fn lump_sum_uses_given_net_total() {
        let t = compute_totals(
            &[lump("99.995"), item("2", "10")],
            Decimal::ZERO,
            Decimal::ZERO,
            false,
            "EUR",
        )
        .unwrap();
        assert_eq!(t.positions[0], d("100.00"));
        assert_eq!(t.net_total, d("120.00"));
    }

    #[test]
    fn given_net_total_is_ignored_when_quantity_and_price_exist() {
        let mut p = item("2", "5");
        p.net_total = Some(d("999"));
        assert_eq!(item_net_total(&p, "EUR"), Some(d("10")));
    }

    #[test]
    fn non_items_count_zero() {
        let kinds = [
            PositionType::Title,
            PositionType::Description,
            PositionType::Separator,
            PositionType::PageBreak,
        ];
        let mut positions: Vec<_> = kinds
            .iter()
            .map(|k| PositionAmounts {
                net_total: Some(d("50")),
                quantity: Some(d("1")),
                unit_price: Some(d("50")),
                ..of(*k)
            })
            .collect();
        positions.push(item("1", "7"));
        let t = compute_totals(&positions, Decimal::ZERO, Decimal::ZERO, false, "EUR").unwrap();
        assert_eq!(t.positions, vec![d("0"), d("0"), d("0"), d("0"), d("7")]);
        assert_eq!(t.net_total, d("7"));
    }

    #[test]
    fn subtotal_sums_since_previous_subtotal_and_is_not_counted_again() {
        let positions = [
            item("1", "10"),
            item("1", "20"),
            of(PositionType::Subtotal),
            item("1", "5"),
            of(PositionType::Subtotal),
        ];
        let t = compute_totals(&positions, Decimal::ZERO, Decimal::ZERO, false, "EUR").unwrap();
        assert_eq!(t.positions[2], d("30"));
        assert_eq!(t.positions[4], d("5"));
        assert_eq!(t.net_total, d("35"));
    }

    #[test]
    fn discount_then_tax() {
        let t = compute_totals(&[item("1", "100.01")], d("3"), d("19"), false, "EUR").unwrap();
        // 100.01 × 0.97 = 97.0097 → 97.01; tax 18.4319 → 18.43
        assert_eq!(t.net_total, d("97.01"));
        assert_eq!(t.discount_amount, d("3.00"));
        assert_eq!(t.tax_amount, d("18.43"));
        assert_eq!(t.gross_total, d("115.44"));
    }

    #[test]
    fn reverse_charge_has_no_tax() {
        let t = compute_totals(&[item("2", "50")], Decimal::ZERO, d("19"), true, "EUR").unwrap();
        assert_eq!(t.tax_amount, Decimal::ZERO);
        assert_eq!(t.gross_total, d("100"));
    }

    #[test]
    fn optional_positions_are_shown_not_counted() {
        let mut opt = item("1", "500");
        opt.optional = true;
        let t = compute_totals(
            &[item("1", "100"), opt, of(PositionType::Subtotal)],
            Decimal::ZERO,
            Decimal::ZERO,
            false,
            "EUR",
        )
        .unwrap();
        assert_eq!(t.positions[1], d("500"));
        assert_eq!(t.positions[2], d("100"));
        assert_eq!(t.net_total, d("100"));
    }

    #[test]
    fn negative_amounts_round_away_from_zero() {
        let t = compute_totals(
            &[item("-1", "0.125")],
            Decimal::ZERO,
            Decimal::ZERO,
            false,
            "EUR",
        )
        .unwrap();
        assert_eq!(t.net_total, d("-0.13"));
    }

    #[test]
    fn zero_decimal_currency() {
        let t =
            compute_totals(&[item("3", "333.5")], Decimal::ZERO, d("10"), false, "JPY").unwrap();
        assert_eq!(t.net_total, d("1001")); // 1000.5 → 1001
        assert_eq!(t.tax_amount, d("100")); // 100.1 → 100
    }

    fn cents() -> impl Strategy<Value = i64> {
        -10_000_000i64..10_000_000
    }

    proptest! {
        /// Totals never lose a cent: compare with a reference computed in integer
        /// thousandths and hundredths.
        #[test]
        fn totals_match_integer_reference(
            rows in proptest::collection::vec((0i64..10_000, cents()), 0..40),
            discount_bp in 0i64..10_000,
            tax_bp in 0i64..3_000,
        ) {
            // quantity in thousandths, unit price in cents.
            let positions: Vec<_> = rows.iter().map(|(q, p)| PositionAmounts {
                kind: Some(PositionType::Item),
                quantity: Some(Decimal::new(*q, 3)),
                unit_price: Some(Decimal::new(*p, 2)),
                ..Default::default()
            }).collect();
            let discount = Decimal::new(discount_bp, 2);
            let tax = Decimal::new(tax_bp, 2);
            let t = compute_totals(&positions, discount, tax, false, "EUR").unwrap();

            // Reference in i128: value in units of 1e-5 → round half away to cents.
            fn round_div(n: i128, d: i128) -> i128 {
                let q = n / d; let r = n % d;
                if 2 * r.abs() >= d { q + n.signum() } else { q }
            }
            let sum_cents: i128 = rows.iter().map(|(q, p)| round_div(*q as i128 * *p as i128, 1000)).sum();
            // net = sum × (10000 − discount_bp) / 10000
            let net_cents = round_div(sum_cents * (10_000 - discount_bp as i128), 10_000);
            let tax_cents = round_div(net_cents * tax_bp as i128, 10_000);
            prop_assert_eq!(t.items_total, Decimal::new(sum_cents as i64, 2));
            prop_assert_eq!(t.net_total, Decimal::new(net_cents as i64, 2));
            prop_assert_eq!(t.tax_amount, Decimal::new(tax_cents as i64, 2));
            prop_assert_eq!(t.gross_total, Decimal::new((net_cents + tax_cents) as i64, 2));
            prop_assert_eq!(t.discount_amount + t.net_total, t.items_total);
        }
    }
}
