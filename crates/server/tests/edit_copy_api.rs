//! Edit, delete and copy over real HTTP (issue 11 § Edit, delete, copy): PUT /offers/{id},
//! DELETE /offers/{id}, PUT /purchases/{id}, POST /invoices/{id}/copy and
//! POST /offers/{id}/copy — success read back, state refusals, 404, invalid bodies,
//! read-only keys, and nothing written on refusal.

mod common;

use base64::Engine;
use common::{num, start, TestServer};
use serde_json::{json, Value};

fn today() -> String {
    chrono::Utc::now().date_naive().to_string()
}

fn days_from_today(days: u64) -> String {
    (chrono::Utc::now().date_naive() + chrono::Days::new(days)).to_string()
}

async fn company(s: &TestServer, term: Option<i64>) -> i64 {
    let mut body = json!({"name": "Kranzler KG", "address": "Main St 1\n12345 Town",
        "email": "billing@kranzler.example", "currency": "EUR"});
    if let Some(t) = term {
        body["payment_term_days"] = json!(t);
    }
    let r = s.post("/companies", body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["id"].as_i64().unwrap()
}

/// POST `{documents}/{id}/copy` (`documents`: `/invoices` or `/offers`); asserts 200 and
/// returns the copy's id and its JSON as GET reads it.
async fn copy_of(s: &TestServer, documents: &str, id: i64) -> (i64, Value) {
    let r = s.post(&format!("{documents}/{id}/copy"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let copy_id = r.body["id"].as_i64().unwrap();
    (copy_id, s.get(&format!("{documents}/{copy_id}")).await.body)
}

/// Asserts that `copy` carries `original`'s `fields` and as many positions, each with its
/// original's `item_fields`; returns the copy's positions.
fn assert_copied<'a>(
    original: &Value,
    copy: &'a Value,
    fields: &[&str],
    item_fields: &[&str],
) -> &'a Vec<Value> {
    for field in fields {
        assert_eq!(copy[field], original[field], "{field}");
    }
    let (a, b) = (
        original["items"].as_array().unwrap(),
        copy["items"].as_array().unwrap(),
    );
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        for f in item_fields {
            assert_eq!(x[f], y[f], "item {f}");
        }
    }
    b
}

fn offer_body(company: i64) -> Value {
    json!({
        "company_id": company,
        "recipient_address": "Kranzler KG\nMain St 1",
        "date": "2026-11-05",
        "due_date": "2026-12-05",
        "title": "Website relaunch",
        "tax": 19,
        "tags": ["web"],
        "items": [
            {"type": "item", "title": "Design", "quantity": 10, "unit": "h", "unit_price": 100},
            {"type": "item", "title": "Extras", "quantity": 5, "unit": "h", "unit_price": 100, "optional": true}
        ]
    })
}

async fn offer(s: &TestServer, company: i64) -> Value {
    let r = s.post("/offers", offer_body(company)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

async fn set_offer_status(s: &TestServer, id: i64, status: &str) {
    let r = s
        .put(
            &format!("/offers/{id}/update_status"),
            json!({"status": status}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

#[tokio::test]
async fn put_offer_replaces_fields_and_positions_and_recomputes_totals() {
    let s = start().await;
    let c = company(&s, None).await;
    let created = offer(&s, c).await;
    let id = created["id"].as_i64().unwrap();
    assert_eq!(num(&created["net_total"]), "1000.00");

    let edited = json!({
        "company_id": c,
        "recipient_address": "Kranzler KG\nNew St 2",
        "date": "2026-11-06",
        "due_date": "2026-12-06",
        "title": "Website relaunch, second draft",
        "tax": 19,
        "tags": ["web", "2027"],
        "salutation": "<p>Dear Kranzler team,</p>",
        "footer": "<p>Valid for 30 days.</p>",
        "items": [
            {"type": "item", "title": "Design", "quantity": 4, "unit": "h", "unit_price": 100},
            {"type": "item", "title": "Print", "quantity": 1, "unit": "pc", "unit_price": 100, "tax": 7}
        ]
    });
    let r = s.put(&format!("/offers/{id}"), edited.clone()).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let back = s.get(&format!("/offers/{id}")).await.body;
    assert_eq!(back["identifier"], created["identifier"], "number kept");
    assert_eq!(back["status"], "created");
    assert_eq!(back["title"], edited["title"]);
    assert_eq!(back["recipient_address"], edited["recipient_address"]);
    assert_eq!(back["date"], "2026-11-06");
    assert_eq!(back["due_date"], "2026-12-06");
    assert_eq!(back["tags"], json!(["web", "2027"]));
    assert_eq!(back["salutation"], edited["salutation"]);
    assert_eq!(back["footer"], edited["footer"]);
    let items = back["items"].as_array().unwrap();
    assert_eq!(items.len(), 2, "positions replaced, not added");
    assert_eq!(items[1]["title"], "Print");
    assert_eq!(num(&items[1]["tax"]), "7");
    // 400 at 19 % + 100 at 7 %: net 500.00, VAT 76.00 + 7.00.
    assert_eq!(num(&back["net_total"]), "500.00");
    assert_eq!(num(&back["gross_total"]), "583.00");

    // A sent offer is still editable.
    set_offer_status(&s, id, "sent").await;
    let r = s.put(&format!("/offers/{id}"), edited).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["status"], "sent", "status kept");
}

#[tokio::test]
async fn put_offer_refusals_write_nothing() {
    let s = start().await;
    let c = company(&s, None).await;
    let created = offer(&s, c).await;
    let id = created["id"].as_i64().unwrap();
    let path = format!("/offers/{id}");
    let before = s.get(&path).await.body;

    // Invalid body: 422 naming the field.
    let mut bad = offer_body(c);
    bad["items"][0]["quantity"] = json!(null);
    let r = s.put(&path, bad).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body["errors"]["items[0].quantity"].is_array(),
        "{}",
        r.body
    );
    let mut bad = offer_body(c);
    bad["currency"] = json!("XYZ");
    let r = s.put(&path, bad).await;
    assert_eq!(r.status, 422);
    assert!(r.body["errors"]["currency"].is_array(), "{}", r.body);

    // Unknown id.
    let r = s.put("/offers/999999", offer_body(c)).await;
    assert_eq!(r.status, 404, "{}", r.body);

    // Read-only key.
    let ro = s.read_only_key().await;
    let mut changed = offer_body(c);
    changed["title"] = json!("Read-only change");
    assert_eq!(
        s.status_as(&ro, reqwest::Method::PUT, &path, Some(changed.clone()))
            .await,
        403
    );

    // Later states: 422 with a sentence naming why.
    for status in ["accepted", "billed", "archived", "partially_billed"] {
        set_offer_status(&s, id, status).await;
        let r = s.put(&path, changed.clone()).await;
        assert_eq!(r.status, 422, "{status}: {}", r.body);
        assert!(
            r.body["message"]
                .as_str()
                .unwrap()
                .contains("Only created or sent offers can be edited"),
            "{}",
            r.body
        );
    }
    set_offer_status(&s, id, "created").await;
    let after = s.get(&path).await.body;
    for field in ["title", "net_total", "gross_total", "items", "tags", "date"] {
        assert_eq!(after[field], before[field], "{field} unchanged");
    }
}

#[tokio::test]
async fn delete_offer_while_created_removes_it_and_its_attachments() {
    let s = start().await;
    let c = company(&s, None).await;
    let id = offer(&s, c).await["id"].as_i64().unwrap();
    let pdf = base64::engine::general_purpose::STANDARD.encode("%PDF-1.4\n% terms\n%%EOF\n");
    let r = s
        .post(
            &format!("/offers/{id}/attachments"),
            json!({"attachment": {"filename": "terms.pdf", "base64": pdf}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let dir = s.data_path().join("files/offer_attachments");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);

    let ro = s.read_only_key().await;
    let path = format!("/offers/{id}");
    assert_eq!(
        s.status_as(&ro, reqwest::Method::DELETE, &path, None).await,
        403
    );
    assert_eq!(s.get(&path).await.status, 200);

    let r = s.delete(&path, None).await;
    assert_eq!(r.status, 204, "{}", r.body);
    assert_eq!(s.get(&path).await.status, 404);
    assert_eq!(
        s.get(&format!("/offers/{id}/attachments")).await.status,
        404
    );
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "attachment file removed"
    );
    assert_eq!(s.delete(&path, None).await.status, 404);
    assert_eq!(s.delete("/offers/999999", None).await.status, 404);
}

#[tokio::test]
async fn delete_offer_refuses_sent_and_later_offers() {
    let s = start().await;
    let c = company(&s, None).await;
    let id = offer(&s, c).await["id"].as_i64().unwrap();
    let path = format!("/offers/{id}");
    for status in ["sent", "accepted", "billed", "archived"] {
        set_offer_status(&s, id, status).await;
        let r = s.delete(&path, None).await;
        assert_eq!(r.status, 422, "{status}: {}", r.body);
        assert!(
            r.body["message"].as_str().unwrap().contains("never sent"),
            "{}",
            r.body
        );
        assert_eq!(s.get(&path).await.status, 200, "still there");
    }
    assert_eq!(
        s.get(&path).await.body["items"].as_array().unwrap().len(),
        2
    );
}

fn purchase_body() -> Value {
    json!({
        "date": "2026-11-10",
        "currency": "EUR",
        "receipt_identifier": "RE-1",
        "payment_method": "bank_transfer",
        "items": [
            {"title": "Printer paper", "total": 119, "tax": 19, "tax_included": true},
            {"title": "Toner", "total": 10.05, "tax": 19}
        ]
    })
}

#[tokio::test]
async fn put_purchase_replaces_positions_and_recomputes_totals() {
    let s = start().await;
    let r = s.post("/purchases", purchase_body()).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let created = r.body;
    let id = created["id"].as_i64().unwrap();
    let edited = json!({
        "date": "2026-11-11",
        "currency": "EUR",
        "receipt_identifier": "RE-1b",
        "title": "Office supplies",
        "payment_method": "bank_transfer",
        "tags": ["office"],
        "items": [
            {"title": "Printer paper", "total": 100, "tax": 7}
        ]
    });
    let r = s.put(&format!("/purchases/{id}"), edited).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let back = s.get(&format!("/purchases/{id}")).await.body;
    assert_eq!(back["identifier"], created["identifier"], "number kept");
    assert_eq!(back["status"], "pending");
    assert_eq!(back["receipt_identifier"], "RE-1b");
    assert_eq!(back["title"], "Office supplies");
    assert_eq!(back["date"], "2026-11-11");
    assert_eq!(back["tags"], json!(["office"]));
    assert_eq!(num(&back["net_total"]), "100.00");
    assert_eq!(num(&back["gross_total"]), "107.00");
    let items = back["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "positions replaced");
}

#[tokio::test]
async fn put_purchase_refusals_write_nothing() {
    let s = start().await;
    let created = s.post("/purchases", purchase_body()).await.body;
    let id = created["id"].as_i64().unwrap();
    let path = format!("/purchases/{id}");
    let before = s.get(&path).await.body;
    let mut changed = purchase_body();
    changed["title"] = json!("Changed");

    let mut bad = purchase_body();
    bad["items"][0]["tax"] = json!(150);
    let r = s.put(&path, bad).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["errors"]["items[0].tax"].is_array(), "{}", r.body);

    assert_eq!(
        s.put("/purchases/999999", changed.clone()).await.status,
        404
    );

    let ro = s.read_only_key().await;
    assert_eq!(
        s.status_as(&ro, reqwest::Method::PUT, &path, Some(changed.clone()))
            .await,
        403
    );

    s.set_purchase_status(&path, "approved").await;
    let r = s.put(&path, changed).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body["message"].as_str().unwrap().contains("approved"),
        "{}",
        r.body
    );
    let after = s.get(&path).await.body;
    for field in ["title", "net_total", "gross_total", "items", "date"] {
        assert_eq!(after[field], before[field], "{field} unchanged");
    }
}

#[tokio::test]
async fn copy_invoice_gives_a_draft_with_the_same_content_and_a_fresh_date() {
    let s = start().await;
    let c = company(&s, Some(30)).await;
    let mut body = common::invoice_body(c);
    common::merge(
        &mut body,
        json!({
            "tags": ["monthly"],
            "discount": 10,
            "salutation": "<p>Hello Kranzler,</p>",
            "footer": "<p>Thanks.</p>",
            "buyer_reference": "PO-77",
            "payment_means": "credit_transfer",
            "service_period_from": "2026-10-01",
            "service_period_to": "2026-10-31"
        }),
    );
    body["items"][1]["tax"] = json!(7);
    let r = s.post("/invoices", body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let original = r.body;
    let id = original["id"].as_i64().unwrap();
    let r = s
        .post(
            "/invoices/payments",
            json!({"invoice_id": id, "paid_total": 10, "date": "2026-11-05"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);

    let (copy_id, copy) = copy_of(&s, "/invoices", id).await;
    assert_ne!(copy_id, id);
    assert_eq!(copy["status"], "draft");
    assert!(copy["identifier"].is_null(), "{}", copy["identifier"]);
    assert_eq!(copy["date"], today().as_str());
    assert_eq!(
        copy["due_date"],
        days_from_today(30).as_str(),
        "customer's term"
    );
    let b = assert_copied(
        &original,
        &copy,
        &[
            "customer_id",
            "title",
            "recipient_address",
            "tags",
            "discount",
            "salutation",
            "footer",
            "buyer_reference",
            "payment_means",
            "currency",
            "tax",
            "net_total",
            "gross_total",
            "tax_breakdown",
        ],
        &[
            "type",
            "title",
            "quantity",
            "unit",
            "unit_price",
            "net_total",
            "tax",
        ],
    );
    assert_eq!(num(&b[1]["tax"]), "7");
    assert!(copy["offer_id"].is_null());
    assert!(copy["service_period_from"].is_null());
    assert_eq!(copy["reversal"], false);
    assert!(copy["payments"].as_array().is_none_or(|p| p.is_empty()));
    assert!(copy["reminders"].as_array().is_none_or(|p| p.is_empty()));
    let again = s.get(&format!("/invoices/{id}")).await.body;
    assert_eq!(
        again["payments"].as_array().unwrap().len(),
        1,
        "original keeps its payment"
    );

    // The copy finalizes like any draft.
    let r = s.finalize(copy_id).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body["identifier"].as_str().is_some_and(|n| !n.is_empty()));
}

#[tokio::test]
async fn copy_invoice_of_a_draft_uses_the_account_term_and_refuses_unknown_ids() {
    let s = start().await;
    let c = company(&s, None).await;
    let r = s.invoice(c, json!({"status": "draft"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    let r = s.post(&format!("/invoices/{id}/copy"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["status"], "draft");
    let term = s.get("/account").await.body["default_invoice_due_days"]
        .as_u64()
        .unwrap_or(14);
    assert_eq!(r.body["due_date"], days_from_today(term).as_str());

    let before = common::unsigned(s.get("/invoices").await.body);
    assert_eq!(s.post("/invoices/999999/copy", json!({})).await.status, 404);
    let ro = s.read_only_key().await;
    assert_eq!(
        s.status_as(
            &ro,
            reqwest::Method::POST,
            &format!("/invoices/{id}/copy"),
            Some(json!({}))
        )
        .await,
        403
    );
    assert_eq!(
        common::unsigned(s.get("/invoices").await.body),
        before,
        "nothing written"
    );
}

#[tokio::test]
async fn copy_offer_gives_a_new_created_offer_with_a_new_number() {
    let s = start().await;
    let c = company(&s, Some(21)).await;
    let mut body = offer_body(c);
    body["items"][0]["tax"] = json!(7);
    let r = s.post("/offers", body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let original = r.body;
    let id = original["id"].as_i64().unwrap();
    set_offer_status(&s, id, "archived").await;

    let (_, copy) = copy_of(&s, "/offers", id).await;
    assert_eq!(copy["status"], "created");
    assert_ne!(copy["identifier"], original["identifier"]);
    assert_eq!(copy["date"], today().as_str());
    assert_eq!(copy["due_date"], days_from_today(21).as_str());
    assert_copied(
        &original,
        &copy,
        &[
            "company",
            "title",
            "recipient_address",
            "tags",
            "salutation",
            "footer",
            "discount",
            "currency",
            "net_total",
            "gross_total",
            "tax_breakdown",
        ],
        &["type", "title", "quantity", "unit_price", "optional", "tax"],
    );
    assert_eq!(
        s.get(&format!("/offers/{id}")).await.body["status"],
        "archived",
        "original untouched"
    );
    assert_eq!(s.post("/offers/999999/copy", json!({})).await.status, 404);
}

#[tokio::test]
async fn put_purchase_keeps_the_document_unless_a_file_is_given() {
    let s = start().await;
    let b64 = |t: &str| base64::engine::general_purpose::STANDARD.encode(t);
    let mut body = purchase_body();
    body["file"] = json!({"filename": "receipt.pdf", "base64": b64("%PDF-1.4\n% old\n%%EOF")});
    let r = s.post("/purchases", body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    let path = format!("/purchases/{id}");
    let dir = s.data_path().join("files/purchase_documents");
    let fetch = |url: Value| async move {
        reqwest::get(url.as_str().unwrap())
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap()
    };

    // Without `file` the stored document stays.
    let r = s.put(&path, purchase_body()).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(fetch(r.body["file_url"].clone())
        .await
        .ends_with(b"% old\n%%EOF"));

    // With `file` it is replaced and the old file removed.
    let mut body = purchase_body();
    body["file"] = json!({"filename": "new.pdf", "base64": b64("%PDF-1.4\n% new\n%%EOF")});
    let r = s.put(&path, body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(fetch(r.body["file_url"].clone())
        .await
        .ends_with(b"% new\n%%EOF"));
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "old file removed"
    );

    // A refused file changes nothing.
    let mut body = purchase_body();
    body["file"] = json!({"filename": "x.txt", "base64": b64("just text")});
    let r = s.put(&path, body).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["errors"]["file.base64"].is_array(), "{}", r.body);
    let r = s.get(&path).await;
    assert!(fetch(r.body["file_url"].clone())
        .await
        .ends_with(b"% new\n%%EOF"));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
}

#[tokio::test]
async fn copy_of_a_reversal_is_an_ordinary_draft() {
    let s = start().await;
    let c = company(&s, None).await;
    let r = s.invoice(c, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    let r = s.post(&format!("/invoices/{id}/reverse"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let reversal = r.body;
    assert_eq!(reversal["reversal"], true);
    let r = s
        .post(&format!("/invoices/{}/copy", reversal["id"]), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["status"], "draft");
    assert_eq!(r.body["reversal"], false);
    assert!(r.body["reversed_invoice_id"].is_null());
    assert_eq!(r.body["net_total"], reversal["net_total"]);
}
