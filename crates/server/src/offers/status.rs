//! PUT /offers/{id}/update_status: any of the six offer states (interface.md § Offer
//! status; `decisions.md` § State rules).

use super::repo;
use crate::events::{self, Subject};
use crate::http::caller_context::CallerContext;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{IdPath, JsonBody};
use crate::store::db::{now, ts};
use axum::Json;
use kontor_model::event::{to_data, EventKind, StatusChangedData};
use kontor_model::invoice_input::StatusChange;
use kontor_model::offer::{Offer, OfferStatus};

/// Set an offer's status.
///
/// PUT /offers/{id}/update_status `{status}` → 200 with the offer. Errors: 404; 422 for
/// a status that is not one of the six.
#[utoipa::path(put, path = "/offers/{id}/update_status", operation_id = "offers_update_status", tag = "offers",
    params(IdPath), request_body(content = StatusChange, description = "`status`: one of created, sent, accepted, partially_billed, billed, archived."),
    responses((status = 200, description = "The offer in its new status.", body = Offer)))]
pub async fn update_status(
    CallerContext(state, caller, base): CallerContext,
    IdPath(id): IdPath,
    JsonBody(body): JsonBody<StatusChange>,
) -> ApiResult<Json<Offer>> {
    let target = OfferStatus::parse(&body.status).ok_or_else(|| {
        ApiError::field(
            "status",
            kontor_model::error::messages::MUST_BE_ONE_OF_N
                .with(["created, sent, accepted, partially_billed, billed, archived"]),
        )
    })?;
    let _guard = state.write_lock.lock().await;
    let current = repo::load(&state.pool, id).await?;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    crate::sql::query("UPDATE offers SET status = $1, updated_at = $2 WHERE id = $3")
        .bind(target.as_str())
        .bind(ts(now()))
        .bind(id)
        .execute(&mut tx)
        .await?;
    if current.status != target {
        let data = to_data(&StatusChangedData {
            from: current.status.as_str().into(),
            to: target.as_str().into(),
        });
        let user = Some(caller.user_id);
        events::record_as(
            &mut tx,
            user,
            Subject::Offer(id),
            EventKind::StatusChanged,
            data,
        )
        .await?;
    }
    tx.commit().await?;
    repo::load_signed(&state, &base, id).await.map(Json)
}
