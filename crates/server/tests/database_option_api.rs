//! Issue 16 § 1 and § Faults, the `--database` / `KONTOR_DATABASE` setting with the real
//! binary: `sqlite://PATH` keeps the database in that file (not in the data directory);
//! a `postgres://` URL serves from that PostgreSQL database (a real throwaway cluster); a
//! SQLite file that cannot be opened, a PostgreSQL server that does not answer or has no
//! such database, and an unknown scheme each stop the start with a sentence and no
//! half-started server, and a password in the URL is never printed.

mod common;

use common::process::{command, run_ok, spawn_on};
use std::process::Output;

fn refused(out: Output) -> String {
    assert!(!out.status.success(), "the server must not start");
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains("Kontor is running"),
        "no half-started server"
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Starts `serve` on `data` with `--database url` (a first start), creates the company
/// "Kranzler KG" through it, and stops it.
async fn serve_one_company(data: &std::path::Path, url: &str) {
    let (mut child, base, key) = spawn_on(data, &["--database", url], &[]);
    let key = key.expect("a first start on that database");
    let r = reqwest::Client::new()
        .post(format!("{base}/api/v1/companies"))
        .header("Authorization", format!("Token token={key}"))
        .json(&serde_json::json!({"name": "Kranzler KG"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    child.kill().unwrap();
    child.wait().unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_sqlite_url_keeps_the_database_in_that_file() {
    let data = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let file = elsewhere.path().join("books.db");
    let url = format!("sqlite://{}", file.display());
    serve_one_company(data.path(), &url).await;
    assert!(file.exists(), "the database is the named file");
    assert!(
        !data.path().join("kontor.db").exists(),
        "nothing in <data>/kontor.db"
    );
    // The CLI commands use the same setting: the key made above is listed from that file.
    let listed = run_ok(data.path(), &["--database", &url, "keys", "list"], &[]);
    assert!(!listed.trim().is_empty());
    // KONTOR_DATABASE works like the flag.
    let env = [("KONTOR_DATABASE", url.clone())];
    assert_eq!(run_ok(data.path(), &["keys", "list"], &env), listed);
    assert!(!data.path().join("kontor.db").exists());
}

#[test]
fn databases_that_cannot_be_used_stop_the_start_with_a_sentence() {
    let data = tempfile::tempdir().unwrap();
    let serve = |database: &str| {
        command(
            data.path(),
            &["serve", "--listen", "127.0.0.1:0", "--database", database],
            &[],
        )
        .output()
        .unwrap()
    };

    let stderr = refused(serve("sqlite:///nonexistent-directory/kontor.db"));
    assert!(
        stderr.contains("cannot open the database /nonexistent-directory/kontor.db"),
        "{stderr}"
    );

    let stderr = refused(serve("postgres://kontor:hunter2@127.0.0.1:1/kontor"));
    assert!(
        stderr.contains("cannot connect to PostgreSQL (database \"kontor\" on 127.0.0.1:1)"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("hunter2"),
        "the password is not printed: {stderr}"
    );

    let stderr = refused(serve("mysql://kontor@localhost/kontor"));
    assert!(
        stderr.contains("--database must be sqlite://PATH"),
        "{stderr}"
    );

    let stderr = refused(serve("sqlite://x.db?mode=ro"));
    assert!(stderr.contains("takes no options"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_postgres_url_serves_from_that_database_and_a_missing_one_stops_the_start() {
    let cluster = common::postgres::Cluster::start();
    let url = cluster.create_database().await;
    let data = tempfile::tempdir().unwrap();
    serve_one_company(data.path(), &url).await;
    assert!(
        !data.path().join("kontor.db").exists(),
        "nothing in <data>/kontor.db"
    );
    let pool = kontor_server::store::db::open_located(Some(&url), data.path())
        .await
        .unwrap();
    let names: Vec<String> = kontor_server::sql::query_scalar("SELECT name FROM companies")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(names, ["Kranzler KG"]);
    pool.close().await;
    // The CLI commands use the same setting.
    let listed = run_ok(data.path(), &["--database", &url, "keys", "list"], &[]);
    assert!(!listed.trim().is_empty());

    let missing = cluster.url("no_such_database");
    let out = command(
        data.path(),
        &["serve", "--listen", "127.0.0.1:0", "--database", &missing],
        &[],
    )
    .output()
    .unwrap();
    let stderr = refused(out);
    assert!(
        stderr.contains("cannot connect to PostgreSQL (database \"no_such_database\""),
        "{stderr}"
    );
}
