//! `/activities`: time sheet entries (interface.md § Time sheet entry). Invoice items
//! bill them through `activity_ids` ([`crate::billable::billing`]).

use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{IdPath, JsonBody};
use crate::http::pagination::PageOf;
use crate::lists::{ListQuery, Listing};
use crate::master_data::id_name;
use crate::state::AppState;
use crate::store::db::{now, ts, Dec, Ts};
use axum::extract::State;
use axum::{Extension, Json};
use chrono::NaiveDate;
use kontor_model::billing::{Activity, BillableRef, NewActivity};
use kontor_model::error::messages;
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::query::one;
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes `/activities` and `/activities/{id}`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(get_one))
}

const COLUMNS: &str = "a.*, p.name AS project_name, p.billable AS project_billable, p.customer_id, c.name AS customer_name,
    t.name AS task_name, t.billable AS task_billable, u.firstname AS u_firstname, u.lastname AS u_lastname";
const FROM: &str = "FROM activities a JOIN projects p ON p.id = a.project_id LEFT JOIN companies c ON c.id = p.customer_id
    LEFT JOIN tasks t ON t.id = a.task_id LEFT JOIN users u ON u.id = a.user_id";

#[derive(sqlx_macros::FromRow)]
struct ActivityRow {
    id: i64,
    date: NaiveDate,
    hours: Dec,
    description: String,
    billable: bool,
    billed: bool,
    tag: String,
    remote_service: String,
    remote_id: String,
    remote_url: String,
    project_id: i64,
    task_id: Option<i64>,
    user_id: Option<i64>,
    hourly_rate: Dec,
    timer_started_at: Option<Ts>,
    invoice_id: Option<i64>,
    created_at: Ts,
    updated_at: Ts,
    project_name: String,
    project_billable: bool,
    customer_id: i64,
    customer_name: Option<String>,
    task_name: Option<String>,
    task_billable: Option<bool>,
    u_firstname: Option<String>,
    u_lastname: Option<String>,
}

impl From<ActivityRow> for Activity {
    fn from(r: ActivityRow) -> Self {
        Activity {
            id: r.id,
            date: r.date,
            hours: r.hours.0,
            description: r.description,
            billed: r.billed,
            billable: r.billable,
            tag: r.tag,
            remote_service: r.remote_service,
            remote_id: r.remote_id,
            remote_url: r.remote_url,
            project: BillableRef {
                id: r.project_id,
                name: r.project_name,
                billable: r.project_billable,
            },
            task: match (r.task_id, r.task_name) {
                (Some(id), Some(name)) => Some(BillableRef {
                    id,
                    name,
                    billable: r.task_billable.unwrap_or(true),
                }),
                _ => None,
            },
            customer: id_name(r.customer_id, r.customer_name),
            user: crate::users::user_ref(r.user_id, r.u_firstname, r.u_lastname),
            timer_started_at: r.timer_started_at.map(|t| t.to_string()),
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
            hourly_rate: r.hourly_rate.0,
            invoice_id: r.invoice_id,
        }
    }
}

/// The activities billed by invoice `invoice_id`, by date.
pub async fn of_invoice(pool: &crate::sql::Db, invoice_id: i64) -> ApiResult<Vec<Activity>> {
    let select = format!("SELECT {COLUMNS} {FROM}");
    let rows: Vec<ActivityRow> = super::billed_by(pool, &select, "a", invoice_id).await?;
    Ok(rows.into_iter().map(Activity::from).collect())
}

async fn load(pool: &crate::sql::Db, id: i64) -> ApiResult<Activity> {
    let sql = format!("SELECT {COLUMNS} {FROM} WHERE a.id = $1");
    crate::sql::find_by_id::<ActivityRow, Activity>(pool, &sql, id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("activity {id}")))
}

/// `GET /activities` filters: `project_id`, `invoice_id`, `billable`, `billed`, `from`
/// (or `date_from`), `to` (or `date_to`).
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
struct ActivityQuery {
    /// Only entries of this project.
    #[serde(deserialize_with = "one")]
    project_id: Option<i64>,
    /// Only entries billed by this invoice.
    #[serde(deserialize_with = "one")]
    invoice_id: Option<i64>,
    /// Only billable (`true`) or non-billable (`false`) entries.
    #[serde(deserialize_with = "one")]
    billable: Option<bool>,
    /// Only billed (`true`) or unbilled (`false`) entries.
    #[serde(deserialize_with = "one")]
    billed: Option<bool>,
    /// Entries on or after this day, `YYYY-MM-DD` (`date_from` is another name for it).
    #[serde(alias = "date_from", deserialize_with = "one")]
    #[param(value_type = Option<String>, format = Date, pattern = "^(19[0-9]{2}|2[0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$")]
    from: Option<chrono::NaiveDate>,
    /// Entries on or before this day, `YYYY-MM-DD` (`date_to` is another name for it).
    #[serde(alias = "date_to", deserialize_with = "one")]
    #[param(value_type = Option<String>, format = Date, pattern = "^(19[0-9]{2}|2[0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$")]
    to: Option<chrono::NaiveDate>,
}

/// GET /activities: filters `project_id`, `billable`, `billed`, `from`, `to`, `invoice_id`.
#[utoipa::path(get, path = "/activities", operation_id = "activities_list", tag = "activities",
    params(kontor_model::query::ListParams, ActivityQuery),
    responses((status = 200, description = "One page of time sheet entries", body = Vec<Activity>)))]
async fn list(
    State(state): State<AppState>,
    list: ListQuery<ActivityQuery>,
) -> ApiResult<PageOf<Activity>> {
    let filter = &list.filter;
    let mut conds: Vec<(&str, crate::sql::Arg<'static>)> = Vec::new();
    let ids = [
        ("a.project_id = ", filter.project_id),
        ("a.invoice_id = ", filter.invoice_id),
    ];
    for (cond, id) in ids {
        if let Some(id) = id {
            conds.push((cond, id.into()));
        }
    }
    for (cond, flag) in [
        ("a.billable = ", filter.billable),
        ("a.billed = ", filter.billed),
    ] {
        if let Some(flag) = flag {
            conds.push((cond, flag.into()));
        }
    }
    for (cond, date) in [("a.date >= ", filter.from), ("a.date <= ", filter.to)] {
        if let Some(date) = date {
            conds.push((cond, date.into()));
        }
    }
    let listing = Listing {
        columns: COLUMNS,
        from: FROM,
        alias: "a",
        custom_properties: false,
        sorts: &[
            ("date", "a.date"),
            ("hours", "CAST(a.hours AS REAL)"),
            ("created_at", "a.created_at"),
        ],
        default_order: "a.date DESC, a.id DESC",
        id: "a.id",
    };
    list.fetch::<ActivityRow, Activity>(&state.pool, &listing, |qb| {
        qb.push(" WHERE TRUE");
        for (cond, value) in &conds {
            qb.push(" AND ").push(*cond).push_bind(value.clone());
        }
    })
    .await
}

/// GET /activities/{id} → the time sheet entry. Errors: 404.
#[utoipa::path(get, path = "/activities/{id}", operation_id = "activities_get", tag = "activities",
    params(IdPath),
    responses((status = 200, description = "The entry", body = Activity)))]
async fn get_one(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<Json<Activity>> {
    load(&state.pool, id).await.map(Json)
}

/// POST /activities → 200 with the entry. Errors: 422 (date, hours > 0, unknown project,
/// task or user, negative rate).
#[utoipa::path(post, path = "/activities", operation_id = "activities_create", tag = "activities",
    request_body = NewActivity,
    responses((status = 200, description = "The created entry", body = Activity)))]
async fn create(
    State(state): State<AppState>,
    Extension(caller): Extension<crate::access::auth::Caller>,
    JsonBody(body): JsonBody<NewActivity>,
) -> ApiResult<Json<Activity>> {
    let mut e = FieldErrors::new();
    if body.date.is_none() {
        push_error(&mut e, "date", messages::IS_REQUIRED);
    }
    let default_currency = crate::account::default_currency(&state.pool).await?;
    let amounts = kontor_model::validation::validate_activity_amounts(
        body.hours,
        body.hourly_rate,
        &default_currency,
    );
    for (field, messages) in amounts {
        e.entry(field).or_default().extend(messages);
    }
    match body.project_id {
        None => push_error(&mut e, "project_id", messages::IS_REQUIRED),
        Some(p)
            if crate::master_data::projects::find(&state.pool, p)
                .await?
                .is_none() =>
        {
            push_error(&mut e, "project_id", messages::DOES_NOT_EXIST)
        }
        _ => {}
    }
    if let Some(t) = body.task_id {
        let exists: Option<i64> = crate::sql::query_scalar("SELECT id FROM tasks WHERE id = $1")
            .bind(t)
            .fetch_optional(&state.pool)
            .await?;
        if exists.is_none() {
            push_error(&mut e, "task_id", messages::DOES_NOT_EXIST);
        }
    }
    if let Some(u) = body.user_id {
        if crate::users::load(&state.pool, u).await.is_err() {
            push_error(&mut e, "user_id", messages::DOES_NOT_EXIST);
        }
    }
    ApiError::check(e)?;
    let _guard = state.write_lock.lock().await;
    let t = ts(now());
    let insert = crate::sql::query_scalar(
        "INSERT INTO activities (date, hours, description, billable, tag, project_id, task_id, user_id, hourly_rate, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id",
    )
    .bind(body.date)
    .bind(body.hours)
    .bind(body.description.as_deref().unwrap_or("").trim())
    .bind(body.billable.unwrap_or(true))
    .bind(body.tag.as_deref().unwrap_or(""))
    .bind(body.project_id)
    .bind(body.task_id)
    .bind(body.user_id.unwrap_or(caller.user_id))
    .bind(body.hourly_rate.unwrap_or_default())
    .bind(t)
    .bind(t);
    let id: i64 = crate::store::db::insert_returning_id(&state.pool, insert).await?;
    load(&state.pool, id).await.map(Json)
}
