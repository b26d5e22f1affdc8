//! Issue 3 ("Invoices, complete") in real Chromium against the real server with the
//! release bundle: the PDF in the detail page and the form's live preview, payments
//! moving the status, sending by e-mail to a real SMTP server (aiosmtpd), reversal, and
//! billing time through the form's picker.

use kontor_e2e::{dist, plain_smtp, Browser, Server, SmtpServer};
use kontor_server::config::AccountConfig;
use serde_json::Value;
use std::time::Duration;

const BADGE: &str = ".detail-head h1 .badge";

async fn started(account: AccountConfig) -> (Server, Browser, Value) {
    let server = Server::start_with(Some(dist()), vec![], account).await;
    let customer = server.customer("Hafen Logistik GmbH").await;
    let invoice = server.invoice(customer, "Harbour consulting").await;
    let b = server.signed_in_browser().await;
    (server, b, invoice)
}

fn id_and_number(invoice: &Value) -> (i64, String) {
    (
        invoice["id"].as_i64().unwrap(),
        invoice["identifier"].as_str().unwrap().to_string(),
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn the_pdf_shows_in_the_detail_page_and_beside_the_form() {
    let (server, b, invoice) = started(AccountConfig::default()).await;
    let (id, number) = id_and_number(&invoice);
    b.open(&server.base, &format!("/invoices/{id}")).await;
    b.click("#tab-document").await;
    let frame = "iframe.pdf-frame[src^='blob:']";
    let first = b.find(frame).await.attr("src").await.unwrap().unwrap();
    assert!(first.starts_with("blob:http://127.0.0.1"), "{first}");
    let inside = b.fetch_in_page(&first).await;
    assert!(
        inside.starts_with("application/pdf ") && inside.ends_with("%PDF"),
        "{inside}"
    );
    let download = b
        .find(&format!("a.pdf-download[download='{number}.pdf']"))
        .await;
    assert_eq!(
        download.attr("href").await.unwrap().as_deref(),
        Some(first.as_str())
    );
    // The PDF viewer paints.
    b.screenshot_after(Duration::from_secs(2), "06-detail-document")
        .await;

    b.select("#doc-paper", "2").await; // Letterhead: fetched again, old URL revoked
    let changed = "const f = document.querySelector(arguments[0]); return !!f && f.src !== arguments[1] && f.src;";
    let second = b
        .wait_js(changed, vec![frame.into(), first.clone().into()])
        .await;
    assert!(second.as_str().unwrap().starts_with("blob:"));
    assert_eq!(
        b.fetch_in_page(&first).await,
        "failed",
        "the replaced URL is revoked"
    );

    let pdf = server.get_raw(&format!("/invoices/{id}.pdf")).await;
    assert_eq!(
        (pdf.status, pdf.content_type.as_str()),
        (200, "application/pdf")
    );
    assert!(pdf.bytes.starts_with(b"%PDF"));

    b.client.set_window_size(1600, 1000).await.unwrap();
    b.open(&server.base, "/invoices/new").await;
    b.pick_company("#f-customer_id", "Hafen Logistik GmbH")
        .await;
    b.wait_picked("#f-customer_id", &invoice["customer_id"].to_string())
        .await;
    b.fill("#f-title", "Preview while typing").await;
    let row = |field: &str| {
        format!(".pe-table tbody tr[data-row-key]:nth-of-type(1) [data-field={field}]")
    };
    b.fill(&row("title"), "Harbour survey").await;
    b.fill(&row("quantity"), "3").await;
    b.fill(&row("unit_price"), "80").await;
    let live = ".live-preview iframe.pdf-frame[src^='blob:']";
    let shown = b.find(live).await.attr("src").await.unwrap().unwrap();
    b.fill(&row("quantity"), "4").await;
    b.wait_js(changed, vec![live.into(), shown.clone().into()])
        .await;
    let idle = "return document.querySelector('[data-rendering]').dataset.rendering === 'false';";
    b.wait_js(idle, vec![]).await;
    assert_eq!(
        b.fetch_in_page(&shown).await,
        "failed",
        "the older preview is revoked"
    );
    let positions = b.find("#sec-items").await;
    let arg = serde_json::to_value(&positions).unwrap();
    b.client
        .execute("arguments[0].scrollIntoView({block: 'start'})", vec![arg])
        .await
        .unwrap();
    b.screenshot_after(Duration::from_secs(2), "07-form-live-preview")
        .await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn payments_move_the_status_to_partially_paid_and_paid() {
    let (server, b, invoice) = started(AccountConfig::default()).await;
    let (id, _) = id_and_number(&invoice);
    b.open(&server.base, &format!("/invoices/{id}")).await;
    b.click("#tab-payments").await;
    b.click("#add-payment").await;
    b.find("dialog[open] #payment-amount").await;
    assert_eq!(
        b.prop("#payment-amount", "value").await,
        "119.00",
        "the open amount"
    );
    b.fill("#payment-amount", "50").await;
    b.screenshot("08-payment-dialog").await;
    b.click_in_dialog("Save payment").await;
    b.wait_text_of(BADGE, "Partially paid").await;
    b.wait_text("open 69.00 EUR").await;

    b.click("#add-payment").await;
    b.find("dialog[open] #payment-amount").await;
    assert_eq!(b.prop("#payment-amount", "value").await, "69.00");
    b.click_in_dialog("Save payment").await;
    b.wait_text_of(BADGE, "Paid").await;
    assert!(b.body_text().await.contains("open 0.00 EUR"));

    b.click("button[aria-label='Delete the payment of 69.00 EUR']")
        .await;
    b.click_in_dialog("Delete payment").await;
    b.wait_text_of(BADGE, "Partially paid").await;
    let stored = server.get(&format!("/invoices/{id}")).await;
    assert_eq!(stored["status"], "partially_paid");
    assert_eq!(stored["payments"].as_array().unwrap().len(), 1);
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_invoice_goes_out_by_email_with_its_pdf() {
    let mail = SmtpServer::start().await;
    let account = AccountConfig {
        smtp: Some(mail.config()),
        ..AccountConfig::default()
    };
    let (server, b, invoice) = started(account).await;
    let (id, number) = id_and_number(&invoice);
    b.open(&server.base, &format!("/invoices/{id}")).await;
    b.click("#send-email").await;
    let to = "return document.querySelector('#email-to').value;";
    assert_eq!(
        b.wait_js(to, vec![]).await,
        "billing@example.com",
        "the customer's e-mail"
    );
    // Written in the customer's language (German), whatever the user's (issue 29).
    assert_eq!(
        b.prop("#email-subject", "value").await,
        format!("Rechnung {number}")
    );
    let text = b.prop("#email-text", "value").await;
    assert!(text.starts_with("Sehr geehrte Damen und Herren,"), "{text}");
    assert!(text.contains("119,00 €"), "{text}");
    b.fill("#email-cc", "boss@example.com").await;
    b.screenshot("09-email-dialog").await;
    b.click_in_dialog("Send").await;
    b.wait_text(&format!(
        "Invoice {number} sent to billing@example.com (CC boss@example.com)."
    ))
    .await;
    b.wait_text_of(BADGE, "Sent").await;

    let message = mail
        .wait_message(&format!("Subject: Rechnung {number}"))
        .await;
    assert!(message.contains("billing@example.com") && message.contains("boss@example.com"));
    assert!(message.contains("application/pdf"), "{message}");
    assert!(
        message.contains(&format!("filename=\"{number}.pdf\""))
            || message.contains(&format!("filename={number}.pdf")),
        "{message}"
    );
    b.close().await;

    // A mail server that cannot be reached: the server's message stays in the dialog.
    let nowhere = AccountConfig {
        smtp: Some(plain_smtp(kontor_e2e::free_port())),
        ..AccountConfig::default()
    };
    let (server, b, invoice) = started(nowhere).await;
    b.open(&server.base, &format!("/invoices/{}", invoice["id"]))
        .await;
    b.click("#send-email").await;
    b.wait_js(to, vec![]).await;
    b.click_in_dialog("Send").await;
    let alert = "const e = document.querySelector('dialog[open] .field-error[role=alert]'); return !!e && e.textContent;";
    let shown = b.wait_js(alert, vec![]).await;
    assert!(!shown.as_str().unwrap().is_empty());
    assert_eq!(
        server.get(&format!("/invoices/{}", invoice["id"])).await["status"],
        "created"
    );
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn reversing_lands_on_the_reversal_invoice() {
    let (server, b, invoice) = started(AccountConfig::default()).await;
    let (id, number) = id_and_number(&invoice);
    b.open(&server.base, &format!("/invoices/{id}")).await;
    b.click("#reverse").await;
    b.wait_text("every position of this invoice negated").await;
    b.click("#confirm-reverse").await;
    let moved = "return location.pathname !== arguments[0] && location.pathname;";
    let path = b
        .wait_js(moved, vec![format!("/invoices/{id}").into()])
        .await;
    // The customer reads German: the reversal is titled in their language (issue 29).
    b.wait_text(&format!("Stornorechnung zu Rechnung {number}"))
        .await;
    assert!(
        b.body_text().await.contains("-119.00 EUR"),
        "negated gross total"
    );
    let reversal: i64 = path
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let stored = server.get(&format!("/invoices/{reversal}")).await;
    assert_eq!(
        (
            stored["reversal"].as_bool(),
            stored["gross_total"].to_string()
        ),
        (Some(true), "-119.00".into())
    );

    b.click(&format!("[data-reversal-link='{id}'] a")).await;
    b.wait_text("Reversed by invoice").await;
    assert_eq!(b.path().await, format!("/invoices/{id}"));
    assert!(
        b.client
            .find(fantoccini::Locator::Css("#reverse"))
            .await
            .is_err(),
        "reversed once only"
    );
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn time_is_billed_through_the_picker() {
    let (server, b, invoice) = started(AccountConfig::default()).await;
    let customer = invoice["customer_id"].as_i64().unwrap();
    let (project, ids) = server
        .project_with_time(
            customer,
            &[("2.5", "Kick-off workshop"), ("4", "Design review")],
        )
        .await;
    b.open(&server.base, "/invoices/new").await;
    b.pick_company("#f-customer_id", "Hafen Logistik GmbH")
        .await;
    b.wait_picked("#f-customer_id", &customer.to_string()).await;
    b.fill("#f-title", "Billed time").await;
    let option = format!("#f-project_id option[value='{project}']");
    b.find(&option).await;
    b.select("#f-project_id", &project.to_string()).await;
    b.click("#bill-time").await;
    for id in &ids {
        b.click(&format!("[data-bill='activity-{id}']")).await;
    }
    b.click("#bill-add").await;
    b.wait_text("Bills 1 time entry").await;
    b.click("form button[type=submit]").await;
    b.click("dialog[open] #finalize-confirm").await;
    b.wait_text("Time sheet").await;
    b.click("#tab-timesheet").await;
    b.wait_text_of("[data-total=hours]", "6.5 h").await;
    // The tab is in the address (`/invoices/12/timesheet`); the invoice is `/invoices/12`.
    let path = b.path().await;
    assert!(path.ends_with("/timesheet"), "{path}");
    let path = path.trim_end_matches("/timesheet");
    let created = server.get(path).await;
    let items = created["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(
        (items[0]["unit"].as_str(), items[0]["quantity"].to_string()),
        (Some("h"), "2.5".into())
    );
    for id in ids {
        let a = server.get(&format!("/activities/{id}")).await;
        assert_eq!(
            (a["billed"].as_bool(), a["invoice_id"].clone()),
            (Some(true), created["id"].clone())
        );
    }
    b.close().await;
}
