//! Invoice payments and reminders (interface.md § Invoice: Payment, Reminder).

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// A payment received for an invoice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Payment {
    /// Record id.
    pub id: i64,
    /// Date received.
    pub date: NaiveDate,
    /// Amount received, currency units.
    #[serde(with = "rust_decimal::serde::arbitrary_precision")]
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
    /// Reminder date.
    pub date: NaiveDate,
    /// New due date.
    pub due_date: NaiveDate,
    /// Reminder fee, currency units.
    #[serde(with = "rust_decimal::serde::arbitrary_precision")]
    pub fee: Decimal,
    /// Text (sanitized HTML).
    pub text: String,
    /// Creation date.
    pub created_on: NaiveDate,
    /// Last change date.
    pub updated_on: NaiveDate,
}
