//! The named helpers for what SQLite and PostgreSQL truly spell differently (issue 30):
//! building JSON in SQL. The lists and the invoice detail read a page or a whole invoice
//! as one JSON value built by the database (one value crosses from the database's thread
//! instead of one per column; issue 13's profile in `docs/benchmarks.md`). A caller asks
//! for the spelling of its engine ([`super::Db::engine`]) and caches the statement per
//! engine ([`PerEngine`]); nothing rewrites a statement afterwards.
//!
//! A *JSON expression* below is SQLite text carrying JSON's subtype, or a PostgreSQL
//! `json` value. Values inside objects and arrays take the JSON form SQLite gives them on
//! both engines: decimals, dates and timestamps as their stored text (`"119.00"`,
//! `"2026-11-24"`, `"2026-11-24T10:00:00Z"`), flags as 0/1 — on PostgreSQL through
//! `kontor_v(…)` (migration `postgres/0024`).

use super::pool::Engine;
use std::sync::OnceLock;

/// A JSON object expression with `fields` (name, SQL value): SQLite `json_object(…)`,
/// PostgreSQL `json_build_object(…)`. A value that is itself a JSON expression stays
/// JSON.
pub fn json_object(engine: Engine, fields: &[(&str, &str)]) -> String {
    let parts: Vec<String> = fields
        .iter()
        .map(|(name, value)| format!("'{name}', {}", json_value(engine, value)))
        .collect();
    match engine {
        Engine::Sqlite => format!("json_object({})", parts.join(", ")),
        Engine::Postgres => format!("json_build_object({})", parts.join(", ")),
    }
}

/// A JSON object expression of the `columns` of table alias `alias`, each under its own
/// name ([`json_object`] of `("c", "alias.c")`).
pub fn json_object_of(engine: Engine, alias: &str, columns: &[&str]) -> String {
    let values: Vec<String> = columns.iter().map(|c| format!("{alias}.{c}")).collect();
    let fields: Vec<(&str, &str)> = columns
        .iter()
        .zip(&values)
        .map(|(name, value)| (*name, value.as_str()))
        .collect();
    json_object(engine, &fields)
}

/// A JSON array expression of `items` (SQL values).
pub fn json_array(engine: Engine, items: &[&str]) -> String {
    let parts: Vec<String> = items.iter().map(|v| json_value(engine, v)).collect();
    match engine {
        Engine::Sqlite => format!("json_array({})", parts.join(", ")),
        Engine::Postgres => format!("json_build_array({})", parts.join(", ")),
    }
}

/// The aggregate of JSON expression `value` over a query's rows in `order` (SQL of an
/// `ORDER BY`) as a JSON array expression; `[]` without rows.
pub fn json_array_agg(engine: Engine, value: &str, order: &str) -> String {
    match engine {
        Engine::Sqlite => format!("json_group_array({value} ORDER BY {order})"),
        Engine::Postgres => format!("coalesce(json_agg({value} ORDER BY {order}), '[]'::json)"),
    }
}

/// JSON object expression `object` with `fields` (name, SQL value) added or replaced.
pub fn json_with(engine: Engine, object: &str, fields: &[(&str, &str)]) -> String {
    match engine {
        Engine::Sqlite => {
            let parts: Vec<String> = fields
                .iter()
                .map(|(name, value)| format!("'$.{name}', {value}"))
                .collect();
            format!("json_set({object}, {})", parts.join(", "))
        }
        Engine::Postgres => {
            let parts: Vec<String> = fields
                .iter()
                .map(|(name, value)| format!("'{name}', kontor_v({value})"))
                .collect();
            format!(
                "(({object})::jsonb || jsonb_build_object({}))::json",
                parts.join(", ")
            )
        }
    }
}

/// A scalar subquery `subquery` (in parentheses) whose one value is a JSON expression, as
/// a JSON expression: SQLite loses the JSON subtype on the way out of a subquery, so it
/// is parsed again (`json(…)`); PostgreSQL keeps the type.
pub fn json_subquery(engine: Engine, subquery: &str) -> String {
    match engine {
        Engine::Sqlite => format!("json({subquery})"),
        Engine::Postgres => subquery.to_string(),
    }
}

/// JSON expression `json` as the text a statement answers (read as a `String`).
pub fn json_text(engine: Engine, json: &str) -> String {
    match engine {
        Engine::Sqlite => json.to_string(),
        Engine::Postgres => format!("({json})::text"),
    }
}

/// A value inside a JSON object or array, in the JSON form SQLite gives it.
fn json_value(engine: Engine, value: &str) -> String {
    match engine {
        Engine::Sqlite => value.to_string(),
        Engine::Postgres => format!("kontor_v({value})"),
    }
}

/// A statement (or fragment) written once per engine by `build` and kept: made on first
/// use, the same text afterwards (the engines cache prepared statements by their text).
pub struct PerEngine {
    build: fn(Engine) -> String,
    sqlite: OnceLock<String>,
    postgres: OnceLock<String>,
}

impl PerEngine {
    /// The statement `build` writes for each engine.
    pub const fn new(build: fn(Engine) -> String) -> Self {
        PerEngine {
            build,
            sqlite: OnceLock::new(),
            postgres: OnceLock::new(),
        }
    }

    /// The statement for `engine`.
    pub fn get(&self, engine: Engine) -> &str {
        let cell = match engine {
            Engine::Sqlite => &self.sqlite,
            Engine::Postgres => &self.postgres,
        };
        cell.get_or_init(|| (self.build)(engine))
    }
}
