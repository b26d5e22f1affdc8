//! Issue 33 § Down-payment and final invoices in Chromium against the real server: bill
//! an offer of 10,000.00 net in two down payments of 10 % from the offer's page, then
//! the final invoice, which starts deducting both; its open amount is the amount due
//! (11,900.00 − 2 × 1,190.00 = 9,520.00). English and German, light and dark.

use kontor_e2e::{dist, Browser, Server};
use serde_json::json;

/// Finalizes the invoice form and waits for the new invoice's page; returns its id.
async fn finalize(b: &Browser) -> i64 {
    b.click("form button[type=submit]").await;
    b.click("dialog[open] #finalize-confirm").await;
    b.wait_js(
        "return /^\\/invoices\\/\\d+$/.test(location.pathname);",
        vec![],
    )
    .await;
    b.path().await.rsplit('/').next().unwrap().parse().unwrap()
}

/// From the offer's page: a down payment of `percent` % through the dialog.
async fn down_payment(b: &Browser, base: &str, offer: i64, percent: &str) -> i64 {
    b.open(base, &format!("/offers/{offer}")).await;
    b.click("#create-down-payment").await;
    b.fill("#down-payment-value", percent).await;
    b.click("#down-payment-continue").await;
    b.wait_js(
        "return location.pathname.endsWith('/invoices/new') && document.querySelector('#f-kind')?.value === 'down_payment';",
        vec![],
    )
    .await;
    finalize(b).await
}

#[tokio::test(flavor = "multi_thread")]
async fn an_offer_billed_in_two_down_payments_and_a_final_invoice() {
    let server = Server::start(Some(dist()), vec![]).await;
    let customer = server.customer("Baumeister GmbH").await;
    let offer = server
        .post(
            "/offers",
            json!({"company_id": customer, "title": "Neubau Website", "recipient_address": "Baumeister GmbH\nRing 1\n10115 Berlin",
                "date": "2026-11-02", "due_date": "2026-12-02", "tax": 19,
                "items": [{"type": "item", "title": "Website", "quantity": 1, "unit_price": 10000}]}),
        )
        .await;
    let offer_id = offer["id"].as_i64().unwrap();
    // The customer accepted it: it can be billed.
    server
        .put(
            &format!("/offers/{offer_id}/update_status"),
            json!({"status": "accepted"}),
        )
        .await;
    let b = server.signed_in_browser().await;

    // The dialog refuses a share the offer cannot give.
    b.open(&server.base, &format!("/offers/{offer_id}")).await;
    b.click("#create-down-payment").await;
    b.fill("#down-payment-value", "150").await;
    b.click("#down-payment-continue").await;
    b.wait_contains("#down-payment-error", "up to 100").await;
    b.theme_screenshots("down-payment-01-dialog").await;

    let first = down_payment(&b, &server.base, offer_id, "10").await;
    let stored = server.get(&format!("/invoices/{first}")).await;
    assert_eq!(stored["kind"], "down_payment");
    assert_eq!(stored["gross_total"].to_string(), "1190.00");
    let number = offer["identifier"].as_str().unwrap();
    assert_eq!(
        stored["title"],
        format!("Abschlag 1 auf Angebot {number}"),
        "{stored}"
    );
    b.wait_text("Down-payment invoice").await;
    let second = down_payment(&b, &server.base, offer_id, "10").await;
    assert_eq!(
        server.get(&format!("/invoices/{second}")).await["title"],
        format!("Abschlag 2 auf Angebot {number}")
    );

    // "Create invoice" on the offer: a final invoice deducting both.
    b.open(&server.base, &format!("/offers/{offer_id}")).await;
    b.wait_text("(Down-payment invoice)").await;
    b.click("#create-invoice").await;
    b.wait_js(
        "return document.querySelector('#f-kind')?.value === 'final';",
        vec![],
    )
    .await;
    let checked = "const n = document.querySelectorAll('[data-down-payment]:checked').length; return n === 2 && n;";
    assert_eq!(b.wait_js(checked, vec![]).await, 2);
    b.wait_contains("#deducted-sum", "2,380.00").await;
    b.theme_screenshots("down-payment-02-final-form").await;
    let fin = finalize(&b).await;
    b.wait_contains("#amount-due", "9,520.00").await;
    b.wait_contains("#detail-open", "9,520.00").await;
    let stored = server.get(&format!("/invoices/{fin}")).await;
    assert_eq!(stored["kind"], "final");
    assert_eq!(stored["amount_due"].to_string(), "9520.00");
    assert_eq!(
        stored["deducted_down_payments"].as_array().unwrap().len(),
        2
    );
    b.theme_screenshots("down-payment-03-final-invoice").await;

    // A deducted down payment names its final invoice.
    b.open(&server.base, &format!("/invoices/{first}")).await;
    b.find("#deducted-by").await;

    // German.
    b.client
        .execute("localStorage.setItem('kontor.language', 'de');", vec![])
        .await
        .unwrap();
    b.open(&server.base, &format!("/invoices/{fin}")).await;
    b.wait_text("Schlussrechnung").await;
    b.wait_contains("#amount-due", "9.520,00").await;
    // Issue 34: a finalized invoice reads "Festgeschrieben: ja", never "nein".
    let text = b.body_text().await;
    assert!(text.contains("ja – nummeriert"), "{text}");
    assert!(!text.contains("nein – Entwurf"), "{text}");
    b.theme_screenshots("down-payment-04-final-invoice-de")
        .await;
    b.close().await;
}
