//! Reminders (dunning letters) of invoices: the wire types of `/invoice_reminders`
//! (interface.md § Invoice: Reminder; issue 14 § API for the bulk run) and which invoices
//! may be reminded of, with the checks of a reminder's dates and fee (`decisions.md`
//! § State rules). The levels, fees and interest are the rest of [`crate::dunning`].

use crate::error::messages;
use crate::error::{push_error, FieldErrors};
use crate::payment_rules::check_amount;
use crate::status::InvoiceStatus;
use crate::wire::{date_option, decimal_option};
use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

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
    #[serde(default, with = "decimal_option")]
    pub open_amount: Option<Decimal>,
    /// Days from the invoice's due date to the reminder's date (at least 0).
    #[serde(default)]
    pub days_overdue: i64,
    /// Default-interest rate charged, percent per year; `null` without interest.
    #[serde(default, with = "decimal_option")]
    pub interest_rate: Option<Decimal>,
    /// Default interest, currency units (open amount × rate × days overdue / 365).
    #[serde(default, with = "crate::wire::decimal")]
    pub interest: Decimal,
    /// The § 288 (5) BGB flat fee (40.00 EUR at a flat-fee level for businesses), else 0.
    #[serde(default, with = "crate::wire::decimal")]
    pub flat_fee: Decimal,
    /// The day it was sent by e-mail; `null` while unsent (it may then be deleted).
    #[serde(default, with = "date_option")]
    pub sent_on: Option<NaiveDate>,
    /// Creation date.
    pub created_on: NaiveDate,
    /// Last change date.
    pub updated_on: NaiveDate,
}

/// POST /invoice_reminders body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewReminder {
    /// Required: the invoice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invoice_id: Option<i64>,
    /// Required: reminder date.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "date_option")]
    pub date: Option<NaiveDate>,
    /// New due date (not before `date`); default `date` + the next level's days (14 after
    /// the last level; issue 14).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "date_option")]
    pub due_date: Option<NaiveDate>,
    /// Reminder fee (≥ 0), currency units; default 0.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "decimal_option"
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
        with = "decimal_option"
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
    #[serde(default, skip_serializing_if = "Option::is_none", with = "date_option")]
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
    pub reminder: Option<Reminder>,
    /// Why it was refused; `null` when created.
    pub error: Option<crate::error::ErrorBody>,
}

/// `POST /invoice_reminders/bulk` answer: one result per requested invoice, in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BulkRemindersResult {
    /// Per invoice.
    pub results: Vec<BulkReminderResult>,
}

/// Why an invoice may get no reminder (the message for the field `invoice_id`), or `None`
/// when it may: only final invoices that are not paid, not reversed and not themselves a
/// reversal are reminded of.
pub fn reminder_refusal(
    status: InvoiceStatus,
    reversed: bool,
    reversal: bool,
) -> Option<crate::error::Text> {
    use crate::error::messages;
    if status == InvoiceStatus::Draft {
        Some(messages::IS_DRAFT_NO_REMINDERS)
    } else if reversal {
        Some(messages::IS_REVERSAL_NO_REMINDERS)
    } else if reversed {
        Some(messages::IS_REVERSED_NO_REMINDERS)
    } else if status == InvoiceStatus::Paid {
        Some(messages::IS_PAID_NO_REMINDERS)
    } else {
        None
    }
}

/// Whether a reminder may be created (see [`reminder_refusal`]).
pub fn can_remind(status: InvoiceStatus, reversed: bool, reversal: bool) -> bool {
    reminder_refusal(status, reversed, reversal).is_none()
}

/// Validates a reminder: `date` and `due_date` required, `due_date` not before `date`;
/// `fee` (currency units, absent = 0) ≥ 0 with at most `currency`'s places.
/// Returns the field errors (`date`, `due_date`, `fee`), empty when valid.
pub fn validate_reminder(
    date: Option<NaiveDate>,
    due_date: Option<NaiveDate>,
    fee: Option<Decimal>,
    currency: &str,
) -> FieldErrors {
    let mut errors = FieldErrors::new();
    if date.is_none() {
        push_error(&mut errors, "date", messages::IS_REQUIRED);
    }
    match (date, due_date) {
        (_, None) => push_error(&mut errors, "due_date", messages::IS_REQUIRED),
        (Some(d), Some(due)) if due < d => push_error(
            &mut errors,
            "due_date",
            messages::MUST_NOT_BE_BEFORE_REMINDER_DATE,
        ),
        _ => {}
    }
    check_amount(
        &mut errors,
        "fee",
        Some(fee.unwrap_or_default()),
        currency,
        false,
    );
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use InvoiceStatus::*;

    fn d(text: &str) -> Decimal {
        text.parse().unwrap()
    }

    fn day(text: &str) -> Option<NaiveDate> {
        Some(text.parse().unwrap())
    }

    #[test]
    fn reminders_only_for_final_unpaid_unreversed_invoices() {
        for s in [Created, Sent, PartiallyPaid, Overdue, Ignored] {
            assert!(can_remind(s, false, false), "{s}");
            assert!(!can_remind(s, true, false), "{s} reversed");
            assert!(!can_remind(s, false, true), "{s} reversal");
        }
        assert!(!can_remind(Draft, false, false));
        assert_eq!(
            reminder_refusal(Paid, false, false).map(|t| t.en),
            Some("is paid; there is nothing to remind of")
        );
    }

    #[test]
    fn reminder_dates_and_fee() {
        let e = validate_reminder(day("2026-11-20"), day("2026-11-10"), Some(d("-1")), "EUR");
        assert_eq!(e["due_date"], ["must not be before the reminder date"]);
        assert_eq!(e["fee"], ["must not be negative"]);
        let e = validate_reminder(None, None, Some(d("1.001")), "EUR");
        assert_eq!(e.len(), 3, "{e:?}");
        assert!(validate_reminder(day("2026-11-10"), day("2026-11-10"), None, "EUR").is_empty());
        assert!(
            validate_reminder(day("2026-11-10"), day("2026-11-17"), Some(d("5")), "EUR").is_empty()
        );
    }
}
