//! Many rows in one parameter (issue 32): a large write (a bank statement import's
//! transactions, payments and events, the audit seal) sends its rows as one JSON array
//! bound to one parameter and reads them back in SQL with [`select`], instead of a
//! `VALUES` list of hundreds of parameters per statement.
//!
//! Why: sqlx finds each SQLite parameter by its name (`sqlite3_bind_parameter_name`, a
//! walk over the statement's parameters), so binding costs grow with the square of a
//! statement's parameters, and every statement is a round trip to the connection's thread.
//! Measured on the bank import of `docs/benchmarks.md`: ~21 µs per row of sqlx work on
//! top of ~26 µs of SQLite's own. One parameter per statement carries any number of rows.
//!
//! The values are written in the forms the columns store ([`Arg`]'s SQLite forms):
//! integers and flags (1/0) as JSON numbers, decimals, dates (`YYYY-MM-DD`) and timestamps
//! (`YYYY-MM-DDTHH:MM:SSZ`) as JSON strings of their stored text, NULL as `null`. SQLite
//! reads them with `->>` (the SQL value of the JSON value); PostgreSQL casts the text of
//! each to the column's type ([`Kind`]).

use super::bind::Arg;
use super::pool::Engine;

/// The most rows one statement carries (one JSON parameter of a few MB at most): a large
/// write sends its rows in chunks of this many.
pub const ROWS_PER_STATEMENT: usize = 2_000;

/// The type of a column of [`select`], for PostgreSQL's cast of the JSON text (SQLite
/// stores the value as read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `BIGINT` (ids, counts).
    Int,
    /// `BOOLEAN` (sent as 1/0).
    Bool,
    /// `TEXT`.
    Text,
    /// `NUMERIC` (amounts, sent as their decimal text, scale kept).
    Decimal,
    /// `TIMESTAMPTZ` (sent as `YYYY-MM-DDTHH:MM:SSZ`).
    Timestamp,
    /// `DATE` (sent as `YYYY-MM-DD`).
    Date,
}

/// A `SELECT` of one row per element of the JSON array bound to `param` (`"$1"`), each
/// element an array of the `columns`' values in order, named as the columns:
/// SQLite `SELECT value ->> 0 AS a, … FROM json_each($1)`, PostgreSQL
/// `SELECT CAST(r ->> 0 AS BIGINT) AS a, … FROM json_array_elements(CAST($1 AS json)) AS r`.
/// The rows come in the array's order. Usable as `INSERT INTO t (…) SELECT …` or as the
/// joined table of an `UPDATE … FROM (SELECT …) AS s`.
pub fn select(engine: Engine, param: &str, columns: &[(&str, Kind)]) -> String {
    let values: Vec<String> = columns
        .iter()
        .enumerate()
        .map(|(i, (name, kind))| match engine {
            Engine::Sqlite => format!("value ->> {i} AS {name}"),
            Engine::Postgres => {
                let ty = match kind {
                    Kind::Int => Some("BIGINT"),
                    Kind::Bool => Some("BOOLEAN"),
                    Kind::Text => None,
                    Kind::Decimal => Some("NUMERIC"),
                    Kind::Timestamp => Some("TIMESTAMPTZ"),
                    Kind::Date => Some("DATE"),
                };
                match ty {
                    Some(ty) => format!("CAST(r ->> {i} AS {ty}) AS {name}"),
                    None => format!("r ->> {i} AS {name}"),
                }
            }
        })
        .collect();
    match engine {
        Engine::Sqlite => format!("SELECT {} FROM json_each({param})", values.join(", ")),
        Engine::Postgres => format!(
            "SELECT {} FROM json_array_elements(CAST({param} AS json)) AS r",
            values.join(", ")
        ),
    }
}

/// `INSERT INTO {table} (columns…) SELECT …` of the rows of the JSON array bound to `$1`
/// ([`select`]): the statement of a large insert on `engine`; append `RETURNING …` as
/// needed.
pub fn insert(engine: Engine, table: &str, columns: &[(&str, Kind)]) -> String {
    let names: Vec<&str> = columns.iter().map(|(name, _)| *name).collect();
    format!(
        "INSERT INTO {table} ({}) {}",
        names.join(", "),
        select(engine, "$1", columns)
    )
}

/// The rows of one statement as the JSON text [`select`] reads: `[[…], […], …]`.
#[derive(Debug, Default)]
pub struct JsonRows {
    text: Vec<u8>,
    rows: usize,
}

impl JsonRows {
    /// No rows yet.
    pub fn new() -> Self {
        JsonRows {
            text: b"[".to_vec(),
            rows: 0,
        }
    }

    /// Adds one row of values, in the order of [`select`]'s columns. Errors: a byte string
    /// (`Arg::Bytes`; not carried in JSON), as an encoding error.
    pub fn push(&mut self, row: &[Arg<'_>]) -> Result<(), sqlx::Error> {
        if self.rows > 0 {
            self.text.push(b',');
        }
        self.text.push(b'[');
        for (i, value) in row.iter().enumerate() {
            if i > 0 {
                self.text.push(b',');
            }
            self.value(value)?;
        }
        self.text.push(b']');
        self.rows += 1;
        Ok(())
    }

    fn value(&mut self, value: &Arg<'_>) -> Result<(), sqlx::Error> {
        use std::io::Write;
        let out = &mut self.text;
        let text = |out: &mut Vec<u8>, s: &str| {
            serde_json::to_writer(out, s).map_err(|e| sqlx::Error::Encode(Box::new(e)))
        };
        match value {
            Arg::Int(None)
            | Arg::Bool(None)
            | Arg::Text(None)
            | Arg::Decimal(None)
            | Arg::Timestamp(None)
            | Arg::Date(None) => out.extend_from_slice(b"null"),
            Arg::Int(Some(v)) => {
                write!(out, "{v}").map_err(|e| sqlx::Error::Encode(Box::new(e)))?
            }
            Arg::Bool(Some(v)) => out.push(if *v { b'1' } else { b'0' }),
            Arg::Text(Some(v)) => text(out, v)?,
            Arg::Decimal(Some(v)) => text(out, &v.to_string())?,
            Arg::Timestamp(Some(v)) => text(out, &kontor_model::timestamp::format(v))?,
            Arg::Date(Some(v)) => text(out, &v.format("%Y-%m-%d").to_string())?,
            Arg::Bytes(_) => {
                return Err(sqlx::Error::Encode(
                    "a byte string cannot be sent as JSON rows".into(),
                ))
            }
        }
        Ok(())
    }

    /// How many rows were added.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no row was added.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// The JSON text, to bind as the parameter [`select`] reads.
    pub fn into_text(mut self) -> String {
        self.text.push(b']');
        // Only JSON text was written: serde_json's strings and ASCII digits.
        String::from_utf8(self.text).unwrap_or_default()
    }
}
