//! Issue 36 § The inbox, against a real IMAP server (Debian's Dovecot, started by the
//! test on 127.0.0.1) and Python's `imaplib` as an independent client: messages with one,
//! two and zero e-invoices, a ZIP, a plain PDF, a copy and a resent duplicate each end in
//! exactly one state, nothing is imported twice, processed messages move to the processed
//! folder; a message that arrives while the server is down is read after the restart;
//! the settings are checked and their password never shown; a wrong password is a 502
//! naming the step; the poll's lease lets one process at a time.

mod common;

use common::einvoice::plain_pdf::plain_pdf;
use common::imap::{imap_server, imap_server_tls, ImapServer};
use common::people::user_with_role;
use common::{start, TestServer};
use reqwest::Method;
use serde_json::{json, Value};
use std::io::Write;

fn sample(name: &str) -> Vec<u8> {
    std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/einvoice/samples")
            .join(name),
    )
    .unwrap()
}

/// An RFC 5322 message from `from` with `subject`, `Message-ID` `id` and `attachments`
/// (file name, MIME type, bytes) in base64.
fn message(id: &str, subject: &str, attachments: &[(&str, &str, &[u8])]) -> Vec<u8> {
    use base64::Engine;
    let mut m = format!(
        "From: Buchhaltung Lieferant <rechnung@lieferant.example>\r\nTo: office@kontor.example\r\n\
         Subject: {subject}\r\nDate: Mon, 30 Nov 2026 08:15:00 +0100\r\nMessage-ID: <{id}>\r\n\
         MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b0undary\"\r\n\r\n\
         --b0undary\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nAnbei unsere Rechnung.\r\n"
    );
    for (name, ty, bytes) in attachments {
        let encoded = base64::engine::general_purpose::STANDARD.encode(bytes);
        let lines: Vec<&str> = encoded
            .as_bytes()
            .chunks(76)
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect();
        m.push_str(&format!(
            "--b0undary\r\nContent-Type: {ty}; name=\"{name}\"\r\n\
             Content-Disposition: attachment; filename=\"{name}\"\r\n\
             Content-Transfer-Encoding: base64\r\n\r\n{}\r\n",
            lines.join("\r\n")
        ));
    }
    m.push_str("--b0undary--\r\n");
    m.into_bytes()
}

fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    {
        let mut w = zip::ZipWriter::new(&mut out);
        for (name, bytes) in entries {
            w.start_file(*name, zip::write::SimpleFileOptions::default())
                .unwrap();
            w.write_all(bytes).unwrap();
        }
        w.finish().unwrap();
    }
    out.into_inner()
}

/// Points the server's inbox at `imap` (plain IMAP on 127.0.0.1), not polling on its own.
async fn configure(s: &TestServer, imap: &ImapServer, enabled: bool) {
    let r = s
        .put(
            "/inbox/settings",
            json!({"enabled": enabled, "host": "127.0.0.1", "port": imap.port, "security": "none",
                   "user": imap.user, "password": imap.password}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

async fn poll(s: &TestServer) -> Value {
    let r = s.post("/inbox/poll", json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

async fn messages(s: &TestServer, query: &str) -> Vec<Value> {
    let r = s.get(&format!("/inbox/messages?per_page=100{query}")).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body.as_array().unwrap().clone()
}

fn by_subject<'a>(list: &'a [Value], subject: &str) -> &'a Value {
    list.iter()
        .find(|m| m["subject"] == subject)
        .unwrap_or_else(|| panic!("no message {subject:?} in {list:?}"))
}

async fn purchase_count(s: &TestServer) -> usize {
    let r = s.get("/purchases?per_page=100").await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body.as_array().unwrap().len()
}

#[tokio::test]
async fn every_message_ends_in_one_state_and_nothing_is_imported_twice() {
    let imap = imap_server().await;
    let s = start().await;
    configure(&s, &imap, false).await;

    let ubl = sample("02.01a-INVOICE_ubl.xml");
    let cii = sample("03.01a-INVOICE_uncefact.xml");
    let facturx = sample("zugferd-en16931-einfach.pdf");
    let zipped = zip_of(&[(
        "rechnungen/01.01a-INVOICE_ubl.xml",
        &sample("01.01a-INVOICE_ubl.xml"),
    )]);
    let one = message(
        "one@lieferant.example",
        "One e-invoice",
        &[("rechnung.xml", "application/xml", &ubl)],
    );
    imap.append("INBOX", &one);
    imap.append(
        "INBOX",
        &message(
            "two@lieferant.example",
            "Two e-invoices",
            &[
                ("a.xml", "text/xml", &cii),
                ("b.pdf", "application/pdf", &facturx),
                ("logo.png", "image/png", b"\x89PNG\r\n\x1a\nnot really"),
            ],
        ),
    );
    imap.append(
        "INBOX",
        &message("none@lieferant.example", "No attachment", &[]),
    );
    imap.append(
        "INBOX",
        &message(
            "zip@lieferant.example",
            "A ZIP",
            &[("rechnungen.zip", "application/zip", &zipped)],
        ),
    );
    imap.append(
        "INBOX",
        &message(
            "scan@lieferant.example",
            "A scanned invoice",
            &[("scan.pdf", "application/pdf", &plain_pdf())],
        ),
    );
    // The very same message twice in the mailbox, and the same e-invoice sent again in a
    // new message.
    imap.append("INBOX", &one);
    imap.append(
        "INBOX",
        &message(
            "again@lieferant.example",
            "Sent again",
            &[("rechnung.xml", "application/xml", &ubl)],
        ),
    );
    assert_eq!(imap.count("INBOX"), 7);

    let counts = poll(&s).await;
    assert_eq!(
        counts,
        json!({"messages": 6, "imported": 4, "needs_review": 1, "ignored": 1, "failed": 0}),
        "the copy of a recorded message is not read twice"
    );
    let list = messages(&s, "").await;
    assert_eq!(list.len(), 6, "{list:?}");
    let one_ids = by_subject(&list, "One e-invoice")["purchase_ids"].clone();
    assert_eq!(one_ids.as_array().unwrap().len(), 1);
    assert_eq!(by_subject(&list, "One e-invoice")["state"], "imported");
    assert_eq!(
        by_subject(&list, "One e-invoice")["from"],
        "rechnung@lieferant.example"
    );
    assert_eq!(
        by_subject(&list, "One e-invoice")["message_id"],
        "one@lieferant.example"
    );
    assert_eq!(
        by_subject(&list, "One e-invoice")["received_at"],
        "2026-11-30T07:15:00Z"
    );
    assert_eq!(by_subject(&list, "Two e-invoices")["state"], "imported");
    assert_eq!(
        by_subject(&list, "Two e-invoices")["purchase_ids"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(by_subject(&list, "No attachment")["state"], "ignored");
    assert_eq!(by_subject(&list, "A ZIP")["state"], "imported");
    let scan = by_subject(&list, "A scanned invoice");
    assert_eq!(scan["state"], "needs_review");
    assert!(
        scan["reason"].as_str().unwrap().contains("to be completed"),
        "{scan}"
    );
    assert_eq!(
        by_subject(&list, "Sent again")["purchase_ids"],
        one_ids,
        "the e-invoice sent again is the purchase made before"
    );
    assert_eq!(purchase_count(&s).await, 5, "1 + 2 + 1 (ZIP) + 1 (scan)");

    // The imported purchase is the import's: pending, with its e-invoice.
    let id = one_ids[0].as_i64().unwrap();
    let p = s.get(&format!("/purchases/{id}")).await.body;
    assert_eq!(p["status"], "pending");
    assert_eq!(p["receipt_identifier"], "1234567");
    assert!(p["e_invoice"].is_object(), "{p}");
    // The scan became a purchase to be completed with the PDF attached.
    let scan_id = scan["purchase_ids"][0].as_i64().unwrap();
    let p = s.get(&format!("/purchases/{scan_id}")).await.body;
    assert_eq!(p["tags"], json!(["to be completed"]));
    assert_eq!(p["title"], "A scanned invoice");
    assert_eq!(p["file_content_type"], "application/pdf");
    assert_eq!(p["file_name"], "scan.pdf");
    assert!(p["info"]
        .as_str()
        .unwrap()
        .contains("rechnung@lieferant.example"));

    // Filter by state.
    let review = messages(&s, "&state=needs_review").await;
    assert_eq!(review.len(), 1);
    assert_eq!(s.get("/inbox/messages?state=lost").await.status, 400);

    // The folders as configured: everything moved out of INBOX.
    assert_eq!(imap.count("INBOX"), 0);
    assert_eq!(imap.count("Kontor/processed"), 7);

    // A second poll finds nothing; a message copied back in is not imported again.
    assert_eq!(poll(&s).await["messages"], 0);
    imap.append("INBOX", &one);
    assert_eq!(poll(&s).await["messages"], 0);
    assert_eq!(imap.count("INBOX"), 0);
    assert_eq!(purchase_count(&s).await, 5);
    assert_eq!(messages(&s, "").await.len(), 6);
}

#[tokio::test]
async fn a_message_arriving_while_the_server_is_down_is_read_after_the_restart() {
    let imap = imap_server().await;
    let mut s = start().await;
    configure(&s, &imap, true).await;
    s.stop().await;
    imap.append(
        "INBOX",
        &message(
            "down@lieferant.example",
            "While down",
            &[(
                "r.xml",
                "application/xml",
                &sample("02.01a-INVOICE_ubl.xml"),
            )],
        ),
    );
    s.restart().await;
    // The enabled inbox is read a few seconds after the start, without being asked. A
    // message is recorded before it is moved (poll.rs), so the wait covers both steps; up
    // to 30 s, as the test servers of this binary poll one at a time.
    let mut list = Vec::new();
    for _ in 0..120 {
        list = messages(&s, "").await;
        if !list.is_empty() && imap.count("INBOX") == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["state"], "imported");
    assert_eq!(imap.count("INBOX"), 0);
    assert_eq!(imap.subjects("Kontor/processed"), ["While down"]);
    assert_eq!(purchase_count(&s).await, 1);
}

#[tokio::test]
async fn settings_are_checked_and_the_password_is_never_shown() {
    let imap = imap_server().await;
    let s = start().await;
    let fresh = s.get("/inbox/settings").await;
    assert_eq!(fresh.status, 200);
    assert_eq!(
        fresh.body,
        json!({"enabled": false, "host": "", "port": 993, "security": "tls", "user": "",
               "password_set": false, "folder": "INBOX", "processed_folder": "Kontor/processed"})
    );
    // Not set up yet.
    assert_eq!(s.post("/inbox/poll", json!({})).await.status, 422);
    assert_eq!(s.post("/inbox/test", json!({})).await.status, 422);

    let bad = s
        .put(
            "/inbox/settings",
            json!({"enabled": true, "host": "imap example.com", "folder": "IN\u{7}BOX",
                   "processed_folder": ""}),
        )
        .await;
    assert_eq!(bad.status, 422, "{}", bad.body);
    for field in ["host", "user", "folder", "processed_folder"] {
        assert!(
            bad.body["errors"][field].is_array(),
            "{field}: {}",
            bad.body
        );
    }
    assert_eq!(
        s.put("/inbox/settings", json!({"port": 70000}))
            .await
            .status,
        422
    );
    assert_eq!(
        s.put("/inbox/settings", json!({"security": "ssl"}))
            .await
            .status,
        422
    );

    configure(&s, &imap, false).await;
    let shown = s.get("/inbox/settings").await.body;
    assert_eq!(shown["password_set"], true);
    assert!(!shown.to_string().contains(imap.password), "{shown}");
    let tested = s.post("/inbox/test", json!({})).await;
    assert_eq!(tested.status, 200, "{}", tested.body);
    assert_eq!(tested.body, json!({"ok": true, "messages": 0}));

    // A wrong password: 502 naming the sign-in, never the password.
    let r = s
        .put("/inbox/settings", json!({"password": "wrong-pass-word"}))
        .await;
    assert_eq!(r.status, 200);
    let failed = s.post("/inbox/test", json!({})).await;
    assert_eq!(failed.status, 502, "{}", failed.body);
    let text = failed.body.to_string();
    assert!(text.contains("signing in"), "{text}");
    assert!(!text.contains("wrong-pass-word"), "{text}");
    assert_eq!(s.post("/inbox/poll", json!({})).await.status, 502);
    // Nobody listens: the connection is named.
    let r = s
        .put("/inbox/settings", json!({"port": common::free_port()}))
        .await;
    assert_eq!(r.status, 200);
    let failed = s.post("/inbox/test", json!({})).await;
    assert_eq!(failed.status, 502);
    assert!(
        failed.body.to_string().contains("connecting to 127.0.0.1"),
        "{}",
        failed.body
    );

    // Settings are the admins'; staff may poll and read the list.
    let (_, staff) = user_with_role(&s, "staff@kontor.example", "staff").await;
    assert_eq!(
        s.status_as(&staff, Method::GET, "/inbox/settings", None)
            .await,
        403
    );
    assert_eq!(
        s.status_as(
            &staff,
            Method::PUT,
            "/inbox/settings",
            Some(json!({"enabled": false}))
        )
        .await,
        403
    );
    assert_eq!(
        s.status_as(&staff, Method::POST, "/inbox/test", Some(json!({})))
            .await,
        403
    );
    assert_eq!(
        s.status_as(&staff, Method::GET, "/inbox/messages", None)
            .await,
        200
    );
}

#[tokio::test]
async fn one_process_at_a_time_holds_the_poll_lease() {
    let s = start().await;
    let db = s.db().await;
    use kontor_server::work::leases::{acquire, release};
    assert!(acquire(&db, "inbox_poll", "first", 600).await.unwrap());
    assert!(!acquire(&db, "inbox_poll", "second", 600).await.unwrap());
    assert!(
        acquire(&db, "inbox_poll", "first", 600).await.unwrap(),
        "renewed"
    );
    release(&db, "inbox_poll", "first").await.unwrap();
    assert!(acquire(&db, "inbox_poll", "second", 600).await.unwrap());
    // An expired lease is free.
    assert!(acquire(&db, "other_job", "first", -1).await.unwrap());
    assert!(acquire(&db, "other_job", "second", 600).await.unwrap());
}

#[tokio::test]
async fn tls_and_starttls_verify_the_certificate_and_read_the_mailbox() {
    let imap = imap_server_tls().await;
    let s = start().await;
    let configure_tls = |security: &'static str, port: u16| {
        json!({"host": "localhost", "port": port, "security": security,
               "user": imap.user, "password": imap.password})
    };
    // Not trusted yet: the system's authorities do not know the test certificate.
    std::env::set_var("SSL_CERT_FILE", "/nonexistent-kontor-test-ca.pem");
    let r = s
        .put("/inbox/settings", configure_tls("tls", imap.tls_port))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let refused = s.post("/inbox/test", json!({})).await;
    assert_eq!(refused.status, 502, "{}", refused.body);
    assert!(
        refused.body.to_string().contains("TLS with localhost"),
        "{}",
        refused.body
    );

    // Trusted (OpenSSL reads SSL_CERT_FILE whenever a connector is made).
    std::env::set_var("SSL_CERT_FILE", imap.certificate());
    for (security, port) in [("tls", imap.tls_port), ("starttls", imap.port)] {
        let r = s
            .put("/inbox/settings", configure_tls(security, port))
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let tested = s.post("/inbox/test", json!({})).await;
        assert_eq!(tested.status, 200, "{security}: {}", tested.body);
    }
    imap.append(
        "INBOX",
        &message(
            "tls@lieferant.example",
            "Over STARTTLS",
            &[(
                "r.xml",
                "application/xml",
                &sample("02.01a-INVOICE_ubl.xml"),
            )],
        ),
    );
    let counts = poll(&s).await;
    assert_eq!(counts["imported"], 1, "{counts}");
    assert_eq!(imap.subjects("Kontor/processed"), ["Over STARTTLS"]);
}

#[tokio::test]
async fn hostile_attachments_need_review_and_break_nothing() {
    let imap = imap_server().await;
    let s = start().await;
    configure(&s, &imap, false).await;
    // 20 MiB of spaces behind an XML start, deflated to a few kilobytes.
    let mut bomb = b"<Invoice>".to_vec();
    bomb.extend(std::iter::repeat_n(b' ', 20 * 1024 * 1024));
    let zipped = zip_of(&[("invoice.xml", &bomb)]);
    assert!(zipped.len() < 200_000);
    imap.append(
        "INBOX",
        &message(
            "bomb@evil.example",
            "ZIP bomb",
            &[("x.zip", "application/zip", &zipped)],
        ),
    );
    imap.append(
        "INBOX",
        &message(
            "broken@evil.example",
            "Broken XML",
            &[(
                "invoice.xml",
                "application/xml",
                b"<?xml version=\"1.0\"?><Invoice><cbc:ID>",
            )],
        ),
    );
    imap.append(
        "INBOX",
        &message(
            "deep@evil.example",
            "Deep XML",
            &[(
                "deep.xml",
                "application/xml",
                "<a>".repeat(100_000).as_bytes(),
            )],
        ),
    );
    imap.append(
        "INBOX",
        b"\x00\x01garbage without any header\r\n\r\n\xff\xfe",
    );
    let counts = poll(&s).await;
    assert_eq!(
        counts,
        json!({"messages": 4, "imported": 0, "needs_review": 3, "ignored": 1, "failed": 0})
    );
    let list = messages(&s, "").await;
    let bomb = by_subject(&list, "ZIP bomb");
    assert_eq!(bomb["state"], "needs_review");
    assert!(
        bomb["reason"]
            .as_str()
            .unwrap()
            .contains("larger than 10 MiB unpacked"),
        "{bomb}"
    );
    for subject in ["Broken XML", "Deep XML"] {
        let m = by_subject(&list, subject);
        assert_eq!(m["state"], "needs_review", "{m}");
        assert!(m["reason"].as_str().unwrap().contains(".xml: "), "{m}");
    }
    assert_eq!(purchase_count(&s).await, 0);
    assert_eq!(imap.count("INBOX"), 0);
}

/// Issue 36 § Every incoming e-invoice checked: a message whose e-invoice has a content
/// defect becomes a purchase with its findings and waits for review; a valid one is
/// imported; each message answers the check of its documents; a correction request goes
/// to the document's seller.
#[tokio::test]
async fn a_defective_e_invoice_is_imported_with_its_findings_and_needs_review() {
    let imap = imap_server().await;
    let s = start().await;
    configure(&s, &imap, false).await;
    let wrong_sum = String::from_utf8(sample("01.01a-INVOICE_ubl.xml"))
        .unwrap()
        .replacen(
            "<cbc:LineExtensionAmount currencyID=\"EUR\">288.79</cbc:LineExtensionAmount>",
            "<cbc:LineExtensionAmount currencyID=\"EUR\">298.79</cbc:LineExtensionAmount>",
            1,
        );
    imap.append(
        "INBOX",
        &message(
            "defect@lieferant.example",
            "Falsche Summe",
            &[("falsch.xml", "application/xml", wrong_sum.as_bytes())],
        ),
    );
    imap.append(
        "INBOX",
        &message(
            "valid@lieferant.example",
            "Richtig",
            &[(
                "richtig.xml",
                "application/xml",
                &sample("02.01a-INVOICE_ubl.xml"),
            )],
        ),
    );
    let counts = poll(&s).await;
    assert_eq!(
        (counts["imported"].as_u64(), counts["needs_review"].as_u64()),
        (Some(1), Some(1)),
        "{counts}"
    );
    let list = messages(&s, "").await;
    let defect = by_subject(&list, "Falsche Summe");
    assert_eq!(defect["state"], "needs_review");
    let reason = defect["reason"].as_str().unwrap();
    assert!(
        reason.contains("falsch.xml")
            && reason.contains("content defect")
            && reason.contains("BR-CO-10"),
        "{reason}"
    );
    let id = defect["purchase_ids"][0].as_i64().unwrap();
    assert_eq!(defect["checks"][0]["purchase_id"], id);
    assert_eq!(defect["checks"][0]["class"], "content");
    assert!(defect["checks"][0]["rules"]
        .to_string()
        .contains("BR-CO-10"));
    let valid = by_subject(&list, "Richtig");
    assert_eq!(valid["state"], "imported");
    assert_eq!(valid["checks"][0]["valid"], true);
    assert!(valid["checks"][0]["class"].is_null());
    let purchase = s.get(&format!("/purchases/{id}")).await.body;
    assert_eq!(purchase["einvoice_check"]["class"], "content");
    // The filter finds it among the messages to review.
    let review = messages(&s, "&state=needs_review").await;
    assert_eq!(review.len(), 1);
}
