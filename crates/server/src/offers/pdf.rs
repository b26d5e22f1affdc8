//! GET /offers/{id}.pdf: the offer on a letter paper (`letter_paper_id`; default the
//! white letter paper), optional positions marked.

use super::repo;
use crate::config::LetterPaperConfig;
use crate::documents::{context, offer_document, Letter};
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::QueryPairs;
use crate::state::AppState;
use crate::store::files::pdf_response;
use axum::response::Response;
use kontor_model::query::parse_id;

/// The PDF bytes and file name (`<identifier>.pdf`) of offer `id` on `paper`.
/// Errors: 404 for an unknown offer.
pub async fn offer_pdf(
    state: &AppState,
    id: i64,
    paper: Option<&LetterPaperConfig>,
) -> ApiResult<(Vec<u8>, String)> {
    let offer = repo::load(&state.pool, id).await?;
    let (account, customer) = context(state, offer.company.as_ref().map(|c| c.id)).await?;
    let bytes = crate::work::pdf_render::render(offer_document(
        &offer,
        &Letter::new(&account, paper, &customer),
    )?)
    .await?;
    Ok((bytes, format!("{}.pdf", offer.identifier)))
}

/// The letter paper an offer's document (the offer, its order confirmation) prints on:
/// `letter_paper_id` of the account's settings; absent or empty → the white letter paper.
/// Errors: 400 for a malformed id, 404 for an unknown one.
pub fn offer_paper<'a>(
    state: &'a AppState,
    query: &QueryPairs,
) -> ApiResult<&'a LetterPaperConfig> {
    match query.get("letter_paper_id").filter(|v| !v.is_empty()) {
        Some(v) => {
            let paper_id = parse_id("letter_paper_id", v)?;
            state
                .account
                .letter_paper(Some(paper_id))
                .ok_or_else(|| ApiError::not_found(format!("letter paper {paper_id}")))
        }
        None => state
            .account
            .white_letter_paper()
            .ok_or_else(|| ApiError::not_found("letter paper")),
    }
}

/// An offer as PDF.
///
/// GET /offers/{id}.pdf with `letter_paper_id`. Errors: 400 malformed id; 404 unknown
/// offer or letter paper.
#[utoipa::path(get, path = "/offers/{id}.pdf", operation_id = "offers_pdf", tag = "offers",
    params(crate::http::extract::IdPath, ("letter_paper_id" = Option<i64>, Query, description = "Letter paper of the account's settings; absent or empty: the white letter paper.")),
    responses((status = 200, description = "The offer as a PDF.", content_type = "application/pdf", headers(("Content-Disposition" = String, description = "`inline; filename=\"<identifier>.pdf\"`")))))]
pub async fn offer_pdf_for_query(
    state: &AppState,
    id: i64,
    query: &QueryPairs,
) -> ApiResult<Response> {
    let paper = offer_paper(state, query)?;
    let (bytes, name) = offer_pdf(state, id, Some(paper)).await?;
    Ok(pdf_response(bytes, &name))
}
