//! The staff side of online approval (issue 31 § API for staff): read, activate and
//! deactivate an offer's approval link. Admin and staff may activate and deactivate;
//! read-only keys get 403 (`crate::access::roles::TABLE`).

use super::{repo, token};
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::IdPath;
use crate::state::AppState;
use crate::store::db::{now, ts};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use kontor_model::approval::CustomerApprovalDetail;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The origin links are built from: `KONTOR_PUBLIC_URL`, else the request's host.
fn origin(state: &AppState, headers: &HeaderMap) -> String {
    state.links.for_answer(Some(headers))
}

/// The approval of offer `id` as staff see it. Errors: 404 (no such offer, or never
/// activated).
async fn answer(
    state: &AppState,
    headers: &HeaderMap,
    id: i64,
) -> ApiResult<Json<CustomerApprovalDetail>> {
    let row = repo::of_offer(&state.pool, id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("customer approval of offer {id}")))?;
    Ok(Json(row.detail(state, &origin(state, headers))?))
}

/// GET /offers/{id}/customer_approval → the offer's online approval. Errors: 404 until
/// it is activated.
#[utoipa::path(get, path = "/offers/{id}/customer_approval", operation_id = "offer_customer_approval_get", tag = "offers",
    params(IdPath),
    responses((status = 200, description = "The approval: links, state, signer", body = CustomerApprovalDetail)))]
async fn get_one(
    State(state): State<AppState>,
    headers: HeaderMap,
    IdPath(id): IdPath,
) -> ApiResult<Json<CustomerApprovalDetail>> {
    answer(&state, &headers, id).await
}

/// POST /offers/{id}/customer_approval/activate → creates the approval link (or makes it
/// work again); activating twice keeps the same link. Errors: 404 for an unknown offer.
#[utoipa::path(post, path = "/offers/{id}/customer_approval/activate", operation_id = "offer_customer_approval_activate", tag = "offers",
    params(IdPath),
    responses((status = 200, description = "The active approval", body = CustomerApprovalDetail)))]
async fn activate(
    State(state): State<AppState>,
    headers: HeaderMap,
    IdPath(id): IdPath,
) -> ApiResult<Json<CustomerApprovalDetail>> {
    let _guard = state.write_lock.lock().await;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let exists: Option<i64> = crate::sql::query_scalar("SELECT id FROM offers WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut tx)
        .await?;
    if exists.is_none() {
        return Err(ApiError::not_found(format!("offer {id}")));
    }
    let t = ts(now());
    match repo::of_offer(&mut tx, id).await? {
        Some(row) if row.active => {}
        Some(row) => {
            crate::sql::query(
                "UPDATE offer_customer_approvals SET active = TRUE, updated_at = $1 WHERE id = $2",
            )
            .bind(t)
            .bind(row.id)
            .execute(&mut tx)
            .await?;
        }
        None => {
            let minted = token::mint(&state.pool)?;
            crate::sql::query(
                "INSERT INTO offer_customer_approvals (offer_id, token_hash, token_nonce, key_fingerprint, active, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, TRUE, $5, $6)",
            )
            .bind(id)
            .bind(minted.hash)
            .bind(minted.nonce)
            .bind(minted.fingerprint)
            .bind(t)
            .bind(t)
            .execute(&mut tx)
            .await?;
        }
    }
    tx.commit().await?;
    answer(&state, &headers, id).await
}

/// POST (or PUT, as MOCO's example sends) /offers/{id}/customer_approval/deactivate →
/// `active: false`; the link stops working at once. Errors: 404 when the offer has no
/// approval.
#[utoipa::path(post, path = "/offers/{id}/customer_approval/deactivate", operation_id = "offer_customer_approval_deactivate", tag = "offers",
    params(IdPath),
    responses((status = 200, description = "The deactivated approval", body = CustomerApprovalDetail)))]
async fn deactivate(
    State(state): State<AppState>,
    headers: HeaderMap,
    IdPath(id): IdPath,
) -> ApiResult<Json<CustomerApprovalDetail>> {
    let _guard = state.write_lock.lock().await;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let changed = crate::sql::query(
        "UPDATE offer_customer_approvals SET active = FALSE, updated_at = $1 WHERE offer_id = $2",
    )
    .bind(ts(now()))
    .bind(id)
    .execute(&mut tx)
    .await?;
    if changed.rows_affected() == 0 {
        return Err(ApiError::not_found(format!(
            "customer approval of offer {id}"
        )));
    }
    tx.commit().await?;
    answer(&state, &headers, id).await
}

/// The same as [`deactivate`], for PUT.
#[utoipa::path(put, path = "/offers/{id}/customer_approval/deactivate", operation_id = "offer_customer_approval_deactivate_put", tag = "offers",
    params(IdPath),
    responses((status = 200, description = "The deactivated approval", body = CustomerApprovalDetail)))]
async fn deactivate_put(
    state: State<AppState>,
    headers: HeaderMap,
    id: IdPath,
) -> ApiResult<Json<CustomerApprovalDetail>> {
    deactivate(state, headers, id).await
}

/// The staff routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_one))
        .routes(routes!(activate))
        .routes(routes!(deactivate, deactivate_put))
}

/// The signature drawing stored as `key` (behind a signed link), as `image/png`.
/// Errors: 404 when no approval records `key` or its file is gone.
pub async fn signature_file(state: &AppState, key: &str) -> ApiResult<axum::response::Response> {
    let missing = || ApiError::not_found("signature");
    if !crate::store::storage::is_plain_key(key) {
        return Err(missing());
    }
    let known: Option<i64> = crate::sql::query_scalar(
        "SELECT id FROM offer_customer_approvals WHERE signature_key = $1",
    )
    .bind(key)
    .fetch_optional(&state.pool)
    .await?;
    known.ok_or_else(missing)?;
    let bytes = state
        .files
        .get(crate::store::storage::Area::ApprovalSignatures, key)
        .await?
        .ok_or_else(missing)?;
    Ok(crate::store::files::file_response(
        bytes,
        "image/png",
        "signature.png",
    ))
}

/// Sets the `customer_approval` of every offer in `offers` (a list page) with one query;
/// links under `origin`. Errors: the database's; 500 when a token's key is not in the key
/// file.
pub async fn fill_summaries(
    pool: &crate::sql::Db,
    origin: &str,
    offers: &mut [kontor_model::offer::Offer],
) -> ApiResult<()> {
    let ids: Vec<i64> = offers.iter().map(|o| o.id).collect();
    let rows = repo::of_offers(pool, &ids).await?;
    for offer in offers.iter_mut() {
        if let Some(row) = rows.iter().find(|r| r.offer_id == offer.id) {
            offer.customer_approval = Some(row.summary(pool, origin)?);
        }
    }
    Ok(())
}

/// The placeholder an offer e-mail's subject or text may name for the approval link.
pub const APPROVAL_URL_PLACEHOLDER: &str = "{approval_url}";

/// `body` with [`APPROVAL_URL_PLACEHOLDER`] in its subject and text replaced by offer
/// `offer_id`'s approval link (issue 31: "the offer e-mail text gets an `{approval_url}`
/// placeholder"); unchanged when neither names it. The link's origin must be one the
/// server trusts for e-mail (`KONTOR_PUBLIC_URL`, or the request's host when it is the
/// server's own address). Errors: 422 on `text` when the offer's approval is not active,
/// or when no trusted origin is known.
pub async fn fill_approval_url(
    state: &AppState,
    headers: &HeaderMap,
    offer_id: i64,
    mut body: kontor_model::email::SendEmail,
) -> ApiResult<kontor_model::email::SendEmail> {
    let named = |t: &Option<String>| {
        t.as_deref()
            .is_some_and(|t| t.contains(APPROVAL_URL_PLACEHOLDER))
    };
    if !named(&body.subject) && !named(&body.text) {
        return Ok(body);
    }
    let row = repo::of_offer(&state.pool, offer_id)
        .await?
        .filter(|r| r.active)
        .ok_or_else(|| {
            ApiError::field(
                "text",
                kontor_model::error::messages::APPROVAL_NOT_ACTIVATED,
            )
        })?;
    let origin = state.links.for_email(Some(headers)).ok_or_else(|| {
        ApiError::field(
            "text",
            kontor_model::error::messages::APPROVAL_LINK_NEEDS_PUBLIC_URL,
        )
    })?;
    let url = row.approval_url(&state.pool, &origin)?;
    for t in [&mut body.subject, &mut body.text].into_iter().flatten() {
        *t = t.replace(APPROVAL_URL_PLACEHOLDER, &url);
    }
    Ok(body)
}
