//! Issue 15 § 5, stored XSS in Chromium against the real server with the release bundle:
//! every payload of [`PAYLOADS`] (script tags, event handlers, `javascript:` URLs, SVG,
//! attribute breakouts, `</textarea>`, mXSS, encoded variants) is stored in the text fields
//! of a customer, a contact person, a supplier, invoices, a draft, an offer, a purchase, a
//! recurring invoice and the account, through the API. Then every page of the app showing
//! them is opened. Nothing may execute: no alert, confirm or prompt dialog opens, no
//! `window.__xss` is set, and no Content-Security-Policy violation is reported (the policy
//! would block an injected script, and report it). Every PDF shows the payloads as plain
//! text (pdftotext) and has no JavaScript or automatic action.

use kontor_e2e::{dist, every_page, pdftotext, Browser, OneOfEach, Server};
use serde_json::{json, Value};
use std::time::Duration;

/// Stored-XSS payloads; each one would call `alert` or set `window.__xss` if it ran.
const PAYLOADS: &[&str] = &[
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    "<svg onload=alert(3)>",
    "<svg><script>window.__xss=4</script></svg>",
    "\"><script>alert(5)</script>",
    "'><img src=x onerror=alert(6)>",
    "javascript:alert(7)",
    "<a href=\"javascript:alert(8)\">link 8</a>",
    "<iframe src=\"javascript:alert(9)\"></iframe>",
    "<details open ontoggle=alert(10)>",
    "</textarea><script>alert(11)</script>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(12)>",
    "&lt;script&gt;alert(13)&lt;/script&gt;",
    "%3Cscript%3Ealert(14)%3C/script%3E",
    "\\u003cscript\\u003ealert(15)\\u003c/script\\u003e",
    "<body onload=alert(16)>",
    "<input autofocus onfocus=alert(17)>",
    "<style>@import 'javascript:alert(18)'</style>",
    "<object data=\"javascript:alert(19)\"></object>",
    "{{constructor.constructor('alert(20)')()}}",
];

/// Payload `n` (rotating through the list) with a readable prefix.
fn p(n: usize) -> String {
    format!("X{n} {}", PAYLOADS[n % PAYLOADS.len()])
}

async fn post(server: &Server, path: &str, body: Value) -> i64 {
    server.create(path, body).await
}

/// Records whose every free text is a payload.
async fn poisoned(server: &Server) -> OneOfEach {
    let customer = post(
        server,
        "/companies",
        json!({"name": p(0), "address": format!("{}\n20457 Hamburg", p(1)), "info": p(2),
            "tags": [p(3)], "email": "billing@example.com", "custom_properties": {"Notiz": p(4)}}),
    )
    .await;
    post(
        server,
        "/contacts/people",
        json!({"company_id": customer, "firstname": p(5), "lastname": p(6), "email": "kontakt@example.com"}),
    )
    .await;
    let supplier = post(
        server,
        "/companies",
        json!({"name": p(7), "kind": "supplier", "address": p(8)}),
    )
    .await;
    let items = |n: usize| {
        json!([{"type": "title", "title": p(n)},
               {"type": "item", "title": p(n + 1), "description": p(n + 2), "quantity": 1, "unit": "h", "unit_price": 100},
               {"type": "description", "title": p(n + 3), "description": p(n + 4)}])
    };
    let invoice = post(
        server,
        "/invoices",
        json!({"customer_id": customer, "recipient_address": format!("{}\n20457 Hamburg", p(9)),
            "date": "2026-11-02", "due_date": "2099-12-31", "title": p(10), "tax": 19, "currency": "EUR",
            "salutation": p(11), "footer": p(12), "tags": [p(13)], "items": items(14)}),
    )
    .await;
    let draft = post(
        server,
        "/invoices",
        json!({"customer_id": customer, "status": "draft", "recipient_address": p(19),
            "title": p(20), "items": items(21)}),
    )
    .await;
    let offer = post(
        server,
        "/offers",
        json!({"company_id": customer, "recipient_address": p(26), "date": "2026-11-02",
            "due_date": "2026-12-02", "title": p(27), "tax": 19, "currency": "EUR",
            "salutation": p(28), "footer": p(29), "items": items(30)}),
    )
    .await;
    let purchase = post(
        server,
        "/purchases",
        json!({"date": "2026-11-10", "currency": "EUR", "payment_method": "bank_transfer",
            "supplier_id": supplier, "receipt_identifier": p(35), "title": p(36), "tags": [p(37)],
            "items": [{"title": p(38), "total": 119, "tax": 19, "tax_included": true}]}),
    )
    .await;
    let recurring = post(
        server,
        "/recurring_invoices",
        json!({"template": {"customer_id": customer, "recipient_address": p(39), "title": p(40),
                "tax": 19, "currency": "EUR",
                "items": [{"type": "item", "title": p(41), "quantity": 1, "unit": "Monat", "unit_price": 50}]},
               "interval": "monthly", "next_date": "2027-01-01", "mode": "draft"}),
    )
    .await;
    OneOfEach {
        customer,
        supplier,
        invoice,
        draft,
        offer,
        purchase,
        recurring,
    }
}

/// No script ran on the page: no dialog, no `window.__xss`, no violation report.
async fn nothing_ran(b: &Browser, path: &str) {
    tokio::time::sleep(Duration::from_millis(400)).await;
    let alert = b.client.get_alert_text().await.ok();
    assert_eq!(alert, None, "{path}: a dialog opened");
    let flag = b
        .client
        .execute("return window.__xss === undefined;", vec![])
        .await
        .unwrap();
    assert_eq!(flag, json!(true), "{path}: window.__xss was set");
    let reports = kontor_server::http::csp_report::take();
    assert!(reports.is_empty(), "{path}: {reports:#?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn stored_payloads_execute_nowhere() {
    let server = Server::start(Some(dist()), vec![]).await;
    // The account's own texts too (the sender line and footer of every document).
    server
        .put(
            "/account",
            json!({"name": format!("Kontor {}", p(42)), "address": format!("{}\n10115 Berlin", p(43))}),
        )
        .await;
    let records = poisoned(&server).await;
    kontor_server::http::csp_report::take();

    let b = Browser::start().await;
    b.client.set_window_size(1280, 900).await.unwrap();
    b.sign_in(&server.base, &server.key).await;
    for (path, _) in every_page(&records) {
        println!("visiting {path}");
        b.open(&server.base, &path).await;
        b.wait_js("return !!document.querySelector('main h1');", vec![])
            .await;
        nothing_ran(&b, &path).await;
    }
    // The top search shows the payloads as suggestions.
    b.open(&server.base, "/customers").await;
    b.fill("#global-search", "X0").await;
    nothing_ran(&b, "/customers (search)").await;
    b.screenshot("stored-xss-customers").await;
    b.open(&server.base, &format!("/invoices/{}", records.invoice))
        .await;
    b.wait_text("X10").await;
    b.screenshot("stored-xss-invoice").await;
    b.close().await;

    // The documents show the payloads as text and carry no script or automatic action.
    for path in [
        format!("/invoices/{}.pdf", records.invoice),
        format!("/invoices/{}.pdf", records.draft),
        format!("/offers/{}.pdf", records.offer),
    ] {
        let raw = server.get_raw(&path).await;
        assert_eq!(raw.status, 200, "{path}");
        assert!(raw.bytes.starts_with(b"%PDF"), "{path}");
        let text = pdftotext(&raw.bytes);
        assert!(
            text.contains("alert("),
            "{path}: the payload is not shown as text:\n{text}"
        );
        for marker in [
            &b"/JavaScript"[..],
            b"/JS ",
            b"/JS(",
            b"/OpenAction",
            b"/AA",
            b"/Launch",
        ] {
            assert!(
                !raw.bytes.windows(marker.len()).any(|w| w == marker),
                "{path}: contains {}",
                String::from_utf8_lossy(marker)
            );
        }
    }
}
