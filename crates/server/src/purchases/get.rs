//! GET /purchases/{id}: the purchase with a fresh signed `file_url`.

use super::repo;
use crate::http::error::ApiResult;
use crate::http::extract::IdPath;
use crate::state::AppState;
use crate::store::files::BaseUrl;
use axum::extract::State;
use axum::Json;
use kontor_model::purchase::Purchase;

/// Get a purchase.
///
/// GET /purchases/{id}. Errors: 404.
#[utoipa::path(get, path = "/purchases/{id}", operation_id = "purchases_get", tag = "purchases",
    params(IdPath),
    responses((status = 200, description = "The purchase with a fresh signed `file_url`.", body = Purchase)))]
pub async fn get_one(
    State(state): State<AppState>,
    BaseUrl(base): BaseUrl,
    IdPath(id): IdPath,
) -> ApiResult<Json<Purchase>> {
    repo::load(&state, &base, id).await.map(Json)
}
