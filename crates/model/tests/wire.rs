//! Money on the wire: amounts are JSON numbers that never pass through `f64`.

use kontor_model::invoice_input::{NewInvoice, NewInvoiceItem};
use kontor_model::Decimal;
use std::str::FromStr;

#[test]
fn tricky_amounts_round_trip_exactly() {
    let json = r#"{"customer_id": 1, "tax": 19.99, "discount": 1e1, "items": [
        {"type": "item", "title": "a", "quantity": 3, "unit_price": 0.1},
        {"type": "item", "title": "b", "net_total": 1234567.895},
        {"type": "item", "title": "c", "quantity": -0.005, "unit_price": null}
    ]}"#;
    let body: NewInvoice = serde_json::from_str(json).unwrap();
    assert_eq!(body.tax, Some(Decimal::from_str("19.99").unwrap()));
    assert_eq!(body.discount, Some(Decimal::from_str("10").unwrap()));
    let items = body.items.as_ref().unwrap();
    assert_eq!(
        items[0].quantity.unwrap() * items[0].unit_price.unwrap(),
        Decimal::from_str("0.3").unwrap()
    );
    assert_eq!(
        items[1].net_total,
        Some(Decimal::from_str("1234567.895").unwrap())
    );
    assert_eq!(items[2].unit_price, None, "explicit null reads as absent");

    let out = serde_json::to_string(&body).unwrap();
    assert!(out.contains(r#""tax":19.99"#), "{out}");
    assert!(out.contains(r#""net_total":1234567.895"#), "{out}");
    assert!(out.contains(r#""quantity":-0.005"#), "{out}");
}

#[test]
fn wrong_types_are_refused() {
    let r: Result<NewInvoiceItem, _> =
        serde_json::from_str(r#"{"type": "item", "unit_price": "abc"}"#);
    assert!(r.is_err());
    let r: Result<NewInvoiceItem, _> = serde_json::from_str(r#"{"type": "bogus"}"#);
    assert!(r.is_err());
}
