//! Invoice payments and reminders (interface.md § Invoice: Payment, Reminder).

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// A payment received for an invoice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// Currency code.
    pub currency: String,
    /// Creation date.
    pub created_on: NaiveDate,
    /// Last change date.
    pub updated_on: NaiveDate,
}

/// A payment reminder (dunning letter).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// Creation date.
    pub created_on: NaiveDate,
    /// Last change date.
    pub updated_on: NaiveDate,
}

/// POST /invoices/payments body (`decisions.md` § State rules); PUT takes the same fields.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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
    /// Required: new due date (not before `date`).
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
}
