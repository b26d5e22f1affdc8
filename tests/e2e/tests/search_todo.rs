//! Issue 33 in Chromium against the real server with the release bundle: the dashboard's
//! to-do list links the exact list ("invoice drafts older than 3 days" opens the drafts of
//! that age); the top bar's one search finds a customer and an invoice from anywhere —
//! typing shows the hits grouped, a click opens the customer, Enter opens the first hit (an
//! invoice found by its amount typed as "1.190,00"), the arrow keys move through the hits.
//! English and German, light and dark, 1280 and 1024 px.

use chrono::{Duration, Local};
use kontor_e2e::{dist, Browser, Server};
use serde_json::json;

async fn type_search(b: &Browser, text: &str) {
    b.fill("#global-search", "").await;
    b.find("#global-search")
        .await
        .send_keys(text)
        .await
        .expect("type");
}

async fn wait_hits(b: &Browser) {
    b.wait_js(
        "const r = document.getElementById('global-search-results'); return !!r && r.querySelectorAll('[role=option]').length > 0;",
        vec![],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_todo_list_and_one_search_lead_to_the_record() {
    let server = Server::start(Some(dist()), vec![]).await;
    let kranzler = server.customer("Kranzler Bau GmbH").await;
    let today = Local::now().date_naive();
    let day = |n: i64| (today + Duration::days(n)).format("%Y-%m-%d").to_string();
    // A draft dated ten days ago (old) and one of today (not old).
    for (title, date) in [("Old draft scaffolding", day(-10)), ("Fresh draft", day(0))] {
        server
            .post(
                "/invoices",
                json!({"customer_id": kranzler, "recipient_address": "Kranzler Bau GmbH\nRing 1\n10115 Berlin",
                    "date": date, "due_date": day(14), "title": title, "tax": 19, "currency": "EUR", "status": "draft",
                    "items": [{"type": "item", "title": "Work", "quantity": 1, "unit_price": 50}]}),
            )
            .await;
    }
    // A finalized invoice of 1,000.00 net, 1,190.00 gross.
    let roof = server
        .post(
            "/invoices",
            json!({"customer_id": kranzler, "recipient_address": "Kranzler Bau GmbH\nRing 1\n10115 Berlin",
                "date": day(-1), "due_date": day(13), "title": "Roof repair", "tax": 19, "currency": "EUR",
                "items": [{"type": "item", "title": "Roof", "quantity": 1, "unit_price": 1000}]}),
        )
        .await;
    let roof_id = roof["id"].as_i64().unwrap();

    let b = Browser::start().await;
    b.sign_in_only(&server.base, &server.key).await;
    b.wait_text("To do today").await;
    b.wait_text_of(
        "#dash-todo-old_drafts",
        "1 invoice drafts older than 3 days",
    )
    .await;
    b.theme_screenshots("search-todo-01-dashboard").await;
    b.click("#dash-todo-old_drafts").await;
    b.wait_js(
        "return location.pathname.endsWith('/invoices') && location.search.includes('status=draft') && location.search.includes('date_to=');",
        vec![],
    )
    .await;
    b.wait_text("Old draft scaffolding").await;
    assert!(
        !b.body_text().await.contains("Fresh draft"),
        "only the old draft"
    );

    // From the dashboard: the customer by name, with a click.
    b.click(".sidenav a[href$='/dashboard']").await;
    b.wait_text("To do today").await;
    type_search(&b, "Kranzler").await;
    wait_hits(&b).await;
    b.wait_text_of(
        "#global-search-results [data-group=companies] .search-hit-label",
        "Kranzler Bau GmbH",
    )
    .await;
    b.theme_screenshots("search-todo-02-hits-en").await;
    b.click("#global-search-results [data-group=companies]")
        .await;
    b.wait_js(
        "return /\\/customers\\/\\d+$/.test(location.pathname);",
        vec![],
    )
    .await;
    b.wait_text("Kranzler Bau GmbH").await;

    // The invoice by its amount as typed in German; Enter opens the first hit.
    type_search(&b, "1.190,00").await;
    wait_hits(&b).await;
    b.find("#global-search")
        .await
        .send_keys("\n")
        .await
        .unwrap();
    b.wait_js(
        "return location.pathname.endsWith(arguments[0]);",
        vec![json!(format!("/invoices/{roof_id}"))],
    )
    .await;
    b.wait_text("Roof repair").await;

    // The arrow keys move through the hits; the field names the active one.
    type_search(&b, "Kranzler").await;
    wait_hits(&b).await;
    b.find("#global-search")
        .await
        .send_keys("\u{E015}\u{E015}")
        .await
        .unwrap();
    b.wait_js(
        "return document.getElementById('global-search').getAttribute('aria-activedescendant') === 'search-hit-1';",
        vec![],
    )
    .await;
    // Escape closes the list.
    b.find("#global-search")
        .await
        .send_keys("\u{E00C}")
        .await
        .unwrap();
    b.wait_js(
        "return !document.getElementById('global-search-results');",
        vec![],
    )
    .await;

    // German.
    b.client
        .execute("localStorage.setItem('kontor.language', 'de');", vec![])
        .await
        .unwrap();
    b.open(&server.base, "/dashboard").await;
    b.wait_text("Heute zu tun").await;
    b.wait_text("1 Rechnungsentwürfe älter als 3 Tage").await;
    b.theme_screenshots("search-todo-03-dashboard-de").await;
    type_search(&b, "Kranzler").await;
    wait_hits(&b).await;
    b.wait_js(
        "return document.getElementById('global-search-results').textContent.includes('Firmen');",
        vec![],
    )
    .await;
    b.theme_screenshots("search-todo-04-hits-de").await;
    b.close().await;
}
