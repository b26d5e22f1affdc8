//! Unit tests of `master_data` (kept apart so the module itself stays short).

use super::*;
use crate::error::messages;
use crate::party::{CustomerVat, EinvoiceFormat};
use proptest::prelude::*;
use rust_decimal::Decimal;
use serde_json::json;

#[test]
fn custom_property_rows_refuse_duplicate_and_blank_names() {
    let row = |n: &str, v: &str| (n.to_string(), v.to_string());
    let map =
        custom_properties_from_rows(&[row(" Kst ", "4711"), row("", ""), row("Ref", "")]).unwrap();
    assert_eq!(map.len(), 2);
    assert_eq!(map["Kst"], "4711");
    assert_eq!(map["Ref"], "");
    let twice = custom_properties_from_rows(&[row("Kst", "1"), row("Kst ", "2")]);
    assert!(twice.unwrap_err().contains("Kst"));
    assert!(custom_properties_from_rows(&[row(" ", "x")]).is_err());
    assert!(custom_properties_from_rows(&[]).unwrap().is_empty());
}

proptest! {
    /// No text makes a check panic (multi-byte characters at any place included), and a
    /// VAT ID that passes is stored in a form that passes again.
    #[test]
    fn checks_never_panic(text in "[A-Za-z0-9ÜÄ€ .:/-]{0,20}") {
        let _ = is_bic(&text);
        let _ = is_website(&text);
        if let Ok(compact) = check_vat_identifier(&text) {
            prop_assert_eq!(check_vat_identifier(&compact), Ok(compact.clone()));
        }
        for prefix in ["DE", "NL", "ES", "IE", "CHE", "GB", "FR", "CY"] {
            let _ = check_vat_identifier(&format!("{prefix}{text}"));
        }
    }
}

#[test]
fn debtor_and_creditor_numbers_have_their_ranges() {
    let ok = NewCompany {
        debit_number: Some(10_000),
        credit_number: Some(99_999),
        ..company()
    };
    assert!(validate_company(&ok).is_empty());
    let bad = NewCompany {
        debit_number: Some(70_000),
        credit_number: Some(69_999),
        ..company()
    };
    let e = validate_company(&bad);
    assert_eq!(
        e.keys().collect::<Vec<_>>(),
        ["credit_number", "debit_number"]
    );
}

fn company() -> NewCompany {
    NewCompany {
        name: Some("Hafen GmbH".into()),
        ..Default::default()
    }
}

#[test]
fn bic_forms() {
    for good in [
        "COBADEFFXXX",
        "COBADEFF",
        "DEUTDEDB110",
        "UBSWCHZH80A",
        "ABNANL2A",
    ] {
        assert!(is_bic(good), "{good}");
    }
    for bad in [
        "COBADEFF1",
        "COBA DEFF",
        "cobadeff",
        "1OBADEFF",
        "COBAXXFF",
        "COBADEFFXX",
        "",
    ] {
        assert!(!is_bic(bad), "{bad}");
    }
}

#[test]
fn website_forms() {
    for good in [
        "example.com",
        "https://www.example.com/de?x=1",
        "http://hafen-gmbh.de:8080",
        "www.müller.de",
    ] {
        assert!(is_website(good), "{good}");
    }
    for bad in [
        "ftp://x.example",
        "localhost",
        "http://",
        "bad host.com",
        "-x.com",
        "x.c",
        "x.com:",
        "javascript:alert(1)",
    ] {
        assert!(!is_website(bad), "{bad}");
    }
}

#[test]
fn a_good_company_passes_and_is_normalized() {
    let mut body = NewCompany {
        country_code: Some("de".into()),
        vat_identifier: Some("de 136 308 783".into()),
        iban: Some("de89 3704 0044 0532 0130 00".into()),
        bic: Some("cobadeffxxx".into()),
        email: Some(" ap@hafen.example ".into()),
        billing_email_cc: Some("a@hafen.example; b@hafen.example".into()),
        website: Some("https://hafen.example".into()),
        phone: Some("  ".into()),
        payment_term_days: Some(30),
        default_discount: Some(Decimal::new(25, 1)),
        default_cash_discount: Some(Decimal::new(2, 0)),
        default_cash_discount_days: Some(10),
        tags: Some(vec![" a ".into(), "a".into(), "".into(), "b".into()]),
        ..company()
    };
    assert_eq!(validate_company(&body), FieldErrors::new());
    normalize_company(&mut body);
    assert_eq!(body.country_code.as_deref(), Some("DE"));
    assert_eq!(body.vat_identifier.as_deref(), Some("DE136308783"));
    assert_eq!(body.iban.as_deref(), Some("DE89370400440532013000"));
    assert_eq!(body.bic.as_deref(), Some("COBADEFFXXX"));
    assert_eq!(body.email.as_deref(), Some("ap@hafen.example"));
    assert_eq!(body.phone, None);
    assert_eq!(body.default_invoice_due_days, Some(30));
    assert_eq!(body.tags, Some(vec!["a".to_string(), "b".to_string()]));
    assert_eq!(validate_company(&body), FieldErrors::new());
}

#[test]
fn every_bad_field_is_named() {
    let body = NewCompany {
        name: Some(" ".into()),
        country_code: Some("XX".into()),
        vat_identifier: Some("DE136308784".into()),
        iban: Some("DE89 3704 0044 0532 0130 01".into()),
        bic: Some("COBA".into()),
        email: Some("not-an-address".into()),
        billing_email_cc: Some("ok@x.example; nope".into()),
        website: Some("ftp://x.example".into()),
        payment_term_days: Some(400),
        default_invoice_due_days: Some(-1),
        default_cash_discount_days: Some(366),
        default_discount: Some(Decimal::new(101, 0)),
        default_cash_discount: Some(Decimal::new(-1, 0)),
        customer_vat: Some(CustomerVat {
            tax: Some(Decimal::new(1001, 1)),
            ..Default::default()
        }),
        tags: Some(vec!["ok".into(), "x".repeat(501)]),
        ..Default::default()
    };
    let e = validate_company(&body);
    let keys: Vec<&str> = e.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "bic",
            "billing_email_cc",
            "country_code",
            "customer_vat.tax",
            "default_cash_discount",
            "default_cash_discount_days",
            "default_discount",
            "default_invoice_due_days",
            "email",
            "iban",
            "name",
            "payment_term_days",
            "tags[1]",
            "vat_identifier",
            "website",
        ]
    );
    assert_eq!(e["vat_identifier"], ["has a wrong check digit"]);
    assert_eq!(e["billing_email_cc"], ["nope is not an e-mail address"]);
}

#[test]
fn einvoice_fields_are_checked_and_normalized() {
    let mut body = NewCompany {
        buyer_reference: Some(" 04011000-12345-67 ".into()),
        electronic_address: Some("  ".into()),
        sepa_mandate_reference: Some(" KD-4711/2026 ".into()),
        einvoice_format: Some(EinvoiceFormat::XrechnungCii),
        ..company()
    };
    assert_eq!(validate_company(&body), FieldErrors::new());
    normalize_company(&mut body);
    assert_eq!(body.buyer_reference.as_deref(), Some("04011000-12345-67"));
    assert_eq!(body.electronic_address, None);
    assert_eq!(body.sepa_mandate_reference.as_deref(), Some("KD-4711/2026"));
    let bad = NewCompany {
        buyer_reference: Some("x".repeat(201)),
        electronic_address: Some("rechnung@".into()),
        sepa_mandate_reference: Some("Müller 1".into()),
        ..company()
    };
    assert_eq!(
        validate_company(&bad).keys().collect::<Vec<_>>(),
        [
            "buyer_reference",
            "electronic_address",
            "sepa_mandate_reference"
        ]
    );
    let stored = NewCompany {
        einvoice_format: Some(EinvoiceFormat::XrechnungUbl),
        buyer_reference: Some("991-1".into()),
        ..company()
    };
    let merged = merge_patch(
        &stored,
        &json!({"einvoice_format": null, "buyer_reference": null}),
        COMPANY_KEEP_ON_NULL,
    )
    .unwrap();
    assert_eq!(merged.einvoice_format, Some(EinvoiceFormat::XrechnungUbl));
    assert_eq!(merged.buyer_reference, None);
}

#[test]
fn people_projects_and_deals_are_checked() {
    let e = validate_person(&NewPerson {
        firstname: Some("Anna".into()),
        email: Some("anna@".into()),
        billing_contact: Some(true),
        ..Default::default()
    });
    assert_eq!(
        e.keys().collect::<Vec<_>>(),
        ["billing_contact", "email", "lastname"]
    );
    assert!(validate_person(&NewPerson {
        firstname: Some("Anna".into()),
        lastname: Some("Berg".into()),
        company_id: Some(1),
        billing_contact: Some(true),
        ..Default::default()
    })
    .is_empty());
    let e = validate_project(&NewProject {
        billing_email_to: Some("x".into()),
        ..Default::default()
    });
    assert_eq!(
        e.keys().collect::<Vec<_>>(),
        ["billing_email_to", "customer_id", "name"]
    );
    let deal = |s: &str| NewDeal {
        name: Some("Shop".into()),
        company_id: Some(1),
        status: Some(s.into()),
        ..Default::default()
    };
    assert!(validate_deal(&deal("won")).is_empty());
    assert_eq!(
        validate_deal(&deal("pending"))["status"],
        ["must be open, won or lost"]
    );
}

#[test]
fn a_patch_replaces_named_fields_clears_nulls_and_keeps_the_rest() {
    let stored = NewCompany {
        email: Some("ap@hafen.example".into()),
        website: Some("hafen.example".into()),
        default_invoice_due_days: Some(14),
        active: Some(true),
        tags: Some(vec!["a".into()]),
        ..company()
    };
    let merged = merge_patch(
        &stored,
        &json!({"website": null, "active": false, "name": null, "tags": null, "phone": "040 1"}),
        COMPANY_KEEP_ON_NULL,
    )
    .unwrap();
    assert_eq!(merged.website, None);
    assert_eq!(merged.active, Some(false));
    assert_eq!(merged.name.as_deref(), Some("Hafen GmbH"));
    assert_eq!(merged.tags, Some(vec!["a".to_string()]));
    assert_eq!(merged.email.as_deref(), Some("ap@hafen.example"));
    assert_eq!(merged.phone.as_deref(), Some("040 1"));
    let renamed = merge_patch(
        &stored,
        &json!({"payment_term_days": 30}),
        COMPANY_KEEP_ON_NULL,
    )
    .unwrap();
    assert_eq!(renamed.due_days(), Some(30));
    let both = merge_patch(
        &stored,
        &json!({"payment_term_days": 30, "default_invoice_due_days": 7}),
        COMPANY_KEEP_ON_NULL,
    )
    .unwrap();
    assert_eq!(both.due_days(), Some(7));
    assert!(merge_patch(&stored, &json!([1]), COMPANY_KEEP_ON_NULL).is_err());
}

#[test]
fn only_the_patched_fields_errors_count() {
    let mut e = FieldErrors::new();
    push_error(&mut e, "email", messages::IS_NOT_E_MAIL_ADDRESS);
    push_error(
        &mut e,
        "customer_vat.tax",
        messages::MUST_BE_BETWEEN_N_AND_N.with([0, 100]),
    );
    push_error(
        &mut e,
        "default_invoice_due_days",
        messages::MUST_BE_BETWEEN_N_AND_N.with([0, 365]),
    );
    let kept = errors_of_patch(e, &json!({"customer_vat": {}, "payment_term_days": 400}));
    assert_eq!(
        kept.keys().collect::<Vec<_>>(),
        ["customer_vat.tax", "default_invoice_due_days"]
    );
}
