//! GET /offers/{id} (the offer with a fresh signed `file_url`) and GET /offers/{id}.pdf
//! (the PDF on a letter paper, default the white one).

use super::{pdf, repo};
use crate::documents::RecordFile;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::QueryPairs;
use crate::state::AppState;
use crate::store::files::BaseUrl;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::Json;

/// Get an offer.
///
/// GET /offers/{id} → the offer with internal contact and items; GET /offers/{id}.pdf →
/// the PDF (`letter_paper_id`, default the white letter paper). Errors: 404.
#[utoipa::path(get, path = "/offers/{id}", operation_id = "offers_get", tag = "offers",
    params(crate::http::extract::IdPath),
    responses((status = 200, description = "The offer with internal contact and items and a fresh signed `file_url`.", body = kontor_model::offer::Offer)))]
pub async fn get_one(
    State(state): State<AppState>,
    BaseUrl(base): BaseUrl,
    Path(raw): Path<String>,
    query: QueryPairs,
) -> ApiResult<Response> {
    let not_found = || ApiError::not_found(format!("offer {raw}"));
    let file = RecordFile::parse(&raw, false, not_found)?;
    if let RecordFile::Pdf(id) = file {
        return pdf::offer_pdf_for_query(&state, id, &query).await;
    }
    Ok(Json(repo::load_signed(&state, &base, file.id()).await?).into_response())
}
