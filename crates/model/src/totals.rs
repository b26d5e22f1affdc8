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

    fn taxed(
        q: &str,
        p: &str,
        tax: Option<&str>,
        category: Option<TaxCategory>,
    ) -> PositionAmounts {
        PositionAmounts {
            tax: tax.map(d),
            tax_category: category,
            ..item(q, p)
        }
    }

    fn doc(tax: &str, reverse_charge: bool, intra_eu: bool) -> VatChoice {
        VatChoice {
            tax: d(tax),
            reverse_charge,
            intra_eu,
        }
    }

    #[test]
    fn seven_and_nineteen_percent_positions_form_two_groups() {
        let positions = [
            item("1", "100"),
            taxed("2", "25", Some("7"), Some(TaxCategory::Reduced)),
            of(PositionType::Subtotal),
            taxed("1", "10", Some("19"), None),
        ];
        let t = compute_document_totals(&positions, Decimal::ZERO, &doc("19", false, false), "EUR")
            .unwrap();
        assert_eq!(t.net_total, d("160"));
        assert_eq!(t.tax_amount, d("24.40")); // 110 × 19 % = 20.90, 50 × 7 % = 3.50
        assert_eq!(t.gross_total, d("184.40"));
        let b = t.tax_breakdown();
        assert_eq!(b.len(), 2);
        assert_eq!(
            (b[0].tax_category, b[0].tax),
            (TaxCategory::Standard, d("19"))
        );
        assert_eq!((b[0].net_total, b[0].tax_total), (d("110"), d("20.90")));
        assert_eq!(
            (b[1].tax_category, b[1].tax),
            (TaxCategory::Reduced, d("7"))
        );
        assert_eq!((b[1].net_total, b[1].tax_total), (d("50"), d("3.50")));
        assert_eq!(t.distinct_rates(), 2);
        assert_eq!(t.positions[2], d("150"));
    }

    #[test]
    fn discount_is_rounded_per_group() {
        // 10.01 and 10.01 at 3 %: 9.7097 → 9.71 per group, 19.42 in all (one group:
        // 20.02 × 0.97 = 19.4194 → 19.42, the same here).
        let positions = [
            taxed("1", "10.01", Some("7"), None),
            taxed("1", "10.01", Some("19"), None),
        ];
        let t =
            compute_document_totals(&positions, d("3"), &doc("19", false, false), "EUR").unwrap();
        assert_eq!(t.groups[0].net_total, d("9.71"));
        assert_eq!(t.groups[1].net_total, d("9.71"));
        assert_eq!(t.net_total, d("19.42"));
        assert_eq!(t.discount_amount, d("0.60"));
        assert_eq!(t.tax_amount, d("1.84") + d("0.68"));
    }

    #[test]
    fn zero_rate_categories_carry_no_tax_and_sort_after_standard() {
        let positions = [
            taxed("1", "30", None, Some(TaxCategory::Export)),
            taxed("1", "20", None, Some(TaxCategory::Exempt)),
            item("1", "100"),
        ];
        let t = compute_document_totals(&positions, Decimal::ZERO, &doc("19", false, false), "EUR")
            .unwrap();
        let cats: Vec<_> = t.groups.iter().map(|g| g.category).collect();
        assert_eq!(
            cats,
            [
                TaxCategory::Standard,
                TaxCategory::Exempt,
                TaxCategory::Export
            ]
        );
        assert_eq!(t.tax_amount, d("19.00"));
        assert_eq!(t.gross_total, d("169.00"));
        assert!(t.groups[1..]
            .iter()
            .all(|g| g.rate.is_zero() && g.tax_total.is_zero()));
    }

    #[test]
    fn intra_eu_documents_derive_a_zero_rate_group() {
        let t = compute_document_totals(
            &[item("1", "100")],
            Decimal::ZERO,
            &doc("19", false, true),
            "EUR",
        )
        .unwrap();
        assert_eq!(t.groups[0].category, TaxCategory::IntraEu);
        assert_eq!(t.tax_amount, Decimal::ZERO);
        let rc = compute_totals(&[item("1", "100")], Decimal::ZERO, d("19"), true, "EUR").unwrap();
        assert_eq!(rc.groups[0].category, TaxCategory::ReverseCharge);
        let none =
            compute_totals(&[of(PositionType::Title)], d("5"), d("19"), false, "EUR").unwrap();
        assert!(none.groups.is_empty() && none.tax_breakdown().is_empty());
        assert_eq!(none.gross_total, d("0"));
    }

    #[test]
    fn optional_positions_form_no_group() {
        let mut opt = taxed("1", "500", Some("7"), None);
        opt.optional = true;
        let t = compute_totals(
            &[item("1", "100"), opt],
            Decimal::ZERO,
            d("19"),
            false,
            "EUR",
        )
        .unwrap();
        assert_eq!(t.groups.len(), 1);
        assert_eq!(t.distinct_rates(), 1);
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

    fn rates() -> impl Strategy<Value = (Option<i64>, Option<TaxCategory>)> {
        prop_oneof![
            Just((None, None)),
            Just((Some(700), Some(TaxCategory::Reduced))),
            Just((Some(1900), None)),
            Just((Some(0), None)),
            Just((None, Some(TaxCategory::Exempt))),
            Just((Some(550), Some(TaxCategory::Standard))),
            Just((None, Some(TaxCategory::ReverseCharge))),
        ]
    }

    proptest! {
        /// Σ group nets = net_total, Σ group taxes = tax amount, Σ group items = items
        /// total, and each group's tax is its net at its rate.
        #[test]
        fn groups_add_up_to_the_document(
            rows in proptest::collection::vec((0i64..10_000, cents(), rates()), 0..30),
            discount_bp in 0i64..10_000,
            tax_bp in 0i64..3_000,
        ) {
            let positions: Vec<_> = rows.iter().map(|(q, p, (tax, category))| PositionAmounts {
                kind: Some(PositionType::Item),
                quantity: Some(Decimal::new(*q, 3)),
                unit_price: Some(Decimal::new(*p, 2)),
                tax: tax.map(|t| Decimal::new(t, 2)),
                tax_category: *category,
                ..Default::default()
            }).collect();
            let document = VatChoice { tax: Decimal::new(tax_bp, 2), reverse_charge: false, intra_eu: false };
            let t = compute_document_totals(&positions, Decimal::new(discount_bp, 2), &document, "EUR").unwrap();
            let sum = |f: fn(&TaxGroup) -> Decimal| t.groups.iter().fold(Decimal::ZERO, |a, g| a + f(g));
            prop_assert_eq!(sum(|g| g.net_total), t.net_total);
            prop_assert_eq!(sum(|g| g.tax_total), t.tax_amount);
            prop_assert_eq!(sum(|g| g.items_total), t.items_total);
            prop_assert_eq!(t.net_total + t.tax_amount, t.gross_total);
            for g in &t.groups {
                let expected = if g.category.charges_tax() {
                    mul_round(g.net_total, g.rate / Decimal::ONE_HUNDRED, 2).unwrap()
                } else {
                    Decimal::ZERO
                };
                prop_assert_eq!(g.tax_total, expected);
            }
            let mut keys: Vec<_> = t.groups.iter().map(|g| (g.category, g.rate)).collect();
            let n = keys.len();
            keys.dedup();
            prop_assert_eq!(keys.len(), n, "one group per (category, rate)");
        }

        /// One group (every position inherits the document's VAT) is exactly the formula
        /// before issue 10: net = round(Σ × (1 − d)), tax = round(net × rate).
        #[test]
        fn single_group_is_the_old_formula(
            rows in proptest::collection::vec((0i64..10_000, cents()), 1..30),
            discount_bp in 0i64..10_000,
            tax_bp in 0i64..3_000,
            reverse_charge in any::<bool>(),
        ) {
            let positions: Vec<_> = rows.iter().map(|(q, p)| PositionAmounts {
                kind: Some(PositionType::Item),
                quantity: Some(Decimal::new(*q, 3)),
                unit_price: Some(Decimal::new(*p, 2)),
                ..Default::default()
            }).collect();
            let discount = Decimal::new(discount_bp, 2);
            let tax = Decimal::new(tax_bp, 2);
            let t = compute_totals(&positions, discount, tax, reverse_charge, "EUR").unwrap();
            prop_assert_eq!(t.groups.len(), 1);
            let net = mul_round(t.items_total, Decimal::ONE - discount / Decimal::ONE_HUNDRED, 2).unwrap();
            let tax_amount = if reverse_charge { Decimal::ZERO } else { mul_round(net, tax / Decimal::ONE_HUNDRED, 2).unwrap() };
            prop_assert_eq!(t.net_total, net);
            prop_assert_eq!(t.tax_amount, tax_amount);
            prop_assert_eq!(t.gross_total, net + tax_amount);
            // …and the same with explicit own rates equal to the document's.
            let own: Vec<_> = positions.iter().map(|p| PositionAmounts { tax: Some(tax), ..p.clone() }).collect();
            let o = compute_totals(&own, discount, tax, reverse_charge, "EUR");
            if !reverse_charge {
                let o = o.unwrap();
                prop_assert_eq!((o.net_total, o.tax_amount, o.gross_total), (t.net_total, t.tax_amount, t.gross_total));
            }
        }
    }
}
