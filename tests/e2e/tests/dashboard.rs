//! Issue 11 (Find and see: the dashboard) in real Chromium against the real server with
//! the release bundle: sign-in lands on the dashboard, an empty account gets friendly
//! empty states, the figures of a known data set show, and a figure links to the list
//! filtered to exactly its records (overdue → `/invoices?overdue=true`, pending purchases
//! → `/purchases?status=pending`). Screenshots light and dark at 1280 and 1024 px.

use kontor_e2e::{dist, Browser, Server};
use serde_json::{json, Value};

/// Creates a finalized invoice of one 19 % item of `net` EUR; its JSON.
async fn invoice(
    server: &Server,
    customer: i64,
    title: &str,
    net: u32,
    date: &str,
    due: &str,
) -> Value {
    let body = json!({"customer_id": customer, "recipient_address": "Ring 1\n10115 Berlin",
        "date": date, "due_date": due, "title": title, "tax": 19, "currency": "EUR",
        "items": [{"type": "item", "title": "Work", "quantity": 1, "unit": "h", "unit_price": net}]});
    server.post("/invoices", body).await
}

/// The trimmed text of the first element matching `css`.
async fn text_of(b: &Browser, css: &str) -> String {
    b.find(css)
        .await
        .text()
        .await
        .unwrap_or_default()
        .trim()
        .to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn sign_in_lands_on_the_dashboard_and_a_figure_opens_its_list() {
    let server = Server::start(Some(dist()), vec![]).await;
    let b = Browser::start().await;
    b.sign_in_only(&server.base, &server.key).await;
    assert!(b.path().await.ends_with("/dashboard"));
    // The navigation starts with the dashboard, marked as the current page.
    let first_nav = text_of(&b, ".sidenav ul li:first-child a").await;
    assert_eq!(first_nav, "Dashboard");
    // An empty account: every card says there is nothing, in words.
    b.wait_text("Nothing open").await;
    b.wait_text("Nothing overdue.").await;
    b.wait_text("No revenue in the last 12 months yet").await;
    b.wait_text("No purchases waiting for approval.").await;
    b.wait_text("No sent offers waiting for an answer.").await;
    b.wait_text("Nothing to show yet").await;
    b.theme_screenshots("dashboard-empty").await;

    // A known data set: one overdue invoice (119.00), one open but not due (238.00 −
    // 38.00 paid = 200.00), a pending purchase and a sent offer.
    let kranzler = server.customer("Kranzler Bau GmbH").await;
    let overdue = invoice(
        &server,
        kranzler,
        "Facade works",
        100,
        "2026-10-01",
        "2026-10-15",
    )
    .await;
    let later = invoice(
        &server,
        kranzler,
        "Roof repair",
        200,
        "2026-11-02",
        "2099-12-31",
    )
    .await;
    server
        .post(
            "/invoices/payments",
            json!({"invoice_id": later["id"], "date": "2026-11-10", "paid_total": 38}),
        )
        .await;
    server
        .post(
            "/purchases",
            json!({"date": "2026-11-10", "currency": "EUR", "payment_method": "bank_transfer",
                   "items": [{"title": "Printer paper", "total": 119, "tax": 19, "tax_included": true}]}),
        )
        .await;
    let offer = server
        .post(
            "/offers",
            json!({"company_id": kranzler, "recipient_address": "Kranzler Bau GmbH", "date": "2026-11-05",
                   "due_date": "2099-12-31", "title": "Extension", "tax": 19, "currency": "EUR",
                   "items": [{"type": "item", "title": "Design", "quantity": 2, "unit": "h", "unit_price": 125}]}),
        )
        .await;
    server
        .put(
            &format!("/offers/{}/update_status", offer["id"]),
            json!({"status": "sent"}),
        )
        .await;

    b.open(&server.base, "/").await;
    b.wait_js(
        "return location.pathname.endsWith('/dashboard') && !!document.querySelector('[data-card=open] a.dash-figure');",
        vec![],
    )
    .await;
    let open = text_of(&b, "[data-card=open] a.dash-figure").await;
    assert!(
        open.contains("319.00") && open.contains("2 invoices"),
        "{open}"
    );
    let late = text_of(&b, "[data-card=overdue] a.dash-figure").await;
    assert!(
        late.contains("119.00") && late.contains("1 invoice"),
        "{late}"
    );
    let purchases = text_of(&b, "[data-card=purchases] a.dash-figure").await;
    assert!(
        purchases.contains("119.00") && purchases.contains("1 purchase"),
        "{purchases}"
    );
    let offers = text_of(&b, "[data-card=offers] a.dash-figure").await;
    assert!(
        offers.contains("250.00") && offers.contains("1 offer"),
        "{offers}"
    );
    let oldest = text_of(&b, "[data-card=oldest] tbody tr:first-child").await;
    let number = overdue["identifier"].as_str().expect("number");
    assert!(
        oldest.contains(number) && oldest.contains("days overdue"),
        "{oldest}"
    );
    b.wait_js(
        "return document.querySelectorAll('[data-card=revenue] .chart-bar').length === 12;",
        vec![],
    )
    .await;
    b.theme_screenshots("dashboard").await;
    assert!(!b.body_text().await.contains("Nothing to show yet"));
    b.scroll_to("[data-card=revenue]").await;
    b.screenshot("dashboard-chart-light-1280").await;

    // The overdue figure opens the list of exactly the overdue invoices.
    b.click("[data-card=overdue] a.dash-figure").await;
    b.wait_js(
        "return location.pathname.endsWith('/invoices') && location.search.includes('overdue=true') && document.querySelectorAll('.invoices-table tbody tr').length === 1;",
        vec![],
    )
    .await;
    let listed = b.body_text().await;
    assert!(listed.contains("Facade works"), "{listed}");
    assert!(!listed.contains("Roof repair"), "{listed}");
    // Back returns to the dashboard; the purchases figure opens the pending purchases.
    b.client.back().await.expect("back");
    b.find("[data-card=purchases] a.dash-figure").await;
    b.click("[data-card=purchases] a.dash-figure").await;
    b.wait_js(
        "return location.pathname.endsWith('/purchases') && location.search.includes('status=pending');",
        vec![],
    )
    .await;
    b.wait_text("119.00").await;
    b.close().await;
}
