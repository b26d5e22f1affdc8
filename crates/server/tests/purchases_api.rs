//! Purchases over real HTTP: totals of tax-included and net positions, numbering, every
//! list filter, status and delete rules, payments, and receipt documents judged by content.

mod common;

use base64::Engine;
use common::{num, start, TestServer};
use serde_json::{json, Value};

const PNG: &[u8] = &[
    0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, b'I', b'H', b'D', b'R',
];

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn body(overrides: Value) -> Value {
    let mut b = json!({
        "date": "2026-11-10",
        "currency": "EUR",
        "payment_method": "bank_transfer",
        "items": [
            {"title": "Printer paper", "total": 119, "tax": 19, "tax_included": true},
            {"title": "Toner", "total": 10.05, "tax": 19}
        ]
    });
    common::merge(&mut b, overrides);
    b
}

async fn purchase(s: &TestServer, overrides: Value) -> Value {
    let r = s.post("/purchases", body(overrides)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

#[tokio::test]
async fn creates_a_purchase_with_exact_totals_and_a_document() {
    let s = start().await;
    let supplier = s.create("/companies", json!({"name": "Papier & Co. KG", "type": "supplier", "iban": "DE89370400440532013000"})).await;
    let category = s
        .create(
            "/purchases/categories",
            json!({"name": "Office supplies", "credit_account": "4930"}),
        )
        .await;
    let pdf = "%PDF-1.4\n% receipt\n%%EOF";
    let p = purchase(&s, json!({"company_id": supplier, "category_id": category, "receipt_identifier": "RE-2026-77", "iban": "DE89 3704 0044 0532 0130 00", "tags": ["office"],
        "custom_property_values": {"cost_center": "4711"}, "file": {"filename": "receipt.pdf", "base64": b64(pdf.as_bytes())}})).await;
    assert_eq!(p["identifier"], "E2611-0001");
    assert_eq!(p["status"], "pending");
    assert_eq!(
        (
            num(&p["items"][0]["net_total"]),
            num(&p["items"][0]["tax_total"]),
            num(&p["items"][0]["gross_total"])
        ),
        ("100.00".into(), "19.00".into(), "119.00".into())
    );
    assert_eq!(
        (
            num(&p["items"][1]["net_total"]),
            num(&p["items"][1]["tax_total"]),
            num(&p["items"][1]["gross_total"])
        ),
        ("10.05".into(), "1.91".into(), "11.96".into())
    );
    assert_eq!(
        (num(&p["net_total"]), num(&p["gross_total"])),
        ("110.05".into(), "130.96".into())
    );
    assert_eq!(
        p["items"][0]["vat"],
        json!({"tax": 19, "reverse_charge": false, "intra_eu": false, "active": true})
    );
    assert_eq!(
        p["items"][0]["category"]["credit_account"], "4930",
        "the purchase's category is every position's default"
    );
    assert_eq!(p["company"]["name"], "Papier & Co. KG");
    assert_eq!(p["iban"], "DE89370400440532013000");
    assert_eq!(p["custom_properties"]["cost_center"], "4711");
    assert_eq!(p["title"], "Printer paper");
    let doc = reqwest::get(p["file_url"].as_str().unwrap()).await.unwrap();
    assert_eq!(doc.headers()["content-type"], "application/pdf");
    assert!(doc.bytes().await.unwrap().starts_with(b"%PDF-1.4"));

    let bare = purchase(&s, json!({})).await;
    assert_eq!(bare["identifier"], "E2611-0002");
    assert_eq!(
        bare["company"],
        Value::Null,
        "no supplier is null, never {{}}"
    );
    assert_eq!(bare["items"][0]["category"], Value::Null);
    assert_eq!(bare["file_url"], Value::Null);
}

#[tokio::test]
async fn refuses_bad_bodies_naming_the_field_and_writes_nothing() {
    let s = start().await;
    let r = s.post("/purchases", json!({"items": []})).await;
    assert_eq!(r.status, 422);
    for f in ["date", "currency", "payment_method", "items"] {
        assert!(r.body["errors"][f].is_array(), "{f}: {}", r.body);
    }
    let r = s
        .post(
            "/purchases",
            body(json!({"iban": "DE89 3704 0044 0532 0130 01"})),
        )
        .await;
    assert!(r.body["errors"]["iban"].is_array());
    let r = s
        .post("/purchases", body(json!({"payment_method": "barter"})))
        .await;
    assert!(r.body["errors"]["payment_method"].is_array(), "{}", r.body);
    let r = s
        .post(
            "/purchases",
            body(json!({"items": [{"title": "x", "tax": 19}]})),
        )
        .await;
    assert!(r.body["errors"]["items[0].total"].is_array());
    let r = s
        .post(
            "/purchases",
            body(json!({"file": {"filename": "notes.txt", "base64": b64(b"plain text")}})),
        )
        .await;
    assert!(r.body["errors"]["file.base64"].is_array(), "{}", r.body);
    let r = s
        .post(
            "/purchases",
            body(json!({"company_id": 999, "category_id": 998})),
        )
        .await;
    assert!(
        r.body["errors"]["company_id"].is_array() && r.body["errors"]["category_id"].is_array()
    );
    assert_eq!(s.get("/purchases").await.header("x-total"), "0");
    assert!(
        !s.data_path().join("files/purchase_documents").exists()
            || std::fs::read_dir(s.data_path().join("files/purchase_documents"))
                .unwrap()
                .count()
                == 0
    );
}

#[tokio::test]
async fn every_list_filter() {
    let s = start().await;
    let supplier = s
        .create(
            "/companies",
            json!({"name": "CloudHost GmbH", "type": "supplier"}),
        )
        .await;
    let travel = s
        .create("/purchases/categories", json!({"name": "Travel"}))
        .await;
    let a = purchase(&s, json!({"date": "2026-10-01", "company_id": supplier, "tags": ["hosting", "monthly"], "items": [{"title": "Server rent", "total": 49.90, "tax": 19}]})).await;
    let b = purchase(&s, json!({"date": "2026-11-03", "payment_method": "credit_card", "items": [{"title": "Train ticket", "total": 89, "tax": 7, "tax_included": true, "category_id": travel}]})).await;
    let c = purchase(&s, json!({"date": "2026-11-20", "status": "approved"})).await;
    s.post(
        "/purchases/payments",
        json!({"purchase_id": c["id"], "date": "2026-11-21", "total": 130.96}),
    )
    .await;

    let ids = |r: &common::Reply| {
        r.body
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_i64().unwrap())
            .collect::<Vec<_>>()
    };
    let (a, b, c) = (
        a["id"].as_i64().unwrap(),
        b["id"].as_i64().unwrap(),
        c["id"].as_i64().unwrap(),
    );
    assert_eq!(ids(&s.get("/purchases").await), [c, b, a]);
    assert_eq!(
        ids(&s.get(&format!("/purchases?category_id={travel}")).await),
        [b]
    );
    assert_eq!(ids(&s.get("/purchases?term=ticket").await), [b]);
    assert_eq!(
        ids(&s.get(&format!("/purchases?company_id={supplier}")).await),
        [a]
    );
    assert_eq!(ids(&s.get("/purchases?company_id=0").await), [c, b]);
    assert_eq!(ids(&s.get("/purchases?status=approved").await), [c]);
    assert_eq!(
        ids(&s.get("/purchases?status=pending,approved").await).len(),
        3
    );
    assert_eq!(ids(&s.get("/purchases?tags=hosting,monthly").await), [a]);
    assert_eq!(
        ids(&s.get("/purchases?date=2026-11-01:2026-11-30").await),
        [c, b]
    );
    assert_eq!(ids(&s.get("/purchases?date=:2026-10-31").await), [a]);
    assert_eq!(ids(&s.get("/purchases?date=2026-11-10:").await), [c]);
    assert_eq!(ids(&s.get("/purchases?unpaid=true").await), [b, a]);
    assert_eq!(
        ids(&s.get("/purchases?payment_method=credit_card").await),
        [b]
    );
    assert_eq!(s.get("/purchases?date=yesterday").await.status, 400);
    assert_eq!(s.get("/purchases?payment_method=gold").await.status, 400);
    let page = s.get("/purchases?per_page=2").await;
    assert_eq!(
        (page.header("x-total"), page.body.as_array().unwrap().len()),
        ("3", 2)
    );
}

#[tokio::test]
async fn status_and_delete_rules() {
    let s = start().await;
    let p = purchase(&s, json!({})).await;
    let id = p["id"].as_i64().unwrap();
    let path = format!("/purchases/{id}/update_status");
    let patch = |status: &'static str| {
        let path = path.clone();
        let s = &s;
        async move {
            common::reply(
                s.client
                    .patch(s.url(&path))
                    .header("Authorization", format!("Token token={}", s.key))
                    .json(&json!({"status": status}))
                    .send()
                    .await
                    .unwrap(),
            )
            .await
        }
    };
    assert_eq!(
        patch("archived").await.body["status"],
        "approved",
        "archived is another name for approved"
    );
    assert_eq!(
        s.delete(&format!("/purchases/{id}"), None).await.status,
        422,
        "approved cannot be deleted"
    );
    assert_eq!(patch("pending").await.body["status"], "pending");
    assert_eq!(patch("paid").await.status, 422);
    let pay = s
        .post(
            "/purchases/payments",
            json!({"purchase_id": id, "date": "2026-11-12", "total": 50}),
        )
        .await;
    assert_eq!(pay.status, 200, "{}", pay.body);
    assert_eq!(num(&pay.body["total"]), "50.00");
    assert_eq!(
        s.get(&format!("/purchases/{id}")).await.body["payments"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let r = s.delete(&format!("/purchases/{id}"), None).await;
    assert_eq!(r.status, 422, "payments block deletion");
    assert!(r.body["message"].as_str().unwrap().contains("payments"));
    assert_eq!(
        s.get(&format!("/purchases/{id}")).await.status,
        200,
        "nothing removed"
    );
    assert_eq!(
        s.delete(&format!("/purchases/payments/{}", pay.body["id"]), None)
            .await
            .status,
        204
    );
    assert_eq!(
        s.delete(&format!("/purchases/{id}"), None).await.status,
        204
    );
    assert_eq!(s.get(&format!("/purchases/{id}")).await.status, 404);
}

async fn store(s: &TestServer, id: i64, name: &str, bytes: &[u8]) -> common::Reply {
    let path = format!("/purchases/{id}/store_document");
    s.upload(reqwest::Method::PATCH, &path, name, bytes).await
}

#[tokio::test]
async fn store_document_replaces_atomically_and_judges_by_content() {
    let s = start().await;
    let id = purchase(&s, json!({})).await["id"].as_i64().unwrap();
    let r = store(&s, id, "scan.png", PNG).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["file_content_type"], "image/png");
    let png = reqwest::get(r.body["file_url"].as_str().unwrap())
        .await
        .unwrap();
    assert_eq!(png.headers()["content-type"], "image/png");

    let r = store(&s, id, "fake.pdf", b"I am only text").await;
    assert_eq!(r.status, 422);
    assert!(r.body["errors"]["file"].is_array());
    let still = s.get(&format!("/purchases/{id}")).await.body;
    assert_eq!(
        still["file_content_type"], "image/png",
        "a failed upload leaves the previous document"
    );

    let r = store(&s, id, "receipt.pdf", b"%PDF-1.7\n%%EOF").await;
    assert_eq!(r.body["file_content_type"], "application/pdf");
    let dir = s.data_path().join("files/purchase_documents");
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "the replaced file is removed"
    );

    let big = [b"%PDF-".as_slice(), &vec![0u8; 10 * 1024 * 1024]].concat();
    assert_eq!(store(&s, id, "big.pdf", &big).await.status, 422);
    let path = format!("/purchases/{id}/store_document");
    let r = s
        .send_raw(reqwest::Method::PATCH, &path, "application/json", "{}")
        .await;
    assert_eq!(r.status, 415);
}
