//! Issue 11 § Timeline and "detail tabs are in the URL", in real Chromium against the real
//! server with the release bundle: an invoice sent by e-mail to a real SMTP server
//! (aiosmtpd) shows "Sent to …" with the message's Message-ID in its History tab at
//! `/invoices/N/history`; choosing tabs changes the URL and Back returns to the previous
//! tab; `/invoices/N/edit` still opens the editor. Screenshots light and dark at 1280 and
//! 1024 px.

use kontor_e2e::{Browser, Server, SmtpServer};
use serde_json::json;

const SELECTED: &str =
    "const t = document.querySelector('[role=tab][aria-selected=true]'); return !!t && t.id;";

/// Waits until the selected tab is `tab-<slug>` and the URL path is `path`.
async fn wait_tab(b: &Browser, slug: &str, path: &str) {
    let script = format!(
        "const t = document.querySelector('[role=tab][aria-selected=true]'); \
         return !!t && t.id === 'tab-{slug}' && location.pathname === '{path}';"
    );
    b.wait_js(&script, vec![]).await;
}

/// The `Message-ID` header of a raw message.
fn message_id(message: &str) -> String {
    message
        .lines()
        .take_while(|l| !l.is_empty())
        .find_map(|l| {
            let lower = l.to_ascii_lowercase();
            lower
                .starts_with("message-id:")
                .then(|| l["message-id:".len()..].trim().to_string())
        })
        .expect("a Message-ID header")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_sent_invoice_shows_sent_in_its_history_tab() {
    let mail = SmtpServer::start().await;
    let server = Server::start_with_smtp(&mail).await;
    let customer = server.customer("Hafen Logistik GmbH").await;
    let invoice = server.invoice(customer, "Harbour consulting").await;
    let id = invoice["id"].as_i64().unwrap();
    let number = invoice["identifier"].as_str().unwrap().to_string();
    let b = server.signed_in_browser().await;

    b.open(&server.base, &format!("/invoices/{id}")).await;
    b.click("#send-email").await;
    b.wait_js("return document.querySelector('#email-to').value;", vec![])
        .await;
    b.click_in_dialog("Send").await;
    b.wait_text(&format!("Invoice {number} sent to billing@example.com"))
        .await;
    let received = mail
        .wait_message(&format!("Subject: Rechnung {number}"))
        .await;
    let id_header = message_id(&received);

    // The History tab: its own URL, the newest entry first.
    b.click("#tab-history").await;
    wait_tab(&b, "history", &format!("/invoices/{id}/history")).await;
    b.wait_text("Sent to billing@example.com").await;
    let first = "const e = document.querySelector('.timeline .timeline-item'); return !!e && e.dataset.eventKind;";
    assert_eq!(b.wait_js(first, vec![]).await, "sent", "newest first");
    b.wait_text(&format!("Message-ID {id_header}")).await;
    b.wait_text(&format!("Finalized as {number}")).await;
    b.theme_screenshots("timeline-01-history").await;

    // Opened directly (a link, a reload), the URL selects the tab.
    b.open(&server.base, &format!("/invoices/{id}/history"))
        .await;
    wait_tab(&b, "history", &format!("/invoices/{id}/history")).await;
    b.wait_text("Sent to billing@example.com").await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn tabs_are_urls_and_back_returns_to_the_previous_tab() {
    let (server, customer) = Server::with_customer("Hafen Logistik GmbH").await;
    let invoice = server.invoice(customer, "Harbour consulting").await;
    let id = invoice["id"].as_i64().unwrap();
    let b = server.signed_in_browser().await;

    let overview = format!("/invoices/{id}");
    b.open(&server.base, &overview).await;
    wait_tab(&b, "overview", &overview).await;
    b.click("#tab-payments").await;
    wait_tab(&b, "payments", &format!("/invoices/{id}/payments")).await;
    b.theme_screenshots("timeline-02-payments-tab").await;
    b.client.back().await.expect("back");
    wait_tab(&b, "overview", &overview).await;
    b.client.forward().await.expect("forward");
    wait_tab(&b, "payments", &format!("/invoices/{id}/payments")).await;

    // Arrow keys still move between tabs (and the URL follows).
    let tab = b.find("#tab-payments").await;
    tab.send_keys("\u{E014}").await.expect("ArrowRight");
    wait_tab(&b, "timesheet", &format!("/invoices/{id}/timesheet")).await;
    let focused = "return document.activeElement && document.activeElement.id;";
    assert_eq!(b.wait_js(focused, vec![]).await, "tab-timesheet");
    assert_eq!(
        b.wait_js(SELECTED, vec![]).await,
        "tab-timesheet",
        "one tab selected"
    );

    // An unknown tab is "Not found"; the editor keeps its own URL.
    b.open(&server.base, &format!("/invoices/{id}/nonsense"))
        .await;
    b.wait_text("This invoice page does not exist.").await;
    b.open(&server.base, &format!("/invoices/{id}/edit")).await;
    b.wait_text("Only drafts can be edited. This invoice is final.")
        .await;
    assert!(b
        .client
        .find(fantoccini::Locator::Css("[role=tablist]"))
        .await
        .is_err());
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn offers_and_purchases_show_their_history_section() {
    let (server, customer) = Server::with_customer("Kranzler Bau GmbH").await;
    let offer = server.offer(customer, "Facade offer").await;
    let offer_id = offer["id"].as_i64().unwrap();
    let copy = server
        .post(&format!("/offers/{offer_id}/copy"), json!({}))
        .await;
    let purchase = server.office_chairs().await;
    server
        .post(
            "/purchases/payments",
            json!({"purchase_id": purchase["id"], "date": "2026-11-12", "total": 119}),
        )
        .await;
    let b = server.signed_in_browser().await;

    b.open(&server.base, &format!("/offers/{offer_id}")).await;
    b.wait_text("Copied to offer #").await;
    let link =
        "const a = document.querySelector('.timeline a'); return !!a && a.getAttribute('href');";
    let href = b.wait_js(link, vec![]).await;
    assert!(
        href.as_str()
            .unwrap()
            .ends_with(&format!("/offers/{}", copy["id"])),
        "{href}"
    );
    let scroll =
        "document.querySelector('#history-title').scrollIntoView({block: 'start'}); return true;";
    b.wait_js(scroll, vec![]).await;
    b.theme_screenshots("timeline-03-offer").await;

    b.open(&server.base, &format!("/purchases/{}", purchase["id"]))
        .await;
    b.wait_text("Payment 119.00 EUR paid on").await;
    let kinds = "return Array.from(document.querySelectorAll('.timeline-item')).map(e => e.dataset.eventKind).join(',');";
    assert_eq!(b.wait_js(kinds, vec![]).await, "payment,created");
    let scroll =
        "document.querySelector('#history-title').scrollIntoView({block: 'start'}); return true;";
    b.wait_js(scroll, vec![]).await;
    b.theme_screenshots("timeline-04-purchase").await;
    b.close().await;
}
