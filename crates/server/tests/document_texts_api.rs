//! The account's default salutation and footer texts (issue 9; `docs/decisions.md`
//! § Default document texts (issue 9)): a new invoice or offer without `salutation` /
//! `footer` gets the texts of its customer's correspondence language; `""` stays empty;
//! the invoice preview prints the same defaults.

mod common;

use common::{pdftotext, start, TestServer};
use serde_json::{json, Value};

async fn set_texts(s: &TestServer) {
    let r = s
        .put(
            "/account",
            json!({"document_texts": {
                "de": {"invoice_salutation": "Sehr geehrte Damen und Herren,\nanbei unsere Rechnung.",
                       "invoice_footer": "Vielen Dank!",
                       "offer_salutation": "Gerne bieten wir an:",
                       "offer_footer": "Gültig 30 Tage."},
                "en": {"invoice_salutation": "Dear Sir or Madam,",
                       "invoice_footer": "Thank you!",
                       "offer_salutation": "We are pleased to offer:",
                       "offer_footer": "Valid for 30 days."}
            }}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

async fn english_customer(s: &TestServer, name: &str) -> i64 {
    let id = s.customer(name).await;
    let r = s
        .put(&format!("/companies/{id}"), json!({"language": "en"}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["language"], "en");
    id
}

fn texts(v: &Value) -> (&str, &str) {
    (
        v["salutation"].as_str().unwrap_or("<null>"),
        v["footer"].as_str().unwrap_or("<null>"),
    )
}

#[tokio::test]
async fn invoices_take_the_texts_of_the_customer_language() {
    let s = start().await;
    set_texts(&s).await;
    let german = s.customer("Muster GmbH").await;
    let english = english_customer(&s, "Acme Ltd").await;

    let r = s.invoice(german, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        texts(&r.body),
        (
            "Sehr geehrte Damen und Herren,<br>anbei unsere Rechnung.",
            "Vielen Dank!"
        ),
        "plain line breaks become <br>"
    );
    let stored = s
        .get(&format!("/invoices/{}", r.body["id"].as_i64().unwrap()))
        .await;
    assert_eq!(
        texts(&stored.body).1,
        "Vielen Dank!",
        "stored, not only answered"
    );

    let r = s
        .invoice(english, json!({"salutation": null, "status": "draft"}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(texts(&r.body), ("Dear Sir or Madam,", "Thank you!"));

    // An explicit empty text stays empty; a given text is kept.
    let r = s
        .invoice(english, json!({"salutation": "", "footer": "Own footer"}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["salutation"].as_str().unwrap_or(""), "");
    assert_eq!(r.body["footer"], "Own footer");

    let r = s.invoice(english, json!({"footer": ""})).await;
    assert_eq!(r.body["salutation"], "Dear Sir or Madam,");
    assert_eq!(r.body["footer"].as_str().unwrap_or(""), "");
}

#[tokio::test]
async fn offers_take_the_texts_of_the_company_language() {
    let s = start().await;
    set_texts(&s).await;
    let german = s.customer("Muster GmbH").await;
    let english = english_customer(&s, "Acme Ltd").await;
    let body = |company: i64, extra: Value| {
        let mut b = json!({
            "company_id": company,
            "title": "Relaunch",
            "recipient_address": "Acme\nMain St 1",
            "date": "2026-11-05",
            "due_date": "2026-12-05",
            "tax": 19,
            "items": [{"type": "item", "title": "Design", "quantity": 1, "unit_price": 100}]
        });
        common::merge(&mut b, extra);
        b
    };

    let r = s.post("/offers", body(german, json!({}))).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(texts(&r.body), ("Gerne bieten wir an:", "Gültig 30 Tage."));

    let r = s.post("/offers", body(english, json!({}))).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        texts(&r.body),
        ("We are pleased to offer:", "Valid for 30 days.")
    );

    let r = s
        .post(
            "/offers",
            body(english, json!({"salutation": "", "footer": ""})),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["salutation"].as_str().unwrap_or(""), "");
    assert_eq!(r.body["footer"].as_str().unwrap_or(""), "");
}

#[tokio::test]
async fn the_preview_prints_the_default_texts() {
    let s = start().await;
    set_texts(&s).await;
    let english = english_customer(&s, "Acme Ltd").await;
    let r = s
        .invoice_preview(
            &json!({"customer_id": english, "title": "Draft", "currency": "EUR", "tax": 19,
                    "items": [{"type": "item", "title": "Work", "quantity": 1, "unit_price": 10}]}),
        )
        .await;
    assert_eq!(r.status(), 200);
    let text = pdftotext(&r.bytes().await.unwrap());
    assert!(
        text.contains("Dear Sir or Madam,") && text.contains("Thank you!"),
        "{text}"
    );
}
