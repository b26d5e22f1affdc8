//! Unit tests of `account` (kept apart so the module itself stays short).

use super::*;

#[test]
fn default_texts_pick_language_and_kind() {
    let texts = DocumentTexts {
        de: DocumentText {
            invoice_salutation: "Sehr geehrte Damen und Herren,\nanbei die Rechnung.".into(),
            invoice_footer: "Vielen Dank!".into(),
            offer_salutation: "<p>Unser <b>Angebot</b></p>".into(),
            offer_footer: String::new(),
        },
        en: DocumentText {
            invoice_salutation: "Dear Sir or Madam,\r\nplease find our invoice.".into(),
            invoice_footer: "Thank you!".into(),
            offer_salutation: "Our offer".into(),
            offer_footer: "Valid for 30 days.".into(),
        },
    };
    assert_eq!(
        texts.defaults_for(Language::De, DocumentKind::Invoice),
        (
            "Sehr geehrte Damen und Herren,<br>anbei die Rechnung.".to_string(),
            "Vielen Dank!".to_string()
        )
    );
    assert_eq!(
        texts.defaults_for(Language::En, DocumentKind::Invoice),
        (
            "Dear Sir or Madam,<br>please find our invoice.".to_string(),
            "Thank you!".to_string()
        )
    );
    assert_eq!(
        texts.defaults_for(Language::De, DocumentKind::Offer),
        ("<p>Unser <b>Angebot</b></p>".to_string(), String::new())
    );
    assert_eq!(
        texts.defaults_for(Language::En, DocumentKind::Offer),
        ("Our offer".to_string(), "Valid for 30 days.".to_string())
    );
    assert_eq!(
        DocumentTexts::default().defaults_for(Language::En, DocumentKind::Offer),
        (String::new(), String::new())
    );
}

fn account() -> Account {
    Account {
        name: "Kontor GmbH".into(),
        currencies: vec!["EUR".into(), "CHF".into()],
        default_currency: "EUR".into(),
        ..Account::default()
    }
}

fn update(json: &str) -> AccountUpdate {
    serde_json::from_str(json).unwrap()
}

fn errors(json: &str) -> Vec<String> {
    validate_account_update(&update(json), &account())
        .into_keys()
        .collect()
}

#[test]
fn good_values_pass_and_are_normalized() {
    let u = update(
        r#"{"vat_identifier": "de 123456788", "iban": "de89 3704 0044 0532 0130 00",
            "bic": "cobadeffxxx", "country_code": "de", "email": "a@kontor.example",
            "website": "https://kontor.example/about", "phone": "+49 30 123456",
            "default_tax": 7, "default_invoice_due_days": 30,
            "invoice_number_format": "{YYYY}-{NNNNN}", "currencies": ["eur", "usd"],
            "default_currency": "USD", "tax_number": "  ", "document_texts": {"en": {"invoice_footer": "Thanks"}}}"#,
    );
    assert_eq!(validate_account_update(&u, &account()), FieldErrors::new());
    let mut a = account();
    a.tax_number = Some("12/345/67890".into());
    apply_account_update(&u, &mut a);
    assert_eq!(a.vat_identifier.as_deref(), Some("DE123456788"));
    assert_eq!(a.iban.as_deref(), Some("DE89370400440532013000"));
    assert_eq!(a.bic.as_deref(), Some("COBADEFFXXX"));
    assert_eq!(a.country_code.as_deref(), Some("DE"));
    assert_eq!(a.tax_number, None, "an empty text removes the value");
    assert_eq!(a.currencies, vec!["USD", "EUR"]);
    assert_eq!(a.default_currency, "USD");
    assert_eq!(a.default_tax, Decimal::new(7, 0));
    assert_eq!(a.document_texts.en.invoice_footer, "Thanks");
    assert_eq!(a.invoice_number_format, "{YYYY}-{NNNNN}");
    assert_eq!(a.name, "Kontor GmbH", "absent fields stay");
}

#[test]
fn each_bad_field_is_named() {
    assert_eq!(
        errors(r#"{"iban": "DE89 3704 0044 0532 0130 01"}"#),
        ["iban"]
    );
    assert_eq!(errors(r#"{"bic": "COBADEFF1"}"#), ["bic"]);
    assert_eq!(errors(r#"{"country_code": "XX"}"#), ["country_code"]);
    assert_eq!(errors(r#"{"vat_identifier": "DE12"}"#), ["vat_identifier"]);
    assert_eq!(errors(r#"{"email": "no-at.example"}"#), ["email"]);
    assert_eq!(errors(r#"{"website": "not a site"}"#), ["website"]);
    assert_eq!(errors(r#"{"phone": "call me"}"#), ["phone"]);
    assert_eq!(errors(r#"{"name": " "}"#), ["name"]);
    assert_eq!(errors(r#"{"default_tax": 101}"#), ["default_tax"]);
    assert_eq!(errors(r#"{"default_tax": -1}"#), ["default_tax"]);
    assert_eq!(
        errors(r#"{"default_invoice_due_days": 366}"#),
        ["default_invoice_due_days"]
    );
    assert_eq!(
        errors(r#"{"invoice_number_format": "R{MM}-{NNN}"}"#),
        ["invoice_number_format"]
    );
    assert_eq!(
        errors(r#"{"offer_number_format": "A-{NNN}-{NN}"}"#),
        ["offer_number_format"]
    );
    assert_eq!(errors(r#"{"currencies": []}"#), ["currencies"]);
    assert_eq!(
        errors(r#"{"currencies": ["EURO"]}"#),
        ["currencies", "default_currency"]
    );
    assert_eq!(
        errors(r#"{"default_currency": "USD"}"#),
        ["default_currency"]
    );
    assert_eq!(errors(r#"{"smtp": {"port": 25}}"#), ["smtp.host"]);
    assert_eq!(
        errors(r#"{"smtp": {"host": "mail.example", "port": 0}}"#),
        ["smtp.port"]
    );
    let long = "x".repeat(MAX_SETTING_TEXT + 1);
    assert_eq!(
        errors(&format!(
            r#"{{"document_texts": {{"de": {{"offer_footer": "{long}"}}}}}}"#
        )),
        ["document_texts.de.offer_footer"]
    );
    assert_eq!(
        errors(r#"{"iban": "x", "bic": "y", "email": "z"}"#),
        ["bic", "email", "iban"]
    );
}

#[test]
fn empty_texts_clear_and_null_means_absent() {
    assert!(errors(r#"{"iban": "", "vat_identifier": null, "email": ""}"#).is_empty());
    let u = update(r#"{"smtp": null}"#);
    assert_eq!(u.smtp, Some(None));
    assert_eq!(update("{}").smtp, None);
    let mut a = account();
    a.smtp = Some(SmtpSettings {
        host: "mail.example".into(),
        port: 587,
        security: SmtpSecurity::Starttls,
        user: None,
        password_set: false,
    });
    assert!(validate_account_update(&update(r#"{"smtp": {"port": 2525}}"#), &a).is_empty());
}

#[test]
fn einvoice_settings_are_checked_and_applied() {
    assert!(account().factur_x, "Factur-X is on by default");
    let a: Account = serde_json::from_value(serde_json::json!({
        "name": "K", "address": "", "currencies": ["EUR"], "default_currency": "EUR",
        "letter_papers": []
    }))
    .unwrap();
    assert!(
        a.factur_x,
        "an account from before issue 10 reads with Factur-X on"
    );
    assert_eq!(
        errors(r#"{"sepa_creditor_identifier": "DE99ZZZ09999999999", "electronic_address": "x@"}"#),
        ["electronic_address", "sepa_creditor_identifier"]
    );
    let u = update(
        r#"{"sepa_creditor_identifier": "de98 zzz 09999999999", "electronic_address": " e@kontor.example ", "factur_x": false}"#,
    );
    assert!(validate_account_update(&u, &account()).is_empty());
    let mut a = account();
    apply_account_update(&u, &mut a);
    assert_eq!(
        a.sepa_creditor_identifier.as_deref(),
        Some("DE98ZZZ09999999999")
    );
    assert_eq!(a.electronic_address.as_deref(), Some("e@kontor.example"));
    assert!(!a.factur_x);
    apply_account_update(
        &update(r#"{"electronic_address": "", "factur_x": null}"#),
        &mut a,
    );
    assert_eq!(a.electronic_address, None, "an empty text removes it");
    assert!(!a.factur_x, "null leaves it");
}

#[test]
fn bic_shapes_as_people_type_them() {
    assert!(errors(r#"{"bic": "cobadeffxxx"}"#).is_empty());
    assert!(errors(r#"{"bic": "DEUT DE FF 500"}"#).is_empty());
    assert_eq!(errors(r#"{"bic": "COBADEF"}"#), ["bic"]);
    assert_eq!(errors(r#"{"bic": "C0BADEFF"}"#), ["bic"]);
}

#[test]
fn the_password_is_never_serialized_in_the_representation() {
    let mut a = account();
    a.smtp = Some(SmtpSettings {
        host: "h.example".into(),
        port: 25,
        security: SmtpSecurity::None,
        user: Some("u".into()),
        password_set: true,
    });
    let json = serde_json::to_string(&a).unwrap();
    assert!(json.contains(r#""password_set":true"#));
    assert!(!json.contains(r#""password":"#));
}

#[test]
fn offer_confirmation_on_approval_is_off_by_default_and_switches() {
    assert!(!account().offer_confirmation_on_approval);
    let mut a = account();
    apply_account_update(
        &update(r#"{"offer_confirmation_on_approval": true}"#),
        &mut a,
    );
    assert!(a.offer_confirmation_on_approval);
    apply_account_update(
        &update(r#"{"offer_confirmation_on_approval": null}"#),
        &mut a,
    );
    assert!(a.offer_confirmation_on_approval, "null leaves it");
    apply_account_update(
        &update(r#"{"offer_confirmation_on_approval": false}"#),
        &mut a,
    );
    assert!(!a.offer_confirmation_on_approval);
}
