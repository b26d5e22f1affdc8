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
pub struct LevelTexts {
    /// English text with [`PLACEHOLDERS`].
    pub en: String,
    /// German text with [`PLACEHOLDERS`].
    pub de: String,
}

/// One dunning level of the account (`GET/PUT /dunning_levels`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    let waiting = matches!(status, InvoiceStatus::Created | InvoiceStatus::Sent);
    if waiting && !reversed && due_date < today && open_amount > Decimal::ZERO {
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

/// One row of the table of base rates (Basiszinssatz, § 247 BGB) kept in the account's
/// settings: the rate in percent that applies from `from` until the next row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    fn date(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    #[test]
    fn the_worked_example_of_the_issue() {
        // 1,190.00 € invoice, 500.00 € paid, 45 days overdue, base rate 1.27 %.
        let open = crate::payment_rules::open_amount(d("1190.00"), &[d("500.00")], "EUR");
        assert_eq!(open, d("690.00"));
        let base = base_rate_on(&published_base_rates(), date("2026-11-24")).unwrap();
        assert_eq!(base, d("1.27"));
        let rate = default_interest_rate(base, false);
        assert_eq!(rate, d("10.27"));
        let interest = default_interest(open, rate, 45, "EUR").unwrap();
        assert_eq!(interest.to_string(), "8.74");
    }

    #[test]
    fn interest_rounds_half_away_from_zero_and_is_zero_without_days() {
        // 100.00 × 3.65 % × 1 / 365 = 0.01 exactly; 50.00 × 3.65 % × 1 / 365 = 0.005 → 0.01.
        assert_eq!(
            default_interest(d("100.00"), d("3.65"), 1, "EUR"),
            Some(d("0.01"))
        );
        assert_eq!(
            default_interest(d("50.00"), d("3.65"), 1, "EUR"),
            Some(d("0.01"))
        );
        assert_eq!(
            default_interest(d("690.00"), d("10.27"), 0, "EUR"),
            Some(d("0.00"))
        );
        assert_eq!(
            default_interest(d("0"), d("10.27"), 45, "EUR"),
            Some(d("0.00"))
        );
        assert_eq!(
            default_interest(d("690"), d("10.27"), 45, "JPY"),
            Some(d("9"))
        );
        assert_eq!(default_interest(Decimal::MAX, d("30"), 365, "EUR"), None);
    }

    #[test]
    fn consumers_pay_five_points_and_a_negative_base_rate_counts() {
        assert_eq!(default_interest_rate(d("1.27"), true), d("6.27"));
        let base_2021 = base_rate_on(&published_base_rates(), date("2021-03-01")).unwrap();
        assert_eq!(base_2021, d("-0.88"));
        assert_eq!(default_interest_rate(base_2021, false), d("8.12"));
        assert_eq!(default_interest_rate(d("-6"), true), d("0"));
        assert_eq!(
            base_rate_on(&published_base_rates(), date("2019-12-31")),
            None
        );
        // The rate changes on 1 July.
        let table = published_base_rates();
        assert_eq!(base_rate_on(&table, date("2024-06-30")), Some(d("3.62")));
        assert_eq!(base_rate_on(&table, date("2024-07-01")), Some(d("3.37")));
    }

    #[test]
    fn interest_rates_outside_0_to_30_percent_are_refused() {
        assert!(check_interest_rate(d("0")).is_ok());
        assert!(check_interest_rate(d("30")).is_ok());
        assert!(check_interest_rate(d("-0.01")).is_err());
        assert!(check_interest_rate(d("30.01")).is_err());
    }

    #[test]
    fn overdue_from_the_day_after_the_due_date_while_something_is_open() {
        let due = date("2026-11-16");
        let sent = InvoiceStatus::Sent;
        assert_eq!(
            effective_status(sent, false, due, date("2026-11-16"), d("1")),
            sent
        );
        assert_eq!(
            effective_status(sent, false, due, date("2026-11-17"), d("1")),
            InvoiceStatus::Overdue
        );
        assert_eq!(
            effective_status(
                InvoiceStatus::Created,
                false,
                due,
                date("2026-12-01"),
                d("1")
            ),
            InvoiceStatus::Overdue
        );
        // Nothing open, reversed, paid, partially paid or a draft: as stored.
        assert_eq!(
            effective_status(sent, false, due, date("2026-12-01"), d("0")),
            sent
        );
        assert_eq!(
            effective_status(sent, true, due, date("2026-12-01"), d("1")),
            sent
        );
        for status in [
            InvoiceStatus::Paid,
            InvoiceStatus::PartiallyPaid,
            InvoiceStatus::Draft,
        ] {
            assert_eq!(
                effective_status(status, false, due, date("2026-12-01"), d("1")),
                status
            );
        }
    }

    #[test]
    fn a_payment_within_the_cash_discount_days_of_gross_minus_discount_settles() {
        let (gross, pct, days) = (d("1190.00"), d("2"), 10);
        let dated = date("2026-11-02");
        assert_eq!(cash_discount_amount(gross, pct, "EUR"), Some(d("23.80")));
        let pay = d("1166.20");
        assert!(settles_with_cash_discount(
            gross,
            pct,
            days,
            dated,
            date("2026-11-12"),
            pay,
            "EUR"
        ));
        // A day late, or the wrong amount, or no discount agreed: no.
        assert!(!settles_with_cash_discount(
            gross,
            pct,
            days,
            dated,
            date("2026-11-13"),
            pay,
            "EUR"
        ));
        assert!(!settles_with_cash_discount(
            gross,
            pct,
            days,
            dated,
            dated,
            d("1166.19"),
            "EUR"
        ));
        assert!(!settles_with_cash_discount(
            gross,
            d("0"),
            days,
            dated,
            dated,
            gross,
            "EUR"
        ));
        assert!(!settles_with_cash_discount(
            gross, pct, 0, dated, dated, pay, "EUR"
        ));
    }

    #[test]
    fn levels_follow_each_other_from_the_due_date() {
        let levels = default_levels();
        assert!(validate_levels(&levels).is_ok());
        assert_eq!(next_level(0, &levels), Some(1));
        assert_eq!(next_level(2, &levels), Some(3));
        assert_eq!(next_level(3, &levels), None);
        let due = date("2026-11-16");
        assert_eq!(
            level_due_on(1, &levels, due, None),
            Some(date("2026-11-23"))
        );
        assert_eq!(
            level_due_on(2, &levels, due, Some(date("2026-11-24"))),
            Some(date("2026-12-08"))
        );
        assert_eq!(level_due_on(4, &levels, due, None), None);
        // Only level 2 and above carry a fee by default.
        assert_eq!(levels[0].fee, Decimal::ZERO);
        assert!(levels[1..].iter().all(|l| l.fee > Decimal::ZERO));
    }

    #[test]
    fn bad_levels_are_refused_with_the_field_named() {
        let mut levels = default_levels();
        levels[1].level = 5;
        levels[2].fee = d("-1");
        levels[0].days = 400;
        levels[0].text.de = "Bitte zahlen Sie {betrag}".into();
        levels[2].name.en = " ".into();
        let errors = validate_levels(&levels).unwrap_err();
        for field in [
            "levels[1].level",
            "levels[2].fee",
            "levels[0].days",
            "levels[0].text.de",
            "levels[2].name.en",
        ] {
            assert!(errors.contains_key(field), "{field}: {errors:?}");
        }
        assert!(errors["levels[0].text.de"][0].contains("{betrag}"));
        assert!(validate_levels(&[]).unwrap_err().contains_key("levels"));
    }

    #[test]
    fn texts_are_filled_with_the_invoice_s_figures() {
        let text = &default_levels()[1].text.en;
        let filled = fill_text(
            text,
            &[
                ("invoice_number", "R2611-001"),
                ("invoice_date", "2 Nov 2026"),
                ("open_amount", "690.00 EUR"),
                ("fees", "5.00 EUR"),
                ("interest", "8.74 EUR"),
                ("new_due_date", "8 Dec 2026"),
            ],
        );
        assert!(filled.contains("R2611-001 of 2 Nov 2026 is still open: 690.00 EUR"));
        assert!(filled.contains("5.00 EUR") && filled.contains("8.74 EUR"));
        assert!(!filled.contains('{'));
    }
}
