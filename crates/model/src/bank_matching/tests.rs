use super::*;
use std::str::FromStr;

fn d(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

fn day(s: &str) -> NaiveDate {
    NaiveDate::from_str(s).unwrap()
}

fn invoice(id: i64, number: &str, open: &str) -> OpenInvoice {
    OpenInvoice {
        id,
        identifier: number.into(),
        payment_reference: crate::payment_reference::payment_reference(number),
        currency: "EUR".into(),
        open_amount: d(open),
        discounted_amount: None,
        discount_until: None,
        date: day("2026-11-02"),
        customer_name: format!("Kunde {id} GmbH"),
        customer_iban: None,
    }
}

fn credit(amount: &str, text: &str) -> TransactionFacts {
    TransactionFacts {
        amount: d(amount),
        currency: "EUR".into(),
        booking_date: Some(day("2026-11-20")),
        remittance_information: Some(text.into()),
        ..Default::default()
    }
}

fn booked(decision: Decision) -> (Target, Decimal, Vec<Reason>) {
    match decision {
        Decision::Book(a, reasons) => (a.target, a.amount, reasons),
        other => panic!("not booked: {other:?}"),
    }
}

fn suggested(decision: Decision) -> Vec<Suggestion> {
    match decision {
        Decision::Suggest(s) => s,
        other => panic!("booked: {other:?}"),
    }
}

fn index() -> Candidates {
    Candidates::new(
        vec![
            invoice(1, "R2611-001", "119.00"),
            invoice(2, "R2611-002", "238.00"),
            invoice(3, "R2611-003", "119.00"),
        ],
        vec![],
    )
}

#[test]
fn the_payment_reference_books_the_full_and_a_partial_amount() {
    let c = index();
    let reference = crate::payment_reference::payment_reference("R2611-002").unwrap();
    let printed = crate::payment_reference::printed(&reference);
    let (t, a, r) = booked(c.decide(&credit("238.00", &format!("{printed} Danke"))));
    assert_eq!((t, a), (Target::Invoice(2), d("238.00")));
    assert_eq!(r, [Reason::PaymentReference, Reason::AmountEqualsOpen]);
    // The structured reference field counts like the text.
    let mut tx = credit("100.00", "");
    tx.creditor_reference = crate::payment_reference::payment_reference("R2611-002");
    let (t, a, _) = booked(c.decide(&tx));
    assert_eq!(
        (t, a),
        (Target::Invoice(2), d("100.00")),
        "a partial payment"
    );
    // More than is open: only suggested.
    let s = suggested(c.decide(&credit("500.00", &reference)));
    assert_eq!(s[0].target, Target::Invoice(2));
    assert!(s[0].reasons.contains(&Reason::PaymentReference));
}

#[test]
fn the_number_books_only_with_the_exact_open_amount() {
    let c = index();
    let (t, a, r) = booked(c.decide(&credit("119.00", "Rechnung R2611-001 vom 2.11.")));
    assert_eq!((t, a), (Target::Invoice(1), d("119.00")));
    assert_eq!(r, [Reason::Number, Reason::AmountEqualsOpen]);
    // The number with another amount: a suggestion, nothing booked.
    let s = suggested(c.decide(&credit("100.00", "Rechnung R2611-001")));
    assert_eq!(s[0].target, Target::Invoice(1));
    assert_eq!(s[0].amount, d("100.00"));
}

#[test]
fn the_cash_discount_amount_books_within_the_discount_days() {
    let mut i = invoice(7, "R2611-007", "1000.00");
    i.discounted_amount = Some(d("980.00"));
    i.discount_until = Some(day("2026-11-16"));
    let c = Candidates::new(vec![i], vec![]);
    let mut tx = credit("980.00", "R2611-007 abzgl. 2% Skonto");
    tx.booking_date = Some(day("2026-11-15"));
    let (t, a, r) = booked(c.decide(&tx));
    assert_eq!((t, a), (Target::Invoice(7), d("980.00")));
    assert!(r.contains(&Reason::AmountEqualsDiscounted));
    // After the discount days the same transfer is only a suggestion.
    tx.booking_date = Some(day("2026-11-20"));
    assert!(matches!(c.decide(&tx), Decision::Suggest(_)));
}

#[test]
fn an_amount_alone_is_never_booked_and_ties_are_suggested() {
    let c = index();
    let s = suggested(c.decide(&credit("119.00", "Danke")));
    let targets: Vec<Target> = s.iter().map(|s| s.target).collect();
    assert_eq!(
        targets,
        [Target::Invoice(1), Target::Invoice(3)],
        "both, nothing booked"
    );
    // Two invoices named with the same amount: ambiguous, so suggested.
    let s = suggested(c.decide(&credit("119.00", "R2611-001 R2611-003")));
    assert_eq!(s.len(), 2);
    // Another currency never matches.
    let mut tx = credit("119.00", "R2611-001");
    tx.currency = "CHF".into();
    assert_eq!(suggested(c.decide(&tx)), []);
}

#[test]
fn the_iban_and_the_name_rank_suggestions() {
    let mut a = invoice(1, "R2611-001", "50.00");
    a.customer_iban = Some("DE02120300000000202051".into());
    a.customer_name = "Hafen Logistik GmbH".into();
    let b = invoice(2, "R2611-002", "50.00");
    let c = Candidates::new(vec![a, b], vec![]);
    let mut tx = credit("50.00", "Zahlung");
    tx.counterparty_iban = Some("DE02 1203 0000 0000 2020 51".into());
    tx.counterparty_name = Some("HAFEN LOGISTIK".into());
    let s = suggested(c.decide(&tx));
    assert_eq!(s[0].target, Target::Invoice(1));
    assert!(s[0].score > s[1].score);
    assert!(s[0].reasons.contains(&Reason::Iban) && s[0].reasons.contains(&Reason::Name));
}

#[test]
fn debits_pay_purchases_by_iban_and_amount_or_by_receipt_number() {
    let p = |id: i64, receipt: &str, open: &str, iban: Option<&str>| OpenPurchase {
        id,
        receipt_identifier: Some(receipt.into()),
        currency: "EUR".into(),
        open_amount: d(open),
        supplier_name: "Büro Müller".into(),
        iban: iban.map(str::to_string),
    };
    let c = Candidates::new(
        vec![],
        vec![
            p(10, "RE-4711", "59.50", Some("DE89370400440532013000")),
            p(11, "RE-4712", "80.00", Some("DE89370400440532013000")),
        ],
    );
    let mut tx = credit("-59.50", "Miete");
    tx.counterparty_iban = Some("DE89370400440532013000".into());
    let (t, a, _) = booked(c.decide(&tx));
    assert_eq!((t, a), (Target::Purchase(10), d("59.50")));
    let (t, a, r) = booked(c.decide(&credit("-40.00", "Rechnung RE-4712 Teilzahlung")));
    assert_eq!((t, a), (Target::Purchase(11), d("40.00")));
    assert_eq!(r, [Reason::Number]);
    // A credit never pays a purchase; a debit never pays an invoice.
    assert_eq!(suggested(c.decide(&credit("59.50", "RE-4711"))), []);
}

#[test]
fn a_split_never_exceeds_the_transfer() {
    assert_eq!(remainder(d("300"), &[d("119"), d("100")]), Ok(d("81")));
    assert_eq!(remainder(d("219"), &[d("119"), d("100")]), Ok(d("0")));
    assert!(remainder(d("200"), &[d("119"), d("100")]).is_err());
    assert!(remainder(d("200"), &[d("-1")]).is_err());
    assert!(remainder(d("200"), &[]).is_err());
}

#[test]
fn ten_thousand_transfers_against_a_hundred_thousand_invoices_are_lookups() {
    let invoices: Vec<OpenInvoice> = (0..100_000)
        .map(|n| invoice(n, &format!("R{:06}", n), "100.00"))
        .collect();
    let c = Candidates::new(invoices, vec![]);
    let mut booked_count = 0;
    for n in 0..10_000 {
        let r = crate::payment_reference::payment_reference(&format!("R{:06}", n)).unwrap();
        if let Decision::Book(..) = c.decide(&credit("100.00", &r)) {
            booked_count += 1;
        }
    }
    assert_eq!(booked_count, 10_000);
}

#[test]
fn a_booking_within_the_import_lowers_what_is_open() {
    let mut c = index();
    let reference = crate::payment_reference::payment_reference("R2611-001").unwrap();
    let (t, a, _) = booked(c.decide(&credit("119.00", &reference)));
    c.booked(t, a);
    // The same reference again: nothing is open any more, so nothing is booked.
    assert!(matches!(
        c.decide(&credit("119.00", &reference)),
        Decision::Suggest(_)
    ));
    let s = suggested(c.decide(&credit("119.00", "Danke")));
    assert_eq!(
        s.iter().map(|s| s.target).collect::<Vec<_>>(),
        [Target::Invoice(3)],
        "invoice 1 is paid"
    );
}
