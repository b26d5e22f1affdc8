use super::*;
use std::str::FromStr;

fn d(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

fn item(
    id: i64,
    kind: PositionType,
    quantity: Option<&str>,
    price: Option<&str>,
    net: &str,
) -> InvoiceItem {
    InvoiceItem {
        id,
        kind,
        title: format!("Position {id}"),
        description: Some("<p>Text</p>".into()),
        quantity: quantity.map(d),
        unit: Some("h".into()),
        unit_price: price.map(d),
        net_total: d(net),
        activity_ids: vec![],
        expense_ids: vec![],
        tax: Some(d("7")),
        tax_category: None,
        tax_exemption_reason: None,
    }
}

fn invoice_items() -> Vec<InvoiceItem> {
    vec![
        item(1, PositionType::Item, Some("10"), Some("100"), "1000"),
        item(2, PositionType::Item, None, None, "250"),
        item(3, PositionType::Title, None, None, "0"),
        item(4, PositionType::Item, Some("-1"), Some("50"), "-50"),
    ]
}

fn body(json: &str) -> NewCreditNote {
    serde_json::from_str(json).unwrap()
}

#[test]
fn a_position_is_credited_in_full_or_in_part_with_its_values() {
    let out = credit_note_positions(
        &invoice_items(),
        &body(r#"{"items":[{"id":1},{"id":2},{"id":4}]}"#),
    )
    .unwrap();
    assert_eq!(out[0].quantity, Some(d("-10")));
    assert_eq!(out[0].unit_price, Some(d("100")));
    assert_eq!(out[0].tax, Some(d("7")));
    assert_eq!(out[0].title.as_deref(), Some("Position 1"));
    assert_eq!(out[0].net_total, None);
    // A lump sum is credited by its net total, negated.
    assert_eq!((out[1].quantity, out[1].net_total), (None, Some(d("-250"))));
    // A discount line (negative quantity) is credited back positive.
    assert_eq!(out[2].quantity, Some(d("1")));
    let part = credit_note_positions(
        &invoice_items(),
        &body(r#"{"items":[{"id":1,"quantity":2.5}]}"#),
    )
    .unwrap();
    assert_eq!(part[0].quantity, Some(d("-2.5")));
}

#[test]
fn a_free_position_credits_an_amount() {
    let out = credit_note_positions(
        &invoice_items(),
        &body(r#"{"items":[{"type":"item","title":" Nachlass ","quantity":1,"unit_price":100}]}"#),
    )
    .unwrap();
    assert_eq!(out[0].title.as_deref(), Some("Nachlass"));
    assert_eq!(
        (out[0].quantity, out[0].unit_price),
        (Some(d("-1")), Some(d("100")))
    );
    assert_eq!(out[0].tax, None);
}

#[test]
fn what_cannot_be_credited_is_named() {
    // (body, the field named)
    let cases = [
        (r#"{"items":[]}"#, "items"),
        (r#"{"items":[{"id":3}]}"#, "items[0].id"),
        (r#"{"items":[{"id":99}]}"#, "items[0].id"),
        (r#"{"items":[{"id":1},{"id":1}]}"#, "items[1].id"),
        (r#"{"items":[{"id":1,"quantity":11}]}"#, "items[0].quantity"),
        (r#"{"items":[{"id":1,"quantity":0}]}"#, "items[0].quantity"),
        (r#"{"items":[{"id":1,"quantity":-1}]}"#, "items[0].quantity"),
        (
            r#"{"items":[{"id":1,"quantity":0.00001}]}"#,
            "items[0].quantity",
        ),
        (r#"{"items":[{"id":2,"quantity":1}]}"#, "items[0].quantity"),
        (r#"{"items":[{"id":1,"title":"x"}]}"#, "items[0].id"),
        (
            r#"{"items":[{"title":"x","unit_price":1}]}"#,
            "items[0].type",
        ),
        (
            r#"{"items":[{"type":"title","title":"x","unit_price":1}]}"#,
            "items[0].type",
        ),
        (
            r#"{"items":[{"type":"item","unit_price":1}]}"#,
            "items[0].title",
        ),
        (
            r#"{"items":[{"type":"item","title":"x"}]}"#,
            "items[0].unit_price",
        ),
        (
            r#"{"items":[{"type":"item","title":"x","unit_price":-5}]}"#,
            "items[0].unit_price",
        ),
        (
            r#"{"items":[{"type":"item","title":"x","unit_price":5,"quantity":0}]}"#,
            "items[0].quantity",
        ),
    ];
    for (json, field) in cases {
        let errors = credit_note_positions(&invoice_items(), &body(json)).unwrap_err();
        assert!(errors.contains_key(field), "{json}: {errors:?}");
    }
    assert!(serde_json::from_str::<NewCreditNote>(r#"{"items":[{"id":1,"price":3}]}"#).is_err());
}

#[test]
fn credit_notes_never_exceed_the_gross() {
    // gross 119.00, nothing credited yet: 119.00 fits, 119.01 does not.
    assert!(check_credit_limit(d("119.00"), d("0"), d("-119.00"), "EUR").is_ok());
    let too_much = check_credit_limit(d("119.00"), d("0"), d("-119.01"), "EUR").unwrap_err();
    assert_eq!(too_much.to_string(), "The credit notes of an invoice cannot exceed its gross total; 119.00 EUR is left to credit.");
    // 100.00 credited already: 19.00 is left.
    assert!(check_credit_limit(d("119.00"), d("100.00"), d("-19.00"), "EUR").is_ok());
    assert!(check_credit_limit(d("119.00"), d("100.00"), d("-19.01"), "EUR").is_err());
    // Nothing or a positive amount is not a credit.
    assert!(check_credit_limit(d("119.00"), d("0"), d("0"), "EUR").is_err());
    assert!(check_credit_limit(d("119.00"), d("0"), d("5"), "EUR").is_err());
}

#[test]
fn only_a_finalized_plain_invoice_can_be_credited() {
    use InvoiceStatus::*;
    assert!(credit_refusal(Sent, false, false, false).is_none());
    assert!(credit_refusal(Paid, false, false, false).is_none());
    assert_eq!(
        credit_refusal(Draft, false, false, false),
        Some(messages::DRAFT_NOT_CREDITABLE)
    );
    assert_eq!(
        credit_refusal(Created, true, false, false),
        Some(messages::CORRECTION_NOT_CREDITABLE)
    );
    assert_eq!(
        credit_refusal(Created, false, false, true),
        Some(messages::CORRECTION_NOT_CREDITABLE)
    );
    assert_eq!(
        credit_refusal(Created, false, true, false),
        Some(messages::REVERSED_NOT_CREDITABLE)
    );
}

#[test]
fn the_texts_name_the_corrected_invoice_in_the_customers_language() {
    let date = NaiveDate::from_ymd_opt(2026, 11, 2).unwrap();
    assert_eq!(
        credit_note_title(Language::De, "R2611-001"),
        "Rechnungskorrektur zu Rechnung R2611-001"
    );
    assert_eq!(
        credit_note_title(Language::En, "R2611-001"),
        "Credit note for invoice R2611-001"
    );
    assert_eq!(
        credit_note_salutation(Language::De, "R<1>", date),
        "<p>Diese Rechnungskorrektur bezieht sich auf die Rechnung R&lt;1&gt; vom 02.11.2026.</p>"
    );
    assert_eq!(
        credit_note_salutation(Language::En, "R1", date),
        "<p>This credit note corrects invoice R1 of 2 November 2026.</p>"
    );
}
