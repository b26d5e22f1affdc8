//! Default interest (§ 288 BGB): the published base rates and the default rate for
//! businesses (9 points) and consumers (5 points) above them.

use super::*;
use crate::error::messages;

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
pub fn check_interest_rate(rate: Decimal) -> Result<(), crate::error::Message> {
    if rate < Decimal::ZERO || rate > MAX_INTEREST_RATE {
        Err(crate::error::messages::MUST_BE_BETWEEN_N_AND_N
            .with([Decimal::ZERO, MAX_INTEREST_RATE]))
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
        push_error(
            &mut errors,
            "base_rates",
            messages::MUST_HAVE_AT_LEAST_ONE_ROW,
        );
    }
    if rows.len() > 200 {
        push_error(
            &mut errors,
            "base_rates",
            messages::MUST_HAVE_AT_MOST_200_ROWS,
        );
    }
    let (low, high) = BASE_RATE_RANGE;
    for (i, row) in rows.iter().enumerate() {
        if i > 0 && row.from <= rows[i - 1].from {
            push_error(
                &mut errors,
                format!("base_rates[{i}].from"),
                messages::MUST_BE_LATER_THAN_ROW_BEFORE,
            );
        }
        if row.rate < low
            || row.rate > high
            || row.rate.scale() > 2 && row.rate.normalize().scale() > 2
        {
            push_error(
                &mut errors,
                format!("base_rates[{i}].rate"),
                messages::MUST_BE_PERCENT_BETWEEN_N_AND_N.with([low.to_string(), high.to_string()]),
            );
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}
