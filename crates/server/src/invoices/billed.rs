//! GET /invoices/{id}/timesheet and /invoices/{id}/expenses: what the invoice billed.

use crate::http::error::ApiResult;
use crate::http::extract::IdPath;
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use kontor_model::billing::{Activity, Expense};

/// GET /invoices/{id}/timesheet → the activities billed by the invoice. Errors: 404.
#[utoipa::path(get, path = "/invoices/{id}/timesheet", operation_id = "invoices_timesheet", tag = "invoices",
    params(IdPath),
    responses((status = 200, description = "The activities the invoice billed", body = Vec<Activity>)))]
pub async fn timesheet(
    State(state): State<AppState>,
    IdPath(id): IdPath,
) -> ApiResult<Json<Vec<Activity>>> {
    super::repo::load_row(&state.pool, id).await?;
    crate::billable::activities::of_invoice(&state.pool, id)
        .await
        .map(Json)
}

/// GET /invoices/{id}/expenses → the expenses billed by the invoice. Errors: 404.
#[utoipa::path(get, path = "/invoices/{id}/expenses", operation_id = "invoices_expenses", tag = "invoices",
    params(IdPath),
    responses((status = 200, description = "The expenses the invoice billed", body = Vec<Expense>)))]
pub async fn expenses(
    State(state): State<AppState>,
    IdPath(id): IdPath,
) -> ApiResult<Json<Vec<Expense>>> {
    super::repo::load_row(&state.pool, id).await?;
    crate::billable::expenses::of_invoice(&state.pool, id)
        .await
        .map(Json)
}
