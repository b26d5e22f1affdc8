//! Invoice payments and reminders (interface.md § Invoice: Payment, Reminder).

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// A payment received for an invoice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Payment {
    /// Record id.
    pub id: i64,
    /// The invoice paid.
    #[serde(default)]
    pub invoice_id: i64,
    /// Date received.
    pub date: NaiveDate,
    /// Amount received, currency units.
    #[serde(with = "crate::wire::decimal")]
    pub paid_total: Decimal,
    /// The cash discount (Skonto) this payment took, currency units: the invoice's agreed
    /// discount when its payments settled it within the discount days, else 0 (issue 14,
    /// `dunning::cash_discount_taken`). Set by the server, never sent by clients.
    #[serde(default, with = "crate::wire::decimal")]
    pub cash_discount: Decimal,
    /// Currency code.
    pub currency: String,
    /// Creation date.
    pub created_on: NaiveDate,
    /// Last change date.
    pub updated_on: NaiveDate,
}

/// A payment reminder (dunning letter).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Reminder {
    /// Record id.
    pub id: i64,
    /// The invoice reminded of.
    #[serde(default)]
    pub invoice_id: i64,
    /// Reminder date.
    pub date: NaiveDate,
    /// New due date.
    pub due_date: NaiveDate,
    /// Reminder fee, currency units.
    #[serde(with = "crate::wire::decimal")]
    pub fee: Decimal,
    /// Text (sanitized HTML).
    pub text: String,
    /// Dunning level (1 … the account's last, `GET /dunning_levels`; issue 14).
    #[serde(default = "first_level")]
    pub dunning_level: u8,
    /// The open amount the reminder claims, currency units (`null` for reminders made
    /// before issue 14).
    #[serde(default, with = "crate::wire::decimal_option")]
    pub open_amount: Option<Decimal>,
    /// Days from the invoice's due date to the reminder's date (at least 0).
    #[serde(default)]
    pub days_overdue: i64,
    /// Default-interest rate charged, percent per year; `null` without interest.
    #[serde(default, with = "crate::wire::decimal_option")]
    pub interest_rate: Option<Decimal>,
    /// Default interest, currency units (open amount × rate × days overdue / 365).
    #[serde(default, with = "crate::wire::decimal")]
    pub interest: Decimal,
    /// The § 288 (5) BGB flat fee (40.00 EUR at a flat-fee level for businesses), else 0.
    #[serde(default, with = "crate::wire::decimal")]
    pub flat_fee: Decimal,
    /// The day it was sent by e-mail; `null` while unsent (it may then be deleted).
    #[serde(default, with = "crate::wire::date_option")]
    pub sent_on: Option<NaiveDate>,
    /// Creation date.
    pub created_on: NaiveDate,
    /// Last change date.
    pub updated_on: NaiveDate,
}

/// POST /invoices/payments body (`decisions.md` § State rules); PUT takes the same fields.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewPayment {
    /// Required on creation: the invoice paid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invoice_id: Option<i64>,
    /// Required: date received.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::wire::date_option"
    )]
    pub date: Option<NaiveDate>,
    /// Required: amount received (> 0), currency units.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::wire::decimal_option"
    )]
    pub paid_total: Option<Decimal>,
    /// Currency; must be the invoice's when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
}

/// POST /invoice_reminders body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewReminder {
    /// Required: the invoice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invoice_id: Option<i64>,
    /// Required: reminder date.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::wire::date_option"
    )]
    pub date: Option<NaiveDate>,
    /// New due date (not before `date`); default `date` + the next level's days (14 after
    /// the last level; issue 14).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::wire::date_option"
    )]
    pub due_date: Option<NaiveDate>,
    /// Reminder fee (≥ 0), currency units; default 0.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::wire::decimal_option"
    )]
    pub fee: Option<Decimal>,
    /// Text (HTML, sanitized by the server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Dunning level; default the next after the invoice's last reminder (issue 14).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dunning_level: Option<u8>,
    /// Whether to charge default interest (§ 288 BGB); default no.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge_interest: Option<bool>,
    /// Interest rate, percent per year (0–30); default the base rate on the reminder's
    /// date + 9 points (+ 5 for a consumer).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::wire::decimal_option"
    )]
    pub interest_rate: Option<Decimal>,
}

/// The level of a reminder whose record has none (made before issue 14).
fn first_level() -> u8 {
    1
}

/// The most invoices one `POST /invoice_reminders/bulk` reminds of.
pub const MAX_BULK_REMINDERS: usize = 100;

/// `POST /invoice_reminders/bulk` body (issue 14 § API): remind each invoice at its next
/// level. `date` defaults to the server's date; the new due date, fee and interest follow
/// the levels as for a single reminder.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BulkReminders {
    /// The invoices, 1–[`MAX_BULK_REMINDERS`], each once.
    pub invoice_ids: Vec<i64>,
    /// The reminders' date; default today.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::wire::date_option"
    )]
    pub date: Option<NaiveDate>,
    /// Whether to charge default interest; default no.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge_interest: Option<bool>,
}

/// One invoice's answer in `POST /invoice_reminders/bulk`: the created reminder, or why
/// none was created (the error body a single `POST /invoice_reminders` would have had).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BulkReminderResult {
    /// The invoice.
    pub invoice_id: i64,
    /// The reminder created; `null` when refused.
    #[serde(default)]
    pub reminder: Option<Reminder>,
    /// Why it was refused; `null` when created.
    #[serde(default)]
    pub error: Option<crate::error::ErrorBody>,
}

/// `POST /invoice_reminders/bulk` answer: one result per requested invoice, in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BulkRemindersResult {
    /// Per invoice.
    pub results: Vec<BulkReminderResult>,
}
