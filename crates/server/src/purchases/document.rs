//! PATCH /purchases/{id}/store_document: multipart part `file` (PDF, PNG or JPEG judged by
//! its bytes, ≤ 10 MiB). The new file is stored first, then the record points to it, then
//! the old file goes — a failed upload leaves the previous document in place.

use super::repo;
use crate::events::{self, Subject};
use crate::http::caller_context::CallerContext;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::IdPath;
use crate::input::uploads::{check_bytes, Kind};
use crate::state::AppState;
use crate::store::db::{now, ts};
use crate::store::storage::Area;
use axum::extract::multipart::MultipartRejection;
use axum::extract::Multipart;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Json;
use kontor_model::event::{to_data, DocumentUploadedData, EventKind};
use kontor_model::purchase::Purchase;

/// Largest purchase document (10 MiB).
pub const MAX_DOCUMENT: usize = 10 * 1024 * 1024;

/// The Content-Security-Policy of the HTML view (and of stored XML documents): no
/// scripts, no loads of any kind, inline styles only, a sandboxed document.
pub const HTML_CSP: &str =
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; sandbox";

fn rejection(e: MultipartRejection) -> ApiError {
    if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::PayloadTooLarge(crate::http::extract::UPLOAD_LIMIT)
    } else if e.status() == axum::http::StatusCode::UNSUPPORTED_MEDIA_TYPE {
        ApiError::UnsupportedMediaType("multipart/form-data")
    } else {
        ApiError::BadRequest(format!(
            "The request is not valid multipart/form-data: {e}."
        ))
    }
}

/// The multipart body of PATCH /purchases/{id}/store_document, for the API description
/// only (the handler reads the part itself).
#[derive(utoipa::ToSchema)]
#[schema(as = PurchaseDocumentForm)]
#[allow(dead_code)]
struct DocumentForm {
    /// The document (PDF, PNG or JPEG judged by its bytes, at most 10 MiB; the body at most
    /// 16 MiB); the last part named `file` counts.
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
}

/// Upload a purchase's document (multipart).
///
/// PATCH /purchases/{id}/store_document → 200 with the purchase.
/// Errors: 404; 413; 415 (not multipart); 422 naming `file` (missing, wrong kind, too large).
#[utoipa::path(patch, path = "/purchases/{id}/store_document", operation_id = "purchases_document", tag = "purchases",
    params(IdPath), request_body(content = DocumentForm, content_type = "multipart/form-data"),
    responses((status = 200, description = "The purchase with its new document.", body = Purchase)))]
pub async fn store_document(
    CallerContext(state, caller, base): CallerContext,
    IdPath(id): IdPath,
    headers: HeaderMap,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<Json<Purchase>> {
    crate::http::extract::require_multipart(&headers)?;
    let mut multipart = multipart.map_err(rejection)?;
    repo::load_row(&state.pool, id).await?;
    let (filename, bytes) = crate::http::extract::file_part(&mut multipart, || {
        ApiError::PayloadTooLarge(crate::http::extract::UPLOAD_LIMIT)
    })
    .await?;
    let file = check_bytes(
        &filename,
        bytes,
        "file",
        &[Kind::Pdf, Kind::Png, Kind::Jpeg],
        MAX_DOCUMENT,
    )?;
    let key = state
        .files
        .put_new(Area::PurchaseDocuments, file.kind.extension(), &file.bytes)
        .await?;

    let _guard = state.write_lock.lock().await;
    let old: Option<String> =
        crate::sql::query_scalar("SELECT document_key FROM purchases WHERE id = $1")
            .bind(id)
            .fetch_one(&state.pool)
            .await?;
    let updated = store_row(&state, caller.user_id, id, &key, &file).await;
    if let Err(e) = updated {
        state.files.delete(Area::PurchaseDocuments, &key).await;
        return Err(e);
    }
    if let Some(old) = old {
        state.files.delete(Area::PurchaseDocuments, &old).await;
    }
    repo::load(&state, &base, id).await.map(Json)
}

/// Points purchase `id` at the stored document `key` and records `document_uploaded` (with
/// the file name) in one transaction. Errors: database failures.
async fn store_row(
    state: &AppState,
    user_id: i64,
    id: i64,
    key: &str,
    file: &crate::input::uploads::CheckedFile,
) -> ApiResult<()> {
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    crate::sql::query("UPDATE purchases SET document_key = $1, document_type = $2, document_name = $3, updated_at = $4 WHERE id = $5")
        .bind(key)
        .bind(file.kind.content_type())
        .bind(&file.filename)
        .bind(ts(now()))
        .bind(id)
        .execute(&mut tx)
        .await?;
    let data = to_data(&DocumentUploadedData {
        file_name: Some(file.filename.clone()).filter(|n| !n.is_empty()),
    });
    let subject = Subject::Purchase(id);
    events::record_as(
        &mut tx,
        Some(user_id),
        subject,
        EventKind::DocumentUploaded,
        data,
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// The stored document `key` with its type (for signed links). Errors: 404.
pub async fn document_file(state: &AppState, key: &str) -> ApiResult<Response> {
    let row: Option<(String, String)> = crate::sql::query_as("SELECT document_type, coalesce(document_name, document_key) FROM purchases WHERE document_key = $1").bind(key).fetch_optional(&state.pool).await?;
    let (content_type, name) = row.ok_or_else(|| ApiError::not_found("document"))?;
    let bytes = state
        .files
        .get(Area::PurchaseDocuments, key)
        .await?
        .ok_or_else(|| ApiError::not_found("document file"))?;
    let mut response = crate::store::files::file_response(bytes, &content_type, &name);
    if content_type.contains("xml") {
        // An imported XML e-invoice is shown as data, never as a document that could
        // carry markup or scripts (`decisions.md` § E-invoice import (issue 10)).
        response.headers_mut().insert(
            axum::http::header::CONTENT_SECURITY_POLICY,
            axum::http::HeaderValue::from_static(HTML_CSP),
        );
    }
    Ok(response)
}
