//! `/projects/{id}/expenses` and `/projects/{id}/expenses/{expense_id}`: project expenses (interface.md § Invoiced expense). Invoice
//! items bill them through `expense_ids` ([`crate::billable::billing`]).

use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{IdPath, JsonBody};
use crate::http::pagination::PageOf;
use crate::lists::ListQuery;
use crate::master_data::id_name;
use crate::state::AppState;
use crate::store::db::{json_map, now, ts, Dec, Ts};
use axum::extract::{Path, State};
use axum::Json;
use chrono::NaiveDate;
use kontor_model::arith::mul_round;
use kontor_model::billing::{Expense, NewExpense};
use kontor_model::error::messages;
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::money::minor_units;
use kontor_model::validation::validate_expense_amounts;
use rust_decimal::Decimal;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes `/projects/{id}/expenses` and `/projects/{id}/expenses/{expense_id}`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(get_one))
}

const SELECT: &str = "SELECT e.*, p.name AS project_name, p.customer_id, c.name AS customer_name
    FROM expenses e JOIN projects p ON p.id = e.project_id LEFT JOIN companies c ON c.id = p.customer_id";

#[derive(sqlx_macros::FromRow)]
struct ExpenseRow {
    id: i64,
    project_id: i64,
    date: NaiveDate,
    title: String,
    description: String,
    quantity: Dec,
    unit: String,
    unit_price: Dec,
    unit_cost: Dec,
    currency: String,
    budget_relevant: bool,
    billable: bool,
    billed: bool,
    service_period_from: Option<NaiveDate>,
    service_period_to: Option<NaiveDate>,
    custom_properties: String,
    purchase_id: Option<i64>,
    purchase_item_id: Option<i64>,
    invoice_id: Option<i64>,
    created_at: Ts,
    updated_at: Ts,
    project_name: String,
    customer_id: i64,
    customer_name: Option<String>,
}

impl TryFrom<ExpenseRow> for Expense {
    type Error = ApiError;

    /// Errors (500) when a stored product does not fit (a row written before amounts were
    /// range-checked), never panics.
    fn try_from(r: ExpenseRow) -> ApiResult<Self> {
        let quantity = r.quantity.0;
        let unit_price = r.unit_price.0;
        let unit_cost = r.unit_cost.0;
        let places = minor_units(&r.currency);
        let product = |price: Decimal| {
            mul_round(quantity, price, places).ok_or_else(|| {
                ApiError::Internal(format!("expense {}: stored amounts overflow", r.id))
            })
        };
        let price = product(unit_price)?;
        let cost = product(unit_cost)?;
        Ok(Expense {
            id: r.id,
            date: r.date,
            title: r.title,
            description: r.description,
            price,
            cost,
            quantity,
            unit: r.unit,
            unit_price,
            unit_cost,
            currency: r.currency,
            budget_relevant: r.budget_relevant,
            billable: r.billable,
            billed: r.billed,
            service_period: r.service_period_from.map(|d| d.format("%m/%Y").to_string()),
            service_period_from: r.service_period_from,
            service_period_to: r.service_period_to,
            file_url: None,
            custom_properties: json_map(&r.custom_properties),
            company: id_name(r.customer_id, r.customer_name),
            project: id_name(r.project_id, Some(r.project_name)),
            purchase_id: r.purchase_id,
            purchase_item_id: r.purchase_item_id,
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
            invoice_id: r.invoice_id,
        })
    }
}

/// The expenses billed by invoice `invoice_id`, by date.
pub async fn of_invoice(pool: &crate::sql::Db, invoice_id: i64) -> ApiResult<Vec<Expense>> {
    let rows: Vec<ExpenseRow> = super::billed_by(pool, SELECT, "e", invoice_id).await?;
    rows.into_iter().map(Expense::try_from).collect()
}

async fn project_exists(pool: &crate::sql::Db, id: i64) -> ApiResult<()> {
    crate::master_data::projects::find(pool, id)
        .await?
        .map(|_| ())
        .ok_or_else(|| ApiError::not_found(format!("project {id}")))
}

/// List a project's expenses.
///
/// GET /projects/{id}/expenses → the project's expenses, newest first, paged like every
/// list. Errors: 404 (project), 400 naming a malformed paging parameter.
#[utoipa::path(get, path = "/projects/{id}/expenses", operation_id = "expenses_list", tag = "expenses",
    params(IdPath, kontor_model::query::ListParams),
    responses((status = 200, description = "One page of the project's expenses, newest first.", body = Vec<Expense>)))]
async fn list(
    State(state): State<AppState>,
    IdPath(project_id): IdPath,
    list: ListQuery,
) -> ApiResult<PageOf<Expense>> {
    project_exists(&state.pool, project_id).await?;
    let rows: Vec<ExpenseRow> = crate::sql::query_as(&format!(
        "{SELECT} WHERE e.project_id = $1 ORDER BY e.date DESC, e.id DESC"
    ))
    .bind(project_id)
    .fetch_all(&state.pool)
    .await?;
    rows.into_iter()
        .map(Expense::try_from)
        .collect::<ApiResult<_>>()
        .map(|all| list.slice(all))
}

async fn load(pool: &crate::sql::Db, project_id: i64, id: i64) -> ApiResult<Expense> {
    crate::sql::query_as::<ExpenseRow>(&format!("{SELECT} WHERE e.id = $1 AND e.project_id = $2"))
        .bind(id)
        .bind(project_id)
        .fetch_optional(pool)
        .await?
        .map(Expense::try_from)
        .transpose()?
        .ok_or_else(|| ApiError::not_found(format!("expense {id}")))
}

/// Get a project expense.
///
/// GET /projects/{id}/expenses/{expense_id} → the expense. Errors: 404 (unknown expense,
/// or one of another project).
#[utoipa::path(get, path = "/projects/{id}/expenses/{expense_id}", operation_id = "expenses_get", tag = "expenses",
    params(IdPath, ("expense_id" = i64, Path, description = "Expense id.")),
    responses((status = 200, description = "The expense.", body = Expense)))]
async fn get_one(
    State(state): State<AppState>,
    Path((project_id, id)): Path<(String, String)>,
) -> ApiResult<Json<Expense>> {
    let (Ok(project_id), Ok(id)) = (project_id.parse(), id.parse()) else {
        return Err(ApiError::not_found("expense"));
    };
    load(&state.pool, project_id, id).await.map(Json)
}

/// Create a project expense.
///
/// POST /projects/{id}/expenses → 200 with the expense. Errors: 404 (project); 422.
#[utoipa::path(post, path = "/projects/{id}/expenses", operation_id = "expenses_create", tag = "expenses",
    params(IdPath), request_body = NewExpense,
    responses((status = 200, description = "The created expense.", body = Expense)))]
async fn create(
    State(state): State<AppState>,
    IdPath(project_id): IdPath,
    JsonBody(body): JsonBody<NewExpense>,
) -> ApiResult<Json<Expense>> {
    let project = crate::master_data::projects::find(&state.pool, project_id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("project {project_id}")))?;
    let mut e = FieldErrors::new();
    if body.date.is_none() {
        push_error(&mut e, "date", messages::IS_REQUIRED);
    }
    if body
        .title
        .as_deref()
        .map(str::trim)
        .unwrap_or("")
        .is_empty()
    {
        push_error(&mut e, "title", messages::IS_REQUIRED);
    }
    if body.unit_price.is_none() {
        push_error(&mut e, "unit_price", messages::IS_REQUIRED);
    }
    let account_currencies = crate::account::currencies(&state.pool).await?;
    let currency = body
        .currency
        .clone()
        .or(project.currency.clone())
        .unwrap_or_else(|| account_currencies.first().cloned().unwrap_or_default());
    crate::account::check_currency(&mut e, &account_currencies, &currency);
    for (field, messages) in validate_expense_amounts(&body, &currency) {
        e.entry(field).or_default().extend(messages);
    }
    ApiError::check(e)?;
    let _guard = state.write_lock.lock().await;
    let t = ts(now());
    let insert = crate::sql::query_scalar(
        "INSERT INTO expenses (project_id, date, title, description, quantity, unit, unit_price, unit_cost, currency, billable, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
    )
    .bind(project_id)
    .bind(body.date)
    .bind(body.title.as_deref().map(str::trim))
    .bind(crate::input::sanitize::html(body.description.as_deref().unwrap_or("")))
    .bind(body.quantity.unwrap_or(Decimal::ONE))
    .bind(body.unit.as_deref().unwrap_or(""))
    .bind(body.unit_price)
    .bind(body.unit_cost.unwrap_or_default())
    .bind(currency)
    .bind(body.billable.unwrap_or(true))
    .bind(t)
    .bind(t);
    let id: i64 = crate::store::db::insert_returning_id(&state.pool, insert).await?;
    load(&state.pool, project_id, id).await.map(Json)
}
