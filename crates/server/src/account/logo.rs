//! The account's logo (issue 9): `PUT /account/logo` (multipart part `file`, a PNG or an
//! SVG judged by its content, at most 1 MiB; an SVG is sanitized by [`crate::input::svg`] before
//! it is stored), `DELETE /account/logo`, and the file behind its signed link. The file
//! lives under `<data>/files/account_logo/` with a random name; the new file is stored
//! first, then the row points to it, then the old file goes.

use super::get::view;
use super::repo::{self, StoredLogo};
use crate::http::error::{ApiError, ApiResult};
use crate::input::svg::{sanitize, SvgError};
use crate::input::uploads::Kind;
use crate::state::AppState;
use crate::store::files::{file_response, BaseUrl};
use crate::store::storage::Area;
use axum::extract::multipart::MultipartRejection;
use axum::extract::{Multipart, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use axum::Json;
use kontor_model::account::Account;
use kontor_model::error::messages;

/// Largest logo file: 1 MiB (a larger one is a 422 on `file`).
pub const MAX_LOGO: usize = 1024 * 1024;
/// Largest request body of `PUT /account/logo` (the file plus the multipart framing);
/// beyond it the answer is 413.
pub const BODY_LIMIT: usize = 2 * 1024 * 1024;

/// The multipart body of `PUT /account/logo` (for the OpenAPI description).
#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
pub struct LogoUpload {
    /// The logo: a PNG or an SVG, at most 1 MiB.
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
}

fn too_large() -> ApiError {
    ApiError::PayloadTooLarge(BODY_LIMIT)
}

/// Reads the multipart part `file`. Errors: 415 (not multipart), 413, 400, 422 `file`
/// (missing).
async fn read_file_part(
    headers: &HeaderMap,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<Vec<u8>> {
    crate::http::extract::require_multipart(headers)?;
    let mut multipart = multipart.map_err(|e| match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => too_large(),
        _ => ApiError::BadRequest(format!(
            "The request is not valid multipart/form-data: {e}."
        )),
    })?;
    let (_, bytes) = crate::http::extract::file_part(&mut multipart, too_large).await?;
    Ok(bytes)
}

/// The bytes to store and their type: a PNG as it is, an SVG sanitized.
/// Errors: 422 on `file` (too large, neither PNG nor SVG, a malformed SVG).
pub fn judge_logo(bytes: &[u8]) -> ApiResult<(Vec<u8>, &'static str, &'static str)> {
    if bytes.len() > MAX_LOGO {
        return Err(ApiError::field("file", messages::IS_LARGER_THAN_1_MIB));
    }
    if Kind::sniff(bytes) == Some(Kind::Png) {
        if let Some(why) = crate::input::uploads::image_size_error(bytes) {
            return Err(ApiError::field("file", why));
        }
        return Ok((bytes.to_vec(), "image/png", "png"));
    }
    match sanitize(bytes) {
        Ok(svg) => Ok((svg.into_bytes(), "image/svg+xml", "svg")),
        Err(SvgError::NotSvg) => Err(ApiError::field("file", messages::MUST_BE_PNG_OR_SVG)),
        Err(SvgError::Malformed(why)) => Err(ApiError::field("file", messages::SVG_N.with([why]))),
    }
}

/// Points the settings row at `logo` (or none) and removes the previous file.
async fn replace_logo(state: &AppState, logo: Option<StoredLogo>) -> ApiResult<repo::Settings> {
    let _guard = state.write_lock.lock().await;
    let (settings, old) = repo::update_settings(&state.pool, |settings| {
        Ok(std::mem::replace(&mut settings.logo, logo))
    })
    .await?;
    if let Some(old) = old {
        state.files.delete(Area::AccountLogo, &old.key).await;
    }
    Ok(settings)
}

/// PUT /account/logo (multipart part `file`) → 200 the [`Account`] with the new `logo`.
/// Errors: 403 (read-only key), 413 (body over 2 MiB), 415 (not multipart), 422 on
/// `file` (missing, over 1 MiB, not a PNG or SVG by content, a malformed SVG).
#[utoipa::path(put, path = "/account/logo", operation_id = "account_logo_store", tag = "account",
    request_body(content = LogoUpload, content_type = "multipart/form-data"),
    responses((status = 200, description = "The account with the new `logo`", body = Account)))]
pub async fn store_logo(
    State(state): State<AppState>,
    BaseUrl(base): BaseUrl,
    headers: HeaderMap,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<Json<Account>> {
    let bytes = read_file_part(&headers, multipart).await?;
    let (bytes, content_type, extension) = judge_logo(&bytes)?;
    let key = state
        .files
        .put_new(Area::AccountLogo, extension, &bytes)
        .await?;
    let stored = StoredLogo {
        key: key.clone(),
        content_type: content_type.to_string(),
    };
    match replace_logo(&state, Some(stored)).await {
        Ok(settings) => Ok(Json(view(&state, &base, &settings))),
        Err(e) => {
            state.files.delete(Area::AccountLogo, &key).await;
            Err(e)
        }
    }
}

/// DELETE /account/logo → 204 (also when there is none). Errors: 403 (read-only key).
#[utoipa::path(delete, path = "/account/logo", operation_id = "account_logo_delete", tag = "account",
    responses((status = 204, description = "No logo (also when there was none)")))]
pub async fn delete_logo(State(state): State<AppState>) -> ApiResult<StatusCode> {
    replace_logo(&state, None).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The stored logo `key` (behind a signed link), with its type; an SVG also carries a
/// Content-Security-Policy that forbids scripts and loads. Errors: 404 when `key` is not
/// the current logo or its file is gone.
pub async fn logo_file(state: &AppState, key: &str) -> ApiResult<Response> {
    let settings = repo::load(&state.pool).await?;
    let logo = settings
        .logo
        .filter(|l| l.key == key)
        .ok_or_else(|| ApiError::not_found("logo"))?;
    let bytes = state
        .files
        .get(Area::AccountLogo, &logo.key)
        .await?
        .ok_or_else(|| ApiError::not_found("logo file"))?;
    let name = if logo.content_type == "image/png" {
        "logo.png"
    } else {
        "logo.svg"
    };
    let mut response = file_response(bytes, &logo.content_type, name);
    response.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'; img-src data:"),
    );
    Ok(response)
}
