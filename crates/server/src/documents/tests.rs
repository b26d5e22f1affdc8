//! Unit tests of `documents` (kept apart so the module itself stays short).

use super::*;

#[test]
fn numbers_and_dates_follow_the_language() {
    let d = NaiveDate::from_ymd_opt(2026, 11, 3).unwrap();
    assert_eq!(print_date(d, Language::De), "03.11.2026");
    assert_eq!(print_date(d, Language::En), "3 Nov 2026");
    let x = Decimal::new(123456, 2);
    assert_eq!(money(x, "EUR", Language::De), "1.234,56 EUR");
    assert_eq!(money(x, "EUR", Language::En), "1,234.56 EUR");
    assert_eq!(plain(Decimal::new(250, 2), Language::De), "2,5");
    assert_eq!(
        group_iban("DE02120300000000202051"),
        "DE02 1203 0000 0000 2020 51"
    );
}

#[test]
fn the_legal_footer_names_what_is_set() {
    let account = AccountProfile {
        name: "Kontor GmbH".into(),
        address: "Hauptstraße 1\n10115 Berlin".into(),
        vat_identifier: Some("DE136695976".into()),
        tax_number: Some(" ".into()),
        register_court: Some("Amtsgericht Charlottenburg".into()),
        register_number: Some("HRB 1 B".into()),
        iban: Some("DE02120300000000202051".into()),
        ..Default::default()
    };
    let columns = legal_footer(&account, Language::De.words());
    assert_eq!(
        columns,
        vec![
            vec![
                "Kontor GmbH".to_string(),
                "Hauptstraße 1".into(),
                "10115 Berlin".into()
            ],
            vec![
                "Amtsgericht Charlottenburg".to_string(),
                "Handelsregister HRB 1 B".into(),
                "USt-IdNr. DE136695976".into()
            ],
            vec!["IBAN DE02 1203 0000 0000 2020 51".to_string()],
        ]
    );
    assert!(letterhead(&account, None, Language::De)
        .footer_columns
        .is_empty());
}
