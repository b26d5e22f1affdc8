//! Issue 11's exports in real Chromium against the real server with the release bundle:
//! the DATEV numbers are set on the Settings page, then the Exports page downloads all four
//! files for this month and their contents are checked — the invoices and purchases CSVs
//! (BOM, `;`, the rows), the DATEV batch (its EXTF header line and a booking on the
//! customer's debtor number and 8400) and the ZIP's file list. Screenshots light and dark
//! at 1280 and 1024 px.
//!
//! Run: `trunk build --release && CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-e2e
//! --test exports -- --test-threads=1`.

use kontor_e2e::{dist, Browser, Server};
use serde_json::json;

/// Catches the next `<a download>` click and reads the file it would save as bytes:
/// `window.__saved = {name, bytes}`.
const CATCH_DOWNLOAD: &str = "window.__saved = null;
    if (!window.__catching) {
        window.__catching = true;
        const original = HTMLAnchorElement.prototype.click;
        HTMLAnchorElement.prototype.click = function () {
            if (this.hasAttribute('download')) {
                const name = this.getAttribute('download');
                fetch(this.href).then(r => r.arrayBuffer())
                    .then(buf => { window.__saved = {name, bytes: Array.from(new Uint8Array(buf))}; });
                return;
            }
            return original.call(this);
        };
    }
    return true;";

/// Clicks the download button `css` and answers the saved file's name and bytes.
async fn download(b: &Browser, css: &str) -> (String, Vec<u8>) {
    b.wait_js(CATCH_DOWNLOAD, vec![]).await;
    b.click(css).await;
    let saved = b
        .wait_js("return window.__saved ? window.__saved : null;", vec![])
        .await;
    let name = saved["name"].as_str().expect("name").to_string();
    let bytes = saved["bytes"]
        .as_array()
        .expect("bytes")
        .iter()
        .map(|v| v.as_u64().expect("byte") as u8)
        .collect();
    (name, bytes)
}

/// The names in a ZIP's central directory (signature `PK\x01\x02`: name length at offset
/// 28, extra 30, comment 32, name from 46).
fn zip_names(zip: &[u8]) -> Vec<String> {
    let mut names = Vec::new();
    let mut i = 0;
    while i + 46 <= zip.len() {
        if zip[i..i + 4] == [0x50, 0x4B, 0x01, 0x02] {
            let n = u16::from_le_bytes([zip[i + 28], zip[i + 29]]) as usize;
            let extra = u16::from_le_bytes([zip[i + 30], zip[i + 31]]) as usize;
            let comment = u16::from_le_bytes([zip[i + 32], zip[i + 33]]) as usize;
            names.push(String::from_utf8_lossy(&zip[i + 46..i + 46 + n]).into_owned());
            i += 46 + n + extra + comment;
        } else {
            i += 1;
        }
    }
    names
}

#[tokio::test(flavor = "multi_thread")]
async fn download_each_export_and_check_its_contents() {
    let server = Server::start(Some(dist()), vec![]).await;
    let today = chrono::Local::now().date_naive();
    let date = today.format("%Y-%m-%d").to_string();
    let customer = server.create("/companies",
            json!({"name": "Kranzler GmbH", "address": "Kai 1\n20457 Hamburg", "debtor_number": 12345}),).await;
    let invoice = server
        .post(
            "/invoices",
            json!({"customer_id": customer, "recipient_address": "Kranzler GmbH\nKai 1", "date": date,
                   "due_date": date, "title": "Hosting", "tax": 19, "currency": "EUR",
                   "items": [{"type": "item", "title": "Hosting", "quantity": 1, "unit_price": 1000}]}),
        )
        .await;
    let number = invoice["identifier"]
        .as_str()
        .expect("finalized")
        .to_string();
    let pdf = "%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF";
    let purchase = server
        .post(
            "/purchases",
            json!({"date": date, "currency": "EUR", "payment_method": "bank_transfer", "receipt_identifier": "INV-77",
                   "file": {"filename": "receipt.pdf", "base64": b64(pdf.as_bytes())},
                   "items": [{"title": "Paper", "total": 100, "tax": 19}]}),
        )
        .await;
    let purchase_number = purchase["identifier"].as_str().unwrap().to_string();

    let b = server.signed_in_browser().await;

    // The DATEV numbers on the Settings page.
    b.open(&server.base, "/settings").await;
    b.fill("#f-datev_consultant_number", "29098").await;
    b.fill("#f-datev_client_number", "55003").await;
    b.click("#settings-datev-save").await;
    b.wait_text("DATEV settings saved.").await;
    b.wait_js(
        "document.querySelector('#settings-datev').scrollIntoView(); return true;",
        vec![],
    )
    .await;
    b.screenshot("exports-settings-datev").await;

    // The Exports page: last month by default; choose this month.
    b.click("nav.sidenav a[href$='/exports']").await;
    b.wait_text("Documents (ZIP)").await;
    let (first, _) = kontor_model::export::QuickPeriod::LastMonth.range(today);
    assert_eq!(
        b.prop("#export-from", "value").await,
        first.format("%Y-%m-%d").to_string()
    );
    b.click("#export-quick-this-month").await;
    let (from, to) = kontor_model::export::QuickPeriod::ThisMonth.range(today);
    assert_eq!(
        b.prop("#export-from", "value").await,
        from.format("%Y-%m-%d").to_string()
    );
    assert_eq!(
        b.prop("#export-to", "value").await,
        to.format("%Y-%m-%d").to_string()
    );
    b.select("#export-numbers", "de").await;
    let suffix = format!("{}_{}", from.format("%Y-%m-%d"), to.format("%Y-%m-%d"));
    b.theme_screenshots("exports").await;

    // invoices.csv: BOM, `;`, the German decimal comma, one row.
    let (name, bytes) = download(&b, "#export-invoices").await;
    assert_eq!(name, format!("invoices_{suffix}.csv"));
    assert!(bytes.starts_with(b"\xEF\xBB\xBF"));
    let text = String::from_utf8(bytes[3..].to_vec()).unwrap();
    let lines: Vec<&str> = text.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("Rechnungsnummer;Rechnungsdatum;"),
        "{text}"
    );
    assert!(lines[1].starts_with(&format!("{number};")), "{text}");
    assert!(
        lines[1].ends_with(";Regelsteuersatz;19;1000,00;190,00;1190,00"),
        "{text}"
    );

    // purchases.csv
    let (name, bytes) = download(&b, "#export-purchases").await;
    assert_eq!(name, format!("purchases_{suffix}.csv"));
    let text = String::from_utf8(bytes[3..].to_vec()).unwrap();
    assert!(
        text.contains(&format!("{purchase_number};INV-77;")),
        "{text}"
    );
    assert!(text.contains(";19;100,00;19,00;119,00"), "{text}");

    // datev.csv: the EXTF header line and the invoice's booking.
    let (name, bytes) = download(&b, "#export-datev").await;
    assert_eq!(name, format!("EXTF_Buchungsstapel_{suffix}.csv"));
    let text: String = bytes.iter().map(|&c| c as char).collect();
    let lines: Vec<&str> = text.split("\r\n").collect();
    let header: Vec<&str> = lines[0].split(';').collect();
    assert_eq!(
        &header[..5],
        ["\"EXTF\"", "700", "21", "\"Buchungsstapel\"", "13"]
    );
    assert_eq!(&header[10..12], ["29098", "55003"]);
    assert_eq!(header[14], from.format("%Y%m%d").to_string());
    assert_eq!(header[15], to.format("%Y%m%d").to_string());
    assert!(lines[1].starts_with("Umsatz (ohne Soll/Haben-Kz);Soll/Haben-Kennzeichen;"));
    let booking: Vec<&str> = lines[2].split(';').collect();
    assert_eq!(
        &booking[..11],
        [
            "1190,00",
            "\"S\"",
            "\"EUR\"",
            "",
            "",
            "",
            "12345",
            "8400",
            "",
            &today.format("%d%m").to_string(),
            &format!("\"{number}\"")
        ]
    );

    // documents.zip: the invoice PDF and the stored receipt.
    let (name, bytes) = download(&b, "#export-documents").await;
    assert_eq!(name, format!("documents_{suffix}.zip"));
    let mut names = zip_names(&bytes);
    names.sort();
    assert_eq!(
        names,
        [
            format!("invoices/{number}_{date}.pdf"),
            format!("purchases/{purchase_number}_{date}.pdf")
        ]
    );
    b.wait_text(&format!("documents_{suffix}.zip downloaded."))
        .await;

    // A period that ends before it starts cannot be downloaded.
    b.wait_js(
        "const i = document.querySelector('#export-to'); i.value = '2000-01-01';
         i.dispatchEvent(new Event('input', {bubbles: true})); return true;",
        vec![],
    )
    .await;
    b.wait_text("The period ends before it starts.").await;
    assert_eq!(b.prop("#export-datev", "disabled").await, "true");
    b.close().await;
}

fn b64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &c)| n | (u32::from(c) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}
