//! DATEV (issue 11, "For the accountant"; `docs/decisions.md` § Exports (issue 11)): the
//! account's DATEV settings (`GET/PUT /account` field `datev`), the accounts a booking
//! goes to (SKR03 defaults), and the EXTF "Buchungsstapel" file, format version 700
//! (category 21, format version 13): one header line, one column line, one booking per
//! document, tax rate and account.
//!
//! Bookings are gross: DATEV splits the tax itself on automatic accounts
//! (Automatikkonten) such as SKR03 8400 "Erlöse 19 % USt"; on any other account a
//! BU-Schlüssel tells it the rate ([`bu_key`]). `Umsatz` is always positive, the
//! direction is the Soll/Haben-Kennzeichen of `Konto` (the debtor or creditor).
//!
//! The file is written in Windows-1252 ([`to_windows_1252`]), the character set DATEV's
//! import documents for EXTF files.

use crate::error::{push_error, FieldErrors};
use crate::position_vat::TaxCategory;
use chrono::{Datelike, NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize};

/// The lowest DATEV consultant number (Beraternummer).
pub const MIN_CONSULTANT: i64 = 1001;
/// The highest DATEV consultant number (7 digits).
pub const MAX_CONSULTANT: i64 = 9_999_999;
/// The highest DATEV client number (Mandantennummer, 5 digits; the lowest is 1).
pub const MAX_CLIENT: i64 = 99_999;
/// Debtor (customer) account numbers: 10000–69999 (SKR03/SKR04 with account length 4).
pub const DEBTORS: std::ops::RangeInclusive<i64> = 10_000..=69_999;
/// Creditor (supplier) account numbers: 70000–99999.
pub const CREDITORS: std::ops::RangeInclusive<i64> = 70_000..=99_999;

/// SKR03 default expense account for purchases at 19 %: 3400 "Wareneingang 19 %
/// Vorsteuer" (an automatic account).
pub const EXPENSE_STANDARD: u32 = 3400;
/// SKR03 default expense account for purchases at 7 %: 3300 "Wareneingang 7 % Vorsteuer"
/// (an automatic account).
pub const EXPENSE_REDUCED: u32 = 3300;
/// SKR03 default expense account for purchases without VAT and at other rates: 3200
/// "Wareneingang" (no automatic tax).
pub const EXPENSE_OTHER: u32 = 3200;
/// SKR03 default for reverse-charge purchases (§ 13b UStG): 3125 "Leistungen eines im
/// Ausland ansässigen Unternehmers 19 % Vorsteuer und 19 % Umsatzsteuer" (automatic).
pub const EXPENSE_REVERSE_CHARGE: u32 = 3125;
/// SKR03 default for intra-EU acquisitions: 3425 "Innergemeinschaftlicher Erwerb 19 %
/// Vorsteuer und 19 % Umsatzsteuer" (automatic).
pub const EXPENSE_INTRA_EU: u32 = 3425;

/// The SKR03 automatic accounts Kontor books to by default: revenue 8400 (19 %), 8300
/// (7 %), 8125 (intra-EU supply), 8120 (export), 8100 (tax-free), 8337 (§ 13b), and the
/// purchase defaults 3400, 3300, 3125, 3425. A booking on one of them carries no
/// BU-Schlüssel.
pub const AUTOMATIC_ACCOUNTS: [u32; 10] =
    [8400, 8300, 8125, 8120, 8100, 8337, 3400, 3300, 3125, 3425];

/// The revenue account of each tax category (`datev.revenue_accounts`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RevenueAccounts {
    /// Standard rate (19 %): SKR03 8400 "Erlöse 19 % USt".
    pub standard: u32,
    /// Reduced rate (7 %): SKR03 8300 "Erlöse 7 % USt".
    pub reduced: u32,
    /// Intra-EU supply (§ 4 Nr. 1b UStG): SKR03 8125.
    pub intra_eu: u32,
    /// Reverse charge (§ 13b UStG, the customer owes the tax): SKR03 8337.
    pub reverse_charge: u32,
    /// Export outside the EU (§ 4 Nr. 1a UStG): SKR03 8120.
    pub export: u32,
    /// Exempt and zero-rated (§ 4 Nr. 8 ff. UStG): SKR03 8100.
    pub exempt: u32,
}

impl Default for RevenueAccounts {
    /// The SKR03 accounts.
    fn default() -> Self {
        RevenueAccounts {
            standard: 8400,
            reduced: 8300,
            intra_eu: 8125,
            reverse_charge: 8337,
            export: 8120,
            exempt: 8100,
        }
    }
}

impl RevenueAccounts {
    /// The account of `category` (zero-rated goes to `exempt`).
    pub fn of(&self, category: TaxCategory) -> u32 {
        match category {
            TaxCategory::Standard => self.standard,
            TaxCategory::Reduced => self.reduced,
            TaxCategory::IntraEu => self.intra_eu,
            TaxCategory::ReverseCharge => self.reverse_charge,
            TaxCategory::Export => self.export,
            TaxCategory::Zero | TaxCategory::Exempt => self.exempt,
        }
    }
}

/// The account's DATEV settings as `GET /account` shows them (`datev`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DatevSettings {
    /// Consultant number (Beraternummer, 1001–9999999); `null` until set — the DATEV
    /// export needs it.
    #[serde(default)]
    pub consultant_number: Option<u32>,
    /// Client number (Mandantennummer, 1–99999); `null` until set.
    #[serde(default)]
    pub client_number: Option<u32>,
    /// Month the fiscal year starts (1–12), default 1.
    #[serde(default = "january")]
    pub fiscal_year_start: u32,
    /// Length of general ledger accounts (Sachkontenlänge, 4–8), default 4.
    #[serde(default = "four")]
    pub account_length: u32,
    /// Revenue account per tax category.
    #[serde(default)]
    pub revenue_accounts: RevenueAccounts,
}

fn january() -> u32 {
    1
}

fn four() -> u32 {
    4
}

impl Default for DatevSettings {
    /// No numbers, fiscal year from January, account length 4, SKR03 revenue accounts.
    fn default() -> Self {
        DatevSettings {
            consultant_number: None,
            client_number: None,
            fiscal_year_start: 1,
            account_length: 4,
            revenue_accounts: RevenueAccounts::default(),
        }
    }
}

/// Reads a field that distinguishes absent (`None`) from `null` (`Some(None)`).
fn double_option<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<i64>>, D::Error> {
    Option::<i64>::deserialize(d).map(Some)
}

/// `datev.revenue_accounts` in `PUT /account`: only the given accounts change.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[allow(missing_docs)]
pub struct RevenueAccountsUpdate {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standard: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reduced: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intra_eu: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reverse_charge: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub export: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exempt: Option<i64>,
}

/// `datev` in `PUT /account`: a partial update. Absent fields stay; `null` removes the
/// consultant or client number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DatevUpdate {
    /// Consultant number 1001–9999999; `null` removes it.
    #[serde(
        default,
        deserialize_with = "double_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub consultant_number: Option<Option<i64>>,
    /// Client number 1–99999; `null` removes it.
    #[serde(
        default,
        deserialize_with = "double_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub client_number: Option<Option<i64>>,
    /// Month 1–12.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fiscal_year_start: Option<i64>,
    /// 4–8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account_length: Option<i64>,
    /// Revenue accounts (each with 1 to `account_length` digits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revenue_accounts: Option<RevenueAccountsUpdate>,
}

impl RevenueAccountsUpdate {
    fn fields(&self) -> [(&'static str, Option<i64>); 6] {
        [
            ("standard", self.standard),
            ("reduced", self.reduced),
            ("intra_eu", self.intra_eu),
            ("reverse_charge", self.reverse_charge),
            ("export", self.export),
            ("exempt", self.exempt),
        ]
    }
}

fn range(e: &mut FieldErrors, field: &str, value: Option<i64>, low: i64, high: i64) {
    if value.is_some_and(|v| !(low..=high).contains(&v)) {
        push_error(e, field, format!("must be between {low} and {high}"));
    }
}

/// Checks `update` against the `current` settings (field paths `datev.…`): consultant
/// number 1001–9999999, client number 1–99999, fiscal year start 1–12, account length
/// 4–8, and every revenue account (given or kept) a number with 1 to account-length
/// digits (the account length after the change).
pub fn check_update(e: &mut FieldErrors, update: &DatevUpdate, current: &DatevSettings) {
    range(
        e,
        "datev.consultant_number",
        update.consultant_number.flatten(),
        MIN_CONSULTANT,
        MAX_CONSULTANT,
    );
    range(
        e,
        "datev.client_number",
        update.client_number.flatten(),
        1,
        MAX_CLIENT,
    );
    range(
        e,
        "datev.fiscal_year_start",
        update.fiscal_year_start,
        1,
        12,
    );
    range(e, "datev.account_length", update.account_length, 4, 8);
    let length = update
        .account_length
        .filter(|l| (4..=8).contains(l))
        .unwrap_or(i64::from(current.account_length));
    let max = 10i64.pow(u32::try_from(length).unwrap_or(4)) - 1;
    let given = update.revenue_accounts.unwrap_or_default();
    let kept = current.revenue_accounts;
    let kept = [
        kept.standard,
        kept.reduced,
        kept.intra_eu,
        kept.reverse_charge,
        kept.export,
        kept.exempt,
    ];
    for ((name, value), kept) in given.fields().into_iter().zip(kept) {
        let account = value.unwrap_or(i64::from(kept));
        if !(1..=max).contains(&account) {
            push_error(
                e,
                format!("datev.revenue_accounts.{name}"),
                format!("must be an account number of 1 to {length} digits"),
            );
        }
    }
}

/// Merges a checked `update` into `settings`.
pub fn apply_update(update: &DatevUpdate, settings: &mut DatevSettings) {
    let u32_of = |v: i64| u32::try_from(v).ok();
    if let Some(number) = update.consultant_number {
        settings.consultant_number = number.and_then(u32_of);
    }
    if let Some(number) = update.client_number {
        settings.client_number = number.and_then(u32_of);
    }
    if let Some(month) = update.fiscal_year_start.and_then(u32_of) {
        settings.fiscal_year_start = month;
    }
    if let Some(length) = update.account_length.and_then(u32_of) {
        settings.account_length = length;
    }
    if let Some(accounts) = update.revenue_accounts {
        let r = &mut settings.revenue_accounts;
        for (target, value) in [
            (&mut r.standard, accounts.standard),
            (&mut r.reduced, accounts.reduced),
            (&mut r.intra_eu, accounts.intra_eu),
            (&mut r.reverse_charge, accounts.reverse_charge),
            (&mut r.export, accounts.export),
            (&mut r.exempt, accounts.exempt),
        ] {
            if let Some(v) = value.and_then(u32_of) {
                *target = v;
            }
        }
    }
}

/// The debtor account of a customer: its `debtor_number`, else 10000 + company id
/// (`docs/decisions.md` § Exports); 10000 (a collective account) when that leaves the
/// debtor range.
pub fn debtor_account(debtor_number: Option<i64>, company_id: i64) -> u32 {
    personal_account(debtor_number, company_id, DEBTORS)
}

/// The creditor account of a supplier: its `creditor_number`, else 70000 + company id;
/// 70000 when that leaves the creditor range or the purchase has no supplier (id 0).
pub fn creditor_account(creditor_number: Option<i64>, company_id: i64) -> u32 {
    personal_account(creditor_number, company_id, CREDITORS)
}

fn personal_account(
    number: Option<i64>,
    company_id: i64,
    range: std::ops::RangeInclusive<i64>,
) -> u32 {
    let first = *range.start();
    number
        .filter(|n| range.contains(n))
        .or_else(|| first.checked_add(company_id).filter(|n| range.contains(n)))
        .and_then(|n| u32::try_from(n).ok())
        .unwrap_or(first as u32)
}

/// The expense account of a purchase position: its category's `credit_account` when that
/// is a number, else the SKR03 default by VAT: reverse charge 3125, intra-EU 3425, 19 %
/// 3400, 7 % 3300, anything else 3200.
pub fn expense_account(
    credit_account: Option<&str>,
    rate: Decimal,
    reverse_charge: bool,
    intra_eu: bool,
) -> u32 {
    if let Some(account) = credit_account
        .map(str::trim)
        .filter(|a| !a.is_empty() && a.len() <= 9 && a.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|a| a.parse::<u32>().ok())
        .filter(|a| *a > 0)
    {
        return account;
    }
    if reverse_charge {
        EXPENSE_REVERSE_CHARGE
    } else if intra_eu {
        EXPENSE_INTRA_EU
    } else if rate == Decimal::from(19) {
        EXPENSE_STANDARD
    } else if rate == Decimal::from(7) {
        EXPENSE_REDUCED
    } else {
        EXPENSE_OTHER
    }
}

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
            format!(
                "must lie in the fiscal year of from ({} to {}): a DATEV batch holds one fiscal year",
                start.format("%Y-%m-%d"),
                end.format("%Y-%m-%d")
            ),
        );
    }
    e
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
    for i in 1..=8 {
        c.push(format!("Beleginfo - Art {i}"));
        c.push(format!("Beleginfo - Inhalt {i}"));
    }
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
    for i in 1..=20 {
        c.push(format!("Zusatzinformation - Art {i}"));
        c.push(format!("Zusatzinformation- Inhalt {i}"));
    }
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

#[cfg(test)]
mod tests;
