//! Values bound with their real types for each engine ([`Arg`]) and rows read from either
//! ([`Row`], [`Value`], [`Record`]).

use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use sqlx::postgres::{PgArguments, PgRow};
use sqlx::sqlite::{SqliteArguments, SqliteRow};
use sqlx::{Arguments, Postgres, Sqlite};
use std::borrow::Cow;

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
    pub(super) fn add_sqlite<'a>(
        &'a self,
        args: &mut SqliteArguments<'a>,
    ) -> Result<(), sqlx::Error> {
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
    pub(super) fn add_pg(&self, args: &mut PgArguments) -> Result<(), sqlx::Error> {
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
    pub(super) rows: u64,
}

impl Done {
    /// How many rows the statement inserted, updated or deleted.
    pub fn rows_affected(&self) -> u64 {
        self.rows
    }
}
