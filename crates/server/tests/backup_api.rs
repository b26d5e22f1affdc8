//! Issue 15 § 3, `kontor-server backup FILE` and `kontor-server restore FILE --data DIR`
//! with the real binary: the demo database (with its logo) plus uploaded documents and
//! attachments round-trip — every table's rows and every stored file are equal after the
//! restore; a backup taken while clients keep writing restores to a whole database
//! (integrity check, every stored file present and equal to what the server serves); a
//! restore refuses a non-empty directory and a damaged archive.

mod common;

use base64::Engine;
use common::{cli, db_fingerprint, TestServer};
use serde_json::json;
use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn cli_fails(args: &[&str], data: &std::path::Path) -> String {
    let out = common::cli_output(args, data);
    assert!(!out.status.success(), "{args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A purchase with a PDF document; returns its id.
async fn purchase_with_document(s: &TestServer, n: usize) -> i64 {
    let pdf = format!("%PDF-1.4\n% receipt {n}\n%%EOF");
    let r = s
        .post(
            "/purchases",
            json!({"date": "2026-11-10", "currency": "EUR", "payment_method": "bank_transfer",
                "items": [{"title": "Paper", "total": 119, "tax": 19, "tax_included": true}],
                "file": {"filename": format!("receipt-{n}.pdf"), "base64": b64(pdf.as_bytes())}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["id"].as_i64().unwrap()
}

/// What changes with time, not with data: a key's last use, and the heartbeats of the
/// server processes (issue 29; a restore starts without any).
const SKIP: &[&str] = &["api_keys.last_used_at", "server_processes"];

#[tokio::test(flavor = "multi_thread")]
async fn the_demo_round_trips_with_every_record_and_file() {
    let mut s = common::start_demo().await;
    purchase_with_document(&s, 1).await;
    let offers = s.get("/offers").await.body;
    let offer = offers[0]["id"].as_i64().unwrap();
    let up = s
        .post(
            &format!("/offers/{offer}/attachments"),
            json!({"attachment": {"filename": "plan.pdf", "base64": b64(b"%PDF-1.4\n% plan\n%%EOF")}}),
        )
        .await;
    assert!(up.status.is_success(), "{} {}", up.status, up.body);

    let work = tempfile::tempdir().unwrap();
    let archive = work.path().join("kontor-backup.zip");
    let said = cli(&["backup", archive.to_str().unwrap()], s.dir.path());
    assert!(said.contains("Backed up"), "{said}");
    s.stop().await;
    let before = db_fingerprint(
        &s.dir.path().join("kontor.db"),
        Some(&s.dir.path().join("files")),
        SKIP,
    )
    .await;
    assert!(
        before.keys().any(|k| k.starts_with("file account_logo/")),
        "{before:#?}"
    );
    assert!(before
        .keys()
        .any(|k| k.starts_with("file purchase_documents/")));
    assert!(before
        .keys()
        .any(|k| k.starts_with("file offer_attachments/")));

    let restored = work.path().join("restored");
    // Without the installation's audit key nothing is restored, and nothing is left.
    let err = cli_fails(&["restore", archive.to_str().unwrap()], &restored);
    assert!(err.contains("no audit key"), "{err}");
    assert!(!restored.exists() || std::fs::read_dir(&restored).unwrap().next().is_none());
    // The key file goes into the empty directory first (it is never in the backup).
    with_key(&s, &restored);
    let said = cli(&["restore", archive.to_str().unwrap()], &restored);
    assert!(said.contains("Restored"), "{said}");
    let after = db_fingerprint(
        &restored.join("kontor.db"),
        Some(&restored.join("files")),
        SKIP,
    )
    .await;
    assert_eq!(before, after);

    // Restoring twice into the same directory is refused; so is a damaged archive.
    let err = cli_fails(&["restore", archive.to_str().unwrap()], &restored);
    assert!(err.contains("not empty"), "{err}");
    let damaged = work.path().join("damaged.zip");
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&archive).unwrap()).unwrap();
    let mut out = zip::ZipWriter::new(std::fs::File::create(&damaged).unwrap());
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).unwrap();
        let name = entry.name().to_string();
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).unwrap();
        if name.starts_with("files/purchase_documents/") {
            bytes.extend_from_slice(b"tampered");
        }
        out.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        out.write_all(&bytes).unwrap();
    }
    out.finish().unwrap();
    let other = work.path().join("other");
    with_key(&s, &other);
    let err = cli_fails(&["restore", damaged.to_str().unwrap()], &other);
    assert!(err.contains("damaged"), "{err}");
    only_the_key_is_left(&other);

    // An edited backup whose manifest hashes were recomputed (issue 29): the manifest's
    // signature does not match, and the restore leaves nothing behind.
    let forged = work.path().join("forged.zip");
    rewrite_archive(&archive, &forged, |name, bytes| {
        if name.starts_with("files/purchase_documents/") {
            bytes.extend_from_slice(b"tampered");
        }
    });
    let err = cli_fails(&["restore", forged.to_str().unwrap()], &other);
    assert!(err.contains("signature"), "{err}");
    only_the_key_is_left(&other);
    // Another installation's key does not restore it either.
    let stranger = work.path().join("stranger");
    std::fs::create_dir_all(&stranger).unwrap();
    let fresh = tempfile::tempdir().unwrap();
    cli(&["keys", "list"], fresh.path());
    std::fs::copy(fresh.path().join("audit.key"), stranger.join("audit.key")).unwrap();
    let err = cli_fails(&["restore", archive.to_str().unwrap()], &stranger);
    assert!(err.contains("not in the key file"), "{err}");
    only_the_key_is_left(&stranger);
}

/// Copies the audit key of `s` into `dir` (created), as an admin restoring a backup does.
fn with_key(s: &common::TestServer, dir: &std::path::Path) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::copy(s.dir.path().join("audit.key"), dir.join("audit.key")).unwrap();
}

/// `dir` holds the key file and nothing else (a refused restore left nothing behind), and
/// no staging directory stayed beside it.
fn only_the_key_is_left(dir: &std::path::Path) {
    let names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["audit.key"]);
    let parent = dir.parent().unwrap();
    assert!(std::fs::read_dir(parent).unwrap().all(|e| !e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .starts_with(".kontor-restore")));
}

/// Copies the archive `from` to `to` with `edit` applied to each entry's bytes, and the
/// manifest's hashes recomputed for the edited entries (its signature kept), as someone
/// without the audit key would forge a backup.
fn rewrite_archive(
    from: &std::path::Path,
    to: &std::path::Path,
    edit: impl Fn(&str, &mut Vec<u8>),
) {
    use sha2::Digest;
    let mut zip = zip::ZipArchive::new(std::fs::File::open(from).unwrap()).unwrap();
    let mut entries = Vec::new();
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).unwrap();
        let name = entry.name().to_string();
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).unwrap();
        edit(&name, &mut bytes);
        entries.push((name, bytes));
    }
    let hashes: Vec<(String, String)> = entries
        .iter()
        .map(|(n, b)| (n.clone(), hex::encode(sha2::Sha256::digest(b))))
        .collect();
    for (name, bytes) in entries.iter_mut() {
        if name == "manifest.json" {
            let mut manifest: serde_json::Value = serde_json::from_slice(bytes).unwrap();
            for (n, h) in &hashes {
                if manifest["entries"].get(n).is_some() {
                    manifest["entries"][n] = serde_json::Value::String(h.clone());
                }
            }
            *bytes = serde_json::to_vec_pretty(&manifest).unwrap();
        }
    }
    let mut out = zip::ZipWriter::new(std::fs::File::create(to).unwrap());
    for (name, bytes) in entries {
        out.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        out.write_all(&bytes).unwrap();
    }
    out.finish().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_backup_under_writes_restores_whole() {
    if common::postgres::sqlite_only("backup copies a SQLite database (PostgreSQL: pg_dump)") {
        return;
    }
    let s = Arc::new(common::start().await);
    let customer = s.customer("ACME GmbH").await;
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (s, stop) = (s.clone(), stop.clone());
        tokio::spawn(async move {
            let mut n = 0;
            while !stop.load(Ordering::Relaxed) {
                n += 1;
                purchase_with_document(&s, n).await;
                let r = s.invoice(customer, json!({})).await;
                assert_eq!(r.status, 200, "{}", r.body);
            }
            n
        })
    };
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let work = tempfile::tempdir().unwrap();
    let archive = work.path().join("under-load.zip");
    let data = s.dir.path().to_path_buf();
    let archive_arg = archive.clone();
    tokio::task::spawn_blocking(move || cli(&["backup", archive_arg.to_str().unwrap()], &data))
        .await
        .unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    stop.store(true, Ordering::Relaxed);
    let written = writer.await.unwrap();
    assert!(written >= 2, "the writer wrote {written} rounds");

    let restored = work.path().join("restored");
    with_key(&s, &restored);
    cli(&["restore", archive.to_str().unwrap()], &restored);
    // The restored data serves: every purchase's document is there and equals the
    // original's.
    let config = common::test_config(&restored);
    let served = common::serve_existing(&config, &s.key, "the restored data has its keys").await;
    let list = served.get("/purchases?per_page=100").await.body;
    let client = reqwest::Client::new();
    let purchases = list.as_array().unwrap();
    assert!(!purchases.is_empty());
    assert!(
        purchases.len() <= written,
        "{} > {written}",
        purchases.len()
    );
    for p in purchases {
        let url = p["file_url"].as_str().expect("file_url");
        let bytes = client.get(url).send().await.unwrap().bytes().await.unwrap();
        let n = p["id"].as_i64().unwrap();
        let original = s.get(&format!("/purchases/{n}")).await.body;
        let from_original = client
            .get(original["file_url"].as_str().unwrap())
            .send()
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap();
        assert!(bytes.starts_with(b"%PDF"), "purchase {n}");
        assert_eq!(bytes, from_original, "purchase {n}");
    }
}
