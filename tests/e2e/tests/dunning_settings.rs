//! Issue 33 § Dunning levels in the app, in Chromium against the real server: Settings →
//! Dunning shows the account's levels; the letter text of a level previews live with an
//! example invoice; an unknown placeholder is refused at its field; a changed fee and text
//! and an added level are saved (`GET /dunning_levels` has them). English and German,
//! light and dark, 1280 and 1024 px.

use kontor_e2e::{dist, Browser, Server};

#[tokio::test(flavor = "multi_thread")]
async fn an_admin_edits_the_dunning_levels_with_a_live_preview() {
    let server = Server::start(Some(dist()), vec![]).await;
    let b = Browser::start().await;
    b.sign_in_only(&server.base, &server.key).await;
    b.open(&server.base, "/settings").await;
    b.find("#dunning-1-text-en").await;
    b.scroll_to("#settings-dunning").await;
    assert_eq!(
        b.prop("#dunning-1-name-en", "value").await,
        "Payment reminder"
    );

    // The preview follows the text as it is typed.
    b.fill(
        "#dunning-1-text-en",
        "Invoice {invoice_number} of {open_amount} is overdue; please pay by {new_due_date}.",
    )
    .await;
    b.wait_js(
        "return document.getElementById('dunning-preview-1').textContent.includes('Invoice R2611-004 of 1,190.00');",
        vec![],
    )
    .await;
    // An unknown placeholder is refused at its field, nothing is saved.
    b.fill("#dunning-2-text-de", "Bitte zahlen Sie {betrag}.")
        .await;
    b.click("#settings-dunning-save").await;
    b.wait_js(
        "const f = document.getElementById('dunning-2-text-de').closest('.field'); return f.classList.contains('has-error') && f.textContent.includes('{betrag}');",
        vec![],
    )
    .await;
    b.theme_screenshots("dunning-settings-01-error-en").await;
    let stored = server.get("/dunning_levels").await;
    assert!(
        !stored["levels"][0]["text"]["en"]
            .as_str()
            .unwrap()
            .contains("is overdue; please pay by"),
        "nothing saved: {stored}"
    );

    // Mended, with a fee and a fourth level: saved.
    b.fill(
        "#dunning-2-text-de",
        "Bitte zahlen Sie {open_amount} bis zum {new_due_date}.",
    )
    .await;
    b.fill("#dunning-2-fee", "7.50").await;
    b.click("#dunning-add").await;
    b.find("#dunning-level-4").await;
    b.click("#settings-dunning-save").await;
    b.wait_text("Dunning levels saved.").await;
    let stored = server.get("/dunning_levels").await;
    let levels = stored["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 4, "{stored}");
    assert_eq!(
        levels[0]["text"]["en"],
        "Invoice {invoice_number} of {open_amount} is overdue; please pay by {new_due_date}."
    );
    let fee: f64 = levels[1]["fee"]
        .to_string()
        .trim_matches('"')
        .parse()
        .unwrap();
    assert_eq!(fee, 7.5, "{stored}");
    assert_eq!(levels[3]["name"]["de"], "Mahnung 4");
    b.theme_screenshots("dunning-settings-02-saved-en").await;

    // German: the preview in German.
    b.client
        .execute("localStorage.setItem('kontor.language', 'de');", vec![])
        .await
        .unwrap();
    b.open(&server.base, "/settings").await;
    b.find("#dunning-2-text-de").await;
    b.scroll_to("#settings-dunning").await;
    b.wait_text("Mahnwesen").await;
    b.wait_js(
        "return document.getElementById('dunning-preview-2').textContent.includes('Bitte zahlen Sie 1.190,00');",
        vec![],
    )
    .await;
    b.theme_screenshots("dunning-settings-03-de").await;
    b.close().await;
}
