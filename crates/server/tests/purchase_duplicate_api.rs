//! The duplicate rule of purchases and stored receipt names (issue 11 § Polish) on a real
//! server: the same supplier and receipt number (without case and outer spaces) is a 409
//! naming the existing purchase unless the body says `allow_duplicate: true` — on POST, on
//! PUT (a purchase never repeats itself) and for the e-invoice import, which follows the
//! same rule; a refused save writes nothing. Documents keep their cleaned upload name as
//! `file_name`.

mod common;

use base64::Engine;
use common::{start, TestServer};
use serde_json::{json, Value};
use std::path::PathBuf;

async fn supplier(s: &TestServer, name: &str) -> i64 {
    let r = s
        .post("/companies", json!({"name": name, "type": "supplier"}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["id"].as_i64().unwrap()
}

fn body(company: Option<i64>, receipt: &str) -> Value {
    json!({
        "company_id": company,
        "receipt_identifier": receipt,
        "date": "2026-11-10",
        "currency": "EUR",
        "payment_method": "bank_transfer",
        "items": [{"title": "Printer paper", "total": 119, "tax": 19, "tax_included": true}]
    })
}

async fn count(s: &TestServer) -> usize {
    s.get("/purchases").await.body.as_array().unwrap().len()
}

fn sample(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/einvoice/samples")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// POST /purchases/import of the shared UBL sample `01.01a-INVOICE_ubl.xml`.
async fn import_sample(s: &TestServer) -> common::Reply {
    s.upload(
        reqwest::Method::POST,
        "/purchases/import",
        "invoice.xml",
        &sample("01.01a-INVOICE_ubl.xml"),
    )
    .await
}

#[tokio::test]
async fn same_supplier_and_receipt_number_is_a_409_naming_the_existing_purchase() {
    let s = start().await;
    let paper = supplier(&s, "Papier & Co. KG").await;
    let first = s.post("/purchases", body(Some(paper), "RE-2026-17")).await;
    assert_eq!(first.status, 200, "{}", first.body);
    let number = first.body["identifier"].as_str().unwrap().to_string();

    // Again, also with other case and spaces: 409, nothing written.
    for receipt in ["RE-2026-17", "  re-2026-17 "] {
        let r = s.post("/purchases", body(Some(paper), receipt)).await;
        assert_eq!(r.status, 409, "{receipt}: {}", r.body);
        assert_eq!(r.body["id"], first.body["id"]);
        assert_eq!(r.body["identifier"], number.as_str());
        assert_eq!(
            r.body["message"],
            format!("A purchase with this receipt number from this supplier exists ({number}).")
        );
        let field = r.body["errors"]["receipt_identifier"][0].as_str().unwrap();
        assert!(field.contains(&number), "{field}");
    }
    assert_eq!(count(&s).await, 1, "a refused save writes nothing");

    // `allow_duplicate: false` is the default; `true` saves.
    let mut again = body(Some(paper), "RE-2026-17");
    again["allow_duplicate"] = json!(false);
    assert_eq!(s.post("/purchases", again.clone()).await.status, 409);
    again["allow_duplicate"] = json!(true);
    let r = s.post("/purchases", again).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_ne!(r.body["id"], first.body["id"]);
    assert_eq!(count(&s).await, 2);
}

#[tokio::test]
async fn other_suppliers_no_supplier_and_blank_numbers_are_no_duplicates() {
    let s = start().await;
    let paper = supplier(&s, "Papier & Co. KG").await;
    let rail = supplier(&s, "Bahn AG").await;
    for (company, receipt) in [
        (Some(paper), "RE-1"),
        (Some(rail), "RE-1"),
        (None, "RE-1"),
        (None, "RE-1"),
        (Some(paper), ""),
        (Some(paper), ""),
        (Some(paper), "RE-2"),
    ] {
        let r = s.post("/purchases", body(company, receipt)).await;
        assert_eq!(r.status, 200, "{company:?} {receipt}: {}", r.body);
    }
    assert_eq!(count(&s).await, 7);
}

#[tokio::test]
async fn put_refuses_to_become_a_duplicate_but_may_keep_its_own_number() {
    let s = start().await;
    let paper = supplier(&s, "Papier & Co. KG").await;
    let a = s.post("/purchases", body(Some(paper), "RE-1")).await.body;
    let b = s.post("/purchases", body(Some(paper), "RE-2")).await.body;
    let b_path = format!("/purchases/{}", b["id"]);

    // Saving B unchanged (its own number) is fine.
    let r = s.put(&b_path, body(Some(paper), "RE-2")).await;
    assert_eq!(r.status, 200, "{}", r.body);

    // B taking A's number: 409 naming A, B unchanged.
    let r = s.put(&b_path, body(Some(paper), "re-1")).await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.body["id"], a["id"]);
    assert_eq!(r.body["identifier"], a["identifier"]);
    assert_eq!(s.get(&b_path).await.body["receipt_identifier"], "RE-2");
    assert_eq!(
        r.body["errors"]["receipt_identifier"],
        json!([format!(
            "is already on purchase {} of this supplier",
            a["identifier"].as_str().unwrap()
        )])
    );

    // The same refusal asked in German: the field's message in German (the app shows the
    // server's texts as they come), the body's `id` and `identifier` kept.
    let de = common::requests::send(
        s.keyed(reqwest::Method::PUT, &b_path)
            .header("Accept-Language", "de")
            .json(&body(Some(paper), "re-1")),
    )
    .await;
    assert_eq!(de.status, 409, "{}", de.body);
    assert_eq!(
        de.body["errors"]["receipt_identifier"],
        json!([format!(
            "steht bereits auf der Eingangsrechnung {} dieses Lieferanten",
            a["identifier"].as_str().unwrap()
        )])
    );
    assert_eq!(de.body["id"], a["id"]);
    assert_eq!(de.body["identifier"], a["identifier"]);
    assert_eq!(
        de.body["error_codes"]["receipt_identifier"][0]["code"],
        "is_already_on_purchase_n_of_this"
    );

    // Allowed explicitly.
    let mut allowed = body(Some(paper), "RE-1");
    allowed["allow_duplicate"] = json!(true);
    let r = s.put(&b_path, allowed).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["receipt_identifier"], "RE-1");
}

#[tokio::test]
async fn the_import_and_hand_entry_follow_one_rule() {
    let s = start().await;
    // The sample's seller becomes a new supplier; its BT-1 is the receipt number.
    let imported = import_sample(&s).await;
    assert_eq!(imported.status, 201, "{}", imported.body);
    let company = imported.body["company"]["id"].as_i64().unwrap();
    let receipt = imported.body["receipt_identifier"].as_str().unwrap();
    assert_eq!(receipt, "123456XX");

    // Typing the same receipt by hand (other case) is the same duplicate.
    let r = s.post("/purchases", body(Some(company), "123456xx")).await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.body["id"], imported.body["id"]);
    assert_eq!(r.body["identifier"], imported.body["identifier"]);

    // With the imported one gone, a hand-entered purchase makes the import the duplicate.
    let path = format!("/purchases/{}", imported.body["id"]);
    assert_eq!(s.delete(&path, None).await.status, 204);
    let hand = s
        .post("/purchases", body(Some(company), " 123456xx "))
        .await;
    assert_eq!(hand.status, 200, "{}", hand.body);
    let again = import_sample(&s).await;
    assert_eq!(again.status, 409, "{}", again.body);
    assert_eq!(again.body["id"], hand.body["id"]);
    assert_eq!(again.body["identifier"], hand.body["identifier"]);
    assert!(again.body["errors"]["file"].is_array(), "{}", again.body);
    assert_eq!(count(&s).await, 1);
}

#[tokio::test]
async fn stored_receipts_keep_their_cleaned_file_name() {
    let s = start().await;
    let b64 = |t: &str| base64::engine::general_purpose::STANDARD.encode(t);

    // Without a document: no name.
    let r = s.post("/purchases", body(None, "RE-1")).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["file_name"], Value::Null);
    let id = r.body["id"].as_i64().unwrap();

    // JSON upload: folders are cut off.
    let mut with_file = body(None, "RE-2");
    with_file["file"] =
        json!({"filename": "C:\\Scans\\receipt.pdf", "base64": b64("%PDF-1.4\n%%EOF")});
    let r = s.post("/purchases", with_file).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["file_name"], "receipt.pdf");
    assert_eq!(r.body["file_content_type"], "application/pdf");
    let list = s.get("/purchases").await.body;
    let listed = list
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == r.body["id"])
        .unwrap();
    assert_eq!(listed["file_name"], "receipt.pdf", "the list says it too");

    // Multipart store_document: the part's file name.
    let r = s
        .upload(
            reqwest::Method::PATCH,
            &format!("/purchases/{id}/store_document"),
            "../../Beleg März.png",
            b"\x89PNG\r\n\x1a\n0000",
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["file_name"], "Beleg März.png");

    // The download is named so too.
    let url = r.body["file_url"].as_str().unwrap().to_string();
    let resp = reqwest::get(&url).await.unwrap();
    let disposition = resp
        .headers()
        .get("content-disposition")
        .map(|v| v.to_str().unwrap_or("").to_string())
        .unwrap_or_default();
    assert!(disposition.contains("Beleg"), "{disposition}");
}

/// Migration 0015 names documents stored without a name `receipt.<ext>` and leaves named
/// ones alone (its SQL is run again over rows written as before the migration).
#[tokio::test]
async fn migration_0015_names_documents_stored_without_a_name() {
    if common::postgres::sqlite_only("it replays SQLite migration 0015") {
        return;
    }
    let s = start().await;
    let b64 = |t: &str| base64::engine::general_purpose::STANDARD.encode(t);
    let mut named = body(None, "RE-1");
    named["file"] = json!({"filename": "scan.pdf", "base64": b64("%PDF-1.4\n%%EOF")});
    let named = s.post("/purchases", named).await.body;
    let mut unnamed = body(None, "RE-2");
    unnamed["file"] = json!({"filename": "x.png", "base64": base64::engine::general_purpose::STANDARD.encode(b"\x89PNG\r\n\x1a\n0000")});
    let unnamed = s.post("/purchases", unnamed).await.body;
    let bare = s.post("/purchases", body(None, "RE-3")).await.body;

    let pool = s.db().await;
    kontor_server::sql::query("UPDATE purchases SET document_name = NULL WHERE id = $1")
        .bind(unnamed["id"].as_i64())
        .execute(&pool)
        .await
        .unwrap();
    let migration = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("migrations/sqlite/0015_purchase_file_name.sql"),
    )
    .unwrap();
    sqlx::raw_sql(&migration)
        .execute(pool.as_sqlite().unwrap())
        .await
        .unwrap();

    let s = &s;
    let name = |id: &Value| {
        let path = format!("/purchases/{id}");
        async move { s.get(&path).await.body["file_name"].clone() }
    };
    assert_eq!(name(&named["id"]).await, "scan.pdf");
    assert_eq!(name(&unnamed["id"]).await, "receipt.png");
    assert_eq!(name(&bare["id"]).await, Value::Null, "no document, no name");
}
