//! Signed file links (`decisions.md` § Files): `file_url` points at `/files/...` with an
//! expiry and an HMAC-SHA256 signature, valid for 15 minutes and usable without a key.
//! The signing secret is generated once and kept in the database's `settings` table.

use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use axum::extract::{FromRequestParts, Path, Query, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use hmac::{Hmac, Mac};
use rand::RngCore;
use serde::Deserialize;
use sha2::Sha256;
use sqlx::SqlitePool;

/// How long a link is valid, in seconds.
pub const LINK_TTL_SECONDS: i64 = 15 * 60;

/// Signs and checks file links.
#[derive(Clone)]
pub struct Signer {
    secret: Vec<u8>,
}

impl Signer {
    /// Loads the secret from `settings`, creating it on first use.
    pub async fn load(pool: &SqlitePool) -> Result<Signer, sqlx::Error> {
        if let Some(hex_secret) = sqlx::query_scalar::<_, String>(
            "SELECT value FROM settings WHERE key = 'file_link_secret'",
        )
        .fetch_optional(pool)
        .await?
        {
            return Ok(Signer {
                secret: hex::decode(hex_secret).unwrap_or_default(),
            });
        }
        let mut secret = vec![0u8; 32];
        rand::rng().fill_bytes(&mut secret);
        sqlx::query("INSERT OR IGNORE INTO settings (key, value) VALUES ('file_link_secret', ?)")
            .bind(hex::encode(&secret))
            .execute(pool)
            .await?;
        let stored: String =
            sqlx::query_scalar("SELECT value FROM settings WHERE key = 'file_link_secret'")
                .fetch_one(pool)
                .await?;
        Ok(Signer {
            secret: hex::decode(stored).unwrap_or(secret),
        })
    }

    fn mac(&self, path: &str, expires: i64) -> Hmac<Sha256> {
        let mut mac =
            Hmac::<Sha256>::new_from_slice(&self.secret).expect("HMAC takes any key length");
        mac.update(path.as_bytes());
        mac.update(b"\n");
        mac.update(expires.to_string().as_bytes());
        mac
    }

    /// A link to `path` (e.g. `/files/invoices/7.pdf`) under `base`, valid for 15 minutes.
    pub fn link(&self, base: &str, path: &str) -> String {
        let expires = chrono::Utc::now().timestamp() + LINK_TTL_SECONDS;
        let signature = hex::encode(self.mac(path, expires).finalize().into_bytes());
        format!("{base}{path}?expires={expires}&signature={signature}")
    }

    /// Whether `signature` is valid for `path` and `expires` lies in the future.
    pub fn verify(&self, path: &str, expires: i64, signature: &str) -> bool {
        let Ok(bytes) = hex::decode(signature) else {
            return false;
        };
        expires >= chrono::Utc::now().timestamp()
            && self.mac(path, expires).verify_slice(&bytes).is_ok()
    }
}

/// The request's own origin (`http://host[:port]`), for absolute links.
pub struct BaseUrl(pub String);

impl<S: Send + Sync> FromRequestParts<S> for BaseUrl {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let url = crate::pagination::absolute_url(&parts.headers, &"/".parse().expect("valid uri"));
        Ok(BaseUrl(url.trim_end_matches('/').to_string()))
    }
}

/// A PDF response: `Content-Type: application/pdf` exactly, inline with `filename`.
pub fn pdf_response(bytes: Vec<u8>, filename: &str) -> Response {
    let mut response = bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/pdf"),
    );
    let safe: String = filename
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .collect();
    if let Ok(v) = HeaderValue::from_str(&format!("inline; filename=\"{safe}\"")) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    response
}

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
        .with_state(state)
}

/// Checks the link's signature for `path`. Errors: 403.
fn check(state: &AppState, path: &str, q: &LinkQuery) -> ApiResult<()> {
    match (q.expires, q.signature.as_deref()) {
        (Some(e), Some(s)) if state.signer.verify(path, e, s) => Ok(()),
        _ => Err(ApiError::Forbidden(
            "This file link is invalid or has expired.".into(),
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
