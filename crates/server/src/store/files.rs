//! Signed file links and file responses (`decisions.md` § Files): `file_url` points at
//! `/files/...` with an expiry and an HMAC-SHA256 signature, valid for 15 minutes and
//! usable without a key. The signing secret is generated once and kept in the database's
//! `settings` table. A leaf: it knows no handler; the `/files/...` routes live in
//! `file_routes`.

use crate::http::error::ApiError;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;

/// How long a link is valid, in seconds.
pub const LINK_TTL_SECONDS: i64 = 15 * 60;

/// Signs and checks file links.
#[derive(Clone)]
pub struct Signer {
    secret: Vec<u8>,
}

impl Signer {
    /// Loads the secret from `settings`, creating it on first use.
    ///
    /// Errors: the database cannot be read or written, or the stored secret is not what
    /// Kontor writes (64 hex digits, 32 bytes) — the server must not start then, since an
    /// empty or guessed key would make every link forgeable (`docs/decisions.md` § Server
    /// hardening).
    pub async fn load(pool: &crate::sql::Db) -> Result<Signer, String> {
        let read = |e: sqlx::Error| format!("cannot read the file-link secret: {e}");
        let stored: Option<String> =
            crate::sql::query_scalar("SELECT value FROM settings WHERE key = 'file_link_secret'")
                .fetch_optional(pool)
                .await
                .map_err(read)?;
        let stored = match stored {
            Some(s) => s,
            None => {
                let mut secret = vec![0u8; 32];
                rand::rng().fill_bytes(&mut secret);
                crate::sql::query(
                    "INSERT INTO settings (key, value) VALUES ('file_link_secret', $1) ON CONFLICT DO NOTHING",
                )
                .bind(hex::encode(&secret))
                .execute(pool)
                .await
                .map_err(|e| format!("cannot store the file-link secret: {e}"))?;
                crate::sql::query_scalar(
                    "SELECT value FROM settings WHERE key = 'file_link_secret'",
                )
                .fetch_one(pool)
                .await
                .map_err(read)?
            }
        };
        Signer::from_stored(&stored)
    }

    /// The signer for a stored secret: exactly 64 hex digits (32 bytes).
    /// Errors: anything else, as a sentence naming the setting.
    pub fn from_stored(stored: &str) -> Result<Signer, String> {
        match hex::decode(stored.trim()) {
            Ok(secret) if secret.len() == 32 => Ok(Signer { secret }),
            _ => Err(
                "the file-link secret in settings.file_link_secret is corrupt (expected 64 hex \
                 digits); delete that row to generate a new one (old file links stop working)"
                    .to_string(),
            ),
        }
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
        let url =
            crate::http::pagination::absolute_url(&parts.headers, &"/".parse().expect("valid uri"));
        Ok(BaseUrl(url.trim_end_matches('/').to_string()))
    }
}

/// A stored or rendered file as a response: the given `Content-Type`, inline with
/// `filename` (reduced to ASCII letters, digits, `-`, `_` and `.`), and
/// `X-Content-Type-Options: nosniff` so browsers never guess another type.
pub fn file_response(bytes: Vec<u8>, content_type: &str, filename: &str) -> Response {
    let mut response = bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_str(content_type)
            .unwrap_or(HeaderValue::from_static("application/octet-stream")),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
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

/// A PDF response: `Content-Type: application/pdf` exactly, inline with `filename`,
/// `nosniff` (see [`file_response`]).
pub fn pdf_response(bytes: Vec<u8>, filename: &str) -> Response {
    file_response(bytes, "application/pdf", filename)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_corrupt_or_short_secret_is_refused() {
        assert!(Signer::from_stored("").is_err());
        assert!(Signer::from_stored("not hex").is_err());
        assert!(Signer::from_stored(&"ab".repeat(16)).is_err());
        assert!(Signer::from_stored(&"ab".repeat(32)).is_ok());
    }

    #[test]
    fn links_verify_only_with_the_same_secret() {
        let a = Signer::from_stored(&"ab".repeat(32)).unwrap();
        let b = Signer::from_stored(&"cd".repeat(32)).unwrap();
        let link = a.link("http://x", "/files/invoices/1.pdf");
        let query = link.split_once('?').unwrap().1;
        let expires: i64 = query.split('&').next().unwrap()[8..].parse().unwrap();
        let signature = query.split("signature=").nth(1).unwrap();
        assert!(a.verify("/files/invoices/1.pdf", expires, signature));
        assert!(!b.verify("/files/invoices/1.pdf", expires, signature));
        assert!(!a.verify("/files/invoices/2.pdf", expires, signature));
    }
}
