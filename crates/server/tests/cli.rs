//! The `kontor-server` binary: first start prints a key, `keys` commands, `demo` data.

use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kontor-server"))
}

fn run(args: &[&str], data: &std::path::Path) -> String {
    let out = bin().arg("--data").arg(data).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn keys_create_list_revoke() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        &["keys", "create", "--name", "ci", "--read-only"],
        dir.path(),
    );
    let key = out.lines().last().unwrap();
    assert!(key.starts_with("kontor_") && key.len() > 40, "{out}");
    let list = run(&["keys", "list"], dir.path());
    assert!(list.contains("ci") && list.contains("read-only"), "{list}");
    assert!(!list.contains(key), "secrets are never listed");
    let out = run(&["keys", "revoke", "1"], dir.path());
    assert!(out.contains("revoked"), "{out}");
    let list = run(&["keys", "list"], dir.path());
    assert!(
        list.lines().nth(1).unwrap().contains('T'),
        "revocation time shown: {list}"
    );
}

#[test]
fn demo_fills_every_status() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&["demo"], dir.path());
    assert!(out.contains("72 invoices"), "{out}");
    let again = run(&["demo"], dir.path());
    assert!(again.contains("already holds"), "{again}");
    let db = dir.path().join("kontor.db");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let statuses: Vec<String> = rt.block_on(async {
        let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", db.display()))
            .await
            .unwrap();
        sqlx::query_scalar("SELECT DISTINCT status FROM invoices ORDER BY status")
            .fetch_all(&pool)
            .await
            .unwrap()
    });
    assert_eq!(
        statuses,
        [
            "created",
            "draft",
            "ignored",
            "overdue",
            "paid",
            "partially_paid",
            "sent"
        ]
    );
}
