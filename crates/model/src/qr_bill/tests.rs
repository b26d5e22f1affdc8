//! Unit tests of `qr_bill` (kept apart so the module itself stays short).

use super::*;

#[test]
fn mod10_recursive_matches_the_guidelines_examples() {
    // SIX guidelines' QR reference example: 21 00000 00003 13947 14300 09017.
    assert_eq!(mod10_recursive("21000000000313947143000901"), Some(7));
    assert!(is_valid_qr_reference("21 00000 00003 13947 14300 09017"));
    assert!(!is_valid_qr_reference("21 00000 00003 13947 14300 09018"));
    assert!(is_valid_qr_reference("000000000000000000000000000"));
    assert_eq!(mod10_recursive("12a"), None);
}

#[test]
fn qr_references_come_from_the_invoice_number_digits() {
    let r = qr_reference("R2611-001").unwrap();
    assert_eq!(r.len(), 27);
    assert!(r.starts_with("00000000000000000002611001"));
    assert!(is_valid_qr_reference(&r));
    assert_eq!(r, "000000000000000000026110011");
    assert!(qr_reference("DRAFT").is_err());
    assert!(qr_reference(&"1".repeat(27)).is_err());
    assert_eq!(qr_reference(&"1".repeat(26)).unwrap().len(), 27);
    assert_eq!(
        Reference::Qrr("210000000003139471430009017".into()).printed(),
        "21 00000 00003 13947 14300 09017"
    );
}

#[test]
fn creditor_references_follow_iso_11649() {
    // ISO 11649 / EPC examples.
    assert!(is_valid_creditor_reference("RF18 5390 0754 7034"));
    assert!(is_valid_creditor_reference("RF18539007547034"));
    assert!(is_valid_creditor_reference("RF45 G72U UR"));
    assert!(!is_valid_creditor_reference("RF19 5390 0754 7034"));
    assert_eq!(
        creditor_reference("539007547034").as_deref(),
        Some("RF18539007547034")
    );
    assert_eq!(
        creditor_reference("R2611-001").as_deref(),
        Some("RF38R2611001")
    );
    let r = creditor_reference("R2611-001").unwrap();
    assert!(r.starts_with("RF") && r.ends_with("R2611001"));
    assert!(is_valid_creditor_reference(&r));
    assert_eq!(creditor_reference("--"), None);
    // A longer number keeps its last 21 letters and digits (issue 32: every invoice has one).
    assert_eq!(
        creditor_reference(&"A".repeat(22)).map(|r| r.len()),
        Some(25)
    );
    assert_eq!(
        Reference::Scor("RF18539007547034".into()).printed(),
        "RF18 5390 0754 7034"
    );
}

#[test]
fn qr_ibans_have_an_iid_from_30000_to_31999() {
    assert!(is_qr_iban("CH44 3199 9123 0008 8901 2"));
    assert!(is_qr_iban("CH4431999123000889012"));
    assert!(!is_qr_iban("CH93 0076 2011 6238 5295 7"));
    assert!(!is_qr_iban("DE02 3000 0000 0000 2020 51"));
    assert!(is_qr_iban("LI21 3000 0000 0000 0000 0"));
    assert!(!is_qr_iban("CH29 3200 0000 0000 0000 0"));
}

#[test]
fn only_numbered_chf_or_eur_invoices_to_swiss_accounts_get_one() {
    let ch = Some("CH93 0076 2011 6238 5295 7");
    assert!(applies("CHF", ch, true, false));
    assert!(applies("EUR", ch, true, false));
    assert!(!applies("USD", ch, true, false));
    assert!(!applies("CHF", ch, false, false));
    assert!(!applies("CHF", ch, true, true));
    assert!(!applies("CHF", Some("DE89370400440532013000"), true, false));
    assert!(!applies(
        "CHF",
        Some("CH93 0076 2011 6238 5295 8"),
        true,
        false
    ));
    assert!(!applies("CHF", None, true, false));
    assert!(!applies("CHF", Some(""), true, false));
}

#[test]
fn addresses_are_structured_from_free_text() {
    let a = structured_address(
        "account",
        "Robert Schneider AG",
        "Rue du Lac 1268\n2501 Biel",
        Some("ch"),
    )
    .unwrap();
    assert_eq!(
        a,
        QrAddress {
            name: "Robert Schneider AG".into(),
            street: "Rue du Lac".into(),
            building_number: "1268".into(),
            post_code: "2501".into(),
            town: "Biel".into(),
            country: "CH".into(),
        }
    );
    assert_eq!(
        a.lines(),
        ["Robert Schneider AG", "Rue du Lac 1268", "2501 Biel"]
    );
    let b = structured_address(
        "customer",
        "Pia-Maria Rutschmann-Schnyder",
        "c/o Muster\nGrosse Marktgasse 28a\nD-80331 München",
        Some("DE"),
    )
    .unwrap();
    assert_eq!(
        (b.street.as_str(), b.building_number.as_str()),
        ("Grosse Marktgasse", "28a")
    );
    assert_eq!(
        (b.post_code.as_str(), b.town.as_str()),
        ("80331", "München")
    );
    assert_eq!(b.lines()[2], "DE-80331 München");
    assert_eq!(
        split_street("1, rue du Lac"),
        ("rue du Lac".into(), "1".into())
    );
    assert_eq!(split_street("Postfach"), ("Postfach".into(), String::new()));
    let e = structured_address("account", " ", "Somewhere", Some("XX")).unwrap_err();
    assert_eq!(
        e.keys().collect::<Vec<_>>(),
        ["account.address", "account.country_code", "account.name"]
    );
    // Post code and town only: no street.
    let c = structured_address("customer", "X", "8000 Zürich", Some("CH")).unwrap();
    assert_eq!(c.street, "");
    assert_eq!(c.lines(), ["X", "8000 Zürich"]);
}

#[test]
fn text_is_cut_to_the_permitted_characters() {
    assert_eq!(clean_text("  Müller\n& Söhne  €  "), "Müller & Söhne €");
    assert_eq!(clean_text("日本 Ltd"), ".. Ltd");
    assert_eq!(printed_amount(Decimal::new(194975, 2)), "1 949.75");
    assert_eq!(printed_amount(Decimal::new(123456789, 1)), "12 345 678.90");
    assert_eq!(payload_amount(Decimal::new(5, 1)), "0.50");
}

fn input() -> QrBillInput<'static> {
    QrBillInput {
        iban: "CH44 3199 9123 0008 8901 2",
        currency: "CHF",
        amount: Decimal::new(194975, 2),
        invoice_number: "R2611-001",
        creditor_name: "Robert Schneider AG",
        creditor_address: "Rue du Lac 1268\n2501 Biel",
        creditor_country: Some("CH"),
        debtor_name: "Pia-Maria Rutschmann-Schnyder",
        debtor_address: "Grosse Marktgasse 28\n9400 Rorschach",
        debtor_country: Some("CH"),
        message: "Rechnung R2611-001",
    }
}

#[test]
fn the_payload_lists_the_fields_in_order() {
    let bill = qr_bill(&input()).unwrap();
    assert_eq!(bill.reference.code(), "QRR");
    let expected = [
        "SPC",
        "0200",
        "1",
        "CH4431999123000889012",
        "S",
        "Robert Schneider AG",
        "Rue du Lac",
        "1268",
        "2501",
        "Biel",
        "CH",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "1949.75",
        "CHF",
        "S",
        "Pia-Maria Rutschmann-Schnyder",
        "Grosse Marktgasse",
        "28",
        "9400",
        "Rorschach",
        "CH",
        "QRR",
        "000000000000000000026110011",
        "Rechnung R2611-001",
        "EPD",
    ]
    .join("\r\n");
    assert_eq!(bill.payload(), expected);
    let ordinary = qr_bill(&QrBillInput {
        iban: "CH93 0076 2011 6238 5295 7",
        currency: "EUR",
        ..input()
    })
    .unwrap();
    assert_eq!(ordinary.reference.code(), "SCOR");
    assert!(ordinary.payload().contains("\r\nEUR\r\n"));
}

#[test]
fn bad_data_names_the_field() {
    let e = qr_bill(&QrBillInput {
        iban: "DE89370400440532013000",
        currency: "USD",
        amount: Decimal::ZERO,
        creditor_address: "nowhere",
        ..input()
    })
    .unwrap_err();
    assert_eq!(
        e.keys().collect::<Vec<_>>(),
        ["account.address", "account.iban", "currency", "gross_total"]
    );
    let e = qr_bill(&QrBillInput {
        invoice_number: "DRAFT",
        ..input()
    })
    .unwrap_err();
    assert_eq!(e.keys().collect::<Vec<_>>(), ["identifier"]);
    // An unstructurable debtor is left out, not an error.
    let bill = qr_bill(&QrBillInput {
        debtor_address: "",
        ..input()
    })
    .unwrap();
    assert_eq!(bill.debtor, None);
    assert!(bill
        .payload()
        .contains("\r\nCHF\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\nQRR\r\n"));
}
