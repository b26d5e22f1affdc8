//! Getting paid (issue 14): dunning levels, default interest (§ 288 BGB), cash discount
//! (Skonto) and the overdue status. Pure rules, one copy for the server and the app
//! (`docs/decisions.md` § Dunning (issue 14)).
//!
//! Amounts are currency units (`Decimal`, e.g. `690.00` EUR), rates are percent per year
//! (`10.27` = 10.27 %), days are whole calendar days.

use crate::arith;
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
        push_error(&mut errors, "levels", "must have at least one level");
    }
    if levels.len() > MAX_LEVELS {
        push_error(
            &mut errors,
            "levels",
            format!("must have at most {MAX_LEVELS} levels"),
        );
    }
    for (i, level) in levels.iter().enumerate() {
        let field = |name: &str| format!("levels[{i}].{name}");
        if usize::from(level.level) != i + 1 {
            push_error(
                &mut errors,
                field("level"),
                format!(
                    "must be {} (levels are numbered 1, 2, 3, … in order)",
                    i + 1
                ),
            );
        }
        if !(0..=MAX_DAYS).contains(&level.days) {
            push_error(
                &mut errors,
                field("days"),
                format!("must be between 0 and {MAX_DAYS}"),
            );
        }
        if level.fee < Decimal::ZERO || level.fee > MAX_FEE {
            push_error(
                &mut errors,
                field("fee"),
                format!("must be between 0 and {MAX_FEE}"),
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
                    "can't be blank",
                );
            }
            if text.trim().is_empty() {
                push_error(
                    &mut errors,
                    field(&format!("text.{lang}")),
                    "can't be blank",
                );
            } else if let Some(unknown) = unknown_placeholder(text) {
                push_error(
                    &mut errors,
                    field(&format!("text.{lang}")),
                    format!(
                        "has an unknown placeholder {{{unknown}}} (known: {})",
                        PLACEHOLDERS.map(|p| format!("{{{p}}}")).join(", ")
                    ),
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

/// The cash discount (Skonto) on `gross` at `percent` (0–100), in currency units rounded
/// to `currency`'s minor unit: `gross × percent / 100`. `None` on overflow.
pub fn cash_discount_amount(gross: Decimal, percent: Decimal, currency: &str) -> Option<Decimal> {
    let raw = gross
        .checked_mul(percent)?
        .checked_div(Decimal::ONE_HUNDRED)?;
    Some(round_money(raw, currency))
}

/// Whether a payment of `amount` received on `paid_on` settles an invoice of `gross` dated
/// `invoice_date` with a cash discount of `percent` for `days` days (issue 14 § Cash
/// discount): received within the days (`paid_on ≤ invoice_date + days`) and equal to the
/// gross minus the discount. A discount of 0 % or 0 days settles nothing early.
pub fn settles_with_cash_discount(
    gross: Decimal,
    percent: Decimal,
    days: i64,
    invoice_date: NaiveDate,
    paid_on: NaiveDate,
    amount: Decimal,
    currency: &str,
) -> bool {
    if percent <= Decimal::ZERO || days <= 0 {
        return false;
    }
    let Some(last_day) = invoice_date.checked_add_signed(chrono::Duration::days(days)) else {
        return false;
    };
    let Some(discount) = cash_discount_amount(gross, percent, currency) else {
        return false;
    };
    paid_on <= last_day && arith::sub(gross, discount) == Some(round_money(amount, currency))
}

/// The cash discount an invoice's payments took (issue 14 § Cash discount), in currency
/// units: the discount ([`cash_discount_amount`]) when the payments (date received,
/// amount in currency units) together equal the gross minus the discount and the last of
/// them arrived within `days` of `invoice_date` ([`settles_with_cash_discount`]); `None`
/// otherwise (no payments, too late, another amount, no discount agreed, overflow). The
/// server records it on the last payment, and the open amount is then zero.
pub fn cash_discount_taken(
    gross: Decimal,
    percent: Decimal,
    days: i64,
    invoice_date: NaiveDate,
    payments: &[(NaiveDate, Decimal)],
    currency: &str,
) -> Option<Decimal> {
    let last = payments.iter().map(|(date, _)| *date).max()?;
    let sum = payments
        .iter()
        .try_fold(Decimal::ZERO, |sum, (_, amount)| arith::add(sum, *amount))?;
    settles_with_cash_discount(gross, percent, days, invoice_date, last, sum, currency)
        .then(|| cash_discount_amount(gross, percent, currency))
        .flatten()
}

/// What a reminder asks the customer to pay (issue 14 § API, the letter's "amount due"),
/// currency units: its open amount plus its fee, the § 288 (5) flat fee and the default
/// interest. `None` on overflow.
pub fn amount_due(
    open_amount: Decimal,
    fee: Decimal,
    flat_fee: Decimal,
    interest: Decimal,
) -> Option<Decimal> {
    [fee, flat_fee, interest]
        .into_iter()
        .try_fold(open_amount, arith::add)
}

/// One row of the table of base rates (Basiszinssatz, § 247 BGB) kept in the account's
/// settings: the rate in percent that applies from `from` until the next row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BaseRate {
    /// First day the rate applies (`YYYY-MM-DD`; the Bundesbank sets it each 1 January
    /// and 1 July).
    pub from: NaiveDate,
    /// The base rate, percent per year (may be negative, e.g. `-0.88`).
    #[serde(with = "crate::wire::decimal")]
    pub rate: Decimal,
}

/// The base rates published by the Deutsche Bundesbank since 2020 (the table a new account
/// starts with; later rates are added in the settings).
pub fn published_base_rates() -> Vec<BaseRate> {
    let row = |y: i32, m: u32, rate: i64| BaseRate {
        from: NaiveDate::from_ymd_opt(y, m, 1).expect("a real date"),
        rate: Decimal::new(rate, 2),
    };
    vec![
        row(2020, 1, -88),
        row(2020, 7, -88),
        row(2021, 1, -88),
        row(2021, 7, -88),
        row(2022, 1, -88),
        row(2022, 7, -88),
        row(2023, 1, 162),
        row(2023, 7, 312),
        row(2024, 1, 362),
        row(2024, 7, 337),
        row(2025, 1, 227),
        row(2025, 7, 127),
        row(2026, 1, 127),
    ]
}

/// The base rate on `date` from `table` (the row with the latest `from` not after `date`);
/// `None` when the table starts after `date`.
pub fn base_rate_on(table: &[BaseRate], date: NaiveDate) -> Option<Decimal> {
    table
        .iter()
        .filter(|r| r.from <= date)
        .max_by_key(|r| r.from)
        .map(|r| r.rate)
}

/// The default-interest rate (§ 288 BGB) in percent per year: the base rate plus 9 points
/// for a business debtor, plus 5 points for a consumer; never below 0.
pub fn default_interest_rate(base_rate: Decimal, consumer: bool) -> Decimal {
    let points = if consumer {
        CONSUMER_POINTS
    } else {
        BUSINESS_POINTS
    };
    (base_rate + points).max(Decimal::ZERO)
}

/// Checks a reminder's `interest_rate` (percent per year): 0–[`MAX_INTEREST_RATE`].
pub fn check_interest_rate(rate: Decimal) -> Result<(), String> {
    if rate < Decimal::ZERO || rate > MAX_INTEREST_RATE {
        Err(format!("must be between 0 and {MAX_INTEREST_RATE}"))
    } else {
        Ok(())
    }
}

/// Default interest on `open_amount` (currency units) at `rate` percent per year for
/// `days` days in default (issue 14): `open_amount × rate / 100 × days / 365`, rounded half
/// away from zero to `currency`'s minor unit. 0 for no days or no open amount; `None` on
/// overflow. Worked example: 690.00 × 10.27 % × 45 / 365 = 8.74.
pub fn default_interest(
    open_amount: Decimal,
    rate: Decimal,
    days: i64,
    currency: &str,
) -> Option<Decimal> {
    if days <= 0 || open_amount <= Decimal::ZERO || rate <= Decimal::ZERO {
        return Some(round_money(Decimal::ZERO, currency));
    }
    let raw = open_amount
        .checked_mul(rate)?
        .checked_mul(Decimal::from(days))?
        .checked_div(Decimal::from(36_500))?;
    Some(round_money(raw, currency))
}

/// The lowest and highest base rate the settings accept, percent per year (the
/// Bundesbank's has stayed between −0.88 and 6.17 since 1999).
pub const BASE_RATE_RANGE: (Decimal, Decimal) = (
    Decimal::from_parts(10, 0, 0, true, 0),
    Decimal::from_parts(20, 0, 0, false, 0),
);

/// The body of `GET`/`PUT /base_rates`: the account's table of base rates
/// (`{"base_rates": [...]}`, errors keyed `base_rates[i].field`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BaseRates {
    /// Rows by `from` ascending ([`validate_base_rates`]).
    pub base_rates: Vec<BaseRate>,
}

/// Checks a table of base rates (`PUT /base_rates`): at least one row, at most 200, each
/// `from` later than the row before (ascending, no repeats), rates within
/// [`BASE_RATE_RANGE`] with at most two decimal places. Errors are keyed
/// `base_rates[i].from` / `base_rates[i].rate` (0-based `i`), or `base_rates`.
pub fn validate_base_rates(rows: &[BaseRate]) -> Result<(), FieldErrors> {
    let mut errors = FieldErrors::new();
    if rows.is_empty() {
        push_error(&mut errors, "base_rates", "must have at least one row");
    }
    if rows.len() > 200 {
        push_error(&mut errors, "base_rates", "must have at most 200 rows");
    }
    let (low, high) = BASE_RATE_RANGE;
    for (i, row) in rows.iter().enumerate() {
        if i > 0 && row.from <= rows[i - 1].from {
            push_error(
                &mut errors,
                format!("base_rates[{i}].from"),
                "must be later than the row before (rows in date order, each date once)",
            );
        }
        if row.rate < low
            || row.rate > high
            || row.rate.scale() > 2 && row.rate.normalize().scale() > 2
        {
            push_error(
                &mut errors,
                format!("base_rates[{i}].rate"),
                format!("must be between {low} and {high} percent with at most two decimal places"),
            );
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// `GET /invoices/overdue` filters (issue 14 § API), besides paging.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct OverdueFilter {
    /// The customer (alias `customer_id`).
    #[serde(
        alias = "customer_id",
        deserialize_with = "crate::query::one",
        skip_serializing_if = "Option::is_none"
    )]
    pub company_id: Option<i64>,
    /// Invoices whose next dunning level is this one (1 for never reminded); past the last
    /// level an invoice matches no level.
    #[serde(
        deserialize_with = "crate::query::one",
        skip_serializing_if = "Option::is_none"
    )]
    pub level: Option<u32>,
}

/// One invoice of `GET /invoices/overdue`: open, past its due date, and what dunning it
/// has had. Amounts in the invoice's currency (units), days whole calendar days.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OverdueInvoice {
    /// Invoice id.
    pub id: i64,
    /// Invoice number.
    pub identifier: Option<String>,
    /// The customer (id and name).
    pub customer: crate::party::IdName,
    /// Invoice title.
    pub title: String,
    /// Invoice date.
    pub date: NaiveDate,
    /// Due date.
    pub due_date: NaiveDate,
    /// ISO 4217 code.
    pub currency: String,
    /// Gross total.
    #[serde(with = "crate::wire::decimal")]
    pub gross_total: Decimal,
    /// What is still open (gross − payments).
    #[serde(with = "crate::wire::decimal")]
    pub open_amount: Decimal,
    /// Days since the due date (today − due date).
    pub days_overdue: i64,
    /// The highest level reminded so far; 0 for none.
    pub last_dunning_level: u8,
    /// The date of the last reminder, if any.
    #[serde(default, with = "crate::wire::date_option")]
    pub last_reminder_on: Option<NaiveDate>,
    /// The next level ([`next_level`]); `null` after the account's last level.
    pub next_dunning_level: Option<u8>,
    /// When the next level is due ([`level_due_on`]); `null` without a next level.
    #[serde(default, with = "crate::wire::date_option")]
    pub next_dunning_on: Option<NaiveDate>,
}

/// What a reminder asks for ([`reminder_claim`]); the request's optional fields and the
/// invoice's state. Amounts in currency units, rates in percent per year.
#[derive(Clone, Debug)]
pub struct ClaimRequest<'a> {
    /// The account's levels.
    pub levels: &'a [DunningLevel],
    /// The account's base rates.
    pub base_rates: &'a [BaseRate],
    /// The highest level of the invoice's earlier reminders (0 for none).
    pub last_level: u8,
    /// `dunning_level` of the request; default the next level after `last_level`.
    pub dunning_level: Option<u8>,
    /// `fee` of the request; default the level's fee.
    pub fee: Option<Decimal>,
    /// `charge_interest` of the request.
    pub charge_interest: bool,
    /// `interest_rate` of the request; default from the base rate on `date`.
    pub interest_rate: Option<Decimal>,
    /// The reminder's date.
    pub date: NaiveDate,
    /// `due_date` of the request (the new due date); default `date` + the next level's
    /// days (14 after the last level).
    pub due_date: Option<NaiveDate>,
    /// The invoice's due date.
    pub invoice_due_date: NaiveDate,
    /// The invoice's open amount on `date`.
    pub open_amount: Decimal,
    /// The invoice's currency (ISO 4217).
    pub currency: &'a str,
    /// Whether the customer is a consumer (§ 288 (1): base rate + 5 points, no flat fee).
    pub consumer: bool,
}

/// What a reminder records and claims (issue 14 § API).
#[derive(Clone, Debug, PartialEq)]
pub struct ReminderClaim {
    /// The level (1 … the account's last).
    pub dunning_level: u8,
    /// The reminder fee, currency units.
    pub fee: Decimal,
    /// The § 288 (5) flat fee: 40.00 for a business debtor of an EUR invoice at a level
    /// with `flat_fee`, else 0.
    pub flat_fee: Decimal,
    /// Days from the invoice's due date to the reminder's date, at least 0.
    pub days_overdue: i64,
    /// The default-interest rate charged (percent per year); `None` without interest.
    pub interest_rate: Option<Decimal>,
    /// The default interest, currency units ([`default_interest`]).
    pub interest: Decimal,
    /// The new due date.
    pub due_date: NaiveDate,
}

/// The claim of a new reminder: its level, fees, days overdue, interest and new due date
/// from the request's choices and the account's levels and base rates. Errors (keyed by
/// the request's field): `dunning_level` not one of the account's levels, or none left
/// after the invoice's last; `interest_rate` outside 0–[`MAX_INTEREST_RATE`], or no base
/// rate for the date; `invoice_id` when nothing is open or the invoice is not overdue on
/// the reminder's date (due on or after it); `interest` on overflow.
pub fn reminder_claim(req: &ClaimRequest<'_>) -> Result<ReminderClaim, FieldErrors> {
    let mut errors = FieldErrors::new();
    let level = match req.dunning_level {
        Some(n) => match req.levels.iter().find(|l| l.level == n) {
            Some(l) => Some(l),
            None => {
                push_error(
                    &mut errors,
                    "dunning_level",
                    format!("must be one of the account's levels 1–{}", req.levels.len()),
                );
                None
            }
        },
        None => match next_level(req.last_level, req.levels) {
            Some(n) => req.levels.iter().find(|l| l.level == n),
            None => {
                push_error(
                    &mut errors,
                    "dunning_level",
                    format!(
                        "the invoice has had the last level ({}) already; give a level to repeat one",
                        req.last_level
                    ),
                );
                None
            }
        },
    };
    if req.open_amount <= Decimal::ZERO {
        push_error(&mut errors, "invoice_id", "has nothing open to remind of");
    } else if req.invoice_due_date >= req.date {
        // Overdue from the day after the due date (issue 14 § Bad input).
        push_error(
            &mut errors,
            "invoice_id",
            format!(
                "is not overdue on the reminder's date: it is due on {}",
                req.invoice_due_date
            ),
        );
    }
    let days_overdue = (req.date - req.invoice_due_date).num_days().max(0);
    let interest_rate = if req.charge_interest {
        let rate = match req.interest_rate {
            Some(rate) => Some(rate),
            None => match base_rate_on(req.base_rates, req.date) {
                Some(base) => Some(default_interest_rate(base, req.consumer)),
                None => {
                    push_error(
                        &mut errors,
                        "interest_rate",
                        format!(
                            "is required: the base-rate table has no rate for {}",
                            req.date
                        ),
                    );
                    None
                }
            },
        };
        if let Some(rate) = rate {
            if let Err(message) = check_interest_rate(rate) {
                push_error(&mut errors, "interest_rate", message);
            }
        }
        rate
    } else {
        None
    };
    let interest = match interest_rate {
        Some(rate) => default_interest(req.open_amount, rate, days_overdue, req.currency),
        None => Some(round_money(Decimal::ZERO, req.currency)),
    };
    if interest.is_none() {
        push_error(&mut errors, "interest", "is too large to compute");
    }
    let (Some(level), Some(interest), true) = (level, interest, errors.is_empty()) else {
        return Err(errors);
    };
    let flat_fee = if level.flat_fee && !req.consumer && req.currency == "EUR" {
        FLAT_FEE_EUR
    } else {
        Decimal::ZERO
    };
    let wait = req
        .levels
        .iter()
        .find(|l| l.level == level.level.saturating_add(1))
        .map_or(14, |next| next.days);
    let due_date = req.due_date.unwrap_or_else(|| {
        req.date
            .checked_add_signed(chrono::Duration::days(wait))
            .unwrap_or(req.date)
    });
    Ok(ReminderClaim {
        dunning_level: level.level,
        // A fee of the request stays as given (its places are checked by
        // `validate_reminder`); the level's is written at the currency's places.
        fee: req
            .fee
            .unwrap_or_else(|| round_money(level.fee, req.currency)),
        flat_fee: round_money(flat_fee, req.currency),
        days_overdue,
        interest_rate,
        interest,
        due_date,
    })
}

#[cfg(test)]
mod tests;
