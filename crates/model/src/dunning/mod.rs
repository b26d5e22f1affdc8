//! Getting paid (issue 14): dunning levels, default interest (§ 288 BGB), cash discount
//! (Skonto) and the overdue status. Pure rules, one copy for the server and the app
//! (`docs/decisions.md` § Dunning (issue 14)).
//!
//! Amounts are currency units (`Decimal`, e.g. `690.00` EUR), rates are percent per year
//! (`10.27` = 10.27 %), days are whole calendar days.

use crate::arith;
use crate::error::messages;
use crate::error::{push_error, FieldErrors};
use crate::money::round_money;
use crate::status::InvoiceStatus;
use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// The highest dunning level an account may define (levels are 1..=this).
pub const MAX_LEVELS: usize = 9;
/// The longest wait a level may have, in days (after the due date or the previous level).
pub const MAX_DAYS: i64 = 365;
/// The highest fee of a level, currency units.
pub const MAX_FEE: Decimal = Decimal::from_parts(10_000, 0, 0, false, 0);
/// The highest default-interest rate a reminder may charge, percent per year.
pub const MAX_INTEREST_RATE: Decimal = Decimal::from_parts(30, 0, 0, false, 0);
/// The flat fee a business debtor owes for the creditor's costs of default, § 288 (5) BGB:
/// 40 EUR.
pub const FLAT_FEE_EUR: Decimal = Decimal::from_parts(40, 0, 0, false, 0);
/// Points above the base rate for a debtor who is a business, § 288 (2) BGB.
pub const BUSINESS_POINTS: Decimal = Decimal::from_parts(9, 0, 0, false, 0);
/// Points above the base rate for a consumer, § 288 (1) BGB.
pub const CONSUMER_POINTS: Decimal = Decimal::from_parts(5, 0, 0, false, 0);
/// The placeholders a level's text may use: `{invoice_number}`, `{invoice_date}`,
/// `{open_amount}`, `{due_date}`, `{fees}`, `{interest}`, `{new_due_date}`.
pub const PLACEHOLDERS: [&str; 7] = [
    "invoice_number",
    "invoice_date",
    "open_amount",
    "due_date",
    "fees",
    "interest",
    "new_due_date",
];

/// A level's text in one language (`GET/PUT /dunning_levels`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LevelTexts {
    /// English text with [`PLACEHOLDERS`].
    pub en: String,
    /// German text with [`PLACEHOLDERS`].
    pub de: String,
}

/// One dunning level of the account (`GET/PUT /dunning_levels`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DunningLevel {
    /// 1, 2, 3, …: the levels are numbered from 1 without gaps.
    pub level: u8,
    /// Its name per language, e.g. "Payment reminder" / "Zahlungserinnerung".
    pub name: LevelTexts,
    /// Days after the invoice's due date (level 1) or after the previous level's reminder
    /// (level ≥ 2) before this level is due; 0–[`MAX_DAYS`].
    pub days: i64,
    /// The level's fee in the invoice's currency (0–[`MAX_FEE`]).
    #[serde(with = "crate::wire::decimal")]
    pub fee: Decimal,
    /// Whether a business debtor is charged the 40 EUR flat fee of § 288 (5) BGB at this
    /// level (EUR invoices only).
    #[serde(default)]
    pub flat_fee: bool,
    /// The letter's text per language with [`PLACEHOLDERS`].
    pub text: LevelTexts,
}

/// The body of `GET`/`PUT /dunning_levels`: the account's levels in order
/// (`{"levels": [...]}`; errors of a PUT are keyed `levels[i].field`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DunningLevels {
    /// Level 1, 2, 3, … ([`validate_levels`]).
    pub levels: Vec<DunningLevel>,
}

/// The levels a new account starts with: 1 payment reminder (7 days after the due date,
/// no fee), 2 first dunning (14 days later, 5.00), 3 final dunning (14 days later, 10.00).
pub fn default_levels() -> Vec<DunningLevel> {
    let texts = |en: &str, de: &str| LevelTexts {
        en: en.into(),
        de: de.into(),
    };
    vec![
        DunningLevel {
            level: 1,
            name: texts("Payment reminder", "Zahlungserinnerung"),
            days: 7,
            fee: Decimal::ZERO,
            flat_fee: false,
            text: texts(
                "Our invoice {invoice_number} of {invoice_date} was due on {due_date}. We have not yet received {open_amount}. Perhaps it was overlooked; please transfer the amount by {new_due_date}.",
                "unsere Rechnung {invoice_number} vom {invoice_date} war am {due_date} fällig. Bei uns sind {open_amount} noch nicht eingegangen. Vielleicht ist sie Ihnen entgangen; bitte überweisen Sie den Betrag bis zum {new_due_date}.",
            ),
        },
        DunningLevel {
            level: 2,
            name: texts("First dunning", "Mahnung"),
            days: 14,
            fee: Decimal::new(500, 2),
            flat_fee: false,
            text: texts(
                "Despite our reminder, invoice {invoice_number} of {invoice_date} is still open: {open_amount}. Please pay it together with the fees of {fees} and interest of {interest} by {new_due_date}.",
                "trotz unserer Erinnerung ist die Rechnung {invoice_number} vom {invoice_date} noch offen: {open_amount}. Bitte begleichen Sie den Betrag zuzüglich Mahngebühren von {fees} und Zinsen von {interest} bis zum {new_due_date}.",
            ),
        },
        DunningLevel {
            level: 3,
            name: texts("Final dunning", "Letzte Mahnung"),
            days: 14,
            fee: Decimal::new(1000, 2),
            flat_fee: false,
            text: texts(
                "Invoice {invoice_number} of {invoice_date} remains unpaid: {open_amount}, fees {fees}, interest {interest}. If we have not received payment by {new_due_date}, we will hand the claim over without further notice.",
                "die Rechnung {invoice_number} vom {invoice_date} ist weiterhin unbezahlt: {open_amount}, Mahngebühren {fees}, Zinsen {interest}. Geht die Zahlung nicht bis zum {new_due_date} ein, geben wir die Forderung ohne weitere Ankündigung ab.",
            ),
        },
    ]
}

/// Checks the account's levels (`PUT /dunning_levels`): at least one and at most
/// [`MAX_LEVELS`], numbered 1, 2, 3, … in order, days 0–[`MAX_DAYS`], fees
/// 0–[`MAX_FEE`], names and texts not empty in both languages, only known placeholders.
/// Errors are keyed `levels[i].field` (0-based `i`).
pub fn validate_levels(levels: &[DunningLevel]) -> Result<(), FieldErrors> {
    let mut errors = FieldErrors::new();
    if levels.is_empty() {
        push_error(
            &mut errors,
            "levels",
            messages::MUST_HAVE_AT_LEAST_ONE_LEVEL,
        );
    }
    if levels.len() > MAX_LEVELS {
        push_error(
            &mut errors,
            "levels",
            messages::MUST_HAVE_AT_MOST_N_LEVELS.with([MAX_LEVELS]),
        );
    }
    for (i, level) in levels.iter().enumerate() {
        let field = |name: &str| format!("levels[{i}].{name}");
        if usize::from(level.level) != i + 1 {
            push_error(
                &mut errors,
                field("level"),
                messages::MUST_BE_LEVEL_N.with([i + 1]),
            );
        }
        if !(0..=MAX_DAYS).contains(&level.days) {
            push_error(
                &mut errors,
                field("days"),
                crate::error::messages::MUST_BE_BETWEEN_N_AND_N
                    .with(["0".to_string(), MAX_DAYS.to_string()]),
            );
        }
        if level.fee < Decimal::ZERO || level.fee > MAX_FEE {
            push_error(
                &mut errors,
                field("fee"),
                crate::error::messages::MUST_BE_BETWEEN_N_AND_N
                    .with(["0".to_string(), MAX_FEE.to_string()]),
            );
        }
        for (lang, name, text) in [
            ("en", &level.name.en, &level.text.en),
            ("de", &level.name.de, &level.text.de),
        ] {
            if name.trim().is_empty() {
                push_error(
                    &mut errors,
                    field(&format!("name.{lang}")),
                    messages::CAN_T_BE_BLANK,
                );
            }
            if text.trim().is_empty() {
                push_error(
                    &mut errors,
                    field(&format!("text.{lang}")),
                    messages::CAN_T_BE_BLANK,
                );
            } else if let Some(unknown) = unknown_placeholder(text) {
                push_error(
                    &mut errors,
                    field(&format!("text.{lang}")),
                    crate::error::messages::UNKNOWN_PLACEHOLDER_N_KNOWN_N.with([
                        format!("{{{unknown}}}"),
                        PLACEHOLDERS.map(|p| format!("{{{p}}}")).join(", "),
                    ]),
                );
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The first `{name}` in `text` that is not one of [`PLACEHOLDERS`].
fn unknown_placeholder(text: &str) -> Option<String> {
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let after = &rest[start + 1..];
        let end = after.find('}')?;
        let name = &after[..end];
        if !PLACEHOLDERS.contains(&name) {
            return Some(name.to_string());
        }
        rest = &after[end + 1..];
    }
    None
}

/// `template` with each `{name}` of [`PLACEHOLDERS`] replaced by its value in `values`
/// (placeholders without a value stay as they are).
pub fn fill_text(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// The level after `last` (0 when the invoice has no reminder yet): `last + 1`, or `None`
/// when `last` is already the account's highest level.
pub fn next_level(last: u8, levels: &[DunningLevel]) -> Option<u8> {
    let next = last.checked_add(1)?;
    levels.iter().any(|l| l.level == next).then_some(next)
}

/// The day from which `level` is due: its `days` after the invoice's `due_date` (level 1)
/// or after `previous_reminder` (the date of the last reminder, level ≥ 2; the due date
/// when there is none). `None` for a level the account does not have or a date out of
/// range.
pub fn level_due_on(
    level: u8,
    levels: &[DunningLevel],
    due_date: NaiveDate,
    previous_reminder: Option<NaiveDate>,
) -> Option<NaiveDate> {
    let def = levels.iter().find(|l| l.level == level)?;
    let from = if level <= 1 {
        due_date
    } else {
        previous_reminder.unwrap_or(due_date)
    };
    from.checked_add_signed(chrono::Duration::days(def.days))
}

/// The status the API shows (issue 14 § Overdue): a `created` or `sent` invoice that is not
/// reversed, whose `due_date` lies before `today` and whose open amount (currency units)
/// is above zero is `overdue`; every other status stays as stored. A payment that clears
/// the invoice has already moved it to `paid`.
pub fn effective_status(
    status: InvoiceStatus,
    reversed: bool,
    due_date: NaiveDate,
    today: NaiveDate,
    open_amount: Decimal,
) -> InvoiceStatus {
    if status.awaits_payment() && !reversed && due_date < today && open_amount > Decimal::ZERO {
        InvoiceStatus::Overdue
    } else {
        status
    }
}

/// Whether an invoice stored with `stored` status can be shown as `shown` by
/// [`effective_status`] (for some due date, payments and day): the stored status itself,
/// and for `overdue` also every status that awaits payment. A list filtered by the shown
/// status first narrows to these stored statuses, which an index of the stored status
/// serves (issue 35), then applies [`effective_status`] exactly.
pub fn may_show_as(stored: InvoiceStatus, shown: InvoiceStatus) -> bool {
    stored == shown || (shown == InvoiceStatus::Overdue && stored.awaits_payment())
}

mod claim;
mod interest;
mod payment;
mod reminder;

pub use claim::*;
pub use interest::*;
pub use payment::*;
pub use reminder::*;

#[cfg(test)]
mod tests;
