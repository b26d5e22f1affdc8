//! Unit tests of `validation` (kept apart so the module itself stays short).

use super::*;

fn valid() -> NewInvoice {
    NewInvoice {
        customer_id: Some(1),
        recipient_address: Some("ACME\nMain St 1".into()),
        date: NaiveDate::from_ymd_opt(2026, 11, 1),
        due_date: NaiveDate::from_ymd_opt(2026, 11, 15),
        title: Some("Web work".into()),
        tax: Some(Decimal::new(19, 0)),
        currency: Some("EUR".into()),
        items: Some(vec![NewInvoiceItem {
            kind: Some(PositionType::Item),
            title: Some("Design".into()),
            quantity: Some(Decimal::ONE),
            unit_price: Some(Decimal::TEN),
            ..Default::default()
        }]),
        ..Default::default()
    }
}

fn cur() -> Vec<String> {
    vec!["EUR".into(), "CHF".into()]
}

#[test]
fn valid_body_passes() {
    assert!(validate_new_invoice(&valid(), &cur()).is_empty());
}

#[test]
fn missing_required_fields_are_named() {
    let e = validate_new_invoice(&NewInvoice::default(), &cur());
    for f in [
        "customer_id",
        "recipient_address",
        "date",
        "due_date",
        "title",
        "tax",
        "currency",
        "items",
    ] {
        assert!(e.contains_key(f), "{f} missing from {e:?}");
    }
}

#[test]
fn draft_needs_only_customer() {
    let body = NewInvoice {
        customer_id: Some(1),
        status: Some(InvoiceStatus::Draft),
        ..Default::default()
    };
    assert!(validate_new_invoice(&body, &cur()).is_empty());
}

#[test]
fn item_paths_are_indexed() {
    let mut body = valid();
    body.items.as_mut().unwrap().push(NewInvoiceItem {
        kind: Some(PositionType::Item),
        title: Some("x".into()),
        quantity: Some(Decimal::ONE),
        ..Default::default()
    });
    body.items.as_mut().unwrap().push(NewInvoiceItem::default());
    let e = validate_new_invoice(&body, &cur());
    assert!(e.contains_key("items[1].unit_price"), "{e:?}");
    assert!(e.contains_key("items[2].type"), "{e:?}");
}

#[test]
fn lump_sum_is_valid() {
    let mut body = valid();
    body.items = Some(vec![NewInvoiceItem {
        kind: Some(PositionType::Item),
        title: Some("Flat fee".into()),
        net_total: Some(Decimal::new(500, 0)),
        ..Default::default()
    }]);
    assert!(validate_new_invoice(&body, &cur()).is_empty());
}

#[test]
fn ranges_and_currency() {
    let mut body = valid();
    body.tax = Some(Decimal::new(101, 0));
    body.discount = Some(Decimal::new(-1, 0));
    body.currency = Some("XYZ".into());
    body.due_date = NaiveDate::from_ymd_opt(2026, 10, 1);
    body.service_period_from = NaiveDate::from_ymd_opt(2026, 10, 1);
    let e = validate_new_invoice(&body, &cur());
    for f in [
        "tax",
        "discount",
        "currency",
        "due_date",
        "service_period_to",
    ] {
        assert!(e.contains_key(f), "{f} missing from {e:?}");
    }
}

#[test]
fn created_invoice_needs_an_item() {
    let mut body = valid();
    body.items = Some(vec![NewInvoiceItem {
        kind: Some(PositionType::Title),
        title: Some("Section".into()),
        ..Default::default()
    }]);
    assert!(validate_new_invoice(&body, &cur()).contains_key("items"));
}

#[test]
fn offers_need_a_company_deal_or_project_but_no_currency() {
    let body = NewOffer {
        recipient_address: Some("ACME".into()),
        date: NaiveDate::from_ymd_opt(2026, 11, 1),
        due_date: NaiveDate::from_ymd_opt(2026, 12, 1),
        title: Some("Relaunch".into()),
        tax: Some(Decimal::new(19, 0)),
        items: Some(vec![NewOfferItem {
            kind: Some(PositionType::Item),
            title: Some("x".into()),
            net_total: Some(Decimal::TEN),
            optional: Some(true),
            ..Default::default()
        }]),
        ..Default::default()
    };
    let e = validate_new_offer(&body, &cur());
    assert_eq!(e.keys().collect::<Vec<_>>(), ["company_id"]);
    let with_deal = NewOffer {
        deal_id: Some(3),
        ..body.clone()
    };
    assert!(validate_new_offer(&with_deal, &cur()).is_empty());
    let bad = NewOffer {
        change_address: Some("project".into()),
        currency: Some("XYZ".into()),
        ..with_deal
    };
    let e = validate_new_offer(&bad, &cur());
    assert!(e.contains_key("change_address") && e.contains_key("currency"));
}

/// Issue 33: `down_payment_invoice_ids` only on a final invoice, 1–100, each once; a
/// draft may name none yet.
#[test]
fn down_payment_ids_are_bounded_and_named_once() {
    use crate::down_payment::{InvoiceKind, MAX_DEDUCTIONS};
    let final_with = |ids: Vec<i64>| NewInvoice {
        kind: Some(InvoiceKind::Final),
        down_payment_invoice_ids: Some(ids),
        ..valid()
    };
    assert!(validate_new_invoice(&final_with(vec![1, 2]), &cur()).is_empty());
    let too_many = (1..=(MAX_DEDUCTIONS as i64 + 1)).collect();
    assert!(validate_new_invoice(&final_with(too_many), &cur())
        .contains_key("down_payment_invoice_ids"));
    let twice = validate_new_invoice(&final_with(vec![7, 8, 7]), &cur());
    assert!(
        twice.contains_key("down_payment_invoice_ids[2]"),
        "{twice:?}"
    );
    assert!(
        validate_new_invoice(&final_with(vec![]), &cur()).contains_key("down_payment_invoice_ids")
    );
    let draft = NewInvoice {
        status: Some(InvoiceStatus::Draft),
        ..final_with(vec![])
    };
    assert!(!validate_new_invoice(&draft, &cur()).contains_key("down_payment_invoice_ids"));
    let standard = NewInvoice {
        down_payment_invoice_ids: Some(vec![1]),
        ..valid()
    };
    assert!(validate_new_invoice(&standard, &cur()).contains_key("down_payment_invoice_ids"));
}
