//! Issue 10's end-to-end path in real Chromium against the real server with the release
//! bundle: a supplier's XRechnung (UBL sample 01.01a) dropped on the purchase list becomes
//! a pending purchase with the document's gross total and its readable view; dropping it
//! again links to that purchase. An invoice whose account data is incomplete shows what is
//! missing when it is finalized ("Finalize anyway"); once the settings are complete its
//! detail says it is a Factur-X e-invoice and downloads the XRechnung XML in both syntaxes.
//! The form shows a 7 % position with its own tax line.
//!
//! Run: `trunk build --release && CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-e2e
//! --test einvoice -- --test-threads=1`.

use kontor_e2e::{dist, workspace, Browser, Server};
use serde_json::json;

const SAMPLE: &str = "01.01a-INVOICE_ubl.xml";

/// Drops a file named `name` with `content` and MIME `kind` on the element `css`, as the
/// browser does for a file dragged from the desktop.
async fn drop_file(b: &Browser, css: &str, name: &str, content: &str, kind: &str) {
    let script = "const [css, name, content, kind] = arguments;
        const dt = new DataTransfer();
        dt.items.add(new File([content], name, {type: kind}));
        const zone = document.querySelector(css);
        zone.dispatchEvent(new DragEvent('dragover', {dataTransfer: dt, bubbles: true, cancelable: true}));
        zone.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));";
    b.find(css).await;
    b.client
        .execute(
            script,
            vec![css.into(), name.into(), content.into(), kind.into()],
        )
        .await
        .expect("drop");
}

/// Screenshots at 1280 px and at 1024 px wide (then back to 1280); nothing when
/// screenshots are off.
async fn shots(b: &Browser, name: &str) {
    if !kontor_e2e::screenshots_wanted() {
        return;
    }
    b.screenshot(&format!("{name}-1280")).await;
    b.client.set_window_size(1024, 900).await.expect("resize");
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    b.screenshot(&format!("{name}-1024")).await;
    b.client.set_window_size(1280, 900).await.expect("resize");
}

/// Catches the next `<a download>` click and reads the file it would save:
/// `window.__saved = {name, text}`.
const CATCH_DOWNLOAD: &str = "window.__saved = null;
    const original = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function () {
        if (this.hasAttribute('download')) {
            const name = this.getAttribute('download');
            fetch(this.href).then(r => r.text()).then(text => { window.__saved = {name, text}; });
            return;
        }
        return original.call(this);
    };";

#[tokio::test(flavor = "multi_thread")]
async fn import_an_xrechnung_by_drag_and_drop_and_download_an_invoice_as_xrechnung() {
    let server = Server::start(Some(dist()), vec![]).await;
    let sample =
        std::fs::read_to_string(workspace().join("../shared/einvoice/samples").join(SAMPLE))
            .expect("sample e-invoice");
    let b = server.signed_in_browser().await;

    // Receiving: drop the XRechnung on the purchase list → the new purchase opens.
    b.open(&server.base, "/purchases").await;
    b.wait_text("Drop a supplier's e-invoice").await;
    drop_file(
        &b,
        ".einvoice-import .drop-zone",
        SAMPLE,
        &sample,
        "application/xml",
    )
    .await;
    let path = b
        .wait_js(
            "const p = location.pathname; return /^\\/purchases\\/\\d+$/.test(p) ? p : '';",
            vec![],
        )
        .await;
    let path = path.as_str().expect("path").to_string();
    let id: i64 = path.rsplit('/').next().unwrap().parse().unwrap();
    b.wait_text_of(".detail-total strong.money", "336.90 EUR")
        .await;
    b.wait_text("123456XX").await;
    b.wait_text("Imported 123456XX as a pending purchase.")
        .await;
    let purchase = server.get(&format!("/purchases/{id}")).await;
    assert_eq!(purchase["status"], "pending");
    assert_eq!(purchase["e_invoice"]["syntax"], "ubl", "{purchase}");
    // The readable view in a sandboxed frame, and the original file.
    let frame = "const f = document.querySelector('#einvoice iframe.einvoice-frame'); \
        return !!f && f.getAttribute('sandbox') === '' && f.src.startsWith('blob:');";
    b.wait_js(frame, vec![]).await;
    b.find("#einvoice-original").await;
    b.scroll_to("#einvoice").await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    shots(&b, "einvoice-01-imported-purchase").await;

    // The same document again, dropped anywhere on the list: nothing stored, a link to the
    // purchase that holds it.
    b.open(&server.base, "/purchases").await;
    b.find(".purchases-table").await;
    drop_file(&b, ".purchases-table", SAMPLE, &sample, "application/xml").await;
    b.wait_text("This e-invoice was imported before.").await;
    let link = b.prop("a.einvoice-existing", "href").await;
    assert!(link.ends_with(&path), "{link}");
    shots(&b, "einvoice-02-duplicate-on-list").await;
    let all = server.get("/purchases").await;
    assert_eq!(all.as_array().map(Vec::len), Some(1), "{all}");

    // The purchase form offers the import too.
    b.open(&server.base, "/purchases/new").await;
    b.find("#f-einvoice").await;
    b.wait_text("Have an e-invoice?").await;
    shots(&b, "einvoice-06-purchase-form").await;

    // Issuing: a draft for a customer while the account lacks the seller's data.
    let customer = server
        .create(
            "/companies",
            json!({"name": "Hafen Logistik GmbH", "type": "customer", "country_code": "DE",
                "address": "Hafenstraße 5\n20457 Hamburg", "email": "billing@hafen.example",
                "customer_vat": {"tax": 19}}),
        )
        .await;
    let draft = server
        .post(
            "/invoices",
            json!({"customer_id": customer, "status": "draft", "recipient_address": "Hafen Logistik GmbH\nHafenstraße 5\n20457 Hamburg",
                "date": "2026-11-02", "due_date": "2099-12-31", "title": "Consulting", "tax": 19, "currency": "EUR",
                "items": [{"type": "item", "title": "Consulting", "quantity": 2, "unit": "h", "unit_price": 100},
                          {"type": "item", "title": "Handbook", "quantity": 1, "unit": "pcs", "unit_price": 50, "tax": 7, "tax_category": "reduced"}]}),
        )
        .await;
    let draft_id = draft["id"].as_i64().unwrap();

    // The form: the handbook's VAT is 7 %, with its own tax line.
    b.open(&server.base, &format!("/invoices/{draft_id}/edit"))
        .await;
    b.wait_js(
        "return [...document.querySelectorAll('select.pe-vat-select')].map(s => s.value).join(',') === 'default,reduced:7';",
        vec![],
    )
    .await;
    b.wait_text_of("[data-tax-group='standard:19'] dd", "38.00 EUR")
        .await;
    b.wait_text_of("[data-tax-group='reduced:7'] dd", "3.50 EUR")
        .await;
    b.wait_text_of("[data-total=gross]", "291.50 EUR").await;
    b.client
        .execute(
            "document.querySelector('.totals-box').scrollIntoView({block: 'center'})",
            vec![],
        )
        .await
        .unwrap();
    shots(&b, "einvoice-03-form-two-rates").await;

    // Finalizing asks the server first and lists what is missing, with where to set it.
    b.open(&server.base, &format!("/invoices/{draft_id}")).await;
    b.wait_js(
        "const e = document.querySelector('#einvoice-status'); return !!e && e.textContent.includes('Not an e-invoice');",
        vec![],
    )
    .await;
    b.click("#finalize").await;
    b.wait_text("Not a valid e-invoice yet").await;
    b.wait_js(
        "return !!document.querySelector(\"dialog[open] li[data-missing='account.vat_identifier'] a[href$='/settings']\");",
        vec![],
    )
    .await;
    shots(&b, "einvoice-04-finalize-missing").await;
    b.click_in_dialog("Finalize anyway").await;
    b.wait_text("Finalized as").await;

    // The seller's data completed in the settings: the PDF is a Factur-X e-invoice and the
    // XRechnung XML downloads in both syntaxes.
    server.put("/account",
        json!({"name": "Kontor Test GmbH", "address": "Musterstraße 1\n10115 Berlin", "country_code": "DE",
            "vat_identifier": "DE123456788", "phone": "+49 30 1234567", "email": "billing@kontor.example",
            "iban": "DE89370400440532013000", "bic": "COBADEFFXXX", "account_holder": "Kontor Test GmbH"}),
    )
    .await;
    let readiness = server.get(&format!("/invoices/{draft_id}/e_invoice")).await;
    assert_eq!(readiness["ready"], true, "{readiness}");
    b.open(&server.base, &format!("/invoices/{draft_id}")).await;
    b.wait_js(
        "const e = document.querySelector('#einvoice-status'); return !!e && e.textContent.includes('E-invoice: Factur-X (EN 16931)');",
        vec![],
    )
    .await;
    b.wait_text("Download XRechnung (XML)").await;
    // The overview: the handbook's own VAT and one tax line per rate.
    b.wait_text("VAT 7 %").await;
    b.wait_text_of("[data-tax-group='reduced:7'] dd", "3.50 EUR")
        .await;
    shots(&b, "einvoice-05-invoice-detail").await;
    let identifier = server.get(&format!("/invoices/{draft_id}")).await["identifier"]
        .as_str()
        .expect("number")
        .to_string();
    for (syntax, root) in [("cii", "CrossIndustryInvoice"), ("ubl", "<Invoice")] {
        b.client.execute(CATCH_DOWNLOAD, vec![]).await.unwrap();
        b.select("#xml-syntax", syntax).await;
        b.click("#download-xml").await;
        let saved = b
            .wait_js("return window.__saved && window.__saved.name;", vec![])
            .await;
        assert_eq!(saved, format!("{identifier}.xml"));
        let text = b
            .client
            .execute("return window.__saved.text;", vec![])
            .await
            .unwrap();
        let text = text.as_str().unwrap_or_default();
        assert!(text.contains(root), "{syntax}: {text:.300}");
    }
    // The offer form has the same VAT menu; exempt asks for the reason (last: the form
    // stays unsaved).
    b.open(&server.base, "/offers/new").await;
    b.click("button[data-add=item]").await;
    b.find("select.pe-vat-select").await;
    b.select("select.pe-vat-select", "exempt").await;
    b.find("input.pe-reason").await;
    b.client
        .execute(
            "document.querySelector('.pe-table').scrollIntoView({block: 'center'})",
            vec![],
        )
        .await
        .unwrap();
    shots(&b, "einvoice-07-offer-form-exempt").await;
    b.close().await;
}
