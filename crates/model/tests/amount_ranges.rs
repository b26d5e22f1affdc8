//! Issue 8: random huge, tiny and negative amounts thrown at validation and totals. Each
//! body is either refused with field errors (a 422 naming fields) or its totals equal a
//! reference computed exactly in 128-bit integers on scaled values — never a panic, never
//! a saturated value (`docs/decisions.md` § Amount ranges (issue 8)).

use kontor_model::arith::mul_round;
use kontor_model::billing::NewExpense;
use kontor_model::invoice_input::{NewInvoice, NewInvoiceItem};
use kontor_model::payment_rules::validate_payment;
use kontor_model::position::PositionType;
use kontor_model::purchase::{NewPurchase, NewPurchaseItem, PaymentMethod};
use kontor_model::purchase_totals::{purchase_position_totals, sum_purchase_totals};
use kontor_model::totals::compute_totals;
use kontor_model::validation::{
    validate_expense_amounts, validate_new_invoice, validate_new_purchase, MAX_AMOUNT,
};
use kontor_model::Decimal;
use proptest::prelude::*;

/// Any Decimal at all: full 96-bit mantissas, any sign, any scale.
fn any_decimal() -> impl Strategy<Value = Decimal> {
    (
        any::<u32>(),
        any::<u32>(),
        any::<u32>(),
        any::<bool>(),
        0u32..=28,
    )
        .prop_map(|(lo, mid, hi, neg, scale)| Decimal::from_parts(lo, mid, hi, neg, scale))
}

/// Amounts people might type, negative ones, tiny ones, huge ones and absurd ones.
fn amount() -> impl Strategy<Value = Decimal> {
    prop_oneof![
        3 => (-10_000_000i64..10_000_000, 0u32..4).prop_map(|(m, s)| Decimal::new(m, s)),
        2 => (any::<i64>(), 0u32..8).prop_map(|(m, s)| Decimal::new(m, s)),
        1 => (-999_999_999_999_999i64..=999_999_999_999_999, 0u32..3)
            .prop_map(|(m, s)| Decimal::new(m, s)),
        1 => (any::<i64>(), 10u32..28).prop_map(|(m, s)| Decimal::new(m, s)),
        1 => any_decimal(),
    ]
}

fn quantity() -> impl Strategy<Value = Decimal> {
    prop_oneof![
        3 => (-100_000i64..100_000, 0u32..4).prop_map(|(m, s)| Decimal::new(m, s)),
        1 => (-9_999_999_999_999i64..=9_999_999_999_999, 0u32..=4)
            .prop_map(|(m, s)| Decimal::new(m, s)),
        1 => amount(),
    ]
}

fn percent() -> impl Strategy<Value = Decimal> {
    prop_oneof![
        4 => (0i64..=1_000_000, 0u32..=4).prop_map(|(m, s)| Decimal::new(m, s)),
        1 => amount(),
    ]
}

/// `n / d` rounded half away from zero, `d > 0`.
fn round_div(n: i128, d: i128) -> i128 {
    let (q, r) = (n / d, n % d);
    if r.abs() >= d - r.abs() {
        q + n.signum()
    } else {
        q
    }
}

fn pow10(e: u32) -> i128 {
    10i128.pow(e)
}

/// `value` in cents (EUR), rounded half away from zero.
fn cents_of(mantissa: i128, scale: u32) -> i128 {
    if scale >= 2 {
        round_div(mantissa, pow10(scale - 2))
    } else {
        mantissa * pow10(2 - scale)
    }
}

fn cents(c: i128) -> Decimal {
    Decimal::from_i128_with_scale(c, 2)
}

/// Whether `c` cents fit a Decimal with two places (so Decimal sums of them are exact).
fn fits(c: i128) -> bool {
    Decimal::try_from_i128_with_scale(c, 2).is_ok()
}

#[derive(Clone, Debug)]
enum Row {
    Priced(Decimal, Decimal),
    Lump(Decimal),
}

fn row() -> impl Strategy<Value = Row> {
    prop_oneof![
        3 => (quantity(), amount()).prop_map(|(q, p)| Row::Priced(q, p)),
        1 => amount().prop_map(Row::Lump),
    ]
}

fn invoice(rows: &[Row], discount: Decimal, tax: Decimal) -> NewInvoice {
    NewInvoice {
        customer_id: Some(1),
        recipient_address: Some("ACME".into()),
        date: chrono::NaiveDate::from_ymd_opt(2026, 11, 1),
        due_date: chrono::NaiveDate::from_ymd_opt(2026, 11, 15),
        title: Some("Probe".into()),
        tax: Some(tax),
        discount: Some(discount),
        currency: Some("EUR".into()),
        items: Some(
            rows.iter()
                .map(|r| {
                    let (quantity, unit_price, net_total) = match r {
                        Row::Priced(q, p) => (Some(*q), Some(*p), None),
                        Row::Lump(n) => (None, None, Some(*n)),
                    };
                    NewInvoiceItem {
                        kind: Some(PositionType::Item),
                        title: Some("x".into()),
                        quantity,
                        unit_price,
                        net_total,
                        ..Default::default()
                    }
                })
                .collect(),
        ),
        ..Default::default()
    }
}

/// The document totals in exact integer cents: (items, net, tax), or `None` when even
/// 128 bits do not hold an intermediate value.
fn reference(
    rows: &[Row],
    discount: Decimal,
    tax: Decimal,
) -> Option<(Vec<i128>, i128, i128, i128)> {
    let mut positions = Vec::new();
    for r in rows {
        let c = match r {
            Row::Priced(q, p) => {
                let m = q.mantissa().checked_mul(p.mantissa())?;
                let scale = q.scale() + p.scale();
                if scale >= 2 {
                    // |m| < 1.7·10^38: below half of 10^39, so it rounds to 0.
                    if scale - 2 > 38 {
                        0
                    } else {
                        round_div(m, pow10(scale - 2))
                    }
                } else {
                    m.checked_mul(pow10(2 - scale))?
                }
            }
            Row::Lump(n) => cents_of(n.mantissa(), n.scale()),
        };
        positions.push(c);
    }
    // Every position and every running sum must fit two places for Decimal to be exact.
    let sum = positions.iter().try_fold(0i128, |s, c| {
        let next = s.checked_add(*c)?;
        (fits(*c) && fits(next)).then_some(next)
    })?;
    // net = sum × (100·10^sd − md) / (100·10^sd)
    let dd = 100i128.checked_mul(pow10(discount.scale()))?;
    let net = round_div(sum.checked_mul(dd.checked_sub(discount.mantissa())?)?, dd);
    let td = 100i128.checked_mul(pow10(tax.scale()))?;
    let tax_c = round_div(net.checked_mul(tax.mantissa())?, td);
    (fits(net) && fits(tax_c) && fits(net.checked_add(tax_c)?)).then_some(())?;
    Some((positions, sum, net, tax_c))
}

/// Purchase position gross/net/tax in exact cents (EUR).
fn purchase_reference(total: Decimal, tax: Decimal, included: bool) -> Option<(i128, i128, i128)> {
    let gross_or_net = cents_of(total.mantissa(), total.scale());
    let td = 100i128.checked_mul(pow10(tax.scale()))?;
    if included {
        // net = total × td / (td + mt), in cents: mt·10^2·td / (10^st·(td + mt))
        let num = total.mantissa().checked_mul(100)?.checked_mul(td)?;
        let den = pow10(total.scale()).checked_mul(td.checked_add(tax.mantissa())?)?;
        // A divisor of 0 (tax −100 %) has no net; the model answers `None` too.
        let (num, den) = match den {
            0 => return None,
            d if d < 0 => (num.checked_neg()?, -d),
            d => (num, d),
        };
        let net = round_div(num, den);
        Some((net, gross_or_net - net, gross_or_net))
    } else {
        // tax = total × mt / td, in cents: mt_total·mt·10^2 / (10^st·td)
        let num = total
            .mantissa()
            .checked_mul(tax.mantissa())?
            .checked_mul(100)?;
        let den = pow10(total.scale()).checked_mul(td)?;
        let t = round_div(num, den);
        Some((gross_or_net, t, gross_or_net + t))
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn invoice_is_refused_or_its_totals_are_exact(
        rows in proptest::collection::vec(row(), 1..6),
        discount in percent(),
        tax in percent(),
    ) {
        let body = invoice(&rows, discount, tax);
        let errors = validate_new_invoice(&body, &["EUR".to_string()]);
        let amounts: Vec<_> = body.items.as_ref().unwrap().iter().map(|i| i.amounts()).collect();
        // Never panics, whatever the input.
        let totals = compute_totals(&amounts, discount, tax, false, "EUR");
        if errors.is_empty() {
            let t = totals.expect("valid bodies always have totals");
            let (positions, sum, net, tax_c) = reference(&rows, discount, tax)
                .expect("in-range amounts fit 128 bits");
            prop_assert_eq!(&t.positions, &positions.iter().map(|c| cents(*c)).collect::<Vec<_>>());
            prop_assert_eq!(t.items_total, cents(sum));
            prop_assert_eq!(t.net_total, cents(net));
            prop_assert_eq!(t.tax_amount, cents(tax_c));
            prop_assert_eq!(t.gross_total, cents(net + tax_c));
            prop_assert!(t.gross_total.abs() < MAX_AMOUNT);
        } else {
            prop_assert!(errors.keys().all(|k| !k.is_empty()));
            prop_assert!(errors.values().all(|m| !m.is_empty()));
            // Whatever totals come out of refused input are exact too, never saturated
            // (checked where the percentages have at most 4 places, so 128 bits hold
            // every product).
            let few_places = discount.scale() <= 4 && tax.scale() <= 4;
            if let (true, Ok(t), Some((positions, sum, net, tax_c))) =
                (few_places, totals, reference(&rows, discount, tax))
            {
                prop_assert_eq!(t.positions, positions.iter().map(|c| cents(*c)).collect::<Vec<_>>());
                prop_assert_eq!(t.items_total, cents(sum));
                prop_assert_eq!(t.net_total, cents(net));
                prop_assert_eq!(t.tax_amount, cents(tax_c));
            }
        }
    }

    #[test]
    fn purchase_is_refused_or_its_totals_are_exact(
        items in proptest::collection::vec((amount(), percent(), any::<bool>()), 1..5),
    ) {
        let body = NewPurchase {
            date: chrono::NaiveDate::from_ymd_opt(2026, 11, 1),
            currency: Some("EUR".into()),
            payment_method: Some(PaymentMethod::BankTransfer),
            items: Some(items.iter().map(|(total, tax, included)| NewPurchaseItem {
                title: Some("x".into()),
                total: Some(*total),
                tax: Some(*tax),
                tax_included: Some(*included),
                ..Default::default()
            }).collect()),
            ..Default::default()
        };
        let errors = validate_new_purchase(&body, &["EUR".to_string()]);
        let positions: Vec<_> = items
            .iter()
            .map(|(total, tax, included)| purchase_position_totals(*total, *tax, *included, "EUR"))
            .collect();
        if errors.is_empty() {
            let mut sum = 0i128;
            let mut computed = Vec::new();
            for ((total, tax, included), p) in items.iter().zip(&positions) {
                let p = p.expect("valid positions always have totals");
                let (net, t, gross) = purchase_reference(*total, *tax, *included)
                    .expect("in-range amounts fit 128 bits");
                prop_assert_eq!((p.net_total, p.tax_total, p.gross_total), (cents(net), cents(t), cents(gross)));
                sum += gross;
                computed.push(p);
            }
            let s = sum_purchase_totals(&computed).expect("valid purchases always sum");
            prop_assert_eq!(s.gross_total, cents(sum));
            prop_assert!(s.gross_total.abs() < MAX_AMOUNT);
        } else {
            prop_assert!(errors.keys().all(|k| !k.is_empty()));
            for ((total, tax, included), p) in items.iter().zip(&positions) {
                let reference = purchase_reference(*total, *tax, *included)
                    .filter(|(n, t, g)| fits(*n) && fits(*t) && fits(*g) && tax.scale() <= 4);
                if let (Some(p), Some((net, t, gross))) = (p, reference) {
                    prop_assert_eq!((p.net_total, p.tax_total, p.gross_total), (cents(net), cents(t), cents(gross)));
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn expense_is_refused_or_its_price_is_exact(
        quantity in quantity(),
        unit_price in amount(),
        unit_cost in amount(),
    ) {
        let body = NewExpense {
            quantity: Some(quantity),
            unit_price: Some(unit_price),
            unit_cost: Some(unit_cost),
            ..Default::default()
        };
        let errors = validate_expense_amounts(&body, "EUR");
        if errors.is_empty() {
            for price in [unit_price, unit_cost] {
                let m = quantity.mantissa().checked_mul(price.mantissa()).expect("in range fits");
                let expected = cents(cents_of(m, quantity.scale() + price.scale()));
                prop_assert_eq!(mul_round(quantity, price, 2), Some(expected));
                prop_assert!(expected.abs() < MAX_AMOUNT);
            }
        } else {
            prop_assert!(errors.keys().all(|k| ["quantity", "unit_price", "unit_cost"].contains(&k.as_str())));
        }
    }

    #[test]
    fn payment_is_refused_or_in_range(paid in amount()) {
        let errors = validate_payment(chrono::NaiveDate::from_ymd_opt(2026, 11, 1), Some(paid), "paid_total", "EUR");
        if errors.is_empty() {
            prop_assert!(paid > Decimal::ZERO && paid < MAX_AMOUNT && paid.normalize().scale() <= 2);
        } else {
            prop_assert_eq!(errors.keys().collect::<Vec<_>>(), ["paid_total"]);
        }
    }
}

#[test]
fn the_probes_of_issue_8_are_field_errors() {
    let big = |s: &str| Decimal::from_scientific(s).unwrap();
    let e = validate_new_invoice(
        &invoice(
            &[Row::Priced(big("1e15"), big("1e15"))],
            Decimal::ZERO,
            Decimal::ZERO,
        ),
        &["EUR".to_string()],
    );
    assert!(
        e.contains_key("items[0].quantity") && e.contains_key("items[0].unit_price"),
        "{e:?}"
    );
    let e = validate_new_invoice(
        &invoice(
            &[Row::Lump(big("5e28")), Row::Lump(big("5e28"))],
            Decimal::ZERO,
            Decimal::ZERO,
        ),
        &["EUR".to_string()],
    );
    assert!(
        e.contains_key("items[0].net_total") && e.contains_key("items[1].net_total"),
        "{e:?}"
    );
    // In range one by one, too large together: named on `items`.
    let e = validate_new_invoice(
        &invoice(
            &[Row::Lump(big("9e14")), Row::Lump(big("9e14"))],
            Decimal::ZERO,
            Decimal::ZERO,
        ),
        &["EUR".to_string()],
    );
    assert_eq!(e.keys().collect::<Vec<_>>(), ["items"], "{e:?}");
    // quantity × unit price beyond the range, each in range.
    let e = validate_new_invoice(
        &invoice(
            &[Row::Priced(big("1e8"), big("1e8"))],
            Decimal::ZERO,
            Decimal::ZERO,
        ),
        &["EUR".to_string()],
    );
    assert_eq!(
        e.keys().collect::<Vec<_>>(),
        ["items[0].unit_price"],
        "{e:?}"
    );
    // Two lump sums of 5e28 overflow the decimal type: an error, not totals of 0.
    let amounts: Vec<_> = invoice(
        &[Row::Lump(big("5e28")), Row::Lump(big("5e28"))],
        Decimal::ZERO,
        Decimal::ZERO,
    )
    .items
    .unwrap()
    .iter()
    .map(|i| i.amounts())
    .collect();
    let err = compute_totals(&amounts, Decimal::ZERO, Decimal::ZERO, false, "EUR").unwrap_err();
    assert_eq!(err.field, "items");
}
