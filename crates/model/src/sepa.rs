//! SEPA identifiers of the e-invoice fields (issue 10 contract § New fields for e-invoices):
//! the creditor identifier of the account (BT-90) and the mandate reference of a customer
//! (BT-89), and the e-invoice text fields shared by companies, the account and invoices
//! (buyer reference BT-10, electronic addresses BT-34/BT-49). Pure functions; the forms and
//! the server apply the same checks (`docs/decisions.md` § E-invoice fields (issue 10)).

use crate::error::messages;
use crate::error::{push_error, FieldErrors};

/// Longest SEPA creditor identifier, in characters (EPC262-08: 35).
pub const MAX_CREDITOR_IDENTIFIER: usize = 35;
/// Longest SEPA mandate reference, in characters (EPC rulebook: 35).
pub const MAX_MANDATE_REFERENCE: usize = 35;
/// Longest buyer reference (BT-10) and electronic address (BT-34/BT-49), in characters.
pub const MAX_EINVOICE_TEXT: usize = 200;

/// The creditor identifier as stored: whitespace removed, upper case
/// (`de98 zzz 09999999999` → `DE98ZZZ09999999999`).
pub fn normalize_creditor_identifier(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase()
}

/// The ISO 7064 MOD 97-10 remainder of `text` with letters counted as two digits
/// (`A` = 10 … `Z` = 35), as for IBANs. `None` when `text` holds anything but ASCII
/// letters and digits.
fn mod97(text: &str) -> Option<u32> {
    let mut remainder: u32 = 0;
    for c in text.chars() {
        let value = c.to_digit(36)?;
        remainder = if value >= 10 {
            (remainder * 100 + value) % 97
        } else {
            (remainder * 10 + value) % 97
        };
    }
    Some(remainder)
}

/// The two check digits of a SEPA creditor identifier (EPC262-08 § 6.3) for the country
/// code `country` (ISO 3166-1 alpha-2, upper case) and the national identifier `national`
/// (letters and digits, the creditor business code excluded): `98 − (national ∥ country ∥
/// "00" mod 97)`, two digits. `None` when either part holds other characters.
pub fn creditor_check_digits(country: &str, national: &str) -> Option<String> {
    let remainder = mod97(&format!("{national}{country}00"))?;
    Some(format!("{:02}", 98 - remainder))
}

/// Why `id` (already normalized, [`normalize_creditor_identifier`]) is not a SEPA creditor
/// identifier (BT-90, EPC262-08), `None` when it is one. The form: an ISO 3166-1 country
/// code, two check digits, a three-character creditor business code (letters or digits,
/// `ZZZ` when unused; not part of the check), and the national identifier of 1–28 letters
/// or digits — at most 35 characters in all; the check digits must be the MOD 97-10 digits
/// of the national identifier and the country ([`creditor_check_digits`]).
/// `DE98ZZZ09999999999` passes; `DE99ZZZ09999999999` does not.
pub fn creditor_identifier_error(id: &str) -> Option<crate::error::Message> {
    if id.chars().count() > MAX_CREDITOR_IDENTIFIER {
        return Some(
            crate::error::messages::MUST_BE_AT_MOST_N_CHARACTERS.with([MAX_CREDITOR_IDENTIFIER]),
        );
    }
    let shape = crate::error::messages::MUST_BE_SEPA_CREDITOR_IDENTIFIER;
    if !id.is_ascii() || id.len() < 8 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Some(shape.into());
    }
    let (country, digits, national) = (&id[..2], &id[2..4], &id[7..]);
    if !crate::country::is_country_code(country) || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Some(shape.into());
    }
    match creditor_check_digits(country, national) {
        Some(expected) if expected == digits => None,
        Some(_) => Some(crate::error::messages::CREDITOR_IDENTIFIER_CHECK_DIGITS.into()),
        None => Some(shape.into()),
    }
}

/// The IBAN as stored and compared: whitespace removed, upper case
/// (`de89 3704 0044 0532 0130 00` → `DE89370400440532013000`).
pub fn normalize_iban(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase()
}

/// Whether `iban` is an IBAN (ISO 13616), checked by the `iban_validate` crate after
/// [`normalize_iban`] (spaces and case do not matter): a known country, that country's
/// length and BBAN format from the SWIFT IBAN registry, and the MOD 97-10 check digits.
/// `DE89 3704 0044 0532 0130 00` passes; `DE89 3704 0044 0532 0130 01` (checksum) and
/// `DE89370400440532013` (German IBANs have 22 characters) do not.
pub fn is_valid_iban(iban: &str) -> bool {
    normalize_iban(iban).parse::<iban::Iban>().is_ok()
}

/// Whether `c` is in the SEPA (Latin) character set of the EPC rulebooks: `a–z`, `A–Z`,
/// `0–9`, `/ - ? : ( ) . , ' +` and the space.
pub fn is_sepa_char(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(
            c,
            '/' | '-' | '?' | ':' | '(' | ')' | '.' | ',' | '\'' | '+' | ' '
        )
}

/// Why `reference` (trimmed) is not a SEPA mandate reference (BT-89), `None` when it is
/// one: 1–35 characters of the SEPA character set ([`is_sepa_char`]), not starting or ending
/// with `/` and without `//` (EPC rule for identifiers).
pub fn mandate_reference_error(reference: &str) -> Option<crate::error::Message> {
    if reference.is_empty() {
        return Some(crate::error::messages::MUST_NOT_BE_EMPTY.into());
    }
    if reference.chars().count() > MAX_MANDATE_REFERENCE {
        return Some(
            crate::error::messages::MUST_BE_AT_MOST_N_CHARACTERS.with([MAX_MANDATE_REFERENCE]),
        );
    }
    if let Some(c) = reference.chars().find(|c| !is_sepa_char(*c)) {
        return Some(
            crate::error::messages::MUST_USE_SEPA_CHARACTERS_NOT_N.with([format!("{c:?}")]),
        );
    }
    if reference.starts_with('/') || reference.ends_with('/') || reference.contains("//") {
        return Some(crate::error::messages::MUST_NOT_START_OR_END_WITH_SLASH.into());
    }
    None
}

/// Why `address` (trimmed) is not an electronic address (BT-34/BT-49), `None` when it is
/// one: at most [`MAX_EINVOICE_TEXT`] characters, and an e-mail address
/// ([`crate::email::is_address`]) when it contains `@` (other addresses, such as a
/// Leitweg-ID or a Peppol participant id, are free text).
pub fn electronic_address_error(address: &str) -> Option<crate::error::Message> {
    if address.chars().count() > MAX_EINVOICE_TEXT {
        return Some(
            crate::error::messages::MUST_BE_AT_MOST_N_CHARACTERS.with([MAX_EINVOICE_TEXT]),
        );
    }
    if address.contains('@') && !crate::email::is_address(address) {
        return Some(crate::error::messages::IS_NOT_E_MAIL_ADDRESS.into());
    }
    None
}

/// `Some(trimmed)` for a value with content.
fn given(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|v| !v.is_empty())
}

/// Adds the errors of the e-invoice text fields a body gives, keyed by the wire
/// name: `buyer_reference` (≤ [`MAX_EINVOICE_TEXT`] characters),
/// `electronic_address` ([`electronic_address_error`]), `sepa_mandate_reference`
/// ([`mandate_reference_error`]), `sepa_creditor_identifier`
/// ([`creditor_identifier_error`]). Absent and blank values are not checked (they clear
/// the field). Used by the company, account and invoice rules.
pub fn check_einvoice_fields(errors: &mut FieldErrors, fields: &EinvoiceTexts<'_>) {
    if let Some(r) = given(fields.buyer_reference) {
        if r.chars().count() > MAX_EINVOICE_TEXT {
            push_error(
                errors,
                "buyer_reference",
                messages::MUST_BE_AT_MOST_N_CHARACTERS.with([MAX_EINVOICE_TEXT]),
            );
        }
    }
    if let Some(message) = given(fields.electronic_address).and_then(electronic_address_error) {
        push_error(errors, "electronic_address", message);
    }
    if let Some(message) = given(fields.sepa_mandate_reference).and_then(mandate_reference_error) {
        push_error(errors, "sepa_mandate_reference", message);
    }
    if let Some(message) = given(fields.sepa_creditor_identifier)
        .map(normalize_creditor_identifier)
        .and_then(|id| creditor_identifier_error(&id))
    {
        push_error(errors, "sepa_creditor_identifier", message);
    }
}

/// The e-invoice text fields of one body, for [`check_einvoice_fields`] (`None` = not
/// given or not a field of this body).
#[derive(Clone, Copy, Debug, Default)]
pub struct EinvoiceTexts<'a> {
    /// Buyer reference (BT-10).
    pub buyer_reference: Option<&'a str>,
    /// Electronic address (BT-34 account, BT-49 company).
    pub electronic_address: Option<&'a str>,
    /// SEPA mandate reference (BT-89, companies).
    pub sepa_mandate_reference: Option<&'a str>,
    /// SEPA creditor identifier (BT-90, the account).
    pub sepa_creditor_identifier: Option<&'a str>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ibans_are_checked_by_country_format_and_checksum() {
        for good in [
            "DE89 3704 0044 0532 0130 00",
            "de89370400440532013000",
            "GB82WEST12345698765432",
            "ch9300762011623852957",
            "CH4431999123000889012",
            "DE02120300000000202051",
            "DE75512108001245126199",
            "AT611904300234573201",
        ] {
            assert!(is_valid_iban(good), "{good} is an IBAN");
        }
        for bad in [
            "DE89 3704 0044 0532 0130 01", // checksum
            "DE89",                        // too short
            "12DE37040044053201300",       // no country first
            "DE8937040044053201300",       // 21 characters: German IBANs have 22
            "XX89370400440532013000",      // no such country
            "",
        ] {
            assert!(!is_valid_iban(bad), "{bad} is no IBAN");
        }
        assert_eq!(
            normalize_iban(" de89 3704 0044 0532 0130 00 "),
            "DE89370400440532013000"
        );
    }

    #[test]
    fn creditor_identifiers_carry_their_mod97_check_digits() {
        // The Bundesbank's test identifier and published ones.
        assert_eq!(
            creditor_check_digits("DE", "09999999999").as_deref(),
            Some("98")
        );
        assert_eq!(creditor_identifier_error("DE98ZZZ09999999999"), None);
        assert_eq!(
            creditor_identifier_error("DE98ABC09999999999"),
            None,
            "business code not checked"
        );
        // Austria, and the EPC's Italian example with letters in the national id.
        assert_eq!(creditor_identifier_error("AT61ZZZ01234567890"), None);
        assert_eq!(creditor_identifier_error("IT66ZZZA1B2C3D4E5F6G7H8"), None);
        let wrong = creditor_identifier_error("DE99ZZZ09999999999").unwrap();
        assert!(wrong.contains("check digits"), "{wrong}");
        assert!(creditor_identifier_error("DE98ZZZ09999999998").is_some());
        assert!(
            creditor_identifier_error("XX98ZZZ09999999999").is_some(),
            "country"
        );
        assert!(
            creditor_identifier_error("DE9XZZZ09999999999").is_some(),
            "digits"
        );
        assert!(
            creditor_identifier_error("DE98ZZZ").is_some(),
            "no national id"
        );
        assert!(creditor_identifier_error("DE98ZZZ0999-999999").is_some());
        assert!(creditor_identifier_error(&format!("DE98ZZZ{}", "9".repeat(29))).is_some());
        assert_eq!(
            normalize_creditor_identifier(" de98 zzz 0999 9999 999 "),
            "DE98ZZZ09999999999"
        );
    }

    #[test]
    fn check_digits_round_trip_for_any_national_id() {
        for national in ["1", "ABC123", "09999999999", "ZZZZZZZZZZZZZZZZZZZZZZZZZZZZ"] {
            let digits = creditor_check_digits("FR", national).unwrap();
            let id = format!("FR{digits}ZZZ{national}");
            assert_eq!(creditor_identifier_error(&id), None, "{id}");
        }
        assert_eq!(creditor_check_digits("DE", "09-9"), None);
    }

    #[test]
    fn mandate_references_use_the_sepa_character_set() {
        assert_eq!(mandate_reference_error("MANDAT-2026/001"), None);
        assert_eq!(mandate_reference_error("Kd 4711 (a.b,c'd+e?f:g)"), None);
        assert_eq!(mandate_reference_error(&"A".repeat(35)), None);
        assert!(mandate_reference_error(&"A".repeat(36))
            .unwrap()
            .contains("35"));
        assert!(mandate_reference_error("Müller-1").is_some(), "umlaut");
        assert!(mandate_reference_error("A_1").is_some());
        assert!(mandate_reference_error("/A1").is_some());
        assert!(mandate_reference_error("A1/").is_some());
        assert!(mandate_reference_error("A//1").is_some());
        assert!(mandate_reference_error("").is_some());
        assert!(is_sepa_char('+') && !is_sepa_char('&'));
    }

    #[test]
    fn electronic_addresses_are_mail_addresses_when_they_have_an_at() {
        assert_eq!(electronic_address_error("rechnung@kunde.example"), None);
        assert_eq!(
            electronic_address_error("991-12345-67"),
            None,
            "a Leitweg-ID"
        );
        assert_eq!(electronic_address_error("0088:4035811991021"), None);
        assert!(electronic_address_error("rechnung@").is_some());
        assert!(electronic_address_error("a b@c.example").is_some());
        assert!(electronic_address_error(&"x".repeat(201)).is_some());
    }

    #[test]
    fn the_field_check_names_each_bad_field() {
        let mut e = FieldErrors::new();
        let long = "x".repeat(201);
        check_einvoice_fields(
            &mut e,
            &EinvoiceTexts {
                buyer_reference: Some(&long),
                electronic_address: Some("no@"),
                sepa_mandate_reference: Some("Ä"),
                sepa_creditor_identifier: Some("de99 zzz 09999999999"),
            },
        );
        assert_eq!(
            e.keys().collect::<Vec<_>>(),
            [
                "buyer_reference",
                "electronic_address",
                "sepa_creditor_identifier",
                "sepa_mandate_reference"
            ]
        );
        let mut ok = FieldErrors::new();
        check_einvoice_fields(
            &mut ok,
            &EinvoiceTexts {
                buyer_reference: Some("04011000-12345-67"),
                electronic_address: Some("  "),
                sepa_mandate_reference: Some(" M-1 "),
                sepa_creditor_identifier: Some("de98 zzz 09999999999"),
            },
        );
        assert!(ok.is_empty(), "{ok:?}");
    }
}
