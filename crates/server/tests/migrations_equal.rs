//! Issue 16 § 1 and issue 30: the migrations of both engines — the `.sql` files kept side
//! by side in `migrations/sqlite/` and `migrations/postgres/`, then those written once and
//! emitted for each (`kontor_server::schema`) — end in the same schema. Both sets are
//! applied to empty databases (a SQLite file and a fresh database on a real PostgreSQL
//! cluster) and the results are compared, normalized to one form: tables and views, every
//! column (its storage class, NOT NULL, default, primary key), foreign keys with their
//! delete rule, unique keys, the number of CHECK constraints, indexes, triggers by name and
//! the rows the migrations seed (per table).
//! Any difference fails the test and is listed.

mod common;

use sqlx::{ConnectOptions, Row};
use std::collections::BTreeSet;
use std::path::Path;

/// One fact about the schema, as a line (`column invoices.net_total TEXT not-null …`).
type Facts = BTreeSet<String>;

/// What a PostgreSQL column type is stored as on SQLite: the type class both engines
/// agree on (`crate::sql::Arg` writes decimals, dates and timestamps as SQLite TEXT, flags
/// as INTEGER 0/1).
fn storage_class(pg_type: &str) -> &str {
    match pg_type {
        "bigint" | "boolean" => "INTEGER",
        "numeric" | "date" | "timestamp with time zone" | "text" => "TEXT",
        "bytea" => "BLOB",
        other => panic!("column type {other} has no SQLite counterpart"),
    }
}

/// A default in one form: quotes, casts and the boolean/number spellings removed.
fn default_form(value: Option<String>, pg_type: &str) -> String {
    let Some(v) = value else {
        return "-".into();
    };
    let v = v.split("::").next().unwrap_or("").trim().to_string();
    let v = v.trim_matches('\'').to_string();
    match (pg_type, v.as_str()) {
        ("boolean", "false") => "0".into(),
        ("boolean", "true") => "1".into(),
        _ => v,
    }
}

/// The tables among `facts`.
fn tables_of(facts: &Facts) -> Vec<String> {
    facts
        .iter()
        .filter_map(|f| f.strip_prefix("table ").map(str::to_string))
        .collect()
}

fn count_rows(table: &str) -> String {
    format!("SELECT count(*) FROM \"{table}\"")
}

async fn sqlite_facts(path: &Path) -> Facts {
    let mut conn = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(true)
        .connect()
        .await
        .unwrap();
    kontor_server::schema::migrator(kontor_server::sql::Engine::Sqlite)
        .run(&mut conn)
        .await
        .unwrap();
    let mut facts = Facts::new();
    let objects = sqlx::query(
        "SELECT type, name, tbl_name, coalesce(sql, '') AS sql FROM sqlite_master \
         WHERE name NOT LIKE 'sqlite_%' AND name <> '_sqlx_migrations'",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    for o in &objects {
        let (kind, name, sql): (String, String, String) =
            (o.get("type"), o.get("name"), o.get("sql"));
        match kind.as_str() {
            "table" => {
                facts.insert(format!("table {name}"));
                let checks = sql.matches("CHECK (").count() + sql.matches("CHECK(").count();
                facts.insert(format!("checks {name} {checks}"));
            }
            "view" => {
                facts.insert(format!("view {name}"));
            }
            "index" if !sql.is_empty() => {
                facts.insert(format!("index {name}"));
            }
            "trigger" => {
                facts.insert(format!("trigger {name}"));
            }
            _ => {}
        }
    }
    let tables: Vec<String> = objects
        .iter()
        .filter(|o| o.get::<String, _>("type") == "table")
        .map(|o| o.get("name"))
        .collect();
    for t in &tables {
        let columns = sqlx::query(&format!(
            "SELECT name, type, \"notnull\" AS nn, dflt_value, pk FROM pragma_table_info('{t}')"
        ))
        .fetch_all(&mut conn)
        .await
        .unwrap();
        let mut pk = Vec::new();
        for c in &columns {
            let name: String = c.get("name");
            let ty: String = c.get("type");
            let pk_pos: i64 = c.get("pk");
            let not_null = c.get::<i64, _>("nn") == 1 || pk_pos > 0;
            let default = default_form(c.get("dflt_value"), "");
            facts.insert(format!(
                "column {t}.{name} {} {} default={default}",
                ty.to_uppercase(),
                if not_null { "not-null" } else { "null" }
            ));
            if pk_pos > 0 {
                pk.push((pk_pos, name));
            }
        }
        pk.sort();
        let pk: Vec<String> = pk.into_iter().map(|(_, n)| n).collect();
        facts.insert(format!("primary-key {t} ({})", pk.join(", ")));
        for fk in sqlx::query(&format!(
            "SELECT \"table\" AS ref, \"from\" AS col, \"to\" AS refcol, on_delete \
             FROM pragma_foreign_key_list('{t}')"
        ))
        .fetch_all(&mut conn)
        .await
        .unwrap()
        {
            let on_delete: String = fk.get("on_delete");
            facts.insert(format!(
                "foreign-key {t}.{} -> {}.{} on-delete={}",
                fk.get::<String, _>("col"),
                fk.get::<String, _>("ref"),
                fk.get::<String, _>("refcol"),
                on_delete.to_uppercase()
            ));
        }
        for ix in sqlx::query(&format!(
            "SELECT name, \"unique\" AS u, origin, partial FROM pragma_index_list('{t}')"
        ))
        .fetch_all(&mut conn)
        .await
        .unwrap()
        {
            let origin: String = ix.get("origin");
            if ix.get::<i64, _>("u") != 1 || origin == "pk" {
                continue;
            }
            let index: String = ix.get("name");
            let cols: Vec<String> = sqlx::query_scalar(&format!(
                "SELECT coalesce(name, '<expr>') FROM pragma_index_info('{index}') ORDER BY seqno"
            ))
            .fetch_all(&mut conn)
            .await
            .unwrap();
            let partial = if ix.get::<i64, _>("partial") == 1 {
                " partial"
            } else {
                ""
            };
            facts.insert(format!("unique {t} ({}){partial}", cols.join(", ")));
        }
    }
    // The rows the migrations seed (the audit actor, the list counters, …).
    for t in tables_of(&facts) {
        let n: i64 = sqlx::query_scalar(&count_rows(&t))
            .fetch_one(&mut conn)
            .await
            .unwrap();
        facts.insert(format!("rows {t} = {n}"));
    }
    facts
}

async fn postgres_facts(url: &str) -> Facts {
    let pool = sqlx::PgPool::connect(url).await.unwrap();
    kontor_server::schema::migrator(kontor_server::sql::Engine::Postgres)
        .run(&pool)
        .await
        .unwrap();
    let mut facts = Facts::new();
    let q = |sql: &'static str| sqlx::query(sql);
    for r in q(
        "SELECT table_name, table_type FROM information_schema.tables \
                WHERE table_schema = 'public' AND table_name <> '_sqlx_migrations'",
    )
    .fetch_all(&pool)
    .await
    .unwrap()
    {
        let name: String = r.get("table_name");
        let kind: String = r.get("table_type");
        if kind == "VIEW" {
            facts.insert(format!("view {name}"));
        } else {
            facts.insert(format!("table {name}"));
        }
    }
    for r in q("SELECT c.relname AS t, count(k.oid) AS n FROM pg_class c \
                JOIN pg_namespace ns ON ns.oid = c.relnamespace AND ns.nspname = 'public' \
                LEFT JOIN pg_constraint k ON k.conrelid = c.oid AND k.contype = 'c' \
                WHERE c.relkind = 'r' AND c.relname <> '_sqlx_migrations' GROUP BY c.relname")
    .fetch_all(&pool)
    .await
    .unwrap()
    {
        facts.insert(format!(
            "checks {} {}",
            r.get::<String, _>("t"),
            r.get::<i64, _>("n")
        ));
    }
    for r in q(
        "SELECT c.table_name AS t, c.column_name AS name, c.data_type AS ty, \
                c.is_nullable AS nullable, c.column_default AS dflt, c.is_identity AS ident \
                FROM information_schema.columns c JOIN information_schema.tables tb \
                ON tb.table_name = c.table_name AND tb.table_schema = c.table_schema \
                WHERE c.table_schema = 'public' AND tb.table_type = 'BASE TABLE' \
                AND c.table_name <> '_sqlx_migrations'",
    )
    .fetch_all(&pool)
    .await
    .unwrap()
    {
        let ty: String = r.get("ty");
        let not_null = r.get::<String, _>("nullable") == "NO";
        facts.insert(format!(
            "column {}.{} {} {} default={}",
            r.get::<String, _>("t"),
            r.get::<String, _>("name"),
            storage_class(&ty),
            if not_null { "not-null" } else { "null" },
            default_form(r.get("dflt"), &ty)
        ));
    }
    for r in q("SELECT tc.table_name AS t, tc.constraint_type AS kind, \
                string_agg(k.column_name, ', ' ORDER BY k.ordinal_position) AS cols \
                FROM information_schema.table_constraints tc \
                JOIN information_schema.key_column_usage k \
                ON k.constraint_name = tc.constraint_name AND k.table_schema = tc.table_schema \
                WHERE tc.table_schema = 'public' AND tc.constraint_type IN ('PRIMARY KEY', 'UNIQUE') \
                AND tc.table_name <> '_sqlx_migrations' \
                GROUP BY tc.table_name, tc.constraint_type, tc.constraint_name")
    .fetch_all(&pool)
    .await
    .unwrap()
    {
        let kind: String = r.get("kind");
        let t: String = r.get("t");
        let cols: String = r.get("cols");
        if kind == "PRIMARY KEY" {
            facts.insert(format!("primary-key {t} ({cols})"));
        } else {
            facts.insert(format!("unique {t} ({cols})"));
        }
    }
    for r in q(
        "SELECT c.relname AS t, i.relname AS name, x.indisunique AS u, \
                x.indpred IS NOT NULL AS partial, \
                x.indexprs IS NOT NULL AS expr, \
                EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid) AS backs \
                FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid \
                JOIN pg_class c ON c.oid = x.indrelid \
                JOIN pg_namespace ns ON ns.oid = c.relnamespace AND ns.nspname = 'public' \
                WHERE c.relname <> '_sqlx_migrations'",
    )
    .fetch_all(&pool)
    .await
    .unwrap()
    {
        if r.get::<bool, _>("backs") {
            continue;
        }
        let t: String = r.get("t");
        let name: String = r.get("name");
        facts.insert(format!("index {name}"));
        if r.get::<bool, _>("u") {
            let cols: Vec<String> = sqlx::query_scalar(
                "SELECT coalesce(a.attname, '<expr>') FROM pg_index x \
                 CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, n) \
                 LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum \
                 WHERE x.indexrelid = $1::regclass ORDER BY k.n",
            )
            .bind(&name)
            .fetch_all(&pool)
            .await
            .unwrap();
            let partial = if r.get::<bool, _>("partial") {
                " partial"
            } else {
                ""
            };
            facts.insert(format!("unique {t} ({}){partial}", cols.join(", ")));
        }
    }
    for r in q("SELECT kcu.table_name AS t, kcu.column_name AS col, ccu.table_name AS ref, \
                ccu.column_name AS refcol, rc.delete_rule AS on_delete \
                FROM information_schema.referential_constraints rc \
                JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = rc.constraint_name \
                JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = rc.constraint_name \
                WHERE rc.constraint_schema = 'public'")
    .fetch_all(&pool)
    .await
    .unwrap()
    {
        facts.insert(format!(
            "foreign-key {}.{} -> {}.{} on-delete={}",
            r.get::<String, _>("t"),
            r.get::<String, _>("col"),
            r.get::<String, _>("ref"),
            r.get::<String, _>("refcol"),
            r.get::<String, _>("on_delete")
        ));
    }
    for r in q(
        "SELECT DISTINCT trigger_name FROM information_schema.triggers \
                WHERE trigger_schema = 'public'",
    )
    .fetch_all(&pool)
    .await
    .unwrap()
    {
        facts.insert(format!("trigger {}", r.get::<String, _>("trigger_name")));
    }
    for t in tables_of(&facts) {
        let n: i64 = sqlx::query_scalar(&count_rows(&t))
            .fetch_one(&pool)
            .await
            .unwrap();
        facts.insert(format!("rows {t} = {n}"));
    }
    pool.close().await;
    facts
}

/// Normalizes what differs only in spelling between the engines: SQLite's `id INTEGER
/// PRIMARY KEY` is PostgreSQL's identity column (`default=-` on both here), and decimal
/// defaults are numbers on PostgreSQL but quoted text on SQLite (quotes are removed).
fn normalized(facts: Facts) -> Facts {
    facts
        .into_iter()
        .map(|f| f.replace("default=NULL", "default=-"))
        .collect()
}

#[tokio::test]
async fn both_engines_migrate_to_the_same_schema() {
    let cluster = common::postgres::Cluster::start();
    let url = cluster.create_database().await;
    let tmp = tempfile::tempdir().unwrap();
    let sqlite = normalized(sqlite_facts(&tmp.path().join("k.db")).await);
    let postgres = normalized(postgres_facts(&url).await);

    // The comparison covers the whole schema, not an empty set.
    assert!(sqlite.iter().filter(|f| f.starts_with("table ")).count() >= 30);
    assert!(
        sqlite
            .iter()
            .filter(|f| f.starts_with("foreign-key "))
            .count()
            >= 30
    );
    assert!(sqlite.iter().any(|f| f == "trigger invoice_totals_insert"));

    let only_sqlite: Vec<&String> = sqlite.difference(&postgres).collect();
    let only_postgres: Vec<&String> = postgres.difference(&sqlite).collect();
    assert!(
        only_sqlite.is_empty() && only_postgres.is_empty(),
        "the schemas differ\nonly on SQLite:\n  {}\nonly on PostgreSQL:\n  {}",
        only_sqlite
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n  "),
        only_postgres
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n  ")
    );
}
