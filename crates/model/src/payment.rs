//! Invoice payments and reminders (interface.md § Invoice: Payment, Reminder).

use crate::wire::{date_option, decimal_option};
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
    /// The bank transaction it was booked from (issue 32, `GET /bank_transactions/{id}`);
    /// absent for a payment typed in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_transaction_id: Option<i64>,
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
    #[serde(default, skip_serializing_if = "Option::is_none", with = "date_option")]
    pub date: Option<NaiveDate>,
    /// Required: amount received (> 0), currency units.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "decimal_option"
    )]
    pub paid_total: Option<Decimal>,
    /// Currency; must be the invoice's when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
}
