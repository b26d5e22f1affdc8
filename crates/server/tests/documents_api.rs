//! PDFs over HTTP: the invoice, its letter papers, the time sheet, the live preview and
//! the signed link — text checked with `pdftotext`.

mod common;

use common::{pdftotext, start, TestServer};
use serde_json::json;

async fn pdf(s: &TestServer, path: &str) -> (u16, String, String) {
    let (status, ct, bytes) = s.bytes(path).await;
    let text = if ct == "application/pdf" {
        pdftotext(&bytes)
    } else {
        String::from_utf8_lossy(&bytes).into_owned()
    };
    (status, ct, text)
}

#[tokio::test]
async fn invoice_pdf_shows_identifier_positions_page_breaks_and_totals() {
    let s = start().await;
    let c = s.customer("Print GmbH").await;
    let nasty = "#set page(width: 1cm) *bold* $x$ [a] <l> \\ @ref";
    let r = s
        .invoice(c, json!({"title": nasty, "salutation": "<p>Dear <b>team</b>,</p><ul><li>first</li></ul>", "items": [
            {"type": "title", "title": "Phase 1"},
            {"type": "item", "title": "Concept", "quantity": 2, "unit": "h", "unit_price": 50},
            {"type": "subtotal"},
            {"type": "page-break"},
            {"type": "item", "title": nasty, "net_total": 100, "description": "<p>with <i>care</i></p>"},
            {"type": "separator"}
        ], "discount": 10, "cash_discount": 2, "cash_discount_days": 7}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    let (status, ct, text) = pdf(&s, &format!("/invoices/{id}.pdf")).await;
    assert_eq!((status, ct.as_str()), (200, "application/pdf"));
    let pages: Vec<&str> = text
        .split('\u{c}')
        .filter(|p| !p.trim().is_empty())
        .collect();
    assert_eq!(
        pages.len(),
        2,
        "the page break starts a second page:\n{text}"
    );
    assert!(
        pages[0].contains("Rechnung R2611-001")
            && pages[0].contains("Concept")
            && pages[0].contains("Zwischensumme"),
        "{}",
        pages[0]
    );
    assert!(pages[0].contains("Dear team") && pages[0].contains("first"));
    assert!(
        pages[1].contains("Einzelpreis"),
        "header repeated on the next page"
    );
    assert!(
        pages[1].contains("#set page(width: 1cm) *bold* $x$ [a] <l> \\ @ref"),
        "markup stays text:\n{}",
        pages[1]
    );
    assert!(pages[1].contains("with care"));
    for expected in [
        "Netto",
        "180,00 EUR",
        "Rabatt 10 %",
        "USt. 19 %",
        "34,20 EUR",
        "Brutto",
        "214,20 EUR",
        "2 % Skonto",
        "Seite 2 von 2",
    ] {
        assert!(text.contains(expected), "{expected:?} missing:\n{text}");
    }
    assert!(text.contains("Kontor Demo GmbH"), "letterhead sender block");
    let (_, _, blank) = pdf(&s, &format!("/invoices/{id}.pdf?blank=true")).await;
    assert!(
        !blank.contains("Hauptstraße 1"),
        "blank paper has no sender block"
    );
    let (_, _, letterhead) = pdf(&s, &format!("/invoices/{id}.pdf?letter_paper_id=2")).await;
    assert!(
        letterhead.contains("www.kontor.example"),
        "letterhead footer line"
    );
    assert_eq!(
        pdf(&s, &format!("/invoices/{id}.pdf?letter_paper_id=77"))
            .await
            .0,
        404
    );
    assert_eq!(pdf(&s, "/invoices/999.pdf").await.0, 404);
}

#[tokio::test]
async fn signed_file_url_works_without_a_key_and_not_when_tampered() {
    let s = start().await;
    let c = s.customer("Link").await;
    let inv = s.invoice(c, json!({})).await.body;
    let url = inv["file_url"].as_str().unwrap().to_string();
    let r = reqwest::get(&url).await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "application/pdf");
    assert!(pdftotext(&r.bytes().await.unwrap()).contains("R2611-001"));
    let tampered = url.replace("/invoices/1.pdf", "/invoices/2.pdf");
    assert_eq!(reqwest::get(&tampered).await.unwrap().status(), 403);
    let expired = url.split("?expires=").next().unwrap().to_string() + "?expires=1&signature=00";
    assert_eq!(reqwest::get(&expired).await.unwrap().status(), 403);
}

#[tokio::test]
async fn timesheet_pdf_lists_hours_or_is_404() {
    let s = start().await;
    let c = s.customer("Timed").await;
    let project = s
        .create("/projects", json!({"name": "Relaunch", "customer_id": c}))
        .await;
    let a = s.create("/activities", json!({"date": "2026-11-02", "hours": 2.5, "description": "Wireframes", "project_id": project, "hourly_rate": 80})).await;
    let none = s.invoice(c, json!({})).await.body["id"].as_i64().unwrap();
    assert_eq!(
        pdf(&s, &format!("/invoices/{none}/timesheet.pdf")).await.0,
        404
    );
    let id = s.invoice(c, json!({"project_id": project, "items": [{"type": "item", "title": "Hours", "quantity": 2.5, "unit": "h", "unit_price": 80, "activity_ids": [a]}]})).await.body["id"].as_i64().unwrap();
    let (status, ct, text) = pdf(&s, &format!("/invoices/{id}/timesheet.pdf")).await;
    assert_eq!((status, ct.as_str()), (200, "application/pdf"));
    for expected in [
        "Stundennachweis",
        "Wireframes",
        "2,5",
        "Stunden gesamt",
        "200,00 EUR",
    ] {
        assert!(text.contains(expected), "{expected:?} missing:\n{text}");
    }
}

#[tokio::test]
async fn preview_renders_an_unsaved_body_and_stores_nothing() {
    let s = start().await;
    let c = s.customer("Preview").await;
    let r = s.invoice_preview(&json!({"customer_id": c, "title": "Draft in progress", "currency": "EUR", "tax": 19, "items": [{"type": "item", "title": "Half written", "quantity": 3, "unit_price": 10}]})).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "application/pdf");
    let text = pdftotext(&r.bytes().await.unwrap());
    assert!(
        text.contains("Draft in progress")
            && text.contains("Half written")
            && text.contains("35,70 EUR"),
        "{text}"
    );
    assert_eq!(s.get("/invoices").await.header("x-total"), "0");
}

/// Issue 30: the preview is built by the same constructor as the invoice it previews —
/// without a `recipient_address` both address the customer (before, the preview printed
/// no address while the stored invoice had the customer's).
#[tokio::test]
async fn the_preview_addresses_the_customer_as_the_stored_invoice_does() {
    let s = start().await;
    let c = s
        .create(
            "/companies",
            json!({"name": "Ärztehaus Süd GmbH", "address": "Lindenallee 7\n20259 Hamburg"}),
        )
        .await;
    let body = json!({"customer_id": c, "title": "Beratung", "currency": "EUR", "tax": 19,
        "items": [{"type": "item", "title": "Stunde", "quantity": 1, "unit_price": 100}]});
    let r = s.invoice_preview(&body).await;
    assert_eq!(r.status(), 200);
    let preview = pdftotext(&r.bytes().await.unwrap());
    let mut draft = body.clone();
    draft["status"] = json!("draft");
    let stored = s.post("/invoices", draft).await;
    assert_eq!(stored.status, 200, "{}", stored.body);
    assert_eq!(
        stored.body["recipient_address"],
        "Ärztehaus Süd GmbH\nLindenallee 7\n20259 Hamburg"
    );
    let id = stored.body["id"].as_i64().unwrap();
    let (status, _, printed) = pdf(&s, &format!("/invoices/{id}.pdf")).await;
    assert_eq!(status, 200);
    for line in ["Ärztehaus Süd GmbH", "Lindenallee 7", "20259 Hamburg"] {
        assert!(
            preview.contains(line),
            "{line:?} missing in the preview:\n{preview}"
        );
        assert!(
            printed.contains(line),
            "{line:?} missing in the invoice:\n{printed}"
        );
    }
}
