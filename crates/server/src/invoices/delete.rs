//! DELETE /invoices/{id} (`decisions.md` § State rules; issue 29 § Books that stay whole):
//! drafts without a reason; a finalized invoice that was neither sent nor paid only by an
//! admin, with a reason, and not at all when the account says `never`; locked invoices
//! only by reversal; a reversal and a reversed invoice never
//! (`kontor_model::status::check_invoice_delete`). The record leaves every list; a
//! snapshot with reason and time goes to the audit table. Nothing is erased.

use super::repo;
use crate::access::auth::{Caller, KeyContext};
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{IdPath, OptionalJsonBody};
use crate::state::AppState;
use crate::store::db::{now, ts};
use axum::extract::State;
use axum::http::StatusCode;
use axum::Extension;
use kontor_model::error::FieldErrors;
use kontor_model::invoice_input::DeleteReason;
use kontor_model::status::{check_invoice_delete, DeleteRefusal, InvoiceDeletion};
use kontor_model::users::Role;

/// DELETE /invoices/{id} with optional body `{reason}` → 204.
/// Errors: 404; 403 when a non-admin deletes a finalized invoice; 422 for a reversal or
/// reversed invoice, a locked one, an account that never allows it, or a finalized one
/// without a reason (field `reason`).
#[utoipa::path(delete, path = "/invoices/{id}", operation_id = "invoices_delete", tag = "invoices",
    params(IdPath), request_body(content = Option<DeleteReason>, content_type = "application/json", description = "Optional; `reason` is required for an invoice that is not a draft"),
    responses((status = 204, description = "Deleted (the record leaves every list)")))]
pub async fn delete(
    State(state): State<AppState>,
    Extension(context): Extension<KeyContext>,
    Extension(caller): Extension<Caller>,
    IdPath(id): IdPath,
    OptionalJsonBody(body): OptionalJsonBody<DeleteReason>,
) -> ApiResult<StatusCode> {
    let reason = body
        .and_then(|b| b.reason)
        .map(|r| r.trim().to_string())
        .filter(|r| !r.is_empty());
    let _guard = state.write_lock.lock().await;
    let invoice = repo::load(&state.pool, id).await?;
    let policy = crate::account::repo::load(&state.pool)
        .await?
        .account
        .finalized_invoice_deletion;
    let deletion = InvoiceDeletion {
        status: invoice.status,
        locked: invoice.locked,
        reversal: invoice.reversal || invoice.credit_note,
        reversed: invoice.reversed || invoice.credit_notes.as_ref().is_some_and(|c| !c.is_empty()),
        admin: context.role == Role::Admin && !caller.read_only,
        policy,
    };
    match check_invoice_delete(deletion, reason.as_deref()) {
        Ok(()) => {}
        Err(DeleteRefusal::AdminOnly) => {
            return Err(ApiError::Forbidden(
                DeleteRefusal::AdminOnly.message().into(),
            ))
        }
        Err(DeleteRefusal::ReasonRequired) => {
            let mut errors = FieldErrors::new();
            errors.insert(
                "reason".into(),
                vec![kontor_model::error::messages::IS_REQUIRED.into()],
            );
            return Err(ApiError::Invalid(
                DeleteRefusal::ReasonRequired.message().en.into(),
                errors,
            ));
        }
        Err(other) => return Err(ApiError::Refused(other.message().into())),
    }
    // A deducted down payment stays while its final invoice stands (issue 33).
    if invoice.final_invoice_id.is_some() {
        return Err(ApiError::Refused(
            kontor_model::error::messages::DEDUCTED_NOT_REVERSIBLE.into(),
        ));
    }
    let t = ts(now());
    let snapshot =
        serde_json::to_string(&invoice).map_err(|e| ApiError::Internal(e.to_string()))?;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    crate::sql::query("INSERT INTO invoice_deletions (invoice_id, reason, snapshot, deleted_at) VALUES ($1, $2, $3, $4)")
        .bind(id)
        .bind(reason)
        .bind(snapshot)
        .bind(t)
        .execute(&mut tx)
        .await?;
    // The rule again inside the transaction: a send, payment or reversal that landed since
    // the check above (another process) keeps the invoice.
    let deleted = crate::sql::query(
        "UPDATE invoices SET deleted_at = $1, updated_at = $2 WHERE id = $3 AND deleted_at IS NULL \
         AND reversed = FALSE AND reversal = FALSE AND (status = 'draft' OR locked = FALSE)",
    )
    .bind(t)
    .bind(t)
    .bind(id)
    .execute(&mut tx)
    .await?;
    if deleted.rows_affected() != 1 {
        return Err(ApiError::Refused(
            kontor_model::error::messages::INVOICE_CHANGED_NOT_DELETED.into(),
        ));
    }
    crate::billable::billing::release(&mut tx, id).await?;
    super::down_payments::release(&mut tx, id).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}
