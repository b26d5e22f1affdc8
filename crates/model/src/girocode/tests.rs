use super::*;
use std::str::FromStr;

fn d(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

#[test]
fn the_payload_follows_epc069_12_version_002() {
    let code = GiroCode::new(
        "DE89 3704 0044 0532 0130 00",
        Some("cobadeffxxx"),
        "Kontor Test GmbH",
        d("1487.5"),
        "R2611-001",
    )
    .unwrap();
    assert_eq!(
        code.payload(),
        "BCD\n002\n1\nSCT\nCOBADEFFXXX\nKontor Test GmbH\nDE89370400440532013000\nEUR1487.50\n\nRF38R2611001"
    );
    assert!(code.payload().len() <= MAX_PAYLOAD);
    // Without BIC the field stays empty (optional in version 002).
    let no_bic = GiroCode::new("DE89370400440532013000", None, "K", d("0.01"), "R1").unwrap();
    assert!(
        no_bic.payload().starts_with("BCD\n002\n1\nSCT\n\nK\n"),
        "{}",
        no_bic.payload()
    );
    assert!(no_bic.payload().contains("\nEUR0.01\n"));
}

#[test]
fn a_long_name_is_cut_to_70_characters() {
    let name = "Ä".repeat(90);
    let code = GiroCode::new("DE89370400440532013000", None, &name, d("10"), "R1").unwrap();
    assert_eq!(code.name.chars().count(), MAX_NAME);
}

#[test]
fn only_eur_amounts_within_the_limit_to_a_valid_iban_get_one() {
    let iban = Some("DE89370400440532013000");
    assert!(applies(true, "EUR", iban, d("999999999.99")));
    assert!(
        !applies(true, "EUR", iban, d("1000000000.00")),
        "over the limit"
    );
    assert!(!applies(true, "EUR", iban, d("0")), "nothing to pay");
    assert!(!applies(true, "EUR", iban, d("-5")), "a credit");
    assert!(!applies(true, "CHF", iban, d("10")), "another currency");
    assert!(
        !applies(true, "EUR", Some("DE00370400440532013000"), d("10")),
        "a wrong IBAN"
    );
    assert!(!applies(true, "EUR", None, d("10")), "no IBAN");
    assert!(!applies(false, "EUR", iban, d("10")), "switched off");
    assert!(GiroCode::new("DE89370400440532013000", None, "K", d("1000000000"), "R1").is_none());
}

#[test]
fn a_number_without_letters_or_digits_goes_as_text() {
    let code = GiroCode::new("DE89370400440532013000", None, "K", d("10"), "—").unwrap();
    assert_eq!(code.reference, None);
    assert!(
        code.payload().ends_with("\nEUR10.00\n\n\n—"),
        "{:?}",
        code.payload()
    );
}
