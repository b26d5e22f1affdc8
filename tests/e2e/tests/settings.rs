//! Issue 9's Settings page in real Chromium against the real server with the release
//! bundle: reach it from the navigation, be stopped at the field by a bad IBAN before
//! anything is sent, set the account's VAT ID, IBAN and a PNG logo, then finalize an
//! invoice and find VAT ID, IBAN and the logo in its PDF (`pdftotext`, `pdfimages`);
//! switch a customer to English on its edit form and find "Invoice" instead of
//! "Rechnung"; SMTP settings with a write-only password and a test e-mail; the leave
//! guard; a read-only key. Screenshots of the page at 1280 and 1024 pixels wide.
//!
//! Run: `trunk build --release && CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-e2e
//! --test settings -- --test-threads=1`.

use fantoccini::Locator;
use kontor_e2e::{dist, Browser, Server, SmtpServer};
use serde_json::{json, Value};
use std::process::Command;
use std::time::Duration;

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let mut body = kind.to_vec();
    body.extend_from_slice(data);
    out.extend_from_slice(&body);
    out.extend_from_slice(&crc32(&body).to_be_bytes());
}

/// A 160×48 RGB PNG (a blue bar with a lighter square, stored uncompressed), so the
/// preview shows something.
fn logo_png() -> Vec<u8> {
    let (w, h) = (160u32, 48u32);
    let mut raw = Vec::new();
    for y in 0..h {
        raw.push(0); // filter: none
        for x in 0..w {
            let light = (8..40).contains(&x) && (8..40).contains(&y);
            raw.extend_from_slice(if light {
                &[127, 176, 255]
            } else {
                &[31, 78, 140]
            });
        }
    }
    // zlib stream with one stored deflate block (the image is under 64 KiB).
    let mut z = vec![0x78, 0x01, 1];
    let len = raw.len() as u16;
    z.extend_from_slice(&len.to_le_bytes());
    z.extend_from_slice(&(!len).to_le_bytes());
    z.extend_from_slice(&raw);
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in &raw {
        a = (a + u32::from(byte)) % 65521;
        b = (b + a) % 65521;
    }
    z.extend_from_slice(&((b << 16) | a).to_be_bytes());
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&w.to_be_bytes());
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]); // 8 bit, RGB
    chunk(&mut png, b"IHDR", &ihdr);
    chunk(&mut png, b"IDAT", &z);
    chunk(&mut png, b"IEND", &[]);
    png
}

/// Runs `tool` (pdftotext / pdfimages) on `pdf` with `args` before the file name and
/// `after` behind it; its standard output.
fn poppler(tool: &str, args: &[&str], pdf: &[u8], after: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("document.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = Command::new(tool)
        .args(args)
        .arg(&path)
        .args(after)
        .output()
        .unwrap_or_else(|e| panic!("{tool} runs (poppler-utils): {e}"));
    assert!(
        out.status.success(),
        "{tool}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The text of a PDF (`pdftotext -layout`).
fn pdf_text(pdf: &[u8]) -> String {
    poppler("pdftotext", &["-layout"], pdf, &["-"])
}

/// How many images a PDF has (`pdfimages -list`: two header lines, one line per image).
fn pdf_images(pdf: &[u8]) -> usize {
    poppler("pdfimages", &["-list"], pdf, &[])
        .lines()
        .skip(2)
        .filter(|l| !l.trim().is_empty())
        .count()
}

/// A draft invoice for `customer` (100.00 EUR at 19 %); its id.
async fn draft(server: &Server, customer: i64, title: &str) -> i64 {
    let body = json!({"status": "draft", "customer_id": customer,
        "recipient_address": "Hafen Logistik GmbH\nHafenstraße 5\n20457 Hamburg",
        "date": "2026-11-02", "due_date": "2099-12-31", "title": title, "tax": 19, "currency": "EUR",
        "items": [{"type": "item", "title": "Consulting", "quantity": 1, "unit": "h", "unit_price": 100}]});
    server.create("/invoices", body).await
}

/// Text without any whitespace (PDF text breaks and groups IBANs as it likes).
fn squeezed(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Closes the toasts (they would cover the bottom right of a screenshot).
async fn close_toasts(b: &Browser) {
    b.close_toasts().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
}

/// Waits until `script` (returning a boolean) is true.
async fn until(b: &Browser, script: &str) {
    b.wait_js(script, vec![]).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_account_set_on_the_settings_page_is_on_the_next_invoice() {
    let (server, customer) = Server::with_customer("Hafen Logistik GmbH").await;
    let files = tempfile::tempdir().unwrap();
    let logo = files.path().join("logo.png");
    std::fs::write(&logo, logo_png()).unwrap();

    let b = server.signed_in_browser().await;
    b.nav("Settings").await;
    b.find("#settings-company").await;
    assert_eq!(b.path().await, "/settings");

    // A bad IBAN is stopped at its field before anything is sent.
    b.fill("#f-account_holder", "Kontor GmbH").await;
    b.fill("#f-iban", "DE89 3704 0044 0532 0130 01").await;
    b.click("#settings-bank-save").await;
    until(&b, "const e = document.querySelector('#f-iban-error'); return !!e && e.textContent.includes('IBAN');").await;
    assert_eq!(
        b.find("#f-iban")
            .await
            .attr("aria-invalid")
            .await
            .unwrap()
            .as_deref(),
        Some("true")
    );
    assert_eq!(
        server.get("/account").await["iban"],
        Value::Null,
        "nothing was stored"
    );

    b.fill("#f-iban", "DE89 3704 0044 0532 0130 00").await;
    b.fill("#f-bic", "COBADEFFXXX").await;
    b.fill("#f-bank_name", "Commerzbank").await;
    b.click("#settings-bank-save").await;
    b.wait_text("Bank saved.").await;

    b.fill("#f-vat_identifier", "DE123456788").await;
    b.fill("#f-tax_number", "21/815/08150").await;
    b.fill("#f-register_court", "Amtsgericht Hamburg").await;
    b.fill("#f-register_number", "HRB 123456").await;
    b.click("#settings-company-save").await;
    b.wait_text("Company saved.").await;

    // The logo is stored as soon as it is chosen, and previewed.
    b.find("#logo-file")
        .await
        .send_keys(logo.to_str().unwrap())
        .await
        .unwrap();
    b.wait_text("Logo stored.").await;
    b.find("#logo-image").await;
    until(&b, "const i = document.querySelector('#logo-image'); return !!i && i.complete && i.naturalWidth === 160;").await;

    let account = server.get("/account").await;
    assert_eq!(account["vat_identifier"], "DE123456788");
    assert_eq!(account["iban"], "DE89370400440532013000");
    assert_eq!(account["logo"]["content_type"], "image/png");

    // The page as the user sees it, whole, at both widths.
    close_toasts(&b).await;
    b.client.set_window_size(1280, 3200).await.unwrap();
    b.client
        .execute("window.scrollTo(0, 0)", vec![])
        .await
        .unwrap();
    b.screenshot_after(Duration::from_millis(400), "settings-1280")
        .await;
    b.client.set_window_size(1024, 3400).await.unwrap();
    tokio::time::sleep(Duration::from_millis(400)).await;
    let overflow = b
        .client
        .execute(
            "return document.documentElement.scrollWidth > window.innerWidth;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        overflow,
        Value::Bool(false),
        "no horizontal scrolling at 1024 px"
    );
    b.screenshot("settings-1024").await;
    b.client.set_window_size(1280, 900).await.unwrap();

    // Finalize an invoice: its PDF names the VAT ID and the IBAN and carries the logo.
    let id = draft(&server, customer, "Harbour consulting").await;
    b.open(&server.base, &format!("/invoices/{id}")).await;
    let finalize = "//div[contains(@class,'page-actions')]//button[normalize-space(.)='Finalize']";
    b.client
        .wait()
        .at_most(Duration::from_secs(15))
        .for_element(Locator::XPath(finalize))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    b.click_in_dialog("Finalize").await;
    b.wait_text("Finalized as").await;
    let pdf = server.get_raw(&format!("/invoices/{id}.pdf")).await;
    assert_eq!(pdf.status, 200);
    let text = pdf_text(&pdf.bytes);
    assert!(text.contains("DE123456788"), "VAT ID in the PDF:\n{text}");
    assert!(
        squeezed(&text).contains("DE89370400440532013000"),
        "IBAN in the PDF:\n{text}"
    );
    assert!(
        text.contains("Rechnung"),
        "a German customer gets German labels:\n{text}"
    );
    assert!(
        pdf_images(&pdf.bytes) >= 1,
        "the logo is an image in the PDF"
    );

    // Switch the customer to English on its edit form: the next invoice says "Invoice",
    // not "Rechnung".
    b.open(&server.base, &format!("/customers/{customer}/edit"))
        .await;
    b.select("#f-language", "en").await;
    b.click("form.company-form button[type=submit]").await;
    b.wait_text("Hafen Logistik GmbH saved.").await;
    let switched = server.get(&format!("/companies/{customer}")).await;
    assert_eq!(switched["language"], "en");
    let english = server
        .invoice(customer, "Harbour consulting (English)")
        .await;
    let pdf = server
        .get_raw(&format!("/invoices/{}.pdf", english["id"]))
        .await;
    let text = pdf_text(&pdf.bytes);
    assert!(text.contains("Invoice"), "English labels:\n{text}");
    assert!(!text.contains("Rechnung"), "no German labels left:\n{text}");
    assert!(squeezed(&text).contains("DE89370400440532013000"));
    b.close().await;
}

/// The alert's text once one is open (up to 5 s).
async fn alert_text(b: &Browser) -> String {
    for _ in 0..50 {
        if let Ok(text) = b.client.get_alert_text().await {
            return text;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no alert opened");
}

#[tokio::test(flavor = "multi_thread")]
async fn smtp_settings_with_a_write_only_password_and_a_test_email() {
    let server = Server::start(Some(dist()), vec![]).await;
    let mail = SmtpServer::start().await;
    let b = server.signed_in_browser().await;
    b.nav("Settings").await;
    b.find("#settings-email").await;

    // Unsaved changes: leaving asks first; staying keeps what was typed.
    b.fill("#f-phone", "+49 40 123456").await;
    b.wait_text("Unsaved changes").await;
    b.nav("Invoices").await;
    assert!(alert_text(&b).await.contains("unsaved changes"));
    b.client.dismiss_alert().await.unwrap();
    assert_eq!(b.path().await, "/settings");
    assert_eq!(b.prop("#f-phone", "value").await, "+49 40 123456");
    b.click("#settings-company-save").await;
    b.wait_text("Company saved.").await;

    // SMTP on: the aiosmtpd server, no login; the test e-mail arrives.
    b.click("#f-smtp_on").await;
    b.fill("#f-smtp_host", "127.0.0.1").await;
    b.fill("#f-smtp_port", &mail.port.to_string()).await;
    b.select("#f-smtp_security", "none").await;
    b.click("#settings-email-save").await;
    b.wait_text("E-mail saved.").await;
    b.wait_text("No password is stored.").await;
    b.fill("#test-email-to", "me@kontor.example").await;
    b.click("#test-email-send").await;
    b.wait_text_of(
        "#test-email-result",
        "Test e-mail sent to me@kontor.example.",
    )
    .await;
    let message = mail.wait_message("me@kontor.example").await;
    assert!(message.contains("test message from Kontor"), "{message}");

    // A password is only ever written: the field stays empty, the page says one is stored.
    b.fill("#f-smtp_user", "mailer").await;
    b.fill("#f-smtp_password", "s3cret-pass").await;
    b.click("#settings-email-save").await;
    b.wait_text("A password is stored.").await;
    assert_eq!(b.prop("#f-smtp_password", "value").await, "");
    let account = server.get("/account").await;
    assert_eq!(account["smtp"]["password_set"], true);
    assert_eq!(account["smtp"]["user"], "mailer");
    assert!(!account.to_string().contains("s3cret-pass"));
    b.client.set_window_size(1280, 1100).await.unwrap();
    b.click("#settings-email-save").await; // scrolls the section into view
    b.wait_text("E-mail saved.").await;
    close_toasts(&b).await;
    b.screenshot("settings-email").await;

    // Saving again without typing keeps the stored password.
    assert_eq!(server.get("/account").await["smtp"]["password_set"], true);
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_read_only_key_sees_the_settings_but_cannot_change_them() {
    let server = Server::start(Some(dist()), vec![]).await;
    let key = server.read_only_key().await;
    let b = Browser::start().await;
    b.sign_in(&server.base, &key).await;
    b.nav("Settings").await;
    b.find("#settings-read-only").await;
    until(&b, "return [...document.querySelectorAll('.settings fieldset.settings-fieldset')].every(f => f.disabled) && document.querySelectorAll('.settings fieldset.settings-fieldset').length === 8;").await;
    b.close().await;
}
