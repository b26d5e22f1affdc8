//! Failed attempts and their back-off (issue 29 § Sign-in; `docs/decisions.md` § People,
//! sign-in and roles): sign-ins with a wrong password and requests with an unknown API
//! key, counted per client address in the `login_attempts` table (so every server
//! process sees the same counts).
//!
//! A sign-in is **claimed before its password is checked**: [`claim_sign_in`] writes the
//! attempt first and then counts only the attempts written before it, so of 100 parallel
//! wrong passwords for one e-mail exactly the free ones are checked and the rest are
//! answered 429 at once, without hashing. The scopes are an e-mail from one address, one
//! address, and an e-mail from everywhere ([`kontor_model::people`]'s `FREE_FAILURES_*`),
//! each with the doubling wait of [`backoff_retry_after`] — no hard lock that someone
//! else can set off: guessing from one address slows that address down, not the person
//! signing in from another.
//!
//! Unknown API keys (rows with an empty `email`) back off per address the same way
//! ([`wrong_key`]); valid keys are never held up.

use crate::http::error::{ApiError, ApiResult};
use crate::store::db::{now, ts, Ts};
use chrono::{DateTime, Duration, Utc};
use kontor_model::users::{
    backoff_retry_after, FREE_FAILURES_PER_ADDRESS, FREE_FAILURES_PER_EMAIL_AND_ADDRESS,
    FREE_WRONG_KEYS_PER_ADDRESS, LOCKOUT_WINDOW_MINUTES,
};

/// The client's address, put into request extensions by [`crate::run`] (the TCP peer; a
/// reverse proxy's address when behind one).
#[derive(Clone, Copy, Debug)]
pub struct PeerAddr(pub std::net::IpAddr);

/// The text stored for a request's address (`unknown` when the server was not started
/// through [`crate::run`], as in-process tests do).
pub fn address_of(peer: Option<&PeerAddr>) -> String {
    peer.map(|PeerAddr(ip)| ip.to_string())
        .unwrap_or_else(|| "unknown".into())
}

/// A sign-in attempt that may go on: its row (deleted again on success).
#[derive(Debug, Clone, Copy)]
pub struct Claim(i64);

fn window_start() -> DateTime<Utc> {
    now() - Duration::minutes(LOCKOUT_WINDOW_MINUTES)
}

/// Decides whether a sign-in attempt for `email` (lower case) from `address` may have its
/// password checked, and records it (as a failure until [`sign_in_succeeded`] says
/// otherwise) — counting and recording in one write transaction, so parallel attempts
/// see each other.
/// Errors: 429 with the seconds to wait (the attempt is then not recorded), or the
/// database's.
pub async fn claim_sign_in(pool: &crate::sql::Db, email: &str, address: &str) -> ApiResult<Claim> {
    let at = now();
    let mut tx = crate::store::db::begin_write(pool).await?;
    let earlier: Vec<(String, String, Ts)> = crate::sql::query_as(
        "SELECT email, address, at FROM login_attempts \
         WHERE at > $1 AND email <> '' AND address = $2",
    )
    .bind(ts(window_start()))
    .bind(address)
    .fetch_all(&mut tx)
    .await?;
    let times = |keep: &dyn Fn(&(String, String, Ts)) -> bool| -> Vec<DateTime<Utc>> {
        earlier.iter().filter(|r| keep(r)).map(|r| r.2 .0).collect()
    };
    let waits = [
        backoff_retry_after(
            &times(&|r| r.0 == email),
            FREE_FAILURES_PER_EMAIL_AND_ADDRESS,
            at,
        ),
        backoff_retry_after(&times(&|_| true), FREE_FAILURES_PER_ADDRESS, at),
    ];
    if let Some(wait) = waits.into_iter().flatten().max() {
        // Refused while waiting: not a failure of its own.
        return Err(ApiError::TooManyRequests(wait));
    }
    let id: i64 = crate::sql::query_scalar(
        "INSERT INTO login_attempts (email, address, at) VALUES ($1, $2, $3) RETURNING id",
    )
    .bind(email)
    .bind(address)
    .bind(ts(at))
    .fetch_one(&mut tx)
    .await?;
    tx.commit().await?;
    Ok(Claim(id))
}

/// The claimed sign-in could not be checked (the server was too busy, 503): its row goes,
/// it was no failure. Errors: the database's.
pub async fn sign_in_unchecked(pool: &crate::sql::Db, claim: Claim) -> ApiResult<()> {
    crate::sql::query("DELETE FROM login_attempts WHERE id = $1")
        .bind(claim.0)
        .execute(pool)
        .await?;
    Ok(())
}

/// The claimed sign-in succeeded: its row and the earlier failures of this e-mail from
/// this address go (failures from other addresses stay counted). Errors: the database's.
pub async fn sign_in_succeeded(
    pool: &crate::sql::Db,
    claim: Claim,
    email: &str,
    address: &str,
) -> ApiResult<()> {
    crate::sql::query("DELETE FROM login_attempts WHERE id = $1 OR (email = $2 AND address = $3)")
        .bind(claim.0)
        .bind(email)
        .bind(address)
        .execute(pool)
        .await?;
    Ok(())
}

/// The claimed sign-in failed: its row stays as the failure; rows older than a day go.
/// Errors: the database's.
pub async fn sign_in_failed(pool: &crate::sql::Db) -> ApiResult<()> {
    crate::sql::query("DELETE FROM login_attempts WHERE at < $1")
        .bind(ts(now() - Duration::days(1)))
        .execute(pool)
        .await?;
    Ok(())
}

/// A request from `address` carried an unknown API key: 401, or 429 once the address has
/// used up [`FREE_WRONG_KEYS_PER_ADDRESS`] within the window (then the try is not
/// recorded). Always an error: [`ApiError::Unauthorized`] or
/// [`ApiError::TooManyRequests`] (or the database's).
pub async fn wrong_key(pool: &crate::sql::Db, address: &str) -> ApiError {
    let result: ApiResult<ApiError> = async {
        let earlier: Vec<Ts> = crate::sql::query_scalar(
            "SELECT at FROM login_attempts WHERE email = '' AND address = $1 AND at > $2",
        )
        .bind(address)
        .bind(ts(window_start()))
        .fetch_all(pool)
        .await?;
        let times: Vec<DateTime<Utc>> = earlier.into_iter().map(|t| t.0).collect();
        if let Some(wait) = backoff_retry_after(&times, FREE_WRONG_KEYS_PER_ADDRESS, now()) {
            return Ok(ApiError::TooManyRequests(wait));
        }
        crate::sql::query("INSERT INTO login_attempts (email, address, at) VALUES ('', $1, $2)")
            .bind(address)
            .bind(ts(now()))
            .execute(pool)
            .await?;
        Ok(ApiError::Unauthorized)
    }
    .await;
    result.unwrap_or_else(|e| e)
}
