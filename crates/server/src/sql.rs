//! The storage engine layer (issue 16 § 1): one query API over SQLite and PostgreSQL.
//!
//! Repositories and handlers write their SQL once, with `?` (or `?N`) placeholders, and run
//! it through [`query`], [`query_as`], [`query_scalar`] or a [`Builder`] on a [`Db`] (the
//! pool) or a [`Tx`] (a transaction or a pooled connection). This module binds the values
//! with their real types for the engine at hand — decimals as SQLite TEXT or PostgreSQL
//! `NUMERIC`, timestamps as SQLite TEXT `YYYY-MM-DDTHH:MM:SSZ` or `TIMESTAMPTZ`, dates as
//! TEXT `YYYY-MM-DD` or `DATE` ([`Arg`]) — and numbers the placeholders `$1, $2, …` for
//! PostgreSQL ([`numbered`]). Nothing goes through sqlx's `Any` driver, which would lose
//! the decimal and timestamp types (issue 16 § 1).
//!
//! Where the two dialects differ, the caller asks [`Db::engine`] / [`Tx::engine`] and
//! writes both forms side by side.

use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use sqlx::postgres::{PgArguments, PgConnection, PgPool, PgRow};
use sqlx::sqlite::{SqliteArguments, SqliteConnection, SqlitePool, SqliteRow};
use sqlx::{Arguments, Postgres, Sqlite};
use std::borrow::Cow;
use std::marker::PhantomData;

/// The storage engine behind a [`Db`] or [`Tx`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Embedded SQLite, the default (`<data>/kontor.db` or `--database sqlite://…`).
    Sqlite,
    /// A PostgreSQL server (`--database postgres://…`).
    Postgres,
}

/// The database pool of either engine. Cloning is cheap (the pools are shared handles).
#[derive(Clone, Debug)]
pub enum Db {
    /// SQLite pool.
    Sqlite(SqlitePool),
    /// PostgreSQL pool.
    Postgres(PgPool),
}

impl From<SqlitePool> for Db {
    fn from(pool: SqlitePool) -> Self {
        Db::Sqlite(pool)
    }
}

impl Db {
    /// Which engine this pool talks to.
    pub fn engine(&self) -> Engine {
        match self {
            Db::Sqlite(_) => Engine::Sqlite,
            Db::Postgres(_) => Engine::Postgres,
        }
    }

    /// A deferred transaction (SQLite `BEGIN`, PostgreSQL `BEGIN` at READ COMMITTED).
    /// Errors: the database's.
    pub async fn begin(&self) -> Result<Tx, sqlx::Error> {
        Ok(Tx(match self {
            Db::Sqlite(p) => Inner::SqliteTx(p.begin().await?),
            Db::Postgres(p) => Inner::PgTx(p.begin().await?),
        }))
    }

    /// A transaction opened with `statement` on SQLite (`"BEGIN IMMEDIATE"`) and with a
    /// plain `BEGIN` on PostgreSQL, where writers lock rows, not the file. Errors: the
    /// database's.
    pub async fn begin_sqlite_with(&self, statement: &'static str) -> Result<Tx, sqlx::Error> {
        Ok(Tx(match self {
            Db::Sqlite(p) => Inner::SqliteTx(p.begin_with(statement).await?),
            Db::Postgres(p) => Inner::PgTx(p.begin().await?),
        }))
    }

    /// A pooled connection outside any transaction (each statement commits by itself).
    /// Errors: the database's (pool timeout, connection refused).
    pub async fn acquire(&self) -> Result<Tx, sqlx::Error> {
        Ok(Tx(match self {
            Db::Sqlite(p) => Inner::SqliteConn(p.acquire().await?),
            Db::Postgres(p) => Inner::PgConn(p.acquire().await?),
        }))
    }

    /// Closes the pool, waiting for connections in use to come back.
    pub async fn close(&self) {
        match self {
            Db::Sqlite(p) => p.close().await,
            Db::Postgres(p) => p.close().await,
        }
    }

    /// Which database this pool opens, as text that is equal for two pools of the same
    /// database in one process (the SQLite file's path; PostgreSQL's host, port and
    /// database name — never the password). The audit keys are registered under it
    /// (`crate::audit_key::register`).
    pub fn identity(&self) -> String {
        match self {
            Db::Sqlite(p) => {
                let options = p.connect_options();
                let path = options.get_filename();
                let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
                format!("sqlite:{}", path.display())
            }
            Db::Postgres(p) => {
                let o = p.connect_options();
                format!(
                    "postgres:{}:{}/{}",
                    o.get_host(),
                    o.get_port(),
                    o.get_database().unwrap_or("")
                )
            }
        }
    }

    /// The SQLite pool, when this is SQLite (backups and file-level tools).
    pub fn as_sqlite(&self) -> Option<&SqlitePool> {
        match self {
            Db::Sqlite(p) => Some(p),
            Db::Postgres(_) => None,
        }
    }
}

/// A transaction or a pooled connection of either engine. Dropped without
/// [`commit`](Tx::commit), a transaction rolls back.
pub struct Tx(Inner);

enum Inner {
    SqliteTx(sqlx::Transaction<'static, Sqlite>),
    SqliteConn(sqlx::pool::PoolConnection<Sqlite>),
    SqliteOwn(Box<SqliteConnection>),
    PgTx(sqlx::Transaction<'static, Postgres>),
    PgConn(sqlx::pool::PoolConnection<Postgres>),
}

impl Tx {
    /// Wraps a SQLite connection opened outside any pool (the CLI's file tools).
    pub fn from_sqlite(conn: SqliteConnection) -> Self {
        Tx(Inner::SqliteOwn(Box::new(conn)))
    }

    /// Which engine this transaction runs on.
    pub fn engine(&self) -> Engine {
        match &self.0 {
            Inner::SqliteTx(_) | Inner::SqliteConn(_) | Inner::SqliteOwn(_) => Engine::Sqlite,
            Inner::PgTx(_) | Inner::PgConn(_) => Engine::Postgres,
        }
    }

    /// Commits a transaction; nothing for a plain connection. Errors: the database's.
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        match self.0 {
            Inner::SqliteTx(t) => t.commit().await,
            Inner::PgTx(t) => t.commit().await,
            Inner::SqliteConn(_) | Inner::SqliteOwn(_) | Inner::PgConn(_) => Ok(()),
        }
    }

    /// Closes a connection opened with [`Tx::from_sqlite`] (releasing its file); a
    /// transaction rolls back, a pooled connection goes back to its pool.
    pub async fn close(self) {
        if let Inner::SqliteOwn(c) = self.0 {
            let _ = sqlx::Connection::close(*c).await;
        }
    }

    /// Rolls a transaction back; nothing for a plain connection. Errors: the database's.
    pub async fn rollback(self) -> Result<(), sqlx::Error> {
        match self.0 {
            Inner::SqliteTx(t) => t.rollback().await,
            Inner::PgTx(t) => t.rollback().await,
            Inner::SqliteConn(_) | Inner::SqliteOwn(_) | Inner::PgConn(_) => Ok(()),
        }
    }
}

/// Where a statement runs: a pool or one connection, of either engine.
pub enum Target<'e> {
    /// Any connection of a SQLite pool.
    SqlitePool(&'e SqlitePool),
    /// One SQLite connection (inside a transaction or not).
    Sqlite(&'e mut SqliteConnection),
    /// Any connection of a PostgreSQL pool.
    PgPool(&'e PgPool),
    /// One PostgreSQL connection.
    Pg(&'e mut PgConnection),
}

/// What a statement can run on: `&Db` or `&mut Tx`.
pub trait Executor<'e> {
    /// The pool or connection to run on.
    fn target(self) -> Target<'e>;
}

impl<'e> Executor<'e> for &'e Db {
    fn target(self) -> Target<'e> {
        match self {
            Db::Sqlite(p) => Target::SqlitePool(p),
            Db::Postgres(p) => Target::PgPool(p),
        }
    }
}

impl<'e> Executor<'e> for &'e mut Tx {
    fn target(self) -> Target<'e> {
        match &mut self.0 {
            Inner::SqliteTx(t) => Target::Sqlite(t),
            Inner::SqliteConn(c) => Target::Sqlite(c),
            Inner::SqliteOwn(c) => Target::Sqlite(c),
            Inner::PgTx(t) => Target::Pg(t),
            Inner::PgConn(c) => Target::Pg(c),
        }
    }
}

impl<'e> Executor<'e> for &'e mut &mut Tx {
    fn target(self) -> Target<'e> {
        (&mut **self).target()
    }
}

/// A bound value with its type, so each engine stores it in its own column type.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg<'q> {
    /// An integer (ids, counts, days, cents); SQLite INTEGER, PostgreSQL `BIGINT`.
    Int(Option<i64>),
    /// A flag; SQLite INTEGER 0/1, PostgreSQL `BOOLEAN`.
    Bool(Option<bool>),
    /// Text; both `TEXT`.
    Text(Option<Cow<'q, str>>),
    /// Bytes (hashes); SQLite BLOB, PostgreSQL `BYTEA`.
    Bytes(Option<Cow<'q, [u8]>>),
    /// An exact decimal (amounts, quantities, percent); SQLite TEXT, PostgreSQL `NUMERIC`.
    Decimal(Option<Decimal>),
    /// A point in time, whole seconds, UTC; SQLite TEXT `YYYY-MM-DDTHH:MM:SSZ`,
    /// PostgreSQL `TIMESTAMPTZ`.
    Timestamp(Option<DateTime<Utc>>),
    /// A calendar date; SQLite TEXT `YYYY-MM-DD`, PostgreSQL `DATE`.
    Date(Option<NaiveDate>),
}

/// The typed NULL of a bindable type (what `None` binds as).
pub trait Nullable {
    /// NULL of this type.
    fn null() -> Arg<'static>;
}

macro_rules! arg_from {
    ($variant:ident, $t:ty, |$v:ident| $e:expr) => {
        impl<'q> From<$t> for Arg<'q> {
            fn from($v: $t) -> Self {
                Arg::$variant(Some($e))
            }
        }
        impl Nullable for $t {
            fn null() -> Arg<'static> {
                Arg::$variant(None)
            }
        }
    };
    ('q $variant:ident, $t:ty, |$v:ident| $e:expr) => {
        impl<'q> From<$t> for Arg<'q> {
            fn from($v: $t) -> Self {
                Arg::$variant(Some($e))
            }
        }
        impl<'q> Nullable for $t {
            fn null() -> Arg<'static> {
                Arg::$variant(None)
            }
        }
    };
}

arg_from!(Int, i64, |v| v);
arg_from!('q Int, &'q i64, |v| *v);
arg_from!(Int, i32, |v| i64::from(v));
arg_from!(Int, u32, |v| i64::from(v));
arg_from!(Int, u16, |v| i64::from(v));
arg_from!(Int, u8, |v| i64::from(v));
arg_from!(Bool, bool, |v| v);
arg_from!(Text, String, |v| Cow::Owned(v));
arg_from!('q Text, &'q str, |v| Cow::Borrowed(v));
arg_from!('q Text, &'q String, |v| Cow::Borrowed(v.as_str()));
arg_from!('q Text, Cow<'q, str>, |v| v);
arg_from!(Bytes, Vec<u8>, |v| Cow::Owned(v));
arg_from!('q Bytes, &'q [u8], |v| Cow::Borrowed(v));
arg_from!('q Bytes, &'q Vec<u8>, |v| Cow::Borrowed(v.as_slice()));
arg_from!(Decimal, Decimal, |v| v);
arg_from!('q Decimal, &'q Decimal, |v| *v);
arg_from!(Timestamp, DateTime<Utc>, |v| v);
arg_from!('q Date, &'q NaiveDate, |v| *v);
arg_from!(Date, NaiveDate, |v| v);

impl<'q, T: Into<Arg<'q>> + Nullable> From<Option<T>> for Arg<'q> {
    fn from(v: Option<T>) -> Self {
        match v {
            Some(v) => v.into(),
            None => T::null(),
        }
    }
}

impl<'q> From<&'q Option<String>> for Arg<'q> {
    fn from(v: &'q Option<String>) -> Self {
        Arg::Text(v.as_deref().map(Cow::Borrowed))
    }
}

impl<'q> From<&'q Option<i64>> for Arg<'q> {
    fn from(v: &'q Option<i64>) -> Self {
        Arg::Int(*v)
    }
}

impl Arg<'_> {
    /// Adds this value to SQLite arguments, in the stored text forms (decimal text,
    /// `YYYY-MM-DDTHH:MM:SSZ`, `YYYY-MM-DD`).
    fn add_sqlite<'a>(&'a self, args: &mut SqliteArguments<'a>) -> Result<(), sqlx::Error> {
        let r = match self {
            Arg::Int(v) => args.add(*v),
            Arg::Bool(v) => args.add(*v),
            Arg::Text(v) => args.add(v.as_deref()),
            Arg::Bytes(v) => args.add(v.as_deref()),
            Arg::Decimal(v) => args.add(v.map(|d| d.to_string())),
            Arg::Timestamp(v) => args.add(v.map(|t| kontor_model::timestamp::format(&t))),
            Arg::Date(v) => args.add(v.map(|d| d.format("%Y-%m-%d").to_string())),
        };
        r.map_err(sqlx::Error::Encode)
    }

    /// Adds this value to PostgreSQL arguments, with its native type.
    fn add_pg(&self, args: &mut PgArguments) -> Result<(), sqlx::Error> {
        let r = match self {
            Arg::Int(v) => args.add(*v),
            Arg::Bool(v) => args.add(*v),
            Arg::Text(v) => args.add(v.as_deref().map(str::to_owned)),
            Arg::Bytes(v) => args.add(v.as_deref().map(<[u8]>::to_vec)),
            Arg::Decimal(v) => args.add(v.map(PgDecimal)),
            Arg::Timestamp(v) => args.add(*v),
            Arg::Date(v) => args.add(*v),
        };
        r.map_err(sqlx::Error::Encode)
    }
}

/// A decimal bound as PostgreSQL `NUMERIC` with its scale kept: sqlx encodes every zero
/// as `0` (scale 0), so a stored `0.00` would read back as `0`; a zero is written here
/// with its scale (NUMERIC's binary form: no digits, weight 0, sign +, the display scale).
struct PgDecimal(Decimal);

impl sqlx::Type<Postgres> for PgDecimal {
    fn type_info() -> sqlx::postgres::PgTypeInfo {
        <Decimal as sqlx::Type<Postgres>>::type_info()
    }
}

impl sqlx::Encode<'_, Postgres> for PgDecimal {
    fn encode_by_ref(
        &self,
        buf: &mut sqlx::postgres::PgArgumentBuffer,
    ) -> Result<sqlx::encode::IsNull, sqlx::error::BoxDynError> {
        if self.0.is_zero() {
            let scale = u16::try_from(self.0.scale())?;
            buf.extend_from_slice(&0i16.to_be_bytes()); // ndigits
            buf.extend_from_slice(&0i16.to_be_bytes()); // weight
            buf.extend_from_slice(&0u16.to_be_bytes()); // sign: positive
            buf.extend_from_slice(&scale.to_be_bytes()); // display scale
            return Ok(sqlx::encode::IsNull::No);
        }
        <Decimal as sqlx::Encode<Postgres>>::encode_by_ref(&self.0, buf)
    }
}

/// A type every engine can read from a column (`query_scalar`, [`Row::try_get`]).
pub trait Value:
    for<'r> sqlx::Decode<'r, Sqlite>
    + sqlx::Type<Sqlite>
    + for<'r> sqlx::Decode<'r, Postgres>
    + sqlx::Type<Postgres>
    + Send
    + Unpin
{
}

impl<T> Value for T where
    T: for<'r> sqlx::Decode<'r, Sqlite>
        + sqlx::Type<Sqlite>
        + for<'r> sqlx::Decode<'r, Postgres>
        + sqlx::Type<Postgres>
        + Send
        + Unpin
{
}

/// A row type every engine can build (`query_as`): derive `sqlx::FromRow` with [`Value`]
/// fields, or use a tuple of them.
pub trait Record:
    for<'r> sqlx::FromRow<'r, SqliteRow> + for<'r> sqlx::FromRow<'r, PgRow> + Send + Unpin
{
}

impl<T> Record for T where
    T: for<'r> sqlx::FromRow<'r, SqliteRow> + for<'r> sqlx::FromRow<'r, PgRow> + Send + Unpin
{
}

/// A column name or position valid for both engines' rows.
pub trait ColumnIndex: sqlx::ColumnIndex<SqliteRow> + sqlx::ColumnIndex<PgRow> {}
impl<I: sqlx::ColumnIndex<SqliteRow> + sqlx::ColumnIndex<PgRow>> ColumnIndex for I {}

/// One result row of either engine.
pub enum Row {
    /// A SQLite row.
    Sqlite(SqliteRow),
    /// A PostgreSQL row.
    Pg(PgRow),
}

impl Row {
    /// The value of column `index` (a name or a position). Errors: no such column, or a
    /// value of another type (sqlx's decode error, a logged 500).
    pub fn try_get<T: Value, I: ColumnIndex>(&self, index: I) -> Result<T, sqlx::Error> {
        match self {
            Row::Sqlite(r) => sqlx::Row::try_get(r, index),
            Row::Pg(r) => sqlx::Row::try_get(r, index),
        }
    }

    /// Builds a [`Record`] from this row. Errors: as [`Row::try_get`].
    pub fn to<T: Record>(&self) -> Result<T, sqlx::Error> {
        match self {
            Row::Sqlite(r) => T::from_row(r),
            Row::Pg(r) => T::from_row(r),
        }
    }
}

/// What a statement changed.
#[derive(Clone, Copy, Debug)]
pub struct Done {
    rows: u64,
}

impl Done {
    /// How many rows the statement inserted, updated or deleted.
    pub fn rows_affected(&self) -> u64 {
        self.rows
    }
}

/// `sql` with its placeholders numbered for PostgreSQL: `?NNN` becomes `$NNN` and a bare
/// `?` the next number after the largest so far (SQLite's rule), outside quoted text,
/// quoted names and `--` comments. Text without `?` is returned as it is.
pub fn numbered(sql: &str) -> Cow<'_, str> {
    if !sql.contains('?') {
        return Cow::Borrowed(sql);
    }
    let mut out = String::with_capacity(sql.len() + 16);
    let mut largest = 0u32;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                out.push(c);
                for q in chars.by_ref() {
                    out.push(q);
                    // A doubled quote reopens at once, so it needs no special case.
                    if q == c {
                        break;
                    }
                }
            }
            '-' if chars.peek() == Some(&'-') => {
                out.push(c);
                for q in chars.by_ref() {
                    out.push(q);
                    if q == '\n' {
                        break;
                    }
                }
            }
            '?' => {
                let mut digits = String::new();
                while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    digits.push(*d);
                    chars.next();
                }
                let n = match digits.parse::<u32>() {
                    Ok(n) => n,
                    Err(_) => largest.saturating_add(1),
                };
                largest = largest.max(n);
                out.push('$');
                out.push_str(&n.to_string());
            }
            _ => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// The portable SQL function [`MILLI`] (`kontor_milli(column)`): a stored amount as an
/// exact BIGINT count of thousandths of a currency unit, truncated toward zero
/// (`119.5` → 119500, `-0.05` → −50). Written once in the SQL of the lists' summaries and
/// open amounts (the summary module), expanded here for each engine: on SQLite, whose
/// amounts are decimal text, by taking the text apart (the sign, the integer digits × 1000,
/// the first three fraction digits; no float on the way); on PostgreSQL, whose amounts are
/// `NUMERIC`, by `trunc(x * 1000)`.
pub const MILLI: &str = "kontor_milli(";

fn milli_sqlite(x: &str) -> String {
    format!(
        "(CASE WHEN substr({x}, 1, 1) = '-' THEN -1 ELSE 1 END * (\
         CAST(CASE WHEN instr({x}, '.') > 0 THEN substr(ltrim({x}, '-'), 1, instr(ltrim({x}, '-'), '.') - 1) \
         ELSE ltrim({x}, '-') END AS INTEGER) * 1000 \
         + CASE WHEN instr({x}, '.') > 0 THEN CAST(substr(substr({x}, instr({x}, '.') + 1) || '000', 1, 3) AS INTEGER) ELSE 0 END))"
    )
}

fn milli_postgres(x: &str) -> String {
    format!("trunc(CAST({x} AS NUMERIC) * 1000)::BIGINT")
}

/// `sql` with every portable function ([`MILLI`]) written out for `engine`. Its argument
/// is a column or a placeholder (no parentheses). Text without one is returned as it is.
pub fn expanded(sql: &str, engine: Engine) -> Cow<'_, str> {
    if !sql.contains(MILLI) {
        return Cow::Borrowed(sql);
    }
    let mut out = String::with_capacity(sql.len() * 2);
    let mut rest = sql;
    while let Some(at) = rest.find(MILLI) {
        out.push_str(&rest[..at]);
        let after = &rest[at + MILLI.len()..];
        let Some(close) = after.find(')') else {
            out.push_str(&rest[at..]);
            rest = "";
            break;
        };
        let arg = after[..close].trim();
        out.push_str(&match engine {
            Engine::Sqlite => milli_sqlite(arg),
            Engine::Postgres => milli_postgres(arg),
        });
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// The SQLite spellings the repositories use that PostgreSQL spells otherwise, rewritten
/// for PostgreSQL (the SQL is written once, in SQLite's spelling):
///
/// - `json_object(k, v, …)` → `json_build_object(k, kontor_v(v), …)`, `json_array(…)` →
///   `json_build_array(…)`, `json_group_array(x ORDER BY y)` →
///   `coalesce(json_agg(x ORDER BY y), '[]')`, `json_set(o, '$.k', v, …)` → `o` merged
///   with `jsonb_build_object('k', v, …)`. `kontor_v` (migration `postgres/0024`) gives
///   each value the JSON form SQLite gives it: decimals, dates and timestamps as their
///   stored text, flags as 0/1. Outside another JSON call the result is read as text.
/// - `x COLLATE NOCASE` → `lower(x)`.
/// - `group_concat(x, s)` → `string_agg(x, s)`, `char(n)` → `chr(n)`.
/// - `LIKE` → `ILIKE` (SQLite's LIKE ignores the case of ASCII letters; the searches
///   rely on it).
/// - `json_each(x)` (a JSON array or object column) → `kontor_json_each(x)` (migration
///   `postgres/0024`), with SQLite's `key` and `value` columns.
/// - `SUM(x)` → `CAST(SUM(x) AS BIGINT)`: the SQL only sums integers (counts and
///   thousandths, the summary module's `milli!`), whose sum is an INTEGER on SQLite but a
///   `NUMERIC` on PostgreSQL.
/// - `MAX(a, b)` / `MIN(a, b)` (SQLite's two-argument forms) → `GREATEST` / `LEAST`.
pub fn postgres_dialect(sql: &str) -> Cow<'_, str> {
    const WORDS: [&str; 12] = [
        "char(",
        "LIKE",
        "json_each",
        "json_object",
        "json_array",
        "json_group_array",
        "json_set",
        "COLLATE NOCASE",
        "group_concat",
        "SUM(",
        "MAX(",
        "MIN(",
    ];
    if !WORDS.iter().any(|w| sql.contains(w)) {
        return Cow::Borrowed(sql);
    }
    Cow::Owned(rewrite(sql, false))
}

/// Splits the argument list that starts after the `(` at `open` into its top-level
/// arguments; returns them and the index after the closing `)`.
fn arguments(sql: &str, open: usize) -> (Vec<&str>, usize) {
    let bytes = sql.as_bytes();
    let mut depth = 0usize;
    let mut start = open + 1;
    let mut args = Vec::new();
    let mut i = open + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\'' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'\'' {
                    i += 1;
                }
            }
            b'(' => depth += 1,
            b')' if depth == 0 => {
                args.push(&sql[start..i]);
                return (args, i + 1);
            }
            b')' => depth -= 1,
            b',' if depth == 0 => {
                args.push(&sql[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    args.push(&sql[start..]);
    (args, bytes.len())
}

/// The top-level ` ORDER BY ` of an aggregate's argument, split off.
fn split_order(arg: &str) -> (&str, Option<&str>) {
    let bytes = arg.as_bytes();
    let mut depth = 0i32;
    for (i, b) in bytes.iter().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b'O' if depth == 0 && arg[i..].starts_with("ORDER BY ") => {
                return (&arg[..i], Some(&arg[i + "ORDER BY ".len()..]));
            }
            _ => {}
        }
    }
    (arg, None)
}

fn rewrite(sql: &str, nested: bool) -> String {
    let bytes = sql.as_bytes();
    let mut out = String::with_capacity(sql.len() + 64);
    let mut last_operand: Option<usize> = None;
    let mut i = 0;
    let value = |a: &str| format!("kontor_v({})", rewrite(a.trim(), true));
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\'' {
            let start = i;
            i += 1;
            while i < bytes.len() && bytes[i] != b'\'' {
                i += 1;
            }
            i = (i + 1).min(bytes.len());
            last_operand = Some(out.len());
            out.push_str(&sql[start..i]);
            continue;
        }
        if c == b'(' {
            let (args, end) = arguments(sql, i);
            let at = out.len();
            out.push('(');
            let inner: Vec<String> = args.iter().map(|a| rewrite(a, nested)).collect();
            out.push_str(&inner.join(","));
            out.push(')');
            last_operand = Some(at);
            i = end;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'.')
            {
                i += 1;
            }
            let word = &sql[start..i];
            if word == "COLLATE" && sql[i..].starts_with(" NOCASE") {
                if let Some(at) = last_operand {
                    out.insert_str(at, "lower(");
                    out.truncate(out.trim_end().len());
                    out.push(')');
                }
                i += " NOCASE".len();
                continue;
            }
            let open = sql[i..].find(|ch: char| !ch.is_whitespace()).map(|k| i + k);
            let call = open.filter(|&o| bytes[o] == b'(');
            let func = match (word, call) {
                (
                    "json_object" | "json_array" | "json_group_array" | "json_set" | "group_concat"
                    | "char" | "SUM" | "MAX" | "MIN",
                    Some(o),
                ) => Some(o),
                _ => None,
            };
            if word == "LIKE" {
                out.push_str("ILIKE");
                last_operand = None;
                continue;
            }
            if let (Some(o), "json_each") = (call, word) {
                let (args, end) = arguments(sql, o);
                let x = rewrite(args.first().copied().unwrap_or("").trim(), nested);
                out.push_str(&format!("kontor_json_each({x}) AS json_each"));
                i = end;
                continue;
            }
            let Some(o) = func else {
                last_operand = Some(out.len());
                out.push_str(word);
                continue;
            };
            let (args, end) = arguments(sql, o);
            let text = if nested { "" } else { "::text" };
            let rendered = match word {
                "json_object" => {
                    let parts: Vec<String> = args
                        .chunks(2)
                        .map(|kv| match kv {
                            [k, v] => format!("{}, {}", k.trim(), value(v)),
                            [k] => k.trim().to_string(),
                            _ => String::new(),
                        })
                        .collect();
                    format!("json_build_object({}){text}", parts.join(", "))
                }
                "json_array" => {
                    let parts: Vec<String> = args.iter().map(|a| value(a)).collect();
                    format!("json_build_array({}){text}", parts.join(", "))
                }
                "json_group_array" => {
                    let (x, order) = split_order(args.first().copied().unwrap_or(""));
                    let order = order
                        .map(|o| format!(" ORDER BY {}", rewrite(o.trim(), false)))
                        .unwrap_or_default();
                    format!(
                        "coalesce(json_agg({}{order}), '[]'::json){text}",
                        rewrite(x.trim(), true)
                    )
                }
                "json_set" => {
                    let object = rewrite(args.first().copied().unwrap_or("").trim(), true);
                    let parts: Vec<String> = args[1.min(args.len())..]
                        .chunks(2)
                        .map(|kv| match kv {
                            [k, v] => format!(
                                "'{}', {}",
                                k.trim().trim_matches('\'').trim_start_matches("$."),
                                value(v)
                            ),
                            _ => String::new(),
                        })
                        .collect();
                    format!(
                        "(({object})::jsonb || jsonb_build_object({}))::json{text}",
                        parts.join(", ")
                    )
                }
                "SUM" => {
                    let parts: Vec<String> = args.iter().map(|a| rewrite(a, nested)).collect();
                    format!("CAST(SUM({}) AS BIGINT)", parts.join(","))
                }
                "MAX" | "MIN" => {
                    let parts: Vec<String> = args.iter().map(|a| rewrite(a, nested)).collect();
                    let name = match (word, args.len()) {
                        ("MAX", 2..) => "GREATEST",
                        ("MIN", 2..) => "LEAST",
                        _ => word,
                    };
                    format!("{name}({})", parts.join(","))
                }
                "group_concat" => {
                    let parts: Vec<String> =
                        args.iter().map(|a| rewrite(a.trim(), nested)).collect();
                    format!("string_agg({})", parts.join(", "))
                }
                _ => {
                    let parts: Vec<String> =
                        args.iter().map(|a| rewrite(a.trim(), nested)).collect();
                    format!("chr({})", parts.join(", "))
                }
            };
            last_operand = Some(out.len());
            out.push_str(&rendered);
            i = end;
            continue;
        }
        if !c.is_ascii_whitespace() {
            last_operand = None;
        }
        // Copy one whole character (the SQL may hold non-ASCII text in comments).
        let ch = sql[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// `sql` as PostgreSQL runs it: portable functions expanded, placeholders numbered.
fn postgres_sql(sql: &str) -> String {
    numbered(&postgres_dialect(&expanded(sql, Engine::Postgres))).into_owned()
}

/// A statement with its values, not yet run. Made by [`query`] or [`Builder::build`].
pub struct Query<'q> {
    sql: Cow<'q, str>,
    args: Vec<Arg<'q>>,
}

/// A statement on `sql` (placeholders `?` or `?N`); bind values with [`Query::bind`].
pub fn query(sql: &str) -> Query<'_> {
    Query {
        sql: Cow::Borrowed(sql),
        args: Vec::new(),
    }
}

/// A statement whose rows are read as `T` (a [`Record`]).
pub fn query_as<T: Record>(sql: &str) -> QueryAs<'_, T> {
    QueryAs {
        inner: query(sql),
        row: PhantomData,
    }
}

/// A statement whose rows are read as their first column, a `T` ([`Value`]).
pub fn query_scalar<T: Value>(sql: &str) -> QueryScalar<'_, T> {
    QueryScalar {
        inner: query(sql),
        value: PhantomData,
    }
}

impl<'q> Query<'q> {
    /// Appends a value for the next placeholder.
    pub fn bind(mut self, value: impl Into<Arg<'q>>) -> Self {
        self.args.push(value.into());
        self
    }

    fn sqlite_args(&self) -> Result<SqliteArguments<'_>, sqlx::Error> {
        let mut args = SqliteArguments::default();
        for a in &self.args {
            a.add_sqlite(&mut args)?;
        }
        Ok(args)
    }

    fn pg_args(&self) -> Result<PgArguments, sqlx::Error> {
        let mut args = PgArguments::default();
        for a in &self.args {
            a.add_pg(&mut args)?;
        }
        Ok(args)
    }

    /// Runs the statement. Errors: the database's.
    pub async fn execute<'e>(self, on: impl Executor<'e>) -> Result<Done, sqlx::Error> {
        let rows = match on.target() {
            Target::SqlitePool(p) => {
                sqlx::query_with(&expanded(&self.sql, Engine::Sqlite), self.sqlite_args()?)
                    .execute(p)
                    .await?
                    .rows_affected()
            }
            Target::Sqlite(c) => {
                sqlx::query_with(&expanded(&self.sql, Engine::Sqlite), self.sqlite_args()?)
                    .execute(c)
                    .await?
                    .rows_affected()
            }
            Target::PgPool(p) => sqlx::query_with(&postgres_sql(&self.sql), self.pg_args()?)
                .execute(p)
                .await?
                .rows_affected(),
            Target::Pg(c) => sqlx::query_with(&postgres_sql(&self.sql), self.pg_args()?)
                .execute(c)
                .await?
                .rows_affected(),
        };
        Ok(Done { rows })
    }

    /// Runs the statement and returns every row. Errors: the database's.
    pub async fn fetch_all<'e>(self, on: impl Executor<'e>) -> Result<Vec<Row>, sqlx::Error> {
        Ok(match on.target() {
            Target::SqlitePool(p) => wrap(
                sqlx::query_with(&expanded(&self.sql, Engine::Sqlite), self.sqlite_args()?)
                    .fetch_all(p)
                    .await?,
                Row::Sqlite,
            ),
            Target::Sqlite(c) => wrap(
                sqlx::query_with(&expanded(&self.sql, Engine::Sqlite), self.sqlite_args()?)
                    .fetch_all(c)
                    .await?,
                Row::Sqlite,
            ),
            Target::PgPool(p) => wrap(
                sqlx::query_with(&postgres_sql(&self.sql), self.pg_args()?)
                    .fetch_all(p)
                    .await?,
                Row::Pg,
            ),
            Target::Pg(c) => wrap(
                sqlx::query_with(&postgres_sql(&self.sql), self.pg_args()?)
                    .fetch_all(c)
                    .await?,
                Row::Pg,
            ),
        })
    }

    /// Runs the statement and returns its first row, if any. Errors: the database's.
    pub async fn fetch_optional<'e>(
        self,
        on: impl Executor<'e>,
    ) -> Result<Option<Row>, sqlx::Error> {
        Ok(match on.target() {
            Target::SqlitePool(p) => {
                sqlx::query_with(&expanded(&self.sql, Engine::Sqlite), self.sqlite_args()?)
                    .fetch_optional(p)
                    .await?
                    .map(Row::Sqlite)
            }
            Target::Sqlite(c) => {
                sqlx::query_with(&expanded(&self.sql, Engine::Sqlite), self.sqlite_args()?)
                    .fetch_optional(c)
                    .await?
                    .map(Row::Sqlite)
            }
            Target::PgPool(p) => sqlx::query_with(&postgres_sql(&self.sql), self.pg_args()?)
                .fetch_optional(p)
                .await?
                .map(Row::Pg),
            Target::Pg(c) => sqlx::query_with(&postgres_sql(&self.sql), self.pg_args()?)
                .fetch_optional(c)
                .await?
                .map(Row::Pg),
        })
    }

    /// Runs the statement and returns its first row. Errors: `RowNotFound` when there is
    /// none, or the database's.
    pub async fn fetch_one<'e>(self, on: impl Executor<'e>) -> Result<Row, sqlx::Error> {
        self.fetch_optional(on)
            .await?
            .ok_or(sqlx::Error::RowNotFound)
    }
}

fn wrap<R, T>(rows: Vec<R>, f: impl Fn(R) -> T) -> Vec<T> {
    rows.into_iter().map(f).collect()
}

/// A statement whose rows are read as `T`. Made by [`query_as`].
pub struct QueryAs<'q, T> {
    inner: Query<'q>,
    row: PhantomData<fn() -> T>,
}

impl<'q, T: Record> QueryAs<'q, T> {
    /// Appends a value for the next placeholder.
    pub fn bind(mut self, value: impl Into<Arg<'q>>) -> Self {
        self.inner = self.inner.bind(value);
        self
    }

    /// Every row as a `T`. Errors: the database's, or a column that does not read as `T`'s.
    pub async fn fetch_all<'e>(self, on: impl Executor<'e>) -> Result<Vec<T>, sqlx::Error> {
        self.inner
            .fetch_all(on)
            .await?
            .iter()
            .map(Row::to)
            .collect()
    }

    /// The first row as a `T`, if any. Errors: as [`QueryAs::fetch_all`].
    pub async fn fetch_optional<'e>(self, on: impl Executor<'e>) -> Result<Option<T>, sqlx::Error> {
        self.inner
            .fetch_optional(on)
            .await?
            .map(|r| r.to())
            .transpose()
    }

    /// The first row as a `T`. Errors: `RowNotFound`, or as [`QueryAs::fetch_all`].
    pub async fn fetch_one<'e>(self, on: impl Executor<'e>) -> Result<T, sqlx::Error> {
        self.inner.fetch_one(on).await?.to()
    }
}

/// A statement whose rows are read as their first column. Made by [`query_scalar`].
pub struct QueryScalar<'q, T> {
    inner: Query<'q>,
    value: PhantomData<fn() -> T>,
}

impl<'q, T: Value> QueryScalar<'q, T> {
    /// Appends a value for the next placeholder.
    pub fn bind(mut self, value: impl Into<Arg<'q>>) -> Self {
        self.inner = self.inner.bind(value);
        self
    }

    /// The first column of every row. Errors: the database's, or a value of another type.
    pub async fn fetch_all<'e>(self, on: impl Executor<'e>) -> Result<Vec<T>, sqlx::Error> {
        self.inner
            .fetch_all(on)
            .await?
            .iter()
            .map(|r| r.try_get(0))
            .collect()
    }

    /// The first column of the first row, if any. Errors: as [`QueryScalar::fetch_all`].
    pub async fn fetch_optional<'e>(self, on: impl Executor<'e>) -> Result<Option<T>, sqlx::Error> {
        self.inner
            .fetch_optional(on)
            .await?
            .map(|r| r.try_get(0))
            .transpose()
    }

    /// The first column of the first row. Errors: `RowNotFound`, or as
    /// [`QueryScalar::fetch_all`].
    pub async fn fetch_one<'e>(self, on: impl Executor<'e>) -> Result<T, sqlx::Error> {
        self.inner.fetch_one(on).await?.try_get(0)
    }
}

/// Builds a statement from pieces (filters, column lists); values are bound as `?`.
pub struct Builder<'q> {
    sql: String,
    args: Vec<Arg<'q>>,
}

impl<'q> Builder<'q> {
    /// A statement starting with `sql`.
    pub fn new(sql: impl Into<String>) -> Self {
        Builder {
            sql: sql.into(),
            args: Vec::new(),
        }
    }

    /// Appends SQL text.
    pub fn push(&mut self, sql: impl std::fmt::Display) -> &mut Self {
        use std::fmt::Write;
        let _ = write!(self.sql, "{sql}");
        self
    }

    /// Appends a placeholder bound to `value`.
    pub fn push_bind(&mut self, value: impl Into<Arg<'q>>) -> &mut Self {
        self.sql.push('?');
        self.args.push(value.into());
        self
    }

    /// Appends pieces separated by `separator` (column and value lists).
    pub fn separated<'b>(&'b mut self, separator: &'b str) -> Separated<'b, 'q> {
        Separated {
            builder: self,
            separator,
            first: true,
        }
    }

    /// Appends `VALUES (…), (…)`, one parenthesized tuple per item, each filled by
    /// `push_tuple` through a comma-separated [`Separated`].
    pub fn push_values<I, F>(&mut self, tuples: I, mut push_tuple: F) -> &mut Self
    where
        I: IntoIterator,
        F: FnMut(Separated<'_, 'q>, I::Item),
    {
        self.sql.push_str("VALUES ");
        for (n, tuple) in tuples.into_iter().enumerate() {
            if n > 0 {
                self.sql.push_str(", ");
            }
            self.sql.push('(');
            push_tuple(self.separated(", "), tuple);
            self.sql.push(')');
        }
        self
    }

    /// The SQL so far.
    pub fn sql(&self) -> &str {
        &self.sql
    }

    /// The statement, ready to run; the builder's values move into it.
    pub fn build(&mut self) -> Query<'_> {
        Query {
            sql: Cow::Borrowed(&self.sql),
            args: std::mem::take(&mut self.args),
        }
    }

    /// The statement with its rows read as `T`.
    pub fn build_query_as<T: Record>(&mut self) -> QueryAs<'_, T> {
        QueryAs {
            inner: self.build(),
            row: PhantomData,
        }
    }

    /// The statement with its rows read as their first column.
    pub fn build_query_scalar<T: Value>(&mut self) -> QueryScalar<'_, T> {
        QueryScalar {
            inner: self.build(),
            value: PhantomData,
        }
    }
}

/// Pieces of a [`Builder`] joined by a separator. Made by [`Builder::separated`].
pub struct Separated<'b, 'q> {
    builder: &'b mut Builder<'q>,
    separator: &'b str,
    first: bool,
}

impl<'q> Separated<'_, 'q> {
    fn separate(&mut self) {
        if !self.first {
            self.builder.sql.push_str(self.separator);
        }
        self.first = false;
    }

    /// Appends SQL text after a separator.
    pub fn push(&mut self, sql: impl std::fmt::Display) -> &mut Self {
        self.separate();
        self.builder.push(sql);
        self
    }

    /// Appends a bound placeholder after a separator.
    pub fn push_bind(&mut self, value: impl Into<Arg<'q>>) -> &mut Self {
        self.separate();
        self.builder.push_bind(value);
        self
    }

    /// Appends SQL text without a separator.
    pub fn push_unseparated(&mut self, sql: impl std::fmt::Display) -> &mut Self {
        self.builder.push(sql);
        self
    }
}

#[cfg(test)]
mod tests;
