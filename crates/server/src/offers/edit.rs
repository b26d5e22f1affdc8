//! PUT /offers/{id}, DELETE /offers/{id} and POST /offers/{id}/copy (issue 11 § Edit,
//! delete, copy; `docs/decisions.md` § Edit, delete, copy (issue 11)). The state rules and
//! the copy body are the model's ([`kontor_model::edit`]).

use super::{create, repo};
use crate::events::{self, Subject};
use crate::http::caller_context::CallerContext;
use crate::http::error::{on_foreign_key, ApiError, ApiResult};
use crate::http::extract::{IdPath, JsonBody};
use crate::state::AppState;
use crate::store::db::{now, Word};
use crate::store::storage::Area;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use kontor_model::edit::{offer_copy, offer_delete_refusal};
use kontor_model::event::CreatedData;
use kontor_model::offer::{NewOffer, Offer, OfferStatus};

/// Replace an offer.
///
/// PUT /offers/{id} with the creation body → 200 with the offer (number and status kept,
/// positions replaced, totals recomputed). Errors: 404; 422 naming fields; 422 when the
/// offer is accepted, billed or archived.
#[utoipa::path(put, path = "/offers/{id}", operation_id = "offers_update", tag = "offers",
    params(IdPath), request_body = NewOffer,
    responses((status = 200, description = "The offer (number and status kept, positions replaced, totals recomputed).", body = Offer)))]
pub async fn update(
    CallerContext(state, caller, base): CallerContext,
    IdPath(id): IdPath,
    JsonBody(body): JsonBody<NewOffer>,
) -> ApiResult<Json<Offer>> {
    create::save_offer(&state, &caller, body, Some(id), CreatedData::default()).await?;
    repo::load_signed(&state, &base, id).await.map(Json)
}

/// Delete an offer.
///
/// DELETE /offers/{id} → 204, removing its positions, attachments and their files.
/// Errors: 404; 422 when the offer is not `created` or an invoice refers to it (nothing
/// is removed).
#[utoipa::path(delete, path = "/offers/{id}", operation_id = "offers_delete", tag = "offers",
    params(IdPath),
    responses((status = 204, description = "Deleted with its positions, attachments and their files.")))]
pub async fn delete(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<StatusCode> {
    let _guard = state.write_lock.lock().await;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let status: Word<OfferStatus> =
        crate::sql::query_scalar("SELECT status FROM offers WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut tx)
            .await?
            .ok_or_else(|| ApiError::not_found(format!("offer {id}")))?;
    if let Some(why) = offer_delete_refusal(status.0) {
        return Err(ApiError::Refused(why.into()));
    }
    let keys: Vec<String> =
        crate::sql::query_scalar("SELECT storage_key FROM offer_attachments WHERE offer_id = $1")
            .bind(id)
            .fetch_all(&mut tx)
            .await?;
    for table in ["offer_attachments", "offer_items"] {
        crate::sql::query(&format!("DELETE FROM {table} WHERE offer_id = $1"))
            .bind(id)
            .execute(&mut tx)
            .await?;
    }
    crate::sql::query("DELETE FROM offers WHERE id = $1")
        .bind(id)
        .execute(&mut tx)
        .await
        .map_err(on_foreign_key(ApiError::Refused(
            kontor_model::error::messages::OFFER_INVOICED_NOT_DELETABLE.into(),
        )))?;
    // A later offer may get this id again (SQLite reuses the highest rowid).
    events::forget(&mut tx, Subject::Offer(id)).await?;
    tx.commit().await?;
    for key in keys {
        state.files.delete(Area::OfferAttachments, &key).await;
    }
    Ok(StatusCode::NO_CONTENT)
}

/// Copy an offer.
///
/// POST /offers/{id}/copy → 200 with a new `created` offer (new number, today's date,
/// valid for the customer's payment term or the account's default) keeping what
/// [`offer_copy`] keeps. Errors: 404; 422 when the copy's due date does not fit.
#[utoipa::path(post, path = "/offers/{id}/copy", operation_id = "offers_copy", tag = "offers",
    params(IdPath),
    responses((status = 200, description = "The new `created` offer.", body = Offer)))]
pub async fn copy(
    CallerContext(state, caller, base): CallerContext,
    IdPath(id): IdPath,
) -> ApiResult<Json<Offer>> {
    let offer = repo::load(&state.pool, id).await?;
    let today = now().date_naive();
    let customer_id = offer.company.as_ref().map(|c| c.id);
    let due = crate::invoices::copy_due(&state.pool, customer_id, today).await?;
    let origin = CreatedData {
        copy_of: Some(id),
        ..Default::default()
    };
    let body = offer_copy(&offer, today, due);
    let new_id = create::create_offer_from(&state, &caller, body, origin).await?;
    repo::load_signed(&state, &base, new_id).await.map(Json)
}
