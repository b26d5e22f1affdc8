//! `/api_keys` (admins, issue 12): list every key (never a secret), create a key for
//! integrations acting for the admin who creates it (the secret answered once), revoke.

use crate::access::auth::{Caller, KIND_API};
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::IdPath;
use crate::http::write_request::Write;
use crate::state::AppState;
use crate::store::db::Ts;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use kontor_model::error::messages;
use kontor_model::error::{require_text, FieldErrors};
use kontor_model::users::{ApiKey, KeyUser, NewApiKey};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes `/api_keys`, `/api_keys/{id}`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(revoke))
}

#[derive(sqlx_macros::FromRow)]
struct KeyRow {
    id: i64,
    uuid: String,
    name: String,
    read_only: bool,
    kind: String,
    user_id: i64,
    firstname: String,
    lastname: String,
    created_at: Ts,
    last_used_at: Option<Ts>,
    revoked_at: Option<Ts>,
}

impl From<KeyRow> for ApiKey {
    fn from(r: KeyRow) -> Self {
        ApiKey {
            id: r.id,
            uuid: r.uuid,
            name: r.name,
            read_only: r.read_only,
            kind: r.kind,
            user: KeyUser {
                id: r.user_id,
                name: format!("{} {}", r.firstname, r.lastname).trim().to_string(),
            },
            created_at: r.created_at.0,
            last_used_at: r.last_used_at.map(|t| t.0),
            revoked_at: r.revoked_at.map(|t| t.0),
            api_key: None,
        }
    }
}

const SELECT: &str =
    "SELECT k.id, k.uuid, k.name, k.read_only, k.kind, k.user_id, u.firstname, u.lastname, \
    k.created_at, k.last_used_at, k.revoked_at FROM api_keys k JOIN users u ON u.id = k.user_id";

async fn load(pool: &crate::sql::Db, id: i64) -> ApiResult<ApiKey> {
    crate::sql::find_by_id::<KeyRow, ApiKey>(pool, &format!("{SELECT} WHERE k.id = $1"), id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("API key {id}")))
}

/// GET /api_keys: every key, newest first (revoked ones too).
#[utoipa::path(get, path = "/api_keys", operation_id = "api_keys_list", tag = "api_keys",
    responses((status = 200, description = "Every key, newest first (never a secret)", body = Vec<ApiKey>)))]
async fn list(State(state): State<AppState>) -> ApiResult<Json<Vec<ApiKey>>> {
    let rows = crate::sql::query_as::<KeyRow>(&format!("{SELECT} ORDER BY k.id DESC"))
        .fetch_all(&state.pool)
        .await?;
    Ok(Json(rows.into_iter().map(ApiKey::from).collect()))
}

/// POST /api_keys `{name, read_only}` → 201 the key with `api_key` (the secret, only
/// here). Errors: 422 `name`.
#[utoipa::path(post, path = "/api_keys", operation_id = "api_keys_create", tag = "api_keys",
    request_body = NewApiKey,
    responses((status = 201, description = "The key with `api_key`, the secret (only here)", body = ApiKey)))]
async fn create(
    Write(state, caller, body): Write<NewApiKey>,
) -> ApiResult<(StatusCode, Json<ApiKey>)> {
    let mut e = FieldErrors::new();
    require_text(&mut e, "name", body.name.as_ref());
    ApiError::check(e)?;
    let name = body.name.as_deref().unwrap_or("").trim();
    let (info, secret) = crate::access::auth::create_key_for(
        &state.pool,
        caller.user_id,
        name,
        body.read_only.unwrap_or(false),
        KIND_API,
    )
    .await?;
    let mut key = load(&state.pool, info.id).await?;
    key.api_key = Some(secret);
    Ok((StatusCode::CREATED, Json(key)))
}

/// DELETE /api_keys/{id}: revokes the key (204; also when revoked already). Errors: 404;
/// 422 on `id` for the key of the request itself (no one locks themselves out by mistake).
#[utoipa::path(delete, path = "/api_keys/{id}", operation_id = "api_keys_revoke", tag = "api_keys",
    params(IdPath),
    responses((status = 204, description = "Revoked (also when revoked already)")))]
async fn revoke(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
    IdPath(id): IdPath,
) -> ApiResult<StatusCode> {
    load(&state.pool, id).await?;
    if id == caller.key_id {
        // The key of this request: signing out (`DELETE /session`) ends it on purpose.
        return Err(ApiError::field("id", messages::IS_KEY_OF_THIS_REQUEST));
    }
    crate::access::auth::revoke_key(&state.pool, id).await?;
    Ok(StatusCode::NO_CONTENT)
}
