//! Issue 16 § 7, `kontor-server migrate-to postgres://…` with the real binary: the demo
//! data (with the logo, a purchase's document and an audit trail) is moved from the
//! installation into an empty PostgreSQL database and its files into a new file store;
//! the report shows every table's count and checksum; a server on the copy answers every
//! list and record exactly as the server on the original did, serves the same file bytes,
//! keeps the original's key, verifies the copied audit trail and continues ids and
//! invoice numbers after the copied ones. A target that is not empty, or that does not
//! answer, is refused with a sentence and gets nothing. Moved into a bucket (moto), the
//! files arrive with their bytes.

mod common;

use common::{serve_existing, test_config, TestServer};
use serde_json::{json, Value};

/// What a user sees of the installation through the API: every list (100 per page) and
/// every invoice, offer and purchase in full, with signed links (which carry the server's
/// address and an expiry) replaced by a marker.
async fn everything(s: &TestServer) -> Value {
    let mut seen = serde_json::Map::new();
    for list in [
        "/invoices",
        "/offers",
        "/purchases",
        "/companies",
        "/users",
        "/api_keys",
        "/recurring_invoices",
        "/projects",
        "/activities",
        "/audit_events",
        "/deals",
        "/invoice_reminders",
        "/dunning_levels",
        "/base_rates",
    ] {
        let r = s.get(&format!("{list}?per_page=100")).await;
        assert_eq!(r.status, 200, "{list}: {}", r.body);
        seen.insert(format!("{list} total"), json!(r.header("x-total")));
        seen.insert(list.to_string(), r.body.clone());
        if ["/invoices", "/offers", "/purchases"].contains(&list) {
            for item in r.body.as_array().unwrap() {
                let path = format!("{list}/{}", item["id"]);
                let detail = s.get(&path).await;
                assert_eq!(detail.status, 200, "{path}: {}", detail.body);
                seen.insert(path, detail.body);
            }
        }
    }
    for page in [
        "/account",
        "/invoices/summary",
        "/purchases/summary",
        "/dashboard",
    ] {
        let r = s.get(page).await;
        assert_eq!(r.status, 200, "{page}: {}", r.body);
        seen.insert(page.to_string(), r.body);
    }
    let mut all = Value::Object(seen);
    unsign(&mut all);
    all
}

fn unsign(v: &mut Value) {
    match v {
        Value::String(s) if s.contains("expires=") => *s = "<signed link>".into(),
        Value::Array(a) => a.iter_mut().for_each(unsign),
        Value::Object(o) => o.values_mut().for_each(unsign),
        _ => {}
    }
}

/// Fills `s` with the demo data (which brings the logo) and adds a purchase with
/// `receipt` as its document, so a document moves besides the logo; returns its id.
async fn demo_with_receipt(s: &TestServer, receipt: &[u8]) -> i64 {
    s.cli(&["demo"]);
    let made = s
        .post(
            "/purchases",
            json!({"date": "2026-11-10", "currency": "EUR", "payment_method": "bank_transfer",
                "items": [{"title": "Paper", "total": 119, "tax": 19, "tax_included": true}],
                "file": {"filename": "r.pdf", "base64": base64_of(receipt)}}),
        )
        .await;
    assert_eq!(made.status, 200, "{}", made.body);
    made.body["id"].as_i64().unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_demo_data_moves_to_postgresql_with_every_record_and_file_intact() {
    let (cluster, url) = common::postgres::some_database().await;
    let mut s = common::start().await;
    let receipt = b"%PDF-1.4\n% receipt of the move test\n%%EOF".to_vec();
    let purchase = demo_with_receipt(&s, &receipt).await;
    let before = everything(&s).await;
    let last_invoice = before["/invoices total"].as_str().unwrap().to_string();
    assert!(
        last_invoice.parse::<u32>().unwrap() >= 10,
        "the demo has invoices"
    );
    s.stop().await;

    let new_home = tempfile::tempdir().unwrap();
    let out = s
        .command()
        .args(["migrate-to", &url, "--files-to"])
        .arg(new_home.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("counts and checksums match"), "{stdout}");
    let invoices_line = stdout
        .lines()
        .find(|l| l.starts_with("invoices "))
        .expect("a line for the invoices");
    assert!(
        invoices_line.contains(&format!(" {last_invoice} rows")),
        "{invoices_line}"
    );
    assert!(stdout.contains("2 stored files copied"), "{stdout}");
    assert!(!stdout.contains("hunter2") && !url.contains("hunter2"));

    // A server on the copy, with the files in their new home and the original's key —
    // its API key and its audit key (the trail on the copy is sealed with it).
    std::fs::copy(
        s.dir.path().join("audit.key"),
        new_home.path().join("audit.key"),
    )
    .unwrap();

    // The planner knows the copied tables' sizes at once (not "never analyzed", -1, which
    // PostgreSQL plans as nearly empty until autovacuum's first pass).
    let target = kontor_server::store::db::open_located(Some(&url), new_home.path())
        .await
        .unwrap();
    for table in ["invoices", "invoice_items", "audit_events"] {
        let planned: i64 = kontor_server::sql::query_scalar(&format!(
            "SELECT reltuples::bigint FROM pg_class WHERE oid = '{table}'::regclass"
        ))
        .fetch_one(&target)
        .await
        .unwrap();
        let stored: i64 =
            kontor_server::sql::query_scalar(&format!("SELECT count(*) FROM {table}"))
                .fetch_one(&target)
                .await
                .unwrap();
        assert!(stored > 0, "{table} was copied");
        assert_eq!(planned, stored, "the planner's row count of {table}");
    }
    target.close().await;
    let mut config = test_config(new_home.path());
    config.database = Some(url.clone());
    let moved = serve_existing(&config, &s.key, "the copy has its users and keys").await;
    let after = everything(&moved).await;
    for (k, v) in before.as_object().unwrap() {
        assert_eq!(&after[k], v, "{k} differs after the move");
    }
    assert_eq!(before, after);

    // The receipt's bytes come from the new store.
    let detail = moved.get(&format!("/purchases/{purchase}")).await;
    let link = detail.body["file_url"].as_str().unwrap();
    let served = reqwest::get(link).await.unwrap();
    assert_eq!(served.status(), 200);
    assert_eq!(served.bytes().await.unwrap().as_ref(), receipt.as_slice());

    // The copied audit trail verifies on PostgreSQL.
    let verified = common::process::run_ok(
        new_home.path(),
        &["--database", &url, "audit", "verify"],
        &[],
    );
    assert!(verified.contains("intact"), "{verified}");

    // New records continue after the copied ones: ids and the invoice number series.
    let customer = moved.customer("Nach dem Umzug GmbH").await;
    let created = moved
        .post("/invoices", common::invoice_body(customer))
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    let id = created.body["id"].as_i64().unwrap();
    let highest = before["/invoices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_i64().unwrap())
        .max()
        .unwrap();
    assert!(id > highest, "{id} after {highest}");
    let done = moved.finalize(id).await;
    assert_eq!(done.status, 200, "{}", done.body);
    let number = done.body["identifier"].as_str().unwrap().to_string();
    let taken: Vec<&str> = before["/invoices"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["identifier"].as_str())
        .collect();
    assert!(
        !taken.contains(&number.as_str()),
        "{number} was already used"
    );

    // The checksums the move compares see a change to a single value, in that table only.
    moved.task.as_ref().unwrap().abort();
    let source = s.db().await;
    let target = kontor_server::store::db::open_located(Some(&url), new_home.path())
        .await
        .unwrap();
    let tables = kontor_server::store::migrate::tables(&target)
        .await
        .unwrap();
    let sums = |db: kontor_server::sql::Db| {
        let tables = tables.clone();
        async move {
            let mut conn = db.acquire().await.unwrap();
            kontor_server::store::migrate::checksums(&mut conn, &tables)
                .await
                .unwrap()
        }
    };
    let (original, copy) = (sums(source.clone()).await, sums(target.clone()).await);
    assert_eq!(original["offers"], copy["offers"]);
    assert_eq!(original["purchase_items"], copy["purchase_items"]);
    kontor_server::sql::query(
        "UPDATE purchase_items SET title = title || '!' WHERE id = (SELECT min(id) FROM purchase_items)",
    )
    .execute(&target)
    .await
    .unwrap();
    let changed = sums(target.clone()).await;
    assert_ne!(original["purchase_items"], changed["purchase_items"]);
    assert_eq!(
        original["purchase_items"].rows,
        changed["purchase_items"].rows
    );
    assert_eq!(copy["offers"], changed["offers"]);
    source.close().await;
    target.close().await;

    // Moving again into the same database is refused, and changes nothing there.
    let fingerprint =
        common::pg_fingerprint(&url, None, &["api_keys.last_used_at", "server_processes"]).await;
    let again = s.command().args(["migrate-to", &url]).output().unwrap();
    assert!(!again.status.success());
    let said = String::from_utf8_lossy(&again.stderr);
    assert!(said.contains("is not empty"), "{said}");
    assert_eq!(
        common::pg_fingerprint(&url, None, &["api_keys.last_used_at", "server_processes"]).await,
        fingerprint
    );

    // A source column the PostgreSQL schema lacks would be lost unseen: refused, and the
    // fresh target stays empty.
    let source = s.db().await;
    kontor_server::sql::query("ALTER TABLE companies ADD COLUMN nickname TEXT")
        .execute(&source)
        .await
        .unwrap();
    source.close().await;
    let admin = match &cluster {
        Some(c) => c.url("postgres"),
        None => common::postgres::suite_cluster().unwrap(),
    };
    let fresh = common::postgres::fresh_database(&admin).await;
    let refused = s.command().args(["migrate-to", &fresh]).output().unwrap();
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("the source has companies.nickname, which the PostgreSQL schema lacks"),
        "{said}"
    );
    let target = kontor_server::store::db::open_located(Some(&fresh), new_home.path())
        .await
        .unwrap();
    let companies: i64 = kontor_server::sql::query_scalar("SELECT count(*) FROM companies")
        .fetch_one(&target)
        .await
        .unwrap();
    assert_eq!(companies, 0, "nothing was copied");
    target.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn files_move_into_a_bucket_with_their_bytes() {
    let (_cluster, url) = common::postgres::some_database().await;
    let moto = common::s3::Moto::start();
    moto.create_bucket("kontor").await;
    let s = common::start().await;
    let receipt = b"%PDF-1.4\n% a receipt bound for the bucket\n%%EOF".to_vec();
    demo_with_receipt(&s, &receipt).await;
    let mut local: Vec<(String, Vec<u8>)> = Vec::new();
    for area in ["account_logo", "purchase_documents"] {
        for entry in std::fs::read_dir(s.dir.path().join("files").join(area)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if !name.starts_with('.') {
                local.push((
                    format!("moved/{area}/{name}"),
                    std::fs::read(&path).unwrap(),
                ));
            }
        }
    }
    local.sort();
    assert_eq!(local.len(), 2, "the logo and the receipt");

    let mut cmd = s.command();
    cmd.args(["migrate-to", &url, "--files-to", "s3://kontor/moved"]);
    for (k, v) in moto.env() {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("2 stored files copied"), "{stdout}");
    let keys = moto.keys("kontor", "moved").await;
    let names: Vec<&String> = local.iter().map(|(k, _)| k).collect();
    assert_eq!(keys.iter().collect::<Vec<_>>(), names);
    for (key, bytes) in &local {
        assert_eq!(&moto.object("kontor", key).await, bytes, "{key}");
    }
}

#[test]
fn a_target_that_does_not_answer_is_refused_without_its_password() {
    let data = tempfile::tempdir().unwrap();
    let out = common::process::command(
        data.path(),
        &["migrate-to", "postgres://kontor:hunter2@127.0.0.1:1/kontor"],
        &[],
    )
    .output()
    .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("cannot connect to PostgreSQL (database \"kontor\" on 127.0.0.1:1)"),
        "{said}"
    );
    assert!(!said.contains("hunter2"), "{said}");
    let out = common::process::command(data.path(), &["migrate-to", "sqlite://elsewhere.db"], &[])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("give a postgres://"));
}

fn base64_of(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}
