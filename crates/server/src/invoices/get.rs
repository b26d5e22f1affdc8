//! GET /invoices/{id} (the full representation with a fresh signed `file_url`) and
//! GET /invoices/{id}.pdf (the PDF; `blank`, `letter_paper_id`) and GET /invoices/{id}.xml
//! (the XRechnung, `syntax=cii|ubl`).

use super::{einvoice, pdf, repo};
use crate::documents::RecordFile;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::QueryPairs;
use crate::state::AppState;
use crate::store::files::BaseUrl;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
use kontor_model::invoice::Invoice;

/// GET /invoices/{id} → the full representation with a fresh signed `file_url`;
/// GET /invoices/{id}.pdf → the PDF. Errors: 404.
///
/// `{id}` is the invoice id, or the id followed by `.pdf` (the invoice's PDF; query
/// parameters `blank`, `letter_paper_id`) or `.xml` (its XRechnung; query parameter
/// `syntax`, `cii` or `ubl`; 422 naming each missing field when it cannot be written).
#[utoipa::path(get, path = "/invoices/{id}", operation_id = "invoices_get", tag = "invoices",
    params(("id" = String, Path, pattern = r"^[0-9]+(\.pdf|\.xml)?$", description = "Invoice id; `7.pdf` answers the PDF, `7.xml` the XRechnung"), crate::documents::PrintParams, ("syntax" = Option<String>, Query, pattern = "^(cii|ubl)?$", description = "`.xml`: `cii` (UN/CEFACT CII, the default) or `ubl` (OASIS UBL 2.1)")),
    responses((status = 200, description = "The invoice (JSON), its PDF (`{id}.pdf`) or its XRechnung (`{id}.xml`)", content((Invoice = "application/json"), ("application/pdf"), ("application/xml")), headers(("Content-Disposition" = String, description = "PDF and XML: the file name (`<number>.pdf`, `<number>.xml`)")))))]
pub async fn get_one(
    State(state): State<AppState>,
    BaseUrl(base): BaseUrl,
    Path(raw): Path<String>,
    query: QueryPairs,
) -> ApiResult<Response> {
    let not_found = || ApiError::not_found(format!("invoice {raw}"));
    match RecordFile::parse(&raw, true, not_found)? {
        RecordFile::Pdf(id) => pdf::invoice_pdf(&state, id, &query).await,
        RecordFile::Xml(id) => einvoice::invoice_xml(&state, id, &query).await,
        RecordFile::Json(id) => {
            let mut invoice = repo::load(&state.pool, id).await?;
            repo::sign(&state, &base, &mut invoice);
            Ok(Json(invoice).into_response())
        }
    }
}
