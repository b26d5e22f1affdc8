//! Fingerprints of a test database and its stored files: equal fingerprints mean equal
//! records and files (backups, migrations between SQL engines).

use std::collections::BTreeMap;
use std::path::Path;

/// A fingerprint of the SQLite database at `db` and the stored files under `files` (when
/// given): per table (every table but `_sqlx_migrations`' timing column), every row's
/// values as SQLite quotes them, sorted, plus every file's path and SHA-256 —
/// equal fingerprints mean equal records and files. `skip` lists `table.column`s to leave
/// out (e.g. `api_keys.last_used_at`, which every request changes).
pub async fn db_fingerprint(
    db: &Path,
    files: Option<&Path>,
    skip: &[&str],
) -> BTreeMap<String, String> {
    use sqlx::{ConnectOptions, Row};
    let mut conn = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(db)
        .read_only(true)
        .connect()
        .await
        .unwrap();
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    let mut out = BTreeMap::new();
    for table in tables {
        // A table named in `skip` is left out whole (the process heartbeats).
        if skip.contains(&table.as_str()) {
            continue;
        }
        let columns: Vec<String> =
            sqlx::query_scalar(&format!("SELECT name FROM pragma_table_info('{table}')"))
                .fetch_all(&mut conn)
                .await
                .unwrap();
        let quoted: Vec<String> = columns
            .iter()
            .filter(|c| !skip.contains(&format!("{table}.{c}").as_str()))
            .filter(|c| !(table == "_sqlx_migrations" && *c == "execution_time"))
            .map(|c| format!("quote(\"{c}\")"))
            .collect();
        let sql = format!(
            "SELECT {} AS row FROM \"{table}\" ORDER BY 1",
            quoted.join(" || '|' || ")
        );
        let rows = sqlx::query(&sql).fetch_all(&mut conn).await.unwrap();
        let texts = rows.iter().map(|row| row.get::<String, _>("row"));
        out.insert(format!("table {table}"), rows_sum(texts));
    }
    if let Some(files) = files {
        out.extend(files_fingerprint(files));
    }
    out
}

/// Every stored file under `files`: its path and SHA-256.
fn files_fingerprint(files: &Path) -> BTreeMap<String, String> {
    use sha2::{Digest, Sha256};
    let mut out = BTreeMap::new();
    let mut stack = vec![files.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if !path.file_name().unwrap().to_string_lossy().starts_with('.') {
                let bytes = std::fs::read(&path).unwrap();
                out.insert(
                    format!("file {}", path.strip_prefix(files).unwrap().display()),
                    hex_of(&Sha256::digest(&bytes)),
                );
            }
        }
    }
    out
}

/// [`db_fingerprint`] of a PostgreSQL database: per table, every row as PostgreSQL's row
/// text of its columns (`skip` left out), sorted, hashed.
///
/// Three round trips on one connection: the columns from `pg_catalog` (the
/// `information_schema` views cost tens of milliseconds each time), then every table's rows
/// in one `UNION ALL` statement. `write_props_api` takes two fingerprints per request it
/// sends; with a pool, the information schema and a statement per table they were most of
/// its five minutes on PostgreSQL (issue 35: the test command stays fast).
pub async fn pg_fingerprint(
    url: &str,
    files: Option<&Path>,
    skip: &[&str],
) -> BTreeMap<String, String> {
    use sqlx::{Connection, Row};
    let mut conn = sqlx::PgConnection::connect(url).await.unwrap();
    // Every column of the schema's tables, views and foreign tables (what
    // `information_schema.columns` lists), in table and column order.
    let columns: Vec<(String, String)> = sqlx::query_as(
        "SELECT c.relname::text, a.attname::text FROM pg_catalog.pg_attribute a \
         JOIN pg_catalog.pg_class c ON c.oid = a.attrelid \
         JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace \
         WHERE n.nspname = current_schema() \
         AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND a.attnum > 0 AND NOT a.attisdropped \
         ORDER BY c.relname, a.attnum",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    let mut tables: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (table, column) in columns {
        let timing = table == "_sqlx_migrations" && column == "execution_time";
        let keep = !timing && !skip.contains(&format!("{table}.{column}").as_str());
        let entry = tables.entry(table).or_default();
        if keep {
            entry.push(format!("\"{column}\""));
        }
    }
    tables.retain(|table, _| !skip.contains(&table.as_str()));
    // Each table's rows, sorted within the table as `ORDER BY 1` of the table alone sorts
    // them; a table without rows is still named (`0 rows`).
    let mut rows: BTreeMap<&str, Vec<String>> =
        tables.keys().map(|t| (t.as_str(), Vec::new())).collect();
    if !tables.is_empty() {
        let selects: Vec<String> = tables
            .iter()
            .map(|(table, cols)| {
                format!(
                    "SELECT '{table}'::text AS t, ROW({})::text AS row FROM \"{table}\"",
                    cols.join(", ")
                )
            })
            .collect();
        let sql = format!("{} ORDER BY t, row", selects.join(" UNION ALL "));
        for row in sqlx::query(&sql).fetch_all(&mut conn).await.unwrap() {
            let table: String = row.get("t");
            let text: String = row.get("row");
            if let Some(texts) = rows.get_mut(table.as_str()) {
                texts.push(text);
            }
        }
    }
    let mut out: BTreeMap<String, String> = rows
        .into_iter()
        .map(|(table, texts)| (format!("table {table}"), rows_sum(texts.into_iter())))
        .collect();
    conn.close().await.unwrap();
    if let Some(files) = files {
        out.extend(files_fingerprint(files));
    }
    out
}

/// `N rows <hex SHA-256 of the row texts, one per line>`.
fn rows_sum(texts: impl ExactSizeIterator<Item = String>) -> String {
    use sha2::{Digest, Sha256};
    let n = texts.len();
    let mut h = Sha256::new();
    for text in texts {
        h.update(text.as_bytes());
        h.update(b"\n");
    }
    format!("{n} rows {}", hex_of(&h.finalize()))
}

fn hex_of(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
