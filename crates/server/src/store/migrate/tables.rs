//! Reading a database's tables for the move: their columns and kinds, each row's values
//! as the target binds them, batched, and the per-table checksums that prove the copy.

use super::*;

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

pub(super) fn quoted(name: &str) -> String {
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
pub(super) fn value(row: &Row, i: usize, kind: Kind) -> Result<Arg<'static>, sqlx::Error> {
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
pub(super) struct Sum {
    pub(super) rows: u64,
    pub(super) hash: Sha256,
}

impl Sum {
    pub(super) fn new(t: &Table) -> Sum {
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

    pub(super) fn finish(self) -> TableSum {
        TableSum {
            rows: self.rows,
            sha256: hex::encode(self.hash.finalize()),
        }
    }
}

/// Reads table `t` on `conn` in primary-key order, one batch at a time, handing each
/// batch of typed rows to `each`. Errors: the database's, or a value that does not decode,
/// as a sentence naming the table.
pub(super) async fn read_table<F>(conn: &mut Tx, t: &Table, mut each: F) -> Result<(), String>
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
                "{select} WHERE {k} > $1 ORDER BY {k} LIMIT {BATCH}",
                k = quoted(&t.key[0])
            );
            crate::sql::query(&sql)
                .bind(after.unwrap_or(i64::MIN))
                .fetch_all(&mut *conn)
                .await
        } else {
            let sql = format!(
                "{select} ORDER BY {} LIMIT {BATCH} OFFSET $1",
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
pub(super) trait AsyncBatch {
    /// Takes one batch of rows (values in column order).
    async fn batch(&mut self, rows: Vec<Vec<Arg<'static>>>) -> Result<(), String>;
}

/// Sums the rows it is given.
pub(super) struct Summing<'a>(pub(super) &'a mut Sum);

impl AsyncBatch for Summing<'_> {
    async fn batch(&mut self, rows: Vec<Vec<Arg<'static>>>) -> Result<(), String> {
        for r in &rows {
            self.0.add(r);
        }
        Ok(())
    }
}

/// Sums the rows it is given and inserts them into the target.
pub(super) struct Copying<'a> {
    pub(super) sum: &'a mut Sum,
    pub(super) target: &'a mut Tx,
    pub(super) table: &'a Table,
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
