//! Issue 31 end to end: staff activate an offer's online approval and copy the link; a
//! second browser without a session opens it at 360 px (the customer's language, with a
//! switch), ticks one optional position (the totals follow), signs on the pad with a
//! touch pointer and sees the confirmation; staff see the offer accepted with the
//! signature and create the invoice, which bills exactly the chosen option; the signer's
//! and the office's e-mails arrive at a real SMTP server. Also: the public page has no
//! axe-core violations and no horizontal scrolling at 360 px, and screenshots in German
//! and English, light and dark.
//!
//! Run: `trunk build --release && CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-e2e
//! --test approval -- --test-threads=1`.

use fantoccini::actions::{InputSource, PointerAction, TouchActions};
use kontor_e2e::{Browser, Server, SmtpServer};
use serde_json::json;
use std::time::Duration;

/// Waits until the element `css` reads `text` (white space of any kind as one space).
async fn wait_amount(b: &Browser, css: &str, text: &str) {
    b.wait_js(
        "const e = document.querySelector(arguments[0]); return !!e && e.textContent.replace(/\\s+/g, ' ').trim() === arguments[1];",
        vec![css.into(), text.into()],
    )
    .await;
}

/// Draws a stroke across the signature canvas with a touch pointer (WebDriver actions).
async fn draw_signature(b: &Browser) {
    let canvas = b.find("#signature-pad").await;
    let mut touch = TouchActions::new("finger".into()).then(PointerAction::MoveToElement {
        element: canvas.clone(),
        duration: None,
        x: -100.0,
        y: 10.0,
    });
    touch = touch.then(PointerAction::Down { button: 0 });
    for (x, y) in [
        (-60.0, -15.0),
        (-20.0, 12.0),
        (20.0, -12.0),
        (60.0, 15.0),
        (100.0, -5.0),
    ] {
        touch = touch.then(PointerAction::MoveToElement {
            element: canvas.clone(),
            duration: Some(Duration::from_millis(40)),
            x,
            y,
        });
    }
    touch = touch.then(PointerAction::Up { button: 0 });
    b.client.perform_actions(touch).await.expect("draw");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_customer_signs_online_with_an_option_and_staff_bill_it() {
    let mail = SmtpServer::start().await;
    let server = Server::start_with_smtp(&mail).await;
    server
        .put(
            "/account",
            json!({"name": "Kontor Test GmbH", "address": "Musterstraße 1\n10115 Berlin", "email": "office@kontor.example"}),
        )
        .await;
    let customer = server
        .create(
            "/companies",
            json!({"name": "Kranzler Bau GmbH", "address": "Ring 1\n10115 Berlin", "email": "einkauf@kranzler.example",
                "language": "de", "customer_vat": {"tax": 19}}),
        )
        .await;
    let offer = server
        .post(
            "/offers",
            json!({"company_id": customer, "recipient_address": "Kranzler Bau GmbH\nRing 1\n10115 Berlin",
                "date": "2026-11-02", "due_date": "2099-12-31", "title": "Gerüst Ringstraße", "tax": 19, "currency": "EUR",
                "items": [
                    {"type": "item", "title": "Scaffolding", "quantity": 1, "unit": "pc", "unit_price": 1000},
                    {"type": "item", "title": "Weekend assembly", "quantity": 1, "unit": "pc", "unit_price": 250, "optional": true},
                    {"type": "item", "title": "Safety net", "quantity": 1, "unit": "pc", "unit_price": 80, "optional": true}
                ]}),
        )
        .await;
    let offer_id = offer["id"].as_i64().unwrap();
    let identifier = offer["identifier"].as_str().unwrap().to_string();
    let weekend = offer["items"][1]["id"].as_i64().unwrap();

    // Staff activate the approval and copy the link.
    let staff = server.signed_in_browser().await;
    staff
        .open(&server.base, &format!("/offers/{offer_id}"))
        .await;
    staff.click("#approval-activate").await;
    let link = staff.find("#approval-link").await;
    let url = link.prop("value").await.unwrap().unwrap_or_default();
    assert!(
        url.starts_with(&format!("{}/approval/", server.base)),
        "{url}"
    );
    staff.click("#approval-link-copy").await;
    staff.wait_text_of("#approval-link-copy", "Copied").await;
    staff.scroll_to("#offer-approval").await;
    staff.theme_screenshots("approval-01-staff-active").await;
    // "Send link by e-mail": the offer e-mail with the link in its text, to the customer.
    staff.click("#approval-send").await;
    staff
        .wait_js(
            "return document.querySelector('#email-to')?.value === 'einkauf@kranzler.example'
                && document.querySelector('#email-text').value.includes(arguments[0]);",
            vec![url.clone().into()],
        )
        .await;
    staff.click_in_dialog("Send").await;
    let offer_mail = mail.wait_message("To: einkauf@kranzler.example").await;
    let unfolded = offer_mail.replace("=\r\n", "").replace("=\n", "");
    assert!(
        unfolded.contains(&url),
        "the link is in the e-mail: {unfolded}"
    );

    // The customer, in another browser without a session, at 360 px.
    let customer_browser = Browser::start().await;
    let c = &customer_browser;
    c.client.set_window_size(360, 780).await.expect("resize");
    c.client.goto(&url).await.expect("open link");
    c.wait_text_of("#approval-identifier", &identifier).await;
    // The customer's language (German), whatever the browser says.
    c.wait_text("Angebot annehmen").await;
    assert_eq!(
        c.wait_js("return document.documentElement.lang;", vec![])
            .await,
        "de"
    );
    assert!(
        c.client
            .find(fantoccini::Locator::Css(".sidenav"))
            .await
            .is_err(),
        "no app frame"
    );
    wait_amount(c, "#approval-gross", "1.190,00 €").await;
    for theme in ["light", "dark"] {
        c.set_theme(theme).await;
        c.screenshot_after(
            Duration::from_millis(200),
            &format!("approval-02-public-de-{theme}-360"),
        )
        .await;
    }
    c.unset_theme().await;
    let violations = c.axe_violations().await;
    assert!(violations.is_empty(), "axe-core: {violations:#?}");

    // The switch to English (kept on reload), then tick one option: the totals follow.
    c.click("#approval-lang-en").await;
    c.wait_text("Accept offer").await;
    c.wait_text_of("#approval-identifier", &identifier).await;
    c.click(&format!("#option-{weekend}")).await;
    wait_amount(c, "#approval-gross", "1,487.50 EUR").await;
    wait_amount(c, "#approval-net", "1,250.00 EUR").await;
    // Nothing sticks out sideways at 360 px (the elements that would are named).
    let wide = c
        .client
        .execute(
            "const w = document.documentElement.clientWidth;
             return [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > w + 0.5)
                 .map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 10);",
            vec![],
        )
        .await
        .expect("measure");
    assert_eq!(wide, json!([]), "elements wider than the 360 px window");
    let violations = c.axe_violations().await;
    assert!(violations.is_empty(), "axe-core: {violations:#?}");

    // Accept without consent: refused in the page, nothing sent.
    c.fill("#signer-name", "Erika Mustermann").await;
    c.fill("#signer-email", "erika@example.com").await;
    c.click("#approval-accept").await;
    c.wait_text("must be accepted").await;
    // Sign on the pad with a finger, consent, accept.
    c.scroll_to("#signature-pad").await;
    draw_signature(c).await;
    c.wait_js(
        "return !document.querySelector('#signature-clear').disabled;",
        vec![],
    )
    .await;
    for theme in ["light", "dark"] {
        c.set_theme(theme).await;
        c.screenshot_after(
            Duration::from_millis(200),
            &format!("approval-03-public-en-{theme}-360"),
        )
        .await;
    }
    c.unset_theme().await;
    c.click("#accept-terms").await;
    c.click("#approval-accept").await;
    c.find("#approval-signed").await;
    c.wait_text("Signed by Erika Mustermann").await;
    assert!(c
        .client
        .find(fantoccini::Locator::Css("#approval-accept"))
        .await
        .is_err());
    c.screenshot("approval-04-public-signed-360").await;
    // The signed PDF from the page's link.
    let pdf_href = c.prop("#approval-pdf", "href").await;
    let pdf = reqwest::get(&pdf_href)
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    assert!(pdf.starts_with(b"%PDF"), "the signed PDF");
    customer_browser.close().await;

    // Staff see the offer accepted, the signer, the signature and the option taken.
    staff
        .open(&server.base, &format!("/offers/{offer_id}"))
        .await;
    staff
        .wait_text_of(".detail-head h1 .badge", "Accepted")
        .await;
    staff
        .wait_text_of("#approval-signer", "Erika Mustermann")
        .await;
    staff
        .wait_text_of("#approval-options", "Weekend assembly")
        .await;
    staff
        .wait_js(
            "const i = document.querySelector('#approval-signature'); return i && i.complete && i.naturalWidth > 0;",
            vec![],
        )
        .await;
    staff.scroll_to("#offer-approval").await;
    staff.theme_screenshots("approval-05-staff-signed").await;

    // The order confirmation: create (the customer's language), preview, send.
    staff.click("#confirmation-create").await;
    staff
        .wait_text_of(
            "#confirmation-title",
            &format!("Auftragsbestätigung {identifier}"),
        )
        .await;
    staff.click("#confirmation-preview").await;
    staff
        .wait_js("const f = [...document.querySelectorAll('iframe.pdf-frame')]; return f.length === 2 && f.every(e => e.src.startsWith('blob:'));", vec![])
        .await;
    staff.click("#confirmation-send").await;
    staff
        .wait_js(
            "return document.querySelector('#email-to')?.value === 'einkauf@kranzler.example';",
            vec![],
        )
        .await;
    staff.click_in_dialog("Send").await;
    let mut to_customer = Vec::new();
    for _ in 0..100 {
        to_customer = mail
            .messages()
            .into_iter()
            .filter(|m| m.contains("To: einkauf@kranzler.example"))
            .collect();
        if to_customer.len() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        to_customer.len(),
        2,
        "the offer e-mail and the order confirmation"
    );
    assert!(
        to_customer
            .iter()
            .any(|m| m.contains("application/pdf") && !m.contains(&url[url.len() - 20..])),
        "the confirmation with its PDF"
    );
    staff.screenshot("approval-06-staff-confirmation").await;

    // "Create invoice" bills the base position and the chosen option, not the other one.
    staff.click("#create-invoice").await;
    staff
        .wait_js(
            "return location.pathname.endsWith('/invoices/new');",
            vec![],
        )
        .await;
    let rows = "return document.querySelectorAll('.pe-table tbody tr[data-row-key]').length;";
    assert_eq!(staff.wait_js(rows, vec![]).await, 2);
    staff.wait_text("1,487.50").await;
    staff.click("form button[type=submit]").await;
    staff.click("dialog[open] #finalize-confirm").await;
    staff
        .wait_js(
            "return /^\\/invoices\\/\\d+$/.test(location.pathname);",
            vec![],
        )
        .await;
    let path = staff.path().await;
    let invoice = server.get(&path).await;
    let titles: Vec<&str> = invoice["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["title"].as_str())
        .collect();
    assert_eq!(titles, ["Scaffolding", "Weekend assembly"], "{invoice}");
    let gross = invoice["gross_total"].to_string();
    assert!(["1487.5", "1487.50"].contains(&gross.as_str()), "{gross}");
    staff.close().await;

    // The e-mails: to the signer with the signed PDF, and to the office.
    let to_signer = mail.wait_message("To: erika@example.com").await;
    assert!(
        to_signer.contains("application/pdf"),
        "the signed PDF is attached"
    );
    let to_office = mail.wait_message("To: office@kontor.example").await;
    assert!(to_office.contains("Erika Mustermann"), "{to_office}");
}
