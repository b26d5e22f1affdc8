//! GET /purchases/{id}: the purchase with a fresh signed `file_url`.

use super::repo;
use crate::error::ApiResult;
use crate::extract::IdPath;
use crate::files::BaseUrl;
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use kontor_model::purchase::Purchase;

/// GET /purchases/{id}. Errors: 404.
pub async fn get_one(
    State(state): State<AppState>,
    BaseUrl(base): BaseUrl,
    IdPath(id): IdPath,
) -> ApiResult<Json<Purchase>> {
    repo::load(&state, &base, id).await.map(Json)
}
