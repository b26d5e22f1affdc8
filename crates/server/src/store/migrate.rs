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
//! 6. **Statistics**: after the commit the target is `ANALYZE`d, so that the planner
//!    knows the copied tables' sizes from the first request on (a failure there is
//!    logged as a warning: the move itself is done).
//!
//! Stop the servers before moving: the source is read in one transaction, but writes
//! made meanwhile would not be copied.

use crate::sql::{Arg, Db, Engine, Row, Tx};
use crate::store::storage::FileStore;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};

mod tables;
pub use tables::*;

/// Rows read and written per statement (PostgreSQL takes at most 65,535 parameters; the
/// widest table has fewer than 60 columns).
pub const BATCH: usize = 500;

/// The tables whose rows the migrations themselves write (the audit actor row, the list
/// counters, the dashboard totals); the target may hold these and is otherwise empty.
pub const SEEDED: &[&str] = &["audit_actor", "list_counts", "invoice_totals"];

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
    // The copied tables were created empty: until autovacuum's first pass PostgreSQL
    // plans them as nearly empty (a list read every invoice and sorted it instead of
    // reading its index in order, six times slower at 10,000 invoices;
    // `docs/benchmarks.md` § PostgreSQL after a bulk load).
    // The copy is committed and verified by now: a failure here is not a failed move.
    if let Err(e) = crate::sql::query("ANALYZE").execute(target).await {
        tracing::warn!(
            "the copy is committed and verified, but gathering the planner's statistics \
             failed ({e}); PostgreSQL's autovacuum gathers them within minutes, or run \
             ANALYZE on the new database"
        );
    }
    Ok(Moved {
        tables: sums,
        files: checked,
        files_copied: files_to.is_some(),
    })
}

#[cfg(test)]
mod tests;
