//! `/dunning_levels` and `/base_rates` (issue 14 § Rules, `docs/decisions.md` § Dunning):
//! the account's dunning levels — days, fee, § 288 (5) flat fee and the letter text per
//! language — and its table of base rates (§ 247 BGB) for default interest. `GET` for
//! everyone signed in, `PUT` for admins (the whole list, checked by [`validate_levels`] /
//! [`validate_base_rates`]). Stored as JSON in `account_settings` (migration 0020); never
//! changed, they are [`default_levels`] / [`published_base_rates`].

use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::JsonBody;
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use kontor_model::dunning::{
    default_levels, published_base_rates, validate_base_rates, validate_levels, BaseRate,
    BaseRates, DunningLevel, DunningLevels,
};

/// Routes `/dunning_levels` and `/base_rates`.
pub fn router() -> utoipa_axum::router::OpenApiRouter<AppState> {
    utoipa_axum::router::OpenApiRouter::new()
        .routes(utoipa_axum::routes!(get_levels, put_levels))
        .routes(utoipa_axum::routes!(get_base_rates, put_base_rates))
}

/// The JSON value stored in the settings column `column`, `None` when none was stored.
/// Errors: 500 when it is not valid JSON of `T`.
async fn stored<T: serde::de::DeserializeOwned>(
    conn: &mut crate::sql::Tx,
    column: &str,
) -> ApiResult<Option<T>> {
    let text: Option<String> = crate::sql::query_scalar(&format!(
        "SELECT {column} FROM account_settings WHERE id = 1"
    ))
    .fetch_optional(conn)
    .await?
    .flatten();
    text.map(|text| {
        serde_json::from_str(&text).map_err(|e| ApiError::Internal(format!("stored {column}: {e}")))
    })
    .transpose()
}

/// The account's levels: the stored list, or [`default_levels`] when none was stored.
/// Errors: 500 when the stored list is not valid JSON of [`DunningLevels`].
pub async fn load(conn: &mut crate::sql::Tx) -> ApiResult<Vec<DunningLevel>> {
    Ok(stored::<DunningLevels>(conn, "dunning_levels")
        .await?
        .map_or_else(default_levels, |l| l.levels))
}

/// GET /dunning_levels → 200 [`DunningLevels`]. Errors: 500 for a corrupt stored list.
#[utoipa::path(get, path = "/dunning_levels", operation_id = "dunning_levels_get", tag = "dunning_levels",
    responses((status = 200, description = "The account's dunning levels", body = DunningLevels)))]
pub async fn get_levels(State(state): State<AppState>) -> ApiResult<Json<DunningLevels>> {
    let mut conn = state.pool.acquire().await?;
    Ok(Json(DunningLevels {
        levels: load(&mut conn).await?,
    }))
}

/// PUT /dunning_levels with [`DunningLevels`] → 200 the stored levels. Admins only
/// (`roles::TABLE`). Errors: 415/400 for a body that is not the JSON shape, 422 keyed
/// `levels[i].field` for a level that breaks [`validate_levels`] (numbering, days 0–365,
/// fee 0–10,000, blank names or texts, unknown placeholders).
#[utoipa::path(put, path = "/dunning_levels", operation_id = "dunning_levels_update", tag = "dunning_levels",
    request_body = DunningLevels,
    responses((status = 200, description = "The stored levels", body = DunningLevels)))]
pub async fn put_levels(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<DunningLevels>,
) -> ApiResult<Json<DunningLevels>> {
    if let Err(errors) = validate_levels(&body.levels) {
        ApiError::check(errors)?;
    }
    store(&state, "dunning_levels", &body).await?;
    let mut conn = state.pool.acquire().await?;
    let levels = load(&mut conn).await?;
    Ok(Json(DunningLevels { levels }))
}

/// The account's base rates: the stored table, or [`published_base_rates`] when none was
/// stored. Errors: 500 when the stored table is not valid JSON of [`BaseRates`].
pub async fn load_base_rates(conn: &mut crate::sql::Tx) -> ApiResult<Vec<BaseRate>> {
    Ok(stored::<BaseRates>(conn, "base_rates")
        .await?
        .map_or_else(published_base_rates, |t| t.base_rates))
}

/// GET /base_rates → 200 [`BaseRates`]. Errors: 500 for a corrupt stored table.
#[utoipa::path(get, path = "/base_rates", operation_id = "base_rates_get", tag = "base_rates",
    responses((status = 200, description = "The account's base rates (§ 247 BGB)", body = BaseRates)))]
pub async fn get_base_rates(State(state): State<AppState>) -> ApiResult<Json<BaseRates>> {
    let mut conn = state.pool.acquire().await?;
    Ok(Json(BaseRates {
        base_rates: load_base_rates(&mut conn).await?,
    }))
}

/// PUT /base_rates with [`BaseRates`] → 200 the stored table. Admins only
/// (`roles::TABLE`). Errors: 415/400 for a body that is not the JSON shape, 422 keyed
/// `base_rates[i].from` / `.rate` for rows out of date order or rates outside −10…20 %.
#[utoipa::path(put, path = "/base_rates", operation_id = "base_rates_update", tag = "base_rates",
    request_body = BaseRates,
    responses((status = 200, description = "The stored table", body = BaseRates)))]
pub async fn put_base_rates(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<BaseRates>,
) -> ApiResult<Json<BaseRates>> {
    if let Err(errors) = validate_base_rates(&body.base_rates) {
        ApiError::check(errors)?;
    }
    store(&state, "base_rates", &body).await?;
    let mut conn = state.pool.acquire().await?;
    Ok(Json(BaseRates {
        base_rates: load_base_rates(&mut conn).await?,
    }))
}

/// Writes `value` as JSON into the settings column `column` under the write lock.
/// Errors: 500 when the settings row is missing or the database fails.
async fn store<T: serde::Serialize>(state: &AppState, column: &str, value: &T) -> ApiResult<()> {
    let text = serde_json::to_string(value)
        .map_err(|e| ApiError::Internal(format!("writing {column}: {e}")))?;
    let _guard = state.write_lock.lock().await;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let changed = crate::sql::query(&format!(
        "UPDATE account_settings SET {column} = $1 WHERE id = 1"
    ))
    .bind(&text)
    .execute(&mut tx)
    .await?
    .rows_affected();
    if changed != 1 {
        return Err(ApiError::Internal(
            "the account settings row is missing".into(),
        ));
    }
    tx.commit().await?;
    Ok(())
}
