//! Opening the SQLite database (WAL, foreign keys, migrations) and column conversions.
//! Stored amounts, timestamps and statuses are read strictly ([`Dec`], [`Ts`], [`Word`]):
//! a corrupt value fails the query (a logged 500) instead of becoming 0, the epoch or
//! another status.

use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use sqlx::error::BoxDynError;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous, SqliteTypeInfo,
    SqliteValueRef,
};
use sqlx::Sqlite;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

/// The database file name inside the data directory.
pub const DB_FILE: &str = "kontor.db";

/// Starts a write transaction with `BEGIN IMMEDIATE`: it takes SQLite's write lock at
/// once (waiting up to the busy timeout), so it never fails half-way because another
/// connection committed in between — a deferred transaction that reads and then writes
/// gets `SQLITE_BUSY_SNAPSHOT` (code 517) under concurrent writers, which no busy timeout
/// resolves (found by `scripts/bench.sh` with 8 clients creating invoices). Every write
/// path uses it.
///
/// With the pool's group commit ([`crate::sql::write_group`]) the write takes its turn in
/// the group's transaction instead, and is answered by [`crate::sql::Tx::commit`] once
/// that committed.
///
/// Inside, before the caller's first statement: the request's actor is written for the
/// audit triggers ([`crate::proof::audit::set_actor`], from [`crate::proof::audit::current_actor`]) and
/// the events earlier writes left unsealed are sealed ([`crate::proof::audit::seal`]); at
/// its commit the transaction's own events are sealed inside it ([`crate::sql::Tx::before_commit`]).
/// Errors: the database's (500).
pub async fn begin_write(pool: &crate::sql::Db) -> Result<crate::sql::Tx, sqlx::Error> {
    // With group commit (either engine as the server opens it) the write runs in its turn of the
    // group's transaction, which seals every event right before its commit.
    if let Some(mut tx) = pool.begin_in_group().await? {
        // The actor row is written only when it changes within the group's transaction.
        let actor = crate::proof::audit::current_actor();
        let pair = (actor.user_id, actor.key_id);
        if !tx.group_holds_actor(pair) {
            crate::proof::audit::set_actor(&mut tx, actor).await?;
            tx.group_notes_actor(pair);
        }
        crate::http::request_claim::mark_committing(&mut tx).await?;
        return Ok(tx);
    }
    let mut tx = pool.begin_sqlite_with("BEGIN IMMEDIATE").await?;
    crate::proof::audit::set_actor(&mut tx, crate::proof::audit::current_actor()).await?;
    // Without registered keys (only while a database is being opened) events wait
    // unsealed for the next write.
    if let Some(keys) = crate::proof::audit_key::for_db(pool) {
        crate::proof::audit::seal(&mut tx, &keys).await?;
        // The transaction's own events are sealed right before it commits: one commit
        // (one sync of the disk) per write instead of a second for the seal (issue 35).
        tx.before_commit(Box::new(move |tx| {
            Box::pin(async move { crate::proof::audit::seal(tx, &keys).await.map(|_| ()) })
        }));
    }
    // An idempotent request's write marks its key in the same transaction (issue 29).
    crate::http::request_claim::mark_committing(&mut tx).await?;
    Ok(tx)
}

/// Seals the audit events `tx` wrote so far, inside `tx` (so they are written once, with
/// their hashes, when it commits) — for a write of thousands of rows (a bank statement
/// import), whose events would otherwise be read and written again by the seal after the
/// request ([`seal_audit`]). Answers how many were sealed (0 without registered keys).
/// Errors: the database's.
pub async fn seal_in(pool: &crate::sql::Db, tx: &mut crate::sql::Tx) -> Result<usize, sqlx::Error> {
    match crate::proof::audit_key::for_db(pool) {
        Some(keys) => crate::proof::audit::seal(tx, &keys).await,
        None => Ok(0),
    }
}

/// The SQLite page cache of a large write's connection, in KiB (128 MiB): a bank
/// statement import of 10,000 entries dirties ~90 MB of pages (audit events, the invoices
/// and indexes it updates). With the connection's usual cache (2 MB) SQLite spilled the
/// pages to the WAL and wrote them again and again — 589 MB written for an 88 MB WAL.
pub const LARGE_WRITE_CACHE_KIB: i64 = 128 * 1024;

/// Widens the page cache of `tx`'s SQLite connection to [`LARGE_WRITE_CACHE_KIB`] for a
/// large write and answers the setting to give back to [`restore_cache`] (which the caller
/// must call on success and failure alike, before the connection goes back to the pool:
/// a wide cache kept would hold its pages for good). Pages are only allocated as the write
/// touches them. PostgreSQL: nothing (answers 0). Errors: the database's.
pub async fn widen_cache(tx: &mut crate::sql::Tx) -> Result<i64, sqlx::Error> {
    if tx.engine() != crate::sql::Engine::Sqlite {
        return Ok(0);
    }
    let before: i64 = crate::sql::query_scalar("PRAGMA cache_size")
        .fetch_one(&mut *tx)
        .await?;
    crate::sql::query(&format!("PRAGMA cache_size = -{LARGE_WRITE_CACHE_KIB}"))
        .execute(&mut *tx)
        .await?;
    Ok(before)
}

/// Gives `tx`'s SQLite connection back the page cache setting `before` ([`widen_cache`]'s
/// answer). Dirty pages stay until the commit writes them; afterwards the cache shrinks to
/// the setting. PostgreSQL: nothing. Errors: the database's.
pub async fn restore_cache(tx: &mut crate::sql::Tx, before: i64) -> Result<(), sqlx::Error> {
    if tx.engine() != crate::sql::Engine::Sqlite {
        return Ok(());
    }
    crate::sql::query(&format!("PRAGMA cache_size = {before}"))
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// Runs `insert` (an `INSERT … RETURNING id`) alone in a write transaction
/// ([`begin_write`]: like every write, so an idempotent retry can tell whether it
/// committed, issue 29) and returns the new row's id. Errors: the database's (500).
pub async fn insert_returning_id(
    pool: &crate::sql::Db,
    insert: crate::sql::QueryScalar<'_, i64>,
) -> Result<i64, sqlx::Error> {
    let mut tx = begin_write(pool).await?;
    let id = insert.fetch_one(&mut tx).await?;
    tx.commit().await?;
    Ok(id)
}

/// Runs `statement` (an `UPDATE` or `DELETE`) alone in a write transaction
/// ([`begin_write`]) and returns what it did. Errors: the database's (500).
pub async fn write_alone(
    pool: &crate::sql::Db,
    statement: crate::sql::Query<'_>,
) -> Result<crate::sql::Done, sqlx::Error> {
    let mut tx = begin_write(pool).await?;
    let done = statement.execute(&mut tx).await?;
    tx.commit().await?;
    Ok(done)
}

/// Where `--database` / `KONTOR_DATABASE` puts the data (issue 16 § 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// A SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL server: the `postgres://…` URL as given (it may carry a password, so
    /// it is never printed).
    Postgres(String),
}

/// Reads `--database` / `KONTOR_DATABASE` (issue 16 § 1):
///
/// - `None` or empty: `<data_dir>/kontor.db`, the default;
/// - `sqlite://PATH` or `sqlite:PATH`: the SQLite file at `PATH` (relative to the working
///   directory; `sqlite:///abs/path.db` for an absolute one);
/// - `postgres://…` or `postgresql://…`: a PostgreSQL server (libpq's URL form, e.g.
///   `postgres://kontor:secret@db.internal/kontor` or
///   `postgres://kontor@localhost/kontor?host=/run/postgresql` for a Unix socket).
///
/// Errors, as a sentence naming `--database` (never echoing a URL, which may carry a
/// password): any other scheme; a SQLite URL without a path or with options (`?…`).
pub fn locate(database: Option<&str>, data_dir: &Path) -> Result<Location, String> {
    let url = database.map(str::trim).unwrap_or("");
    if url.is_empty() {
        return Ok(Location::Sqlite(data_dir.join(DB_FILE)));
    }
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Ok(Location::Postgres(url.to_string()));
    }
    let Some(path) = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
    else {
        return Err(
            "--database must be sqlite://PATH or postgres://… (or left out for <data>/kontor.db)"
                .to_string(),
        );
    };
    if path.is_empty() || path.contains('?') {
        return Err("--database sqlite://PATH needs a file path and takes no options".to_string());
    }
    Ok(Location::Sqlite(PathBuf::from(path)))
}

/// Opens the database named by `database` (`--database`, see [`locate`]), or
/// `<data_dir>/kontor.db` when it is `None` or empty, with the audit keys of `data_dir`
/// ([`crate::proof::audit::use_keys`]). Errors: those of [`locate`], [`open`], [`open_file`],
/// [`open_postgres`] and [`crate::proof::audit::use_keys`].
pub async fn open_located(
    database: Option<&str>,
    data_dir: &Path,
) -> Result<crate::sql::Db, String> {
    match database.filter(|d| !d.trim().is_empty()) {
        None => open(data_dir).await,
        Some(url) => {
            let db = match locate(Some(url), data_dir)? {
                Location::Sqlite(path) => open_file(&path).await?,
                Location::Postgres(url) => open_postgres(&url).await?,
            };
            crate::proof::audit::use_keys(&db, data_dir).await?;
            Ok(db)
        }
    }
}

/// Connects to the PostgreSQL server at `url` (a pool of up to 16 connections, each
/// checked before use so the pool recovers by itself after the server restarts), runs
/// the PostgreSQL migrations (`migrations/postgres/`) and commits the pool's writes in
/// groups as on SQLite ([`crate::sql::write_group`]).
///
/// Errors, as a sentence naming the host and database but never the password: a URL that
/// does not parse, a server that does not answer within 5 seconds or refuses the login,
/// or a failed migration.
pub async fn open_postgres(url: &str) -> Result<crate::sql::Db, String> {
    let options = PgConnectOptions::from_str(url)
        .map_err(|_| "--database: not a valid postgres:// URL".to_string())?;
    let place = format!(
        "database {:?} on {}",
        options.get_database().unwrap_or("(default)"),
        options
            .get_socket()
            .map(|s| s.display().to_string())
            .unwrap_or_else(|| format!("{}:{}", options.get_host(), options.get_port()))
    );
    let pool = PgPoolOptions::new()
        .max_connections(16)
        .acquire_timeout(Duration::from_secs(5))
        .test_before_acquire(true)
        .connect_with(options)
        .await
        .map_err(|e| format!("cannot connect to PostgreSQL ({place}): {e}"))?;
    crate::schema::migrator(crate::sql::Engine::Postgres)
        .run(&pool)
        .await
        .map_err(|e| format!("migration of PostgreSQL ({place}) failed: {e}"))?;
    let db = crate::sql::Db::Postgres(pool, None);
    crate::schema::derived::install(&db)
        .await
        .map_err(|e| format!("cannot install the kept totals on PostgreSQL ({place}): {e}"))?;
    crate::proof::audit::install(&db)
        .await
        .map_err(|e| format!("cannot install the audit trail: {e}"))?;
    Ok(with_group_commit(db))
}

/// Opens (creating if missing) `<data_dir>/kontor.db`, see [`open_file`], with the audit
/// keys of `data_dir` ([`crate::proof::audit::use_keys`]). Errors: the directory cannot be
/// created, or those of [`open_file`] and [`crate::proof::audit::use_keys`].
pub async fn open(data_dir: &Path) -> Result<crate::sql::Db, String> {
    std::fs::create_dir_all(data_dir)
        .map_err(|e| format!("cannot create {}: {e}", data_dir.display()))?;
    let db = open_file(&data_dir.join(DB_FILE)).await?;
    crate::proof::audit::use_keys(&db, data_dir).await?;
    Ok(db)
}

/// The SQLite pool's connections: 4 (issue 35, `docs/benchmarks.md` § Memory serving
/// lists). Each connection is a thread of sqlx's with its own page cache and, under glibc,
/// its own malloc arena: with 8 the server's peak RSS serving lists was 130 MB (budget
/// 100), with 4 it is 88 MB at the same list throughput and a higher creation rate — on
/// 2 cores more threads only queued for them. Writers take one at a time (the write lock).
pub const SQLITE_CONNECTIONS: u32 = 4;

/// Opens (creating if missing) the SQLite file `path` in WAL mode and runs the
/// migrations; its directory must exist.
///
/// Errors: the file cannot be opened or created (a sentence naming it), or a migration
/// fails.
pub async fn open_file(path: &Path) -> Result<crate::sql::Db, String> {
    let options = SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        // FULL: every commit's WAL frames are on disk before the commit returns, so a 2xx
        // means stored even across a power loss (`docs/decisions.md` § Durability).
        .synchronous(SqliteSynchronous::Full)
        .foreign_keys(true)
        .busy_timeout(Duration::from_secs(10));
    // No ping before handing out a connection: an embedded database has no link that
    // could have dropped, and each ping is a round trip to the connection's worker thread
    // (issue 13's profile, docs/benchmarks.md).
    let pool = SqlitePoolOptions::new()
        .max_connections(SQLITE_CONNECTIONS)
        .test_before_acquire(false)
        // Kontor's SQL functions (`crate::sql::functions`): the same on both engines.
        .after_connect(|conn, _| Box::pin(crate::sql::functions::register(conn)))
        .connect_with(options)
        .await
        .map_err(|e| format!("cannot open the database {}: {e}", path.display()))?;
    crate::schema::migrator(crate::sql::Engine::Sqlite)
        .run(&pool)
        .await
        .map_err(|e| format!("migration failed: {e}"))?;
    let pool = crate::sql::Db::Sqlite(pool, None);
    crate::schema::derived::install(&pool)
        .await
        .map_err(|e| format!("cannot install the kept totals: {e}"))?;
    // The audit trail's triggers follow the schema just migrated; what this process writes
    // before a request sets an actor is written by no one (`crate::proof::audit`).
    crate::proof::audit::install(&pool)
        .await
        .map_err(|e| format!("cannot install the audit trail: {e}"))?;
    let mut tx = begin_write(&pool)
        .await
        .map_err(|e| format!("cannot open database: {e}"))?;
    crate::proof::audit::set_actor(&mut tx, crate::proof::audit::Actor::default())
        .await
        .map_err(|e| format!("cannot open database: {e}"))?;
    tx.commit()
        .await
        .map_err(|e| format!("cannot open database: {e}"))?;
    Ok(with_group_commit(pool))
}

/// `pool` (either engine) with its writes committed in groups ([`crate::sql::write_group`], issue 35):
/// each group's transaction seals every event it wrote right before its `COMMIT`, with
/// the database's audit keys ([`crate::proof::audit::seal`]; without registered keys the
/// events wait unsealed for a later commit).
fn with_group_commit(pool: crate::sql::Db) -> crate::sql::Db {
    let keys_of = pool.clone();
    pool.with_write_group(std::sync::Arc::new(move |tx| {
        let keys = crate::proof::audit_key::for_db(&keys_of);
        Box::pin(async move {
            match keys {
                Some(keys) => crate::proof::audit::seal(tx, &keys).await.map(|_| ()),
                None => Ok(()),
            }
        })
    }))
}

/// Now, truncated to seconds, as stored and sent (`YYYY-MM-DDTHH:MM:SSZ`).
pub fn now() -> DateTime<Utc> {
    let t = Utc::now();
    DateTime::from_timestamp(t.timestamp(), 0).unwrap_or(t)
}

/// A timestamp to store (bound as SQLite TEXT `YYYY-MM-DDTHH:MM:SSZ` or PostgreSQL
/// `TIMESTAMPTZ`, see `crate::sql::Arg`); `to_string()` gives the text form.
pub fn ts(time: DateTime<Utc>) -> Ts {
    Ts(time)
}

impl std::fmt::Display for Ts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&kontor_model::timestamp::format(&self.0))
    }
}

/// Why a stored value could not be read (a sqlx decode error: the request fails with a
/// logged 500, `docs/decisions.md` § Server hardening).
fn corrupt(what: &str, text: &str) -> BoxDynError {
    format!("corrupt {what} column value {text:?}").into()
}

/// Declares `$t` a TEXT column type for SQLite (what sqlx checks before decoding).
macro_rules! text_column {
    ($t:ty) => {
        impl sqlx::Type<Sqlite> for $t {
            fn type_info() -> SqliteTypeInfo {
                <String as sqlx::Type<Sqlite>>::type_info()
            }
            fn compatible(ty: &SqliteTypeInfo) -> bool {
                <String as sqlx::Type<Sqlite>>::compatible(ty)
            }
        }
    };
}

/// A decimal column (amounts, quantities, percentages; stored as text). Reading a value
/// that is not a decimal fails the query: a corrupt amount is an error, never 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dec(pub Decimal);

text_column!(Dec);

impl<'r> sqlx::Decode<'r, Sqlite> for Dec {
    fn decode(value: SqliteValueRef<'r>) -> Result<Self, BoxDynError> {
        let text = <&str as sqlx::Decode<Sqlite>>::decode(value)?;
        Decimal::from_str(text)
            .map(Dec)
            .map_err(|_| corrupt("decimal", text))
    }
}

/// A timestamp column (`YYYY-MM-DDTHH:MM:SSZ`). Reading anything else fails the query: a
/// corrupt time is an error, never the epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ts(pub DateTime<Utc>);

text_column!(Ts);

impl<'r> sqlx::Decode<'r, Sqlite> for Ts {
    fn decode(value: SqliteValueRef<'r>) -> Result<Self, BoxDynError> {
        let text = <&str as sqlx::Decode<Sqlite>>::decode(value)?;
        kontor_model::timestamp::parse(text)
            .map(Ts)
            .ok_or_else(|| corrupt("timestamp", text))
    }
}

impl<'q> From<Dec> for crate::sql::Arg<'q> {
    fn from(v: Dec) -> Self {
        crate::sql::Arg::Decimal(Some(v.0))
    }
}

impl crate::sql::Nullable for Dec {
    fn null() -> crate::sql::Arg<'static> {
        crate::sql::Arg::Decimal(None)
    }
}

impl<'q> From<Ts> for crate::sql::Arg<'q> {
    fn from(v: Ts) -> Self {
        crate::sql::Arg::Timestamp(Some(v.0))
    }
}

impl<'q> From<&'q Ts> for crate::sql::Arg<'q> {
    fn from(v: &'q Ts) -> Self {
        crate::sql::Arg::Timestamp(Some(v.0))
    }
}

impl crate::sql::Nullable for Ts {
    fn null() -> crate::sql::Arg<'static> {
        crate::sql::Arg::Timestamp(None)
    }
}

/// A closed set of words stored in a TEXT column (statuses, kinds).
pub trait StoredWord: Sized {
    /// What the column holds, for the error (`"invoice status"`).
    const WHAT: &'static str;
    /// The value for a stored word; `None` for an unknown one.
    fn from_word(text: &str) -> Option<Self>;
}

/// A status or kind column. Reading an unknown word fails the query: an unknown stored
/// status is an error, never silently another status.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Word<T>(pub T);

impl<T: StoredWord> sqlx::Type<Sqlite> for Word<T> {
    fn type_info() -> SqliteTypeInfo {
        <String as sqlx::Type<Sqlite>>::type_info()
    }
    fn compatible(ty: &SqliteTypeInfo) -> bool {
        <String as sqlx::Type<Sqlite>>::compatible(ty)
    }
}

impl<'r, T: StoredWord> sqlx::Decode<'r, Sqlite> for Word<T> {
    fn decode(value: SqliteValueRef<'r>) -> Result<Self, BoxDynError> {
        let text = <&str as sqlx::Decode<Sqlite>>::decode(value)?;
        T::from_word(text)
            .map(Word)
            .ok_or_else(|| corrupt(T::WHAT, text))
    }
}

/// The PostgreSQL column types of the same wrappers: `NUMERIC` for [`Dec`] (read exactly,
/// never through a float), `TIMESTAMPTZ` for [`Ts`], `TEXT` for [`Word`] (issue 16 § 1).
mod postgres {
    use super::{corrupt, Dec, StoredWord, Ts, Word};
    use chrono::{DateTime, Utc};
    use rust_decimal::Decimal;
    use sqlx::error::BoxDynError;
    use sqlx::postgres::{PgTypeInfo, PgValueRef};
    use sqlx::{Decode, Postgres, Type};

    impl Type<Postgres> for Dec {
        fn type_info() -> PgTypeInfo {
            <Decimal as Type<Postgres>>::type_info()
        }
    }

    impl<'r> Decode<'r, Postgres> for Dec {
        /// sqlx reads every NUMERIC zero as `0`; the display scale (bytes 6–7 of the
        /// binary form) is put back, so a stored `0.00` reads as `0.00` as on SQLite.
        fn decode(value: PgValueRef<'r>) -> Result<Self, BoxDynError> {
            let scale = match value.format() {
                sqlx::postgres::PgValueFormat::Binary => value
                    .as_bytes()
                    .ok()
                    .and_then(|b| b.get(6..8))
                    .map(|b| u32::from(u16::from_be_bytes([b[0], b[1]]))),
                sqlx::postgres::PgValueFormat::Text => None,
            };
            let mut d = <Decimal as Decode<Postgres>>::decode(value)?;
            if let (true, Some(scale)) = (d.is_zero(), scale) {
                d.rescale(scale.min(28));
            }
            Ok(Dec(d))
        }
    }

    impl Type<Postgres> for Ts {
        fn type_info() -> PgTypeInfo {
            <DateTime<Utc> as Type<Postgres>>::type_info()
        }
    }

    impl<'r> Decode<'r, Postgres> for Ts {
        fn decode(value: PgValueRef<'r>) -> Result<Self, BoxDynError> {
            <DateTime<Utc> as Decode<Postgres>>::decode(value).map(Ts)
        }
    }

    impl<T: StoredWord> Type<Postgres> for Word<T> {
        fn type_info() -> PgTypeInfo {
            <String as Type<Postgres>>::type_info()
        }
        fn compatible(ty: &PgTypeInfo) -> bool {
            <String as Type<Postgres>>::compatible(ty)
        }
    }

    impl<'r, T: StoredWord> Decode<'r, Postgres> for Word<T> {
        fn decode(value: PgValueRef<'r>) -> Result<Self, BoxDynError> {
            let text = <&str as Decode<Postgres>>::decode(value)?;
            T::from_word(text)
                .map(Word)
                .ok_or_else(|| corrupt(T::WHAT, text))
        }
    }
}

macro_rules! stored_word {
    ($t:ty, $what:literal) => {
        impl StoredWord for $t {
            const WHAT: &'static str = $what;
            fn from_word(text: &str) -> Option<Self> {
                <$t>::parse(text)
            }
        }
    };
}

stored_word!(kontor_model::status::InvoiceStatus, "invoice status");
stored_word!(kontor_model::offer::OfferStatus, "offer status");
stored_word!(kontor_model::purchase::PurchaseStatus, "purchase status");
stored_word!(kontor_model::purchase::PaymentMethod, "payment method");
stored_word!(kontor_model::position::PositionType, "position type");
stored_word!(kontor_model::position_vat::TaxCategory, "tax category");
stored_word!(kontor_model::party::CompanyType, "company type");
stored_word!(kontor_model::party::Language, "language");
stored_word!(kontor_model::party::Gender, "gender");
stored_word!(kontor_model::party::EinvoiceFormat, "e-invoice format");
stored_word!(kontor_model::invoice::PaymentMeans, "payment means");
stored_word!(kontor_model::down_payment::InvoiceKind, "invoice kind");
stored_word!(kontor_model::article::SnippetKind, "text snippet kind");

/// Reading rows that SQLite wrote as one JSON array (`json_group_array(json_object(…))`,
/// the list layer's `fetch_document_page` on SQLite): each column type reads its JSON form —
/// text columns as strings, with the same strict checks as the column decoders above.
mod from_json {
    use super::{Dec, StoredWord, Ts, Word};
    use serde::de::{Deserialize, Deserializer, Error};
    use std::str::FromStr;

    impl<'de> Deserialize<'de> for Dec {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
            rust_decimal::Decimal::from_str(&text)
                .map(Dec)
                .map_err(|_| D::Error::custom(format!("corrupt decimal column value {text:?}")))
        }
    }

    impl<'de> Deserialize<'de> for Ts {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
            kontor_model::timestamp::parse(&text)
                .map(Ts)
                .ok_or_else(|| D::Error::custom(format!("corrupt timestamp column value {text:?}")))
        }
    }

    impl<'de, T: StoredWord> Deserialize<'de> for Word<T> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
            T::from_word(&text).map(Word).ok_or_else(|| {
                D::Error::custom(format!("corrupt {} column value {text:?}", T::WHAT))
            })
        }
    }
}

/// Reads an INTEGER 0/1 column from its JSON form (a number) as a boolean; anything else
/// is a corrupt value. For `#[serde(deserialize_with = "crate::store::db::int_bool")]`.
pub fn int_bool<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    match <i64 as serde::Deserialize>::deserialize(d)? {
        0 => Ok(false),
        1 => Ok(true),
        n => Err(<D::Error as serde::de::Error>::custom(format!(
            "corrupt boolean column value {n}"
        ))),
    }
}

/// Date column text `YYYY-MM-DD`.
pub fn date_text(date: NaiveDate) -> String {
    date.format("%Y-%m-%d").to_string()
}

/// Parses a JSON array column of strings (tags).
pub fn json_list(text: &str) -> Vec<String> {
    serde_json::from_str(text).unwrap_or_default()
}

/// Parses a JSON object column of strings (custom properties).
pub fn json_map(text: &str) -> std::collections::BTreeMap<String, String> {
    serde_json::from_str(text).unwrap_or_default()
}

/// Seals what writes outside [`begin_write`] left unsealed (a statement committed by
/// itself), in a write transaction of its own; nothing when all is sealed, which is the
/// rule: a write through [`begin_write`] seals its own events before it commits. The
/// question reads the unique index of the seals (the unsealed are its NULLs), not the
/// trail. Errors: the database's.
pub async fn seal_audit(pool: &crate::sql::Db) -> Result<(), sqlx::Error> {
    let open: Option<i64> =
        crate::sql::query_scalar("SELECT id FROM audit_events WHERE hash IS NULL LIMIT 1")
            .fetch_optional(pool)
            .await?;
    if open.is_some() {
        // `begin_write` seals.
        begin_write(pool).await?.commit().await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_reads_sqlite_urls_and_refuses_the_rest() {
        let data = Path::new("/srv/kontor");
        let file = |p: &str| Location::Sqlite(PathBuf::from(p));
        assert_eq!(locate(None, data).unwrap(), file("/srv/kontor/kontor.db"));
        assert_eq!(
            locate(Some("  "), data).unwrap(),
            file("/srv/kontor/kontor.db")
        );
        assert_eq!(
            locate(Some("sqlite:///var/db/k.db"), data).unwrap(),
            file("/var/db/k.db")
        );
        assert_eq!(locate(Some("sqlite:k.db"), data).unwrap(), file("k.db"));
        assert_eq!(
            locate(Some("postgres://u:secret@h/db"), data).unwrap(),
            Location::Postgres("postgres://u:secret@h/db".into())
        );
        for bad in ["sqlite://", "sqlite://k.db?mode=ro", "mysql://x/y", "k.db"] {
            assert!(locate(Some(bad), data).is_err(), "{bad}");
        }
    }
}
