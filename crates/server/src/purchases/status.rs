//! PATCH /purchases/{id}/update_status (pending ↔ approved; `archived` means approved)
//! and DELETE /purchases/{id} (only pending purchases without payments).

use super::repo;
use crate::access::auth::KeyContext;
use crate::events::{self, Subject};
use crate::http::caller_context::CallerContext;
use crate::http::error::{on_foreign_key, ApiError, ApiResult};
use crate::http::extract::{IdPath, JsonBody};
use crate::state::AppState;
use crate::store::db::{now, ts};
use crate::store::storage::Area;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Extension;
use axum::Json;
use kontor_model::einvoice_check::{
    approval_refusal, ApprovalRefusal, EinvoiceCheck, MAX_OVERRIDE_REASON,
};
use kontor_model::error::messages;
use kontor_model::event::{to_data, EventKind, StatusChangedData};
use kontor_model::invoice_input::StatusChange;
use kontor_model::purchase::{Purchase, PurchaseStatus};
use kontor_model::users::Role;
use serde_json::json;

/// Set a purchase's status.
///
/// PATCH /purchases/{id}/update_status `{status}` → 200 with the purchase.
/// Errors: 404; 422 for a status other than pending, approved or archived; 422 on
/// `status` when approving a purchase whose e-invoice has a formal or content defect
/// without `override_reason`, 403 when someone other than an admin gives one (issue 36).
#[utoipa::path(patch, path = "/purchases/{id}/update_status", operation_id = "purchases_update_status", tag = "purchases",
    params(IdPath), request_body(content = StatusChange, description = "`status`: pending, approved or archived (archived means approved)."),
    responses((status = 200, description = "The purchase in its new status.", body = Purchase)))]
pub async fn update_status(
    CallerContext(state, caller, base): CallerContext,
    Extension(context): Extension<KeyContext>,
    IdPath(id): IdPath,
    JsonBody(body): JsonBody<StatusChange>,
) -> ApiResult<Json<Purchase>> {
    let target = PurchaseStatus::parse(&body.status)
        .ok_or_else(|| ApiError::field("status", messages::MUST_BE_PENDING_OR_APPROVED))?;
    let _guard = state.write_lock.lock().await;
    repo::load_row(&state.pool, id).await?;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let (from, check): (String, Option<String>) =
        crate::sql::query_as("SELECT status, einvoice_check FROM purchases WHERE id = $1")
            .bind(id)
            .fetch_one(&mut tx)
            .await?;
    let admin = context.role == Role::Admin && !caller.read_only;
    let approving = target == PurchaseStatus::Approved && from != target.as_str();
    let overridden = if approving {
        approval_gate(check.as_deref(), body.override_reason.as_deref(), admin)?
    } else {
        None
    };
    crate::sql::query("UPDATE purchases SET status = $1, updated_at = $2 WHERE id = $3")
        .bind(target.as_str())
        .bind(ts(now()))
        .bind(id)
        .execute(&mut tx)
        .await?;
    let (user, subject) = (Some(caller.user_id), Subject::Purchase(id));
    if approving {
        let data = overridden.unwrap_or_else(|| json!({}));
        events::record_as(&mut tx, user, subject, EventKind::Approved, data).await?;
    } else if from != target.as_str() {
        let data = to_data(&StatusChangedData {
            from,
            to: target.as_str().into(),
        });
        events::record_as(&mut tx, user, subject, EventKind::StatusChanged, data).await?;
    }
    tx.commit().await?;
    repo::load(&state, &base, id).await.map(Json)
}

/// Whether a purchase whose stored e-invoice check is `check` (JSON) may be approved with
/// `override_reason` by an admin (`admin`) — `kontor_model::einvoice_check::approval_refusal`,
/// the one rule (issue 36). `Ok(None)`: approve as usual; `Ok(Some(data))`: approve and
/// record `data` (`{override_reason, einvoice_class, rules}`) on the `approved` event, the
/// audit trail of the override. Errors: 422 on `status` without a reason, 403 when the
/// caller is no admin, 422 on `override_reason` when it is too long.
pub fn approval_gate(
    check: Option<&str>,
    override_reason: Option<&str>,
    admin: bool,
) -> ApiResult<Option<serde_json::Value>> {
    let check: Option<EinvoiceCheck> = check.and_then(|c| serde_json::from_str(c).ok());
    match approval_refusal(check.as_ref(), override_reason, admin) {
        Some(ApprovalRefusal::NeedsOverride) => Err(ApiError::field(
            "status",
            messages::EINVOICE_DEFECT_HOLDS_APPROVAL,
        )),
        Some(ApprovalRefusal::AdminOnly) => Err(ApiError::Forbidden(
            messages::EINVOICE_OVERRIDE_ADMIN_ONLY.into(),
        )),
        Some(ApprovalRefusal::ReasonTooLong) => Err(ApiError::field(
            "override_reason",
            messages::MUST_BE_AT_MOST_N_CHARACTERS.with([MAX_OVERRIDE_REASON]),
        )),
        None => Ok(check.filter(EinvoiceCheck::holds_approval).map(|c| {
            let rules = c.rules();
            json!({
                "override_reason": override_reason.map(str::trim).unwrap_or_default(),
                "einvoice_class": c.class.map(|k| k.as_str()),
                "rules": rules,
            })
        })),
    }
}

/// Delete a purchase.
///
/// DELETE /purchases/{id} → 204, removing its positions and stored document.
/// Errors: 404; 422 when it is approved or has payments (nothing is removed).
#[utoipa::path(delete, path = "/purchases/{id}", operation_id = "purchases_delete", tag = "purchases",
    params(IdPath),
    responses((status = 204, description = "Deleted with its positions and stored document.")))]
pub async fn delete(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<StatusCode> {
    let _guard = state.write_lock.lock().await;
    let row = repo::load_row(&state.pool, id).await?;
    // Check and delete in one transaction; a payment that slips in anyway makes the
    // foreign key refuse the delete, which is the same 422 (`decisions.md` § Server
    // hardening).
    let has_payments = || {
        ApiError::Refused(
            kontor_model::error::messages::PURCHASE_WITH_PAYMENTS_NOT_DELETABLE.into(),
        )
    };
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let (status, payments): (String, i64) = crate::sql::query_as("SELECT status, (SELECT COUNT(*) FROM purchase_payments WHERE purchase_id = $1) FROM purchases WHERE id = $2").bind(id).bind(id).fetch_one(&mut tx).await?;
    if status != PurchaseStatus::Pending.as_str() {
        return Err(ApiError::Refused(
            kontor_model::error::messages::PURCHASE_APPROVED_NOT_DELETABLE.into(),
        ));
    }
    if payments > 0 {
        return Err(has_payments());
    }
    crate::sql::query("DELETE FROM purchase_items WHERE purchase_id = $1")
        .bind(id)
        .execute(&mut tx)
        .await?;
    crate::sql::query("DELETE FROM purchases WHERE id = $1")
        .bind(id)
        .execute(&mut tx)
        .await
        .map_err(on_foreign_key(has_payments()))?;
    // A later purchase may get this id again (SQLite reuses the highest rowid).
    events::forget(&mut tx, Subject::Purchase(id)).await?;
    tx.commit().await?;
    if let Some(key) = row.document_key {
        state.files.delete(Area::PurchaseDocuments, &key).await;
    }
    Ok(StatusCode::NO_CONTENT)
}
