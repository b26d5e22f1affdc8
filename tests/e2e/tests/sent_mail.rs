//! Issue 33 § Sent mail in Chromium against the real server and a real SMTP server
//! (aiosmtpd): an invoice e-mail the mail server could not take shows on the dashboard
//! and on the Mail page with the reason; once the mail server works, "Send again"
//! delivers it, the invoice reads sent, and its Mail tab lists both attempts. German and
//! English, light and dark.

use kontor_e2e::{dist, free_port, plain_smtp, Server, SmtpServer};
use kontor_server::config::AccountConfig;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_failed_invoice_mail_is_shown_and_sent_again_from_the_mail_page() {
    let dead = AccountConfig {
        smtp: Some(plain_smtp(free_port())),
        ..AccountConfig::default()
    };
    let server = Server::start_with(Some(dist()), vec![], dead).await;
    let customer = server.customer("Hafen Logistik GmbH").await;
    let invoice = server.invoice(customer, "Harbour consulting").await;
    let id = invoice["id"].as_i64().unwrap();
    let number = invoice["identifier"].as_str().unwrap().to_string();
    let r = reqwest::Client::new()
        .post(format!("{}/api/v1/invoices/{id}/send_email", server.base))
        .header("Authorization", format!("Token token={}", server.key))
        .json(&json!({"subject": format!("Rechnung {number}"), "text": "Anbei die Rechnung."}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 502);

    let b = server.signed_in_browser().await;
    b.open(&server.base, "/dashboard").await;
    b.find("#dash-todo-emails_failed").await;
    b.click("#dash-todo-emails_failed").await;
    b.wait_js(
        "return location.pathname.endsWith('/mail') && location.search === '?open=true';",
        vec![],
    )
    .await;
    b.wait_js(
        "const r = document.querySelector('#mail-table tr[data-state=failed]'); return !!r && r.textContent.includes(arguments[0]) && r.textContent.includes('mail server');",
        vec![json!(number)],
    )
    .await;
    b.theme_screenshots("mail-01-failed").await;

    // The mail server works now.
    let smtp = SmtpServer::start().await;
    server
        .put(
            "/account",
            json!({"smtp": {"host": "127.0.0.1", "port": smtp.port, "security": "none"}}),
        )
        .await;
    b.click("#mail-table [data-resend]").await;
    b.wait_text("The e-mail was sent again.").await;
    let arrived = smtp
        .wait_message(&format!("Subject: Rechnung {number}"))
        .await;
    assert!(arrived.contains("application/pdf"), "{arrived}");
    // Nothing failed is left open.
    b.find("#mail-empty").await;
    assert_eq!(
        server.get(&format!("/invoices/{id}")).await["status"],
        "sent"
    );

    // The invoice's Mail tab: the failure (sent again since) and the delivery.
    b.open(&server.base, &format!("/invoices/{id}/mail")).await;
    b.wait_js(
        "return document.querySelectorAll('#mail-table tbody tr').length === 2 && !!document.querySelector('#mail-table tr[data-state=sent]');",
        vec![],
    )
    .await;
    b.theme_screenshots("mail-02-invoice-tab").await;

    // German.
    b.client
        .execute("localStorage.setItem('kontor.language', 'de');", vec![])
        .await
        .unwrap();
    b.open(&server.base, "/mail").await;
    b.wait_js(
        "return document.querySelector('h1')?.textContent.trim() === 'E-Mails' && document.body.textContent.includes('Gesendet') && document.body.textContent.includes('Fehlgeschlagen');",
        vec![],
    )
    .await;
    b.theme_screenshots("mail-03-page-de").await;
    b.close().await;
}
