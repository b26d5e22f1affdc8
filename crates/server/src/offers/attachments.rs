//! `/offers/{id}/attachments` (`decisions.md` § Files): PDF attachments of an offer,
//! uploaded as `{attachment: {filename, base64}}`, judged by their bytes (PDF only), at
//! most 10 MiB decoded. Files live in `<data>/files/offer_attachments/`, written to a
//! temporary name and renamed, so a failed upload leaves nothing behind; deleting the
//! attachment removes the file.

use super::repo;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{IdPath, JsonBody, UPLOAD_LIMIT};
use crate::http::pagination::PageOf;
use crate::input::uploads::{decode_upload, Kind};
use crate::lists::ListQuery;
use crate::state::AppState;
use crate::store::db::{now, ts, Ts};
use crate::store::files::{pdf_response, BaseUrl};
use crate::store::storage::Area;
use crate::work::mail::MailAttachment;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::Json;
use kontor_model::error::messages;
use kontor_model::offer::{Attachment, NewAttachment};

/// Largest attachment, decoded (10 MiB).
pub const MAX_ATTACHMENT: usize = 10 * 1024 * 1024;

#[derive(sqlx_macros::FromRow)]
struct AttachmentRow {
    id: i64,
    filename: String,
    content_type: String,
    byte_size: i64,
    storage_key: String,
    created_at: Ts,
    updated_at: Ts,
}

fn present(state: &AppState, base: &str, r: AttachmentRow) -> Attachment {
    Attachment {
        id: r.id,
        file_url: state
            .signer
            .link(base, &format!("/files/offer_attachments/{}", r.storage_key)),
        filename: r.filename,
        content_type: r.content_type,
        byte_size: r.byte_size,
        created_at: r.created_at.0,
        updated_at: r.updated_at.0,
    }
}

async fn rows(state: &AppState, offer_id: i64) -> ApiResult<Vec<AttachmentRow>> {
    Ok(crate::sql::query_as("SELECT id, filename, content_type, byte_size, storage_key, created_at, updated_at FROM offer_attachments WHERE offer_id = $1 ORDER BY id").bind(offer_id).fetch_all(&state.pool).await?)
}

/// The stored files of offer `offer_id`, for e-mail. Errors: 500 when a file is missing.
pub async fn read_all(state: &AppState, offer_id: i64) -> ApiResult<Vec<MailAttachment>> {
    let mut out = Vec::new();
    for r in rows(state, offer_id).await? {
        let bytes = state
            .files
            .read(Area::OfferAttachments, &r.storage_key)
            .await?;
        out.push(MailAttachment {
            filename: r.filename,
            content_type: r.content_type,
            bytes,
        });
    }
    Ok(out)
}

/// List an offer's attachments.
///
/// GET /offers/{id}/attachments → the attachment records, paged like every list.
/// Errors: 404; 400 naming a malformed paging parameter.
#[utoipa::path(get, path = "/offers/{id}/attachments", operation_id = "offer_attachments_list", tag = "offers",
    params(IdPath, kontor_model::query::ListParams),
    responses((status = 200, description = "One page of the offer's attachments, oldest first.", body = Vec<Attachment>)))]
pub async fn list(
    State(state): State<AppState>,
    BaseUrl(base): BaseUrl,
    IdPath(id): IdPath,
    list: ListQuery,
) -> ApiResult<PageOf<Attachment>> {
    repo::load(&state.pool, id).await?;
    Ok(list.slice(
        rows(&state, id)
            .await?
            .into_iter()
            .map(|r| present(&state, &base, r))
            .collect(),
    ))
}

/// Upload an offer attachment (PDF).
///
/// POST /offers/{id}/attachments → 200 with the record. Errors: 404; 413 beyond 16 MiB;
/// 422 naming `attachment.filename` / `attachment.base64` (missing, bad base64, not a PDF,
/// over 10 MiB).
#[utoipa::path(post, path = "/offers/{id}/attachments", operation_id = "offer_attachments_upload", tag = "offers",
    params(IdPath), request_body(content = NewAttachment, description = "`attachment.filename` and `attachment.base64` (a PDF, at most 10 MiB decoded; the body at most 16 MiB)."),
    responses((status = 200, description = "The attachment record.", body = Attachment)))]
pub async fn create(
    State(state): State<AppState>,
    BaseUrl(base): BaseUrl,
    IdPath(id): IdPath,
    JsonBody(body): JsonBody<NewAttachment, UPLOAD_LIMIT>,
) -> ApiResult<Json<Attachment>> {
    repo::load(&state.pool, id).await?;
    let upload = body
        .attachment
        .ok_or_else(|| ApiError::field("attachment", messages::IS_REQUIRED))?;
    let file = decode_upload(&upload, "attachment", &[Kind::Pdf], MAX_ATTACHMENT)?;
    let key = state
        .files
        .put_new(Area::OfferAttachments, "pdf", &file.bytes)
        .await?;
    let t = ts(now());
    // A write transaction: the audit trail names who wrote (`crate::proof::audit`).
    let inserted: Result<i64, sqlx::Error> = async {
        let mut tx = crate::store::db::begin_write(&state.pool).await?;
        let id = crate::sql::query_scalar::<i64>(
            "INSERT INTO offer_attachments (offer_id, filename, content_type, byte_size, storage_key, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
        )
        .bind(id)
        .bind(&file.filename)
        .bind(file.kind.content_type())
        .bind(file.bytes.len() as i64)
        .bind(&key)
        .bind(t)
        .bind(t)
        .fetch_one(&mut tx)
        .await?;
        tx.commit().await?;
        Ok(id)
    }
    .await;
    let attachment_id = match inserted {
        Ok(a) => a,
        Err(e) => {
            state.files.delete(Area::OfferAttachments, &key).await;
            return Err(e.into());
        }
    };
    let row: AttachmentRow = crate::sql::query_as("SELECT id, filename, content_type, byte_size, storage_key, created_at, updated_at FROM offer_attachments WHERE id = $1").bind(attachment_id).fetch_one(&state.pool).await?;
    Ok(Json(present(&state, &base, row)))
}

/// Delete an offer attachment.
///
/// DELETE /offers/{offer_id}/attachments/{id} → 204; the stored file is removed.
/// Errors: 404.
#[utoipa::path(delete, path = "/offers/{id}/attachments/{attachment_id}", operation_id = "offer_attachments_delete", tag = "offers",
    params(IdPath, ("attachment_id" = i64, Path, description = "Attachment id.")),
    responses((status = 204, description = "Deleted; the stored file is removed.")))]
pub async fn delete(
    State(state): State<AppState>,
    Path((offer_id, attachment_id)): Path<(String, String)>,
) -> ApiResult<StatusCode> {
    let not_found = || ApiError::not_found("attachment");
    let (offer_id, attachment_id): (i64, i64) = (
        offer_id.parse().map_err(|_| not_found())?,
        attachment_id.parse().map_err(|_| not_found())?,
    );
    let key: Option<String> = crate::sql::query_scalar(
        "SELECT storage_key FROM offer_attachments WHERE id = $1 AND offer_id = $2",
    )
    .bind(attachment_id)
    .bind(offer_id)
    .fetch_optional(&state.pool)
    .await?;
    let key = key.ok_or_else(not_found)?;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    crate::sql::query("DELETE FROM offer_attachments WHERE id = $1")
        .bind(attachment_id)
        .execute(&mut tx)
        .await?;
    tx.commit().await?;
    state.files.delete(Area::OfferAttachments, &key).await;
    Ok(StatusCode::NO_CONTENT)
}

/// The stored attachment `key` as a PDF response (for signed links). Errors: 404.
pub async fn attachment_file(state: &AppState, key: &str) -> ApiResult<Response> {
    let row: Option<(String, String)> = crate::sql::query_as(
        "SELECT filename, storage_key FROM offer_attachments WHERE storage_key = $1",
    )
    .bind(key)
    .fetch_optional(&state.pool)
    .await?;
    let (filename, key) = row.ok_or_else(|| ApiError::not_found("attachment"))?;
    let bytes = state
        .files
        .get(Area::OfferAttachments, &key)
        .await?
        .ok_or_else(|| ApiError::not_found("attachment file"))?;
    Ok(pdf_response(bytes, &filename))
}
