//! Unit tests of `totals` (kept apart so the module itself stays short).

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
    let t = compute_totals(&[item("3", "333.5")], Decimal::ZERO, d("10"), false, "JPY").unwrap();
    assert_eq!(t.net_total, d("1001")); // 1000.5 → 1001
    assert_eq!(t.tax_amount, d("100")); // 100.1 → 100
}

fn taxed(q: &str, p: &str, tax: Option<&str>, category: Option<TaxCategory>) -> PositionAmounts {
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
    let t = compute_document_totals(&positions, d("3"), &doc("19", false, false), "EUR").unwrap();
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
    let none = compute_totals(&[of(PositionType::Title)], d("5"), d("19"), false, "EUR").unwrap();
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

/// The items of generated `rows` (quantity in thousandths, unit price in cents) with the
/// discount and tax in percent from hundredths (basis points).
fn generated(
    rows: &[(i64, i64)],
    discount_bp: i64,
    tax_bp: i64,
) -> (Vec<PositionAmounts>, Decimal, Decimal) {
    let positions = rows
        .iter()
        .map(|(q, p)| PositionAmounts {
            kind: Some(PositionType::Item),
            quantity: Some(Decimal::new(*q, 3)),
            unit_price: Some(Decimal::new(*p, 2)),
            ..Default::default()
        })
        .collect();
    (
        positions,
        Decimal::new(discount_bp, 2),
        Decimal::new(tax_bp, 2),
    )
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
        let (positions, discount, tax) = generated(&rows, discount_bp, tax_bp);
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
        let (positions, discount, tax) = generated(&rows, discount_bp, tax_bp);
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
