//! The audit trail (issue 15 § 4; `docs/decisions.md` § Audit trail): an append-only,
//! hash-chained record of every change to invoices, offers, purchases (with their
//! positions, payments, reminders and attachments), companies, recurring invoices, the
//! account's settings, users, bank statements and transactions, articles and text
//! snippets.
//!
//! - **Written by triggers** ([`install`], at every start, from the live schema): each
//!   INSERT, UPDATE (of a tracked column) and DELETE of an audited table inserts one row
//!   into `audit_events` in the change's own transaction, with the changed fields' old and
//!   new values (`updated_at` is left out: the event has its own time; secrets show as
//!   `"(secret)"`). A change no handler forgets, because no handler writes it.
//! - **Who**: `db::begin_write` writes the request's [`Actor`]
//!   (from [`ACTOR`], set by the key check for the request) into `audit_actor` at the start
//!   of every write transaction; the triggers read it. Jobs and the command line write as
//!   no one (`null`).
//! - **Chained under a key**: [`seal`] gives each new row `prev_hash` and `hash` =
//!   `<key fingerprint>:` + hex HMAC-SHA256 of the previous hash and the row's content
//!   ([`content_hash`]) under the installation's audit key, which lives outside the
//!   database ([`crate::proof::audit_key`]; issue 29) — at the start of the next write
//!   transaction and right after each write request (`db::seal_audit`). Rows cannot be
//!   deleted, and updated only to be sealed once (triggers of migration 0023). Events
//!   sealed before keys existed (plain SHA-256) are anchored by the key file's `legacy`
//!   line.
//! - **Checked**: [`verify`] (`kontor-server audit verify`) recomputes the chain with the
//!   key file and names the first event whose content, link or seal does not match; a
//!   chain recomputed without the key fails. The head (the last sealed hash) is printed
//!   by `audit verify` and logged once a day ([`log_head_daily`]), so that it can be kept
//!   elsewhere and checked later (`audit verify --head HASH`).

use crate::proof::audit_key::Keyring;
use sha2::{Digest, Sha256};

mod triggers;
pub use triggers::*;

/// Who makes the change a write transaction is about to make.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Actor {
    /// The signed-in user (or the user the key acts for).
    pub user_id: Option<i64>,
    /// The API key or session key.
    pub key_id: Option<i64>,
}

tokio::task_local! {
    /// The actor of the request being handled (set around the handler by
    /// `auth::require_key`).
    pub static ACTOR: Actor;
}

/// The current request's actor, or no one (jobs, the command line).
pub fn current_actor() -> Actor {
    ACTOR.try_with(|a| *a).unwrap_or_default()
}

/// The hash before the first event (64 zeros).
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// Writes `actor` as the author of the changes of the transaction on `conn`.
pub async fn set_actor(conn: &mut crate::sql::Tx, actor: Actor) -> Result<(), sqlx::Error> {
    crate::sql::query("UPDATE audit_actor SET user_id = $1, key_id = $2 WHERE id = 1")
        .bind(actor.user_id)
        .bind(actor.key_id)
        .execute(conn)
        .await
        .map(|_| ())
}

/// An event's stored content, as hashed.
#[derive(sqlx_macros::FromRow, Clone, Debug)]
pub struct StoredEvent {
    /// Sequence number.
    pub id: i64,
    /// When (whole seconds, UTC; hashed as `YYYY-MM-DDTHH:MM:SSZ`, the text SQLite
    /// stores).
    pub at: chrono::DateTime<chrono::Utc>,
    /// User.
    pub user_id: Option<i64>,
    /// Key.
    pub key_id: Option<i64>,
    /// create/update/delete.
    pub action: String,
    /// Record type.
    pub record_type: String,
    /// Record id.
    pub record_id: i64,
    /// Parent type.
    pub parent_type: Option<String>,
    /// Parent id.
    pub parent_id: Option<i64>,
    /// The changes' JSON text as stored.
    pub changes: String,
    /// The previous event's hash (`None` until sealed).
    pub prev_hash: Option<String>,
    /// This event's hash (`None` until sealed).
    pub hash: Option<String>,
}

const EVENT_COLUMNS: &str = "id, at, user_id, key_id, action, record_type, record_id, \
    parent_type, parent_id, changes, prev_hash, hash";

/// The event's content as hashed: a JSON array `[id, at, user_id, key_id, action,
/// record_type, record_id, parent_type, parent_id, changes]` (changes as the stored text).
fn content(e: &StoredEvent) -> String {
    serde_json::json!([
        e.id,
        kontor_model::timestamp::format(&e.at),
        e.user_id,
        e.key_id,
        e.action,
        e.record_type,
        e.record_id,
        e.parent_type,
        e.parent_id,
        e.changes
    ])
    .to_string()
}

/// The seal of an event: `<fingerprint>:` + hex HMAC-SHA256 under the keyring's sealing
/// key of `prev_hash`, a newline, and the event's [`content`].
pub fn content_hash(keys: &Keyring, prev_hash: &str, e: &StoredEvent) -> String {
    keys.sign(&[prev_hash.as_bytes(), b"\n", content(e).as_bytes()])
}

/// The unkeyed seal of events sealed before issue 29: hex SHA-256 of `prev_hash`, a
/// newline, and the event's [`content`].
pub fn legacy_hash(prev_hash: &str, e: &StoredEvent) -> String {
    let mut h = Sha256::new();
    h.update(prev_hash.as_bytes());
    h.update(b"\n");
    h.update(content(e).as_bytes());
    hex::encode(h.finalize())
}

/// Seals the unsealed events on `conn` (inside a write transaction) with `keys`: each gets
/// the previous event's hash and its own. Returns how many. Errors: the database's.
pub async fn seal(conn: &mut crate::sql::Tx, keys: &Keyring) -> Result<usize, sqlx::Error> {
    let pending: Vec<StoredEvent> = crate::sql::query_as(&format!(
        "SELECT {EVENT_COLUMNS} FROM audit_events WHERE hash IS NULL ORDER BY id"
    ))
    .fetch_all(&mut *conn)
    .await?;
    if pending.is_empty() {
        return Ok(0);
    }
    let mut prev: String = crate::sql::query_scalar(
        "SELECT hash FROM audit_events WHERE hash IS NOT NULL ORDER BY id DESC LIMIT 1",
    )
    .fetch_optional(&mut *conn)
    .await?
    .unwrap_or_else(|| GENESIS.to_string());
    // Continuing a chain sealed with a key this process lacks would break it for good
    // (several processes with different key files): the write fails loudly instead.
    if let Some((fp, _)) = prev.split_once(':') {
        if !keys.knows(fp) {
            return Err(sqlx::Error::Protocol(format!(
                "the audit trail is sealed with audit key {fp}, which this process's key file lacks; every process needs the installation's key file (KONTOR_AUDIT_KEY_FILE)"
            )));
        }
    }
    let mut seals = Vec::with_capacity(pending.len());
    for e in &pending {
        let hash = content_hash(keys, &prev, e);
        seals.push((e.id, std::mem::replace(&mut prev, hash.clone()), hash));
    }
    // Written `json_rows::ROWS_PER_STATEMENT` rows per statement as one JSON parameter
    // (`crate::sql::json_rows`): a large write (a bank statement import books thousands of
    // payments, ~23,000 events) is sealed in a dozen statements, a small one in one.
    let update = SEAL.get(conn.engine());
    for chunk in seals.chunks(crate::sql::json_rows::ROWS_PER_STATEMENT) {
        let mut rows = crate::sql::json_rows::JsonRows::new();
        for (id, prev_hash, hash) in chunk {
            rows.push(&[
                crate::sql::Arg::from(*id),
                crate::sql::Arg::from(prev_hash.as_str()),
                crate::sql::Arg::from(hash.as_str()),
            ])?;
        }
        crate::sql::query(update)
            .bind(rows.into_text())
            .execute(&mut *conn)
            .await?;
    }
    Ok(pending.len())
}

/// The statement that seals the events of one JSON parameter (`[[id, prev_hash, hash],
/// …]`): joined to the rows it names (`UPDATE … FROM`, one lookup per row by its primary
/// key), on SQLite (3.33 and later) and PostgreSQL alike.
static SEAL: crate::sql::dialect::PerEngine = crate::sql::dialect::PerEngine::new(|engine| {
    use crate::sql::json_rows::{select, Kind};
    format!(
        "UPDATE audit_events SET prev_hash = seal.prev_hash, hash = seal.hash \
         FROM ({}) AS seal WHERE audit_events.id = seal.id",
        select(
            engine,
            "$1",
            &[
                ("id", Kind::Int),
                ("prev_hash", Kind::Text),
                ("hash", Kind::Text)
            ]
        )
    )
});

/// What [`verify`] found.
#[derive(Debug, PartialEq, Eq)]
pub struct Verified {
    /// Events checked (sealed).
    pub events: usize,
    /// Events not sealed yet (the last moments' changes; they follow every sealed one).
    pub unsealed: usize,
    /// The last sealed event's hash (keep it elsewhere: it proves that no event at the
    /// end was cut off later).
    pub head: String,
}

/// Recomputes the chain on `conn` with `keys`. Events sealed before keys existed verify as
/// plain SHA-256 up to the key file's `legacy` anchor, whose hash they must end in.
/// Errors: the id and the reason of the first event whose seal, link or order does not
/// match (a changed, inserted or deleted event, a chain recomputed without the key, a key
/// missing from the key file), or the database's error as text.
pub async fn verify(conn: &mut crate::sql::Tx, keys: &Keyring) -> Result<Verified, String> {
    let events: Vec<StoredEvent> = crate::sql::query_as(&format!(
        "SELECT {EVENT_COLUMNS} FROM audit_events ORDER BY id"
    ))
    .fetch_all(&mut *conn)
    .await
    .map_err(|e| e.to_string())?;
    let mut prev = GENESIS.to_string();
    let mut checked = 0;
    let mut unsealed = 0;
    let mut last_id = 0;
    for e in &events {
        if e.id != last_id + 1 {
            return Err(format!(
                "audit event {} follows {last_id}: events between them were deleted",
                e.id
            ));
        }
        last_id = e.id;
        match (&e.prev_hash, &e.hash) {
            (Some(p), Some(h)) => {
                if unsealed > 0 {
                    return Err(format!(
                        "audit event {} is sealed after unsealed events",
                        e.id
                    ));
                }
                if *p != prev {
                    return Err(format!(
                        "audit event {} does not link to the event before it (changed or deleted)",
                        e.id
                    ));
                }
                if h.contains(':') {
                    if let Err(why) = keys.check(h, &[p.as_bytes(), b"\n", content(e).as_bytes()]) {
                        return Err(format!(
                            "audit event {} was changed after it was written: {why}",
                            e.id
                        ));
                    }
                } else {
                    // Sealed before keys existed: only up to the anchor kept in the key file.
                    let anchored = keys.legacy.as_ref().filter(|(last, _)| e.id <= *last);
                    let Some((last, anchor)) = anchored else {
                        return Err(format!(
                            "audit event {} has a seal without a key (recomputed without the audit key)",
                            e.id
                        ));
                    };
                    if *h != legacy_hash(p, e) || (e.id == *last && h != anchor) {
                        return Err(format!(
                            "audit event {} was changed after it was written",
                            e.id
                        ));
                    }
                }
                prev = h.clone();
                checked += 1;
            }
            (None, None) => unsealed += 1,
            _ => return Err(format!("audit event {} is half sealed", e.id)),
        }
    }
    // The anchor held outside the database must still be in the trail: cutting the trail
    // back before it and recomputing the rest without a key is not an intact trail.
    if let Some((anchor, _)) = &keys.legacy {
        if checked < usize::try_from(*anchor).unwrap_or(usize::MAX) {
            return Err(format!(
                "the audit trail ends before event {anchor}, which the key file anchors: events were cut off"
            ));
        }
    }
    Ok(Verified {
        events: checked,
        unsealed,
        head: prev,
    })
}

/// The last sealed event's id and hash, if any event is sealed. Errors: the database's.
pub async fn head(conn: &mut crate::sql::Tx) -> Result<Option<(i64, String)>, sqlx::Error> {
    crate::sql::query_as(
        "SELECT id, hash FROM audit_events WHERE hash IS NOT NULL ORDER BY id DESC LIMIT 1",
    )
    .fetch_optional(conn)
    .await
}

/// Loads the audit keys of `data_dir` ([`crate::proof::audit_key::key_file`]) for `db` and
/// registers them, creating the key file when there is none and the trail has no keyed
/// event yet (a new installation, or one sealed without keys before issue 29: its last
/// such event becomes the `legacy` anchor, after its chain was checked).
///
/// Errors, as a sentence: the key file is unreadable or malformed; it is missing although
/// events are sealed with a key; the trail's last event is sealed with a key the file
/// lacks (another installation's key file); the unkeyed events do not verify.
pub async fn use_keys(db: &crate::sql::Db, data_dir: &std::path::Path) -> Result<(), String> {
    let path = crate::proof::audit_key::key_file(data_dir);
    let mut conn = db
        .acquire()
        .await
        .map_err(|e| format!("cannot read the audit trail: {e}"))?;
    let last = head(&mut conn)
        .await
        .map_err(|e| format!("cannot read the audit trail: {e}"))?;
    let keys = match crate::proof::audit_key::load(&path)? {
        Some(keys) => keys,
        None => {
            if let Some((id, hash)) = last.as_ref().filter(|(_, h)| h.contains(':')) {
                return Err(format!(
                    "the audit trail is sealed with audit key {} (event {id}), but the key file {} is missing: copy the installation's audit.key there, or name it with KONTOR_AUDIT_KEY_FILE",
                    hash.split(':').next().unwrap_or(""),
                    path.display()
                ));
            }
            // Events sealed without a key so far are anchored, once their chain checks.
            let legacy = last.clone();
            let keys = crate::proof::audit_key::Keyring::generate(legacy);
            if keys.legacy.is_some() {
                verify(&mut conn, &keys).await.map_err(|why| {
                    format!("the audit trail does not verify, so no key is made for it: {why}")
                })?;
            }
            crate::proof::audit_key::create(&path, &keys)?
        }
    };
    if let Some((id, hash)) = last.filter(|(_, h)| h.contains(':')) {
        let fp = hash.split(':').next().unwrap_or("");
        if !keys.knows(fp) {
            return Err(format!(
                "the audit trail's last event ({id}) is sealed with audit key {fp}, which is not in {}: every process of one installation needs the same key file (KONTOR_AUDIT_KEY_FILE)",
                path.display()
            ));
        }
    }
    drop(conn);
    crate::proof::audit_key::register(db, keys);
    Ok(())
}

/// The daily head log of [`log_head_daily`]; dropping it stops it (the server's run loop
/// holds it).
pub struct DailyHead(tokio::task::JoinHandle<()>);

impl Drop for DailyHead {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Writes the trail's head (last sealed event and hash) to the log now and then once a
/// day, so that it can be kept outside the installation (issue 29).
pub fn log_head_daily(db: crate::sql::Db) -> DailyHead {
    DailyHead(tokio::spawn(async move {
        let mut every = tokio::time::interval(std::time::Duration::from_secs(24 * 60 * 60));
        loop {
            every.tick().await;
            let result = async {
                let mut conn = db.acquire().await?;
                head(&mut conn).await
            }
            .await;
            match result {
                Ok(Some((id, hash))) => {
                    tracing::info!(event = id, head = %hash, "audit trail head (keep it elsewhere; check with `audit verify --head`)")
                }
                Ok(None) => tracing::info!("audit trail head: no event sealed yet"),
                Err(e) => tracing::warn!(error = %e, "cannot read the audit trail head"),
            }
        }
    }))
}

#[cfg(test)]
mod tests;
