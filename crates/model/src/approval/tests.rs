//! The approval rules: signing bodies, which offers can be signed, totals with options.

use super::*;
use crate::offer::OfferItem;

/// A decimal from its text.
fn dec(text: &str) -> Decimal {
    text.parse().unwrap()
}

fn item(id: i64, price: &str, optional: bool) -> OfferItem {
    OfferItem {
        id,
        kind: PositionType::Item,
        title: Some(format!("Position {id}")),
        description: None,
        quantity: Some(Decimal::ONE),
        unit: None,
        unit_price: Some(price.parse().unwrap()),
        net_total: price.parse().unwrap(),
        optional,
        tax: None,
        tax_category: None,
        tax_exemption_reason: None,
    }
}

fn vat() -> VatChoice {
    VatChoice {
        tax: dec("19"),
        reverse_charge: false,
        intra_eu: false,
    }
}

fn good() -> SignApproval {
    SignApproval {
        customer_full_name: Some("  Erika Mustermann ".into()),
        customer_email: Some("erika@example.com".into()),
        accepted_terms: Some(true),
        signature: None,
        optional_item_ids: Some(vec![2]),
    }
}

#[test]
fn a_complete_signing_is_checked_and_trimmed() {
    let items = [item(1, "100", false), item(2, "50", true)];
    let checked = good().check(&items).unwrap();
    assert_eq!(checked.customer_full_name, "Erika Mustermann");
    assert_eq!(checked.customer_email, "erika@example.com");
    assert_eq!(checked.optional_item_ids, BTreeSet::from([2]));
}

#[test]
fn every_missing_or_bad_field_is_named() {
    let items = [item(1, "100", false), item(2, "50", true)];
    let bad = SignApproval {
        customer_full_name: Some("   ".into()),
        customer_email: Some("erika-at-example".into()),
        accepted_terms: Some(false),
        signature: Some("data:image/jpeg;base64,AAAA".into()),
        optional_item_ids: Some(vec![1]),
    };
    let errors = bad.check(&items).unwrap_err();
    let fields: Vec<&str> = errors.keys().map(String::as_str).collect();
    assert_eq!(
        fields,
        [
            "accepted_terms",
            "customer_email",
            "customer_full_name",
            "optional_item_ids",
            "signature"
        ]
    );
    assert_eq!(errors["accepted_terms"][0], "must be accepted");
    assert_eq!(
        errors["optional_item_ids"][0],
        "names 1, which is no optional position of this offer"
    );
    let empty = SignApproval::default().check(&items).unwrap_err();
    assert_eq!(empty["customer_email"][0], "is required");
    assert_eq!(
        empty["accepted_terms"][0].german(),
        "muss akzeptiert werden"
    );
    let long = SignApproval {
        customer_full_name: Some("x".repeat(MAX_SIGNER_NAME + 1)),
        ..good()
    };
    assert!(long
        .check(&items)
        .unwrap_err()
        .contains_key("customer_full_name"));
}

#[test]
fn a_decline_needs_a_name_and_a_short_reason() {
    let ok = DeclineApproval {
        customer_full_name: Some("Erika".into()),
        reason: Some(" Too expensive ".into()),
    };
    assert_eq!(
        ok.check().unwrap(),
        ("Erika".into(), "Too expensive".into())
    );
    assert!(DeclineApproval::default()
        .check()
        .unwrap_err()
        .contains_key("customer_full_name"));
    let long = DeclineApproval {
        customer_full_name: Some("Erika".into()),
        reason: Some("x".repeat(MAX_DECLINE_REASON + 1)),
    };
    assert!(long.check().unwrap_err().contains_key("reason"));
}

#[test]
fn only_open_offers_within_their_validity_can_be_signed() {
    let due = NaiveDate::from_ymd_opt(2026, 12, 1).unwrap();
    let on_due = due;
    let after = NaiveDate::from_ymd_opt(2026, 12, 2).unwrap();
    assert_eq!(signing_refusal(OfferStatus::Sent, due, on_due), None);
    assert_eq!(signing_refusal(OfferStatus::Created, due, on_due), None);
    assert_eq!(
        signing_refusal(OfferStatus::Sent, due, after),
        Some(messages::OFFER_EXPIRED)
    );
    assert_eq!(
        signing_refusal(OfferStatus::Billed, due, on_due),
        Some(messages::OFFER_ALREADY_BILLED)
    );
    assert_eq!(
        signing_refusal(OfferStatus::PartiallyBilled, due, on_due),
        Some(messages::OFFER_ALREADY_BILLED)
    );
    assert_eq!(
        signing_refusal(OfferStatus::Archived, due, on_due),
        Some(messages::OFFER_ARCHIVED)
    );
    assert_eq!(
        signing_refusal(OfferStatus::Accepted, due, on_due),
        Some(messages::OFFER_ALREADY_ACCEPTED)
    );
}

#[test]
fn chosen_options_count_in_the_totals_and_the_others_do_not() {
    let items = [
        item(1, "100", false),
        item(2, "50", true),
        item(3, "30", true),
    ];
    let none = totals_with_options(&items, &BTreeSet::new(), Decimal::ZERO, &vat(), "EUR").unwrap();
    assert_eq!(none.net_total, dec("100.00"));
    assert_eq!(none.gross_total, dec("119.00"));
    let one =
        totals_with_options(&items, &BTreeSet::from([2]), Decimal::ZERO, &vat(), "EUR").unwrap();
    assert_eq!(one.net_total, dec("150.00"));
    assert_eq!(one.gross_total, dec("178.50"));
    let both =
        totals_with_options(&items, &BTreeSet::from([2, 3]), dec("10"), &vat(), "EUR").unwrap();
    assert_eq!(both.net_total, dec("162.00"));
    let taken = take_options(&items, &BTreeSet::from([3]));
    assert_eq!(
        taken.iter().map(|i| i.optional).collect::<Vec<_>>(),
        [false, true, false]
    );
}

#[test]
fn the_public_view_keeps_the_positions_the_totals_need() {
    let items = [item(1, "100", false), item(2, "50", true)];
    let public: Vec<PublicOfferItem> = items.iter().map(PublicOfferItem::of).collect();
    let json = serde_json::to_value(&public[1]).unwrap();
    assert_eq!(json["optional"], true);
    assert_eq!(json["type"], "item");
    assert_eq!(json["net_total"], serde_json::json!(50));
}
