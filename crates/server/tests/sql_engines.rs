//! Issue 30: one statement text, the same answers on both engines — nothing rewritten on
//! the way. Each test runs the same statements on a real SQLite file and a real
//! PostgreSQL database (the suite's cluster, or one started for the test).

mod common;

use kontor_server::schema::ddl::{Column, Step, Type, Version};
use kontor_server::sql::{query, query_as, query_scalar, Db, Engine};
use kontor_server::store::db::Dec;
use rust_decimal::Decimal;
use std::str::FromStr;

/// The test's table, written once for both engines.
const AMOUNTS: Version = Version {
    version: 0,
    description: "test",
    why: "",
    steps: &[Step::CreateTable {
        name: "amounts",
        columns: &[
            Column::new("id", Type::Id),
            Column::new("x", Type::Decimal),
            Column::new("name", Type::Text),
        ],
        primary_key: &[],
    }],
};

/// Both engines, freshly migrated, with a table `amounts (id, x decimal, name text)`.
async fn engines() -> (
    Vec<Db>,
    tempfile::TempDir,
    Option<common::postgres::Cluster>,
) {
    let dir = tempfile::tempdir().unwrap();
    let sqlite = kontor_server::store::db::open_file(&dir.path().join("k.db"))
        .await
        .unwrap();
    let (cluster, url) = common::postgres::some_database().await;
    let pg = kontor_server::store::db::open_postgres(&url).await.unwrap();
    let pools = vec![sqlite, pg];
    for db in &pools {
        query(&AMOUNTS.sql(db.engine())).execute(db).await.unwrap();
    }
    (pools, dir, cluster)
}

fn dec(text: &str) -> Decimal {
    Decimal::from_str(text).unwrap()
}

#[tokio::test]
async fn decimal_sums_are_exact_on_both_engines() {
    let (pools, _dir, _cluster) = engines().await;
    for db in &pools {
        for (x, name) in [
            ("0.10", "a"),
            ("0.20", "b"),
            ("33.33", "c"),
            ("-0.005", "d"),
        ] {
            query("INSERT INTO amounts (x, name) VALUES ($1, $2)")
                .bind(dec(x))
                .bind(name)
                .execute(db)
                .await
                .unwrap();
        }
        // The exact sum both engines compute alike: thousandths (kontor_milli).
        let milli: i64 = query_scalar("SELECT CAST(SUM(kontor_milli(x)) AS BIGINT) FROM amounts")
            .fetch_one(db)
            .await
            .unwrap();
        assert_eq!(milli, 33_625, "{:?}", db.engine());
        let open: i64 = query_scalar("SELECT GREATEST(kontor_milli($1) - 40000, 0)")
            .bind(dec("41.5"))
            .fetch_one(db)
            .await
            .unwrap();
        assert_eq!(open, 1_500, "{:?}", db.engine());
    }
    // PostgreSQL's own SUM over NUMERIC stays a decimal: no statement is rewritten into
    // an integer sum that would cut it to 34.
    let pg = &pools[1];
    assert_eq!(pg.engine(), Engine::Postgres);
    let sum: Dec = query_scalar("SELECT SUM(x) FROM amounts")
        .fetch_one(pg)
        .await
        .unwrap();
    assert_eq!(sum.0, dec("33.625"));
}

#[tokio::test]
async fn case_folding_json_and_greatest_answer_alike() {
    let (pools, _dir, _cluster) = engines().await;
    let mut answers = Vec::new();
    for db in &pools {
        for name in ["ÄRZTE Nord", "Ärztehaus", "ärzte & Co", "Zahnarzt", "Öl"] {
            query("INSERT INTO amounts (x, name) VALUES (1, $1)")
                .bind(name)
                .execute(db)
                .await
                .unwrap();
        }
        let found: Vec<String> = query_scalar(
            "SELECT name FROM amounts WHERE kontor_fold(name) LIKE kontor_fold($1) ORDER BY id",
        )
        .bind("%ärzte%")
        .fetch_all(db)
        .await
        .unwrap();
        assert_eq!(
            found,
            ["ÄRZTE Nord", "Ärztehaus", "ärzte & Co"],
            "{:?}",
            db.engine()
        );
        // ASCII LIKE keeps each engine's own case rule out: both sides are folded.
        let sorted: Vec<String> =
            query_scalar("SELECT name FROM amounts ORDER BY kontor_fold(name), id")
                .fetch_all(db)
                .await
                .unwrap();
        let tags: Vec<String> =
            query_scalar(r#"SELECT value FROM json_each('["b", "a"]') ORDER BY value"#)
                .fetch_all(db)
                .await
                .unwrap();
        let greatest: (Option<i64>, i64) = query_as(
            "SELECT CAST(GREATEST(NULL, NULL) AS BIGINT), CAST(GREATEST(2, NULL, 5) AS BIGINT)",
        )
        .fetch_one(db)
        .await
        .unwrap();
        answers.push((sorted, tags, greatest));
    }
    assert_eq!(answers[0], answers[1], "SQLite and PostgreSQL answer alike");
    assert_eq!(
        answers[0].0,
        ["Zahnarzt", "ärzte & Co", "ÄRZTE Nord", "Ärztehaus", "Öl"]
    );
    assert_eq!(answers[0].1, ["a", "b"]);
    assert_eq!(answers[0].2, (None, 5));
}
