//! The `/files/...` routes (outside `/api/v1`; the link's signature is the credential):
//! each checks the signature with `files::Signer` and hands over to the
//! resource's file handler. A router: it calls handlers, nothing calls it but
//! `routes`.

use crate::http::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::store::files::pdf_response;
use axum::extract::{Path, Query, State};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use serde::Deserialize;

#[derive(Deserialize)]
struct LinkQuery {
    expires: Option<i64>,
    signature: Option<String>,
}

/// Routes `/files/...` (outside `/api/v1`; the signature is the credential).
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/files/invoices/{file}", get(invoice_file))
        .route("/files/offers/{file}", get(offer_file))
        .route(
            "/files/offer_attachments/{file}",
            get(offer_attachment_file),
        )
        .route(
            "/files/purchase_documents/{file}",
            get(purchase_document_file),
        )
        .route("/files/account_logo/{file}", get(account_logo_file))
        .route(
            "/files/approval_signatures/{file}",
            get(approval_signature_file),
        )
        .with_state(state)
}

/// Checks the link's signature for `path`. Errors: 403.
fn check(state: &AppState, path: &str, q: &LinkQuery) -> ApiResult<()> {
    match (q.expires, q.signature.as_deref()) {
        (Some(e), Some(s)) if state.signer.verify(path, e, s) => Ok(()),
        _ => Err(ApiError::Forbidden(
            kontor_model::error::messages::FILE_LINK_INVALID.into(),
        )),
    }
}

/// The record id of a `<id>.pdf` file name. Errors: 404.
fn pdf_id(file: &str) -> ApiResult<i64> {
    file.strip_suffix(".pdf")
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| ApiError::not_found(file.to_string()))
}

async fn invoice_file(
    State(state): State<AppState>,
    Path(file): Path<String>,
    Query(q): Query<LinkQuery>,
) -> ApiResult<Response> {
    check(&state, &format!("/files/invoices/{file}"), &q)?;
    crate::invoices::render_pdf(&state, pdf_id(&file)?, state.account.letter_paper(None)).await
}

async fn offer_file(
    State(state): State<AppState>,
    Path(file): Path<String>,
    Query(q): Query<LinkQuery>,
) -> ApiResult<Response> {
    check(&state, &format!("/files/offers/{file}"), &q)?;
    let (bytes, name) =
        crate::offers::offer_pdf(&state, pdf_id(&file)?, state.account.white_letter_paper())
            .await?;
    Ok(pdf_response(bytes, &name))
}

async fn offer_attachment_file(
    State(state): State<AppState>,
    Path(file): Path<String>,
    Query(q): Query<LinkQuery>,
) -> ApiResult<Response> {
    check(&state, &format!("/files/offer_attachments/{file}"), &q)?;
    crate::offers::attachment_file(&state, &file).await
}

async fn purchase_document_file(
    State(state): State<AppState>,
    Path(file): Path<String>,
    Query(q): Query<LinkQuery>,
) -> ApiResult<Response> {
    check(&state, &format!("/files/purchase_documents/{file}"), &q)?;
    crate::purchases::document_file(&state, &file).await
}

async fn account_logo_file(
    State(state): State<AppState>,
    Path(file): Path<String>,
    Query(q): Query<LinkQuery>,
) -> ApiResult<Response> {
    check(&state, &format!("/files/account_logo/{file}"), &q)?;
    crate::account::logo_file(&state, &file).await
}

async fn approval_signature_file(
    State(state): State<AppState>,
    Path(file): Path<String>,
    Query(q): Query<LinkQuery>,
) -> ApiResult<Response> {
    check(&state, &format!("/files/approval_signatures/{file}"), &q)?;
    crate::approvals::staff::signature_file(&state, &file).await
}
