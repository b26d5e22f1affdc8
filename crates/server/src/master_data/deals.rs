//! `/deals` (`decisions.md` § Supporting resources; issue 9 contract § Deal): `name`,
//! `company`, `currency`, `status` (`open`, `won`, `lost`). List filters: `company_id`,
//! `status`, plus the global filters. `PUT` is a partial update with the creation rules.

use super::patch::{check_patch_types, merged_body};
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{IdPath, JsonBody};
use crate::http::pagination::PageOf;
use crate::lists::{ListQuery, Listing};
use crate::state::AppState;
use crate::store::db::{now, ts, Ts};
use axum::extract::State;
use axum::Json;
use kontor_model::error::FieldErrors;
use kontor_model::master_data::{errors_of_patch, validate_deal, DEAL_KEEP_ON_NULL};
use kontor_model::party::{Deal, NewDeal, DEAL_STATUSES};
use kontor_model::query::one;
use serde::Deserialize;
use serde_json::Value;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes `/deals` and `/deals/{id}`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(get_one, update))
}

const COLUMNS: &str = "d.*, c.name AS company_name";
const FROM: &str = "FROM deals d LEFT JOIN companies c ON c.id = d.company_id";

#[derive(sqlx_macros::FromRow)]
struct DealRow {
    id: i64,
    name: String,
    company_id: i64,
    company_name: Option<String>,
    currency: Option<String>,
    status: String,
    created_at: Ts,
    updated_at: Ts,
}

impl From<DealRow> for Deal {
    fn from(r: DealRow) -> Self {
        Deal {
            id: r.id,
            name: r.name,
            company: super::id_name(r.company_id, r.company_name),
            currency: r.currency,
            status: r.status,
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
        }
    }
}

/// Loads deal `id` if it exists.
pub async fn find(pool: &crate::sql::Db, id: i64) -> ApiResult<Option<Deal>> {
    let sql = format!("SELECT {COLUMNS} {FROM} WHERE d.id = $1");
    Ok(crate::sql::find_by_id::<DealRow, _>(pool, &sql, id).await?)
}

/// `GET /deals` filters: `company_id`, `status`.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
struct DealQuery {
    /// Only deals of this company.
    #[serde(deserialize_with = "one")]
    company_id: Option<i64>,
    /// Only deals in this status (`open`, `won`, `lost`; other words match nothing).
    #[serde(deserialize_with = "one")]
    status: Option<String>,
}

/// GET /deals → one page of deals. Errors: 400 for a malformed filter.
#[utoipa::path(get, path = "/deals", operation_id = "deals_list", tag = "deals",
    params(kontor_model::query::ListParams, DealQuery),
    responses((status = 200, description = "One page of deals", body = Vec<Deal>)))]
async fn list(
    State(state): State<AppState>,
    list: ListQuery<DealQuery>,
) -> ApiResult<PageOf<Deal>> {
    let (company, status) = (list.filter.company_id, &list.filter.status);
    let listing = Listing {
        columns: COLUMNS,
        from: FROM,
        alias: "d",
        custom_properties: false,
        sorts: &[("name", "d.name"), ("created_at", "d.created_at")],
        default_order: "kontor_fold(d.name) ASC, d.id ASC",
        id: "d.id",
    };
    list.fetch::<DealRow, Deal>(&state.pool, &listing, |qb| {
        qb.push(" WHERE TRUE");
        if let Some(c) = company {
            qb.push(" AND d.company_id = ").push_bind(c);
        }
        if let Some(s) = status {
            qb.push(" AND d.status = ").push_bind(s.clone());
        }
    })
    .await
}

/// GET /deals/{id} → the deal. Errors: 404.
#[utoipa::path(get, path = "/deals/{id}", operation_id = "deals_get", tag = "deals",
    params(IdPath),
    responses((status = 200, description = "The deal", body = Deal)))]
async fn get_one(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<Json<Deal>> {
    find(&state.pool, id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::not_found(format!("deal {id}")))
}

/// The model's deal rules plus: the company exists, the currency is the account's.
async fn validate(state: &AppState, body: &NewDeal) -> ApiResult<FieldErrors> {
    let mut e = validate_deal(body);
    super::companies::check_exists(&state.pool, &mut e, "company_id", body.company_id).await?;
    let currencies = crate::account::currencies(&state.pool).await?;
    if let Some(c) = &body.currency {
        crate::account::check_currency(&mut e, &currencies, c);
    }
    Ok(e)
}

/// POST /deals → 200 with the deal. Errors: 422 (name, unknown company, currency, status
/// other than open, won, lost).
#[utoipa::path(post, path = "/deals", operation_id = "deals_create", tag = "deals",
    request_body = NewDeal,
    responses((status = 200, description = "The created deal", body = Deal)))]
async fn create(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<NewDeal>,
) -> ApiResult<Json<Deal>> {
    ApiError::check(validate(&state, &body).await?)?;
    let _guard = state.write_lock.lock().await;
    let t = ts(now());
    let insert = crate::sql::query_scalar("INSERT INTO deals (name, company_id, currency, status, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id")
        .bind(body.name.as_deref().map(str::trim))
        .bind(body.company_id)
        .bind(body.currency.as_deref())
        .bind(body.status.as_deref().unwrap_or(DEAL_STATUSES[0]))
        .bind(t)
        .bind(t);
    let id: i64 = crate::store::db::insert_returning_id(&state.pool, insert).await?;
    load(&state.pool, id).await.map(Json)
}

async fn load(pool: &crate::sql::Db, id: i64) -> ApiResult<Deal> {
    find(pool, id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("deal {id}")))
}

/// PUT /deals/{id}: partial update with the creation rules (absent: unchanged; `null`:
/// cleared, except `name`, `company_id` and `status`). → 200 with the deal. Errors: 404;
/// 422 naming each bad field (nothing stored).
#[utoipa::path(put, path = "/deals/{id}", operation_id = "deals_update", tag = "deals",
    params(IdPath), request_body(content = NewDeal, description = "The fields to change (absent: unchanged; `null`: cleared)"),
    responses((status = 200, description = "The updated deal", body = Deal)))]
async fn update(
    State(state): State<AppState>,
    IdPath(id): IdPath,
    JsonBody(patch): JsonBody<Value>,
) -> ApiResult<Json<Deal>> {
    check_patch_types::<NewDeal>(&patch)?;
    let _guard = state.write_lock.lock().await;
    let stored = load(&state.pool, id).await?;
    let body = merged_body(&NewDeal::from(&stored), &patch, DEAL_KEEP_ON_NULL)?;
    ApiError::check(errors_of_patch(validate(&state, &body).await?, &patch))?;
    crate::sql::query("UPDATE deals SET name = $1, company_id = $2, currency = $3, status = $4, updated_at = $5 WHERE id = $6")
        .bind(body.name.as_deref().map(str::trim))
        .bind(body.company_id)
        .bind(body.currency.as_deref())
        .bind(body.status.as_deref().unwrap_or(DEAL_STATUSES[0]))
        .bind(ts(now()))
        .bind(id)
        .execute(&state.pool)
        .await?;
    load(&state.pool, id).await.map(Json)
}
