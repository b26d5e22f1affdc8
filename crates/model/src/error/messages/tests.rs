//! The catalogue's own checks: unique codes, German with every parameter, wire codes.

use super::super::message::{Message, VERBATIM};
use super::*;

#[test]
fn a_message_reads_in_english_and_german_with_its_parameters() {
    let m = MUST_BE_AT_MOST_N_CHARACTERS.with([200]);
    assert_eq!(m, "must be at most 200 characters");
    assert_eq!(m.german(), "darf höchstens 200 Zeichen lang sein");
    assert_eq!(m.code(), "must_be_at_most_n_characters");
    let reordered = MUST_HAVE_AT_MOST_N_DECIMALS_IN_N.with(["2", "EUR"]);
    assert_eq!(
        reordered.english(),
        "must have at most 2 decimal places in EUR"
    );
    assert_eq!(
        reordered.german(),
        "darf in EUR höchstens 2 Nachkommastellen haben"
    );
    assert_eq!(Message::from(IS_REQUIRED).text("de"), "ist erforderlich");
    assert_eq!(Message::from(IS_REQUIRED).text("en"), "is required");
}

#[test]
fn every_entry_has_a_unique_code_and_german_with_the_same_parameters() {
    let mut codes = std::collections::BTreeSet::new();
    for text in ALL {
        assert!(codes.insert(text.code), "{} twice", text.code);
        assert!(!text.de.is_empty(), "{} has no German", text.code);
        let params: Vec<String> = (1..=text.param_count()).map(|i| format!("<{i}>")).collect();
        let de = Message::new(*text, params.clone()).german();
        for p in &params {
            assert!(
                de.contains(p.as_str()),
                "{}: German drops {p}: {de}",
                text.code
            );
        }
        assert!(!de.contains('{'), "{}: {de}", text.code);
    }
}

#[test]
fn a_code_read_from_the_wire_gives_the_same_message() {
    let m = N_DOES_NOT_EXIST.with(["project 7"]);
    let wire = m.wire_code();
    assert_eq!(Message::from_code(&wire.code, wire.params), Some(m));
    assert_eq!(Message::from_code("no_such_code", vec![]), None);
    let outside = Message::verbatim("line 3: unexpected end");
    assert_eq!(outside.german(), "line 3: unexpected end");
    let wire = outside.wire_code();
    assert_eq!(Message::from_code(&wire.code, wire.params), Some(outside));
}

#[test]
fn a_library_text_finds_its_entry() {
    let m = Message::from_english("must be a number");
    assert_eq!(m.code(), "must_be_number");
    let m = Message::from_english("invalid type: string \"x\", expected a boolean");
    assert_eq!(m.code(), "invalid_type_n_expected_n");
    assert_eq!(
        m.german(),
        "ungültiger Typ: string \"x\", erwartet: a boolean"
    );
    assert_eq!(Message::from_english("something new").code(), VERBATIM);
}

#[test]
fn the_password_hint_code_is_the_catalogues() {
    assert_eq!(
        PASSWORD_TOO_EASY_N.code,
        super::super::message::PASSWORD_HINT_CODE
    );
}

#[test]
fn a_weak_password_hint_comes_in_german() {
    let m = PASSWORD_TOO_EASY_N.with(["This is a top-10 common password."]);
    assert_eq!(m, "is too easy to guess: This is a top-10 common password.");
    assert_eq!(
        m.german(),
        "ist zu leicht zu erraten: Dies ist eines der 10 häufigsten Passwörter."
    );
}

#[test]
fn serializes_as_its_english_text() {
    let m = MUST_BE_BETWEEN_N_AND_N.with([1, 9]);
    assert_eq!(
        serde_json::to_string(&m).unwrap(),
        "\"must be between 1 and 9\""
    );
    let back: Message = serde_json::from_str("\"must be between 1 and 9\"").unwrap();
    assert_eq!(back.code(), VERBATIM);
    assert_eq!(back, "must be between 1 and 9");
}

#[test]
fn the_reference_list_code_is_the_catalogues_and_reads_in_german() {
    assert_eq!(
        COMPANY_HAS_N_ARCHIVE_INSTEAD.code,
        super::super::message::REFERENCE_LIST_CODE
    );
    let m = COMPANY_HAS_N_ARCHIVE_INSTEAD.with(["Hafen GmbH", "3 invoices, 1 project"]);
    assert_eq!(
        m,
        "Hafen GmbH has 3 invoices, 1 project; archive it instead"
    );
    assert_eq!(
        m.german(),
        "Hafen GmbH hat 3 Rechnungen, 1 Projekt; archivieren Sie die Firma stattdessen"
    );
}

#[test]
fn a_mail_server_sentence_reads_german() {
    let m = Message::from_english(MAIL_SERVER_UNREACHABLE.en);
    assert_eq!(m.code(), "mail_server_unreachable");
    assert!(m
        .german()
        .starts_with("Der Mailserver war nicht erreichbar"));
}

#[test]
fn a_404_and_a_403_read_german_with_german_names() {
    let m = NOT_FOUND_N.with(["invoice 7"]);
    assert_eq!(m, "Not found: invoice 7.");
    assert_eq!(m.german(), "Nicht gefunden: Rechnung 7.");
    assert_eq!(
        NOT_FOUND_N.with(["recurring invoice 3"]).german(),
        "Nicht gefunden: Serienrechnung 3."
    );
    assert_eq!(
        NOT_FOUND_N
            .with(["offer confirmation of offer 12"])
            .german(),
        "Nicht gefunden: Auftragsbestätigung zu Angebot 12."
    );
    assert_eq!(NOT_FOUND_N.with(["logo"]).german(), "Nicht gefunden: Logo.");
    // "invoices" is no entry of its own and not "invoice" + a space: it stays.
    assert_eq!(
        NOT_FOUND_N.with(["invoices"]).german(),
        "Nicht gefunden: invoices."
    );
    let role = ROLE_NEEDED_N_N.with(["admin", "staff"]);
    assert_eq!(role, "This needs the admin role; you are staff.");
    assert_eq!(
        role.german(),
        "Dafür ist die Rolle „Administrator“ nötig; Ihre Rolle ist „Mitarbeiter“."
    );
    assert_eq!(
        UNAVAILABLE_N_N.with(["database", "5"]).german(),
        "Die Datenbank ist gerade nicht erreichbar; nichts wurde geändert. Bitte in 5 Sekunden erneut versuchen."
    );
    for code in super::super::message::TRANSLATED_PARAM_CODES {
        assert!(ALL.iter().any(|t| t.code == code), "{code}");
    }
}
