//! The handlers of `/recurring_invoices`: list, detail, create, replace, delete. A body is
//! checked by the model ([`validate_recurring`]) and then by the invoice creation path on
//! the first run's invoice (references, billing, the e-invoice gate for final invoices),
//! its errors named `template.…`.

use super::job;
use super::repo::{self, Fields};
use crate::access::auth::Caller;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::IdPath;
use crate::http::pagination::PageOf;
use crate::http::write_request::{Write, WriteTo};
use crate::lists::ListQuery;
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use kontor_model::error::messages;
use kontor_model::error::push_error;
use kontor_model::party::Language;
use kontor_model::recipients::invoice_recipients;
use kontor_model::recurring::{
    invoice_body, period_of, prefix_errors, validate_recurring, NewRecurringInvoice,
    RecurringInvoice, RecurringMode,
};

/// Checks `body` completely and returns what is stored. Errors: 422 naming every field
/// (`interval`, `next_date`, `end_date`, `mode`, `template.*`; `mode` when `send` finds no
/// default recipient).
async fn checked(
    state: &AppState,
    caller: &Caller,
    body: NewRecurringInvoice,
) -> ApiResult<Fields> {
    let currencies = crate::account::currencies(&state.pool).await?;
    let mut errors = validate_recurring(&body, &currencies);
    let template_ok = !errors.keys().any(|k| k.starts_with("template"));
    if let (Some(template), Some(next_date), Some(interval), Some(mode), true) = (
        &body.template,
        body.next_date,
        body.interval,
        body.mode,
        template_ok,
    ) {
        if let Some(period) = period_of(interval, next_date) {
            let first = invoice_body(
                template,
                next_date,
                next_date,
                period,
                interval,
                mode,
                Language::En,
            );
            match crate::invoices::prepare_invoice(state, caller, first).await {
                Ok(_) => {}
                Err(ApiError::Invalid(_, fields)) => {
                    errors.extend(prefix_errors(fields, "template"))
                }
                Err(ApiError::Refused(message)) => push_error(&mut errors, "template", message),
                Err(e) => return Err(e),
            }
        }
        if mode == RecurringMode::Send {
            let customer = match template.customer_id {
                Some(id) => crate::master_data::companies::find(&state.pool, id).await?,
                None => None,
            };
            let project = match template.project_id {
                Some(id) => crate::master_data::projects::find(&state.pool, id).await?,
                None => None,
            };
            if customer.is_some()
                && invoice_recipients(project.as_ref(), customer.as_ref())
                    .to
                    .trim()
                    .is_empty()
            {
                push_error(&mut errors, "mode", messages::SEND_NEEDS_DEFAULT_RECIPIENT);
            }
        }
    }
    ApiError::check(errors)?;
    let (Some(mut template), Some(interval), Some(next_date), Some(mode)) =
        (body.template, body.interval, body.next_date, body.mode)
    else {
        return Err(ApiError::Internal("checked body lacks a field".into()));
    };
    // Each run sets these.
    template.date = None;
    template.due_date = None;
    template.service_period_from = None;
    template.service_period_to = None;
    template.status = None;
    Ok(Fields {
        template,
        interval,
        next_date,
        end_date: body.end_date,
        mode,
    })
}

/// Runs schedule `id` at once when its next date is today or earlier; a failure is
/// logged (the schedule is saved and the hourly job retries).
async fn run_if_due(state: &AppState, id: i64, fields: &Fields) {
    let today = job::today();
    if fields.next_date <= today {
        if let Err(e) = job::run_schedule(state, id, today).await {
            tracing::warn!(error = ?e, schedule = id, "recurring invoice run failed");
        }
    }
}

/// GET /recurring_invoices → 200, a page of schedules, newest first unless `sort_by`
/// names `next_date`, `created_at`, `updated_at` or `customer`, each with its latest three
/// runs (headers `X-Page`, `X-Per-Page`, `X-Total`, `Link`). Errors: 400 for a malformed
/// paging or sort parameter.
#[utoipa::path(
    get,
    path = "/recurring_invoices",
    operation_id = "recurring_invoices_list",
    tag = "recurring_invoices",
    params(kontor_model::query::ListParams),
    responses(
        (status = 200, description = "One page of schedules, each with its latest three runs",
            body = Vec<RecurringInvoice>)
    )
)]
pub async fn list(
    State(state): State<AppState>,
    list: ListQuery,
) -> ApiResult<PageOf<RecurringInvoice>> {
    let order = list.order(&repo::SORTABLE, "s.id DESC", "s.id")?;
    let (items, total) = repo::page(
        &state.pool,
        list.paging.page(),
        list.paging.per_page(),
        &order,
    )
    .await?;
    Ok(list.page(items, total))
}

/// GET /recurring_invoices/{id} → 200 with all runs, newest first. Errors: 404.
#[utoipa::path(get, path = "/recurring_invoices/{id}", operation_id = "recurring_invoices_get", tag = "recurring_invoices",
    params(IdPath),
    responses((status = 200, description = "The schedule with all its runs, newest first", body = RecurringInvoice)))]
pub async fn get_one(
    State(state): State<AppState>,
    IdPath(id): IdPath,
) -> ApiResult<Json<RecurringInvoice>> {
    Ok(Json(repo::load(&state.pool, id).await?))
}

/// POST /recurring_invoices → 201 with the schedule, after the runs already due were
/// made. Errors: 415, 400, 422 naming fields, 403 for a read-only key.
#[utoipa::path(post, path = "/recurring_invoices", operation_id = "recurring_invoices_create", tag = "recurring_invoices",
    request_body = NewRecurringInvoice,
    responses((status = 201, description = "The schedule, after the runs already due were made", body = RecurringInvoice)))]
pub async fn create(
    Write(state, caller, body): Write<NewRecurringInvoice>,
) -> ApiResult<(StatusCode, Json<RecurringInvoice>)> {
    let fields = checked(&state, &caller, body).await?;
    let id = {
        let _guard = state.write_lock.lock().await;
        let mut conn = state.pool.acquire().await?;
        repo::insert(&mut conn, caller.user_id, &fields).await?
    };
    run_if_due(&state, id, &fields).await;
    Ok((
        StatusCode::CREATED,
        Json(repo::load(&state.pool, id).await?),
    ))
}

/// PUT /recurring_invoices/{id} → 200 with the schedule replaced by the body (the anchor
/// becomes the new next date's day; runs stay, and a period already run is never run
/// again). Errors: 404; 415, 400, 422 naming fields; 403 for a read-only key.
#[utoipa::path(put, path = "/recurring_invoices/{id}", operation_id = "recurring_invoices_update", tag = "recurring_invoices",
    params(IdPath), request_body = NewRecurringInvoice,
    responses((status = 200, description = "The schedule as replaced", body = RecurringInvoice)))]
pub async fn update(
    WriteTo(state, caller, id, body): WriteTo<NewRecurringInvoice>,
) -> ApiResult<Json<RecurringInvoice>> {
    repo::schedule(&state.pool, id).await?;
    let fields = checked(&state, &caller, body).await?;
    {
        let _guard = state.write_lock.lock().await;
        let mut conn = state.pool.acquire().await?;
        repo::update(&mut conn, id, caller.user_id, &fields).await?;
    }
    run_if_due(&state, id, &fields).await;
    Ok(Json(repo::load(&state.pool, id).await?))
}

/// DELETE /recurring_invoices/{id} → 204; the schedule and its run history go, the
/// invoices it created stay. Errors: 404; 403 for a read-only key.
#[utoipa::path(delete, path = "/recurring_invoices/{id}", operation_id = "recurring_invoices_delete", tag = "recurring_invoices",
    params(IdPath),
    responses((status = 204, description = "Deleted; the invoices it created stay")))]
pub async fn delete(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<StatusCode> {
    let _guard = state.write_lock.lock().await;
    repo::delete(&state.pool, id).await?;
    Ok(StatusCode::NO_CONTENT)
}
