//! Issue 33 § Articles and § Text snippets in Chromium: the page "Articles" (`/articles`)
//! creates an article and a text snippet through their dialogs, shows the server's field
//! message for a number already taken, changes the price, archives and deletes — and what
//! it stores is what the position editor and the forms are offered. English and German,
//! light and dark.

use kontor_e2e::{dist, Server};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn articles_and_text_snippets_are_kept_on_their_page() {
    let server = Server::start(Some(dist()), vec![]).await;
    server
        .post(
            "/articles",
            json!({"number": "B-100", "title": "Beratung", "unit": "h", "unit_price": 95}),
        )
        .await;
    let b = server.signed_in_browser().await;
    b.open(&server.base, "/invoices").await;
    b.nav("Articles").await;
    b.wait_text("Articles and text snippets").await;
    b.wait_contains("#article-table", "Beratung").await;

    // A new article; its number is taken first: the server's message at the field.
    b.click("#new-article").await;
    b.fill("#article-number", "b-100").await;
    b.fill("#article-title", "Montage vor Ort").await;
    b.fill("#article-unit", "h").await;
    b.fill("#article-price", "80").await;
    b.fill("#article-tax", "7").await;
    b.click("#article-save").await;
    b.wait_js(
        "return !!document.querySelector('#article-number-error') && document.querySelector('#article-number-error').textContent.length > 0;",
        vec![],
    )
    .await;
    b.theme_screenshots("catalogue-01-article-dialog").await;
    b.fill("#article-number", "M-1").await;
    b.click("#article-save").await;
    b.wait_contains("#article-table", "Montage vor Ort").await;
    let list = server.get("/articles").await;
    let stored = list
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["number"] == "M-1")
        .unwrap()
        .clone();
    assert!(
        ["80", "80.00"].contains(&stored["unit_price"].to_string().as_str()),
        "{stored}"
    );
    assert_eq!(stored["tax"].to_string(), "7");
    assert_eq!(stored["unit"], "h");

    // Edited: a new price, no longer offered.
    b.click(&format!("[data-article='{}'] .btn-quiet", stored["id"]))
        .await;
    b.fill("#article-price", "85").await;
    b.click("#article-active").await;
    b.click("#article-save").await;
    b.wait_contains(&format!("[data-article='{}']", stored["id"]), "Archived")
        .await;
    let changed = server.get(&format!("/articles/{}", stored["id"])).await;
    assert!(
        ["85", "85.00"].contains(&changed["unit_price"].to_string().as_str()),
        "{changed}"
    );
    assert_eq!(changed["active"], false);

    // A text snippet for footers, in German.
    b.click("#new-snippet").await;
    b.fill("#snippet-name", "Zahlungshinweis").await;
    b.select("#snippet-kind", "footer").await;
    b.fill("#snippet-text", "Bitte geben Sie die Rechnungsnummer an.")
        .await;
    b.click("#snippet-save").await;
    b.wait_contains("#snippet-table", "Zahlungshinweis").await;
    let snippets = server.get("/text_snippets").await;
    assert_eq!(snippets[0]["kind"], "footer");
    assert_eq!(snippets[0]["language"], "de");
    b.theme_screenshots("catalogue-02-page").await;

    // Deleted after the question.
    b.click(&format!(
        "[data-snippet='{}'] .btn-danger-quiet",
        snippets[0]["id"]
    ))
    .await;
    b.click("dialog[open] #confirm-delete-snippet").await;
    b.wait_text("No text snippets yet.").await;
    assert_eq!(server.get("/text_snippets").await, json!([]));

    // German.
    b.client
        .execute("localStorage.setItem('kontor.language', 'de');", vec![])
        .await
        .unwrap();
    b.client.refresh().await.unwrap();
    b.wait_text("Artikel und Textbausteine").await;
    b.wait_text("Archiviert").await;
    b.theme_screenshots("catalogue-03-page-de").await;
    b.close().await;
}
