//! The overdue list (GET /invoices/overdue) and the claim a reminder makes: level, fee,
//! interest and amount due, checked against the account's levels.

use super::*;
use crate::error::messages;

/// `GET /invoices/overdue` filters (issue 14 § API), besides paging. Its OpenAPI
/// parameters (feature `openapi`) are its own keys; a route names
/// `query::ListParams` and `query::CustomerIdAlias` too.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
#[serde(default)]
pub struct OverdueFilter {
    /// Customer company id (`customer_id` is another name).
    #[serde(
        alias = "customer_id",
        deserialize_with = "crate::query::one",
        skip_serializing_if = "Option::is_none"
    )]
    pub company_id: Option<i64>,
    /// Only invoices whose next dunning level is this one (1: never reminded).
    // Past the last level an invoice matches no level.
    #[serde(
        deserialize_with = "crate::query::one",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "openapi", param(minimum = 1, maximum = 4294967295_u32))]
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
                    messages::MUST_BE_ACCOUNT_LEVEL_N.with([req.levels.len()]),
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
                    messages::LAST_LEVEL_REACHED_N.with([req.last_level]),
                );
                None
            }
        },
    };
    if req.open_amount <= Decimal::ZERO {
        push_error(
            &mut errors,
            "invoice_id",
            messages::HAS_NOTHING_OPEN_TO_REMIND_OF,
        );
    } else if req.invoice_due_date >= req.date {
        // Overdue from the day after the due date (issue 14 § Bad input).
        push_error(
            &mut errors,
            "invoice_id",
            messages::NOT_OVERDUE_DUE_ON_N.with([req.invoice_due_date]),
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
                        messages::NO_BASE_RATE_FOR_N.with([req.date]),
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
        push_error(&mut errors, "interest", messages::IS_TOO_LARGE_TO_COMPUTE);
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
