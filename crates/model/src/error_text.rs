//! The caller's language and the password estimator's German (issue 12 § German and
//! English, `docs/decisions.md` § People, sign-in and roles → 422 messages in German).
//!
//! Field messages are entries of the catalogue [`crate::error::messages`] and render in
//! German by their code; what stays here is reading `Accept-Language` and the German of
//! zxcvbn's feedback, which a weak password's message carries as its parameter.

/// zxcvbn's feedback (every warning and suggestion, as its `Display` writes them) → German.
/// A text missing here stays English.
#[rustfmt::skip]
pub const PASSWORD_HINTS_DE: &[(&str, &str)] = &[
    // Warnings.
    ("Straight rows of keys are easy to guess.", "Gerade Tastenreihen sind leicht zu erraten."),
    ("Short keyboard patterns are easy to guess.", "Kurze Tastaturmuster sind leicht zu erraten."),
    ("Repeats like \"aaa\" are easy to guess.", "Wiederholungen wie „aaa“ sind leicht zu erraten."),
    ("Repeats like \"abcabcabc\" are only slightly harder to guess than \"abc\".", "Wiederholungen wie „abcabcabc“ sind kaum schwerer zu erraten als „abc“."),
    ("This is a top-10 common password.", "Dies ist eines der 10 häufigsten Passwörter."),
    ("This is a top-100 common password.", "Dies ist eines der 100 häufigsten Passwörter."),
    ("This is a very common password.", "Dies ist ein sehr häufiges Passwort."),
    ("This is similar to a commonly used password.", "Dies ähnelt einem häufig verwendeten Passwort."),
    ("Sequences like abc or 6543 are easy to guess.", "Folgen wie abc oder 6543 sind leicht zu erraten."),
    ("Recent years are easy to guess.", "Jahreszahlen der letzten Jahre sind leicht zu erraten."),
    ("A word by itself is easy to guess.", "Ein einzelnes Wort ist leicht zu erraten."),
    ("Dates are often easy to guess.", "Datumsangaben sind oft leicht zu erraten."),
    ("Names and surnames by themselves are easy to guess.", "Vor- und Nachnamen allein sind leicht zu erraten."),
    ("Common names and surnames are easy to guess.", "Häufige Vor- und Nachnamen sind leicht zu erraten."),
    // Suggestions.
    ("Use a few words, avoid common phrases.", "Verwenden Sie mehrere Wörter und vermeiden Sie gängige Redewendungen."),
    ("No need for symbols, digits, or uppercase letters.", "Sonderzeichen, Ziffern oder Großbuchstaben sind nicht nötig."),
    ("Add another word or two. Uncommon words are better.", "Fügen Sie ein oder zwei Wörter hinzu. Ungewöhnliche Wörter sind besser."),
    ("Capitalization doesn't help very much.", "Großschreibung hilft kaum."),
    ("All-uppercase is almost as easy to guess as all-lowercase.", "Nur Großbuchstaben sind fast so leicht zu erraten wie nur Kleinbuchstaben."),
    ("Reversed words aren't much harder to guess.", "Rückwärts geschriebene Wörter sind kaum schwerer zu erraten."),
    ("Predictable substitutions like '@' instead of 'a' don't help very much.", "Vorhersehbare Ersetzungen wie „@“ statt „a“ helfen kaum."),
    ("Use a longer keyboard pattern with more turns.", "Verwenden Sie ein längeres Tastaturmuster mit mehr Richtungswechseln."),
    ("Avoid repeated words and characters.", "Vermeiden Sie wiederholte Wörter und Zeichen."),
    ("Avoid sequences.", "Vermeiden Sie Zeichenfolgen wie abc oder 123."),
    ("Avoid recent years.", "Vermeiden Sie Jahreszahlen der letzten Jahre."),
    ("Avoid years that are associated with you.", "Vermeiden Sie Jahreszahlen, die mit Ihnen in Verbindung stehen."),
    ("Avoid dates and years that are associated with you.", "Vermeiden Sie Daten und Jahreszahlen, die mit Ihnen in Verbindung stehen."),
];

/// What may refer to a company, singular and plural, English → German: the words of a
/// company's refusal to be deleted ("Hafen GmbH has 3 invoices, 1 project; archive it
/// instead", `messages::COMPANY_HAS_N_ARCHIVE_INSTEAD`, whose second parameter is such a
/// list).
pub const REFERENCE_WORDS_DE: &[(&str, &str)] = &[
    ("invoice", "Rechnung"),
    ("invoices", "Rechnungen"),
    ("offer", "Angebot"),
    ("offers", "Angebote"),
    ("purchase", "Beleg"),
    ("purchases", "Belege"),
    ("project", "Projekt"),
    ("projects", "Projekte"),
    ("deal", "Verkaufschance"),
    ("deals", "Verkaufschancen"),
];

/// The German of a reference list `"3 invoices, 1 project"` (counts and the words of
/// [`REFERENCE_WORDS_DE`], joined by ", ") → `"3 Rechnungen, 1 Projekt"`; an item of
/// another form stays as it is.
pub fn reference_list_german(list: &str) -> String {
    list.split(", ")
        .map(|item| {
            let german = item.split_once(' ').and_then(|(count, word)| {
                REFERENCE_WORDS_DE
                    .iter()
                    .find(|(en, _)| *en == word)
                    .map(|(_, de)| format!("{count} {de}"))
            });
            german.unwrap_or_else(|| item.to_string())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The German text of a password estimator's feedback `hint` (one or more of its
/// sentences, as [`PASSWORD_HINTS_DE`] lists them); a sentence without an entry ends the
/// translation and the rest stays English.
pub fn password_hint_german(hint: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let mut rest = hint.trim();
    while !rest.is_empty() {
        match PASSWORD_HINTS_DE
            .iter()
            .find(|(en, _)| rest.starts_with(en))
        {
            Some((en, de)) => {
                out.push(de);
                rest = rest[en.len()..].trim_start();
            }
            None => {
                out.push(rest);
                break;
            }
        }
    }
    out.join(" ")
}

/// What a 404 or a 403 names, English → German, longest first where one starts another:
/// the record kinds of `Not found: invoice 7.` (issue 34: "every text in German mode is
/// German", the server's 404s), the roles, the services and kinds of work of a 503.
pub const WORDS_DE: &[(&str, &str)] = &[
    (
        "offer confirmation of offer",
        "Auftragsbestätigung zu Angebot",
    ),
    ("customer approval of offer", "Kundenfreigabe zu Angebot"),
    ("e-invoice file of purchase", "E-Rechnungsdatei zu Beleg"),
    ("e-invoice of purchase", "E-Rechnung zu Beleg"),
    (
        "hours billed by invoice",
        "abgerechnete Stunden zu Rechnung",
    ),
    ("recurring invoice", "Serienrechnung"),
    ("purchase payment", "Belegzahlung"),
    ("purchase category", "Belegkategorie"),
    ("bank transaction", "Bankumsatz"),
    ("bank statement", "Kontoauszug"),
    ("letter paper", "Briefpapier"),
    ("text snippet", "Textbaustein"),
    ("API key", "API-Schlüssel"),
    ("logo file", "Logodatei"),
    ("attachment file", "Anhangsdatei"),
    ("document file", "Dokumentdatei"),
    ("no such route", "diese Adresse"),
    ("invoice", "Rechnung"),
    ("offer", "Angebot"),
    ("purchase", "Beleg"),
    ("project", "Projekt"),
    ("reminder", "Mahnung"),
    ("payment", "Zahlung"),
    ("deal", "Verkaufschance"),
    ("user", "Benutzer"),
    ("person", "Person"),
    ("expense", "Auslage"),
    ("e-mail", "E-Mail"),
    ("company", "Firma"),
    ("article", "Artikel"),
    ("activity", "Zeiteintrag"),
    ("logo", "Logo"),
    ("attachment", "Anhang"),
    ("signature", "Unterschrift"),
    ("document", "Dokument"),
    ("approval", "Freigabe"),
    ("admin", "Administrator"),
    ("staff", "Mitarbeiter"),
    ("read_only", "Nur lesen"),
    ("database", "Die Datenbank"),
    ("file store", "Die Dateiablage"),
    ("checking passwords", "Passwörter prüfen"),
    ("rendering documents", "Dokumente erzeugen"),
    ("reading e-invoices", "E-Rechnungen lesen"),
];

/// The German of what a message names (`"invoice 7"` → `"Rechnung 7"`, `"staff"` →
/// `"Mitarbeiter"`): the longest entry of [`WORDS_DE`] the text starts with (followed by
/// nothing or a space), the rest (an id) kept; a text without an entry stays as it is.
pub fn word_german(text: &str) -> String {
    WORDS_DE
        .iter()
        .filter(|(en, _)| {
            text.strip_prefix(en)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
        })
        .max_by_key(|(en, _)| en.len())
        .map(|(en, de)| format!("{de}{}", &text[en.len()..]))
        .unwrap_or_else(|| text.to_string())
}

/// The language a request asks for by its `Accept-Language` header value: `"de"` when
/// the first listed language with the highest weight is German, else `"en"` (the
/// fallback).
pub fn language(accept_language: &str) -> &'static str {
    let mut best: Option<(rust_decimal::Decimal, bool)> = None;
    for item in accept_language.split(',') {
        let mut parts = item.trim().split(';');
        let tag = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        if tag.is_empty() {
            continue;
        }
        let q = parts
            .find_map(|p| {
                p.trim()
                    .strip_prefix("q=")
                    .and_then(|v| v.trim().parse::<rust_decimal::Decimal>().ok())
            })
            .unwrap_or(rust_decimal::Decimal::ONE);
        let german = tag == "de" || tag.starts_with("de-");
        if best.is_none_or(|(bq, _)| q > bq) {
            best = Some((q, german));
        }
    }
    match best {
        Some((q, true)) if q > rust_decimal::Decimal::ZERO => "de",
        _ => "en",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weak_password_hints_and_the_lockout_come_in_german() {
        use crate::error::messages::{
            PASSWORD_TOO_EASY_N, SIGN_IN_LOCKED_N_MINUTES, SIGN_IN_LOCKED_ONE_MINUTE,
        };
        use crate::error::Message;
        assert_eq!(
            PASSWORD_TOO_EASY_N.with(["This is similar to a commonly used password. Add another word or two. Uncommon words are better."]).german(),
            "ist zu leicht zu erraten: Dies ähnelt einem häufig verwendeten Passwort. Fügen Sie ein oder zwei Wörter hinzu. Ungewöhnliche Wörter sind besser."
        );
        // An unknown hint stays English after the German start.
        assert_eq!(
            PASSWORD_TOO_EASY_N.with(["Something new."]).german(),
            "ist zu leicht zu erraten: Something new."
        );
        assert_eq!(
            SIGN_IN_LOCKED_N_MINUTES.with([14]).german(),
            "Zu viele Anmeldeversuche. Bitte in 14 Minuten erneut versuchen."
        );
        assert_eq!(
            Message::from(SIGN_IN_LOCKED_ONE_MINUTE).german(),
            "Zu viele Anmeldeversuche. Bitte in 1 Minute erneut versuchen."
        );
        for (en, de) in PASSWORD_HINTS_DE {
            assert_eq!(password_hint_german(en), *de);
        }
    }

    #[test]
    fn reads_accept_language() {
        assert_eq!(language("de"), "de");
        assert_eq!(language("de-DE,de;q=0.9,en;q=0.8"), "de");
        assert_eq!(language("en-US,en;q=0.9,de;q=0.8"), "en");
        assert_eq!(language("en;q=0.5, de-AT;q=0.7"), "de");
        assert_eq!(language(""), "en");
        assert_eq!(language("fr"), "en");
    }

    #[test]
    fn a_reference_list_reads_in_german() {
        assert_eq!(
            reference_list_german("3 invoices, 1 project, 2 deals"),
            "3 Rechnungen, 1 Projekt, 2 Verkaufschancen"
        );
        assert_eq!(
            reference_list_german("1 offer, 4 purchases"),
            "1 Angebot, 4 Belege"
        );
        assert_eq!(reference_list_german("7 widgets"), "7 widgets");
    }
}
