//! Issue 29 § Books that stay whole, in real Chromium against the real server with the
//! release bundle: a reversed invoice reads "Reversed" in the list and on its page, and
//! offers no delete; a finalized invoice offers "Delete" to an admin but not to staff
//! (staff delete drafts); without an SMTP server sending says "put in the outbox";
//! "Create invoice" from an offer starts with the customer's payment term and Skonto.

use kontor_e2e::{dist, Browser, Server};
use kontor_server::config::AccountConfig;
use serde_json::json;

const BADGE: &str = ".detail-head h1 .badge";
const PASSWORD: &str = "Kupfer-Tisch-Regen-42";

/// Opens invoice `id` and checks whether it offers "Delete": once the page's actions and
/// the signed-in user (who decides what is offered) are there, the button must appear
/// (`offered`) or stay away for a second.
async fn assert_delete(b: &Browser, base: &str, id: i64, offered: bool) {
    b.open(base, &format!("/invoices/{id}")).await;
    b.wait_js(
        "return !!document.querySelector('#invoice-copy') && !!document.querySelector('.detail-head h1 .badge') \
         && (document.querySelector('#user-menu-button')?.textContent.trim().length ?? 0) > 0;",
        vec![],
    )
    .await;
    let delete = "return [...document.querySelectorAll('.page-actions button')].some(b => b.textContent.trim() === 'Delete');";
    if offered {
        b.wait_js(delete, vec![]).await;
    } else {
        for _ in 0..10 {
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            let shown = b
                .wait_js(
                    &format!(
                        "return String({});",
                        &delete["return ".len()..delete.len() - 1]
                    ),
                    vec![],
                )
                .await;
            assert_eq!(shown, "false", "invoice {id} offers Delete");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn reversed_reads_reversed_and_delete_is_offered_only_where_the_rules_allow() {
    let server = Server::start_with(Some(dist()), vec![], AccountConfig::default()).await;
    let customer = server.customer("Hafen Logistik GmbH").await;
    let reversed = server.invoice(customer, "Harbour consulting").await;
    let rid = reversed["id"].as_i64().unwrap();
    let reversal = server
        .post(&format!("/invoices/{rid}/reverse"), json!({}))
        .await;
    let reversal_id = reversal["id"].as_i64().unwrap();
    let finalized = server.invoice(customer, "Quay survey").await["id"]
        .as_i64()
        .unwrap();
    let draft = server
        .create(
            "/invoices",
            json!({"customer_id": customer, "recipient_address": "Hafen Logistik GmbH",
                   "date": "2026-11-03", "due_date": "2026-11-17", "title": "Draft work",
                   "tax": 19, "currency": "EUR", "status": "draft",
                   "items": [{"type": "item", "title": "Hours", "quantity": 1, "unit_price": 80}]}),
        )
        .await;

    let b = server.signed_in_browser().await;
    // The list: the reversed invoice's badge says so.
    let row_badge = format!(
        "return document.querySelector(\"tr[data-id='{rid}'] .badge\")?.textContent.trim();"
    );
    assert_eq!(b.wait_js(&row_badge, vec![]).await, "Reversed");
    b.theme_screenshots("books-01-list-reversed").await;
    // Its page: "Reversed", and neither it nor its reversal can be deleted.
    assert_delete(&b, &server.base, rid, false).await;
    b.wait_text_of(BADGE, "Reversed").await;
    b.theme_screenshots("books-02-reversed").await;
    assert_delete(&b, &server.base, reversal_id, false).await;
    // An admin may delete a finalized invoice that was neither sent nor paid.
    assert_delete(&b, &server.base, finalized, true).await;
    // The customer's page shows the server's open amount: a reversed invoice has nothing
    // open (issue 30: the page counted it as open before).
    b.open(&server.base, &format!("/customers/{customer}"))
        .await;
    let row = format!(
        "const a = document.querySelector(\".table-docs a[href$='/invoices/{rid}']\"); \
         const r = a && a.closest('tr'); return !!r && r.querySelector('.badge').textContent.trim() + '|' + r.lastElementChild.textContent.trim();"
    );
    assert_eq!(b.wait_js(&row, vec![]).await, "Reversed|0.00 EUR");
    b.close().await;

    // Staff: drafts yes, finalized invoices no.
    server
        .user("jonas@kontor.test", "Jonas", "Weber", "staff", PASSWORD)
        .await;
    let b = Browser::start().await;
    b.sign_in_with_password(&server.base, "jonas@kontor.test", PASSWORD)
        .await;
    assert_delete(&b, &server.base, finalized, false).await;
    assert_delete(&b, &server.base, draft, true).await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn without_smtp_sending_says_put_in_the_outbox() {
    let server = Server::start_with(Some(dist()), vec![], AccountConfig::default()).await;
    let customer = server.customer("Hafen Logistik GmbH").await;
    let invoice = server.invoice(customer, "Harbour consulting").await;
    let b = server.signed_in_browser().await;
    b.open(&server.base, &format!("/invoices/{}", invoice["id"]))
        .await;
    b.click("#send-email").await;
    b.wait_js(
        "return document.querySelector('#email-to').value === 'billing@example.com';",
        vec![],
    )
    .await;
    b.click_in_dialog("Send").await;
    b.wait_text("Put in the outbox, not sent: no SMTP server is set up")
        .await;
    assert!(
        !b.body_text().await.contains("sent to billing@example.com"),
        "never says sent"
    );
    b.theme_screenshots("books-03-outbox").await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_invoice_from_an_offer_starts_with_the_customers_terms() {
    let server = Server::start_with(Some(dist()), vec![], AccountConfig::default()).await;
    let customer = server
        .create(
            "/companies",
            json!({"name": "Kranzler GmbH", "address": "Kurfürstendamm 18\n10719 Berlin",
                   "email": "billing@example.com", "default_invoice_due_days": 30,
                   "default_cash_discount": 2, "default_cash_discount_days": 10}),
        )
        .await;
    let offer = server
        .post(
            "/offers",
            json!({"company_id": customer, "recipient_address": "Kranzler GmbH", "date": "2026-11-02",
                   "due_date": "2026-11-30", "title": "Angebot Beratung", "tax": 19,
                   "items": [{"type": "item", "title": "Beratung", "quantity": 1, "unit_price": 1000}]}),
        )
        .await;
    let b = server.signed_in_browser().await;
    b.open(
        &server.base,
        &format!("/invoices/new?from_offer={}", offer["id"]),
    )
    .await;
    b.wait_js(
        "return document.querySelector('#f-cash_discount')?.value === '2';",
        vec![],
    )
    .await;
    assert_eq!(b.prop("#f-cash_discount_days", "value").await, "10");
    let (date, due) = (
        b.prop("#f-date", "value").await,
        b.prop("#f-due_date", "value").await,
    );
    let date = chrono::NaiveDate::parse_from_str(&date, "%Y-%m-%d").unwrap();
    let due = chrono::NaiveDate::parse_from_str(&due, "%Y-%m-%d").unwrap();
    assert_eq!((due - date).num_days(), 30, "the customer's payment term");
    b.theme_screenshots("books-04-from-offer").await;
    b.close().await;
}
