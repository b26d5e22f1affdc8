//! Issue 37, first part: the app is installable (a manifest honouring the prefix), its
//! shell and the lists a person opened start without a network (the service worker's
//! caches, with "Offline — as of …"), signing out wipes the stored answers, and a new
//! release waits for "A new version is ready — Reload". The network is "gone" the hard way:
//! the servers are stopped, so every request fails as it would on a train.

use kontor_e2e::{copy_dir, dist, dist_prefix, Browser, Server, StaticServer};
use serde_json::{json, Value};
use std::time::Duration;

async fn invoice(server: &Server, title: &str) {
    let customer = server.customer("Zugfahrt GmbH").await;
    server
        .post("/invoices", json!({"customer_id": customer, "recipient_address": "Zugfahrt GmbH", "date": "2026-11-02", "due_date": "2099-12-31", "title": title, "tax": 19, "currency": "EUR",
            "items": [{"type": "item", "title": "Beratung", "quantity": 1, "unit_price": 100}]}))
        .await;
}

/// Sets the app's language (`en`, `de`) and reloads the page.
async fn reload_in(b: &Browser, language: &str) {
    b.wait_js(
        "localStorage.setItem('kontor.language', arguments[0]); return true;",
        vec![language.into()],
    )
    .await;
    b.client.refresh().await.unwrap();
}

/// Waits until the page is controlled by the service worker.
async fn controlled(b: &Browser) {
    b.wait_js("return !!navigator.serviceWorker.controller;", vec![])
        .await;
}

/// How many API answer stores the browser has (polled: the Cache API is asynchronous).
async fn wait_api_stores(b: &Browser, expected: &str) {
    let script = format!(
        "caches.keys().then(k => window.__stores = k.filter(n => n.startsWith('kontor-api-')).length); return window.__stores !== undefined && window.__stores {expected};"
    );
    b.wait_js(&script, vec![]).await;
    b.wait_js("window.__stores = undefined; return true;", vec![])
        .await;
}

/// Waits until an API store holds the answer of a request whose path ends with `path`:
/// the worker passes an answer on before it stores it, and the store's name appears before
/// the answer is in it, so the store's count alone does not say the list can be read
/// offline.
async fn wait_api_stored(b: &Browser, path: &str) {
    let script = "const [path] = arguments; \
        caches.keys().then(names => Promise.all(names.filter(n => n.startsWith('kontor-api-')) \
          .map(n => caches.open(n).then(c => c.keys())))) \
        .then(stores => window.__stored = stores.flat() \
          .some(k => new URL(k.url).pathname.endsWith(path))); \
        return window.__stored === true;";
    b.wait_js(script, vec![path.into()]).await;
    b.wait_js("window.__stored = undefined; return true;", vec![])
        .await;
}

/// The manifest the page links, read through the page (its URL is relative to the base).
async fn manifest(b: &Browser) -> (String, Value) {
    let href = b
        .wait_js(
            "return document.querySelector('link[rel=manifest]')?.href;",
            vec![],
        )
        .await;
    let href = href.as_str().unwrap().to_string();
    let text = b
        .client
        .execute_async(
            "const [url, done] = arguments; fetch(url).then(r => r.text()).then(done, e => done(String(e)));",
            vec![href.clone().into()],
        )
        .await
        .unwrap();
    let manifest: Value = serde_json::from_str(text.as_str().unwrap()).unwrap();
    (href, manifest)
}

#[tokio::test(flavor = "multi_thread")]
async fn the_app_starts_and_reads_the_last_list_without_a_network_and_sign_out_wipes_it() {
    let mut server = Server::start(Some(dist()), vec![]).await;
    invoice(&server, "Offline lesbar").await;
    let b = server.signed_in_browser().await;

    let (href, m) = manifest(&b).await;
    assert_eq!(href, format!("{}/manifest.webmanifest", server.base));
    assert_eq!(m["name"], "Kontor");
    assert_eq!(m["start_url"], "./");
    assert_eq!(m["scope"], "./");
    assert_eq!(m["display"], "standalone");
    assert!(m["icons"].as_array().is_some_and(|i| !i.is_empty()), "{m}");

    controlled(&b).await;
    // The list again, now through the worker: its answer is stored.
    b.client.refresh().await.unwrap();
    b.wait_text("Offline lesbar").await;
    wait_api_stores(&b, "=== 1").await;
    wait_api_stored(&b, "/api/v1/invoices").await;

    server.stop().await;
    b.client.refresh().await.unwrap();
    b.wait_text("Offline lesbar").await;
    b.wait_js(
        "return document.querySelector('#offline-notice')?.textContent.startsWith('Offline — as of ');",
        vec![],
    )
    .await;
    assert!(b.path().await.ends_with("/invoices"));
    b.theme_screenshots("offline-notice-en").await;
    // In German, still offline.
    reload_in(&b, "de").await;
    b.wait_js(
        "return document.querySelector('#offline-notice')?.textContent.startsWith('Offline – Stand ');",
        vec![],
    )
    .await;
    b.theme_screenshots("offline-notice-de").await;
    b.wait_js(
        "localStorage.setItem('kontor.language', 'en'); return true;",
        vec![],
    )
    .await;

    // Back online: the next answer comes from the server and the notice goes.
    server.resume().await;
    b.client.refresh().await.unwrap();
    b.wait_text("Offline lesbar").await;
    b.wait_js("return !document.querySelector('#offline-notice');", vec![])
        .await;

    // Signing out deletes every stored answer.
    b.click("#user-menu-button").await;
    b.click("#sign-out").await;
    b.wait_js("return location.pathname.endsWith('/sign-in');", vec![])
        .await;
    wait_api_stores(&b, "=== 0").await;
    b.close().await;
}

/// The number of answers in the API store of this key and whether `url` is among them,
/// once two reads 300 ms apart agree (the worker stores answers after passing them on).
async fn settled_api_store(b: &Browser, url: &str) -> (u64, bool) {
    let read = "const [url, done] = arguments; \
        caches.keys().then(names => names.find(n => n.startsWith('kontor-api-'))) \
        .then(name => caches.open(name)).then(c => c.keys()) \
        .then(keys => done([keys.length, keys.some(k => k.url === url)]), e => done(String(e)));";
    let mut last = Value::Null;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let now = b
            .client
            .execute_async(read, vec![url.into()])
            .await
            .unwrap();
        if now == last {
            break;
        }
        last = now;
    }
    (
        last[0].as_u64().expect("a count"),
        last[1] == Value::Bool(true),
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn the_api_store_keeps_at_most_300_answers_the_newest_among_them() {
    let server = Server::start(Some(dist()), vec![]).await;
    invoice(&server, "Viele Seiten").await;
    let b = server.signed_in_browser().await;
    controlled(&b).await;
    // 330 different answers read through the worker, one after another, as pages would.
    let fetched = b
        .client
        .execute_async(
            "const [key, done] = arguments; (async () => { \
               for (let page = 1; page <= 330; page++) { \
                 const r = await fetch(`/api/v1/invoices?per_page=1&page=${page}`, \
                   {headers: {Authorization: `Token token=${key}`}}); \
                 if (!r.ok) return `page ${page}: ${r.status}`; \
               } return 'ok'; })().then(done, e => done(String(e)));",
            vec![server.key.clone().into()],
        )
        .await
        .unwrap();
    assert_eq!(fetched, "ok");
    let newest = format!("{}/api/v1/invoices?per_page=1&page=330", server.base);
    let (stored, has_newest) = settled_api_store(&b, &newest).await;
    assert!(
        (250..=300).contains(&stored),
        "{stored} answers stored for one key (at most 300, trimmed down to 275)"
    );
    assert!(has_newest, "the newest answer was trimmed away");
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_new_release_waits_for_reload_and_takes_over_in_one_step() {
    let root = tempfile::tempdir().unwrap();
    copy_dir(&dist(), root.path());
    let server = Server::start(Some(root.path().to_path_buf()), vec![]).await;
    let b = server.signed_in_browser().await;
    controlled(&b).await;
    let first = b
        .wait_js(
            "return navigator.serviceWorker.controller.scriptURL;",
            vec![],
        )
        .await;
    assert_eq!(first, format!("{}/sw.js", server.base).as_str());
    b.wait_js("return !document.querySelector('#update-notice');", vec![])
        .await;

    // A new release: another service worker (the compressed copies are the old ones'; the
    // server sends the file itself to a browser that asks for it without them).
    let sw = root.path().join("sw.js");
    let text = std::fs::read_to_string(&sw).unwrap();
    std::fs::write(
        &sw,
        text.replacen("const VERSION = \"", "const VERSION = \"next-", 1),
    )
    .unwrap();
    for copy in ["sw.js.br", "sw.js.gz"] {
        let _ = std::fs::remove_file(root.path().join(copy));
    }
    b.client
        .execute(
            "navigator.serviceWorker.getRegistration().then(r => r.update());",
            vec![],
        )
        .await
        .unwrap();
    b.wait_text("A new version is ready.").await;
    b.screenshot("offline-update-ready").await;
    // Until the person reloads, the page stays with its release.
    let waiting_version = b
        .wait_js(
            "navigator.serviceWorker.getRegistration().then(r => window.__waiting = !!r.waiting); return window.__waiting;",
            vec![],
        )
        .await;
    assert_eq!(waiting_version, true);
    b.click("#update-reload").await;
    b.wait_js(
        "return performance.getEntriesByType('navigation')[0]?.type === 'reload' && !!document.querySelector('.page-head h1');",
        vec![],
    )
    .await;
    b.wait_js(
        "navigator.serviceWorker.getRegistration().then(r => window.__settled = !r.waiting && !!r.active); return window.__settled && !document.querySelector('#update-notice');",
        vec![],
    )
    .await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn under_a_prefix_on_a_static_server_the_shell_and_list_start_offline() {
    let root = tempfile::tempdir().unwrap();
    copy_dir(&dist_prefix(), &root.path().join("kontor"));
    let statics = StaticServer::start(root.path()).await;
    let mut server = Server::start(None, vec![statics.base.clone()]).await;
    invoice(&server, "Mit Präfix offline").await;

    let b = Browser::start().await;
    b.client
        .goto(&format!("{}/kontor/", statics.base))
        .await
        .unwrap();
    let (href, m) = manifest(&b).await;
    assert_eq!(
        href,
        format!("{}/kontor/manifest.webmanifest", statics.base)
    );
    assert_eq!(m["start_url"], "./");
    b.api_key_mode().await;
    b.fill("#server", &server.base).await;
    b.fill("#api-key", &server.key).await;
    b.click("form button[type=submit]").await;
    b.wait_js(
        "return location.pathname === '/kontor/dashboard' && !!document.querySelector('main h1');",
        vec![],
    )
    .await;
    controlled(&b).await;
    let scope = b
        .wait_js(
            "navigator.serviceWorker.getRegistration().then(r => window.__scope = r.scope); return window.__scope;",
            vec![],
        )
        .await;
    assert_eq!(scope, format!("{}/kontor/", statics.base).as_str());
    b.click(".sidenav a[href$='/invoices']").await;
    b.wait_text("Mit Präfix offline").await;
    wait_api_stores(&b, ">= 1").await;
    wait_api_stored(&b, "/api/v1/invoices").await;

    // Both servers gone: the bundle's and the API's.
    drop(statics);
    server.stop().await;
    b.client.refresh().await.unwrap();
    b.wait_text("Mit Präfix offline").await;
    b.wait_js(
        "return document.querySelector('#offline-notice')?.textContent.startsWith('Offline — as of ');",
        vec![],
    )
    .await;
    assert_eq!(b.path().await, "/kontor/invoices");
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_half_typed_offer_survives_a_reload_until_it_is_saved() {
    let server = Server::start(Some(dist()), vec![]).await;
    let customer = server.customer("Werft Nord GmbH").await;
    let b = server.signed_in_browser().await;
    b.open(&server.base, "/offers/new").await;
    b.pick_company("#f-company_id", "Werft Nord GmbH").await;
    b.wait_picked("#f-company_id", &customer.to_string()).await;
    let row = |field: &str| {
        format!(".pe-table tbody tr[data-row-key]:nth-of-type(1) [data-field={field}]")
    };
    b.fill("#f-title", "Rumpfreinigung").await;
    b.fill(&row("title"), "Hochdruckreinigung").await;
    b.fill(&row("quantity"), "3,5x").await;
    tokio::time::sleep(Duration::from_millis(900)).await;

    // A reload (or a crash): the form offers what was typed.
    b.reload_and_restore_local_draft("#f-title").await;
    b.wait_js(
        "return document.querySelector('#f-title').value === 'Rumpfreinigung';",
        vec![],
    )
    .await;
    assert_eq!(b.prop(&row("title"), "value").await, "Hochdruckreinigung");
    assert_eq!(b.prop(&row("quantity"), "value").await, "3,5x");
    b.wait_picked("#f-company_id", &customer.to_string()).await;

    // Saved: nothing is offered any more.
    b.fill(&row("quantity"), "3").await;
    b.fill(&row("unit_price"), "250").await;
    b.click("#offer-save").await;
    b.wait_js(
        "return /^\\/offers\\/\\d+$/.test(location.pathname);",
        vec![],
    )
    .await;
    let saved = server.get(&b.path().await).await;
    assert_eq!(saved["title"], "Rumpfreinigung");
    assert_eq!(saved["company"]["id"], json!(customer));
    b.assert_no_local_draft_offered(&server.base, "/offers/new", "#f-title")
        .await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_half_typed_company_survives_a_reload_until_it_is_saved() {
    let server = Server::start(Some(dist()), vec![]).await;
    let b = server.signed_in_browser().await;
    b.open(&server.base, "/customers/new").await;
    b.fill("#f-name", "Fähre Süd KG").await;
    b.fill("#f-iban", "DE89 3704 0044 0532 0130 00").await;
    b.fill("#f-info", "Anruf nur vormittags").await;
    tokio::time::sleep(Duration::from_millis(900)).await;

    b.reload_and_restore_local_draft("#f-name").await;
    b.wait_js(
        "return document.querySelector('#f-name').value === 'Fähre Süd KG';",
        vec![],
    )
    .await;
    assert_eq!(
        b.prop("#f-iban", "value").await,
        "DE89 3704 0044 0532 0130 00"
    );
    assert_eq!(b.prop("#f-info", "value").await, "Anruf nur vormittags");

    b.click(".company-form .form-actions button.btn-primary")
        .await;
    b.wait_js(
        "return /^\\/customers\\/\\d+$/.test(location.pathname);",
        vec![],
    )
    .await;
    let id = b.path().await.rsplit('/').next().unwrap().to_string();
    let saved = server.get(&format!("/companies/{id}")).await;
    assert_eq!(saved["name"], "Fähre Süd KG");
    assert_eq!(saved["info"], "Anruf nur vormittags");
    b.assert_no_local_draft_offered(&server.base, "/customers/new", "#f-name")
        .await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_half_typed_purchase_and_recurring_invoice_survive_a_reload_until_saved() {
    let server = Server::start(Some(dist()), vec![]).await;
    let customer = server.customer("Kranich Druck GmbH").await;
    let b = server.signed_in_browser().await;

    // A purchase: its texts come back exactly as typed (the receipt file is attached again).
    b.open(&server.base, "/purchases/new").await;
    b.fill("#f-title", "Papier Dezember").await;
    b.fill("#f-receipt_identifier", "RE-4711").await;
    b.fill(".purchase-row .item-title", "Papier A4").await;
    b.fill(".purchase-row .item-total", "59,90x").await;
    tokio::time::sleep(Duration::from_millis(900)).await;
    b.reload_and_restore_local_draft("#f-title").await;
    b.wait_js(
        "return document.querySelector('#f-title').value === 'Papier Dezember';",
        vec![],
    )
    .await;
    assert_eq!(b.prop("#f-receipt_identifier", "value").await, "RE-4711");
    assert_eq!(
        b.prop(".purchase-row .item-title", "value").await,
        "Papier A4"
    );
    assert_eq!(b.prop(".purchase-row .item-total", "value").await, "59,90x");

    // A recurring invoice: the template and the schedule.
    b.open(&server.base, "/recurring_invoices/new").await;
    b.pick_company("#f-customer_id", "Kranich Druck GmbH").await;
    b.wait_picked("#f-customer_id", &customer.to_string()).await;
    b.fill("#f-title", "Wartung {month} {year}").await;
    b.click("input[name=mode][value=finalize]").await;
    tokio::time::sleep(Duration::from_millis(900)).await;
    b.reload_and_restore_local_draft("#f-title").await;
    b.wait_js(
        "return document.querySelector('#f-title').value === 'Wartung {month} {year}';",
        vec![],
    )
    .await;
    b.wait_picked("#f-customer_id", &customer.to_string()).await;
    b.wait_js(
        "return document.querySelector('input[name=mode][value=finalize]').checked;",
        vec![],
    )
    .await;
    b.close().await;
}

/// The outbox stored in the page's `localStorage` (`kontor.draft.{owner}.outbox`).
async fn stored_outbox(b: &Browser) -> Value {
    let text = b
        .wait_js(
            "const k = Object.keys(localStorage).find(k => k.endsWith('.outbox')); return k ? localStorage.getItem(k) : null;",
            vec![],
        )
        .await;
    serde_json::from_str(text.as_str().unwrap()).unwrap()
}

/// A 1×1 PNG: the receipt photo.
const PNG: [u8; 70] = [
    137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0,
    0, 0, 31, 21, 196, 137, 0, 0, 0, 13, 73, 68, 65, 84, 120, 218, 99, 252, 207, 192, 80, 15, 0, 4,
    133, 1, 128, 132, 169, 140, 33, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
];

async fn count_of(server: &Server, path: &str, field: &str, value: &str) -> usize {
    let list = server.get(path).await;
    list.as_array()
        .unwrap()
        .iter()
        .filter(|r| r[field] == value)
        .count()
}

#[tokio::test(flavor = "multi_thread")]
async fn drafts_saved_offline_wait_in_the_outbox_and_reach_the_server_exactly_once() {
    let mut server = Server::start(Some(dist()), vec![]).await;
    let customer = server.customer("Bahnhof Catering GmbH").await;
    let doomed = server.customer("Gleis 9 GmbH").await;
    let row = |field: &str| {
        format!(".pe-table tbody tr[data-row-key]:nth-of-type(1) [data-field={field}]")
    };
    let b = server.signed_in_browser().await;
    controlled(&b).await;
    // Online once: the pages' answers (account, session) are stored for offline use.
    b.open(&server.base, "/customers/new").await;
    b.find("#f-name").await;
    b.open(&server.base, "/purchases/new").await;
    b.find("#f-title").await;
    b.open(&server.base, "/invoices/new").await;
    b.pick_company("#f-customer_id", "Bahnhof Catering GmbH")
        .await;
    b.wait_picked("#f-customer_id", &customer.to_string()).await;

    // The connection goes: a draft invoice is saved into the outbox.
    server.stop().await;
    b.fill("#f-title", "Verpflegung im Zug").await;
    b.fill(&row("title"), "Brötchen").await;
    b.fill(&row("quantity"), "12").await;
    b.fill(&row("unit_price"), "2.50").await;
    let save_draft = ".invoice-form .page-head .page-actions button.btn:not(.btn-primary)";
    b.click(save_draft).await;
    b.wait_text("Saved offline. It will be sent when the connection returns.")
        .await;
    b.wait_js(
        "return document.querySelector('#outbox-count')?.textContent === 'Outbox: 1';",
        vec![],
    )
    .await;

    // A purchase with its receipt photo, offline too (the pages come from the worker).
    let files = tempfile::tempdir().unwrap();
    let photo = files.path().join("beleg.png");
    std::fs::write(&photo, PNG).unwrap();
    b.open(&server.base, "/purchases/new").await;
    b.fill("#f-title", "Fahrkarte Hamburg").await;
    b.fill(".purchase-row .item-title", "ICE Hamburg").await;
    b.fill(".purchase-row .item-total", "89.90").await;
    b.find("#f-file")
        .await
        .send_keys(photo.to_str().unwrap())
        .await
        .unwrap();
    b.wait_text("Attached: beleg.png").await;
    b.click("form.purchase-form .form-actions button[type=submit]")
        .await;
    b.wait_js(
        "return document.querySelector('#outbox-count')?.textContent === 'Outbox: 2';",
        vec![],
    )
    .await;

    // And a new company.
    b.open(&server.base, "/customers/new").await;
    b.fill("#f-name", "Speisewagen KG").await;
    b.click(".company-form .form-actions button.btn-primary")
        .await;
    b.wait_js(
        "return document.querySelector('#outbox-count')?.textContent === 'Outbox: 3';",
        vec![],
    )
    .await;
    let outbox = stored_outbox(&b).await;
    let items = outbox["items"].as_array().unwrap();
    assert_eq!(items.len(), 3);
    assert_eq!(items[0]["kind"], "invoice");
    assert_eq!(items[0]["label"], "Bahnhof Catering GmbH");
    assert_eq!(items[1]["kind"], "purchase");
    assert_eq!(items[2]["kind"], "company");
    let invoice_key = items[0]["key"].as_str().unwrap().to_string();
    assert_ne!(invoice_key, items[1]["key"].as_str().unwrap());

    b.click("#outbox-count").await;
    b.wait_js(
        "return document.querySelectorAll('#outbox .outbox-item').length === 3;",
        vec![],
    )
    .await;
    let rows = b.find("#outbox tbody").await.text().await.unwrap();
    let order: Vec<usize> = ["Draft invoice", "New purchase", "New company"]
        .iter()
        .map(|k| rows.find(k).unwrap())
        .collect();
    assert!(
        order.windows(2).all(|w| w[0] < w[1]),
        "oldest first: {rows}"
    );
    b.theme_screenshots("offline-outbox-en").await;
    // In German, after a reload without the server: the outbox is still there.
    reload_in(&b, "de").await;
    b.wait_js(
        "return document.querySelector('#outbox-count')?.textContent === 'Postausgang: 3' && document.querySelectorAll('#outbox .outbox-item').length === 3;",
        vec![],
    )
    .await;
    b.wait_text("Rechnungsentwurf").await;
    b.theme_screenshots("offline-outbox-de").await;
    reload_in(&b, "en").await;
    b.wait_text("Draft invoice").await;

    // The server comes back; the first creation had in fact reached it, its answer lost
    // on the way (the same key and body as the app's first attempt).
    server.resume().await;
    let answer = reqwest::Client::new()
        .post(format!("{}/api/v1/invoices", server.base))
        .header("Authorization", format!("Token token={}", server.key))
        .header("Idempotency-Key", &invoice_key)
        .header("Content-Type", "application/json")
        .body(items[0]["body"].as_str().unwrap().to_string())
        .send()
        .await
        .unwrap();
    let status = answer.status();
    assert!(
        status.is_success(),
        "{status} {}",
        answer.text().await.unwrap_or_default()
    );

    // "Send now": all go, in order; the invoice is answered, not written again.
    b.click("#outbox-send").await;
    b.wait_js(
        "return !document.querySelector('#outbox-count') && !!document.querySelector('#outbox-empty');",
        vec![],
    )
    .await;
    assert_eq!(
        count_of(
            &server,
            "/invoices?per_page=100",
            "title",
            "Verpflegung im Zug"
        )
        .await,
        1
    );
    let purchases = server.get("/purchases?per_page=100").await;
    let stored: Vec<&Value> = purchases
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["title"] == "Fahrkarte Hamburg")
        .collect();
    assert_eq!(stored.len(), 1, "{purchases}");
    let link = stored[0]["file_url"].as_str().expect("a stored receipt");
    let link = if link.starts_with("http") {
        link.to_string()
    } else {
        format!("{}{link}", server.base)
    };
    let receipt = reqwest::get(&link).await.unwrap().bytes().await.unwrap();
    assert_eq!(&receipt[..], &PNG[..], "the receipt photo arrived whole");
    assert_eq!(
        count_of(&server, "/companies?per_page=100", "name", "Speisewagen KG").await,
        1
    );

    // A refusal stays for correction: a draft for a customer deleted before it is sent.
    b.open(&server.base, "/invoices/new").await;
    b.pick_company("#f-customer_id", "Gleis 9 GmbH").await;
    b.wait_picked("#f-customer_id", &doomed.to_string()).await;
    server.stop().await;
    b.fill("#f-title", "Nie gesendet").await;
    b.fill(&row("title"), "Kaffee").await;
    b.fill(&row("quantity"), "1").await;
    b.fill(&row("unit_price"), "3").await;
    b.click(save_draft).await;
    b.wait_js(
        "return document.querySelector('#outbox-count')?.textContent === 'Outbox: 1';",
        vec![],
    )
    .await;
    server.resume().await;
    let deleted = reqwest::Client::new()
        .delete(format!("{}/api/v1/companies/{doomed}", server.base))
        .header("Authorization", format!("Token token={}", server.key))
        .send()
        .await
        .unwrap();
    assert!(deleted.status().is_success(), "{}", deleted.status());
    // A reload sends what waits as soon as the session is known.
    b.client.refresh().await.unwrap();
    b.click("#outbox-count").await;
    b.wait_js(
        "return document.querySelector('#outbox .outbox-item.refused .outbox-errors')?.textContent.includes('customer_id');",
        vec![],
    )
    .await;
    b.theme_screenshots("offline-outbox-refused").await;
    assert_eq!(
        count_of(&server, "/invoices?per_page=100", "title", "Nie gesendet").await,
        0
    );
    // "Correct" opens the form with what was typed, offered as unsaved changes.
    b.click("#outbox .outbox-correct").await;
    b.wait_js(
        "return location.pathname === '/invoices/new' && !!document.querySelector('#local-draft-notice');",
        vec![],
    )
    .await;
    b.click("#local-draft-restore").await;
    b.wait_js(
        "return document.querySelector('#f-title').value === 'Nie gesendet';",
        vec![],
    )
    .await;
    assert!(!b.body_text().await.contains("Outbox: "));
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn under_a_prefix_a_company_saved_offline_is_sent_once_when_the_server_returns() {
    let root = tempfile::tempdir().unwrap();
    copy_dir(&dist_prefix(), &root.path().join("kontor"));
    let statics = StaticServer::start(root.path()).await;
    let mut server = Server::start(None, vec![statics.base.clone()]).await;

    let b = Browser::start().await;
    b.client
        .goto(&format!("{}/kontor/", statics.base))
        .await
        .unwrap();
    b.api_key_mode().await;
    b.fill("#server", &server.base).await;
    b.fill("#api-key", &server.key).await;
    b.click("form button[type=submit]").await;
    b.wait_js(
        "return location.pathname === '/kontor/dashboard' && !!document.querySelector('main h1');",
        vec![],
    )
    .await;
    controlled(&b).await;
    b.click(".sidenav a[href$='/customers']").await;
    b.click(".page-head a[href$='/customers/new']").await;
    b.find("#f-name").await;

    // The API server goes (the bundle's server stays): the company waits in the outbox.
    server.stop().await;
    b.fill("#f-name", "Präfix Reisen GmbH").await;
    b.click(".company-form .form-actions button.btn-primary")
        .await;
    b.wait_js(
        "return document.querySelector('#outbox-count')?.textContent === 'Outbox: 1';",
        vec![],
    )
    .await;
    let link = b.prop("#outbox-count", "href").await;
    assert_eq!(link, format!("{}/kontor/outbox", statics.base));

    // Back: opening the app again sends it as soon as the session is known; once. (The
    // plain static server has no fallback for deep links: the app is opened at its root.)
    server.resume().await;
    b.client
        .goto(&format!("{}/kontor/", statics.base))
        .await
        .unwrap();
    b.find(".sidenav").await;
    b.wait_js(
        "return !document.querySelector('#outbox-count') && !Object.keys(localStorage).some(k => k.endsWith('.outbox'));",
        vec![],
    )
    .await;
    assert_eq!(
        count_of(
            &server,
            "/companies?per_page=100",
            "name",
            "Präfix Reisen GmbH"
        )
        .await,
        1
    );
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_deletion_offline_says_it_needs_the_server_and_changes_nothing() {
    let mut server = Server::start(Some(dist()), vec![]).await;
    let customer = server.customer("Stellwerk GmbH").await;
    let draft = server
        .create(
            "/invoices",
            json!({"customer_id": customer, "status": "draft", "title": "Bleibt bestehen",
                "items": [{"type": "item", "title": "Wartung", "quantity": 1, "unit_price": 80}]}),
        )
        .await;
    let b = server.signed_in_browser().await;
    controlled(&b).await;
    b.open(&server.base, &format!("/invoices/{draft}")).await;
    b.wait_text("Bleibt bestehen").await;

    // Offline, the detail comes from the worker's store; deleting is not queued.
    server.stop().await;
    b.client.refresh().await.unwrap();
    b.wait_text("Bleibt bestehen").await;
    b.find("#offline-notice").await;
    b.click(".page-actions .btn-danger-quiet").await;
    b.click("dialog[open] .dialog-actions .btn-danger").await;
    b.wait_text("This needs the server. Finalizing, sending, payments and deletions are possible again once you are online.")
        .await;
    b.screenshot("offline-needs-server").await;
    assert!(!b.body_text().await.contains("Outbox: "));

    server.resume().await;
    let kept = server.get(&format!("/invoices/{draft}")).await;
    assert_eq!(kept["title"], "Bleibt bestehen");
    b.close().await;
}
