//! Issue 11 (Find and see) in real Chromium against the real server with the release
//! bundle: the top bar's search finds an invoice by its customer's name (from a detail
//! page, with the `/` key), the customer filter narrows the list, a click on "Gross total"
//! sorts the rows, the totals row sums the filter, and Back after going to page 2 returns
//! to page 1 of the list, not out of the app. Screenshots of each list at 1280 and 1024 px,
//! light and dark.

use kontor_e2e::{dist, Browser, Server};
use serde_json::json;

/// Creates a finalized invoice for `customer` with one 19 % item of `net` EUR; its id.
async fn invoice(server: &Server, customer: i64, title: &str, net: u32, date: &str) -> i64 {
    let body = json!({"customer_id": customer, "recipient_address": "Ring 1\n10115 Berlin",
        "date": date, "due_date": "2026-12-01", "title": title, "tax": 19, "currency": "EUR",
        "items": [{"type": "item", "title": "Work", "quantity": 1, "unit": "h", "unit_price": net}]});
    server.create("/invoices", body).await
}

/// The gross cells of the invoice rows, top to bottom.
async fn gross_column(b: &Browser) -> Vec<String> {
    let v = b
        .client
        .execute(
            "return [...document.querySelectorAll('.invoices-table tbody [data-cell=gross]')].map(e => e.textContent.trim());",
            vec![],
        )
        .await
        .expect("gross cells");
    serde_json::from_value(v).expect("strings")
}

/// Waits until the list shows exactly `rows` invoice rows.
async fn wait_rows(b: &Browser, rows: usize) {
    b.wait_js(
        &format!("return document.querySelectorAll('.invoices-table tbody tr').length === {rows};"),
        vec![],
    )
    .await;
}

/// Screenshots at 1280 and 1024 px, light and dark (`data-theme` on `<html>`); no
/// pictures when screenshots are off.
async fn shots(b: &Browser, name: &str) {
    for theme in ["light", "dark"] {
        b.set_theme(theme).await;
        b.two_width_screenshots(name, theme).await;
    }
    b.unset_theme().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn find_by_customer_sort_by_gross_and_back_after_page_two() {
    let server = Server::start(Some(dist()), vec![]).await;
    let kranzler = server.customer("Kranzler Bau GmbH").await;
    let hafen = server.customer("Hafen Logistik GmbH").await;
    let first = invoice(&server, hafen, "Storage October", 50, "2026-11-01").await;
    invoice(&server, kranzler, "Facade works", 300, "2026-11-02").await;
    invoice(&server, hafen, "Storage November", 200, "2026-11-03").await;
    invoice(&server, kranzler, "Roof repair", 100, "2026-11-04").await;
    invoice(
        &server,
        hafen,
        "Forklift rental with a long title that has to wrap or truncate",
        1234567,
        "2026-11-05",
    )
    .await;
    // A payment: the open amount of that invoice is its gross − 20.00.
    server
        .post(
            "/invoices/payments",
            json!({"invoice_id": first, "date": "2026-11-10", "paid_total": 20}),
        )
        .await;
    server
        .post(
            "/offers",
            json!({"company_id": kranzler, "recipient_address": "Ring 1\n10115 Berlin",
                "date": "2026-11-02", "due_date": "2026-12-02", "title": "Facade offer", "tax": 19,
                "currency": "EUR",
                "items": [{"type": "item", "title": "Scaffolding", "quantity": 1, "unit": "pc", "unit_price": 100}]}),
        )
        .await;
    server.office_chairs().await;
    let b = server.signed_in_browser().await;

    // From an invoice's page: `/` focuses the top bar's search, Enter opens the invoice
    // list searched for the customer's name.
    b.open(&server.base, &format!("/invoices/{first}")).await;
    b.wait_text("Storage October").await;
    b.find("body").await.send_keys("/").await.expect("slash");
    b.wait_js(
        "return document.activeElement && document.activeElement.id === 'global-search';",
        vec![],
    )
    .await;
    assert_eq!(
        b.prop("#global-search", "placeholder").await,
        "Search invoices…"
    );
    b.find("#global-search")
        .await
        .send_keys("Kranzler\n")
        .await
        .expect("type");
    b.wait_js(
        "return location.pathname === '/invoices' && location.search.includes('term=Kranzler');",
        vec![],
    )
    .await;
    wait_rows(&b, 2).await;
    let text = b.body_text().await;
    assert!(
        text.contains("Facade works") && text.contains("Roof repair"),
        "{text}"
    );
    assert!(!text.contains("Storage"), "{text}");
    // The totals row sums the filter: 2 invoices, 400.00 net, 476.00 gross and open.
    b.wait_text_of(
        "[data-totals=invoices] tr[data-currency=EUR] [data-total=gross]",
        "476.00 EUR",
    )
    .await;
    b.wait_text_of(
        "[data-totals=invoices] tr[data-currency=EUR] [data-total=open]",
        "476.00 EUR",
    )
    .await;
    b.wait_text_of(
        "[data-totals=invoices] tr[data-currency=EUR] [data-total=count]",
        "2 invoices",
    )
    .await;
    shots(&b, "lists-01-invoices-searched").await;

    // Clearing the search shows all five again; the customer filter narrows by id.
    b.fill("#global-search", "").await;
    b.wait_js("return !location.search.includes('term=');", vec![])
        .await;
    wait_rows(&b, 5).await;
    b.pick_company("#filter-customer", "Hafen Logistik GmbH")
        .await;
    b.wait_js(
        &format!("return location.search.includes('company_id={hafen}');"),
        vec![],
    )
    .await;
    wait_rows(&b, 3).await;
    // The open amount of the partly paid invoice: 59.50 − 20.00.
    b.wait_text("39.50 EUR").await;
    b.click("#filter-customer ~ .combo-clear-button").await;
    b.wait_js("return !location.search.includes('company_id');", vec![])
        .await;
    wait_rows(&b, 5).await;

    // Sort by gross: ascending, then descending; aria-sort follows.
    b.click("th[data-sort=gross_total] button").await;
    b.wait_js(
        "return location.search.includes('sort=gross_total') && location.search.includes('order=asc');",
        vec![],
    )
    .await;
    let ascending = vec![
        "59.50 EUR",
        "119.00 EUR",
        "238.00 EUR",
        "357.00 EUR",
        "1,469,134.73 EUR",
    ];
    for _ in 0..50 {
        if gross_column(&b).await == ascending {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(gross_column(&b).await, ascending);
    assert_eq!(
        b.prop("th[data-sort=gross_total]", "ariaSort").await,
        "ascending"
    );
    shots(&b, "lists-02-invoices-by-gross").await;
    b.click("th[data-sort=gross_total] button").await;
    b.wait_js("return location.search.includes('order=desc');", vec![])
        .await;
    let descending: Vec<&str> = ascending.iter().rev().copied().collect();
    for _ in 0..50 {
        if gross_column(&b).await == descending {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(gross_column(&b).await, descending);
    assert_eq!(
        b.prop("th[data-sort=gross_total]", "ariaSort").await,
        "descending"
    );
    // Back undoes the last sort click (each click pushed an entry).
    b.client.back().await.expect("back");
    b.wait_js("return location.search.includes('order=asc');", vec![])
        .await;

    // Paging: two a page; Next goes to page 2, Back returns to page 1 of the list.
    b.open(&server.base, "/invoices?per_page=2").await;
    b.wait_text("Page 1 of 3").await;
    wait_rows(&b, 2).await;
    let page_one = gross_column(&b).await;
    b.click(".pager button:last-child").await;
    b.wait_text("Page 2 of 3").await;
    b.wait_js("return /[?&]page=2/.test(location.search);", vec![])
        .await;
    assert_ne!(gross_column(&b).await, page_one);
    b.client.back().await.expect("back");
    b.wait_text("Page 1 of 3").await;
    b.wait_js(
        "return location.pathname === '/invoices' && !/[?&]page=/.test(location.search);",
        vec![],
    )
    .await;
    wait_rows(&b, 2).await;
    assert_eq!(gross_column(&b).await, page_one);

    // The other lists: the search says what it searches there.
    b.open(&server.base, "/offers").await;
    b.wait_text("Facade offer").await;
    assert_eq!(
        b.prop("#global-search", "placeholder").await,
        "Search offers…"
    );
    b.wait_text_of(
        "[data-totals=offers] tr[data-currency=EUR] [data-total=gross]",
        "119.00 EUR",
    )
    .await;
    shots(&b, "lists-03-offers").await;
    b.open(&server.base, "/purchases").await;
    b.wait_text("Office chairs").await;
    assert_eq!(
        b.prop("#global-search", "placeholder").await,
        "Search purchases…"
    );
    b.fill("#global-search", "chairs").await;
    b.wait_js("return location.search.includes('term=chairs');", vec![])
        .await;
    b.wait_text("Office chairs").await;
    shots(&b, "lists-04-purchases").await;
    b.open(&server.base, "/invoices").await;
    wait_rows(&b, 5).await;
    shots(&b, "lists-05-invoices").await;
    b.close().await;
}
