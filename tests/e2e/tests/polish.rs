//! Issue 11 § Polish in real Chromium against the real server with the release bundle:
//! every form (invoice, offer, purchase, customer, settings) at 1024 px wide, light and
//! dark, has each label directly above (or on the row of) its control and no horizontal
//! scrolling; a long invoice title wraps inside its card; a purchase repeating a
//! supplier's receipt number asks "Save anyway?" and is then saved.
//! Screenshots: `tests/e2e/artifacts/polish-*.png`.

use kontor_e2e::{dist, Browser, Server};
use serde_json::{json, Value};

/// Labels whose control is neither directly below them (within 16 px, overlapping
/// horizontally) nor on their row; plus "scroll" when the page scrolls sideways.
const ORPHANS: &str = r#"
const out = [];
const visible = (e) => !!e && e.offsetParent !== null && e.getClientRects().length > 0;
for (const label of document.querySelectorAll('main label[for], .page label[for]')) {
  const control = document.getElementById(label.htmlFor);
  // A drop zone's "Choose file…" is a label acting as the button of its hidden file input.
  if (!visible(label) || !visible(control) || control.type === 'file') continue;
  const l = label.getBoundingClientRect();
  const c = control.getBoundingClientRect();
  const overlap = Math.min(l.right, c.right) - Math.max(l.left, c.left);
  const above = c.top >= l.bottom - 2 && c.top - l.bottom <= 16 && overlap > 0;
  const lc = (l.top + l.bottom) / 2, cc = (c.top + c.bottom) / 2;
  const row = Math.abs(lc - cc) <= Math.max(l.height, c.height) / 2
    && (Math.abs(c.left - l.right) <= 48 || Math.abs(l.left - c.right) <= 48);
  if (!above && !row) out.push(label.textContent.trim() + ' (#' + label.htmlFor + ')');
  // A label must say what it labels on its own, not continue the field before it.
  if (/^(within|and|or|to|from)\b/.test(label.textContent.trim())) out.push('continuation: ' + label.textContent.trim());
}
if (document.documentElement.scrollWidth > window.innerWidth + 1) out.push('scroll ' + document.documentElement.scrollWidth);
return JSON.stringify(out);
"#;

async fn orphans(b: &Browser) -> Vec<String> {
    let raw = b.client.execute(ORPHANS, vec![]).await.unwrap();
    serde_json::from_str(raw.as_str().unwrap()).unwrap()
}

async fn theme(b: &Browser, dark: bool) {
    let script = if dark {
        "document.documentElement.dataset.theme = 'dark';"
    } else {
        "document.documentElement.dataset.theme = 'light';"
    };
    b.client.execute(script, vec![]).await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn forms_fit_at_1024_px_with_every_label_at_its_control() {
    let (server, customer) = Server::with_customer("Kranzler Bau GmbH").await;
    let long = "Website relaunch with multilingual content management, search engine \
        optimisation and hosting for the Donaudampfschifffahrtsgesellschaftskapitänsmützenabrechnungsstelle \
        of the Kranzler Bau GmbH group of companies, phase two";
    let invoice = server
        .post(
            "/invoices",
            json!({"customer_id": customer, "status": "draft", "title": long, "currency": "EUR",
                   "date": "2026-11-02", "due_date": "2099-12-31", "tax": 19,
                   "recipient_address": "Kranzler Bau GmbH\nRing 1\n10115 Berlin",
                   "items": [{"type": "item", "title": long, "quantity": 1, "unit": "pc", "unit_price": 123456.78}]}),
        )
        .await;
    let b = Browser::start().await;
    b.client.set_window_size(1024, 900).await.unwrap();
    b.sign_in(&server.base, &server.key).await;

    let forms = [
        ("invoice", "/invoices/new", "#f-title"),
        ("offer", "/offers/new", "#f-title"),
        ("purchase", "/purchases/new", "#f-receipt_identifier"),
        ("customer", "/customers/new", "#f-name"),
        ("settings", "/settings", "form.settings-section"),
    ];
    let mut problems = Vec::new();
    for (name, path, ready) in forms {
        b.open(&server.base, path).await;
        b.find(ready).await;
        tokio::time::sleep(std::time::Duration::from_millis(400)).await;
        for dark in [false, true] {
            theme(&b, dark).await;
            let shade = if dark { "dark" } else { "light" };
            b.screenshot(&format!("polish-{name}-1024-{shade}")).await;
            for o in orphans(&b).await {
                problems.push(format!("{name} ({shade}): {o}"));
            }
        }
        theme(&b, false).await;
    }
    assert!(
        problems.is_empty(),
        "orphaned labels or sideways scrolling: {problems:#?}"
    );

    // A long title wraps inside its card on the detail page; the amount stays whole.
    b.open(&server.base, &format!("/invoices/{}", invoice["id"]))
        .await;
    b.wait_text("Donaudampfschiff").await;
    let fits: Value = b
        .client
        .execute(
            "const h = document.querySelector('.detail-facts');
             const card = document.querySelector('.detail-head');
             const hr = h.getBoundingClientRect(), cr = card.getBoundingClientRect();
             const line = parseFloat(getComputedStyle(h).lineHeight) || 28;
             const spill = [...document.querySelectorAll('.section, .detail-head')]
               .filter(s => s.scrollWidth > s.clientWidth + 1).map(s => s.className);
             const money = [...document.querySelectorAll('.money')]
               .filter(m => m.getClientRects().length > 1 || m.scrollWidth > m.clientWidth + 1).map(m => m.textContent);
             return JSON.stringify({inside: hr.right <= cr.right + 1 && hr.left >= cr.left - 1,
               wrapped: hr.height > line * 1.5, spill, money,
               scroll: document.documentElement.scrollWidth > window.innerWidth + 1});",
            vec![],
        )
        .await
        .unwrap();
    let fits: Value = serde_json::from_str(fits.as_str().unwrap()).unwrap();
    b.screenshot("polish-long-title-1024").await;
    assert_eq!(fits["inside"], true, "{fits}");
    assert_eq!(fits["wrapped"], true, "{fits}");
    assert_eq!(fits["spill"], json!([]), "{fits}");
    assert_eq!(fits["money"], json!([]), "{fits}");
    assert_eq!(fits["scroll"], false, "{fits}");
    theme(&b, true).await;
    b.screenshot("polish-long-title-1024-dark").await;

    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_duplicate_receipt_number_asks_before_it_is_saved() {
    let server = Server::start(Some(dist()), vec![]).await;
    let supplier = server
        .post(
            "/companies",
            json!({"name": "Papier & Co. KG", "type": "supplier"}),
        )
        .await;
    let first = server
        .post(
            "/purchases",
            json!({"company_id": supplier["id"], "receipt_identifier": "RE-2026-17", "date": "2026-11-10",
                   "currency": "EUR", "payment_method": "bank_transfer",
                   "items": [{"title": "Printer paper", "total": 119, "tax": 19, "tax_included": true}]}),
        )
        .await;
    let number = first["identifier"].as_str().unwrap().to_string();
    let b = server.signed_in_browser().await;
    b.open(&server.base, "/purchases/new").await;
    b.pick_company("#f-company_id", "Papier & Co. KG").await;
    b.fill("#f-receipt_identifier", "re-2026-17").await;
    let cell = |class: &str| format!("tr.purchase-row:nth-of-type(1) .{class}");
    b.fill(&cell("item-title"), "Printer paper").await;
    b.fill(&cell("item-total"), "119").await;
    b.click("form.purchase-form .form-actions button[type=submit]")
        .await;
    b.wait_text(&format!(
        "A purchase with this receipt number from this supplier exists ({number}). Save anyway?"
    ))
    .await;
    b.screenshot("polish-duplicate-question").await;
    let listed = server.get("/purchases").await;
    assert_eq!(listed.as_array().unwrap().len(), 1, "nothing saved yet");

    b.click("#duplicate-save").await;
    b.wait_js(
        "return /^\\/purchases\\/\\d+$/.test(location.pathname) && !location.pathname.endsWith('/new');",
        vec![],
    )
    .await;
    let listed = server.get("/purchases").await;
    let all = listed.as_array().unwrap();
    assert_eq!(all.len(), 2, "saved after the question");
    assert!(all.iter().all(|p| p["receipt_identifier"]
        .as_str()
        .unwrap()
        .eq_ignore_ascii_case("RE-2026-17")));
    b.close().await;
}
