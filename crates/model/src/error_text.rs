//! German texts of the server's 422 field messages (issue 12 § German and English,
//! `docs/decisions.md` § People, sign-in and roles → 422 messages in German).
//!
//! The rules write their messages in English (the interface's language and the fallback).
//! This table maps each English message *pattern* to its German text: `{}` in a pattern
//! matches any text (shortest match, the last one up to the end) and is put at the same
//! position, in the same order, into the German text. A message without an entry stays
//! English. Pure and total: no allocation beyond the result, never panics.

/// English pattern → German text. More specific patterns come before general ones.
pub const DE: &[(&str, &str)] = &[
    ("is required", "ist erforderlich"),
    ("does not exist", "existiert nicht"),
    ("must not be negative", "darf nicht negativ sein"),
    ("is not an e-mail address", "ist keine E-Mail-Adresse"),
    ("{} is not an e-mail address", "{} ist keine E-Mail-Adresse"),
    ("must not be before the date", "darf nicht vor dem Datum liegen"),
    ("must not be before the reminder date", "darf nicht vor dem Mahndatum liegen"),
    ("must not be before service_period_from", "darf nicht vor dem Beginn des Leistungszeitraums liegen"),
    ("must not be before next_date", "darf nicht vor dem nächsten Termin liegen"),
    ("must not be before from", "darf nicht vor dem Anfang liegen"),
    ("must be at most {} characters", "darf höchstens {} Zeichen lang sein"),
    ("must be at least {} characters long (it has {})", "muss mindestens {} Zeichen lang sein (es sind {})"),
    ("must be a number", "muss eine Zahl sein"),
    ("must be an integer", "muss eine ganze Zahl sein"),
    ("must not be empty", "darf nicht leer sein"),
    ("must not be blank", "darf nicht leer sein"),
    ("is empty", "ist leer"),
    ("must hold at most {} positions", "darf höchstens {} Positionen enthalten"),
    ("must be one of the account's currencies ({})", "muss eine der Währungen des Kontos sein ({})"),
    ("must be one of the account's currencies", "muss eine der Währungen des Kontos sein"),
    ("must be the invoice's currency ({})", "muss die Währung der Rechnung sein ({})"),
    ("must match the {}'s currency ({})", "muss zur Währung von {} passen ({})"),
    ("must be greater than 0 for a {} position", "muss bei einer Position „{}“ größer als 0 sein"),
    ("must be greater than 0", "muss größer als 0 sein"),
    ("must be 0 for a {} position", "muss bei einer Position „{}“ 0 sein"),
    ("must be a non-empty tag without commas", "muss ein nicht leeres Schlagwort ohne Komma sein"),
    ("is not a valid IBAN (checksum)", "ist keine gültige IBAN (Prüfsumme)"),
    ("is not a valid IBAN (country, check digits, account)", "ist keine gültige IBAN (Land, Prüfziffern, Konto)"),
    ("is not a valid IBAN", "ist keine gültige IBAN"),
    ("is not a configured letter paper", "ist kein eingerichtetes Briefpapier"),
    ("has a wrong check digit", "hat eine falsche Prüfziffer"),
    ("does not fit", "passt nicht"),
    ("is out of range", "liegt außerhalb des zulässigen Bereichs"),
    ("must contain at least one position", "muss mindestens eine Position enthalten"),
    ("must contain at least one item position", "muss mindestens eine Artikelposition enthalten"),
    ("must be pending or approved", "muss offen oder freigegeben sein"),
    ("must be open, won or lost", "muss offen, gewonnen oder verloren sein"),
    ("must be created or draft", "muss angelegt oder Entwurf sein"),
    ("must be offer or customer", "muss Angebot oder Kunde sein"),
    ("must be invoice, project or customer", "muss Rechnung, Projekt oder Kunde sein"),
    ("must be one of {}", "muss einer der Werte {} sein"),
    ("must be between {} and {} (exclusive) with at most {} decimal places", "muss zwischen {} und {} liegen (ausschließlich), mit höchstens {} Nachkommastellen"),
    ("must be between 0 and 100 with at most {} decimal places", "muss zwischen 0 und 100 liegen, mit höchstens {} Nachkommastellen"),
    ("must be between 0 and {} days", "muss zwischen 0 und {} Tagen liegen"),
    ("must be between {} and {}", "muss zwischen {} und {} liegen"),
    ("must be more than 0 and at most {} with at most {} decimal places", "muss größer als 0 und höchstens {} sein, mit höchstens {} Nachkommastellen"),
    ("must have at most {} decimal places in {}", "darf in {2} höchstens {1} Nachkommastellen haben"),
    ("must be below {} (docs/decisions.md § Amount ranges)", "muss kleiner als {} sein"),
    ("is too large: amounts must stay below 10^15 currency units", "ist zu groß: Beträge müssen unter 10^15 Währungseinheiten bleiben"),
    ("is too large: amounts and totals must stay below {} currency units", "ist zu groß: Beträge und Summen müssen unter {} Währungseinheiten bleiben"),
    ("is required with service_period_to", "ist zusammen mit dem Ende des Leistungszeitraums erforderlich"),
    ("is required with service_period_from", "ist zusammen mit dem Beginn des Leistungszeitraums erforderlich"),
    ("is required with a unit price", "ist zusammen mit einem Einzelpreis erforderlich"),
    ("is required with a quantity", "ist zusammen mit einer Menge erforderlich"),
    ("is required for an exempt position", "ist für eine steuerbefreite Position erforderlich"),
    ("is required for a {} position: the document's tax rate is 0", "ist für eine Position „{}“ erforderlich: der Steuersatz des Belegs ist 0"),
    ("is required for the QR-bill", "ist für die QR-Rechnung erforderlich"),
    ("is required for the DATEV export: set it in the settings", "ist für den DATEV-Export erforderlich: in den Einstellungen eintragen"),
    ("is required (multipart part named file)", "ist erforderlich (Multipart-Teil „file“)"),
    ("is not a web address", "ist keine Webadresse"),
    ("must be a web address such as https://www.example.com", "muss eine Webadresse wie https://www.example.com sein"),
    ("is not a phone number", "ist keine Telefonnummer"),
    ("is not a host name", "ist kein Hostname"),
    ("is not a currency code such as EUR", "ist kein Währungscode wie EUR"),
    ("is not numeric", "ist nicht numerisch"),
    ("is not a finite number", "ist keine endliche Zahl"),
    ("is not a number; write it like {} (groups of three digits)", "ist keine Zahl; schreiben Sie sie wie {} (Dreiergruppen)"),
    ("has the wrong type for this field", "hat den falschen Typ für dieses Feld"),
    ("must be a timestamp", "muss ein Zeitstempel sein"),
    ("must be a month YYYY-MM", "muss ein Monat JJJJ-MM sein"),
    ("must be a date YYYY-MM-DD with a year from 1900 to 2999", "muss ein Datum JJJJ-MM-TT mit einem Jahr von 1900 bis 2999 sein"),
    ("must be an ISO 3166-1 country code such as DE", "muss ein Ländercode nach ISO 3166-1 wie DE sein"),
    ("must be an ISO 3166-1 alpha-2 country code (e.g. DE)", "muss ein Ländercode nach ISO 3166-1 Alpha-2 sein (z. B. DE)"),
    ("must start with an EU country prefix (e.g. DE, AT, NL), GB, XI or CHE", "muss mit einem EU-Länderkürzel (z. B. DE, AT, NL), GB, XI oder CHE beginnen"),
    ("must be DE + 9 digits", "muss DE und 9 Ziffern sein"),
    ("must be a BIC of 8 or 11 characters (e.g. COBADEFFXXX)", "muss eine BIC mit 8 oder 11 Zeichen sein (z. B. COBADEFFXXX)"),
    ("must be a BIC of 8 or 11 characters", "muss eine BIC mit 8 oder 11 Zeichen sein"),
    ("must be a SEPA creditor identifier such as DE98ZZZ09999999999", "muss eine Gläubiger-Identifikationsnummer wie DE98ZZZ09999999999 sein"),
    ("must list at least one currency", "muss mindestens eine Währung nennen"),
    ("belongs to another customer", "gehört zu einem anderen Kunden"),
    ("{} belongs to another customer", "{} gehört zu einem anderen Kunden"),
    ("is another customer's offer", "ist das Angebot eines anderen Kunden"),
    ("{} does not exist", "{} existiert nicht"),
    ("{} is already billed", "{} ist bereits abgerechnet"),
    ("{} is not billable", "{} ist nicht abrechenbar"),
    ("cannot be repeated: time and expenses are billed once", "kann nicht wiederholt werden: Zeiten und Auslagen werden einmal abgerechnet"),
    ("cannot be repeated: an offer is billed once", "kann nicht wiederholt werden: ein Angebot wird einmal abgerechnet"),
    ("is a draft; finalize it before recording payments", "ist ein Entwurf; erst abschließen, dann Zahlungen erfassen"),
    ("is a draft; only final invoices can be reminded of", "ist ein Entwurf; nur abgeschlossene Rechnungen können gemahnt werden"),
    ("is paid; there is nothing to remind of", "ist bezahlt; es gibt nichts zu mahnen"),
    ("is already on purchase {} of this supplier", "steht bereits auf der Eingangsrechnung {} dieses Lieferanten"),
    ("is already used by another user", "wird bereits von einer anderen Person verwendet"),
    ("must be admin, staff or read_only", "muss admin, staff oder read_only sein"),
    ("must be de or en", "muss de oder en sein"),
    ("must be system, light or dark", "muss system, light oder dark sein"),
    ("is wrong", "ist falsch"),
    ("is too easy to guess: {}", "ist zu leicht zu erraten: {}"),
    ("is too easy to guess; add more words or characters", "ist zu leicht zu erraten; fügen Sie Wörter oder Zeichen hinzu"),
    ("The link is invalid or has expired.", "Der Link ist ungültig oder abgelaufen."),
    // A failed sign-in and a refused key (401).
    ("E-mail or password is wrong.", "E-Mail-Adresse oder Passwort ist falsch."),
    ("Missing, malformed or unknown API key.", "Der API-Schlüssel fehlt, ist fehlerhaft oder unbekannt."),
    // The sign-in lockout (429) and the general rate limit.
    ("Too many sign-in attempts. Try again in 1 minute.", "Zu viele Anmeldeversuche. Bitte in 1 Minute erneut versuchen."),
    ("Too many sign-in attempts. Try again in {} minutes.", "Zu viele Anmeldeversuche. Bitte in {} Minuten erneut versuchen."),
    ("Rate limit exceeded; retry in {} seconds.", "Zu viele Anfragen; bitte in {} Sekunden erneut versuchen."),
    ("the last active admin must stay an active admin", "der letzte aktive Admin muss aktiver Admin bleiben"),
    ("the user is deactivated", "die Person ist deaktiviert"),
    ("no recipient: give emails_to or set a billing e-mail address on the customer or project", "kein Empfänger: emails_to angeben oder beim Kunden oder Projekt eine Rechnungs-E-Mail-Adresse hinterlegen"),
    ("enter at least one recipient", "mindestens einen Empfänger angeben"),
    // Issue 30: every literal message of a rule or handler has its German text here
    // (`crates/server/tests/german_messages.rs` fails on one without).
    ("names must not be blank", "Namen dürfen nicht leer sein"),
    ("can't be blank", "darf nicht leer sein"),
    ("only items with quantity and unit price can bill activities or expenses", "nur Positionen mit Menge und Einzelpreis können Zeiten oder Auslagen abrechnen"),
    ("only a person at a company can be its billing contact", "nur eine Person der Firma kann ihr Rechnungskontakt sein"),
    ("is longer than 70 characters for the QR-bill", "ist für die QR-Rechnung länger als 70 Zeichen"),
    ("needs a line with post code and town for the QR-bill", "braucht für die QR-Rechnung eine Zeile mit Postleitzahl und Ort"),
    ("has a street longer than 70 characters for the QR-bill", "hat für die QR-Rechnung eine Straße mit mehr als 70 Zeichen"),
    ("has a town over 35 or a post code over 16 characters for the QR-bill", "hat für die QR-Rechnung einen Ort über 35 oder eine Postleitzahl über 16 Zeichen"),
    ("must be a Swiss or Liechtenstein IBAN for the QR-bill", "muss für die QR-Rechnung eine IBAN aus der Schweiz oder Liechtenstein sein"),
    ("must be CHF or EUR for the QR-bill", "muss für die QR-Rechnung CHF oder EUR sein"),
    ("give a company, a deal or a project", "eine Firma, einen Deal oder ein Projekt angeben"),
    ("must have at least one level", "muss mindestens eine Mahnstufe haben"),
    ("must have at least one row", "muss mindestens eine Zeile haben"),
    ("must have at most 200 rows", "darf höchstens 200 Zeilen haben"),
    ("must be later than the row before (rows in date order, each date once)", "muss nach der Zeile davor liegen (Zeilen nach Datum, jedes Datum einmal)"),
    ("has nothing open to remind of", "hat nichts Offenes, an das erinnert werden könnte"),
    ("is too large to compute", "ist zu groß zum Berechnen"),
    ("you cannot deactivate yourself", "Sie können sich nicht selbst deaktivieren"),
    ("send needs a default recipient: give the customer (or project) a billing e-mail address", "Versand braucht einen Standardempfänger: beim Kunden (oder Projekt) eine Rechnungs-E-Mail-Adresse hinterlegen"),
    ("is not valid base64", "ist kein gültiges Base64"),
    ("takes too long to read (over 10 seconds); Kontor cannot import it", "braucht zu lange zum Lesen (über 10 Sekunden); Kontor kann sie nicht importieren"),
    ("is an e-invoice whose amounts are too large or whose totals cannot be booked", "ist eine E-Rechnung, deren Beträge zu groß sind oder deren Summen sich nicht buchen lassen"),
    ("is the key this request uses; sign out instead, or revoke it with another key", "ist der Schlüssel dieser Anfrage; melden Sie sich stattdessen ab oder widerrufen Sie ihn mit einem anderen Schlüssel"),
    ("the invoice's customer no longer exists", "der Kunde der Rechnung existiert nicht mehr"),
    ("the invoice's payments add up to more than an amount can hold", "die Zahlungen der Rechnung ergeben mehr, als ein Betrag fassen kann"),
    ("was used for another request (another body or path) within 24 hours", "wurde innerhalb von 24 Stunden für eine andere Anfrage (anderer Inhalt oder Pfad) verwendet"),
    ("must be 1 to 255 printable ASCII characters", "muss aus 1 bis 255 druckbaren ASCII-Zeichen bestehen"),
    ("is larger than 1 MiB", "ist größer als 1 MiB"),
    ("must be a PNG or SVG file (judged by its content)", "muss eine PNG- oder SVG-Datei sein (nach ihrem Inhalt beurteilt)"),
    ("takes too long to read", "braucht zu lange zum Lesen"),
    // serde's messages for a value of the wrong type or form.
    ("invalid type: {}, expected {}", "ungültiger Typ: {}, erwartet: {}"),
    ("invalid value: {}, expected {}", "ungültiger Wert: {}, erwartet: {}"),
    ("unknown variant {}, expected {}", "unbekannter Wert {}, erwartet: {}"),
    ("missing field {}", "Feld {} fehlt"),
];

/// The prefix of a weak password's reason; the estimator's (zxcvbn's) warning or
/// suggestion follows it and is translated through [`PASSWORD_HINTS_DE`].
pub const WEAK_PASSWORD_PREFIX: &str = "is too easy to guess: ";

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

/// Matches `message` against `pattern`; the texts that stand for the `{}`s, or `None`.
fn captures<'a>(pattern: &str, message: &'a str) -> Option<Vec<&'a str>> {
    let parts: Vec<&str> = pattern.split("{}").collect();
    let (first, rest) = parts.split_first()?;
    let mut tail = message.strip_prefix(first)?;
    let mut found = Vec::new();
    for (i, literal) in rest.iter().enumerate() {
        let last = i + 1 == rest.len();
        if last {
            let captured = tail.strip_suffix(literal)?;
            found.push(captured);
            tail = "";
        } else {
            let at = tail.find(literal).filter(|_| !literal.is_empty())?;
            found.push(&tail[..at]);
            tail = &tail[at + literal.len()..];
        }
    }
    (tail.is_empty() && found.iter().all(|c| !c.is_empty())).then_some(found)
}

/// Puts `values` into `text` for its `{}` (in order) or `{n}` (1-based) placeholders.
fn fill(text: &str, values: &[&str]) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut next = 0;
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let inner = &after[..close];
                let index = if inner.is_empty() {
                    next += 1;
                    Some(next - 1)
                } else {
                    inner.parse::<usize>().ok().and_then(|n| n.checked_sub(1))
                };
                match index.and_then(|i| values.get(i)) {
                    Some(v) => out.push_str(v),
                    None => {
                        out.push('{');
                        out.push_str(inner);
                        out.push('}');
                    }
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The German text of the English field message `message`; the message itself when the
/// table has no entry.
pub fn german(message: &str) -> String {
    if let Some(hint) = message.strip_prefix(WEAK_PASSWORD_PREFIX) {
        if !hint.is_empty() {
            return format!("ist zu leicht zu erraten: {}", password_hint_german(hint));
        }
    }
    DE.iter()
        .find_map(|(pattern, de)| captures(pattern, message).map(|values| fill(de, &values)))
        .unwrap_or_else(|| message.to_string())
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
    fn translates_fixed_and_patterned_messages() {
        assert_eq!(german("is required"), "ist erforderlich");
        assert_eq!(
            german("must be at most 200 characters"),
            "darf höchstens 200 Zeichen lang sein"
        );
        assert_eq!(
            german("must have at most 2 decimal places in EUR"),
            "darf in EUR höchstens 2 Nachkommastellen haben"
        );
        assert_eq!(
            german("must be one of the account's currencies (EUR, CHF)"),
            "muss eine der Währungen des Kontos sein (EUR, CHF)"
        );
        assert_eq!(
            german("x@ is not an e-mail address"),
            "x@ ist keine E-Mail-Adresse"
        );
        assert_eq!(german("something new"), "something new");
    }

    #[test]
    fn every_entry_matches_itself_with_sample_values() {
        for (pattern, de) in DE {
            let sample = pattern.replace("{}", "7");
            let out = german(&sample);
            assert_ne!(out, sample, "{pattern} does not translate");
            assert!(!out.contains("{}"), "{pattern} → {out}");
            assert!(!de.is_empty());
        }
    }

    #[test]
    fn weak_password_reasons_and_the_lockout_come_in_german() {
        assert_eq!(
            german("is too easy to guess: This is a top-10 common password."),
            "ist zu leicht zu erraten: Dies ist eines der 10 häufigsten Passwörter."
        );
        assert_eq!(
            german("is too easy to guess: This is similar to a commonly used password. Add another word or two. Uncommon words are better."),
            "ist zu leicht zu erraten: Dies ähnelt einem häufig verwendeten Passwort. Fügen Sie ein oder zwei Wörter hinzu. Ungewöhnliche Wörter sind besser."
        );
        // An unknown hint stays English after the German start.
        assert_eq!(
            german("is too easy to guess: Something new."),
            "ist zu leicht zu erraten: Something new."
        );
        assert_eq!(
            german("Too many sign-in attempts. Try again in 14 minutes."),
            "Zu viele Anmeldeversuche. Bitte in 14 Minuten erneut versuchen."
        );
        assert_eq!(
            german("Too many sign-in attempts. Try again in 1 minute."),
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
}
