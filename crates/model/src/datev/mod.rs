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

use crate::error::messages;
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
    /// Whether a new customer (supplier) saved without a `debit_number`
    /// (`credit_number`) is given the next free one (issue 31,
    /// [`crate::party::next_account_number`]); default `false`.
    #[serde(default)]
    pub assign_account_numbers: bool,
    /// The debtor counter's first number (integer, 10000–69999), default 10000.
    #[serde(default = "debit_start")]
    pub debit_number_start: i64,
    /// The creditor counter's first number (integer, 70000–99999), default 70000.
    #[serde(default = "credit_start")]
    pub credit_number_start: i64,
}

fn debit_start() -> i64 {
    *DEBTORS.start()
}

fn credit_start() -> i64 {
    *CREDITORS.start()
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
            assign_account_numbers: false,
            debit_number_start: debit_start(),
            credit_number_start: credit_start(),
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
    /// Whether new customers and suppliers get numbers from the counters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assign_account_numbers: Option<bool>,
    /// 10000–69999.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub debit_number_start: Option<i64>,
    /// 70000–99999.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credit_number_start: Option<i64>,
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
        push_error(
            e,
            field,
            messages::MUST_BE_BETWEEN_N_AND_N.with([low.to_string(), high.to_string()]),
        );
    }
}

/// Checks `update` against the `current` settings (field paths `datev.…`): consultant
/// number 1001–9999999, client number 1–99999, fiscal year start 1–12, account length
/// 4–8, `debit_number_start` 10000–69999 and `credit_number_start` 70000–99999 (issue 31),
/// and every revenue account (given or kept) a number with 1 to account-length
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
    for (field, value, numbers) in [
        (
            "datev.debit_number_start",
            update.debit_number_start,
            DEBTORS,
        ),
        (
            "datev.credit_number_start",
            update.credit_number_start,
            CREDITORS,
        ),
    ] {
        range(e, field, value, *numbers.start(), *numbers.end());
    }
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
                messages::MUST_BE_ACCOUNT_NUMBER_N_DIGITS.with([length]),
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
    if let Some(on) = update.assign_account_numbers {
        settings.assign_account_numbers = on;
    }
    if let Some(start) = update.debit_number_start {
        settings.debit_number_start = start;
    }
    if let Some(start) = update.credit_number_start {
        settings.credit_number_start = start;
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

/// The debtor account of a customer: its `debit_number` (issue 31), else 10000 + company id
/// (`docs/decisions.md` § Exports); 10000 (a collective account) when that leaves the
/// debtor range.
pub fn debtor_account(debtor_number: Option<i64>, company_id: i64) -> u32 {
    personal_account(debtor_number, company_id, DEBTORS)
}

/// The creditor account of a supplier: its `credit_number`, else 70000 + company id;
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

mod export;

pub use export::*;

#[cfg(test)]
mod tests;
