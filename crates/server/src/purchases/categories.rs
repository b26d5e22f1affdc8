//! `/purchases/categories`: purchase categories (`name`, `credit_account`, timestamps).

use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{IdPath, JsonBody};
use crate::http::pagination::PageOf;
use crate::lists::ListQuery;
use crate::state::AppState;
use crate::store::db::{now, ts};
use axum::extract::State;
use axum::Json;
use kontor_model::error::{require_text, FieldErrors};
use kontor_model::purchase::{NewPurchaseCategory, PurchaseCategory};

async fn find(pool: &crate::sql::Db, id: i64) -> ApiResult<PurchaseCategory> {
    super::repo::categories(pool, Some(id))
        .await?
        .pop()
        .ok_or_else(|| ApiError::not_found(format!("purchase category {id}")))
}

/// List purchase categories.
///
/// GET /purchases/categories → the categories by name, paged like every list (a short
/// list, loaded whole and sliced).
#[utoipa::path(get, path = "/purchases/categories", operation_id = "purchase_categories_list", tag = "purchases",
    params(kontor_model::query::ListParams),
    responses((status = 200, description = "One page of the purchase categories, by name.", body = Vec<PurchaseCategory>)))]
pub async fn list(
    State(state): State<AppState>,
    list: ListQuery,
) -> ApiResult<PageOf<PurchaseCategory>> {
    Ok(list.slice(super::repo::categories(&state.pool, None).await?))
}

/// Get a purchase category.
///
/// GET /purchases/categories/{id}. Errors: 404.
#[utoipa::path(get, path = "/purchases/categories/{id}", operation_id = "purchase_categories_get", tag = "purchases",
    params(IdPath),
    responses((status = 200, description = "The purchase category.", body = PurchaseCategory)))]
pub async fn get_one(
    State(state): State<AppState>,
    IdPath(id): IdPath,
) -> ApiResult<Json<PurchaseCategory>> {
    find(&state.pool, id).await.map(Json)
}

/// Create a purchase category.
///
/// POST /purchases/categories → 200 with the category. Errors: 422 (name).
#[utoipa::path(post, path = "/purchases/categories", operation_id = "purchase_categories_create", tag = "purchases",
    request_body = NewPurchaseCategory,
    responses((status = 200, description = "The created purchase category.", body = PurchaseCategory)))]
pub async fn create(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<NewPurchaseCategory>,
) -> ApiResult<Json<PurchaseCategory>> {
    let mut e = FieldErrors::new();
    require_text(&mut e, "name", body.name.as_ref());
    ApiError::check(e)?;
    let _guard = state.write_lock.lock().await;
    let t = ts(now());
    // In a write transaction like every write (issue 29: an idempotent retry can tell
    // whether it committed).
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let id: i64 = crate::sql::query_scalar("INSERT INTO purchase_categories (name, credit_account, created_at, updated_at) VALUES ($1, $2, $3, $4) RETURNING id")
        .bind(body.name.as_deref().map(str::trim))
        .bind(body.credit_account.as_deref().unwrap_or("").trim())
        .bind(t)
        .bind(t)
        .fetch_one(&mut tx)
        .await?;
    tx.commit().await?;
    find(&state.pool, id).await.map(Json)
}
