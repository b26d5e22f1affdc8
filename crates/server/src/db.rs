//! Opening the SQLite database (WAL, foreign keys, migrations) and column conversions.

use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

/// The database file name inside the data directory.
pub const DB_FILE: &str = "kontor.db";

/// Opens (creating if missing) `<data_dir>/kontor.db` in WAL mode and runs the migrations.
///
/// Errors: the directory cannot be created, the file cannot be opened, or a migration fails.
pub async fn open(data_dir: &Path) -> Result<SqlitePool, String> {
    std::fs::create_dir_all(data_dir)
        .map_err(|e| format!("cannot create {}: {e}", data_dir.display()))?;
    let options = SqliteConnectOptions::new()
        .filename(data_dir.join(DB_FILE))
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .foreign_keys(true)
        .busy_timeout(Duration::from_secs(10));
    let pool = SqlitePoolOptions::new()
        .max_connections(8)
        .connect_with(options)
        .await
        .map_err(|e| format!("cannot open database: {e}"))?;
    sqlx::migrate!("./migrations")
        .run(&pool)
        .await
        .map_err(|e| format!("migration failed: {e}"))?;
    Ok(pool)
}

/// Now, truncated to seconds, as stored and sent (`YYYY-MM-DDTHH:MM:SSZ`).
pub fn now() -> DateTime<Utc> {
    let t = Utc::now();
    DateTime::from_timestamp(t.timestamp(), 0).unwrap_or(t)
}

/// Timestamp column text.
pub fn ts(time: DateTime<Utc>) -> String {
    kontor_model::timestamp::format(&time)
}

/// Parses a timestamp column; the epoch for a corrupt value (never expected).
pub fn parse_ts(text: &str) -> DateTime<Utc> {
    kontor_model::timestamp::parse(text).unwrap_or_default()
}

/// Parses a decimal column; 0 for a corrupt value (never expected).
pub fn dec(text: &str) -> Decimal {
    Decimal::from_str(text).unwrap_or_default()
}

/// Parses an optional decimal column.
pub fn dec_opt(text: Option<&str>) -> Option<Decimal> {
    text.map(dec)
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
