//! Issue 34 § Keyboard: the skip link moves focus to the main content without navigating,
//! and after a route change focus moves to the new page's heading (so a screen reader
//! announces it) — but never away from a field someone is typing in.

use kontor_e2e::{dist, Server};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn the_skip_link_and_route_changes_move_focus_to_the_content() {
    let server = Server::start(Some(dist()), vec![]).await;
    let b = server.signed_in_browser().await;
    b.open(&server.base, "/invoices").await;
    b.find(".page-head h1").await;
    let before = b.path().await;
    // The skip link (the first stop of Tab) focuses <main> and stays on the page.
    b.client
        .execute("document.querySelector('.skip-link').click();", vec![])
        .await
        .unwrap();
    assert_eq!(
        b.wait_js(
            "return document.activeElement && document.activeElement.id === 'main' && location.pathname;",
            vec![]
        )
        .await,
        json!(before)
    );
    // Following a navigation link: focus lands on the new page's heading.
    b.nav("Offers").await;
    let focused = b
        .wait_js(
            "const a = document.activeElement; return !!a && a.tagName === 'H1' && a.textContent;",
            vec![],
        )
        .await;
    assert!(focused.as_str().unwrap().contains("Offers"), "{focused}");
    // Typing in the search field while the next page comes keeps the field focused.
    b.nav("Invoices").await;
    b.fill("#global-search", "R26").await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(
        b.wait_js("return document.activeElement.id;", vec![]).await,
        "global-search"
    );
    b.close().await;
}
