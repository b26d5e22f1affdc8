//! POST /invoices/{id}/copy (issue 11 § Edit, delete, copy; `docs/decisions.md` § Edit,
//! delete, copy (issue 11)): a new draft from any live invoice — final, draft or reversal —
//! with the body [`invoice_copy`] builds.

use super::{create, repo};
use crate::access::auth::Caller;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::IdPath;
use crate::state::AppState;
use crate::store::db::now;
use crate::store::files::BaseUrl;
use axum::extract::State;
use axum::{Extension, Json};
use chrono::NaiveDate;
use kontor_model::edit::{copy_due_date, invoice_copy};
use kontor_model::error::messages;
use kontor_model::event::CreatedData;
use kontor_model::invoice::Invoice;

/// The due date of a copy made `today` of an invoice or offer of customer `customer_id`:
/// after the customer's payment term, else the account's default
/// ([`copy_due_date`]; no customer or an unknown one: the default).
/// Errors: 422 on `due_date` when it does not fit; 500 on database failure.
pub async fn copy_due(
    pool: &crate::sql::Db,
    customer_id: Option<i64>,
    today: NaiveDate,
) -> ApiResult<NaiveDate> {
    let term = match customer_id {
        Some(id) => crate::master_data::companies::find(pool, id)
            .await?
            .and_then(|c| c.payment_term_days),
        None => None,
    };
    let settings = crate::account::repo::load(pool).await?;
    copy_due_date(today, term, settings.account.default_invoice_due_days)
        .ok_or_else(|| ApiError::field("due_date", messages::DOES_NOT_FIT))
}

/// POST /invoices/{id}/copy → 200 with the new draft (no number, today's date, due after
/// the customer's payment term or the account's default). Errors: 404 (unknown or
/// deleted); 422 when the copied body no longer validates (e.g. the currency was removed
/// from the account), naming the field.
#[utoipa::path(post, path = "/invoices/{id}/copy", operation_id = "invoices_copy", tag = "invoices",
    params(IdPath),
    responses((status = 200, description = "The new draft", body = Invoice)))]
pub async fn copy(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
    BaseUrl(base): BaseUrl,
    IdPath(id): IdPath,
) -> ApiResult<Json<Invoice>> {
    let invoice = repo::load(&state.pool, id).await?;
    let today = now().date_naive();
    let due = copy_due(&state.pool, Some(invoice.customer_id), today).await?;
    let origin = CreatedData {
        copy_of: Some(id),
        ..Default::default()
    };
    let mut copy =
        create::create_invoice_from(&state, &caller, invoice_copy(&invoice, today, due), origin)
            .await?;
    repo::sign(&state, &base, &mut copy);
    Ok(Json(copy))
}
