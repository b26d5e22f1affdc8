//! `Idempotency-Key` on `POST` (issue 15 § 3; `docs/decisions.md` § Idempotency-Key).
//!
//! A `POST` with the header is answered once per (API key, idempotency key) within
//! [`WINDOW_SECS`] (24 hours):
//! - the first request claims the key (a `pending` row in `idempotency_keys`, committed
//!   before the handler runs), runs, and stores its answer (status, `Content-Type`,
//!   `Location`, body) — unless the answer is a 5xx, which frees the key for a retry;
//! - a retry with the same request (method, path and query, `Content-Type`, body: SHA-256)
//!   gets the stored answer again, with `Idempotent-Replayed: true`, and writes nothing;
//! - the same key with another request: 422 on `Idempotency-Key`;
//! - a duplicate arriving while the first still runs waits for its answer (polling the
//!   row, so this holds across server processes), up to [`WAIT_SECS`]; a key still
//!   pending after that answers 409 "outcome unknown" — never a second write;
//! - a key left pending by a process that is gone (killed or crashed: no heartbeat,
//!   `crate::work::processes`) is resolved by the next retry (issue 29): when none of its
//!   writes committed (`committed`, marked inside the write transaction by
//!   `crate::http::request_claim`) the request runs again; when one did, the record it wrote is
//!   answered (its current representation, stored as the key's answer) — never a second
//!   write, never 24 hours of 409.
//!
//! Keys are 1–255 printable ASCII characters (a 422 on `Idempotency-Key` otherwise). Other
//! methods ignore the header. Rows older than 24 hours are purged when a key is claimed.

use crate::access::auth::Caller;
use crate::http::error::ApiError;
use crate::http::extract::UPLOAD_LIMIT;
use crate::state::AppState;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use kontor_model::error::messages;
use sha2::{Digest, Sha256};
use std::time::Duration;

/// The request header.
pub const HEADER: &str = "idempotency-key";
/// The header on a replayed answer.
pub const REPLAYED: &str = "idempotent-replayed";
/// How long a key is remembered (seconds).
pub const WINDOW_SECS: i64 = 24 * 60 * 60;
/// How long a duplicate waits for the first request's answer (seconds).
pub const WAIT_SECS: u64 = 30;
/// Longest key (characters).
pub const MAX_KEY: usize = 255;

/// Whether `key` is a usable idempotency key: 1–255 printable ASCII characters.
pub fn valid_key(key: &str) -> bool {
    !key.is_empty() && key.len() <= MAX_KEY && key.bytes().all(|b| (0x21..=0x7e).contains(&b))
}

/// The request's fingerprint: hex SHA-256 over method, path and query, content type and
/// body, each length-prefixed.
fn request_hash(method: &Method, uri: &str, content_type: &str, body: &[u8]) -> String {
    let mut h = Sha256::new();
    for part in [
        method.as_str().as_bytes(),
        uri.as_bytes(),
        content_type.as_bytes(),
        body,
    ] {
        h.update((part.len() as u64).to_be_bytes());
        h.update(part);
    }
    hex::encode(h.finalize())
}

fn unix_now() -> i64 {
    chrono::Utc::now().timestamp()
}

#[derive(sqlx_macros::FromRow)]
struct Stored {
    request_hash: String,
    state: String,
    status: Option<i64>,
    content_type: Option<String>,
    location: Option<String>,
    body: Option<Vec<u8>>,
    created_at: i64,
}

fn replay(row: Stored) -> Response {
    let status = row
        .status
        .and_then(|s| u16::try_from(s).ok())
        .and_then(|s| StatusCode::from_u16(s).ok())
        .unwrap_or(StatusCode::OK);
    let mut response = Response::new(Body::from(row.body.unwrap_or_default()));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    if let Some(v) = row
        .content_type
        .and_then(|v| HeaderValue::from_str(&v).ok())
    {
        headers.insert(header::CONTENT_TYPE, v);
    }
    if let Some(v) = row.location.and_then(|v| HeaderValue::from_str(&v).ok()) {
        headers.insert(header::LOCATION, v);
    }
    headers.insert(REPLAYED, HeaderValue::from_static("true"));
    response
}

fn other_request() -> ApiError {
    ApiError::field("Idempotency-Key", messages::IDEMPOTENCY_KEY_REUSED)
}

/// The middleware (inside [`crate::access::auth::require_key`], which puts the [`Caller`] in the
/// request). Errors: 422 on `Idempotency-Key` (malformed key, key of another request), 409
/// (first request's outcome unknown), 413 (body over 16 MiB), and database errors as 500.
pub async fn layer(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if req.method() != Method::POST {
        return next.run(req).await;
    }
    let Some(key) = req.headers().get(HEADER) else {
        return next.run(req).await;
    };
    let key = match key.to_str() {
        Ok(k) if valid_key(k) => k.to_string(),
        _ => {
            return ApiError::field(
                "Idempotency-Key",
                messages::MUST_BE_1_TO_255_PRINTABLE_ASCII,
            )
            .into_response()
        }
    };
    let Some(key_id) = req.extensions().get::<Caller>().map(|c| c.key_id) else {
        return next.run(req).await;
    };
    match run_once(&state, key_id, &key, req, next).await {
        Ok(response) => response,
        Err(e) => e.into_response(),
    }
}

async fn run_once(
    state: &AppState,
    key_id: i64,
    key: &str,
    req: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let (parts, body) = req.into_parts();
    let bytes = axum::body::to_bytes(body, UPLOAD_LIMIT)
        .await
        .map_err(|_| ApiError::PayloadTooLarge(UPLOAD_LIMIT))?;
    let content_type = parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let uri = parts.uri.path_and_query().map(|p| p.as_str()).unwrap_or("");
    let hash = request_hash(&parts.method, uri, content_type, &bytes);
    let now = unix_now();

    // Claim the key, or find who has it.
    crate::sql::query("DELETE FROM idempotency_keys WHERE created_at < $1")
        .bind(now - WINDOW_SECS)
        .execute(&state.pool)
        .await?;
    loop {
        let claimed = crate::sql::query(
            "INSERT INTO idempotency_keys (key_id, idem_key, request_hash, state, created_at, owner) \
             VALUES ($1, $2, $3, 'pending', $4, $5) ON CONFLICT DO NOTHING",
        )
        .bind(key_id)
        .bind(key)
        .bind(&hash)
        .bind(now)
        .bind(state.process_id.as_ref())
        .execute(&state.pool)
        .await?
        .rows_affected()
            == 1;
        if claimed {
            break;
        }
        match wait_for_first(state, key_id, key, &hash, &parts.headers).await? {
            Waited::Answer(response) => return Ok(response),
            // The first request's process is gone and nothing of it was written.
            Waited::RunAgain => continue,
        }
    }

    let claim = crate::http::request_claim::Claim {
        key_id,
        idem_key: key.to_string(),
        owner: state.process_id.to_string(),
    };
    let response = crate::http::request_claim::CLAIM
        .scope(
            claim,
            next.run(Request::from_parts(parts, Body::from(bytes))),
        )
        .await;
    if response.status().is_server_error() {
        forget(state, key_id, key).await;
        return Ok(response);
    }
    let (parts, body) = response.into_parts();
    let body = match axum::body::to_bytes(body, usize::MAX).await {
        Ok(b) => b,
        Err(e) => {
            forget(state, key_id, key).await;
            return Err(ApiError::Internal(format!("reading the answer: {e}")));
        }
    };
    let text = |name: header::HeaderName| {
        parts
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    crate::sql::query(
        "UPDATE idempotency_keys SET state = 'done', status = $1, content_type = $2, location = $3, body = $4 \
         WHERE key_id = $5 AND idem_key = $6",
    )
    .bind(i64::from(parts.status.as_u16()))
    .bind(text(header::CONTENT_TYPE))
    .bind(text(header::LOCATION))
    .bind(body.as_ref())
    .bind(key_id)
    .bind(key)
    .execute(&state.pool)
    .await?;
    Ok(Response::from_parts(parts, Body::from(body)))
}

/// Frees a claimed key (the request failed with a 5xx: nothing was written).
async fn forget(state: &AppState, key_id: i64, key: &str) {
    let result =
        crate::sql::query("DELETE FROM idempotency_keys WHERE key_id = $1 AND idem_key = $2")
            .bind(key_id)
            .bind(key)
            .execute(&state.pool)
            .await;
    if let Err(e) = result {
        tracing::error!("freeing an idempotency key: {e}");
    }
}

/// What waiting for the first request with the same key gave.
enum Waited {
    /// Its answer (stored, or the record it wrote after its process was gone).
    Answer(Response),
    /// Its process is gone and none of its writes committed: the key was freed, run this
    /// one.
    RunAgain,
}

/// A pending row as the wait reads it.
#[derive(sqlx_macros::FromRow)]
struct Pending {
    owner: Option<String>,
    committed: bool,
    audit_from: Option<i64>,
}

/// A duplicate: the first request's answer once it is stored, 422 for another request,
/// [`Waited::RunAgain`] or the written record when the first request's process is gone,
/// 409 when the first never finishes within [`WAIT_SECS`].
async fn wait_for_first(
    state: &AppState,
    key_id: i64,
    key: &str,
    hash: &str,
    headers: &axum::http::HeaderMap,
) -> Result<Waited, ApiError> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(WAIT_SECS);
    let mut watch = crate::work::processes::Watch::default();
    loop {
        let row: Option<Stored> = crate::sql::query_as(
            "SELECT request_hash, state, status, content_type, location, body, created_at \
             FROM idempotency_keys WHERE key_id = $1 AND idem_key = $2",
        )
        .bind(key_id)
        .bind(key)
        .fetch_optional(&state.pool)
        .await?;
        let Some(row) = row else {
            // The first request failed (5xx) and freed the key: this one may try again.
            return Err(ApiError::AlreadyDone(
                "The first request with this Idempotency-Key failed; send it again.".into(),
            ));
        };
        if row.request_hash != hash {
            return Err(other_request());
        }
        if row.state == "done" {
            return Ok(Waited::Answer(replay(row)));
        }
        if let Some(waited) = resolve_orphan(state, key_id, key, headers, &mut watch).await? {
            return Ok(waited);
        }
        let stale = unix_now() - row.created_at > WAIT_SECS as i64;
        if stale || tokio::time::Instant::now() >= deadline {
            return Err(ApiError::AlreadyDone(
                "A request with this Idempotency-Key has not finished; its outcome is unknown."
                    .into(),
            ));
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// A pending key whose process is gone: freed when nothing committed ([`Waited::RunAgain`]),
/// else answered with the record the request wrote, stored as the key's answer. `None`
/// while the owner lives (or the row changed meanwhile).
async fn resolve_orphan(
    state: &AppState,
    key_id: i64,
    key: &str,
    headers: &axum::http::HeaderMap,
    watch: &mut crate::work::processes::Watch,
) -> Result<Option<Waited>, ApiError> {
    let pending: Option<Pending> = crate::sql::query_as(
        "SELECT owner, committed, audit_from FROM idempotency_keys \
         WHERE key_id = $1 AND idem_key = $2 AND state = 'pending'",
    )
    .bind(key_id)
    .bind(key)
    .fetch_optional(&state.pool)
    .await?;
    let Some(pending) = pending else {
        return Ok(None);
    };
    let owner = pending.owner.unwrap_or_default();
    if owner == state.process_id.as_ref() || !watch.is_gone(&state.pool, &owner).await? {
        return Ok(None);
    }
    if !pending.committed {
        let freed = crate::sql::query(
            "DELETE FROM idempotency_keys WHERE key_id = $1 AND idem_key = $2 AND state = 'pending' \
             AND committed = FALSE AND owner = $3",
        )
        .bind(key_id)
        .bind(key)
        .bind(&owner)
        .execute(&state.pool)
        .await?;
        tracing::info!(
            owner,
            "an idempotency key of a gone process ran again (nothing was written)"
        );
        return Ok((freed.rows_affected() == 1).then_some(Waited::RunAgain));
    }
    let base = crate::http::pagination::absolute_url(headers, &"/".parse().expect("valid uri"));
    let base = base.trim_end_matches('/');
    let (status, body) =
        written_record(state, base, key_id, pending.audit_from.unwrap_or(0)).await?;
    let stored = crate::sql::query(
        "UPDATE idempotency_keys SET state = 'done', status = $1, content_type = $2, body = $3 \
         WHERE key_id = $4 AND idem_key = $5 AND state = 'pending' AND owner = $6",
    )
    .bind(i64::from(status.as_u16()))
    .bind("application/json; charset=utf-8")
    .bind(body.as_slice())
    .bind(key_id)
    .bind(key)
    .bind(&owner)
    .execute(&state.pool)
    .await?;
    if stored.rows_affected() != 1 {
        return Ok(None);
    }
    tracing::info!(
        owner,
        "an idempotency key of a gone process answered with the record it wrote"
    );
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json; charset=utf-8"),
    );
    response
        .headers_mut()
        .insert(REPLAYED, HeaderValue::from_static("true"));
    Ok(Some(Waited::Answer(response)))
}

/// The answer of a request whose write committed but whose answer was lost: the record
/// named by its first audit event after `audit_from` (made with the same API key
/// `key_id`) — an invoice, offer, purchase or company as `GET /…/{id}` answers it (200) —
/// or, for anything else, a 409 naming what was written. Errors: the database's.
async fn written_record(
    state: &AppState,
    base: &str,
    key_id: i64,
    audit_from: i64,
) -> Result<(StatusCode, Vec<u8>), ApiError> {
    let first: Option<(String, i64, Option<String>, Option<i64>)> = crate::sql::query_as(
        "SELECT record_type, record_id, parent_type, key_id FROM audit_events \
         WHERE id > $1 ORDER BY id LIMIT 1",
    )
    .bind(audit_from)
    .fetch_optional(&state.pool)
    .await?;
    let json = |value: serde_json::Result<Vec<u8>>| {
        value.map_err(|e| ApiError::Internal(format!("answer: {e}")))
    };
    // Only a record of its own (not a part of another, like a payment) is answered whole.
    // Writers take turns (`db::begin_write`), so the events right after `audit_from` are
    // the request's own — unless it wrote no audited row; the key tells.
    let (record_type, id, own) = match first {
        Some((t, id, parent, by)) if by == Some(key_id) => (t, id, parent.is_none()),
        _ => (String::new(), 0, false),
    };
    let body = match if own { record_type.as_str() } else { "" } {
        "invoice" => {
            let mut invoice = crate::invoices::repo::load(&state.pool, id).await?;
            crate::invoices::repo::sign(state, base, &mut invoice);
            json(serde_json::to_vec(&invoice))?
        }
        "offer" => json(serde_json::to_vec(
            &crate::offers::repo::load_signed(state, base, id).await?,
        ))?,
        "purchase" => json(serde_json::to_vec(
            &crate::purchases::repo::load(state, base, id).await?,
        ))?,
        "company" => json(serde_json::to_vec(
            &crate::master_data::companies::load(&state.pool, id).await?,
        ))?,
        _ => {
            let what = if record_type.is_empty() {
                "a change".to_string()
            } else {
                format!("{record_type} {id}")
            };
            let message = format!(
                "The request with this Idempotency-Key was carried out ({what}), but its answer was lost when the server stopped; read the record instead of sending it again."
            );
            return Ok((
                StatusCode::CONFLICT,
                json(serde_json::to_vec(
                    &serde_json::json!({ "message": message }),
                ))?,
            ));
        }
    };
    Ok((StatusCode::OK, body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_printable_ascii_up_to_255() {
        assert!(valid_key("8e03978e-40d5-43e8-bc93-6894a57f9324"));
        assert!(valid_key(&"k".repeat(255)));
        assert!(!valid_key(&"k".repeat(256)));
        assert!(!valid_key(""));
        assert!(!valid_key("with space"));
        assert!(!valid_key("ümlaut"));
    }

    #[test]
    fn the_hash_covers_path_type_and_body() {
        let a = request_hash(&Method::POST, "/invoices", "application/json", b"{}");
        assert_eq!(
            a,
            request_hash(&Method::POST, "/invoices", "application/json", b"{}")
        );
        assert_ne!(
            a,
            request_hash(&Method::POST, "/offers", "application/json", b"{}")
        );
        assert_ne!(
            a,
            request_hash(&Method::POST, "/invoices", "text/plain", b"{}")
        );
        assert_ne!(
            a,
            request_hash(&Method::POST, "/invoices", "application/json", b"{ }")
        );
        // Length prefixes: moving bytes between parts changes the hash.
        assert_ne!(
            request_hash(&Method::POST, "/a", "b", b""),
            request_hash(&Method::POST, "/", "ab", b"")
        );
    }
}
