//! Issue 16 § 3 and § 5: stored files in a real S3-compatible server (moto, see
//! `common::s3`). The real `kontor-server serve --files s3://bucket/prefix` process, with
//! endpoint and credentials from its environment, keeps purchase documents, offer
//! attachments and the logo in the bucket (nothing under `<data>/files`), serves them by
//! signed link, deletes replaced ones, and refuses to start when the bucket cannot be
//! written; a failed upload leaves no record pointing at a missing object; a backup taken
//! from the bucket restores into another prefix.

mod common;

use base64::Engine;
use common::process::{self, ServerProcess};
use common::s3::Moto;
use common::PNG;
use serde_json::{json, Value};

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn purchase_body(document: &str) -> Value {
    json!({
        "date": "2026-11-10", "currency": "EUR", "payment_method": "bank_transfer",
        "items": [{"title": "Printer paper", "total": 119, "tax": 19, "tax_included": true}],
        "file": {"filename": "receipt.pdf", "base64": b64(document.as_bytes())}
    })
}

async fn fetch(url: &Value) -> (u16, Vec<u8>) {
    let r = reqwest::get(url.as_str().expect("a file_url"))
        .await
        .unwrap();
    (r.status().as_u16(), r.bytes().await.unwrap().to_vec())
}

async fn serve_on_bucket(moto: &Moto, location: &str) -> ServerProcess {
    process::start(&["--files", location], &moto.env())
}

#[tokio::test(flavor = "multi_thread")]
async fn documents_attachments_and_the_logo_live_in_the_bucket() {
    let moto = Moto::start();
    moto.create_bucket("kontor").await;
    let p = serve_on_bucket(&moto, "s3://kontor/firm-a").await;
    let s = &p.server;

    // A purchase document: stored under the prefix, served by its signed link.
    let r = s
        .post("/purchases", purchase_body("%PDF-1.4\n% first\n%%EOF"))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    let keys = moto.keys("kontor", "firm-a/purchase_documents").await;
    assert_eq!(keys.len(), 1, "{keys:?}");
    assert_eq!(
        moto.object("kontor", &keys[0]).await,
        b"%PDF-1.4\n% first\n%%EOF"
    );
    assert_eq!(
        fetch(&r.body["file_url"]).await,
        (200, b"%PDF-1.4\n% first\n%%EOF".to_vec())
    );

    // The store refuses to overwrite an object (what `PutMode::Create` relies on).
    {
        use object_store::{ObjectStore, PutMode, PutOptions};
        let again = moto
            .bucket("kontor")
            .put_opts(
                &object_store::path::Path::from(keys[0].as_str()),
                b"overwritten".to_vec().into(),
                PutOptions::from(PutMode::Create),
            )
            .await;
        assert!(
            matches!(again, Err(object_store::Error::AlreadyExists { .. })),
            "{again:?}"
        );
    }

    // Replacing it stores a new object and deletes the old one.
    let mut body = purchase_body("%PDF-1.4\n% second\n%%EOF");
    body["file"]["filename"] = json!("second.pdf");
    let r = s.put(&format!("/purchases/{id}"), body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let now = moto.keys("kontor", "firm-a/purchase_documents").await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_ne!(now, keys, "a new object, the old one deleted");
    assert_eq!(
        fetch(&r.body["file_url"]).await.1,
        b"%PDF-1.4\n% second\n%%EOF"
    );

    // An offer attachment: created, listed, downloaded and deleted in the bucket.
    let company = s.customer("Kranzler KG").await;
    let offer = s
        .post(
            "/offers",
            json!({"company_id": company, "recipient_address": "Kranzler KG\nMain St 1",
                "date": "2026-11-05", "due_date": "2026-12-05", "title": "Relaunch", "tax": 19,
                "items": [{"type": "item", "title": "Design", "quantity": 1, "unit": "h", "unit_price": 100}]}),
        )
        .await;
    assert_eq!(offer.status, 200, "{}", offer.body);
    let path = format!("/offers/{}/attachments", offer.body["id"]);
    let a = s
        .post(
            &path,
            json!({"attachment": {"filename": "plan.pdf", "base64": b64(b"%PDF-1.4\n% plan\n%%EOF")}}),
        )
        .await;
    assert!(a.status.is_success(), "{}", a.body);
    let attachments = moto.keys("kontor", "firm-a/offer_attachments").await;
    assert_eq!(attachments.len(), 1);
    assert_eq!(
        fetch(&a.body["file_url"]).await,
        (200, b"%PDF-1.4\n% plan\n%%EOF".to_vec())
    );
    let r = s.delete(&format!("{path}/{}", a.body["id"]), None).await;
    assert_eq!(r.status, 204);
    assert!(moto
        .keys("kontor", "firm-a/offer_attachments")
        .await
        .is_empty());

    // The logo, in the PDF as well (the document renders with it).
    let r = s
        .upload(reqwest::Method::PUT, "/account/logo", "logo.png", PNG)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(moto.keys("kontor", "firm-a/account_logo").await.len(), 1);
    assert_eq!(
        fetch(&r.body["logo"]["file_url"]).await,
        (200, PNG.to_vec())
    );
    assert_eq!(s.delete("/account/logo", None).await.status, 204);
    assert!(moto.keys("kontor", "firm-a/account_logo").await.is_empty());

    // Nothing went to the local directory, and nothing outside the prefix.
    let local = s.data_path().join("files");
    let local_files = std::fs::read_dir(&local).map(|d| d.count()).unwrap_or(0);
    assert_eq!(local_files, 0, "no local files in {}", local.display());
    let all = moto.keys("kontor", "").await;
    assert!(all.iter().all(|k| k.starts_with("firm-a/")), "{all:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bucket_that_cannot_be_written_stops_the_start() {
    let moto = Moto::start();
    let dir = tempfile::tempdir().unwrap();
    let out = process::command(
        dir.path(),
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--files",
            "s3://no-such-bucket/x",
        ],
        &moto.env(),
    )
    .output()
    .unwrap();
    assert!(!out.status.success(), "the server must not start");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot write to the bucket s3://no-such-bucket/x"),
        "{stderr}"
    );
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains("Kontor is running"),
        "no half-started server"
    );

    // Not a supported location at all.
    let out = process::command(dir.path(), &["serve", "--files", "ftp://x/y"], &[])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("s3://bucket/prefix"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failed_upload_leaves_no_record() {
    let moto = Moto::start();
    moto.create_bucket("kontor").await;
    let p = serve_on_bucket(&moto, "s3://kontor/firm-b").await;
    let s = &p.server;
    let before = s.get("/purchases").await.body.as_array().unwrap().len();
    drop(moto); // the store goes away

    let r = s
        .post("/purchases", purchase_body("%PDF-1.4\n% lost\n%%EOF"))
        .await;
    assert!(r.status.is_server_error(), "{} {}", r.status, r.body);
    assert_eq!(
        r.body["message"], "Internal error.",
        "no store details leak"
    );
    assert_eq!(
        s.get("/purchases").await.body.as_array().unwrap().len(),
        before,
        "no purchase points at a missing document"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_backup_from_the_bucket_restores_into_another_prefix() {
    let moto = Moto::start();
    moto.create_bucket("kontor").await;
    let p = serve_on_bucket(&moto, "s3://kontor/old").await;
    let r = p
        .server
        .post("/purchases", purchase_body("%PDF-1.4\n% kept\n%%EOF"))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let archive = p.server.data_path().join("backup.zip");
    let archive_path = archive.to_str().unwrap();
    let env = moto.env();
    let old_prefix = ["--files", "s3://kontor/old", "backup", archive_path];
    process::run_ok(&p.server.data_path(), &old_prefix, &env);

    let target = tempfile::tempdir().unwrap();
    let data = target.path().join("data");
    // The installation's audit key goes along (it signs the backup, issue 29).
    std::fs::create_dir_all(&data).unwrap();
    std::fs::copy(
        p.server.data_path().join("audit.key"),
        data.join("audit.key"),
    )
    .unwrap();
    let new_prefix = ["--files", "s3://kontor/new", "restore", archive_path];
    process::run_ok(&data, &new_prefix, &env);
    let old = moto.keys("kontor", "old/purchase_documents").await;
    let new = moto.keys("kontor", "new/purchase_documents").await;
    assert_eq!(new.len(), 1);
    assert_eq!(
        old[0].rsplit('/').next(),
        new[0].rsplit('/').next(),
        "the same key under the new prefix"
    );
    assert_eq!(
        moto.object("kontor", &new[0]).await,
        b"%PDF-1.4\n% kept\n%%EOF"
    );
    assert!(
        !data.join("files/purchase_documents").exists(),
        "the files went to the bucket, not the directory"
    );
}
