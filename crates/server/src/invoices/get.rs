//! GET /invoices/{id} (the full representation with a fresh signed `file_url`) and
//! GET /invoices/{id}.pdf (the PDF; `blank`, `letter_paper_id`) and GET /invoices/{id}.xml
//! (the XRechnung, `syntax=cii|ubl`).

use super::{einvoice, pdf, repo};
use crate::error::{ApiError, ApiResult};
use crate::extract::QueryPairs;
use crate::files::BaseUrl;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::Json;

/// GET /invoices/{id} → the full representation with a fresh signed `file_url`;
/// GET /invoices/{id}.pdf → the PDF. Errors: 404.
pub async fn get_one(
    State(state): State<AppState>,
    BaseUrl(base): BaseUrl,
    Path(raw): Path<String>,
    query: QueryPairs,
) -> ApiResult<Response> {
    let not_found = || ApiError::not_found(format!("invoice {raw}"));
    if let Some(number) = raw.strip_suffix(".pdf") {
        let id = number.parse().map_err(|_| not_found())?;
        return pdf::invoice_pdf(&state, id, &query).await;
    }
    if let Some(number) = raw.strip_suffix(".xml") {
        let id = number.parse().map_err(|_| not_found())?;
        return einvoice::invoice_xml(&state, id, &query).await;
    }
    let id: i64 = raw.parse().map_err(|_| not_found())?;
    let mut invoice = repo::load(&state.pool, id).await?;
    repo::sign(&state, &base, &mut invoice);
    Ok(Json(invoice).into_response())
}
