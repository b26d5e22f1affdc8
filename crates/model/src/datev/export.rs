//! The DATEV export itself (EXTF 700 Buchungsstapel): the booking key of a VAT case, a
//! booking per document and rate, the fiscal year, the header and booking lines in
//! Windows-1252.

use super::*;
use crate::error::messages;

/// Which side of the books a booking is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Revenue: the customer's account is debited (`S`).
    Revenue,
    /// Expense: the supplier's account is credited (`H`).
    Expense,
}

/// The BU-Schlüssel (DATEV tax key) of a booking on `account`: none on an automatic
/// account ([`AUTOMATIC_ACCOUNTS`]) or for a category without tax; otherwise revenue
/// 19 % → `3`, 7 % → `2`, expense 19 % → `9`, 7 % → `8`. Other rates get none (DATEV has
/// no key Kontor could choose safely; the accountant sets it).
pub fn bu_key(
    side: Side,
    account: u32,
    category: TaxCategory,
    rate: Decimal,
) -> Option<&'static str> {
    if AUTOMATIC_ACCOUNTS.contains(&account) || !category.charges_tax() || rate.is_zero() {
        return None;
    }
    let (high, low) = match side {
        Side::Revenue => ("3", "2"),
        Side::Expense => ("9", "8"),
    };
    if rate == Decimal::from(19) {
        Some(high)
    } else if rate == Decimal::from(7) {
        Some(low)
    } else {
        None
    }
}

/// One booking line of the Buchungsstapel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Booking {
    /// Gross amount of the group, currency units; may be negative (a reversal): the line
    /// then writes its absolute value with the other Soll/Haben-Kennzeichen.
    pub gross: Decimal,
    /// Revenue (customer debited) or expense (supplier credited).
    pub side: Side,
    /// Currency code (WKZ Umsatz).
    pub currency: String,
    /// Konto: the debtor or creditor number.
    pub account: u32,
    /// Gegenkonto: the revenue or expense account.
    pub contra_account: u32,
    /// BU-Schlüssel, if any ([`bu_key`]).
    pub bu_key: Option<&'static str>,
    /// Belegdatum (the document date; written DDMM).
    pub date: NaiveDate,
    /// Belegfeld 1: the document number.
    pub document: String,
    /// Buchungstext (at most 60 characters are written).
    pub text: String,
    /// EU-Land u. UStID: the customer's VAT identifier on intra-EU and reverse-charge
    /// revenue.
    pub vat_identifier: Option<String>,
}

/// The fiscal year containing `date` when it starts in month `start_month` (1–12):
/// `(first day, last day)`.
pub fn fiscal_year(start_month: u32, date: NaiveDate) -> (NaiveDate, NaiveDate) {
    let month = start_month.clamp(1, 12);
    let year = if date.month() >= month {
        date.year()
    } else {
        date.year() - 1
    };
    let start = NaiveDate::from_ymd_opt(year, month, 1).unwrap_or(date);
    let end = NaiveDate::from_ymd_opt(year + 1, month, 1)
        .and_then(|d| d.pred_opt())
        .unwrap_or(date);
    (start, end)
}

/// Why a DATEV export of `from`–`to` cannot be written with `settings`: a period that
/// leaves one fiscal year (`to`: a Buchungsstapel belongs to one fiscal year, its
/// Belegdatum has no year). Missing consultant or client numbers do not stop the export:
/// those header fields are written empty so the accountant gets
/// the file at once and DATEV asks for the numbers at import.
pub fn check_export(settings: &DatevSettings, from: NaiveDate, to: NaiveDate) -> FieldErrors {
    let mut e = FieldErrors::new();
    let (start, end) = fiscal_year(settings.fiscal_year_start, from);
    if to > end {
        push_error(
            &mut e,
            "to",
            messages::MUST_LIE_IN_FISCAL_YEAR_N_N.with([
                start.format("%Y-%m-%d").to_string(),
                end.format("%Y-%m-%d").to_string(),
            ]),
        );
    }
    e
}

/// Pushes `count` numbered column pairs `"<kind> 1"`, `"<content> 1"`, `"<kind> 2"`, … (the
/// Buchungsstapel's Beleginfo and Zusatzinformation blocks).
fn numbered_pairs(c: &mut Vec<String>, kind: &str, content: &str, count: u32) {
    for i in 1..=count {
        c.push(format!("{kind} {i}"));
        c.push(format!("{content} {i}"));
    }
}

/// The 125 columns of the Buchungsstapel in DATEV's order (the column line).
pub fn columns() -> Vec<String> {
    let mut c: Vec<String> = [
        "Umsatz (ohne Soll/Haben-Kz)",
        "Soll/Haben-Kennzeichen",
        "WKZ Umsatz",
        "Kurs",
        "Basis-Umsatz",
        "WKZ Basis-Umsatz",
        "Konto",
        "Gegenkonto (ohne BU-Schlüssel)",
        "BU-Schlüssel",
        "Belegdatum",
        "Belegfeld 1",
        "Belegfeld 2",
        "Skonto",
        "Buchungstext",
        "Postensperre",
        "Diverse Adressnummer",
        "Geschäftspartnerbank",
        "Sachverhalt",
        "Zinssperre",
        "Beleglink",
    ]
    .map(String::from)
    .to_vec();
    numbered_pairs(&mut c, "Beleginfo - Art", "Beleginfo - Inhalt", 8);
    c.extend(
        [
            "KOST1 - Kostenstelle",
            "KOST2 - Kostenstelle",
            "Kost-Menge",
            "EU-Land u. UStID (Bestimmung)",
            "EU-Steuersatz (Bestimmung)",
            "Abw. Versteuerungsart",
            "Sachverhalt L+L",
            "Funktionsergänzung L+L",
            "BU 49 Hauptfunktionstyp",
            "BU 49 Hauptfunktionsnummer",
            "BU 49 Funktionsergänzung",
        ]
        .map(String::from),
    );
    // DATEV's own spelling: no space before the hyphen of "Inhalt".
    numbered_pairs(
        &mut c,
        "Zusatzinformation - Art",
        "Zusatzinformation- Inhalt",
        20,
    );
    c.extend(
        [
            "Stück",
            "Gewicht",
            "Zahlweise",
            "Forderungsart",
            "Veranlagungsjahr",
            "Zugeordnete Fälligkeit",
            "Skontotyp",
            "Auftragsnummer",
            "Buchungstyp",
            "USt-Schlüssel (Anzahlungen)",
            "EU-Land (Anzahlungen)",
            "Sachverhalt L+L (Anzahlungen)",
            "EU-Steuersatz (Anzahlungen)",
            "Erlöskonto (Anzahlungen)",
            "Herkunft-Kz",
            "Buchungs GUID",
            "KOST-Datum",
            "SEPA-Mandatsreferenz",
            "Skontosperre",
            "Gesellschaftername",
            "Beteiligtennummer",
            "Identifikationsnummer",
            "Zeichnernummer",
            "Postensperre bis",
            "Bezeichnung SoBil-Sachverhalt",
            "Kennzeichen SoBil-Buchung",
            "Festschreibung",
            "Leistungsdatum",
            "Datum Zuord. Steuerperiode",
            "Fälligkeit",
            "Generalumkehr (GU)",
            "Steuersatz",
            "Land",
            "Abrechnungsreferenz",
            "BVV-Position",
            "EU-Land u. UStID (Ursprung)",
            "EU-Steuersatz (Ursprung)",
            "Abw. Skontokonto",
        ]
        .map(String::from),
    );
    c
}

/// A DATEV text field: in double quotes, inner quotes doubled, line breaks and `;`-safe
/// (quoted), cut to `max` characters.
pub fn text_field(text: &str, max: usize) -> String {
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(max)
        .collect();
    format!("\"{}\"", clean.trim().replace('"', "\"\""))
}

/// A DATEV amount: absolute value, 2 decimal places, decimal comma, no grouping
/// (`1190.5` → `1190,50`).
pub fn amount_field(amount: Decimal) -> String {
    crate::arith::round_to(amount.abs(), 2)
        .to_string()
        .replace('.', ",")
}

/// Belegfeld 1: the characters DATEV accepts there (letters, digits, `$ % & * + - /`),
/// at most 36.
pub fn document_field(number: &str) -> String {
    let kept: String = number
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || "$%&*+-/".contains(*c))
        .take(36)
        .collect();
    text_field(&kept, 36)
}

/// The header line (31 fields): EXTF, version 700, category 21 "Buchungsstapel", format
/// version 13, created at `created` (YYYYMMDDHHMMSSFFF), origin "RE", exported by
/// "Kontor", consultant and client number, fiscal year start, account length, the period
/// `from`–`to`, the batch name "Kontor DD.MM.YYYY-DD.MM.YYYY", bookkeeping type 1
/// (Finanzbuchführung), not fixed (Festschreibung 0), currency `currency`.
/// The caller has checked [`check_export`] (missing numbers are written empty).
pub fn header_line(
    settings: &DatevSettings,
    created: NaiveDateTime,
    from: NaiveDate,
    to: NaiveDate,
    currency: &str,
) -> String {
    let (fiscal_start, _) = fiscal_year(settings.fiscal_year_start, from);
    let number = |n: Option<u32>| n.map(|n| n.to_string()).unwrap_or_default();
    let name = format!(
        "Kontor {}-{}",
        from.format("%d.%m.%Y"),
        to.format("%d.%m.%Y")
    );
    [
        "\"EXTF\"".to_string(),
        "700".into(),
        "21".into(),
        "\"Buchungsstapel\"".into(),
        "13".into(),
        created.format("%Y%m%d%H%M%S%3f").to_string(),
        String::new(),
        "\"RE\"".into(),
        "\"Kontor\"".into(),
        "\"\"".into(),
        number(settings.consultant_number),
        number(settings.client_number),
        fiscal_start.format("%Y%m%d").to_string(),
        settings.account_length.to_string(),
        from.format("%Y%m%d").to_string(),
        to.format("%Y%m%d").to_string(),
        text_field(&name, 30),
        "\"\"".into(),
        "1".into(),
        "0".into(),
        "0".into(),
        text_field(currency, 3),
        String::new(),
        "\"\"".into(),
        String::new(),
        String::new(),
        "\"\"".into(),
        String::new(),
        String::new(),
        "\"\"".into(),
        "\"\"".into(),
    ]
    .join(";")
}

/// One booking line: all 125 fields, filled: Umsatz (positive), Soll/Haben-Kennzeichen
/// (`S` for revenue, `H` for expenses, swapped for a negative amount), WKZ, Konto,
/// Gegenkonto, BU-Schlüssel, Belegdatum (DDMM), Belegfeld 1, Buchungstext, EU-Land u.
/// UStID.
pub fn booking_line(b: &Booking) -> String {
    let mut f = vec![String::new(); 125];
    let debit = matches!(b.side, Side::Revenue) != b.gross.is_sign_negative();
    f[0] = amount_field(b.gross);
    f[1] = text_field(if debit { "S" } else { "H" }, 1);
    f[2] = text_field(&b.currency, 3);
    f[6] = b.account.to_string();
    f[7] = b.contra_account.to_string();
    f[8] = b.bu_key.map(|k| text_field(k, 4)).unwrap_or_default();
    f[9] = b.date.format("%d%m").to_string();
    f[10] = document_field(&b.document);
    f[13] = text_field(&b.text, 60);
    f[39] = b
        .vat_identifier
        .as_deref()
        .map(|v| text_field(v, 15))
        .unwrap_or_default();
    f.join(";")
}

/// The whole file as text: header line, column line, the bookings, each line ended by
/// CRLF.
pub fn buchungsstapel(
    settings: &DatevSettings,
    created: NaiveDateTime,
    from: NaiveDate,
    to: NaiveDate,
    currency: &str,
    bookings: &[Booking],
) -> String {
    let mut out = header_line(settings, created, from, to, currency);
    out.push_str("\r\n");
    out.push_str(&columns().join(";"));
    out.push_str("\r\n");
    for b in bookings {
        out.push_str(&booking_line(b));
        out.push_str("\r\n");
    }
    out
}

/// `text` in Windows-1252: Latin-1 characters as they are, the typographic characters of
/// 0x80–0x9F (€ „ “ ” ‚ ‘ ’ – — … • ™ Š š Ž ž Œ œ Ÿ ƒ ˆ ˜ † ‡ ‰ ‹ ›) mapped, anything else `?`.
pub fn to_windows_1252(text: &str) -> Vec<u8> {
    const HIGH: [(char, u8); 27] = [
        ('€', 0x80),
        ('‚', 0x82),
        ('ƒ', 0x83),
        ('„', 0x84),
        ('…', 0x85),
        ('†', 0x86),
        ('‡', 0x87),
        ('ˆ', 0x88),
        ('‰', 0x89),
        ('Š', 0x8A),
        ('‹', 0x8B),
        ('Œ', 0x8C),
        ('Ž', 0x8E),
        ('‘', 0x91),
        ('’', 0x92),
        ('“', 0x93),
        ('”', 0x94),
        ('•', 0x95),
        ('–', 0x96),
        ('—', 0x97),
        ('˜', 0x98),
        ('™', 0x99),
        ('š', 0x9A),
        ('›', 0x9B),
        ('œ', 0x9C),
        ('ž', 0x9E),
        ('Ÿ', 0x9F),
    ];
    text.chars()
        .map(|c| match u32::from(c) {
            n @ (0..=0x7F | 0xA0..=0xFF) => n as u8,
            _ => HIGH
                .iter()
                .find(|(h, _)| *h == c)
                .map(|(_, b)| *b)
                .unwrap_or(b'?'),
        })
        .collect()
}
