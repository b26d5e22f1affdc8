//! The audit trail (issue 15 § 4, `docs/api.md` § Audit trail): `GET /audit_events`,
//! admins only.

use super::client::get_page;
use super::{ApiError, Page};
use kontor_model::audit::AuditEvent;

/// GET /audit_events?record_type=…&record_id=… — page `page` (from 1) of `per_page`
/// events of the record and its parts, newest first. Errors: 403 for non-admins.
pub async fn get_record_audit_events(
    record_type: &str,
    record_id: i64,
    page: u32,
    per_page: u32,
) -> Result<Page<AuditEvent>, ApiError> {
    get_page(
        "/audit_events",
        &[
            ("record_type".to_string(), record_type.to_string()),
            ("record_id".to_string(), record_id.to_string()),
            ("page".to_string(), page.to_string()),
            ("per_page".to_string(), per_page.to_string()),
        ],
    )
    .await
}
