//! Issue 2's end-to-end path in real Chromium against the real server with the release
//! bundle: sign in (a wrong key is refused), create an invoice with a title, two items
//! and a lump sum, find it in the list with the right gross total, open it, move it to
//! `sent`. And the same bundle hosted under `/kontor/` by a plain static server, signed
//! in to the Kontor server on another origin, with every page of the app (each from its
//! route chunk) visited there.

use fantoccini::Locator;
use kontor_e2e::{copy_dir, dist, dist_prefix, every_page, Browser, Server, StaticServer};
use serde_json::json;
use std::time::Duration;

async fn sign_in(b: &Browser, server: Option<&str>, key: &str) {
    b.api_key_mode().await;
    if let Some(address) = server {
        b.fill("#server", address).await;
    }
    b.fill("#api-key", key).await;
    b.click("form button[type=submit]").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn create_find_open_and_send_an_invoice() {
    let server = Server::start(Some(dist()), vec![]).await;
    server.customer("Hafen Logistik GmbH").await;
    let b = Browser::start().await;
    b.client.goto(&format!("{}/", server.base)).await.unwrap();

    sign_in(&b, None, "kontor_wrong").await;
    // Wait for the answer itself (the form says "Signing in…" until it comes; the label
    // "API key" is there all along): signing in again before would find the button busy.
    b.wait_js(
        "const e = document.querySelector('#sign-in-error'); const s = document.querySelector('#sign-in-submit'); return !!e && !!s && !s.disabled;",
        vec![],
    )
    .await;
    let text = b.body_text().await;
    assert!(
        text.to_lowercase().contains("unknown") || text.to_lowercase().contains("key"),
        "a wrong key is refused: {text}"
    );
    assert!(
        b.client
            .current_url()
            .await
            .unwrap()
            .path()
            .contains("sign-in"),
        "still on the sign-in page"
    );

    sign_in(&b, None, &server.key).await;
    // Sign-in lands on the dashboard (issue 11); the navigation opens the list.
    b.click(".sidenav a[href$='/invoices']").await;
    b.wait_text("No invoices yet").await;
    b.screenshot("01-empty-list").await;

    b.click("a[href$='/invoices/new']").await;
    b.pick_company("#f-customer_id", "Hafen Logistik GmbH")
        .await;
    b.fill("#f-title", "E2E website work").await;

    let row = |n: usize, field: &str| {
        format!(".pe-table tbody tr[data-row-key]:nth-of-type({n}) [data-field={field}]")
    };
    b.fill(&row(1, "title"), "Design").await;
    b.fill(&row(1, "quantity"), "2").await;
    b.fill(&row(1, "unit_price"), "50").await;
    b.click("button[data-add=item]").await;
    b.fill(&row(2, "title"), "Development").await;
    b.fill(&row(2, "quantity"), "3").await;
    b.fill(&row(2, "unit_price"), "80").await;
    b.click("button[data-add=item]").await;
    b.fill(&row(3, "title"), "Flat fee").await;
    b.fill(&row(3, "net_total"), "150").await;
    b.wait_text("583.10").await; // 490.00 net + 19 % tax, computed live in the browser
    b.screenshot("02-form").await;

    b.click("form button[type=submit]").await;
    // A number is assigned only after the confirmation "Finalize" asks too.
    b.click("dialog[open] #finalize-confirm").await;
    b.wait_text("R").await;
    b.wait_text("E2E website work").await;

    b.client
        .goto(&format!("{}/invoices", server.base))
        .await
        .unwrap();
    b.wait_text("E2E website work").await;
    let row_text = b
        .client
        .find(Locator::XPath("//tr[contains(., 'E2E website work')]"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        row_text.contains("583.10"),
        "gross total in the list: {row_text}"
    );
    assert!(
        row_text.contains("Hafen Logistik GmbH"),
        "customer name in the list: {row_text}"
    );
    b.screenshot("03-list").await;

    b.client
        .find(Locator::XPath("//tr[contains(., 'E2E website work')]//a"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    b.wait_text("Flat fee").await;
    let status = b.find("#status-move").await;
    status.select_by_value("sent").await.unwrap();
    b.client.wait().at_most(Duration::from_secs(10)).for_element(Locator::XPath("//dialog//button[contains(., 'Change status')] | //*[@role='dialog']//button[contains(., 'Change status')]")).await.unwrap().click().await.unwrap();
    b.wait_text("Sent").await;
    b.screenshot("04-detail-sent").await;

    let list = server.get("/invoices").await;
    assert_eq!(list[0]["status"], "sent");
    assert_eq!(list[0]["gross_total"].to_string(), "583.10");
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn bundle_under_a_prefix_on_a_static_server_talks_to_another_origin() {
    let root = tempfile::tempdir().unwrap();
    let mount = root.path().join("kontor");
    copy_dir(&dist_prefix(), &mount);
    let statics = StaticServer::start(root.path()).await;
    let server = Server::start(None, vec![statics.base.clone()]).await;
    let customer = server.customer("Prefix Kunde AG").await;
    server
        .post("/invoices", json!({"customer_id": customer, "recipient_address": "Prefix Kunde AG", "date": "2026-11-02", "due_date": "2099-12-31", "title": "Hosted elsewhere", "tax": 19, "currency": "EUR",
            "items": [{"type": "item", "title": "Hosting", "quantity": 1, "unit_price": 100}]}))
        .await;

    let b = Browser::start().await;
    b.client
        .goto(&format!("{}/kontor/", statics.base))
        .await
        .unwrap();
    sign_in(&b, Some(&server.base), &server.key).await;
    b.click(".sidenav a[href$='/invoices']").await;
    b.wait_text("Hosted elsewhere").await;
    let url = b.client.current_url().await.unwrap();
    assert!(
        url.path().starts_with("/kontor/"),
        "routes stay under the prefix: {url}"
    );
    assert!(b.body_text().await.contains("119.00"));
    b.client
        .find(Locator::XPath("//tr[contains(., 'Hosted elsewhere')]//a"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    b.wait_text("Hosting").await;
    assert!(b
        .client
        .current_url()
        .await
        .unwrap()
        .path()
        .starts_with("/kontor/invoices/"));
    b.screenshot("05-prefix-detail").await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn every_page_of_the_split_bundle_works_under_a_prefix_on_a_static_server() {
    let root = tempfile::tempdir().unwrap();
    copy_dir(&dist_prefix(), &root.path().join("kontor"));
    let statics = StaticServer::start(root.path()).await;
    let server = Server::start(None, vec![statics.base.clone()]).await;
    let records = server.one_of_each().await;

    let b = Browser::start().await;
    b.client
        .goto(&format!("{}/kontor/", statics.base))
        .await
        .unwrap();
    // Room for every file the tour fetches (Chromium keeps 250 entries by default).
    b.wait_js(
        "performance.setResourceTimingBufferSize(100000); return true;",
        vec![],
    )
    .await;
    sign_in(&b, Some(&server.base), &server.key).await;
    b.wait_js(
        "return location.pathname === '/kontor/dashboard' && !!document.querySelector('main h1');",
        vec![],
    )
    .await;
    for (path, name) in every_page(&records) {
        let path = format!("/kontor{path}");
        println!("visiting {path}");
        // In the app, as a link the router follows (a plain static server has no
        // index.html for deep links).
        b.wait_js(
            "const a = document.createElement('a'); a.href = arguments[0]; document.body.append(a); a.click(); a.remove(); return true;",
            vec![path.clone().into()],
        )
        .await;
        b.wait_js(
            "return location.pathname === arguments[0] && !!document.querySelector('main h1') && !document.querySelector('.chunk-error, .chunk-loading');",
            vec![path.clone().into()],
        )
        .await;
        assert!(
            !b.body_text().await.contains("could not be loaded"),
            "{path} shows a load error"
        );
        if name.ends_with("detail") {
            b.screenshot(&format!("prefix-{name}")).await;
        }
    }
    // Every wasm file came from under the prefix, and the pages needed many chunks.
    let wasm = b
        .wait_js(
            "return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.endsWith('.wasm'));",
            vec![],
        )
        .await;
    let wasm: Vec<String> = serde_json::from_value(wasm).unwrap();
    let prefix = format!("{}/kontor/", statics.base);
    assert!(wasm.iter().all(|n| n.starts_with(&prefix)), "{wasm:?}");
    let routes = wasm.iter().filter(|n| n.contains("/split_kontor_")).count();
    assert!(routes >= 10, "route chunks loaded: {wasm:?}");
    b.close().await;
}
