//! Issue 8 over real HTTP: one request edits and finalizes a draft, purchase categories
//! carry timestamps, a missing field is named, the delete-vs-payment race is a 422, empty
//! uploads are refused, stored file names are cleaned, file responses say `nosniff`, slow
//! headers are cut off, and a corrupt file-link secret stops the start.

mod common;

use base64::Engine;
use common::{invoice_body, start, start_with_header_timeout};
use reqwest::Method;
use serde_json::json;
use std::io::{Read, Write};
use std::time::{Duration, Instant};

fn pdf_b64() -> String {
    base64::engine::general_purpose::STANDARD.encode(b"%PDF-1.4\n% test\n%%EOF\n")
}

fn purchase_body() -> serde_json::Value {
    json!({
        "date": "2026-11-10",
        "currency": "EUR",
        "payment_method": "bank_transfer",
        "items": [{"title": "Paper", "total": 119, "tax": 19, "tax_included": true}]
    })
}

#[tokio::test]
async fn put_with_status_created_edits_and_finalizes_in_one_request() {
    let s = start().await;
    let customer = s.customer("ACME GmbH").await;
    let draft = s
        .post(
            "/invoices",
            json!({"customer_id": customer, "status": "draft", "title": "Draft A"}),
        )
        .await;
    assert_eq!(draft.status, 200, "{}", draft.body);
    let id = draft.body["id"].as_i64().unwrap();
    assert!(draft.body["identifier"].is_null());

    let mut body = invoice_body(customer);
    body["title"] = json!("Final title");
    body["status"] = json!("created");
    let r = s.put(&format!("/invoices/{id}"), body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["status"], "created");
    assert_eq!(r.body["identifier"], "R2611-001");
    assert_eq!(r.body["title"], "Final title");
    assert_eq!(common::num(&r.body["gross_total"]), "297.50");
    assert_eq!(r.body["items"].as_array().unwrap().len(), 4);
    // Final now: a second edit is refused.
    let again = s
        .put(&format!("/invoices/{id}"), invoice_body(customer))
        .await;
    assert_eq!(again.status, 422, "{}", again.body);
}

#[tokio::test]
async fn a_failing_finalize_leaves_the_draft_unchanged_and_draws_no_number() {
    let s = start().await;
    let customer = s.customer("ACME GmbH").await;
    let id = s
        .create(
            "/invoices",
            json!({"customer_id": customer, "status": "draft", "title": "Draft A"}),
        )
        .await;
    // Incomplete for a final invoice: no item positions.
    let r = s
        .put(
            &format!("/invoices/{id}"),
            json!({"customer_id": customer, "status": "created", "title": "Changed", "items": []}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body["errors"].as_object().unwrap().contains_key("items"),
        "{}",
        r.body
    );
    let now = s.get(&format!("/invoices/{id}")).await.body;
    assert_eq!(
        (
            now["status"].as_str(),
            now["title"].as_str(),
            now["identifier"].is_null()
        ),
        (Some("draft"), Some("Draft A"), true)
    );
    // The failed attempt consumed no number: the first final invoice is still 001.
    let mut body = invoice_body(customer);
    body["status"] = json!("created");
    let r = s.put(&format!("/invoices/{id}"), body).await;
    assert_eq!(r.body["identifier"], "R2611-001", "{}", r.body);
}

#[tokio::test]
async fn purchase_categories_carry_timestamps() {
    let s = start().await;
    let r = s
        .post("/purchases/categories", json!({"name": "Office"}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let created = r.body["created_at"].as_str().unwrap().to_string();
    assert_eq!(created.len(), 20, "{created}");
    assert!(created.ends_with('Z'));
    assert_eq!(r.body["updated_at"].as_str(), Some(created.as_str()));
    let id = r.body["id"].as_i64().unwrap();
    let one = s.get(&format!("/purchases/categories/{id}")).await;
    assert_eq!(one.body["created_at"].as_str(), Some(created.as_str()));
    let list = s.get("/purchases/categories").await;
    assert_eq!(list.body[0]["created_at"].as_str(), Some(created.as_str()));
    // Categories inside a purchase carry them too.
    let mut body = purchase_body();
    body["category_id"] = json!(id);
    let p = s.post("/purchases", body).await;
    assert_eq!(p.status, 200, "{}", p.body);
    assert_eq!(
        p.body["items"][0]["category"]["updated_at"].as_str(),
        Some(created.as_str())
    );
}

#[tokio::test]
async fn a_missing_required_field_is_named() {
    let s = start().await;
    let id = s.create("/purchases", purchase_body()).await;
    let r = s
        .send(
            Method::PATCH,
            &format!("/purchases/{id}/update_status"),
            Some(json!({})),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.body["errors"]["status"][0], "is required", "{}", r.body);
    assert!(r.body["errors"].get("body").is_none());
    // The same for the invoice status body.
    let customer = s.customer("ACME").await;
    let inv = s.invoice(customer, json!({})).await.body["id"]
        .as_i64()
        .unwrap();
    let r = s
        .put(&format!("/invoices/{inv}/update_status"), json!({}))
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["errors"]["status"].is_array(), "{}", r.body);
}

#[tokio::test]
async fn delete_and_payment_of_a_purchase_never_answer_500() {
    let s = start().await;
    // Deterministic paths: a payment exists → delete 422; purchase gone → payment 422.
    let id = s.create("/purchases", purchase_body()).await;
    let pay = json!({"purchase_id": id, "date": "2026-11-11", "total": 10});
    assert_eq!(s.post("/purchases/payments", pay.clone()).await.status, 200);
    let r = s.delete(&format!("/purchases/{id}"), None).await;
    assert_eq!(r.status, 422, "{}", r.body);
    let gone = s.create("/purchases", purchase_body()).await;
    assert_eq!(
        s.delete(&format!("/purchases/{gone}"), None).await.status,
        204
    );
    let r = s
        .post(
            "/purchases/payments",
            json!({"purchase_id": gone, "date": "2026-11-11", "total": 10}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["errors"]["purchase_id"].is_array(), "{}", r.body);

    // The race itself: delete and pay the same purchase at once, 12 times.
    for _ in 0..12 {
        let id = s.create("/purchases", purchase_body()).await;
        let path = format!("/purchases/{id}");
        let pay = json!({"purchase_id": id, "date": "2026-11-11", "total": 10});
        let (d, p) = tokio::join!(s.delete(&path, None), s.post("/purchases/payments", pay));
        for r in [&d, &p] {
            assert!(
                [200, 204, 422].contains(&r.status.as_u16()),
                "{} {}",
                r.status,
                r.body
            );
        }
        // Exactly one of the two wins.
        assert!(
            (d.status == 204) != (p.status == 200),
            "{} {}",
            d.status,
            p.status
        );
    }
}

#[tokio::test]
async fn an_empty_file_on_a_purchase_is_refused() {
    let s = start().await;
    let mut body = purchase_body();
    body["file"] = json!({"filename": "receipt.pdf", "base64": ""});
    let r = s.post("/purchases", body).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["errors"]["file.base64"].is_array(), "{}", r.body);
    let list = s.get("/purchases").await;
    assert_eq!(list.body.as_array().map(Vec::len), Some(0));
}

#[tokio::test]
async fn stored_file_names_are_cleaned() {
    let s = start().await;
    let company = s.customer("ACME GmbH").await;
    let offer = s
        .post(
            "/offers",
            json!({"company_id": company, "title": "Offer", "date": "2026-11-05",
                   "due_date": "2026-12-05", "recipient_address": "ACME GmbH\nMain St 1",
                   "tax": 19,
                   "items": [{"type": "item", "title": "Design", "quantity": 1, "unit_price": 100}]}),
        )
        .await;
    assert_eq!(offer.status, 200, "{}", offer.body);
    let id = offer.body["id"].as_i64().unwrap();
    let r = s
        .post(
            &format!("/offers/{id}/attachments"),
            json!({"attachment": {"filename": "\u{202e}fdp.exe\r\nX-Evil: 1\u{0}", "base64": pdf_b64()}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["filename"], "fdp.exeX-Evil: 1");
    let listed = s.get(&format!("/offers/{id}/attachments")).await;
    assert_eq!(listed.body[0]["filename"], "fdp.exeX-Evil: 1");
}

#[tokio::test]
async fn file_responses_say_nosniff() {
    let s = start().await;
    let customer = s.customer("ACME GmbH").await;
    let invoice = s.invoice(customer, json!({})).await.body;
    let id = invoice["id"].as_i64().unwrap();
    let pdf = s.get(&format!("/invoices/{id}.pdf")).await;
    assert_eq!(pdf.status, 200);
    assert_eq!(pdf.header("content-type"), "application/pdf");
    assert_eq!(pdf.header("x-content-type-options"), "nosniff");
    let link = invoice["file_url"].as_str().unwrap();
    let fetched = reqwest::get(link).await.unwrap();
    assert_eq!(fetched.status(), 200);
    assert_eq!(fetched.headers()["x-content-type-options"], "nosniff");
    // A purchase document through its signed link.
    let mut body = purchase_body();
    body["file"] = json!({"filename": "r.pdf", "base64": pdf_b64()});
    let p = s.post("/purchases", body).await.body;
    let fetched = reqwest::get(p["file_url"].as_str().unwrap()).await.unwrap();
    assert_eq!(fetched.status(), 200);
    assert_eq!(fetched.headers()["x-content-type-options"], "nosniff");
    assert_eq!(fetched.headers()["content-type"], "application/pdf");
}

#[tokio::test]
async fn a_connection_that_never_finishes_its_headers_is_closed() {
    let timeout = Duration::from_millis(800);
    let s = start_with_header_timeout(timeout).await;
    let addr = s.base.trim_start_matches("http://").to_string();
    let (closed, elapsed) = tokio::task::spawn_blocking(move || {
        let mut socket = std::net::TcpStream::connect(&addr).unwrap();
        socket
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        socket
            .write_all(b"GET /api/v1/session HTTP/1.1\r\nHost: x\r\n")
            .unwrap();
        let started = Instant::now();
        let mut buf = [0u8; 1024];
        // Whatever the server sends (nothing, or a 408), it must close the connection;
        // a read timing out (WouldBlock/TimedOut) means it stayed open.
        let closed = loop {
            match socket.read(&mut buf) {
                Ok(0) => break true,
                Ok(_) => continue,
                Err(e) => {
                    break !matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    )
                }
            }
        };
        (closed, started.elapsed())
    })
    .await
    .unwrap();
    assert!(closed, "the connection was still open after {elapsed:?}");
    assert!(
        elapsed >= timeout - Duration::from_millis(100) && elapsed < Duration::from_secs(3),
        "closed after {elapsed:?}"
    );
    // A complete request on a fresh connection is still served.
    assert_eq!(s.get("/session").await.status, 200);
}

#[tokio::test]
async fn a_corrupt_file_link_secret_stops_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let pool = kontor_server::store::db::open(dir.path()).await.unwrap();
    kontor_server::sql::query(
        "INSERT INTO settings (key, value) VALUES ('file_link_secret', 'not hex at all')",
    )
    .execute(&pool)
    .await
    .unwrap();
    let config = common::test_config(dir.path());
    let err = match kontor_server::state(pool.clone(), &config).await {
        Ok(_) => panic!("started with a corrupt secret"),
        Err(e) => e,
    };
    assert!(
        err.contains("file-link secret") && err.contains("corrupt"),
        "{err}"
    );
    // `bind` (what `serve` runs) refuses too.
    assert!(kontor_server::bind(&config).await.is_err());
}

#[tokio::test]
async fn corrupt_stored_amounts_times_and_statuses_are_errors_not_defaults() {
    if common::postgres::sqlite_only(
        "PostgreSQL's NUMERIC and TIMESTAMPTZ columns cannot hold the corrupt text it stores",
    ) {
        return;
    }
    let s = start().await;
    let customer = s.customer("ACME GmbH").await;
    let pool = s.db().await;
    for (column, value) in [
        ("net_total", "12,5"),
        ("gross_total", ""),
        ("created_at", "yesterday"),
        ("status", "paid_twice"),
    ] {
        let id = s.invoice(customer, json!({})).await.body["id"]
            .as_i64()
            .unwrap();
        assert_eq!(s.get(&format!("/invoices/{id}")).await.status, 200);
        kontor_server::sql::query(&format!("UPDATE invoices SET {column} = $1 WHERE id = $2"))
            .bind(value)
            .bind(id)
            .execute(&pool)
            .await
            .unwrap();
        let r = s.get(&format!("/invoices/{id}")).await;
        assert_eq!(r.status, 500, "{column} = {value:?}: {}", r.body);
        assert_eq!(r.body["message"], "Internal error.");
        // The list fails too rather than showing 0, the epoch or another status.
        assert_eq!(s.get("/invoices").await.status, 500, "{column}");
        kontor_server::sql::query("DELETE FROM invoice_items WHERE invoice_id = $1")
            .bind(id)
            .execute(&pool)
            .await
            .unwrap();
        kontor_server::sql::query("DELETE FROM invoices WHERE id = $1")
            .bind(id)
            .execute(&pool)
            .await
            .unwrap();
    }
    // A corrupt purchase payment amount.
    let p = s.create("/purchases", purchase_body()).await;
    let pay = s
        .post(
            "/purchases/payments",
            json!({"purchase_id": p, "date": "2026-11-11", "total": 10}),
        )
        .await;
    let pay_id = pay.body["id"].as_i64().unwrap();
    kontor_server::sql::query("UPDATE purchase_payments SET total = 'ten' WHERE id = $1")
        .bind(pay_id)
        .execute(&pool)
        .await
        .unwrap();
    assert_eq!(
        s.get(&format!("/purchases/payments/{pay_id}")).await.status,
        500
    );
    assert_eq!(s.get(&format!("/purchases/{p}")).await.status, 500);
}
