//! The audit trail's wire types (issue 15 § 4; `docs/decisions.md` § Audit trail):
//! `GET /audit_events` answers [`AuditEvent`]s filtered by [`AuditFilter`]; the record
//! types are [`RECORD_TYPES`].

use crate::query::one;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The record types of the trail, as `record_type` says them. Positions, payments,
/// reminders and attachments also name their invoice, offer or purchase as parent.
pub const RECORD_TYPES: &[&str] = &[
    "invoice",
    "invoice_position",
    "invoice_payment",
    "invoice_reminder",
    "offer",
    "offer_position",
    "offer_attachment",
    "offer_customer_approval",
    "offer_confirmation",
    "purchase",
    "purchase_position",
    "purchase_payment",
    "company",
    "recurring_invoice",
    "account_settings",
    "user",
    "bank_statement",
    "bank_transaction",
    "article",
    "text_snippet",
];

/// One changed field: its column name and the values before and after (`null` when the
/// record was created or deleted; `"(secret)"` for passwords).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AuditChange {
    /// The field (column) name, e.g. `gross_total`.
    pub field: String,
    /// The value before (text, number or `null`).
    pub old: Value,
    /// The value after (text, number or `null`).
    pub new: Value,
}

/// One audit event: who changed which record how, chained to the event before it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AuditEvent {
    /// Sequence number (from 1, gap-free).
    pub id: i64,
    /// When (UTC, `YYYY-MM-DDTHH:MM:SSZ`).
    pub at: String,
    /// The user who made the change (`null`: the server's own jobs or the command line).
    pub user_id: Option<i64>,
    /// "Ada Admin", or `null`.
    pub user_name: Option<String>,
    /// The API key (or session) used (`null` as for `user_id`).
    pub key_id: Option<i64>,
    /// `create`, `update` or `delete`.
    pub action: String,
    /// One of [`RECORD_TYPES`].
    pub record_type: String,
    /// The record's id.
    pub record_id: i64,
    /// For positions, payments, reminders and attachments: `invoice`, `offer` or
    /// `purchase`.
    pub parent_type: Option<String>,
    /// The parent record's id.
    pub parent_id: Option<i64>,
    /// The changed fields.
    pub changes: Vec<AuditChange>,
    /// The event's seal: `<key fingerprint>:` and the hex HMAC-SHA256, under the
    /// installation's audit key, of the previous event's hash and this event's content
    /// (issue 29; events sealed before keys existed: hex SHA-256 without a fingerprint);
    /// `null` for a moment after the change, until the server seals it.
    pub hash: Option<String>,
}

/// `GET /audit_events` filters (all optional, combined with AND): `record_type` (one of
/// [`RECORD_TYPES`]) with `record_id` (the record's own events and, for an invoice, offer
/// or purchase, those of its positions, payments, reminders and attachments), `user_id`,
/// `from`/`to` (dates, inclusive, UTC). Paged like every list (`page`, `per_page`), newest
/// first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
#[serde(default)]
pub struct AuditFilter {
    /// Record type.
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    pub record_type: Option<String>,
    /// Record id.
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    pub record_id: Option<i64>,
    /// User id.
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    pub user_id: Option<i64>,
    /// From this day (inclusive).
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    pub from: Option<NaiveDate>,
    /// Up to this day (inclusive).
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    pub to: Option<NaiveDate>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_read_from_the_query() {
        let f: AuditFilter =
            crate::query::decode("record_type=invoice&record_id=7&from=2026-11-01").unwrap();
        assert_eq!(f.record_type.as_deref(), Some("invoice"));
        assert_eq!(f.record_id, Some(7));
        assert_eq!(f.from, NaiveDate::from_ymd_opt(2026, 11, 1));
        let bad = crate::query::decode::<AuditFilter>("record_id=x").unwrap_err();
        assert!(bad.to_string().contains("record_id"), "{bad}");
    }
}
