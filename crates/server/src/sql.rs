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
            Inner::SqliteTx(t) => Target::Sqlite(&mut **t),
            Inner::SqliteConn(c) => Target::Sqlite(&mut **c),
            Inner::SqliteOwn(c) => Target::Sqlite(&mut **c),
            Inner::PgTx(t) => Target::Pg(&mut **t),
            Inner::PgConn(c) => Target::Pg(&mut **c),
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
arg_from!(Decimal, crate::db::Dec, |v| v.0);
arg_from!(Timestamp, DateTime<Utc>, |v| v);
arg_from!(Timestamp, crate::db::Ts, |v| v.0);
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
    /// Adds this value to SQLite arguments, in the stored text forms of `crate::db`.
    fn add_sqlite<'a>(&'a self, args: &mut SqliteArguments<'a>) -> Result<(), sqlx::Error> {
        let r = match self {
            Arg::Int(v) => args.add(*v),
            Arg::Bool(v) => args.add(*v),
            Arg::Text(v) => args.add(v.as_deref()),
            Arg::Bytes(v) => args.add(v.as_deref()),
            Arg::Decimal(v) => args.add(v.map(|d| d.to_string())),
            Arg::Timestamp(v) => args.add(v.map(|t| kontor_model::timestamp::format(&t))),
            Arg::Date(v) => args.add(v.map(|d| crate::db::date_text(d))),
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
            Arg::Decimal(v) => args.add(*v),
            Arg::Timestamp(v) => args.add(*v),
            Arg::Date(v) => args.add(*v),
        };
        r.map_err(sqlx::Error::Encode)
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
            Target::SqlitePool(p) => sqlx::query_with(&self.sql, self.sqlite_args()?)
                .execute(p)
                .await?
                .rows_affected(),
            Target::Sqlite(c) => sqlx::query_with(&self.sql, self.sqlite_args()?)
                .execute(c)
                .await?
                .rows_affected(),
            Target::PgPool(p) => sqlx::query_with(&numbered(&self.sql), self.pg_args()?)
                .execute(p)
                .await?
                .rows_affected(),
            Target::Pg(c) => sqlx::query_with(&numbered(&self.sql), self.pg_args()?)
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
                sqlx::query_with(&self.sql, self.sqlite_args()?)
                    .fetch_all(p)
                    .await?,
                Row::Sqlite,
            ),
            Target::Sqlite(c) => wrap(
                sqlx::query_with(&self.sql, self.sqlite_args()?)
                    .fetch_all(c)
                    .await?,
                Row::Sqlite,
            ),
            Target::PgPool(p) => wrap(
                sqlx::query_with(&numbered(&self.sql), self.pg_args()?)
                    .fetch_all(p)
                    .await?,
                Row::Pg,
            ),
            Target::Pg(c) => wrap(
                sqlx::query_with(&numbered(&self.sql), self.pg_args()?)
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
            Target::SqlitePool(p) => sqlx::query_with(&self.sql, self.sqlite_args()?)
                .fetch_optional(p)
                .await?
                .map(Row::Sqlite),
            Target::Sqlite(c) => sqlx::query_with(&self.sql, self.sqlite_args()?)
                .fetch_optional(c)
                .await?
                .map(Row::Sqlite),
            Target::PgPool(p) => sqlx::query_with(&numbered(&self.sql), self.pg_args()?)
                .fetch_optional(p)
                .await?
                .map(Row::Pg),
            Target::Pg(c) => sqlx::query_with(&numbered(&self.sql), self.pg_args()?)
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
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_outside_quotes_and_comments() {
        assert_eq!(numbered("SELECT 1"), "SELECT 1");
        assert_eq!(
            numbered("UPDATE t SET a = ?, b = ? WHERE id = ?"),
            "UPDATE t SET a = $1, b = $2 WHERE id = $3"
        );
        assert_eq!(
            numbered("SELECT * FROM t WHERE ?1 IS NULL OR id = ?1 AND x = ?"),
            "SELECT * FROM t WHERE $1 IS NULL OR id = $1 AND x = $2"
        );
        assert_eq!(
            numbered("SELECT '?', \"a?\" -- why?\n, ? FROM t WHERE s = 'it''s ?' AND v = ?"),
            "SELECT '?', \"a?\" -- why?\n, $1 FROM t WHERE s = 'it''s ?' AND v = $2"
        );
    }

    #[test]
    fn none_binds_a_null_of_its_type() {
        assert_eq!(Arg::from(None::<Decimal>), Arg::Decimal(None));
        assert_eq!(Arg::from(None::<&str>), Arg::Text(None));
        assert_eq!(Arg::from(Some(3i32)), Arg::Int(Some(3)));
        let s = Some("x".to_string());
        assert_eq!(Arg::from(&s), Arg::Text(Some(Cow::Borrowed("x"))));
    }

    #[test]
    fn the_builder_binds_in_order_with_separators() {
        let mut b = Builder::new("INSERT INTO t (a, b) VALUES (");
        let mut sep = b.separated(", ");
        sep.push_bind(1i64).push_bind("x");
        sep.push_unseparated(")");
        let q = b.build();
        assert_eq!(q.sql, "INSERT INTO t (a, b) VALUES (?, ?)");
        assert_eq!(q.args, vec![Arg::Int(Some(1)), Arg::Text(Some("x".into()))]);
    }
}
