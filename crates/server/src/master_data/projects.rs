//! `/projects` (`decisions.md` § Supporting resources; issue 9 contract § Project). List
//! filters: `company_id` (alias `customer_id`), `term` (name), `active`, plus the global
//! filters. `PUT` is a partial update with the creation rules; `{"active": false}`
//! archives.

use super::patch::{check_patch_types, merged_body};
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{IdPath, JsonBody};
use crate::http::pagination::PageOf;
use crate::lists::{like_pattern, ListQuery, Listing};
use crate::state::AppState;
use crate::store::db::{now, ts, Ts};
use axum::extract::State;
use axum::Json;
use kontor_model::error::FieldErrors;
use kontor_model::master_data::{errors_of_patch, validate_project, PROJECT_KEEP_ON_NULL};
use kontor_model::party::{NewProject, Project};
use kontor_model::query::one;
use serde::Deserialize;
use serde_json::Value;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes `/projects` and `/projects/{id}`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(get_one, update))
}

#[derive(sqlx_macros::FromRow)]
struct ProjectRow {
    id: i64,
    name: String,
    customer_id: i64,
    customer_name: Option<String>,
    currency: Option<String>,
    billing_email_to: Option<String>,
    billing_email_cc: Option<String>,
    billing_address: Option<String>,
    active: bool,
    created_at: Ts,
    updated_at: Ts,
}

impl From<ProjectRow> for Project {
    fn from(r: ProjectRow) -> Self {
        Project {
            id: r.id,
            name: r.name,
            customer: super::id_name(r.customer_id, r.customer_name),
            currency: r.currency,
            billing_email_to: r.billing_email_to,
            billing_email_cc: r.billing_email_cc,
            billing_address: r.billing_address,
            active: r.active,
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
        }
    }
}

const COLUMNS: &str = "p.*, c.name AS customer_name";
const FROM: &str = "FROM projects p LEFT JOIN companies c ON c.id = p.customer_id";

/// Loads project `id` if it exists.
pub async fn find(pool: &crate::sql::Db, id: i64) -> ApiResult<Option<Project>> {
    let sql = format!("SELECT {COLUMNS} {FROM} WHERE p.id = $1");
    Ok(crate::sql::find_by_id::<ProjectRow, _>(pool, &sql, id).await?)
}

/// `GET /projects` filters: `company_id` (or `customer_id`), `term` (or `name`),
/// `active` (`true`/`false`; absent: all).
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
struct ProjectQuery {
    /// Only projects of this customer (`customer_id` is another name for it).
    #[serde(alias = "customer_id", deserialize_with = "one")]
    company_id: Option<i64>,
    /// Part of the name, case-insensitive (`name` is another name for it).
    #[serde(alias = "name", deserialize_with = "one")]
    term: Option<String>,
    /// `true`: active only; `false`: archived only; absent: all.
    #[serde(deserialize_with = "one")]
    active: Option<bool>,
}

/// GET /projects → one page of projects. Errors: 400 for a malformed filter.
#[utoipa::path(get, path = "/projects", operation_id = "projects_list", tag = "projects",
    params(kontor_model::query::ListParams, ProjectQuery),
    responses((status = 200, description = "One page of projects", body = Vec<Project>)))]
async fn list(
    State(state): State<AppState>,
    list: ListQuery<ProjectQuery>,
) -> ApiResult<PageOf<Project>> {
    let (company, active) = (list.filter.company_id, list.filter.active);
    let term = list.filter.term.as_deref().map(like_pattern);
    let listing = Listing {
        columns: COLUMNS,
        from: FROM,
        alias: "p",
        custom_properties: false,
        sorts: &[
            ("name", "p.name"),
            ("created_at", "p.created_at"),
            ("updated_at", "p.updated_at"),
        ],
        default_order: "kontor_fold(p.name) ASC, p.id ASC",
        id: "p.id",
    };
    list.fetch::<ProjectRow, Project>(&state.pool, &listing, |qb| {
        qb.push(" WHERE TRUE");
        if let Some(c) = company {
            qb.push(" AND p.customer_id = ").push_bind(c);
        }
        if let Some(t) = &term {
            qb.push(format!(" AND {}", crate::sql::functions::like("p.name")))
                .push_bind(t.clone())
                .push(crate::sql::functions::LIKE_END);
        }
        if let Some(a) = active {
            qb.push(" AND p.active = ").push_bind(a);
        }
    })
    .await
}

/// GET /projects/{id} → the project. Errors: 404.
#[utoipa::path(get, path = "/projects/{id}", operation_id = "projects_get", tag = "projects",
    params(IdPath),
    responses((status = 200, description = "The project", body = Project)))]
async fn get_one(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<Json<Project>> {
    find(&state.pool, id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::not_found(format!("project {id}")))
}

/// The model's project rules plus: the customer exists, the currency is the account's.
async fn validate(state: &AppState, body: &NewProject) -> ApiResult<FieldErrors> {
    let mut e = validate_project(body);
    super::companies::check_exists(&state.pool, &mut e, "customer_id", body.customer_id).await?;
    if let Some(c) = &body.currency {
        let currencies = crate::account::currencies(&state.pool).await?;
        crate::account::check_currency(&mut e, &currencies, c);
    }
    Ok(e)
}

/// POST /projects → 200 with the project. Errors: 422 naming each bad field.
#[utoipa::path(post, path = "/projects", operation_id = "projects_create", tag = "projects",
    request_body = NewProject,
    responses((status = 200, description = "The created project", body = Project)))]
async fn create(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<NewProject>,
) -> ApiResult<Json<Project>> {
    ApiError::check(validate(&state, &body).await?)?;
    let _guard = state.write_lock.lock().await;
    let id = insert(&state.pool, &body).await?;
    written(&state.pool, id).await
}

/// Project `id` as just written, for the answer. Errors: 500 when it is gone.
async fn written(pool: &crate::sql::Db, id: i64) -> ApiResult<Json<Project>> {
    find(pool, id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::Internal("project vanished".into()))
}

/// PUT /projects/{id}: partial update with the creation rules (absent: unchanged; `null`:
/// cleared, except `name`, `customer_id` and `active`); `{"active": false}` archives,
/// `{"active": true}` restores. → 200 with the project. Errors: 404; 422 naming each bad
/// field (nothing stored).
#[utoipa::path(put, path = "/projects/{id}", operation_id = "projects_update", tag = "projects",
    params(IdPath), request_body(content = NewProject, description = "The fields to change (absent: unchanged; `null`: cleared)"),
    responses((status = 200, description = "The updated project", body = Project)))]
async fn update(
    State(state): State<AppState>,
    IdPath(id): IdPath,
    JsonBody(patch): JsonBody<Value>,
) -> ApiResult<Json<Project>> {
    check_patch_types::<NewProject>(&patch)?;
    let _guard = state.write_lock.lock().await;
    let stored = find(&state.pool, id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("project {id}")))?;
    let body = merged_body(&NewProject::from(&stored), &patch, PROJECT_KEEP_ON_NULL)?;
    ApiError::check(errors_of_patch(validate(&state, &body).await?, &patch))?;
    let blank = |v: &Option<String>| {
        v.as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    };
    crate::sql::query(
        "UPDATE projects SET name = $1, customer_id = $2, currency = $3, billing_email_to = $4, billing_email_cc = $5, \
         billing_address = $6, active = $7, updated_at = $8 WHERE id = $9",
    )
    .bind(body.name.as_deref().map(str::trim))
    .bind(body.customer_id)
    .bind(blank(&body.currency))
    .bind(blank(&body.billing_email_to))
    .bind(blank(&body.billing_email_cc))
    .bind(blank(&body.billing_address))
    .bind(body.active.unwrap_or(true))
    .bind(ts(now()))
    .bind(id)
    .execute(&state.pool)
    .await?;
    written(&state.pool, id).await
}

/// Inserts a validated project; returns its id.
pub async fn insert(pool: &crate::sql::Db, body: &NewProject) -> ApiResult<i64> {
    let t = ts(now());
    let insert = crate::sql::query_scalar(
        "INSERT INTO projects (name, customer_id, currency, billing_email_to, billing_email_cc, billing_address, active, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
    )
    .bind(body.name.as_deref().map(str::trim))
    .bind(body.customer_id)
    .bind(body.currency.as_deref())
    .bind(body.billing_email_to.as_deref())
    .bind(body.billing_email_cc.as_deref())
    .bind(body.billing_address.as_deref())
    .bind(body.active.unwrap_or(true))
    .bind(t)
    .bind(t);
    Ok(crate::store::db::insert_returning_id(pool, insert).await?)
}
