//! The audit trail (issue 15 § 4; `docs/decisions.md` § Audit trail): an append-only,
//! hash-chained record of every change to invoices, offers, purchases (with their
//! positions, payments, reminders and attachments), companies, recurring invoices, the
//! account's settings and users.
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

/// An audited table: its record type and, for a part of another record, the parent's type
/// and the column holding the parent's id.
struct Audited {
    table: &'static str,
    record_type: &'static str,
    parent: Option<(&'static str, &'static str)>,
}

const AUDITED: &[Audited] = &[
    Audited {
        table: "invoices",
        record_type: "invoice",
        parent: None,
    },
    Audited {
        table: "invoice_items",
        record_type: "invoice_position",
        parent: Some(("invoice", "invoice_id")),
    },
    Audited {
        table: "invoice_payments",
        record_type: "invoice_payment",
        parent: Some(("invoice", "invoice_id")),
    },
    Audited {
        table: "invoice_reminders",
        record_type: "invoice_reminder",
        parent: Some(("invoice", "invoice_id")),
    },
    Audited {
        table: "offers",
        record_type: "offer",
        parent: None,
    },
    Audited {
        table: "offer_items",
        record_type: "offer_position",
        parent: Some(("offer", "offer_id")),
    },
    Audited {
        table: "offer_attachments",
        record_type: "offer_attachment",
        parent: Some(("offer", "offer_id")),
    },
    Audited {
        table: "purchases",
        record_type: "purchase",
        parent: None,
    },
    Audited {
        table: "purchase_items",
        record_type: "purchase_position",
        parent: Some(("purchase", "purchase_id")),
    },
    Audited {
        table: "purchase_payments",
        record_type: "purchase_payment",
        parent: Some(("purchase", "purchase_id")),
    },
    Audited {
        table: "companies",
        record_type: "company",
        parent: None,
    },
    Audited {
        table: "recurring_invoices",
        record_type: "recurring_invoice",
        parent: None,
    },
    Audited {
        table: "account_settings",
        record_type: "account_settings",
        parent: None,
    },
    Audited {
        table: "users",
        record_type: "user",
        parent: None,
    },
];

/// Columns never recorded: the event's own time says when.
const UNTRACKED: &[&str] = &["updated_at"];

/// Columns whose values are secrets: the trail says that they changed, not to what.
const SECRETS: &[(&str, &str)] = &[
    ("account_settings", "smtp_password"),
    ("users", "password_hash"),
];

fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The trigger statements of one audited table with `columns`.
fn triggers(a: &Audited, columns: &[String]) -> Vec<String> {
    let tracked: Vec<&String> = columns
        .iter()
        .filter(|c| !UNTRACKED.contains(&c.as_str()))
        .collect();
    let value = |row: &str, c: &str| {
        if SECRETS.contains(&(a.table, c)) {
            format!(
                "CASE WHEN {row}.{} IS NULL THEN NULL ELSE '(secret)' END",
                quoted(c)
            )
        } else {
            format!("{row}.{}", quoted(c))
        }
    };
    let changes = |action: &str| {
        let terms: Vec<String> = tracked
            .iter()
            .map(|c| {
                let q = quoted(c);
                let (old, new, when) = match action {
                    "create" => ("NULL".to_string(), value("NEW", c), format!("NEW.{q} IS NOT NULL")),
                    "delete" => (value("OLD", c), "NULL".to_string(), format!("OLD.{q} IS NOT NULL")),
                    _ => (value("OLD", c), value("NEW", c), format!("OLD.{q} IS NOT NEW.{q}")),
                };
                format!(
                    "SELECT json_object('field', '{c}', 'old', {old}, 'new', {new}) AS c WHERE {when}"
                )
            })
            .collect();
        format!(
            "(SELECT coalesce(json_group_array(json(c)), '[]') FROM ({}))",
            terms.join(" UNION ALL ")
        )
    };
    let mut out = Vec::new();
    for (action, event, row) in [
        ("create", "INSERT", "NEW"),
        ("update", "UPDATE", "NEW"),
        ("delete", "DELETE", "OLD"),
    ] {
        let name = format!("audit_{}_{action}", a.table);
        let when = if action == "update" {
            let any: Vec<String> = tracked
                .iter()
                .map(|c| format!("OLD.{q} IS NOT NEW.{q}", q = quoted(c)))
                .collect();
            format!(" WHEN {}", any.join(" OR "))
        } else {
            String::new()
        };
        let (parent_type, parent_id) = match a.parent {
            Some((t, col)) => (format!("'{t}'"), format!("{row}.{}", quoted(col))),
            None => ("NULL".into(), "NULL".into()),
        };
        out.push(format!("DROP TRIGGER IF EXISTS {name}"));
        out.push(format!(
            "CREATE TRIGGER {name} AFTER {event} ON {table}{when} BEGIN \
             INSERT INTO audit_events (at, user_id, key_id, action, record_type, record_id, parent_type, parent_id, changes) \
             SELECT strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), x.user_id, x.key_id, '{action}', '{rt}', {row}.rowid, {parent_type}, {parent_id}, {changes} \
             FROM audit_actor x WHERE x.id = 1; END",
            table = quoted(a.table),
            rt = a.record_type,
            changes = changes(action),
        ));
    }
    out
}

/// The guards of `audit_events` (as in migration 0023): no DELETE, and UPDATE only to seal.
const GUARDS: &[&str] = &[
    "DROP TRIGGER IF EXISTS audit_events_no_delete",
    "CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events \
     BEGIN SELECT RAISE(ABORT, 'audit events are append-only'); END",
    "DROP TRIGGER IF EXISTS audit_events_seal_only",
    "CREATE TRIGGER audit_events_seal_only BEFORE UPDATE ON audit_events \
     WHEN OLD.hash IS NOT NULL OR NEW.hash IS NULL OR NEW.prev_hash IS NULL \
     OR NEW.id IS NOT OLD.id OR NEW.at IS NOT OLD.at OR NEW.user_id IS NOT OLD.user_id \
     OR NEW.key_id IS NOT OLD.key_id OR NEW.action IS NOT OLD.action \
     OR NEW.record_type IS NOT OLD.record_type OR NEW.record_id IS NOT OLD.record_id \
     OR NEW.parent_type IS NOT OLD.parent_type OR NEW.parent_id IS NOT OLD.parent_id \
     OR NEW.changes IS NOT OLD.changes \
     BEGIN SELECT RAISE(ABORT, 'audit events are append-only'); END",
];

/// (Re)creates the audit triggers of every audited table from the live schema, and the
/// guards of `audit_events` (a dropped guard comes back at the next start), in one
/// transaction. Run at every start after the migrations. Errors: the database's.
pub async fn install(pool: &crate::sql::Db) -> Result<(), sqlx::Error> {
    if pool.engine() == crate::sql::Engine::Postgres {
        return install_postgres(pool).await;
    }
    let mut tx = pool.begin_sqlite_with("BEGIN IMMEDIATE").await?;
    for statement in GUARDS {
        crate::sql::query(statement).execute(&mut tx).await?;
    }
    for a in AUDITED {
        let columns: Vec<String> =
            crate::sql::query_scalar("SELECT name FROM pragma_table_info(?) ORDER BY cid")
                .bind(a.table)
                .fetch_all(&mut tx)
                .await?;
        for statement in triggers(a, &columns) {
            crate::sql::query(&statement).execute(&mut tx).await?;
        }
    }
    tx.commit().await
}

/// A PostgreSQL value of `column` (of `data_type`, from `information_schema`) as the JSON
/// text the SQLite triggers write for the same column: decimals, dates and timestamps as
/// their stored text (`"119.00"`, `"2026-11-24"`, `"2026-11-24T10:00:00Z"`), flags as
/// 0/1, NULL as `null`; secrets as `"(secret)"`.
fn postgres_json(a: &Audited, row: &str, column: &str, data_type: &str) -> String {
    let v = format!("{row}.{}", quoted(column));
    if SECRETS.contains(&(a.table, column)) {
        return format!("CASE WHEN {v} IS NULL THEN 'null' ELSE '\"(secret)\"' END");
    }
    let json = match data_type {
        "boolean" => format!("to_json({v}::int)::text"),
        "bigint" | "integer" => format!("to_json({v})::text"),
        "timestamp with time zone" => format!(
            "to_json(to_char({v} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'))::text"
        ),
        _ => format!("to_json({v}::text)::text"),
    };
    format!("coalesce({json}, 'null')")
}

/// The PL/pgSQL trigger function and triggers of one audited table with `columns`
/// (name, data type): the same events, with the same JSON text, as [`triggers`] writes
/// on SQLite.
fn postgres_triggers(a: &Audited, columns: &[(String, String)]) -> Vec<String> {
    let tracked: Vec<&(String, String)> = columns
        .iter()
        .filter(|(c, _)| !UNTRACKED.contains(&c.as_str()))
        .collect();
    let term = |action: &str, (c, ty): &(String, String)| {
        let q = quoted(c);
        let (old, new, when) = match action {
            "create" => (
                "'null'".to_string(),
                postgres_json(a, "NEW", c, ty),
                format!("NEW.{q} IS NOT NULL"),
            ),
            "delete" => (
                postgres_json(a, "OLD", c, ty),
                "'null'".to_string(),
                format!("OLD.{q} IS NOT NULL"),
            ),
            _ => (
                postgres_json(a, "OLD", c, ty),
                postgres_json(a, "NEW", c, ty),
                format!("OLD.{q} IS DISTINCT FROM NEW.{q}"),
            ),
        };
        format!(
            "CASE WHEN {when} THEN '{{\"field\":' || to_json('{c}'::text)::text || ',\"old\":' || {old} || ',\"new\":' || {new} || '}}' END"
        )
    };
    let changes = |action: &str| {
        let terms: Vec<String> = tracked.iter().map(|c| term(action, c)).collect();
        format!(
            "'[' || coalesce(array_to_string(ARRAY[{}], ','), '') || ']'",
            terms.join(", ")
        )
    };
    let (parent_type, parent_new, parent_old) = match a.parent {
        Some((t, col)) => (
            format!("'{t}'"),
            format!("NEW.{}", quoted(col)),
            format!("OLD.{}", quoted(col)),
        ),
        None => ("NULL".into(), "NULL".into(), "NULL".into()),
    };
    let function = format!("audit_{}", a.table);
    let insert = |action: &str, row: &str, parent: &str| {
        format!(
            "INSERT INTO audit_events (at, user_id, key_id, action, record_type, record_id, parent_type, parent_id, changes) \
             SELECT date_trunc('second', clock_timestamp()), x.user_id, x.key_id, '{action}', '{rt}', {row}.id, {parent_type}, {parent}, changes \
             FROM audit_actor x WHERE x.id = 1;",
            rt = a.record_type,
        )
    };
    let body = format!(
        "DECLARE changes TEXT; BEGIN \
         IF TG_OP = 'INSERT' THEN changes := {create}; {insert_create} \
         ELSIF TG_OP = 'UPDATE' THEN changes := {update}; \
           IF changes <> '[]' THEN {insert_update} END IF; \
         ELSE changes := {delete}; {insert_delete} END IF; \
         RETURN NULL; END",
        create = changes("create"),
        update = changes("update"),
        delete = changes("delete"),
        insert_create = insert("create", "NEW", &parent_new),
        insert_update = insert("update", "NEW", &parent_new),
        insert_delete = insert("delete", "OLD", &parent_old),
    );
    vec![
        format!("CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $audit$ {body} $audit$"),
        format!("DROP TRIGGER IF EXISTS {function} ON {}", quoted(a.table)),
        format!(
            "CREATE TRIGGER {function} AFTER INSERT OR UPDATE OR DELETE ON {} FOR EACH ROW EXECUTE FUNCTION {function}()",
            quoted(a.table)
        ),
    ]
}

/// [`install`] on PostgreSQL: one PL/pgSQL trigger function per audited table, generated
/// from `information_schema`; the guards of `audit_events` come with the migration.
/// An advisory lock keeps two processes starting at once from replacing the same
/// functions concurrently. Errors: the database's.
async fn install_postgres(pool: &crate::sql::Db) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    crate::sql::query("SELECT pg_advisory_xact_lock(7415)")
        .execute(&mut tx)
        .await?;
    for a in AUDITED {
        let columns: Vec<(String, String)> = crate::sql::query_as(
            "SELECT column_name::text, data_type::text FROM information_schema.columns \
             WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
        )
        .bind(a.table)
        .fetch_all(&mut tx)
        .await?;
        for statement in postgres_triggers(a, &columns) {
            crate::sql::query(&statement).execute(&mut tx).await?;
        }
    }
    tx.commit().await
}

/// Writes `actor` as the author of the changes of the transaction on `conn`.
pub async fn set_actor(conn: &mut crate::sql::Tx, actor: Actor) -> Result<(), sqlx::Error> {
    crate::sql::query("UPDATE audit_actor SET user_id = ?, key_id = ? WHERE id = 1")
        .bind(actor.user_id)
        .bind(actor.key_id)
        .execute(conn)
        .await
        .map(|_| ())
}

/// An event's stored content, as hashed.
#[derive(sqlx::FromRow, Clone, Debug)]
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
    for e in &pending {
        let hash = content_hash(keys, &prev, e);
        crate::sql::query("UPDATE audit_events SET prev_hash = ?, hash = ? WHERE id = ?")
            .bind(&prev)
            .bind(&hash)
            .bind(e.id)
            .execute(&mut *conn)
            .await?;
        prev = hash;
    }
    Ok(pending.len())
}

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
