use super::*;
use crate::position::PositionType;
use crate::position_vat::TaxCategory;
use crate::totals::{compute_document_totals, PositionAmounts};
use crate::vat::VatChoice;

fn d(text: &str) -> Decimal {
    text.parse().unwrap()
}

fn group(category: TaxCategory, rate: &str, net: &str, tax: &str) -> TaxBreakdown {
    TaxBreakdown {
        tax_category: category,
        tax: d(rate),
        net_total: d(net),
        tax_total: d(tax),
    }
}

fn down_payment(id: i64, net: &str, gross: &str, groups: Vec<TaxBreakdown>) -> DeductedDownPayment {
    deduction(
        id,
        &format!("R2611-00{id}"),
        NaiveDate::from_ymd_opt(2026, 11, id as u32).unwrap(),
        d(net),
        d(gross),
        groups,
    )
    .unwrap()
}

/// Issue 33's worked example: two down payments of 1,000.00 net + 190.00 VAT =
/// 1,190.00, the final service 10,000.00 net at 19 % → 8,000.00 net, 1,520.00 VAT,
/// 9,520.00 due.
#[test]
fn the_worked_example_leaves_8000_net_1520_vat_and_9520_due() {
    let standard = TaxCategory::Standard;
    // The final invoice's totals as the totals rule computes them.
    let service = [PositionAmounts {
        kind: Some(PositionType::Item),
        quantity: Some(d("1")),
        unit_price: Some(d("10000.00")),
        ..Default::default()
    }];
    let vat = VatChoice {
        tax: d("19"),
        reverse_charge: false,
        intra_eu: false,
    };
    let totals = compute_document_totals(&service, Decimal::ZERO, &vat, "EUR").unwrap();
    assert_eq!(totals.gross_total, d("11900.00"));
    let full = vec![group(standard, "19", "10000.00", "1900.00")];
    let deductions = vec![
        down_payment(
            1,
            "1000.00",
            "1190.00",
            vec![group(standard, "19", "1000.00", "190.00")],
        ),
        down_payment(
            2,
            "1000.00",
            "1190.00",
            vec![group(standard, "19", "1000.00", "190.00")],
        ),
    ];
    assert_eq!(deductions[0].tax_total, d("190.00"));
    let remaining = remaining_breakdown(&full, &deductions).unwrap();
    assert_eq!(remaining, vec![group(standard, "19", "8000.00", "1520.00")]);
    assert_eq!(deducted_total(&deductions), Some(d("2380.00")));
    assert_eq!(
        amount_due(totals.gross_total, &deductions),
        Some(d("9520.00"))
    );
    assert_eq!(excess(&full, &deductions), None);
    // Without deductions the amount due is the gross.
    assert_eq!(amount_due(d("11900.00"), &[]), Some(d("11900.00")));
}

#[test]
fn each_rate_keeps_its_own_remainder_and_a_rate_the_service_lacks_is_an_excess() {
    let standard = TaxCategory::Standard;
    let full = vec![
        group(standard, "19", "5000.00", "950.00"),
        group(standard, "7", "1000.00", "70.00"),
    ];
    let mixed = down_payment(
        1,
        "1500.00",
        "1725.00",
        vec![
            group(standard, "19", "1000.00", "190.00"),
            group(standard, "7", "500.00", "35.00"),
        ],
    );
    assert_eq!(mixed.tax_total, d("225.00"));
    let remaining = remaining_breakdown(&full, std::slice::from_ref(&mixed)).unwrap();
    assert_eq!(
        remaining,
        vec![
            group(standard, "19", "4000.00", "760.00"),
            group(standard, "7", "500.00", "35.00")
        ]
    );
    // More 7 % deducted than the service has at 7 %.
    let too_much = down_payment(
        2,
        "600.00",
        "642.00",
        vec![group(standard, "7", "600.00", "42.00")],
    );
    assert_eq!(
        excess(&full, &[mixed.clone(), too_much]),
        Some((standard, d("7")))
    );
    // A rate the final invoice does not have at all.
    let zero = down_payment(
        3,
        "10.00",
        "10.00",
        vec![group(TaxCategory::Exempt, "0", "10.00", "0")],
    );
    let remaining = remaining_breakdown(&full, std::slice::from_ref(&zero)).unwrap();
    assert_eq!(remaining[2].net_total, d("-10.00"));
    assert_eq!(excess(&full, &[zero]), Some((TaxCategory::Exempt, d("0"))));
}

#[test]
fn a_reversal_negates_every_amount_and_the_remainder_stays_exact() {
    let standard = TaxCategory::Standard;
    let dp = down_payment(
        1,
        "1000.00",
        "1190.00",
        vec![group(standard, "19", "1000.00", "190.00")],
    );
    let n = dp.negated();
    assert_eq!(
        (n.net_total, n.tax_total, n.gross_total),
        (d("-1000.00"), d("-190.00"), d("-1190.00"))
    );
    assert_eq!(n.tax_breakdown[0].tax_total, d("-190.00"));
    assert_eq!(n.tax_breakdown[0].tax, d("19"));
    let full = vec![group(standard, "19", "-10000.00", "-1900.00")];
    assert_eq!(
        remaining_breakdown(&full, std::slice::from_ref(&n)).unwrap(),
        vec![group(standard, "19", "-9000.00", "-1710.00")]
    );
    assert_eq!(amount_due(d("-11900.00"), &[n]), Some(d("-10710.00")));
}

#[test]
fn only_a_finalized_live_down_payment_of_the_same_customer_and_currency_is_deducted_once() {
    let ok = Candidate {
        kind: InvoiceKind::DownPayment,
        status: InvoiceStatus::Paid,
        correction: false,
        reversed: false,
        customer_id: 7,
        currency: "EUR".into(),
        final_invoice_id: None,
    };
    assert_eq!(deduction_refusal(&ok, 7, "EUR", None), None);
    let case = |f: fn(&mut Candidate)| {
        let mut c = ok.clone();
        f(&mut c);
        deduction_refusal(&c, 7, "EUR", Some(50))
    };
    assert_eq!(
        case(|c| c.kind = InvoiceKind::Standard),
        Some(messages::NOT_A_DOWN_PAYMENT)
    );
    assert_eq!(
        case(|c| c.correction = true),
        Some(messages::NOT_A_DOWN_PAYMENT)
    );
    assert_eq!(
        case(|c| c.status = InvoiceStatus::Draft),
        Some(messages::DOWN_PAYMENT_IS_DRAFT)
    );
    assert_eq!(
        case(|c| c.reversed = true),
        Some(messages::DOWN_PAYMENT_REVERSED)
    );
    assert_eq!(
        case(|c| c.customer_id = 8),
        Some(messages::DOWN_PAYMENT_OTHER_CUSTOMER)
    );
    assert_eq!(
        case(|c| c.currency = "CHF".into()),
        Some(messages::DOWN_PAYMENT_OTHER_CURRENCY)
    );
    assert_eq!(
        case(|c| c.final_invoice_id = Some(49)),
        Some(messages::DOWN_PAYMENT_ALREADY_DEDUCTED)
    );
    // The final invoice that already deducts it (a draft edited again) may keep it.
    assert_eq!(case(|c| c.final_invoice_id = Some(50)), None);
    // Unpaid down payments are deducted too (docs/decisions.md).
    assert_eq!(case(|c| c.status = InvoiceStatus::Created), None);
}

#[test]
fn kinds_read_and_write_their_wire_names() {
    for kind in InvoiceKind::ALL {
        assert_eq!(InvoiceKind::parse(kind.as_str()), Some(kind));
        assert_eq!(
            serde_json::to_string(&kind).unwrap(),
            format!("\"{}\"", kind.as_str())
        );
    }
    assert_eq!(InvoiceKind::parse("partial"), None);
    assert_eq!(InvoiceKind::default(), InvoiceKind::Standard);
}
