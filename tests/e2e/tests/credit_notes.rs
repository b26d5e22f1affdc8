//! Issue 33 § Credit notes in Chromium against the real server: credit one position of an
//! invoice from its page — part of its quantity — and see the open amount drop; the
//! credit note opens, names the invoice, and the invoice lists it. A credit above what is
//! left shows the server's message in the dialog. English and German, light and dark.

use kontor_e2e::{dist, Server};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn crediting_a_position_from_the_invoice_page_lowers_the_open_amount() {
    let server = Server::start(Some(dist()), vec![]).await;
    let customer = server.customer("Hafen Logistik GmbH").await;
    let invoice = server
        .post(
            "/invoices",
            json!({"customer_id": customer, "recipient_address": "Hafen Logistik GmbH\nHafenstraße 5\n20457 Hamburg",
                "date": "2026-11-02", "due_date": "2099-12-31", "title": "Lagerumbau", "tax": 19, "currency": "EUR",
                "items": [
                    {"type": "item", "title": "Montage", "quantity": 10, "unit": "h", "unit_price": 80},
                    {"type": "item", "title": "Anfahrt", "net_total": 50}
                ]}),
        )
        .await;
    let id = invoice["id"].as_i64().unwrap();
    let number = invoice["identifier"].as_str().unwrap().to_string();
    let montage = invoice["items"][0]["id"].as_i64().unwrap();
    let b = server.signed_in_browser().await;
    b.open(&server.base, &format!("/invoices/{id}")).await;
    // (800 + 50) × 1.19 = 1,011.50 open.
    b.wait_contains("#detail-open", "1,011.50").await;
    b.click("#credit-note").await;
    b.wait_text("Pick the positions to credit").await;
    b.click(&format!("#credit-pos-{montage}")).await;
    b.fill(&format!("#credit-qty-{montage}"), "2.5").await;
    b.theme_screenshots("credit-note-01-dialog").await;

    // More than the invoice: the server's message stays in the dialog.
    b.fill("#credit-free-title", "Kulanz").await;
    b.fill("#credit-free-amount", "5000").await;
    b.click("#confirm-credit-note").await;
    b.wait_contains("#credit-note-errors", "1,011.50 EUR is left to credit")
        .await;
    assert_eq!(
        server.get(&format!("/invoices/{id}")).await["credit_notes"],
        json!([]),
        "nothing was stored"
    );

    // 2.5 h of Montage and 20.00 goodwill: (200 + 20) × 1.19 = 261.80.
    b.fill("#credit-free-amount", "20").await;
    b.click("#confirm-credit-note").await;
    let moved = "return location.pathname !== arguments[0] && location.pathname;";
    let path = b
        .wait_js(moved, vec![format!("/invoices/{id}").into()])
        .await;
    let note: i64 = path
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    b.wait_text(&format!("Rechnungskorrektur zu Rechnung {number}"))
        .await;
    b.find(&format!("[data-credited-invoice='{id}']")).await;
    assert!(
        b.body_text().await.contains("-261.80 EUR"),
        "negative gross"
    );
    let stored = server.get(&format!("/invoices/{note}")).await;
    assert_eq!(stored["credit_note"], true);
    assert_eq!(stored["gross_total"].to_string(), "-261.80");

    // Back on the invoice: 749.70 open, the credit note listed with its amount.
    b.click(&format!("[data-credited-invoice='{id}'] a")).await;
    b.wait_contains("#detail-open", "749.70").await;
    b.wait_contains("#credit-notes", stored["identifier"].as_str().unwrap())
        .await;
    b.theme_screenshots("credit-note-02-invoice").await;

    // German: the same page and dialog in German.
    b.client
        .execute("localStorage.setItem('kontor.language', 'de');", vec![])
        .await
        .unwrap();
    b.client.refresh().await.unwrap();
    b.wait_text("Rechnungskorrekturen:").await;
    b.click("#credit-note").await;
    b.wait_text("Wählen Sie die Positionen").await;
    b.theme_screenshots("credit-note-03-dialog-de").await;
    b.close().await;
}
