//! Issue 33 § Articles in Chromium against the real server: an article from
//! `POST /articles` is offered on an item's title (a datalist with its number and price);
//! picking it fills unit, unit price and VAT; the finalized invoice carries them.

use kontor_e2e::{dist, Browser, Server};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn picking_an_article_fills_the_position() {
    let server = Server::start(Some(dist()), vec![]).await;
    let customer = server.customer("Hafen Logistik GmbH").await;
    server
        .post(
            "/articles",
            json!({"number": "A-100", "title": "Montage vor Ort", "unit": "h", "unit_price": 95,
                   "currency": "EUR", "tax": 7, "tax_category": "reduced",
                   "description": "Je angefangene Stunde"}),
        )
        .await;
    server
        .post(
            "/articles",
            json!({"title": "Altes Material", "unit_price": 3, "active": false}),
        )
        .await;

    let b = Browser::start().await;
    b.sign_in_only(&server.base, &server.key).await;
    b.open(&server.base, "/invoices/new").await;
    b.pick_company("#f-customer_id", "Hafen Logistik GmbH")
        .await;
    b.wait_picked("#f-customer_id", &customer.to_string()).await;
    b.fill("#f-title", "Montage Lager").await;
    let row = |field: &str| {
        format!(".pe-table tbody tr[data-row-key]:nth-of-type(1) [data-field={field}]")
    };
    // The active article is offered with its number and price; the inactive one is not.
    b.wait_js(
        "const o = document.querySelector('#pe-articles option[value=\"Montage vor Ort\"]'); return !!o && o.label.includes('A-100') && o.label.includes('95.00');",
        vec![],
    )
    .await;
    assert!(
        b.client
            .execute(
                "return !document.querySelector('#pe-articles option[value=\"Altes Material\"]');",
                vec![]
            )
            .await
            .unwrap()
            .as_bool()
            .unwrap(),
        "inactive articles are not offered"
    );
    assert_eq!(
        b.find(&row("title"))
            .await
            .attr("list")
            .await
            .unwrap()
            .as_deref(),
        Some("pe-articles")
    );
    // Picking a suggestion: the browser replaces the text (an input of type
    // insertReplacementText), as choosing from the datalist does.
    b.client
        .execute(
            "const i = document.querySelector(arguments[0]); i.focus(); i.value = 'Montage vor Ort'; i.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertReplacementText'}));",
            vec![json!(row("title"))],
        )
        .await
        .unwrap();
    b.wait_js(
        "return document.querySelector(arguments[0]).value === 'h';",
        vec![json!(row("unit"))],
    )
    .await;
    assert_eq!(b.prop(&row("unit_price"), "value").await, "95.00");
    assert_eq!(b.prop(&row("quantity"), "value").await, "1");
    assert_eq!(
        b.prop(&row("tax"), "value").await,
        "reduced:7",
        "the VAT menu shows 7 %"
    );
    b.fill(&row("quantity"), "3").await;
    b.theme_screenshots("articles-01-picked").await;
    b.click("form button[type=submit]").await;
    b.click("dialog[open] #finalize-confirm").await;
    b.wait_js(
        "return /\\/invoices\\/\\d+$/.test(location.pathname);",
        vec![],
    )
    .await;
    let path = b.path().await;
    let invoice = server.get(&path).await;
    let item = &invoice["items"][0];
    assert_eq!(item["title"], "Montage vor Ort");
    assert_eq!(item["unit"], "h");
    assert_eq!(
        item["unit_price"]
            .to_string()
            .trim_matches('"')
            .parse::<f64>()
            .unwrap(),
        95.0
    );
    assert_eq!(
        item["tax"]
            .to_string()
            .trim_matches('"')
            .parse::<f64>()
            .unwrap(),
        7.0,
        "{item}"
    );
    assert_eq!(item["description"], "Je angefangene Stunde");
    b.close().await;
}

/// Issue 33 § Text snippets: the salutation and footer of the invoice form offer the
/// account's snippets; one fills an empty field, another goes below typed text.
#[tokio::test(flavor = "multi_thread")]
async fn text_snippets_are_offered_in_the_invoice_form() {
    let server = Server::start(Some(dist()), vec![]).await;
    server.customer("Hafen Logistik GmbH").await;
    server
        .post(
            "/text_snippets",
            json!({"name": "Förmlich", "kind": "salutation", "language": "de",
                   "text": "Sehr geehrte Damen und Herren,"}),
        )
        .await;
    server
        .post(
            "/text_snippets",
            json!({"name": "Formal", "kind": "salutation", "language": "en", "text": "Dear Sir or Madam,"}),
        )
        .await;
    server
        .post(
            "/text_snippets",
            json!({"name": "Gruß", "kind": "footer", "language": "de", "text": "Mit freundlichen Grüßen"}),
        )
        .await;
    let b = Browser::start().await;
    b.sign_in_only(&server.base, &server.key).await;
    b.open(&server.base, "/invoices/new").await;
    b.wait_js(
        "const s = document.querySelector('#f-salutation-snippets'); return !!s && s.options.length === 3 && s.textContent.includes('Förmlich (DE)');",
        vec![],
    )
    .await;
    b.fill("#f-salutation", "").await;
    let choose = "const s = document.querySelector(arguments[0]); const o = [...s.options].find(o => o.textContent.startsWith(arguments[1])); s.value = o.value; s.dispatchEvent(new Event('change', {bubbles: true})); return true;";
    b.wait_js(
        choose,
        vec![json!("#f-salutation-snippets"), json!("Förmlich")],
    )
    .await;
    b.wait_js(
        "return document.querySelector('#f-salutation').value === 'Sehr geehrte Damen und Herren,';",
        vec![],
    )
    .await;
    b.fill("#f-footer", "Vielen Dank für Ihren Auftrag.").await;
    b.wait_js(choose, vec![json!("#f-footer-snippets"), json!("Gruß")])
        .await;
    b.wait_js(
        "return document.querySelector('#f-footer').value === 'Vielen Dank für Ihren Auftrag.\\n\\nMit freundlichen Grüßen' && document.querySelector('#f-footer-snippets').value === '';",
        vec![],
    )
    .await;
    b.theme_screenshots("snippets-01-invoice-form").await;
    b.close().await;
}
