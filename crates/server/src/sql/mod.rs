//! The storage engine layer (issue 16 § 1, issue 30): one query API over SQLite and
//! PostgreSQL.
//!
//! Repositories and handlers write their SQL once, with `$1, $2, …` placeholders, and run
//! it through [`query`], [`query_as`], [`query_scalar`] or a [`Builder`] on a [`Db`] (the
//! pool) or a [`Tx`] (a transaction or a pooled connection). The statement text is what
//! runs: SQL is written in a spelling both engines run (`CAST(SUM(x) AS BIGINT)` where an
//! integer sum is meant, `CASE`, `string_agg`, `GREATEST`), the functions
//! [`functions`] defines on both engines (`kontor_fold`, `kontor_milli`, `json_each` over
//! text) and, for what truly differs (building JSON), the named helpers of [`dialect`],
//! which the caller asks for by engine ([`Db::engine`], [`Tx::engine`]). Nothing is
//! changed on the way: `$N` is the placeholder both engines bind by number (a `?` left
//! in a statement stops debug builds, [`has_question_placeholder`]).
//!
//! - [`pool`]: the pools and connections ([`Db`], [`Tx`]) and what a statement runs on;
//! - [`bind`]: values bound with their real types for the engine at hand — decimals as
//!   SQLite TEXT or PostgreSQL `NUMERIC`, timestamps as SQLite TEXT `YYYY-MM-DDTHH:MM:SSZ`
//!   or `TIMESTAMPTZ`, dates as TEXT `YYYY-MM-DD` or `DATE` ([`Arg`]) — and rows read
//!   from either; nothing goes through sqlx's `Any` driver, which would lose the decimal
//!   and timestamp types (issue 16 § 1);
//! - [`query`]: running statements;
//! - [`dialect`]: the named helpers for what the engines spell differently;
//! - [`json_rows`]: many rows sent as one JSON parameter and read back with a `SELECT`
//!   (large writes: the bank import, the audit seal);
//! - [`functions`]: the SQL functions Kontor defines on both engines;
//! - [`write_group`]: group commit of write transactions (both engines);
//! - [`rules`]: the SQL fragments of the model's derived rules (collectible, open amount,
//!   overdue, issued), built from the model's definitions.

pub mod bind;
pub mod dialect;
pub mod functions;
pub mod json_rows;
pub mod pool;
pub mod query;
pub mod rules;
pub mod write_group;

pub use bind::{Arg, ColumnIndex, Done, Nullable, Record, Row, Value};
pub use pool::{Db, Engine, Executor, Target, Tx};
pub use query::{
    find_by_id, has_question_placeholder, placeholders, query, query_as, query_scalar, Builder,
    Query, QueryAs, QueryScalar, Separated,
};

#[cfg(test)]
mod tests;
