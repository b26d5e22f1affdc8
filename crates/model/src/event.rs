//! Events: the timeline of an invoice, offer or purchase (issue 11 § Timeline,
//! `docs/decisions.md` § Timeline (issue 11)).
//!
//! The server records one [`Event`] per change in the same transaction as the change and
//! answers them at `GET /{invoices,offers,purchases}/{id}/events`, oldest first. Each kind
//! carries its own `data` object; the typed forms below ([`CreatedData`], [`SentData`], …)
//! are what the server writes and what the app reads (unknown or missing keys read as
//! absent, so an older event never breaks the timeline).

use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::party::IdName;

/// What an event belongs to (the `subject_type` column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum SubjectType {
    /// An invoice (`/invoices/{id}/events`).
    Invoice,
    /// An offer (`/offers/{id}/events`).
    Offer,
    /// A purchase (`/purchases/{id}/events`).
    Purchase,
}

impl SubjectType {
    /// The stored and wire word (`"invoice"`).
    pub fn as_str(self) -> &'static str {
        match self {
            SubjectType::Invoice => "invoice",
            SubjectType::Offer => "offer",
            SubjectType::Purchase => "purchase",
        }
    }
}

/// What happened (the wire `kind`). Each kind's `data` is named on the variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// The record was created; data [`CreatedData`] (`{}`, `{"copy_of": 12}`,
    /// `{"recurring_invoice_id": 3}`, `{"offer_id": 5}`, `{"import": "xrechnung"}`).
    Created,
    /// The record's content was edited (draft invoice, offer, pending purchase); data `{}`.
    Updated,
    /// A draft invoice was finalized; data [`FinalizedData`] (`{"identifier": "R2611-004"}`).
    Finalized,
    /// The document was e-mailed; data [`SentData`] (recipients, subject, Message-ID).
    Sent,
    /// A payment was recorded; data [`PaymentData`].
    Payment,
    /// A payment was deleted; data [`PaymentData`] (the deleted payment).
    PaymentDeleted,
    /// A payment reminder was created; data [`ReminderData`].
    Reminder,
    /// The status changed by hand (or by a payment); data [`StatusChangedData`].
    StatusChanged,
    /// The record was copied; data [`CopiedData`] (`{"copy_id": 40}`, on the source).
    Copied,
    /// The invoice was reversed; data [`ReversedData`].
    Reversed,
    /// A purchase was approved; data `{}`.
    Approved,
    /// A purchase's receipt document was uploaded; data [`DocumentUploadedData`].
    DocumentUploaded,
    /// The customer signed the offer online (issue 31); data [`ApprovalData`].
    AcceptedOnline,
    /// The customer declined the offer online (issue 31); data [`ApprovalData`].
    DeclinedOnline,
    /// A credit note credited the invoice (issue 33); data [`CreditedData`].
    Credited,
}

impl EventKind {
    /// Every kind, in declaration order.
    pub const ALL: [EventKind; 15] = [
        EventKind::Created,
        EventKind::Updated,
        EventKind::Finalized,
        EventKind::Sent,
        EventKind::Payment,
        EventKind::PaymentDeleted,
        EventKind::Reminder,
        EventKind::StatusChanged,
        EventKind::Copied,
        EventKind::Reversed,
        EventKind::Approved,
        EventKind::DocumentUploaded,
        EventKind::AcceptedOnline,
        EventKind::DeclinedOnline,
        EventKind::Credited,
    ];

    /// The stored and wire word (`"status_changed"`).
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Created => "created",
            EventKind::Updated => "updated",
            EventKind::Finalized => "finalized",
            EventKind::Sent => "sent",
            EventKind::Payment => "payment",
            EventKind::PaymentDeleted => "payment_deleted",
            EventKind::Reminder => "reminder",
            EventKind::StatusChanged => "status_changed",
            EventKind::Copied => "copied",
            EventKind::Reversed => "reversed",
            EventKind::Approved => "approved",
            EventKind::DocumentUploaded => "document_uploaded",
            EventKind::AcceptedOnline => "accepted_online",
            EventKind::DeclinedOnline => "declined_online",
            EventKind::Credited => "credited",
        }
    }

    /// Parses a stored word; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == text)
    }
}

/// One entry of a record's timeline (`GET /invoices/{id}/events`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Event {
    /// Event id; ascending in the order the events happened.
    pub id: i64,
    /// What happened.
    pub kind: EventKind,
    /// When (UTC, seconds).
    #[serde(with = "crate::timestamp")]
    pub at: DateTime<Utc>,
    /// Who (the key's user, `{id, name}` with name "First Last"); `null` for the server's
    /// own jobs (recurring invoices).
    pub user: Option<IdName>,
    /// The kind's details (an object; see [`EventKind`]).
    pub data: serde_json::Value,
}

impl Event {
    /// The `data` read as `T` (one of the `…Data` types); `T::default()` when it does not
    /// fit (an event written by an older version).
    pub fn data_as<T: DeserializeOwned + Default>(&self) -> T {
        crate::wire::from_value(&self.data).unwrap_or_default()
    }
}

/// `created` data: where the record came from (all absent for a plain creation).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreatedData {
    /// The id of the record this one is a copy of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copy_of: Option<i64>,
    /// The recurring invoice whose run created this invoice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recurring_invoice_id: Option<i64>,
    /// The offer this invoice was created from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offer_id: Option<i64>,
    /// The import format of an imported purchase (`"xrechnung"`, `"zugferd"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub import: Option<String>,
    /// The reversed invoice, on a reversal invoice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reversal_of: Option<i64>,
}

/// `finalized` data.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FinalizedData {
    /// The number assigned (`"R2611-004"`).
    #[serde(default)]
    pub identifier: String,
}

/// `sent` data: the e-mail as it left the server.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SentData {
    /// To addresses.
    #[serde(default)]
    pub to: Vec<String>,
    /// Cc addresses.
    #[serde(default)]
    pub cc: Vec<String>,
    /// Subject line.
    #[serde(default)]
    pub subject: String,
    /// The message's `Message-ID` header, with angle brackets (`"<…@…>"`).
    #[serde(default)]
    pub message_id: String,
}

/// `payment` and `payment_deleted` data.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PaymentData {
    /// Payment id.
    #[serde(default)]
    pub payment_id: i64,
    /// Amount in currency units of the document (a JSON number).
    #[serde(default, with = "crate::wire::decimal")]
    pub amount: Decimal,
    /// Payment date.
    #[serde(default, with = "crate::wire::date_option")]
    pub date: Option<NaiveDate>,
    /// The document's currency (`"EUR"`), for display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    /// The bank transaction the payment was booked from (issue 32); absent for a payment
    /// typed in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_transaction_id: Option<i64>,
}

/// `reminder` data.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReminderData {
    /// Reminder id.
    #[serde(default)]
    pub reminder_id: i64,
    /// Reminder fee in currency units (a JSON number).
    #[serde(default, with = "crate::wire::decimal")]
    pub fee: Decimal,
}

/// `status_changed` data: wire words of the record's status enum.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StatusChangedData {
    /// Status before.
    #[serde(default)]
    pub from: String,
    /// Status after.
    #[serde(default)]
    pub to: String,
}

/// `accepted_online` and `declined_online` data (issue 31): who signed or declined, the
/// optional positions taken (ids of the offer's items) and a decline's reason.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ApprovalData {
    /// The customer's name as they typed it.
    #[serde(default)]
    pub customer_full_name: String,
    /// The optional positions taken (signing only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub optional_item_ids: Vec<i64>,
    /// Why the customer declined (declining only; may be empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// `copied` data (on the source record).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CopiedData {
    /// The new copy's id.
    #[serde(default)]
    pub copy_id: i64,
}

/// `reversed` data (on the reversed invoice).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReversedData {
    /// The reversal invoice's id.
    #[serde(default)]
    pub reversal_invoice_id: i64,
}

/// `credited` data (on the credited invoice, issue 33).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreditedData {
    /// The credit note's id.
    #[serde(default)]
    pub credit_note_id: i64,
    /// The credit note's gross total, negative, currency units.
    #[serde(default, with = "crate::wire::decimal")]
    pub gross_total: rust_decimal::Decimal,
}

/// `document_uploaded` data.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DocumentUploadedData {
    /// The uploaded file's name, when the client sent one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_name: Option<String>,
}

/// `data` for `T` as a JSON object (what the server stores).
pub fn to_data<T: Serialize>(data: &T) -> serde_json::Value {
    serde_json::to_value(data).unwrap_or_else(|_| serde_json::json!({}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_have_their_wire_words() {
        for kind in EventKind::ALL {
            let json = serde_json::to_value(kind).unwrap();
            assert_eq!(json, serde_json::json!(kind.as_str()));
            assert_eq!(EventKind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(EventKind::PaymentDeleted.as_str(), "payment_deleted");
        assert_eq!(EventKind::parse("deleted"), None);
    }

    #[test]
    fn event_round_trips_and_reads_its_data() {
        let text = r#"{"id":3,"kind":"sent","at":"2026-11-23T10:00:00Z","user":{"id":1,"name":"Ada L"},
            "data":{"to":["a@b.de"],"cc":[],"subject":"Invoice","message_id":"<x@y>"}}"#;
        let event: Event = serde_json::from_str(text).unwrap();
        assert_eq!(event.kind, EventKind::Sent);
        let sent: SentData = event.data_as();
        assert_eq!(sent.to, vec!["a@b.de".to_string()]);
        assert_eq!(sent.message_id, "<x@y>");
        let back = serde_json::to_value(&event).unwrap();
        assert_eq!(back["at"], "2026-11-23T10:00:00Z");
    }

    #[test]
    fn payment_data_amount_is_a_number_and_bad_data_reads_as_default() {
        let data = PaymentData {
            payment_id: 2,
            amount: Decimal::new(11900, 2),
            date: NaiveDate::from_ymd_opt(2026, 11, 5),
            currency: Some("EUR".into()),
            bank_transaction_id: None,
        };
        let json = to_data(&data);
        assert!(json["amount"].is_number());
        assert_eq!(json["date"], "2026-11-05");
        let event = Event {
            id: 1,
            kind: EventKind::Payment,
            at: Utc::now(),
            user: None,
            data: json,
        };
        assert_eq!(event.data_as::<PaymentData>(), data);
        let broken = Event {
            data: serde_json::json!({"payment_id": "x"}),
            ..event
        };
        assert_eq!(broken.data_as::<PaymentData>(), PaymentData::default());
    }

    #[test]
    fn created_data_omits_absent_origins() {
        assert_eq!(to_data(&CreatedData::default()), serde_json::json!({}));
        let copy = CreatedData {
            copy_of: Some(12),
            ..Default::default()
        };
        assert_eq!(to_data(&copy), serde_json::json!({"copy_of": 12}));
    }
}
