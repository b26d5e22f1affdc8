//! `/deals` (`decisions.md` § Supporting resources): `name`, `company`, `currency`,
//! `status`. List filters: `company_id`, `status`, plus the global filters.

use crate::db::{now, ts, Ts};
use crate::error::{ApiError, ApiResult};
use crate::extract::{IdPath, JsonBody};
use crate::listing::{fetch_page, order_by, push_global, ListQuery};
use crate::pagination::PageOf;
use crate::state::AppState;
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use kontor_model::error::{push_error, require_text, FieldErrors};
use kontor_model::party::{Deal, IdName, NewDeal};
use kontor_model::query::one;
use serde::Deserialize;
use sqlx::{QueryBuilder, Sqlite, SqlitePool};

/// Routes `/deals` and `/deals/{id}`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/deals", get(list).post(create))
        .route("/deals/{id}", get(get_one))
}

const COLUMNS: &str = "d.*, c.name AS company_name";
const FROM: &str = "FROM deals d LEFT JOIN companies c ON c.id = d.company_id";

#[derive(sqlx::FromRow)]
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
            company: r.company_name.map(|name| IdName {
                id: r.company_id,
                name,
            }),
            currency: r.currency,
            status: r.status,
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
        }
    }
}

/// Loads deal `id` if it exists.
pub async fn find(pool: &SqlitePool, id: i64) -> ApiResult<Option<Deal>> {
    Ok(
        sqlx::query_as::<_, DealRow>(&format!("SELECT {COLUMNS} {FROM} WHERE d.id = ?"))
            .bind(id)
            .fetch_optional(pool)
            .await?
            .map(Deal::from),
    )
}

/// `GET /deals` filters: `company_id`, `status`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct DealQuery {
    #[serde(deserialize_with = "one")]
    company_id: Option<i64>,
    #[serde(deserialize_with = "one")]
    status: Option<String>,
}

async fn list(
    State(state): State<AppState>,
    list: ListQuery<DealQuery>,
) -> ApiResult<PageOf<Deal>> {
    let ListQuery {
        filter,
        paging,
        global,
        url,
    } = list;
    let (company, status) = (filter.company_id, filter.status);
    let order = order_by(
        paging.sort_by.as_deref(),
        &[("name", "d.name"), ("created_at", "d.created_at")],
        "d.name COLLATE NOCASE ASC, d.id ASC",
        "d.id",
    )?;
    let push_where = |qb: &mut QueryBuilder<'_, Sqlite>| {
        qb.push(" WHERE 1");
        if let Some(c) = company {
            qb.push(" AND d.company_id = ").push_bind(c);
        }
        if let Some(s) = &status {
            qb.push(" AND d.status = ").push_bind(s.clone());
        }
        push_global(qb, &global, "d", false);
    };
    let (items, total) =
        fetch_page::<DealRow, Deal>(&state.pool, COLUMNS, FROM, push_where, &order, &paging)
            .await?;
    Ok(PageOf {
        items,
        page: paging.page(),
        per_page: paging.per_page(),
        total,
        url,
    })
}

async fn get_one(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<Json<Deal>> {
    find(&state.pool, id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::not_found(format!("deal {id}")))
}

/// POST /deals → 200 with the deal. Errors: 422 (name, unknown company, currency, status).
async fn create(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<NewDeal>,
) -> ApiResult<Json<Deal>> {
    let mut e = FieldErrors::new();
    require_text(&mut e, "name", body.name.as_ref());
    match body.company_id {
        None => push_error(&mut e, "company_id", "is required"),
        Some(c) if crate::companies::find(&state.pool, c).await?.is_none() => {
            push_error(&mut e, "company_id", "does not exist")
        }
        _ => {}
    }
    if body
        .currency
        .as_ref()
        .is_some_and(|c| !state.account.currencies.contains(c))
    {
        push_error(
            &mut e,
            "currency",
            "must be one of the account's currencies",
        );
    }
    if body
        .status
        .as_deref()
        .is_some_and(|s| !["pending", "won", "lost"].contains(&s))
    {
        push_error(&mut e, "status", "must be pending, won or lost");
    }
    ApiError::check(e)?;
    let _guard = state.write_lock.lock().await;
    let t = ts(now());
    let id: i64 = sqlx::query_scalar("INSERT INTO deals (name, company_id, currency, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id")
        .bind(body.name.as_deref().map(str::trim))
        .bind(body.company_id)
        .bind(body.currency.as_deref())
        .bind(body.status.as_deref().unwrap_or("pending"))
        .bind(&t)
        .bind(&t)
        .fetch_one(&state.pool)
        .await?;
    find(&state.pool, id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::Internal("deal vanished".into()))
}
