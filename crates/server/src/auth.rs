//! API keys and authentication (`decisions.md` § Authentication and keys).
//!
//! Keys look like `kontor_<64 hex>`; only their SHA-256 is stored, and the stored hash is
//! compared in constant time. `Authorization: Token token=<key>` and `Bearer <key>` are
//! accepted; anything else is a 401. Read-only keys get 403 on every non-GET request.

use crate::db::{now, ts};
use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::{Request, State};
use axum::http::{header, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rand::RngCore;
use sha2::{Digest, Sha256};
use sqlx::SqlitePool;
use subtle::ConstantTimeEq;

/// The authenticated caller, put into request extensions by [`require_key`].
#[derive(Clone, Debug)]
pub struct Caller {
    /// Key id.
    pub key_id: i64,
    /// The user the key acts for.
    pub user_id: i64,
    /// Key uuid (public).
    pub uuid: String,
    /// Key name.
    pub name: String,
    /// Read-only key.
    pub read_only: bool,
}

/// A key as `keys list` shows it (never the secret).
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct KeyInfo {
    /// Key id (for `keys revoke`).
    pub id: i64,
    /// Public uuid.
    pub uuid: String,
    /// Name.
    pub name: String,
    /// Read-only.
    pub read_only: bool,
    /// Creation time.
    pub created_at: String,
    /// Revocation time, if revoked.
    pub revoked_at: Option<String>,
}

fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rng().fill_bytes(&mut buf);
    hex::encode(buf)
}

/// SHA-256 of a key.
pub fn hash_key(key: &str) -> Vec<u8> {
    Sha256::digest(key.as_bytes()).to_vec()
}

/// Extracts the key from an `Authorization` header value: `Token token=<key>` (optionally
/// quoted) or `Bearer <key>`; `None` for any other form.
pub fn parse_authorization(value: &str) -> Option<&str> {
    let value = value.trim();
    let key = if let Some(rest) = value.strip_prefix("Token ") {
        let rest = rest.trim().strip_prefix("token=")?;
        rest.trim_matches('"')
    } else {
        value.strip_prefix("Bearer ")?.trim()
    };
    (!key.is_empty() && !key.contains(char::is_whitespace)).then_some(key)
}

/// Ensures a user exists for keys to act for; returns its id (the first user, or a new
/// "Admin" user in an empty database).
async fn default_user(pool: &SqlitePool) -> Result<i64, sqlx::Error> {
    if let Some(id) = sqlx::query_scalar::<_, i64>("SELECT id FROM users ORDER BY id LIMIT 1")
        .fetch_optional(pool)
        .await?
    {
        return Ok(id);
    }
    let t = ts(now());
    sqlx::query_scalar("INSERT INTO users (firstname, lastname, email, created_at, updated_at) VALUES ('Admin', 'Kontor', NULL, ?, ?) RETURNING id")
        .bind(&t)
        .bind(&t)
        .fetch_one(pool)
        .await
}

/// Creates a key named `name`; returns its info and the secret (shown once, never stored).
pub async fn create_key(
    pool: &SqlitePool,
    name: &str,
    read_only: bool,
) -> Result<(KeyInfo, String), sqlx::Error> {
    let user_id = default_user(pool).await?;
    let secret = format!("kontor_{}", random_hex(32));
    let uuid = random_hex(16);
    let created = ts(now());
    let id: i64 = sqlx::query_scalar("INSERT INTO api_keys (uuid, name, hash, read_only, user_id, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id")
        .bind(&uuid)
        .bind(name)
        .bind(hash_key(&secret))
        .bind(read_only)
        .bind(user_id)
        .bind(&created)
        .fetch_one(pool)
        .await?;
    Ok((
        KeyInfo {
            id,
            uuid,
            name: name.to_string(),
            read_only,
            created_at: created,
            revoked_at: None,
        },
        secret,
    ))
}

/// All keys, revoked ones included.
pub async fn list_keys(pool: &SqlitePool) -> Result<Vec<KeyInfo>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, uuid, name, read_only, created_at, revoked_at FROM api_keys ORDER BY id",
    )
    .fetch_all(pool)
    .await
}

/// Revokes key `id`; false when there is no such active key.
pub async fn revoke_key(pool: &SqlitePool, id: i64) -> Result<bool, sqlx::Error> {
    let done =
        sqlx::query("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")
            .bind(ts(now()))
            .bind(id)
            .execute(pool)
            .await?;
    Ok(done.rows_affected() == 1)
}

/// On first start (no key at all) creates a full-access key; returns its secret.
pub async fn ensure_initial_key(pool: &SqlitePool) -> Result<Option<String>, sqlx::Error> {
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM api_keys")
        .fetch_one(pool)
        .await?;
    if count > 0 {
        return Ok(None);
    }
    create_key(pool, "initial", false)
        .await
        .map(|(_, secret)| Some(secret))
}

/// Looks up the caller for `key`; `None` when unknown or revoked.
pub async fn find_caller(pool: &SqlitePool, key: &str) -> Result<Option<Caller>, sqlx::Error> {
    let hash = hash_key(key);
    let row: Option<(i64, i64, String, String, bool, Vec<u8>)> =
        sqlx::query_as("SELECT id, user_id, uuid, name, read_only, hash FROM api_keys WHERE hash = ? AND revoked_at IS NULL")
            .bind(&hash)
            .fetch_optional(pool)
            .await?;
    Ok(
        row.and_then(|(key_id, user_id, uuid, name, read_only, stored)| {
            bool::from(stored.ct_eq(&hash)).then_some(Caller {
                key_id,
                user_id,
                uuid,
                name,
                read_only,
            })
        }),
    )
}

/// Middleware: authenticates every `/api/v1` request, applies the rate limit and the
/// read-only rule, and stores the [`Caller`] in the request extensions.
/// Errors: 401, 403, 429.
pub async fn require_key(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let key = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(parse_authorization)
        .map(str::to_string);
    let Some(key) = key else {
        return ApiError::Unauthorized.into_response();
    };
    let caller = match find_caller(&state.pool, &key).await {
        Ok(Some(c)) => c,
        Ok(None) => return ApiError::Unauthorized.into_response(),
        Err(e) => return ApiError::from(e).into_response(),
    };
    if let Some(limiter) = &state.rate_limiter {
        if let Err(wait) = limiter.check(caller.key_id) {
            return ApiError::TooManyRequests(wait).into_response();
        }
    }
    if caller.read_only && !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return ApiError::Forbidden("This API key is read-only.".into()).into_response();
    }
    req.extensions_mut().insert(caller);
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::parse_authorization;

    #[test]
    fn accepts_both_header_forms_only() {
        assert_eq!(parse_authorization("Token token=abc"), Some("abc"));
        assert_eq!(parse_authorization("Token token=\"abc\""), Some("abc"));
        assert_eq!(parse_authorization("Bearer abc"), Some("abc"));
        assert_eq!(parse_authorization("Basic abc"), None);
        assert_eq!(parse_authorization("Token abc"), None);
        assert_eq!(parse_authorization("Token token="), None);
        assert_eq!(parse_authorization("abc"), None);
    }
}
