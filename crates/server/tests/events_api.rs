//! Timelines over real HTTP (issue 11 § Timeline): every change of an invoice, offer or
//! purchase appears at `GET /{invoices,offers,purchases}/{id}/events` with its data, a
//! sent e-mail carries the Message-ID the mail server received, unknown records are 404
//! and read-only keys can read.

mod common;

use common::smtp::{header_value, smtp_server, start_sending_to, wait_for_messages};
use common::{start, TestServer};
use serde_json::{json, Value};

async fn events(s: &TestServer, path: &str) -> Vec<Value> {
    let r = s.get(&format!("{path}/events")).await;
    assert_eq!(r.status, 200, "{path}: {}", r.body);
    r.body.as_array().expect("an array").clone()
}

fn kinds(events: &[Value]) -> Vec<&str> {
    events.iter().map(|e| e["kind"].as_str().unwrap()).collect()
}

/// The last event of `kind`.
fn last<'a>(events: &'a [Value], kind: &str) -> &'a Value {
    events
        .iter()
        .rev()
        .find(|e| e["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind} event in {events:?}"))
}

async fn ok(r: common::Reply) -> Value {
    assert!(r.status.is_success(), "{}: {}", r.status, r.body);
    r.body
}

#[tokio::test]
async fn an_invoice_timeline_records_every_change_with_its_data_oldest_first() {
    let s = start().await;
    let c = s.customer("Kranzler GmbH").await;
    let draft = ok(s.invoice(c, json!({"status": "draft"})).await).await;
    let id = draft["id"].as_i64().unwrap();
    let path = format!("/invoices/{id}");
    let e = events(&s, &path).await;
    assert_eq!(kinds(&e), ["created"]);
    assert_eq!(e[0]["data"], json!({}));
    assert!(e[0]["user"]["id"].is_i64(), "{}", e[0]);
    assert!(e[0]["user"]["name"].is_string(), "{}", e[0]);
    assert!(
        e[0]["at"].as_str().unwrap().ends_with('Z'),
        "RFC 3339 UTC: {}",
        e[0]["at"]
    );

    let mut body = common::invoice_body(c);
    common::merge(&mut body, json!({"status": "draft", "title": "Changed"}));
    ok(s.put(&path, body).await).await;
    let inv = ok(s
        .put(
            &format!("{path}/update_status"),
            json!({"status": "created"}),
        )
        .await)
    .await;
    let number = inv["identifier"].as_str().unwrap().to_string();
    ok(
        s.put(&format!("{path}/update_status"), json!({"status": "sent"}))
            .await,
    )
    .await;
    let e = events(&s, &path).await;
    assert_eq!(
        kinds(&e),
        ["created", "updated", "finalized", "status_changed"]
    );
    assert_eq!(e[2]["data"], json!({"identifier": number}));
    assert_eq!(e[3]["data"], json!({"from": "created", "to": "sent"}));
    let ids: Vec<i64> = e.iter().map(|x| x["id"].as_i64().unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "oldest first: {ids:?}");

    let reminder = ok(s.post("/invoice_reminders", json!({"invoice_id": id, "date": "2100-01-04", "due_date": "2100-01-14", "fee": 5, "text": "Please pay"})).await).await;
    let payment = ok(s
        .post(
            "/invoices/payments",
            json!({"invoice_id": id, "date": "2026-11-21", "paid_total": 100}),
        )
        .await)
    .await;
    let pid = payment["id"].as_i64().unwrap();
    let r = s.delete(&format!("/invoices/payments/{pid}"), None).await;
    assert_eq!(r.status, 204);
    let e = events(&s, &path).await;
    let r = last(&e, "reminder");
    assert_eq!(r["data"]["reminder_id"], reminder["id"]);
    assert_eq!(common::num(&r["data"]["fee"]), "5");
    let p = last(&e, "payment");
    assert_eq!(p["data"]["payment_id"], pid);
    assert_eq!(common::num(&p["data"]["amount"]), "100.00");
    assert_eq!(p["data"]["date"], "2026-11-21");
    assert_eq!(p["data"]["currency"], "EUR");
    let d = last(&e, "payment_deleted");
    assert_eq!(d["data"]["payment_id"], pid);
    assert_eq!(common::num(&d["data"]["amount"]), "100.00");

    // Copy: `copied` on the source, `created {copy_of}` on the copy (a draft: no number).
    let copy = ok(s.post(&format!("{path}/copy"), json!({})).await).await;
    let copy_id = copy["id"].as_i64().unwrap();
    assert_eq!(
        last(&events(&s, &path).await, "copied")["data"],
        json!({"copy_id": copy_id})
    );
    let ce = events(&s, &format!("/invoices/{copy_id}")).await;
    assert_eq!(kinds(&ce), ["created"]);
    assert_eq!(ce[0]["data"], json!({"copy_of": id}));

    // Reversal: `reversed` on the original; the reversal is created and finalized.
    let reversal = ok(s.post(&format!("{path}/reverse"), json!({})).await).await;
    let rid = reversal["id"].as_i64().unwrap();
    assert_eq!(
        last(&events(&s, &path).await, "reversed")["data"],
        json!({"reversal_invoice_id": rid})
    );
    let re = events(&s, &format!("/invoices/{rid}")).await;
    assert_eq!(kinds(&re), ["created", "finalized"]);
    assert_eq!(re[0]["data"], json!({"reversal_of": id}));
    assert_eq!(re[1]["data"]["identifier"], reversal["identifier"]);

    // A deleted draft has no timeline to show.
    let r = s.delete(&format!("/invoices/{copy_id}"), None).await;
    assert_eq!(r.status, 204, "{}", r.body);
    let r = s.get(&format!("/invoices/{copy_id}/events")).await;
    assert_eq!(r.status, 404);
}

#[tokio::test]
async fn an_invoice_created_final_or_from_an_offer_says_so() {
    let s = start().await;
    let c = s.customer("Kranzler GmbH").await;
    let inv = ok(s.invoice(c, json!({})).await).await;
    let e = events(&s, &format!("/invoices/{}", inv["id"])).await;
    assert_eq!(kinds(&e), ["created", "finalized"]);
    assert_eq!(e[1]["data"]["identifier"], inv["identifier"]);

    let offer = ok(s.post("/offers", json!({"company_id": c, "recipient_address": "Kranzler GmbH\nMain St 1", "date": "2026-11-05", "due_date": "2026-12-05", "title": "Relaunch", "tax": 19,
        "items": [{"type": "item", "title": "Design", "quantity": 2, "unit": "h", "unit_price": 100}]})).await).await;
    let oid = offer["id"].as_i64().unwrap();
    let from_offer = ok(s
        .invoice(c, json!({"offer_id": oid, "status": "draft"}))
        .await)
    .await;
    let e = events(&s, &format!("/invoices/{}", from_offer["id"])).await;
    assert_eq!(kinds(&e), ["created"]);
    assert_eq!(e[0]["data"], json!({"offer_id": oid}));
}

#[tokio::test]
async fn sending_records_recipients_subject_and_the_message_id_the_server_received() {
    let mail = smtp_server().await;
    let port = mail.port;
    let s = start_sending_to(port).await;
    let c = s.create("/companies", json!({"name": "Mail AG", "address": "Weg 1", "email": "ap@mail-ag.example", "billing_email_cc": "boss@mail-ag.example"})).await;
    let id = ok(s.invoice(c, json!({})).await).await["id"]
        .as_i64()
        .unwrap();
    ok(s.post(
        &format!("/invoices/{id}/send_email"),
        json!({"subject": "Invoice for November", "text": "Dear team,\nthe invoice."}),
    )
    .await)
    .await;
    let e = events(&s, &format!("/invoices/{id}")).await;
    assert_eq!(kinds(&e), ["created", "finalized", "sent"]);
    let sent = &e[2]["data"];
    assert_eq!(sent["to"], json!(["ap@mail-ag.example"]));
    assert_eq!(sent["cc"], json!(["boss@mail-ag.example"]));
    assert_eq!(sent["subject"], "Invoice for November");
    let message_id = sent["message_id"].as_str().unwrap();
    assert!(
        message_id.starts_with('<') && message_id.ends_with('>') && message_id.contains('@'),
        "{message_id}"
    );

    let received = wait_for_messages(&mail, 1).await;
    assert_eq!(received.len(), 1);
    assert_eq!(
        header_value(&received[0], "Message-ID").as_deref(),
        Some(message_id),
        "{}",
        received[0]
    );

    // A second message gets its own id.
    ok(s.post(
        &format!("/invoices/{id}/send_email"),
        json!({"subject": "Reminder", "text": "Again.", "emails_to": "x@y.example"}),
    )
    .await)
    .await;
    let e = events(&s, &format!("/invoices/{id}")).await;
    let second = &last(&e, "sent")["data"];
    assert_eq!(second["to"], json!(["x@y.example"]));
    assert_eq!(second["cc"], json!([]));
    assert_ne!(second["message_id"], message_id);
}

#[tokio::test]
async fn an_offer_timeline_records_creation_edits_status_sending_and_copies() {
    let s = start().await;
    let c = s.customer("Kranzler GmbH").await;
    let body = json!({"company_id": c, "recipient_address": "Kranzler GmbH\nMain St 1", "date": "2026-11-05", "due_date": "2026-12-05", "title": "Relaunch", "tax": 19,
        "items": [{"type": "item", "title": "Design", "quantity": 2, "unit": "h", "unit_price": 100}]});
    let offer = ok(s.post("/offers", body.clone()).await).await;
    let id = offer["id"].as_i64().unwrap();
    let path = format!("/offers/{id}");
    ok(s.put(&path, body).await).await;
    ok(
        s.put(&format!("{path}/update_status"), json!({"status": "sent"}))
            .await,
    )
    .await;
    // Without SMTP the message goes to the outbox, with its Message-ID all the same.
    ok(s.post(
        &format!("{path}/send_email"),
        json!({"subject": "Our offer", "text": "Here it is.", "emails_to": "buyer@kranzler.example"}),
    )
    .await)
    .await;
    let copy = ok(s.post(&format!("{path}/copy"), json!({})).await).await;
    let copy_id = copy["id"].as_i64().unwrap();

    let e = events(&s, &path).await;
    assert_eq!(
        kinds(&e),
        ["created", "updated", "status_changed", "sent", "copied"]
    );
    assert_eq!(e[2]["data"], json!({"from": "created", "to": "sent"}));
    assert_eq!(e[3]["data"]["to"], json!(["buyer@kranzler.example"]));
    assert_eq!(e[3]["data"]["subject"], "Our offer");
    let message_id = e[3]["data"]["message_id"].as_str().unwrap();
    let outbox = std::fs::read_dir(s.data_path().join("outbox"))
        .unwrap()
        .flatten()
        .map(|f| std::fs::read_to_string(f.path()).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(outbox.contains(message_id), "{message_id} in the outbox");
    assert_eq!(e[4]["data"], json!({"copy_id": copy_id}));
    let ce = events(&s, &format!("/offers/{copy_id}")).await;
    assert_eq!(kinds(&ce), ["created"]);
    assert_eq!(ce[0]["data"], json!({"copy_of": id}));

    // A deleted offer's timeline is gone with it; a new offer starts empty even when it
    // gets the same id again.
    assert_eq!(
        s.delete(&format!("/offers/{copy_id}"), None).await.status,
        204
    );
    assert_eq!(
        s.get(&format!("/offers/{copy_id}/events")).await.status,
        404
    );
    let again = ok(s.post("/offers", json!({"company_id": c, "recipient_address": "Kranzler GmbH", "title": "Again", "date": "2026-11-05", "due_date": "2026-12-05", "tax": 19, "items": [{"type": "item", "title": "X", "quantity": 1, "unit_price": 1}]})).await).await;
    let e = events(&s, &format!("/offers/{}", again["id"])).await;
    assert_eq!(kinds(&e), ["created"]);
}

const PNG: &[u8] = &[
    0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, b'I', b'H', b'D', b'R',
];

#[tokio::test]
async fn a_purchase_timeline_records_edits_approval_payments_and_documents() {
    let s = start().await;
    let body = json!({"date": "2026-11-10", "currency": "EUR", "payment_method": "bank_transfer",
        "items": [{"title": "Printer paper", "total": 119, "tax": 19, "tax_included": true}]});
    let p = ok(s.post("/purchases", body.clone()).await).await;
    let id = p["id"].as_i64().unwrap();
    let path = format!("/purchases/{id}");
    ok(s.put(&path, body).await).await;
    let r = s
        .upload(
            reqwest::Method::PATCH,
            &format!("{path}/store_document"),
            "receipt.png",
            PNG,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    s.set_purchase_status(&path, "approved").await;
    let pay = ok(s
        .post(
            "/purchases/payments",
            json!({"purchase_id": id, "date": "2026-11-21", "total": 119}),
        )
        .await)
    .await;
    let pay_id = pay["id"].as_i64().unwrap();
    let r = s
        .delete(&format!("/purchases/payments/{pay_id}"), None)
        .await;
    assert_eq!(r.status, 204);
    s.set_purchase_status(&path, "pending").await;

    let e = events(&s, &path).await;
    assert_eq!(
        kinds(&e),
        [
            "created",
            "updated",
            "document_uploaded",
            "approved",
            "payment",
            "payment_deleted",
            "status_changed"
        ]
    );
    assert_eq!(e[2]["data"], json!({"file_name": "receipt.png"}));
    assert_eq!(e[4]["data"]["payment_id"], pay_id);
    assert_eq!(common::num(&e[4]["data"]["amount"]), "119.00");
    assert_eq!(e[4]["data"]["date"], "2026-11-21");
    assert_eq!(e[5]["data"]["payment_id"], pay_id);
    assert_eq!(e[6]["data"], json!({"from": "approved", "to": "pending"}));

    // Deleted: 404, and its events do not reappear on a later purchase with the id.
    assert_eq!(s.delete(&path, None).await.status, 204);
    assert_eq!(s.get(&format!("{path}/events")).await.status, 404);
}

#[tokio::test]
async fn unknown_records_are_404_and_read_only_keys_can_read() {
    let s = start().await;
    for path in [
        "/invoices/999999/events",
        "/offers/999999/events",
        "/purchases/999999/events",
        "/invoices/abc/events",
    ] {
        let r = s.get(path).await;
        assert_eq!(r.status, 404, "{path}: {}", r.body);
        assert!(r.body["message"].is_string(), "{path}: {}", r.body);
    }
    let c = s.customer("Kranzler GmbH").await;
    let id = ok(s.invoice(c, json!({})).await).await["id"]
        .as_i64()
        .unwrap();
    let ro = s.read_only_key().await;
    let r = s
        .client
        .get(s.url(&format!("/invoices/{id}/events")))
        .header("Authorization", format!("Token token={ro}"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body.as_array().unwrap().len(), 2);
    // Events are read-only: there is no way to write one.
    let r = s
        .post(&format!("/invoices/{id}/events"), json!({"kind": "sent"}))
        .await;
    assert_eq!(r.status, 405, "{}", r.body);
}
