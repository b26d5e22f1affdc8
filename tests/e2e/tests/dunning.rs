//! Issue 14 § Done when, in real Chromium against the real server with the release bundle
//! and a real SMTP server (aiosmtpd): from the Dunning page, two overdue invoices are
//! reminded at once (their second level, with its fee) and sent by e-mail; the page shows
//! the progress and a result per invoice; the reminder letter opens in the page and
//! `pdftotext` finds the open amount and the fee in it. Screenshots light and dark at 1280
//! and 1024 px.

use kontor_e2e::{pdftotext, Server, SmtpServer};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn two_overdue_invoices_are_reminded_at_once_and_the_letter_claims_amount_and_fee() {
    let mail = SmtpServer::start().await;
    let server = Server::start_with_smtp(&mail).await;
    let today = chrono::Local::now().date_naive();
    let day = |offset: i64| (today + chrono::Duration::days(offset)).to_string();
    let mut overdue = Vec::new();
    for (name, price) in [("Hafen Logistik GmbH", 100), ("Kranzler Bau GmbH", 200)] {
        let customer = server.customer(name).await;
        let invoice = server
            .post(
                "/invoices",
                json!({"customer_id": customer, "recipient_address": format!("{name}\nHafenstraße 5\n20457 Hamburg"),
                       "date": day(-60), "due_date": day(-30), "title": "Harbour consulting", "tax": 19, "currency": "EUR",
                       "items": [{"type": "item", "title": "Consulting", "quantity": 1, "unit": "h", "unit_price": price}]}),
            )
            .await;
        // The payment reminder (level 1, no fee) went out three weeks ago.
        server
            .post(
                "/invoice_reminders",
                json!({"invoice_id": invoice["id"], "date": day(-21)}),
            )
            .await;
        overdue.push(invoice);
    }
    // Paid in part: 19.00 of 238.00 received.
    server
        .post(
            "/invoices/payments",
            json!({"invoice_id": overdue[1]["id"], "date": day(-10), "paid_total": 19}),
        )
        .await;
    let not_due = server.customer("Nordwind AG").await;
    server.invoice(not_due, "Not due yet").await;

    let b = server.signed_in_browser().await;
    b.click(".sidenav a[href$='/dunning']").await;
    b.wait_js(
        "const h = document.querySelector('h1'); return !!h && h.textContent === 'Dunning' && document.querySelectorAll('#dunning-table tbody tr').length === 2;",
        vec![],
    )
    .await;
    let table = b.find("#dunning-table").await.text().await.unwrap();
    for expected in [
        "119.00 EUR",
        "219.00 EUR",
        "30",
        "Payment reminder",
        "First dunning",
    ] {
        assert!(table.contains(expected), "{expected:?} in {table}");
    }
    assert!(!table.contains("Nordwind"), "not overdue: {table}");
    b.click("#dunning-all").await;
    b.wait_js(
        "return document.querySelector('#dunning-remind').textContent === 'Remind selected (2)';",
        vec![],
    )
    .await;
    b.theme_screenshots("dunning-01-selected").await;
    b.click("#dunning-remind").await;
    // Nothing is sent before the preview is confirmed (issue 29): it lists both invoices
    // with their next level and fee.
    b.wait_js(
        "const t = document.querySelector('dialog[open] #dunning-preview'); return !!t && t.querySelectorAll('tbody tr').length === 2 && t.textContent.includes('First dunning') && t.textContent.includes('5.00 EUR');",
        vec![],
    )
    .await;
    assert!(
        b.body_text().await.contains("Send 2 reminders?"),
        "the dialog asks first"
    );
    assert!(
        mail.messages().is_empty(),
        "no e-mail before the confirmation"
    );
    b.theme_screenshots("dunning-01b-preview").await;
    b.click("#dunning-confirm").await;
    b.wait_js(
        "return document.querySelectorAll('#dunning-results li[data-reminder-id]').length === 2 && document.querySelector('#dunning-progress').textContent === '2 of 2 done';",
        vec![],
    )
    .await;
    let results = b.find("#dunning-results").await.text().await.unwrap();
    assert_eq!(
        results
            .matches("First dunning created and sent to billing@example.com.")
            .count(),
        2,
        "{results}"
    );
    for invoice in &overdue {
        let number = invoice["identifier"].as_str().unwrap();
        mail.wait_message(&format!("Subject: Mahnung zu Rechnung {number}"))
            .await;
    }
    // Both reminded: nothing is left due for a second level; the list shows level 2.
    b.wait_js(
        "return [...document.querySelectorAll('#dunning-table tbody tr')].every(r => r.textContent.includes('First dunning') && r.textContent.includes('Final dunning'));",
        vec![],
    )
    .await;
    b.theme_screenshots("dunning-02-results").await;

    // The second invoice's letter, opened from its result.
    let second = overdue[1]["id"].as_i64().unwrap();
    b.click(&format!(
        "#dunning-results li[data-invoice-id='{second}'] button"
    ))
    .await;
    let frame = "dialog[open] iframe.pdf-frame[src^='blob:']";
    let url = b
        .wait_js(
            &format!("const f = document.querySelector(\"{frame}\"); return !!f && f.src;"),
            vec![],
        )
        .await;
    b.theme_screenshots("dunning-03-letter").await;
    let pdf = b.fetch_bytes_in_page(url.as_str().unwrap()).await;
    assert!(pdf.starts_with(b"%PDF"), "a PDF");
    let text = pdftotext(&pdf)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let number = overdue[1]["identifier"].as_str().unwrap();
    for expected in [
        format!("Mahnung zu Rechnung {number}"),
        "Offener Betrag 219,00 EUR".to_string(),
        "Mahngebühr 5,00 EUR".to_string(),
        "Zu zahlender Betrag 224,00 EUR".to_string(),
    ] {
        assert!(
            text.contains(&expected),
            "{expected:?} in the letter:\n{text}"
        );
    }

    // On the invoice: the open amount, the two reminders, the sent one without Delete.
    b.open(&server.base, &format!("/invoices/{second}/payments"))
        .await;
    b.wait_text_of("#detail-open", "Open 219.00 EUR").await;
    b.wait_js(
        "return document.querySelectorAll('.reminders-table tbody tr').length === 2;",
        vec![],
    )
    .await;
    let rows = b.find(".reminders-table tbody").await.text().await.unwrap();
    assert!(
        rows.contains("not sent"),
        "level 1 was made by the API: {rows}"
    );
    assert!(
        rows.contains("219.00 EUR") && rows.contains("5.00 EUR"),
        "{rows}"
    );
    let deletable =
        "return document.querySelectorAll('.reminders-table button.btn-danger-quiet').length;";
    assert_eq!(b.wait_js(deletable, vec![]).await, 1, "only the unsent one");
    b.theme_screenshots("dunning-04-invoice-payments").await;
    b.close().await;
}
