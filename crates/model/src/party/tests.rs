//! Unit tests of `party` (kept apart so the module itself stays short).

use super::*;
use serde_json::json;

#[test]
fn a_company_from_before_issue_9_reads_with_defaults() {
    let c: Company = serde_json::from_value(json!({
        "id": 1, "type": "customer", "name": "Hafen GmbH", "address": "Kai 1", "email": null,
        "billing_email_cc": null, "currency": "EUR", "payment_term_days": 14, "iban": null,
        "tags": [], "customer_vat": {"tax": 19, "reverse_charge": false, "intra_eu": false},
        "created_at": "2026-11-01T10:00:00Z", "updated_at": "2026-11-01T10:00:00Z"
    }))
    .unwrap();
    assert!(c.active);
    assert_eq!(c.language, Language::De);
    assert_eq!(c.billing_contact, None);
    assert!(c.custom_properties.is_empty());
    assert_eq!(c.einvoice_format, EinvoiceFormat::Pdf);
    assert_eq!(c.buyer_reference, None);
}

#[test]
fn einvoice_fields_travel_with_their_wire_names() {
    let body: NewCompany = serde_json::from_value(json!({
        "buyer_reference": "04011000-12345-67", "electronic_address": "e@k.example",
        "einvoice_format": "xrechnung_ubl", "sepa_mandate_reference": "M-1"
    }))
    .unwrap();
    assert_eq!(body.einvoice_format, Some(EinvoiceFormat::XrechnungUbl));
    assert_eq!(body.buyer_reference.as_deref(), Some("04011000-12345-67"));
    assert!(serde_json::from_value::<NewCompany>(json!({"einvoice_format": "xml"})).is_err());
    for f in [
        EinvoiceFormat::Pdf,
        EinvoiceFormat::XrechnungCii,
        EinvoiceFormat::XrechnungUbl,
    ] {
        assert_eq!(EinvoiceFormat::parse(f.as_str()), Some(f));
        assert_eq!(serde_json::to_value(f).unwrap(), json!(f.as_str()));
    }
    assert!(EinvoiceFormat::XrechnungCii.is_xrechnung() && !EinvoiceFormat::Pdf.is_xrechnung());
}

#[test]
fn new_fields_travel_with_their_wire_names() {
    let body: NewCompany = serde_json::from_str(
        r#"{"name": "X", "language": "en", "default_discount": 2.5, "active": false,
            "custom_properties": {"Kst": "1"}}"#,
    )
    .unwrap();
    assert_eq!(body.language, Some(Language::En));
    assert_eq!(body.default_discount, Some(Decimal::new(25, 1)));
    assert_eq!(body.active, Some(false));
    // Amounts are JSON numbers only.
    assert!(serde_json::from_value::<NewCompany>(json!({"default_discount": "2.5"})).is_err());
    assert!(serde_json::from_value::<NewCompany>(json!({"language": "fr"})).is_err());
    let person: NewPerson =
        serde_json::from_value(json!({"gender": "F", "billing_contact": true})).unwrap();
    assert_eq!(person.gender, Some(Gender::F));
    assert!(serde_json::from_value::<NewPerson>(json!({"gender": "X"})).is_err());
    assert_eq!(Language::parse("en"), Some(Language::En));
    assert_eq!(Language::parse("EN"), None);
    assert_eq!(Gender::parse(Gender::U.as_str()), Some(Gender::U));
}

#[test]
fn a_stored_company_becomes_its_full_body() {
    let c: Company = serde_json::from_value(json!({
        "id": 1, "type": "supplier", "name": "Papier KG", "address": "", "email": "a@p.example",
        "billing_email_cc": null, "currency": null, "payment_term_days": 30, "iban": null,
        "tags": ["x"], "customer_vat": {"tax": null, "reverse_charge": false, "intra_eu": false},
        "active": false, "language": "en",
        "created_at": "2026-11-01T10:00:00Z", "updated_at": "2026-11-01T10:00:00Z"
    }))
    .unwrap();
    let body = NewCompany::from(&c);
    assert_eq!(body.kind, Some(CompanyType::Supplier));
    assert_eq!(body.due_days(), Some(30));
    assert_eq!(body.payment_term_days, None);
    assert_eq!(body.active, Some(false));
    assert_eq!(body.language, Some(Language::En));
    assert_eq!(body.tags, Some(vec!["x".to_string()]));
}
