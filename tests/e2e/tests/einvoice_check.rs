//! Issue 36 § Every incoming e-invoice checked, in Chromium against the real server, a real
//! IMAP server (Dovecot) and a real SMTP server: after "Check mailbox now" the Inbox page
//! shows three messages — a valid e-invoice, one with a content defect (a wrong line sum,
//! BR-CO-10) and one without documents; the defective purchase shows its findings, cannot
//! be approved without an override, and "Ask for a corrected invoice" e-mails the seller
//! naming the rule — German and English, light and dark, 1280 and 1024 px.

use kontor_e2e::imap::imap_server;
use kontor_e2e::{Server, SmtpServer};
use serde_json::json;

fn message(id: &str, subject: &str, attachment: Option<(&str, &[u8])>) -> Vec<u8> {
    use base64::Engine;
    let mut m = format!(
        "From: Buchhaltung Lieferant <rechnung@lieferant.example>\r\nTo: office@kontor.example\r\n\
         Subject: {subject}\r\nDate: Mon, 30 Nov 2026 09:00:00 +0100\r\nMessage-ID: <{id}>\r\n\
         MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b0\"\r\n\r\n\
         --b0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nAnbei die Rechnung.\r\n"
    );
    if let Some((name, bytes)) = attachment {
        m.push_str(&format!(
            "--b0\r\nContent-Type: application/xml; name=\"{name}\"\r\n\
             Content-Disposition: attachment; filename=\"{name}\"\r\n\
             Content-Transfer-Encoding: base64\r\n\r\n{}\r\n",
            base64::engine::general_purpose::STANDARD.encode(bytes)
        ));
    }
    m.push_str("--b0--\r\n");
    m.into_bytes()
}

fn sample(name: &str) -> String {
    std::fs::read_to_string(
        kontor_e2e::workspace()
            .join("../shared/einvoice/samples")
            .join(name),
    )
    .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_content_defect_is_shown_held_and_a_correction_requested() {
    let imap = imap_server().await;
    let mail = SmtpServer::start().await;
    let server = Server::start_with_smtp(&mail).await;
    let wrong_sum = sample("01.01a-INVOICE_ubl.xml").replacen(
        "<cbc:LineExtensionAmount currencyID=\"EUR\">288.79</cbc:LineExtensionAmount>",
        "<cbc:LineExtensionAmount currencyID=\"EUR\">298.79</cbc:LineExtensionAmount>",
        1,
    );
    imap.append(
        "INBOX",
        &message(
            "ok@lieferant.example",
            "Rechnung 1234567",
            Some(("rechnung.xml", sample("02.01a-INVOICE_ubl.xml").as_bytes())),
        ),
    );
    imap.append(
        "INBOX",
        &message(
            "sum@lieferant.example",
            "Rechnung 123456XX",
            Some(("falsch.xml", wrong_sum.as_bytes())),
        ),
    );
    imap.append("INBOX", &message("hi@lieferant.example", "Hallo", None));
    server
        .put(
            "/inbox/settings",
            json!({"enabled": false, "host": "127.0.0.1", "port": imap.port, "security": "none",
                "user": imap.user, "password": imap.password}),
        )
        .await;

    let b = server.signed_in_browser().await;
    b.open(&server.base, "/inbox").await;
    b.find("#inbox-empty").await;
    b.click("#inbox-poll").await;
    b.wait_js(
        "return document.querySelectorAll('#inbox-table tbody tr').length === 3;",
        vec![],
    )
    .await;
    // The valid one is imported with a valid check; the defective one is to review,
    // naming the rule; the third has no documents.
    b.wait_contains(
        "#inbox-table tr[data-state=imported] [data-check=valid]",
        "Valid e-invoice",
    )
    .await;
    b.wait_contains(
        "#inbox-table tr[data-state=needs_review] [data-check=content]",
        "Content defect",
    )
    .await;
    b.wait_contains("#inbox-table tr[data-state=needs_review]", "BR-CO-10")
        .await;
    b.wait_contains("#inbox-table tr[data-state=ignored]", "Hallo")
        .await;
    b.theme_screenshots("einvoice-check-01-inbox").await;

    // The defective purchase: its findings, approval held, the correction request.
    b.click("#inbox-table tr[data-state=needs_review] a").await;
    b.find("#einvoice-check").await;
    b.wait_contains("#einvoice-check-class", "Content defect")
        .await;
    b.wait_contains("#einvoice-findings tr[data-rule='BR-CO-10']", "BT-106")
        .await;
    b.wait_contains("#einvoice-findings tr[data-rule='BR-CO-10']", "314.86")
        .await;
    b.theme_screenshots("einvoice-check-02-purchase").await;
    b.click("#purchase-status").await;
    b.find("#override-reason").await;
    b.theme_screenshots("einvoice-check-03-override").await;
    b.click_in_dialog("Cancel").await;
    b.click("#einvoice-ask-correction").await;
    b.find("#correction-send").await;
    b.click("#correction-send").await;
    b.wait_text("The request was sent to seller@email.de.")
        .await;
    let sent = mail.wait_message("BR-CO-10").await;
    assert!(sent.contains("seller@email.de"), "{sent}");
    assert!(sent.contains("123456XX"), "{sent}");

    // The admin approves with a reason.
    b.click("#purchase-status").await;
    b.fill("#override-reason", "Amounts confirmed by phone")
        .await;
    b.click("#override-approve").await;
    b.wait_text("is now approved").await;

    // German.
    b.client
        .execute("localStorage.setItem('kontor.language', 'de');", vec![])
        .await
        .unwrap();
    b.open(&server.base, "/inbox").await;
    b.wait_contains(
        "#inbox-table tr[data-state=needs_review]",
        "Inhaltlicher Fehler",
    )
    .await;
    b.theme_screenshots("einvoice-check-04-inbox-de").await;
    b.click("#inbox-table tr[data-state=needs_review] a").await;
    b.wait_contains("#einvoice-check-title", "Prüfung der E-Rechnung")
        .await;
    b.wait_contains("#einvoice-findings", "Summe der Positionsnettobeträge")
        .await;
    b.theme_screenshots("einvoice-check-05-purchase-de").await;
    b.close().await;
}
