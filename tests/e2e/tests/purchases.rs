//! Issue 5's end-to-end path in real Chromium against the real server with the release
//! bundle: create a purchase with two positions (one tax-included) and a PDF receipt
//! through the form, find it with the date-range and unpaid filters, approve it (delete is
//! no longer offered), replace the document with a PNG and see the new one.
//!
//! Run: `trunk build --release && CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-e2e
//! --test purchases -- --test-threads=1`.

use fantoccini::Locator;
use kontor_e2e::{dist, Browser, Server};
use serde_json::{json, Value};
use std::time::Duration;

/// A 1×1 PNG.
const PNG: [u8; 70] = [
    137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0,
    0, 0, 31, 21, 196, 137, 0, 0, 0, 13, 73, 68, 65, 84, 120, 218, 99, 252, 207, 192, 80, 15, 0, 4,
    133, 1, 128, 132, 169, 140, 33, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
];

/// A one-page PDF with the text "Receipt".
fn pdf() -> Vec<u8> {
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
        "<< /Length 37 >>\nstream\nBT /F1 24 Tf 40 100 Td (Receipt) Tj ET\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ];
    let mut out = String::from("%PDF-1.4\n");
    let mut offsets = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.push_str(&format!("{} 0 obj\n{o}\nendobj\n", i + 1));
    }
    let xref = out.len();
    out.push_str(&format!(
        "xref\n0 {}\n0000000000 65535 f \n",
        objects.len() + 1
    ));
    for o in offsets {
        out.push_str(&format!("{o:010} 00000 n \n"));
    }
    out.push_str(&format!(
        "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
        objects.len() + 1
    ));
    out.into_bytes()
}

/// Waits up to 15 s until `script` (returning a boolean) is true.
async fn wait_until(b: &Browser, what: &str, script: &str) {
    for _ in 0..150 {
        if b.client.execute(script, vec![]).await.ok() == Some(Value::Bool(true)) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    b.screenshot("purchases-failure").await;
    panic!("never true: {what}\n{}", b.body_text().await);
}

async fn value_of(b: &Browser, css: &str) -> String {
    b.find(css)
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread")]
async fn create_filter_approve_and_replace_the_document_of_a_purchase() {
    let server = Server::start(Some(dist()), vec![]).await;
    let iban = "DE89370400440532013000";
    server
        .post(
            "/companies",
            json!({"name": "Papier & Co. KG", "type": "supplier", "iban": iban}),
        )
        .await;
    // Outside the date range, and inside it but paid: neither may show with the filters.
    let item = json!([{"title": "Other", "total": 5, "tax": 19}]);
    let old = server
        .post("/purchases", json!({"date": "2026-02-10", "currency": "EUR", "payment_method": "cash", "receipt_identifier": "RE-OLD", "items": item}))
        .await;
    let paid = server
        .post("/purchases", json!({"date": "2026-03-20", "currency": "EUR", "payment_method": "cash", "receipt_identifier": "RE-PAID", "items": item}))
        .await;
    server
        .post(
            "/purchases/payments",
            json!({"purchase_id": paid["id"], "date": "2026-03-21", "total": 5.95}),
        )
        .await;
    let files = tempfile::tempdir().unwrap();
    let (pdf_path, png_path) = (
        files.path().join("receipt.pdf"),
        files.path().join("scan.png"),
    );
    std::fs::write(&pdf_path, pdf()).unwrap();
    std::fs::write(&png_path, PNG).unwrap();

    let b = Browser::start().await;
    b.client.goto(&format!("{}/", server.base)).await.unwrap();
    b.api_key_mode().await;
    b.fill("#api-key", &server.key).await;
    b.click("form button[type=submit]").await;
    b.wait_text("New invoice").await;

    // The form: the supplier fills the IBAN; two positions, the first tax-included.
    b.client
        .goto(&format!("{}/purchases/new", server.base))
        .await
        .unwrap();
    b.pick_company("#f-company_id", "Papier & Co. KG").await;
    assert_eq!(value_of(&b, "#f-iban").await, iban);
    b.set_value("#f-date", "2026-03-15", "input").await;
    b.fill("#f-receipt_identifier", "RE-E2E-1").await;
    let cell = |n: usize, class: &str| format!("tr.purchase-row:nth-of-type({n}) .{class}");
    b.fill(&cell(1, "item-title"), "Hotel Hamburg").await;
    b.fill(&cell(1, "item-total"), "119").await;
    b.click(&cell(1, "item-included")).await;
    // Enter in the last cell adds a row.
    b.find(&cell(1, "item-included"))
        .await
        .send_keys("\u{E007}")
        .await
        .unwrap();
    b.fill(&cell(2, "item-title"), "Books").await;
    b.fill(&cell(2, "item-total"), "10").await;
    b.fill(&cell(2, "item-tax"), "7").await;
    wait_until(
        &b,
        "live sum",
        "return document.querySelector('#sum-gross').textContent === '129.70 EUR'",
    )
    .await;
    b.find("#f-file")
        .await
        .send_keys(pdf_path.to_str().unwrap())
        .await
        .unwrap();
    b.wait_text("Attached: receipt.pdf").await;
    // A wrong IBAN is caught before sending, at the field and in the summary.
    b.fill("#f-iban", "DE89370400440532013001").await;
    b.click("form.purchase-form .form-actions button[type=submit]")
        .await;
    b.wait_text("Please correct the marked fields.").await;
    let error = b.find("#f-iban-error").await.text().await.unwrap();
    assert!(error.contains("not a valid IBAN"), "{error}");
    b.fill("#f-iban", iban).await;
    wait_until(
        &b,
        "IBAN error gone once edited",
        "return document.querySelector('#f-iban-error').textContent === ''",
    )
    .await;
    b.screenshot("purchases-form").await;
    b.click("form.purchase-form .form-actions button[type=submit]")
        .await;

    // The detail: positions with the marker, the PDF preview, approve offered.
    b.wait_text("incl. tax").await;
    b.wait_text("129.70 EUR").await;
    wait_until(
        &b,
        "PDF shown from an object URL",
        "const f = document.querySelector('#document-pdf iframe.pdf-frame'); return !!f && f.src.startsWith('blob:')",
    )
    .await;
    let number = b.find(".detail-title h1").await.text().await.unwrap();
    let number = number.split_whitespace().next().unwrap().to_string();
    assert!(number.starts_with('E'), "{number}");
    b.find("#purchase-delete").await;

    // The list with the date range and "unpaid only".
    b.click(".breadcrumb a").await;
    b.wait_text("RE-OLD").await;
    b.set_value("#filter-from", "2026-03-01", "change").await;
    wait_until(
        &b,
        "date from in the URL",
        "return location.search.includes('date=2026-03-01')",
    )
    .await;
    b.set_value("#filter-to", "2026-03-31", "change").await;
    wait_until(
        &b,
        "range in the URL",
        "return decodeURIComponent(location.search).includes('date=2026-03-01:2026-03-31')",
    )
    .await;
    b.click("#filter-unpaid").await;
    wait_until(
        &b,
        "unpaid in the URL",
        "return location.search.includes('unpaid=true')",
    )
    .await;
    wait_until(&b, "only ours", "return !document.body.innerText.includes('RE-PAID') && document.body.innerText.includes('RE-E2E-1')").await;
    let text = b.body_text().await;
    assert!(
        !text.contains("RE-OLD") && text.contains("1 result"),
        "{text}"
    );
    b.wait_text_of(
        "[data-totals=purchases] tr[data-currency=EUR] [data-total=gross]",
        "129.70 EUR",
    )
    .await;
    b.screenshot("purchases-list").await;

    // Approve: delete is no longer offered.
    b.click(&format!(
        "a[href$='/purchases/{}']",
        number_id(&b, &number).await
    ))
    .await;
    b.wait_text("Approve").await;
    b.click("#purchase-status").await;
    b.wait_text("Back to pending").await;
    assert!(b.body_text().await.contains("Approved"));
    assert!(
        b.client
            .find(Locator::Css("#purchase-delete"))
            .await
            .is_err(),
        "delete offered after approval"
    );

    // A file that is not what its name says: the server's 422 shows under the drop zone.
    let fake = files.path().join("fake.png");
    std::fs::write(&fake, b"not an image").unwrap();
    b.find("#document-file")
        .await
        .send_keys(fake.to_str().unwrap())
        .await
        .unwrap();
    wait_until(
        &b,
        "422 message",
        "return document.querySelector('#document-error').textContent.startsWith('File:')",
    )
    .await;

    // Replace the document with a PNG: the image shows instead of the PDF.
    b.find("#document-file")
        .await
        .send_keys(png_path.to_str().unwrap())
        .await
        .unwrap();
    b.find("#document-image").await;
    wait_until(&b, "image loaded", "const i = document.querySelector('#document-image'); return !!i && i.complete && i.naturalWidth === 1").await;
    assert!(b.client.find(Locator::Css("#document-pdf")).await.is_err());
    b.scroll_to("#document-title").await;
    b.screenshot("purchases-detail").await;

    // A payment for the open amount.
    b.click("#add-purchase-payment").await;
    assert_eq!(value_of(&b, "#pp-total").await, "129.70");
    b.click("dialog[open] button[type=submit]").await;
    b.wait_text("Paid 129.70 EUR of 129.70 EUR").await;

    // Pending with a payment: no delete. Pending without: delete after confirmation.
    b.client
        .goto(&format!("{}/purchases/{}", server.base, paid["id"]))
        .await
        .unwrap();
    b.wait_text("RE-PAID").await;
    b.find("#purchase-status").await;
    assert!(b
        .client
        .find(Locator::Css("#purchase-delete"))
        .await
        .is_err());
    b.client
        .goto(&format!("{}/purchases/{}", server.base, old["id"]))
        .await
        .unwrap();
    b.wait_text("RE-OLD").await;
    b.click("#purchase-delete").await;
    b.wait_text("This cannot be undone.").await;
    b.click("dialog[open] .btn-danger").await;
    wait_until(
        &b,
        "back on the list",
        "return location.pathname.endsWith('/purchases')",
    )
    .await;
    b.wait_text("RE-E2E-1").await;
    assert!(!b.body_text().await.contains("RE-OLD"));
    b.close().await;
}

/// The record id behind the row showing `number`.
async fn number_id(b: &Browser, number: &str) -> String {
    let links = b
        .client
        .find_all(Locator::Css(".purchases-table .cell-number a"))
        .await
        .unwrap();
    for link in links {
        if link.text().await.unwrap() == number {
            let href = link.attr("href").await.unwrap().unwrap();
            return href.rsplit('/').next().unwrap().to_string();
        }
    }
    panic!("no row for {number}");
}
