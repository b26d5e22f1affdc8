//! `kontor-server migrate-to postgres://…` (issue 16 § 7; `docs/deployment.md` § 5):
//! moves an installation to PostgreSQL — every record of every table, and with
//! `--files-to` every stored file — and proves the copy by counts and checksums.
//!
//! 1. The target is opened like a server would open it (`db::open_postgres`: migrations,
//!    audit triggers). It must be **empty**: apart from the rows the migrations seed
//!    ([`SEEDED`]), every table must hold no row, else nothing is written.
//! 2. **One transaction** on the target. The tables' own triggers (list counters,
//!    dashboard totals, the audit trail and its append-only guards) are switched off for
//!    it (`ALTER TABLE … DISABLE TRIGGER USER`, which the tables' owner may do): the
//!    copied counters, totals and audit events are the source's, verbatim, hash chain
//!    included. Foreign keys stay checked; tables are copied parents first.
//! 3. Rows are read from the source in primary-key order (batches of [`BATCH`]), each
//!    value decoded strictly as the type the PostgreSQL schema gives its column
//!    (`NUMERIC` from decimal text, `TIMESTAMPTZ` from `YYYY-MM-DDTHH:MM:SSZ`, `DATE`,
//!    `BOOLEAN` from 0/1, `BYTEA`); a value that does not decode stops the move naming
//!    the table and column. Identity sequences continue after the highest copied id.
//! 4. **Verified before commit**: every table's row count and SHA-256 over its rows in
//!    one canonical text ([`canonical`]) are computed on the source while reading and on
//!    the target by reading the copy back inside the transaction; any difference rolls
//!    everything back and names the table.
//! 5. **Files**: every stored file a record points at (`backup::stored_files`) is read
//!    from the current store; with `--files-to` it is written create-only under the same
//!    key into the new store and read back; each is compared by SHA-256. Without
//!    `--files-to` the files stay where they are and are only checked to be there.
//!
//! Stop the servers before moving: the source is read in one transaction, but writes
//! made meanwhile would not be copied.

use crate::sql::{Arg, Db, Engine, Row, Tx};
use crate::store::storage::FileStore;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};

/// Rows read and written per statement (PostgreSQL takes at most 65,535 parameters; the
/// widest table has fewer than 60 columns).
pub const BATCH: usize = 500;

/// The tables whose rows the migrations themselves write (the audit actor row, the list
/// counters, the dashboard totals); the target may hold these and is otherwise empty.
pub const SEEDED: &[&str] = &["audit_actor", "list_counts", "invoice_totals"];

/// A column's type, as the PostgreSQL schema declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `BIGINT`/`INTEGER`.
    Int,
    /// `BOOLEAN` (SQLite 0/1).
    Bool,
    /// `TEXT`.
    Text,
    /// `BYTEA` (SQLite BLOB).
    Bytes,
    /// `NUMERIC` (SQLite decimal text).
    Decimal,
    /// `TIMESTAMPTZ` (SQLite `YYYY-MM-DDTHH:MM:SSZ`).
    Timestamp,
    /// `DATE` (SQLite `YYYY-MM-DD`).
    Date,
}

impl Kind {
    /// The kind of a PostgreSQL `information_schema` data type, if Kontor uses it.
    pub fn of(data_type: &str) -> Option<Kind> {
        Some(match data_type {
            "bigint" | "integer" | "smallint" => Kind::Int,
            "boolean" => Kind::Bool,
            "text" | "character varying" => Kind::Text,
            "bytea" => Kind::Bytes,
            "numeric" => Kind::Decimal,
            "timestamp with time zone" => Kind::Timestamp,
            "date" => Kind::Date,
            _ => return None,
        })
    }
}

/// One table as the move sees it.
#[derive(Clone, Debug)]
pub struct Table {
    /// Table name.
    pub name: String,
    /// Columns in schema order, with their kinds.
    pub columns: Vec<(String, Kind)>,
    /// The primary key's columns (the copy's and the checksum's order).
    pub key: Vec<String>,
    /// The identity column (`id`), whose sequence continues after the copy.
    pub identity: Option<String>,
}

/// A table's row count and the SHA-256 (hex) of its rows in [`canonical`] form, in
/// primary-key order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSum {
    /// Rows.
    pub rows: u64,
    /// Hex SHA-256.
    pub sha256: String,
}

/// What a move copied, for the report.
#[derive(Debug)]
pub struct Moved {
    /// Per table (name order): rows and checksum, equal on both sides.
    pub tables: BTreeMap<String, TableSum>,
    /// Stored files checked (and copied with `--files-to`), with their SHA-256.
    pub files: Vec<(String, String)>,
    /// Whether the files were copied into a new store.
    pub files_copied: bool,
}

fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The tables of the PostgreSQL database `target` (migrated), parents before the tables
/// whose foreign keys point at them. Errors: the database's, a column type Kontor does not
/// use, or a cycle of foreign keys, as a sentence.
pub async fn tables(target: &Db) -> Result<Vec<Table>, String> {
    let sql_err = |e: sqlx::Error| format!("reading the PostgreSQL schema: {e}");
    let columns: Vec<(String, String, String, String)> = crate::sql::query_as(
        "SELECT c.table_name::text, c.column_name::text, c.data_type::text, c.is_identity::text \
         FROM information_schema.columns c JOIN information_schema.tables t \
           ON t.table_schema = c.table_schema AND t.table_name = c.table_name \
         WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' \
           AND c.table_name <> '_sqlx_migrations' \
         ORDER BY c.table_name, c.ordinal_position",
    )
    .fetch_all(target)
    .await
    .map_err(sql_err)?;
    let mut by_name: BTreeMap<String, Table> = BTreeMap::new();
    for (table, column, data_type, identity) in columns {
        let kind = Kind::of(&data_type).ok_or_else(|| {
            format!("{table}.{column} has the type {data_type}, which migrate-to does not know")
        })?;
        let t = by_name.entry(table.clone()).or_insert_with(|| Table {
            name: table,
            columns: Vec::new(),
            key: Vec::new(),
            identity: None,
        });
        if identity == "YES" {
            t.identity = Some(column.clone());
        }
        t.columns.push((column, kind));
    }
    let keys: Vec<(String, String)> = crate::sql::query_as(
        "SELECT k.table_name::text, k.column_name::text FROM information_schema.table_constraints c \
         JOIN information_schema.key_column_usage k \
           ON k.constraint_schema = c.constraint_schema AND k.constraint_name = c.constraint_name \
         WHERE c.table_schema = current_schema() AND c.constraint_type = 'PRIMARY KEY' \
         ORDER BY k.table_name, k.ordinal_position",
    )
    .fetch_all(target)
    .await
    .map_err(sql_err)?;
    for (table, column) in keys {
        if let Some(t) = by_name.get_mut(&table) {
            t.key.push(column);
        }
    }
    let references: Vec<(String, String)> = crate::sql::query_as(
        "SELECT DISTINCT c.conrelid::regclass::text, c.confrelid::regclass::text \
         FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace \
         WHERE c.contype = 'f' AND n.nspname = current_schema()",
    )
    .fetch_all(target)
    .await
    .map_err(sql_err)?;
    let mut parents: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (child, parent) in references {
        let (child, parent) = (
            child.trim_matches('"').to_string(),
            parent.trim_matches('"').to_string(),
        );
        if child != parent {
            parents.entry(child).or_default().insert(parent);
        }
    }
    let mut ordered = Vec::with_capacity(by_name.len());
    let mut done: BTreeSet<String> = BTreeSet::new();
    while done.len() < by_name.len() {
        let ready: Vec<String> = by_name
            .keys()
            .filter(|t| !done.contains(*t))
            .filter(|t| {
                parents.get(*t).is_none_or(|ps| {
                    ps.iter()
                        .all(|p| done.contains(p) || !by_name.contains_key(p))
                })
            })
            .cloned()
            .collect();
        if ready.is_empty() {
            return Err("the foreign keys of the PostgreSQL schema form a cycle".into());
        }
        for name in ready {
            done.insert(name.clone());
            if let Some(t) = by_name.get(&name) {
                if t.key.is_empty() {
                    return Err(format!("table {name} has no primary key"));
                }
                ordered.push(t.clone());
            }
        }
    }
    Ok(ordered)
}

/// Reads column `i` of `row` as `kind`, strictly (decimal text must be a decimal, a
/// timestamp `YYYY-MM-DDTHH:MM:SSZ`, a flag 0/1 on SQLite). Errors: sqlx's decode error.
fn value(row: &Row, i: usize, kind: Kind) -> Result<Arg<'static>, sqlx::Error> {
    Ok(match kind {
        Kind::Int => Arg::Int(row.try_get(i)?),
        Kind::Bool => Arg::Bool(row.try_get(i)?),
        Kind::Text => Arg::Text(row.try_get::<Option<String>, _>(i)?.map(Into::into)),
        Kind::Bytes => Arg::Bytes(row.try_get::<Option<Vec<u8>>, _>(i)?.map(Into::into)),
        Kind::Decimal => Arg::Decimal(
            row.try_get::<Option<crate::store::db::Dec>, _>(i)?
                .map(|d| d.0),
        ),
        Kind::Timestamp => Arg::Timestamp(
            row.try_get::<Option<crate::store::db::Ts>, _>(i)?
                .map(|t| t.0),
        ),
        Kind::Date => Arg::Date(row.try_get(i)?),
    })
}

/// One value in the checksum's canonical text, the same whichever engine it was read
/// from: integers in decimal, flags 0/1, text as a JSON string, bytes as hex, decimals
/// with their scale (`119.00`), timestamps `YYYY-MM-DDTHH:MM:SSZ`, dates `YYYY-MM-DD`,
/// NULL as `null`.
pub fn canonical(v: &Arg<'_>) -> String {
    let text = match v {
        Arg::Int(v) => v.map(|n| n.to_string()),
        Arg::Bool(v) => v.map(|b| u8::from(b).to_string()),
        Arg::Text(v) => v.as_deref().map(|t| serde_json::Value::from(t).to_string()),
        Arg::Bytes(v) => v.as_deref().map(|b| format!("x{}", hex::encode(b))),
        Arg::Decimal(v) => v.map(|d| d.to_string()),
        Arg::Timestamp(v) => v.map(|t| kontor_model::timestamp::format(&t)),
        Arg::Date(v) => v.map(|d| d.format("%Y-%m-%d").to_string()),
    };
    text.unwrap_or_else(|| "null".into())
}

/// The running checksum of one table.
struct Sum {
    rows: u64,
    hash: Sha256,
}

impl Sum {
    fn new(t: &Table) -> Sum {
        let mut hash = Sha256::new();
        for (c, k) in &t.columns {
            hash.update(format!("{c}:{k:?},").as_bytes());
        }
        hash.update(b"\n");
        Sum { rows: 0, hash }
    }

    fn add(&mut self, row: &[Arg<'_>]) {
        let line: Vec<String> = row.iter().map(canonical).collect();
        self.hash.update(line.join(",").as_bytes());
        self.hash.update(b"\n");
        self.rows += 1;
    }

    fn finish(self) -> TableSum {
        TableSum {
            rows: self.rows,
            sha256: hex::encode(self.hash.finalize()),
        }
    }
}

/// Reads table `t` on `conn` in primary-key order, one batch at a time, handing each
/// batch of typed rows to `each`. Errors: the database's, or a value that does not decode,
/// as a sentence naming the table.
async fn read_table<F>(conn: &mut Tx, t: &Table, mut each: F) -> Result<(), String>
where
    F: AsyncBatch,
{
    let columns: Vec<String> = t.columns.iter().map(|(c, _)| quoted(c)).collect();
    // Text keys in byte order on both engines (SQLite's BINARY is PostgreSQL's "C").
    let order: Vec<String> = t
        .key
        .iter()
        .map(|k| {
            let text = t
                .columns
                .iter()
                .any(|(c, kind)| c == k && *kind == Kind::Text);
            match (conn.engine(), text) {
                (Engine::Postgres, true) => format!("{} COLLATE \"C\"", quoted(k)),
                _ => quoted(k),
            }
        })
        .collect();
    let by_id = t.key.len() == 1
        && t.columns
            .iter()
            .any(|(c, kind)| *c == t.key[0] && *kind == Kind::Int);
    let select = format!("SELECT {} FROM {}", columns.join(", "), quoted(&t.name));
    let mut after: Option<i64> = None;
    let mut offset: i64 = 0;
    loop {
        let rows = if by_id {
            let sql = format!(
                "{select} WHERE {k} > ? ORDER BY {k} LIMIT {BATCH}",
                k = quoted(&t.key[0])
            );
            crate::sql::query(&sql)
                .bind(after.unwrap_or(i64::MIN))
                .fetch_all(&mut *conn)
                .await
        } else {
            let sql = format!(
                "{select} ORDER BY {} LIMIT {BATCH} OFFSET ?",
                order.join(", ")
            );
            crate::sql::query(&sql)
                .bind(offset)
                .fetch_all(&mut *conn)
                .await
        }
        .map_err(|e| format!("reading {}: {e}", t.name))?;
        let n = rows.len();
        let mut batch = Vec::with_capacity(n);
        for row in &rows {
            let mut values = Vec::with_capacity(t.columns.len());
            for (i, (c, kind)) in t.columns.iter().enumerate() {
                values.push(value(row, i, *kind).map_err(|e| {
                    format!("{}.{c} holds a value that is not {kind:?}: {e}", t.name)
                })?);
            }
            batch.push(values);
        }
        if by_id {
            let pos = t.columns.iter().position(|(c, _)| *c == t.key[0]);
            if let Some(Arg::Int(Some(id))) = pos.and_then(|p| batch.last().map(|r| &r[p])) {
                after = Some(*id);
            }
        }
        offset = offset
            .checked_add(i64::try_from(n).unwrap_or(i64::MAX))
            .ok_or_else(|| format!("{} has too many rows", t.name))?;
        each.batch(batch).await?;
        if n < BATCH {
            return Ok(());
        }
    }
}

/// What [`read_table`] hands its rows to.
trait AsyncBatch {
    /// Takes one batch of rows (values in column order).
    async fn batch(&mut self, rows: Vec<Vec<Arg<'static>>>) -> Result<(), String>;
}

/// Sums the rows it is given.
struct Summing<'a>(&'a mut Sum);

impl AsyncBatch for Summing<'_> {
    async fn batch(&mut self, rows: Vec<Vec<Arg<'static>>>) -> Result<(), String> {
        for r in &rows {
            self.0.add(r);
        }
        Ok(())
    }
}

/// Sums the rows it is given and inserts them into the target.
struct Copying<'a> {
    sum: &'a mut Sum,
    target: &'a mut Tx,
    table: &'a Table,
}

impl AsyncBatch for Copying<'_> {
    async fn batch(&mut self, rows: Vec<Vec<Arg<'static>>>) -> Result<(), String> {
        if rows.is_empty() {
            return Ok(());
        }
        for r in &rows {
            self.sum.add(r);
        }
        let columns: Vec<String> = self.table.columns.iter().map(|(c, _)| quoted(c)).collect();
        // Identity columns take the source's ids (GENERATED BY DEFAULT accepts them).
        let mut qb = crate::sql::Builder::new(format!(
            "INSERT INTO {} ({}) ",
            quoted(&self.table.name),
            columns.join(", ")
        ));
        qb.push_values(rows, |mut sep, row| {
            for v in row {
                sep.push_bind(v);
            }
        });
        qb.build()
            .execute(&mut *self.target)
            .await
            .map(|_| ())
            .map_err(|e| format!("writing {}: {e}", self.table.name))
    }
}

/// The row count and checksum of every table in `tables` on `conn`, read in one pass.
/// Errors: as [`read_table`].
pub async fn checksums(
    conn: &mut Tx,
    tables: &[Table],
) -> Result<BTreeMap<String, TableSum>, String> {
    let mut out = BTreeMap::new();
    for t in tables {
        let mut sum = Sum::new(t);
        read_table(conn, t, Summing(&mut sum)).await?;
        out.insert(t.name.clone(), sum.finish());
    }
    Ok(out)
}

/// Checks that the source on `conn` has exactly the tables and columns of the target
/// (`tables`), so no value is left behind unseen: both are migrated by this binary, and
/// `tests/migrations_equal.rs` keeps the two engines' schemas equal. Errors: a table or
/// column only one side has, named.
async fn same_columns(conn: &mut Tx, tables: &[Table]) -> Result<(), String> {
    let listed = match conn.engine() {
        Engine::Sqlite => {
            "SELECT m.name, p.name FROM sqlite_master m JOIN pragma_table_info(m.name) p \
             WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> '_sqlx_migrations'"
        }
        Engine::Postgres => {
            "SELECT c.table_name::text, c.column_name::text FROM information_schema.columns c \
             JOIN information_schema.tables t \
               ON t.table_schema = c.table_schema AND t.table_name = c.table_name \
             WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' \
               AND c.table_name <> '_sqlx_migrations'"
        }
    };
    let source: BTreeSet<(String, String)> = crate::sql::query_as(listed)
        .fetch_all(&mut *conn)
        .await
        .map_err(|e| format!("reading the source's schema: {e}"))?
        .into_iter()
        .collect();
    let target: BTreeSet<(String, String)> = tables
        .iter()
        .flat_map(|t| t.columns.iter().map(|(c, _)| (t.name.clone(), c.clone())))
        .collect();
    if let Some((t, c)) = source.difference(&target).next() {
        return Err(format!(
            "the source has {t}.{c}, which the PostgreSQL schema lacks; nothing was copied"
        ));
    }
    if let Some((t, c)) = target.difference(&source).next() {
        return Err(format!(
            "the PostgreSQL schema has {t}.{c}, which the source lacks; nothing was copied"
        ));
    }
    Ok(())
}

/// Switches the user triggers of every table in `tables` on or off, inside the
/// transaction `to` (the tables' owner may). Errors: the database's, as a sentence.
async fn switch_triggers(to: &mut Tx, tables: &[Table], on: bool) -> Result<(), String> {
    let (word, what) = if on {
        ("ENABLE", "on")
    } else {
        ("DISABLE", "off")
    };
    for t in tables {
        crate::sql::query(&format!(
            "ALTER TABLE {} {word} TRIGGER USER",
            quoted(&t.name)
        ))
        .execute(&mut *to)
        .await
        .map_err(|e| format!("switching the target's triggers {what}: {e}"))?;
    }
    Ok(())
}

/// Copies every record of `source` into the empty PostgreSQL database `target` and the
/// stored files of `files` into `files_to` (when given), verified as the module docs
/// describe. Errors, as a sentence: the target is not PostgreSQL or not empty, a value
/// does not decode, a write fails, a checksum differs (nothing is committed), a stored
/// file is missing or differs.
pub async fn migrate_to(
    source: &Db,
    target: &Db,
    files: &FileStore,
    files_to: Option<&FileStore>,
) -> Result<Moved, String> {
    if target.engine() != Engine::Postgres {
        return Err("migrate-to copies into PostgreSQL: give a postgres://… URL".into());
    }
    let tables = tables(target).await?;
    let sql_err = |what: &str, e: sqlx::Error| format!("{what}: {e}");
    let mut from = source
        .begin()
        .await
        .map_err(|e| sql_err("opening the source", e))?;
    let mut to = target
        .begin()
        .await
        .map_err(|e| sql_err("opening the target", e))?;
    same_columns(&mut from, &tables).await?;
    for t in &tables {
        if SEEDED.contains(&t.name.as_str()) {
            continue;
        }
        let any: bool = crate::sql::query_scalar(&format!(
            "SELECT EXISTS (SELECT 1 FROM {})",
            quoted(&t.name)
        ))
        .fetch_one(&mut to)
        .await
        .map_err(|e| sql_err("reading the target", e))?;
        if any {
            return Err(format!(
                "the target database is not empty (table {} has rows): migrate-to copies into \
                 a new, empty database only",
                t.name
            ));
        }
    }
    switch_triggers(&mut to, &tables, false).await?;
    for t in tables.iter().rev() {
        if SEEDED.contains(&t.name.as_str()) {
            crate::sql::query(&format!("DELETE FROM {}", quoted(&t.name)))
                .execute(&mut to)
                .await
                .map_err(|e| sql_err("clearing the seeded rows", e))?;
        }
    }
    let mut sums = BTreeMap::new();
    for t in &tables {
        let mut sum = Sum::new(t);
        read_table(
            &mut from,
            t,
            Copying {
                sum: &mut sum,
                target: &mut to,
                table: t,
            },
        )
        .await?;
        sums.insert(t.name.clone(), sum.finish());
        if let Some(id) = &t.identity {
            crate::sql::query(&format!(
                "SELECT setval(pg_get_serial_sequence('{table}', '{id}'), \
                 coalesce((SELECT max({col}) FROM {qt}), 1), \
                 (SELECT max({col}) FROM {qt}) IS NOT NULL)",
                table = t.name,
                col = quoted(id),
                qt = quoted(&t.name),
            ))
            .execute(&mut to)
            .await
            .map_err(|e| sql_err("continuing the ids", e))?;
        }
    }
    switch_triggers(&mut to, &tables, true).await?;
    let copied = checksums(&mut to, &tables).await?;
    for (name, sum) in &sums {
        if copied.get(name) != Some(sum) {
            return Err(format!(
                "the copy of table {name} does not match the source ({} rows, sha256 {} \
                 copied as {:?}); nothing was committed",
                sum.rows,
                sum.sha256,
                copied.get(name)
            ));
        }
    }
    let stored = crate::store::backup::stored_files(&mut from).await?;
    let mut checked = Vec::with_capacity(stored.len());
    for (area, key) in &stored {
        let name = format!("{}/{key}", area.folder());
        let bytes = files
            .get(*area, key)
            .await
            .map_err(|e| format!("reading {name}: {e:?}"))?
            .ok_or_else(|| {
                format!(
                    "the stored file {name} is missing from {}",
                    files.describe()
                )
            })?;
        let sha = hex::encode(Sha256::digest(&bytes));
        if let Some(new) = files_to {
            new.put_at(*area, key, &bytes)
                .await
                .map_err(|e| format!("writing {name}: {e:?}"))?;
            let back = new
                .get(*area, key)
                .await
                .map_err(|e| format!("reading {name} back: {e:?}"))?
                .unwrap_or_default();
            if hex::encode(Sha256::digest(&back)) != sha {
                return Err(format!(
                    "{name} reads back from {} with other content; nothing was committed",
                    new.describe()
                ));
            }
        }
        checked.push((name, sha));
    }
    to.commit()
        .await
        .map_err(|e| sql_err("committing the copy", e))?;
    from.close().await;
    Ok(Moved {
        tables: sums,
        files: checked,
        files_copied: files_to.is_some(),
    })
}

#[cfg(test)]
mod tests;
