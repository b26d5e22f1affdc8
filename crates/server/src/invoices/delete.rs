//! DELETE /invoices/{id} (`decisions.md` § State rules): drafts without a reason, other
//! unlocked invoices with one; locked invoices only by reversal. The record leaves every
//! list; a snapshot with reason and time goes to the audit table. Nothing is erased.

use super::repo;
use crate::db::{now, ts};
use crate::error::{ApiError, ApiResult};
use crate::extract::{IdPath, OptionalJsonBody};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use kontor_model::error::FieldErrors;
use kontor_model::invoice_input::DeleteReason;
use kontor_model::status::check_invoice_delete;

/// DELETE /invoices/{id} with optional body `{reason}` → 204.
/// Errors: 404; 422 when locked or when a non-draft lacks a reason (field `reason`).
#[utoipa::path(
    delete,
    path = "/invoices/{id}",
    operation_id = "invoices_delete",
    tag = "invoices",
    params(("id" = i64, Path, description = "Invoice id")),
    request_body(content = Option<DeleteReason>, content_type = "application/json",
        description = "Optional; `reason` is required for an invoice that is not a draft"),
    responses(
        (status = 204, description = "Deleted (the record leaves every list)")
    )
)]
pub async fn delete(
    State(state): State<AppState>,
    IdPath(id): IdPath,
    OptionalJsonBody(body): OptionalJsonBody<DeleteReason>,
) -> ApiResult<StatusCode> {
    let reason = body
        .and_then(|b| b.reason)
        .map(|r| r.trim().to_string())
        .filter(|r| !r.is_empty());
    let _guard = state.write_lock.lock().await;
    let invoice = repo::load(&state.pool, id).await?;
    if let Err(why) = check_invoice_delete(invoice.status, invoice.locked, reason.as_deref()) {
        let mut errors = FieldErrors::new();
        if !invoice.locked {
            errors.insert("reason".into(), vec!["is required".into()]);
        }
        let mut message = why.to_string();
        if let Some(first) = message.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        return Err(ApiError::Invalid(format!("{message}."), errors));
    }
    let t = ts(now());
    let snapshot =
        serde_json::to_string(&invoice).map_err(|e| ApiError::Internal(e.to_string()))?;
    let mut tx = crate::db::begin_write(&state.pool).await?;
    crate::sql::query("INSERT INTO invoice_deletions (invoice_id, reason, snapshot, deleted_at) VALUES (?, ?, ?, ?)")
        .bind(id)
        .bind(reason)
        .bind(snapshot)
        .bind(t)
        .execute(&mut tx)
        .await?;
    crate::sql::query("UPDATE invoices SET deleted_at = ?, updated_at = ? WHERE id = ?")
        .bind(t)
        .bind(t)
        .bind(id)
        .execute(&mut tx)
        .await?;
    crate::billing::release(&mut tx, id).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}
