//! Issue 36 § The inbox in Chromium against the real server and a real IMAP server
//! (Dovecot): an admin sets up the mailbox under Settings → Inbox and tests it; on the
//! Inbox page "Check mailbox now" reads three messages — an e-invoice (imported, its
//! purchase linked), a scanned PDF (to review: a purchase to be completed) and one
//! without documents — German and English, light and dark, 1280 and 1024 px.

#[path = "../../../crates/einvoice/tests/support/plain_pdf.rs"]
mod plain_pdf;

use kontor_e2e::imap::imap_server;
use kontor_e2e::{dist, Server};

fn message(id: &str, subject: &str, attachment: Option<(&str, &[u8])>) -> Vec<u8> {
    use base64::Engine;
    let mut m = format!(
        "From: Rechnungen Papierhaus <rechnung@papierhaus.example>\r\nTo: office@kontor.example\r\n\
         Subject: {subject}\r\nDate: Mon, 30 Nov 2026 08:15:00 +0100\r\nMessage-ID: <{id}>\r\n\
         MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b0\"\r\n\r\n\
         --b0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nGuten Tag.\r\n"
    );
    if let Some((name, bytes)) = attachment {
        m.push_str(&format!(
            "--b0\r\nContent-Type: application/octet-stream; name=\"{name}\"\r\n\
             Content-Disposition: attachment; filename=\"{name}\"\r\n\
             Content-Transfer-Encoding: base64\r\n\r\n{}\r\n",
            base64::engine::general_purpose::STANDARD.encode(bytes)
        ));
    }
    m.push_str("--b0--\r\n");
    m.into_bytes()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_inbox_is_set_up_checked_and_lists_what_arrived() {
    let imap = imap_server().await;
    let server = Server::start(Some(dist()), vec![]).await;
    let invoice = std::fs::read(
        kontor_e2e::workspace().join("../shared/einvoice/samples/02.01a-INVOICE_ubl.xml"),
    )
    .unwrap();
    imap.append(
        "INBOX",
        &message(
            "e@papierhaus.example",
            "Rechnung 1234567",
            Some(("rechnung.xml", &invoice)),
        ),
    );
    imap.append(
        "INBOX",
        &message(
            "scan@papierhaus.example",
            "Scan Lieferschein",
            Some(("scan.pdf", &plain_pdf::plain_pdf())),
        ),
    );
    imap.append(
        "INBOX",
        &message("hi@papierhaus.example", "Guten Tag", None),
    );

    let b = server.signed_in_browser().await;
    // Settings → Inbox: the admin enters the mailbox and tests it.
    b.open(&server.base, "/settings/inbox").await;
    b.find("#inbox-settings").await;
    b.fill("#inbox-host", "127.0.0.1").await;
    b.client
        .execute(
            "const s = document.querySelector('#inbox-security'); s.value = 'none'; s.dispatchEvent(new Event('change'));",
            vec![],
        )
        .await
        .unwrap();
    b.fill("#inbox-port", &imap.port.to_string()).await;
    b.fill("#inbox-user", imap.user).await;
    b.fill("#inbox-password", imap.password).await;
    b.click("#inbox-save").await;
    b.wait_text("The inbox settings were saved.").await;
    b.find("#inbox-settings .field-hint").await;
    let stored = server.get("/inbox/settings").await;
    assert_eq!(stored["port"], imap.port);
    assert_eq!(stored["security"], "none");
    assert_eq!(stored["password_set"], true);
    b.click("#inbox-test").await;
    b.wait_text("Connected: the folder holds 3 messages.").await;
    b.theme_screenshots("inbox-01-settings").await;

    // The Inbox page: empty, then checked.
    b.open(&server.base, "/inbox").await;
    b.find("#inbox-empty").await;
    b.click("#inbox-poll").await;
    b.wait_text("3 new messages: 1 imported, 1 to review, 1 without documents, 0 failed.")
        .await;
    b.wait_js(
        "return document.querySelectorAll('#inbox-table tbody tr').length === 3;",
        vec![],
    )
    .await;
    b.wait_contains("#inbox-table tr[data-state=imported]", "Rechnung 1234567")
        .await;
    b.wait_contains(
        "#inbox-table tr[data-state=needs_review]",
        "to be completed",
    )
    .await;
    b.wait_contains("#inbox-table tr[data-state=ignored]", "Guten Tag")
        .await;
    b.theme_screenshots("inbox-02-page").await;
    // The imported message links its purchase.
    b.click("#inbox-table tr[data-state=imported] a").await;
    b.wait_js(
        "return /\\/purchases\\/\\d+$/.test(location.pathname);",
        vec![],
    )
    .await;
    b.wait_text("1234567").await;
    assert_eq!(imap.count("INBOX"), 0);

    // German.
    b.client
        .execute("localStorage.setItem('kontor.language', 'de');", vec![])
        .await
        .unwrap();
    b.open(&server.base, "/inbox").await;
    b.wait_js(
        "return document.querySelector('h1')?.textContent.trim() === 'Posteingang' && document.body.textContent.includes('Importiert') && document.body.textContent.includes('Zu prüfen');",
        vec![],
    )
    .await;
    b.theme_screenshots("inbox-03-page-de").await;
    b.open(&server.base, "/settings/inbox").await;
    b.wait_text("Postfach alle 5 Minuten abrufen").await;
    b.theme_screenshots("inbox-04-settings-de").await;
    b.close().await;
}
