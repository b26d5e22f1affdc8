//! Issue 33 § Credit notes, on a real server: `POST /invoices/{id}/credit_note` credits
//! positions of a finalized invoice in full or in part, or a free amount, as a finalized
//! document of its own number series (`G{YY}{MM}-{NNN}`) with negative totals; the
//! invoice's open amount drops by the credited gross, never below 0; all credit notes
//! together never exceed the invoice's gross — also when they arrive at once; corrections
//! stay in the books. (The e-invoice of a credit note is checked with the official rules
//! in `einvoice_api.rs`.)

mod common;

use common::{invoice_body, pdftotext, start, TestServer};
use serde_json::{json, Value};

/// A JSON number as a decimal.
fn dec(v: &Value) -> rust_decimal::Decimal {
    common::num(v).parse().unwrap()
}

fn d(s: &str) -> rust_decimal::Decimal {
    s.parse().unwrap()
}

/// The default invoice (Concept 2 × 50, Screens 0.5 × 100, Flat fee 100; net 250.00,
/// gross 297.50 at 19 %) for a new customer; returns it in full.
async fn invoice(s: &TestServer, name: &str) -> Value {
    let c = s.customer(name).await;
    let r = s.invoice(c, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    s.get(&format!("/invoices/{id}")).await.body
}

/// The id of `invoice`'s position titled `title`.
fn position(invoice: &Value, title: &str) -> i64 {
    invoice["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["title"] == title)
        .unwrap()["id"]
        .as_i64()
        .unwrap()
}

async fn credit(s: &TestServer, invoice: &Value, items: Value) -> common::Reply {
    s.post(
        &format!("/invoices/{}/credit_note", invoice["id"]),
        json!({ "items": items }),
    )
    .await
}

#[tokio::test]
async fn crediting_one_position_makes_a_numbered_credit_note_and_lowers_the_open_amount() {
    let s = start().await;
    let inv = invoice(&s, "Kranzler GmbH").await;
    let id = inv["id"].as_i64().unwrap();
    assert_eq!(dec(&inv["open_amount"]), d("297.50"));
    let r = credit(&s, &inv, json!([{"id": position(&inv, "Concept")}])).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let note = &r.body;
    assert_eq!(note["credit_note"], true);
    assert_eq!(note["credited_invoice_id"], id);
    assert_eq!(note["reversal"], false);
    assert_eq!(note["status"], "created");
    let number = note["identifier"].as_str().unwrap();
    assert!(
        number.starts_with('G') && number.ends_with("-001"),
        "{number}"
    );
    assert_eq!(dec(&note["net_total"]), d("-100.00"));
    assert_eq!(dec(&note["gross_total"]), d("-119.00"));
    assert_eq!(dec(&note["open_amount"]), d("0"));
    assert!(note["payment_reference"].is_null(), "{note}");
    let tax = &note["tax_breakdown"][0];
    assert_eq!(
        (dec(&tax["net_total"]), dec(&tax["tax_total"])),
        (d("-100.00"), d("-19.00"))
    );
    let original = inv["identifier"].as_str().unwrap();
    assert_eq!(
        note["title"],
        format!("Rechnungskorrektur zu Rechnung {original}")
    );
    let full = s.get(&format!("/invoices/{}", note["id"])).await.body;
    assert!(
        full["salutation"].as_str().unwrap().contains(&format!(
            "bezieht sich auf die Rechnung {original} vom 03.11.2026"
        )),
        "{full}"
    );
    assert_eq!(full["items"][0]["title"], "Concept");
    assert_eq!(dec(&full["items"][0]["quantity"]), d("-2"));

    // The invoice: 119.00 less open, its credit notes listed, the event on its timeline.
    let after = s.get(&format!("/invoices/{id}")).await.body;
    assert_eq!(dec(&after["open_amount"]), d("178.50"));
    assert_eq!(
        after["status"], "created",
        "a partial credit is not a payment"
    );
    let notes = after["credit_notes"].as_array().unwrap();
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0]["id"], note["id"]);
    assert_eq!(notes[0]["identifier"], number);
    assert_eq!(dec(&notes[0]["gross_total"]), d("-119.00"));
    let events = s.get(&format!("/invoices/{id}/events")).await.body;
    assert!(
        events
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["kind"] == "credited" && e["data"]["credit_note_id"] == note["id"]),
        "{events}"
    );
    // The lists agree: the open filter and the summary count the rest only.
    let summary = s.get("/invoices/summary").await.body;
    let eur = summary
        .as_array()
        .map(|a| a[0].clone())
        .unwrap_or(summary.clone());
    assert!(summary.to_string().contains("178.5"), "{summary} {eur}");

    // The PDF says what it is and names the invoice.
    let (status, _, pdf) = s.bytes(&format!("/invoices/{}.pdf", note["id"])).await;
    assert_eq!(status, 200);
    let text = pdftotext(&pdf);
    assert!(
        text.contains(&format!("Rechnungskorrektur {number}")),
        "{text}"
    );
    assert!(text.contains(original), "{text}");
    assert!(text.contains("-119,00"), "{text}");
}

#[tokio::test]
async fn part_of_a_position_and_a_free_amount_can_be_credited() {
    let s = start().await;
    let inv = invoice(&s, "Müller & Söhne KG").await;
    let r = credit(
        &s,
        &inv,
        json!([
            {"id": position(&inv, "Concept"), "quantity": 1},
            {"type": "item", "title": "Nachlass wegen Verzug", "quantity": 1, "unit_price": 20}
        ]),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // (50 + 20) × 1.19 = 83.30
    assert_eq!(dec(&r.body["gross_total"]), d("-83.30"));
    let after = s.get(&format!("/invoices/{}", inv["id"])).await.body;
    assert_eq!(dec(&after["open_amount"]), d("214.20"));
}

#[tokio::test]
async fn credit_notes_never_exceed_the_invoice_and_a_full_credit_settles_it() {
    let s = start().await;
    let inv = invoice(&s, "Kranzler GmbH").await;
    let id = inv["id"].as_i64().unwrap();
    let all = json!([
        {"id": position(&inv, "Concept")},
        {"id": position(&inv, "Screens")},
        {"id": position(&inv, "Flat fee")}
    ]);
    let r = credit(&s, &inv, json!([{"id": position(&inv, "Concept")}])).await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Everything again would credit 119.00 twice: refused, naming what is left.
    let r = credit(&s, &inv, all).await;
    assert_eq!(r.status, 422, "{}", r.body);
    let message = r.body["errors"]["items"][0].as_str().unwrap();
    assert!(message.contains("178.50 EUR is left"), "{message}");
    // A free amount above what is left is refused too.
    let r = credit(
        &s,
        &inv,
        json!([{"type": "item", "title": "Kulanz", "quantity": 1, "unit_price": 150.01}]),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.body);
    // The rest settles the invoice: paid, nothing open, never negative.
    let r = credit(
        &s,
        &inv,
        json!([{"id": position(&inv, "Screens")}, {"id": position(&inv, "Flat fee")}]),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let after = s.get(&format!("/invoices/{id}")).await.body;
    assert_eq!(dec(&after["open_amount"]), d("0"));
    assert_eq!(after["status"], "paid");
    assert_eq!(after["credit_notes"].as_array().unwrap().len(), 2);
    let r = credit(
        &s,
        &inv,
        json!([{"type": "item", "title": "Noch etwas", "quantity": 1, "unit_price": 0.01}]),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["errors"]["items"][0]
        .as_str()
        .unwrap()
        .contains("0.00 EUR is left"));
    // The two credit notes are numbered one after the other.
    let numbers: Vec<String> = after["credit_notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["identifier"].as_str().unwrap().to_string())
        .collect();
    assert!(
        numbers[0].ends_with("-001") && numbers[1].ends_with("-002"),
        "{numbers:?}"
    );
}

#[tokio::test]
async fn a_paid_invoice_can_be_credited_and_a_payment_plus_a_credit_settle_it() {
    let s = start().await;
    let inv = invoice(&s, "Kranzler GmbH").await;
    let id = inv["id"].as_i64().unwrap();
    let r = s
        .post(
            "/invoices/payments",
            json!({"invoice_id": id, "date": "2026-11-20", "paid_total": 178.5, "currency": "EUR"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = credit(&s, &inv, json!([{"id": position(&inv, "Concept")}])).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let after = s.get(&format!("/invoices/{id}")).await.body;
    assert_eq!(after["status"], "paid");
    assert_eq!(dec(&after["open_amount"]), d("0"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn credit_notes_arriving_at_once_never_credit_more_than_the_gross() {
    let s = start().await;
    let inv = invoice(&s, "Kranzler GmbH").await;
    let flat = position(&inv, "Flat fee");
    let path = format!("/invoices/{}/credit_note", inv["id"]);
    let mut statuses = common::requests::statuses_at_once((0..10).map(|_| {
        s.keyed(reqwest::Method::POST, &path)
            .json(&json!({"items": [{"id": flat}]}))
    }))
    .await;
    statuses.sort();
    // 119.00 each against 297.50: two fit, the rest are refused.
    assert_eq!(statuses, [200, 200, 422, 422, 422, 422, 422, 422, 422, 422]);
    let after = s.get(&format!("/invoices/{}", inv["id"])).await.body;
    assert_eq!(dec(&after["open_amount"]), d("59.50"));
    assert_eq!(after["credit_notes"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn what_cannot_be_credited_is_refused_and_corrections_stay_in_the_books() {
    let s = start().await;
    let inv = invoice(&s, "Kranzler GmbH").await;
    let id = inv["id"].as_i64().unwrap();
    let other = invoice(&s, "Harbour Ltd").await;
    // Bad bodies name the field.
    for (body, field) in [
        (json!([]), "items"),
        (json!([{"id": position(&other, "Concept")}]), "items[0].id"),
        (
            json!([{"id": position(&inv, "Concept"), "quantity": 3}]),
            "items[0].quantity",
        ),
        (
            json!([{"id": position(&inv, "Flat fee"), "quantity": 1}]),
            "items[0].quantity",
        ),
        (
            json!([{"type": "item", "title": "", "unit_price": 5}]),
            "items[0].title",
        ),
        (
            json!([{"type": "item", "title": "x", "unit_price": -5}]),
            "items[0].unit_price",
        ),
    ] {
        let r = credit(&s, &inv, body.clone()).await;
        assert_eq!(r.status, 422, "{body}: {}", r.body);
        assert!(r.body["errors"].get(field).is_some(), "{body}: {}", r.body);
    }
    let r = s
        .post(
            &format!("/invoices/{id}/credit_note"),
            json!({"items": [{"id": position(&inv, "Concept"), "amount": 5}]}),
        )
        .await;
    assert!(r.status == 400 || r.status == 422, "{}", r.body);
    assert_eq!(
        s.post(
            "/invoices/999999/credit_note",
            json!({"items": [{"id": 1}]})
        )
        .await
        .status,
        404
    );

    // A draft is edited, not credited.
    let c = s.customer("Entwurf GmbH").await;
    let draft = s.invoice(c, json!({"status": "draft"})).await.body;
    let r = s
        .post(
            &format!("/invoices/{}/credit_note", draft["id"]),
            json!({"items": [{"type": "item", "title": "x", "unit_price": 1}]}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);

    let note = credit(&s, &inv, json!([{"id": position(&inv, "Concept")}]))
        .await
        .body;
    let nid = note["id"].as_i64().unwrap();
    // A credit note is neither credited nor reversed; the credited invoice is not reversed
    // (it would be credited twice) — both stay in the books.
    let r = s
        .post(
            &format!("/invoices/{nid}/credit_note"),
            json!({"items": [{"type": "item", "title": "x", "unit_price": 1}]}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    for target in [nid, id] {
        let r = s
            .post(&format!("/invoices/{target}/reverse"), json!({}))
            .await;
        assert_eq!(r.status, 422, "{}", r.body);
        let r = s
            .delete(
                &format!("/invoices/{target}"),
                Some(json!({"reason": "typo"})),
            )
            .await;
        assert_eq!(r.status, 422, "{}", r.body);
        assert!(r.body["message"]
            .as_str()
            .unwrap()
            .contains("belongs to the books"));
    }
    // A reversed invoice is settled: no credit note.
    let third = invoice(&s, "Storno AG").await;
    let r = s
        .post(&format!("/invoices/{}/reverse", third["id"]), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = credit(&s, &third, json!([{"id": position(&third, "Concept")}])).await;
    assert_eq!(r.status, 422, "{}", r.body);
    // A read-only key may not credit.
    let viewer = s.read_only_key().await;
    let status = s
        .status_as(
            &viewer,
            reqwest::Method::POST,
            &format!("/invoices/{id}/credit_note"),
            Some(json!({"items": [{"id": position(&inv, "Screens")}]})),
        )
        .await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn the_number_series_is_a_setting_and_an_english_customer_reads_english() {
    let s = start().await;
    let r = s
        .put(
            "/account",
            json!({"credit_note_number_format": "GS-{YYYY}-{NNNN}"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["credit_note_number_format"], "GS-{YYYY}-{NNNN}");
    let r = s
        .put(
            "/account",
            json!({"credit_note_number_format": "G-no-counter"}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["errors"].get("credit_note_number_format").is_some());
    let english = s
        .create(
            "/companies",
            json!({"name": "Harbour Ltd", "address": "1 Dock Road\nLondon", "language": "en"}),
        )
        .await;
    let mut body = invoice_body(english);
    body["title"] = json!("Consulting");
    let inv = s.post("/invoices", body).await.body;
    let inv = s.get(&format!("/invoices/{}", inv["id"])).await.body;
    let r = credit(&s, &inv, json!([{"id": position(&inv, "Screens")}])).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let year = chrono::Local::now().format("%Y").to_string();
    assert_eq!(r.body["identifier"], format!("GS-{year}-0001"));
    assert_eq!(
        r.body["title"],
        format!(
            "Credit note for invoice {}",
            inv["identifier"].as_str().unwrap()
        )
    );
    // The invoice series is untouched by credit notes.
    let c = s.customer("Next GmbH").await;
    let next = s.invoice(c, json!({})).await.body;
    assert!(
        next["identifier"].as_str().unwrap().ends_with("-002"),
        "{next}"
    );
}
