//! API keys and authentication (`decisions.md` § Authentication and keys).
//!
//! Keys look like `kontor_<64 hex>`; only their SHA-256 is stored, and the stored hash is
//! compared in constant time. `Authorization: Token token=<key>` and `Bearer <key>` are
//! accepted; anything else is a 401. Read-only keys get 403 on every non-GET request.
//!
//! Issue 12: every key acts for a user; a deactivated user's keys fail at once, session
//! keys (from sign-in) expire after 30 days without use, and the route table of
//! [`crate::access::roles`] decides which role a route needs and which routes are public.

use crate::access::roles::{self, Access};
use crate::http::error::ApiError;
use crate::state::AppState;
use crate::store::db::{now, ts};
use axum::extract::{MatchedPath, Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use kontor_model::users::{session_expired, Role};
use rand::RngCore;
use sha2::{Digest, Sha256};
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

impl Caller {
    /// The caller of work the server does on its own (demo data, scheduled jobs): no key
    /// (`key_id` 0, no uuid), writing for user `user_id` under `name`.
    pub fn internal(user_id: i64, name: &str) -> Caller {
        Caller {
            key_id: 0,
            user_id,
            uuid: String::new(),
            name: name.into(),
            read_only: false,
        }
    }
}

/// What the caller's key and user may do (issue 12), put into request extensions by
/// [`require_key`] next to the [`Caller`].
#[derive(Clone, Debug)]
pub struct KeyContext {
    /// The role of the key's user.
    pub role: Role,
    /// `api` or `session`.
    pub kind: String,
}

/// Key kind of keys made by the CLI and by admins.
pub const KIND_API: &str = "api";
/// Key kind of keys made by signing in.
pub const KIND_SESSION: &str = "session";

/// A key as `keys list` shows it (never the secret).
#[derive(Clone, Debug, sqlx_macros::FromRow)]
pub struct KeyInfo {
    /// Key id (for `keys revoke`).
    pub id: i64,
    /// Public uuid.
    pub uuid: String,
    /// Name.
    pub name: String,
    /// Read-only.
    pub read_only: bool,
    /// Creation time (shown as `YYYY-MM-DDTHH:MM:SSZ`).
    pub created_at: crate::store::db::Ts,
    /// Revocation time, if revoked.
    pub revoked_at: Option<crate::store::db::Ts>,
}

/// `bytes` random bytes as lower-case hex (the OS's generator through `rand`).
pub fn random_hex(bytes: usize) -> String {
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

/// Ensures an admin exists for CLI keys to act for; returns its id (the first active
/// admin, or a new "Admin Kontor" admin without password).
async fn default_user(pool: &crate::sql::Db) -> Result<i64, sqlx::Error> {
    if let Some(id) = crate::sql::query_scalar::<i64>(
        "SELECT id FROM users WHERE role = 'admin' AND active = TRUE ORDER BY id LIMIT 1",
    )
    .fetch_optional(pool)
    .await?
    {
        return Ok(id);
    }
    let t = ts(now());
    crate::sql::query_scalar("INSERT INTO users (firstname, lastname, email, role, created_at, updated_at) VALUES ('Admin', 'Kontor', NULL, 'admin', $1, $2) RETURNING id")
        .bind(t)
        .bind(t)
        .fetch_one(pool)
        .await
}

/// Creates a key named `name` for the first user (the CLI's `keys create`); returns its
/// info and the secret (shown once, never stored).
pub async fn create_key(
    pool: &crate::sql::Db,
    name: &str,
    read_only: bool,
) -> Result<(KeyInfo, String), sqlx::Error> {
    let user_id = default_user(pool).await?;
    create_key_for(pool, user_id, name, read_only, KIND_API).await
}

/// Creates a key of `kind` ([`KIND_API`], [`KIND_SESSION`]) acting for `user_id`;
/// returns its info and the secret (shown once, never stored).
pub async fn create_key_for(
    pool: &crate::sql::Db,
    user_id: i64,
    name: &str,
    read_only: bool,
    kind: &str,
) -> Result<(KeyInfo, String), sqlx::Error> {
    let secret = format!("kontor_{}", random_hex(32));
    let uuid = random_hex(16);
    let created = ts(now());
    // In a write transaction like every write (issue 29: an idempotent retry can tell
    // whether it committed).
    let mut tx = crate::store::db::begin_write(pool).await?;
    let id: i64 = crate::sql::query_scalar("INSERT INTO api_keys (uuid, name, hash, read_only, user_id, created_at, kind) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id")
        .bind(&uuid)
        .bind(name)
        .bind(hash_key(&secret))
        .bind(read_only)
        .bind(user_id)
        .bind(created)
        .bind(kind)
        .fetch_one(&mut tx)
        .await?;
    tx.commit().await?;
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
pub async fn list_keys(pool: &crate::sql::Db) -> Result<Vec<KeyInfo>, sqlx::Error> {
    crate::sql::query_as(
        "SELECT id, uuid, name, read_only, created_at, revoked_at FROM api_keys ORDER BY id",
    )
    .fetch_all(pool)
    .await
}

/// Revokes key `id`; false when there is no such active key.
pub async fn revoke_key(pool: &crate::sql::Db, id: i64) -> Result<bool, sqlx::Error> {
    let done = crate::sql::query(
        "UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL",
    )
    .bind(ts(now()))
    .bind(id)
    .execute(pool)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// On first start (no key at all) creates a full-access key; returns its secret.
pub async fn ensure_initial_key(pool: &crate::sql::Db) -> Result<Option<String>, sqlx::Error> {
    let count: i64 = crate::sql::query_scalar("SELECT COUNT(*) FROM api_keys")
        .fetch_one(pool)
        .await?;
    if count > 0 {
        return Ok(None);
    }
    create_key(pool, "initial", false)
        .await
        .map(|(_, secret)| Some(secret))
}

/// Looks up the caller for `key`; `None` when unknown, revoked, of a deactivated user, or
/// a session key unused for more than 30 days. Records the use (`last_used_at`, at most
/// once a minute).
pub async fn find_caller(
    pool: &crate::sql::Db,
    key: &str,
) -> Result<Option<(Caller, KeyContext)>, sqlx::Error> {
    type Row = (
        i64,
        i64,
        String,
        String,
        bool,
        Vec<u8>,
        String,
        Option<crate::store::db::Ts>,
        crate::store::db::Ts,
        String,
    );
    let hash = hash_key(key);
    let row: Option<Row> = crate::sql::query_as(
        "SELECT k.id, k.user_id, k.uuid, k.name, k.read_only, k.hash, k.kind, k.last_used_at, k.created_at, u.role \
         FROM api_keys k JOIN users u ON u.id = k.user_id \
         WHERE k.hash = $1 AND k.revoked_at IS NULL AND u.active = TRUE",
    )
    .bind(&hash)
    .fetch_optional(pool)
    .await?;
    let Some((key_id, user_id, uuid, name, read_only, stored, kind, last_used, created, role)) =
        row
    else {
        return Ok(None);
    };
    if !bool::from(stored.ct_eq(&hash)) {
        return Ok(None);
    }
    let now = now();
    let last = last_used.unwrap_or(created).0;
    if kind == KIND_SESSION && session_expired(last, now) {
        return Ok(None);
    }
    let stale = last_used.is_none_or(|t| now - t.0 >= chrono::Duration::minutes(1));
    if stale {
        crate::sql::query("UPDATE api_keys SET last_used_at = $1 WHERE id = $2")
            .bind(ts(now))
            .bind(key_id)
            .execute(pool)
            .await?;
    }
    let Some(role) = Role::parse(&role) else {
        return Ok(None);
    };
    Ok(Some((
        Caller {
            key_id,
            user_id,
            uuid,
            name,
            read_only,
        },
        KeyContext { role, kind },
    )))
}

/// The route `req` matched, relative to `/api/v1` (`/invoices/{id}`); `None` for an
/// unknown route.
fn route_path(req: &Request) -> Option<String> {
    let matched = req.extensions().get::<MatchedPath>()?.as_str();
    Some(
        matched
            .strip_prefix("/api/v1")
            .unwrap_or(matched)
            .to_string(),
    )
}

/// Middleware: authenticates every `/api/v1` request except the public routes of
/// [`crate::access::roles::TABLE`] (sign-in, invitation, setup), applies the rate limit and the
/// route's required role (a read-only key counts as the read-only role), and stores the
/// [`Caller`] and [`KeyContext`] in the request extensions. Errors: 401, 403, 429 (the
/// key's rate limit, or an address that sent too many unknown keys:
/// [`crate::access::attempts::wrong_key`]).
pub async fn require_key(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let path = route_path(&req);
    let access = path.as_deref().map(|p| roles::required(req.method(), p));
    if access == Some(Access::Public) {
        return next.run(req).await;
    }
    let key = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(parse_authorization)
        .map(str::to_string);
    let Some(key) = key else {
        return ApiError::Unauthorized.into_response();
    };
    let (caller, context) = match find_caller(&state.pool, &key).await {
        Ok(Some(c)) => c,
        Ok(None) => {
            let peer = req.extensions().get::<crate::access::attempts::PeerAddr>();
            let address = crate::access::attempts::address_of(peer);
            return crate::access::attempts::wrong_key(&state.pool, &address)
                .await
                .into_response();
        }
        Err(e) => return ApiError::from(e).into_response(),
    };
    if let Some(limiter) = &state.rate_limiter {
        if let Err(wait) = limiter.check(caller.key_id) {
            return ApiError::TooManyRequests(wait).into_response();
        }
    }
    // Unknown routes (404 later) need what any write needs from a read-only key.
    let needed = match access {
        Some(Access::Role(role)) => role,
        _ if roles::is_read(req.method()) => Role::ReadOnly,
        _ => Role::Staff,
    };
    if !roles::allows(context.role, caller.read_only, needed) {
        let message = if caller.read_only && context.role.allows(needed) {
            kontor_model::error::messages::API_KEY_READ_ONLY.into()
        } else {
            kontor_model::error::messages::ROLE_NEEDED_N_N
                .with([needed.as_str(), context.role.as_str()])
        };
        return ApiError::Forbidden(message).into_response();
    }
    let actor = crate::proof::audit::Actor {
        user_id: Some(caller.user_id),
        key_id: Some(caller.key_id),
    };
    req.extensions_mut().insert(caller);
    req.extensions_mut().insert(context);
    let write = !roles::is_read(req.method());
    let response = crate::proof::audit::ACTOR.scope(actor, next.run(req)).await;
    if write {
        // The audit events this request wrote get their hashes now, not at the next write.
        if let Err(e) = crate::store::db::seal_audit(&state.pool).await {
            tracing::error!("sealing audit events: {e}");
        }
    }
    response
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
