//! Issue 15 § 4 in Chromium against the real server with the release bundle: an admin
//! sees the change history of an invoice (its title change with the value before and
//! after, the payment), of a company and of the settings, in English and in German,
//! light and dark at 1280 and 1024 px; a staff member sees no change history.

use kontor_e2e::{Browser, Server};
use serde_json::json;
use std::time::Duration;

const PASSWORD: &str = "Kupfer-Laterne-Hafen-1987";

async fn shots(b: &Browser, name: &str) {
    for theme in ["light", "dark"] {
        b.set_theme(theme).await;
        b.client
            .execute(
                "document.querySelector('.audit-history')?.scrollIntoView()",
                vec![],
            )
            .await
            .unwrap();
        b.two_width_screenshots(name, theme).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn an_admin_reads_who_changed_what() {
    let (server, customer) = Server::with_customer("Hafen Logistik GmbH").await;
    let draft = server
        .post(
            "/invoices",
            json!({"customer_id": customer, "status": "draft", "recipient_address": "Hafen Logistik GmbH\nHafenstraße 5\n20457 Hamburg",
                "date": "2026-11-02", "due_date": "2099-12-31", "title": "Lagerung Oktober", "tax": 19, "currency": "EUR",
                "items": [{"type": "item", "title": "Lagerfläche", "quantity": 1, "unit": "Monat", "unit_price": 100}]}),
        )
        .await;
    let id = draft["id"].as_i64().unwrap();
    let mut body = draft.clone();
    body["title"] = json!("Lagerung November");
    server.put(&format!("/invoices/{id}"), body).await;
    server
        .put(
            &format!("/invoices/{id}/update_status"),
            json!({"status": "created"}),
        )
        .await;
    server
        .post(
            "/invoices/payments",
            json!({"invoice_id": id, "date": "2026-11-20", "paid_total": 50}),
        )
        .await;

    let b = Browser::start().await;
    b.client.set_window_size(1280, 900).await.unwrap();
    b.sign_in(&server.base, &server.key).await;
    b.open(&server.base, &format!("/invoices/{id}/history"))
        .await;
    b.wait_text("Change history").await;
    b.wait_js(
        "return [...document.querySelectorAll('.audit-table tbody tr')].some(r => \
            r.textContent.includes('Invoice changed') && r.textContent.includes('Lagerung Oktober') \
            && r.textContent.includes('Lagerung November'));",
        vec![],
    )
    .await;
    b.wait_js(
        "return [...document.querySelectorAll('.audit-table tbody tr')].some(r => r.textContent.includes('Payment created'));",
        vec![],
    )
    .await;
    shots(&b, "audit-01-invoice-history").await;

    // The company and the settings.
    server
        .put(
            &format!("/companies/{customer}"),
            json!({"name": "Hafen Logistik AG"}),
        )
        .await;
    b.open(&server.base, &format!("/customers/{customer}"))
        .await;
    b.wait_js(
        "return [...document.querySelectorAll('.audit-table tbody tr')].some(r => r.textContent.includes('Company changed') && r.textContent.includes('Hafen Logistik AG'));",
        vec![],
    )
    .await;
    shots(&b, "audit-02-company-history").await;

    // German.
    b.client
        .execute("localStorage.setItem('kontor.language', 'de');", vec![])
        .await
        .unwrap();
    b.open(&server.base, &format!("/invoices/{id}/history"))
        .await;
    b.wait_text("Änderungsprotokoll").await;
    b.wait_js(
        "return [...document.querySelectorAll('.audit-table tbody tr')].some(r => r.textContent.includes('Rechnung geändert'));",
        vec![],
    )
    .await;
    shots(&b, "audit-03-invoice-history-de").await;
    b.open(&server.base, "/settings").await;
    b.wait_text("Änderungsprotokoll").await;
    shots(&b, "audit-04-settings-history-de").await;
    b.close().await;

    // Staff see no change history (the server would refuse them anyway).
    server
        .user("sam@kontor.test", "Sam", "Staff", "staff", PASSWORD)
        .await;
    let b = Browser::start().await;
    b.client.set_window_size(1280, 900).await.unwrap();
    b.open(&server.base, "/sign-in").await;
    b.find("#email").await;
    b.fill("#email", "sam@kontor.test").await;
    b.fill("#password", PASSWORD).await;
    b.click("#sign-in-submit").await;
    b.wait_js("return location.pathname.endsWith('/dashboard');", vec![])
        .await;
    b.open(&server.base, &format!("/invoices/{id}/history"))
        .await;
    b.wait_js(
        "return !!document.querySelector('.timeline, .timeline-empty');",
        vec![],
    )
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let shown = b
        .client
        .execute("return !!document.querySelector('.audit-history');", vec![])
        .await
        .unwrap();
    assert_eq!(shown, json!(false));
    b.close().await;
}
