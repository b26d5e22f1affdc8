//! Unit tests of `sql` (kept apart so the module itself stays short).

use super::*;
use rust_decimal::Decimal;
use std::borrow::Cow;

#[test]
fn a_question_mark_placeholder_is_found_outside_quotes_and_comments() {
    assert!(!has_question_placeholder("SELECT 1"));
    assert!(!has_question_placeholder(
        "UPDATE t SET a = $1, b = $2 WHERE id = $3"
    ));
    assert!(has_question_placeholder("UPDATE t SET a = ? WHERE id = $1"));
    assert!(has_question_placeholder("SELECT ?1"));
    assert!(!has_question_placeholder(
        "SELECT '?', \"a?\" -- why?\n, $1 FROM t WHERE s = 'it''s ?' AND v = $2"
    ));
    assert_eq!(placeholders(3, 2), "$3, $4");
    assert_eq!(placeholders(1, 0), "");
}

#[test]
fn json_is_built_with_each_engines_own_functions() {
    use dialect::*;
    let row = json_object_of(Engine::Sqlite, "t", &["id", "net"]);
    assert_eq!(row, "json_object('id', t.id, 'net', t.net)");
    assert_eq!(
        json_text(
            Engine::Sqlite,
            &json_array_agg(Engine::Sqlite, &row, "t.id")
        ),
        "json_group_array(json_object('id', t.id, 'net', t.net) ORDER BY t.id)"
    );
    let row = json_object_of(Engine::Postgres, "t", &["id", "net"]);
    assert_eq!(
        row,
        "json_build_object('id', kontor_v(t.id), 'net', kontor_v(t.net))"
    );
    assert_eq!(
        json_text(Engine::Postgres, &json_array_agg(Engine::Postgres, &row, "t.id")),
        "(coalesce(json_agg(json_build_object('id', kontor_v(t.id), 'net', kontor_v(t.net)) ORDER BY t.id), '[]'::json))::text"
    );
    assert_eq!(
        json_with(Engine::Sqlite, "o", &[("s", "x.s")]),
        "json_set(o, '$.s', x.s)"
    );
    assert_eq!(
        json_with(Engine::Postgres, "o", &[("s", "x.s")]),
        "((o)::jsonb || jsonb_build_object('s', kontor_v(x.s)))::json"
    );
    assert_eq!(
        json_subquery(Engine::Sqlite, "(SELECT 1)"),
        "json((SELECT 1))"
    );
    assert_eq!(json_subquery(Engine::Postgres, "(SELECT 1)"), "(SELECT 1)");
    assert_eq!(
        json_array(Engine::Postgres, &["a", "b"]),
        "json_build_array(kontor_v(a), kontor_v(b))"
    );
}

#[test]
fn a_statement_per_engine_is_written_once_and_kept() {
    static SQL: dialect::PerEngine =
        dialect::PerEngine::new(|e| format!("SELECT {}", dialect::json_array(e, &["1"])));
    assert_eq!(SQL.get(Engine::Sqlite), "SELECT json_array(1)");
    assert_eq!(
        SQL.get(Engine::Postgres),
        "SELECT json_build_array(kontor_v(1))"
    );
    assert!(std::ptr::eq(
        SQL.get(Engine::Sqlite),
        SQL.get(Engine::Sqlite)
    ));
}

#[test]
fn milli_reads_decimal_text_exactly_and_refuses_the_rest() {
    use functions::milli_of;
    assert_eq!(milli_of("119.5"), Some(119_500));
    assert_eq!(milli_of("-0.05"), Some(-50));
    assert_eq!(milli_of("100"), Some(100_000));
    assert_eq!(milli_of("0.0019"), Some(1), "truncated toward zero");
    assert_eq!(milli_of("-1.9999"), Some(-1_999));
    assert_eq!(milli_of(".5"), Some(500));
    assert_eq!(milli_of("9223372036854775.807"), Some(i64::MAX));
    assert_eq!(milli_of("9223372036854776"), None, "beyond BIGINT");
    for bad in ["", "-", ".", "1e5", "abc", "1.2.3", "--1", " 1 2"] {
        assert_eq!(milli_of(bad), None, "{bad:?}");
    }
}

/// An in-memory SQLite connection with Kontor's functions.
async fn sqlite() -> Tx {
    use sqlx::ConnectOptions;
    let mut conn = sqlx::sqlite::SqliteConnectOptions::new()
        .in_memory(true)
        .connect()
        .await
        .unwrap();
    functions::register(&mut conn).await.unwrap();
    Tx::from_sqlite(conn)
}

#[tokio::test]
async fn the_sqlite_functions_agree_with_the_written_out_forms() {
    let mut db = sqlite().await;
    query("CREATE TABLE t (x TEXT)")
        .execute(&mut db)
        .await
        .unwrap();
    let values = ["119.5", "-0.05", "100", "0.001", "-12345.678", "7.12", "0"];
    for v in values {
        query("INSERT INTO t (x) VALUES ($1)")
            .bind(v)
            .execute(&mut db)
            .await
            .unwrap();
    }
    let sql = format!(
        "SELECT x, kontor_milli(x), {} FROM t",
        functions::milli_expression(Engine::Sqlite, "x")
    );
    let rows: Vec<(String, i64, i64)> = query_as(&sql).fetch_all(&mut db).await.unwrap();
    assert_eq!(rows.len(), values.len());
    for (x, function, written) in rows {
        assert_eq!(function, written, "{x}");
        assert_eq!(Some(function), functions::milli_of(&x));
    }
    let folded: String = query_scalar("SELECT kontor_fold('ÄRZTE Ölmühle')")
        .fetch_one(&mut db)
        .await
        .unwrap();
    assert_eq!(folded, "ärzte ölmühle");
    let (a, b, c): (i64, Option<i64>, i64) =
        query_as("SELECT GREATEST(3, 7, -1), GREATEST(NULL, NULL), GREATEST(NULL, -4)")
            .fetch_one(&mut db)
            .await
            .unwrap();
    assert_eq!((a, b, c), (7, None, -4));
    let refused = query_scalar::<i64>("SELECT kontor_milli('1e5')")
        .fetch_one(&mut db)
        .await
        .unwrap_err();
    assert!(
        refused.to_string().contains("not a decimal amount"),
        "{refused}"
    );
    assert!(query_scalar::<i64>("SELECT GREATEST('a', 1)")
        .fetch_one(&mut db)
        .await
        .is_err());
}

#[tokio::test]
async fn numbered_placeholders_bind_by_number_on_sqlite() {
    let mut db = sqlite().await;
    let (a, b): (i64, String) = query_as("SELECT $2, $1")
        .bind("x")
        .bind(5i64)
        .fetch_one(&mut db)
        .await
        .unwrap();
    assert_eq!((a, b.as_str()), (5, "x"));
}

#[test]
fn none_binds_a_null_of_its_type() {
    assert_eq!(Arg::from(None::<Decimal>), Arg::Decimal(None));
    assert_eq!(Arg::from(None::<&str>), Arg::Text(None));
    assert_eq!(Arg::from(Some(3i32)), Arg::Int(Some(3)));
    let s = Some("x".to_string());
    assert_eq!(Arg::from(&s), Arg::Text(Some(Cow::Borrowed("x"))));
}

#[test]
fn the_builder_binds_in_order_with_separators() {
    let mut b = Builder::new("INSERT INTO t (a, b) VALUES (");
    let mut sep = b.separated(", ");
    sep.push_bind(1i64).push_bind("x");
    sep.push_unseparated(")");
    let q = b.build();
    assert_eq!(q.sql, "INSERT INTO t (a, b) VALUES ($1, $2)");
    assert_eq!(q.args, vec![Arg::Int(Some(1)), Arg::Text(Some("x".into()))]);
}

/// Rows sent as one JSON parameter are stored exactly as the same values bound one by one
/// (the stored text forms of decimals, dates and timestamps, NULLs, quotes and umlauts).
#[tokio::test]
async fn json_rows_store_what_binding_stores() {
    use json_rows::{select, JsonRows, Kind};
    let mut db = sqlite().await;
    query("CREATE TABLE t (n INTEGER, f INTEGER, s TEXT, d TEXT, ts TEXT, day TEXT)")
        .execute(&mut db)
        .await
        .unwrap();
    let at = chrono::DateTime::parse_from_rfc3339("2026-11-29T20:05:57Z")
        .unwrap()
        .with_timezone(&chrono::Utc);
    let day = chrono::NaiveDate::from_ymd_opt(2026, 2, 28).unwrap();
    let rows: Vec<Vec<Arg>> = vec![
        vec![
            Arg::from(9_007_199_254_740_993i64),
            Arg::from(true),
            Arg::from("Müller \"Bau\" \\ 'GmbH'\n€"),
            Arg::from(Decimal::new(11900, 2)),
            Arg::from(at),
            Arg::from(day),
        ],
        vec![
            Arg::Int(None),
            Arg::from(false),
            Arg::Text(None),
            Arg::from(Decimal::new(0, 2)),
            Arg::Timestamp(None),
            Arg::Date(None),
        ],
        vec![
            Arg::from(-1i64),
            Arg::Bool(None),
            Arg::from(""),
            Arg::from(Decimal::new(-5, 3)),
            Arg::from(at),
            Arg::from(day),
        ],
    ];
    let columns = [
        ("n", Kind::Int),
        ("f", Kind::Bool),
        ("s", Kind::Text),
        ("d", Kind::Decimal),
        ("ts", Kind::Timestamp),
        ("day", Kind::Date),
    ];
    let mut json = JsonRows::new();
    for row in &rows {
        json.push(row).unwrap();
        let mut one = query("INSERT INTO t VALUES ($1, $2, $3, $4, $5, $6)");
        for v in row {
            one = one.bind(v.clone());
        }
        one.execute(&mut db).await.unwrap();
    }
    assert_eq!(json.len(), 3);
    let insert = format!("INSERT INTO t {}", select(Engine::Sqlite, "$1", &columns));
    query(&insert)
        .bind(json.into_text())
        .execute(&mut db)
        .await
        .unwrap();
    type Stored = (
        Option<i64>,
        Option<i64>,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        String,
    );
    let stored: Vec<Stored> = query_as(
        "SELECT n, f, s, d, ts, day, typeof(n) || typeof(f) || typeof(s) || typeof(d) FROM t ORDER BY rowid",
    )
    .fetch_all(&mut db)
    .await
    .unwrap();
    assert_eq!(stored.len(), 6);
    assert_eq!(stored[..3], stored[3..], "bound rows, then the JSON rows");
    assert_eq!(stored[0].3.as_deref(), Some("119.00"));
    assert_eq!(stored[1].3.as_deref(), Some("0.00"));
    assert_eq!(stored[0].4.as_deref(), Some("2026-11-29T20:05:57Z"));
    assert_eq!(stored[0].0, Some(9_007_199_254_740_993));
    // No rows: an empty array inserts nothing.
    query(&insert)
        .bind(JsonRows::new().into_text())
        .execute(&mut db)
        .await
        .unwrap();
    let count: i64 = query_scalar("SELECT COUNT(*) FROM t")
        .fetch_one(&mut db)
        .await
        .unwrap();
    assert_eq!(count, 6);
    assert!(JsonRows::new().push(&[Arg::from(vec![1u8])]).is_err());
    assert!(select(Engine::Postgres, "$1", &columns).contains("CAST(r ->> 3 AS NUMERIC) AS d"));
}

/// The work before commit (`Tx::before_commit`) runs inside the transaction: what it
/// writes commits with the transaction's rows; when it fails, the commit fails and
/// nothing of the transaction stays; a rolled-back transaction never runs it.
#[tokio::test]
async fn the_work_before_commit_commits_with_the_transaction_or_fails_it() {
    let pool = sqlx::sqlite::SqlitePoolOptions::new()
        .max_connections(1)
        .connect("sqlite::memory:")
        .await
        .unwrap();
    let db = Db::Sqlite(pool, None);
    query("CREATE TABLE t (what TEXT NOT NULL)")
        .execute(&db)
        .await
        .unwrap();
    let rows = || async {
        query_scalar::<String>(
            "SELECT coalesce(group_concat(what, ','), '') FROM (SELECT what FROM t ORDER BY rowid)",
        )
        .fetch_one(&db)
        .await
        .unwrap()
    };
    // A transaction that wrote `row`, with `statement` as its work before commit.
    let open = |row: &'static str, statement: &'static str| {
        let db = &db;
        async move {
            let mut tx = db.begin().await.unwrap();
            query("INSERT INTO t (what) VALUES ($1)")
                .bind(row)
                .execute(&mut tx)
                .await
                .unwrap();
            tx.before_commit(Box::new(move |tx| {
                Box::pin(async move { query(statement).execute(tx).await.map(|_| ()) })
            }));
            tx
        }
    };

    let tx = open("row", "INSERT INTO t (what) VALUES ('sealed')").await;
    tx.commit().await.unwrap();
    assert_eq!(rows().await, "row,sealed");

    let tx = open("second", "INSERT INTO no_such_table (x) VALUES (1)").await;
    assert!(
        tx.commit().await.is_err(),
        "the failing work fails the commit"
    );
    assert_eq!(rows().await, "row,sealed", "nothing of it stayed");

    let tx = open("third", "INSERT INTO t (what) VALUES ('never')").await;
    tx.rollback().await.unwrap();
    assert_eq!(rows().await, "row,sealed", "a rollback runs nothing");
}

/// A database for the group tests, with no write group (each test attaches one): a SQLite
/// file in `dir` in WAL mode with a pool of three connections, as the server opens its
/// database — or, with `postgres`, a fresh database on the test command's PostgreSQL
/// cluster (`KONTOR_TEST_POSTGRES`; `None` without one).
async fn group_test_db(dir: &tempfile::TempDir, postgres: bool) -> Option<Db> {
    if postgres {
        let admin = std::env::var("KONTOR_TEST_POSTGRES")
            .ok()
            .filter(|u| !u.is_empty())?;
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);
        let name = format!(
            "unit_{}_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .subsec_nanos()
        );
        let pool = sqlx::PgPool::connect(&admin).await.unwrap();
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&pool)
            .await
            .unwrap();
        pool.close().await;
        let (base, params) = admin.split_once('?').unwrap_or((&admin, ""));
        let base = &base[..base.rfind('/').expect("a database in the URL")];
        let url = if params.is_empty() {
            format!("{base}/{name}")
        } else {
            format!("{base}/{name}?{params}")
        };
        let pool = sqlx::postgres::PgPoolOptions::new()
            .max_connections(3)
            .connect(&url)
            .await
            .unwrap();
        return Some(Db::Postgres(pool, None));
    }
    let options = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(dir.path().join("group.db"))
        .create_if_missing(true)
        .journal_mode(sqlx::sqlite::SqliteJournalMode::Wal);
    let pool = sqlx::sqlite::SqlitePoolOptions::new()
        .max_connections(3)
        .connect_with(options)
        .await
        .unwrap();
    Some(Db::Sqlite(pool, None))
}

/// `CREATE TABLE name (n <an increasing key>, columns)` in the spelling of `db`'s engine.
async fn create_keyed_table(db: &Db, name: &str, columns: &str) {
    let key = match db.engine() {
        Engine::Sqlite => "n INTEGER PRIMARY KEY",
        Engine::Postgres => "n BIGSERIAL PRIMARY KEY",
    };
    query(&format!("CREATE TABLE {name} ({key}, {columns})"))
        .execute(db)
        .await
        .unwrap();
}

/// What `table`'s `column` holds, in the order written, as other connections see it
/// (comma-separated).
async fn listed(db: &Db, column: &str, table: &str) -> String {
    query_scalar::<String>(&format!(
        "SELECT coalesce(string_agg(CAST({column} AS TEXT), ',' ORDER BY n), '') FROM {table}"
    ))
    .fetch_one(db)
    .await
    .unwrap()
}

/// Asserts that no transaction of the write group stays open once its writes ended: on
/// SQLite a write outside the group gets the write lock (within sqlx's 5 s busy timeout,
/// else "database is locked"); on PostgreSQL no other session of the database is idle in
/// a transaction (within 5 s: the committer ends it by itself).
async fn assert_no_transaction_left_open(plain: &Db, table: &str) {
    match plain.engine() {
        Engine::Sqlite => {
            query(&format!(
                "INSERT INTO {table} (what) SELECT 'outside' WHERE 0 = 1"
            ))
            .execute(plain)
            .await
            .unwrap();
            query("BEGIN IMMEDIATE; COMMIT")
                .execute(plain)
                .await
                .unwrap();
        }
        Engine::Postgres => {
            let mut open = 1;
            for _ in 0..50 {
                open = query_scalar::<i64>(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() \
                     AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'",
                )
                .fetch_one(plain)
                .await
                .unwrap();
                if open == 0 {
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
            assert_eq!(open, 0, "a transaction of the group stays open");
        }
    }
}

/// Runs `test` on a fresh SQLite database and, when the test command's PostgreSQL cluster
/// is there (`KONTOR_TEST_POSTGRES`), on a fresh PostgreSQL database ([`group_test_db`]).
async fn on_both_engines<F, Fut>(test: F)
where
    F: Fn(Db) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    for postgres in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        if let Some(plain) = group_test_db(&dir, postgres).await {
            test(plain).await;
        }
    }
}

/// Creates the tables `t (what)` and `commits (rows_seen)` in `plain` and answers it with a
/// write group whose hook records, at each group commit, how many rows `t` holds.
async fn counting_group(plain: &Db) -> Db {
    create_keyed_table(plain, "t", "what TEXT NOT NULL").await;
    create_keyed_table(plain, "commits", "rows_seen BIGINT NOT NULL").await;
    plain.clone().with_write_group(std::sync::Arc::new(|tx| {
        Box::pin(async move {
            query("INSERT INTO commits (rows_seen) SELECT count(*) FROM t")
                .execute(tx)
                .await
                .map(|_| ())
        })
    }))
}

/// Group commit (`write_group`, issue 35), on SQLite and on PostgreSQL: a write waits for
/// the turn of the one before; writes queued together share one commit (the hook runs
/// once, inside it, and sees them all), and each is answered only once its rows are
/// visible to every connection; a write dropped without committing undoes only itself, a
/// write whose statement failed never commits even when its handler commits, and when no
/// write follows, the group's transaction ends so others can write.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_in_a_group_share_a_commit_and_undo_only_themselves() {
    on_both_engines(writes_share_a_commit_and_undo_only_themselves).await;
}

async fn writes_share_a_commit_and_undo_only_themselves(plain: Db) {
    let db = counting_group(&plain).await;
    let write = |db: Db, what: &'static str| async move {
        let mut tx = db.begin_in_group().await.unwrap().expect("a group");
        query("INSERT INTO t (what) VALUES ($1)")
            .bind(what)
            .execute(&mut tx)
            .await
            .unwrap();
        tx
    };

    // `a` holds the turn: its row is not visible elsewhere, and `b` waits.
    let a = write(db.clone(), "a").await;
    assert_eq!(listed(&plain, "what", "t").await, "");
    let b = tokio::spawn(write(db.clone(), "b"));
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    assert!(
        !b.is_finished(),
        "a second write waits for the first one's turn"
    );
    // `a` commits: `b` (queued before the committer) writes in the same group; both are
    // answered after one commit that saw both rows.
    let a_done = tokio::spawn(a.commit());
    let b = b.await.unwrap();
    assert!(
        !a_done.is_finished(),
        "no answer before the group committed"
    );
    b.commit().await.unwrap();
    a_done.await.unwrap().unwrap();
    assert_eq!(listed(&plain, "what", "t").await, "a,b");
    assert_eq!(
        listed(&plain, "rows_seen", "commits").await,
        "2",
        "one commit for both writes"
    );

    // A write dropped without committing (a failed handler, a client gone) undoes only
    // itself; the next write in the same group commits.
    let c = write(db.clone(), "c").await;
    let d = tokio::spawn(write(db.clone(), "d"));
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    drop(c);
    d.await.unwrap().commit().await.unwrap();
    assert_eq!(listed(&plain, "what", "t").await, "a,b,d");

    // A failed statement leaves the write's earlier rows to its savepoint too.
    let mut e = write(db.clone(), "e").await;
    assert!(query("INSERT INTO t (what) VALUES (NULL)")
        .execute(&mut e)
        .await
        .is_err());
    drop(e);
    // With no write after it, the group's transaction ends.
    assert_no_transaction_left_open(&plain, "t").await;
    // An explicit rollback gives the turn on at once.
    let f = write(db.clone(), "f").await;
    f.rollback().await.unwrap();
    write(db.clone(), "g").await.commit().await.unwrap();
    assert_eq!(listed(&plain, "what", "t").await, "a,b,d,g");

    // A write whose statement failed and whose handler commits anyway: its commit fails
    // and nothing of it stays, while the writes before and after it in the same group
    // commit (on PostgreSQL the failure aborted the group's transaction, whose `COMMIT`
    // would have rolled back all of them without an error).
    let h = write(db.clone(), "h").await;
    let j = tokio::spawn({
        let db = db.clone();
        async move {
            let mut j = write(db, "j").await;
            let failed = query("INSERT INTO t (what) VALUES (NULL)")
                .execute(&mut j)
                .await
                .is_err();
            (j, failed)
        }
    });
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    // `j` waits for the turn ahead of the committer `h` wakes: both in one transaction.
    let h_done = tokio::spawn(h.commit());
    let (j, failed) = j.await.unwrap();
    assert!(failed, "a NULL in a NOT NULL column fails");
    let k = tokio::spawn(write(db.clone(), "k"));
    assert!(
        j.commit().await.is_err(),
        "a write whose statement failed does not commit"
    );
    k.await.unwrap().commit().await.unwrap();
    h_done.await.unwrap().unwrap();
    assert_eq!(listed(&plain, "what", "t").await, "a,b,d,g,h,k");
    assert_no_transaction_left_open(&plain, "t").await;
    db.close().await;
}

/// A group holds at most `write_group::MAX_WRITES` writes: with more writes waiting for
/// their turn at once, every one of them commits, in more than one commit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_group_commits_before_it_takes_more_writes() {
    on_both_engines(full_group_commits_first).await;
}

async fn full_group_commits_first(plain: Db) {
    let db = counting_group(&plain).await;
    // The first write holds the turn while the others queue behind it.
    let mut first = db.begin_in_group().await.unwrap().expect("a group");
    query("INSERT INTO t (what) VALUES ('w')")
        .execute(&mut first)
        .await
        .unwrap();
    let writes = 2 * write_group::MAX_WRITES + 3;
    let mut tasks = Vec::new();
    for _ in 1..writes {
        let db = db.clone();
        tasks.push(tokio::spawn(async move {
            let mut tx = db.begin_in_group().await?.expect("a group");
            query("INSERT INTO t (what) VALUES ('w')")
                .execute(&mut tx)
                .await?;
            tx.commit().await
        }));
    }
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    first.commit().await.unwrap();
    for t in tasks {
        t.await.unwrap().unwrap();
    }
    let counts = listed(&plain, "rows_seen", "commits").await;
    let seen: Vec<usize> = counts.split(',').map(|c| c.parse().unwrap()).collect();
    assert_eq!(
        seen.last(),
        Some(&writes),
        "every write committed: {counts}"
    );
    assert!(
        seen.windows(2)
            .all(|w| w[1] - w[0] <= write_group::MAX_WRITES)
            && seen[0] <= write_group::MAX_WRITES,
        "no commit holds more than {} writes: {counts}",
        write_group::MAX_WRITES
    );
    db.close().await;
}

/// Writes whose callers go away at any point — while waiting for the turn, during the
/// `BEGIN` or `SAVEPOINT`, inside their statements, while waiting for the commit, or while
/// flushing the group — never harm the writes that finish (issue 35: a CI run of the
/// hang-up test answered 500 once). Cancellation is by timeouts of 0–0.5 ms around whole
/// writes and flushes, beside writes that must all succeed; afterwards every finished write
/// is committed whole, no write is half stored (a cancelled one is either whole — it was
/// cancelled while waiting for its commit — or absent), and no transaction of the group
/// stays open. On SQLite and on PostgreSQL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_cancelled_anywhere_never_harm_the_ones_that_finish() {
    on_both_engines(cancelled_writes_never_harm_the_ones_that_finish).await;
}

async fn cancelled_writes_never_harm_the_ones_that_finish(plain: Db) {
    use std::sync::Arc;
    use std::time::Duration;
    create_keyed_table(&plain, "t", "what TEXT NOT NULL, kept BOOLEAN NOT NULL").await;
    let db = plain
        .clone()
        .with_write_group(Arc::new(|_| Box::pin(async { Ok(()) })));
    // One write: two statements in the group, then the commit. `kept` says whether its
    // caller will wait for it to the end.
    async fn write(db: Db, what: String, kept: bool) -> Result<(), sqlx::Error> {
        let mut tx = db.begin_in_group().await?.expect("a group");
        for _ in 0..2 {
            query("INSERT INTO t (what, kept) VALUES ($1, $2)")
                .bind(&what)
                .bind(kept)
                .execute(&mut tx)
                .await?;
        }
        tx.commit().await
    }
    let mut finished = Vec::new();
    let mut tasks = Vec::new();
    for client in 0..4u64 {
        let db = db.clone();
        tasks.push(tokio::spawn(async move {
            let mut mine = Vec::new();
            for n in 0..200u64 {
                let limit = Duration::from_micros((n * 37 + client * 11) % 50 * 10);
                let name = format!("c{client}-{n}");
                if n % 3 == 0 {
                    write(db.clone(), name.clone(), true)
                        .await
                        .expect("a write whose caller waits succeeds");
                    mine.push(name);
                } else if n % 3 == 1 {
                    // Cancelled wherever the timeout strikes; it may still have committed.
                    let _ = tokio::time::timeout(limit, write(db.clone(), name, false)).await;
                } else {
                    let _ = tokio::time::timeout(limit, db.flush_writes()).await;
                }
            }
            mine
        }));
    }
    for t in tasks {
        finished.extend(t.await.unwrap());
    }
    // Every finished write is there, twice (both statements), and nothing is half there.
    let stored = query_scalar::<String>(
        "SELECT coalesce(string_agg(what || ':' || CAST(c AS TEXT), ',' ORDER BY what), '') \
         FROM (SELECT what, count(*) AS c FROM t GROUP BY what) counted",
    )
    .fetch_one(&plain)
    .await
    .unwrap();
    let rows: Vec<(String, i64)> = stored
        .split(',')
        .filter(|r| !r.is_empty())
        .map(|r| {
            let (what, n) = r.rsplit_once(':').unwrap();
            (what.to_string(), n.parse().unwrap())
        })
        .collect();
    for name in &finished {
        assert!(
            rows.iter().any(|(w, n)| w == name && *n == 2),
            "{name} finished but is not stored whole: {rows:?}"
        );
    }
    assert!(
        rows.iter().all(|(_, n)| *n == 2),
        "a write half stored: {rows:?}"
    );
    assert_no_transaction_left_open(&plain, "t").await;
    db.close().await;
}
