//! Issue 11 (edit and copy) in real Chromium against the real server with the release
//! bundle: an offer is edited through its edit page (the creation form, prefilled) and the
//! change shows on the detail; an invoice is copied ("Copy" opens the new draft in the
//! editor) and the copy is finalized with the next number.

use kontor_e2e::Server;
use serde_json::json;

fn row(n: usize, field: &str) -> String {
    format!(".pe-table tbody tr[data-row-key]:nth-of-type({n}) [data-field={field}]")
}

#[tokio::test(flavor = "multi_thread")]
async fn an_offer_is_edited_through_its_edit_page() {
    let (server, customer) = Server::with_customer("Kranzler Bau GmbH").await;
    let offer = server.offer(customer, "Facade offer").await;
    let offer_id = offer["id"].as_i64().unwrap();
    let b = server.signed_in_browser().await;

    // Edit from the detail: the form is prefilled; the new title and price are saved.
    b.open(&server.base, &format!("/offers/{offer_id}")).await;
    b.wait_text("Facade offer").await;
    b.screenshot("edit-copy-00-offer-detail").await;
    b.click("#offer-edit").await;
    b.wait_js(
        "return document.querySelector('#f-title') && document.querySelector('#f-title').value === 'Facade offer';",
        vec![],
    )
    .await;
    assert_eq!(b.prop(&row(1, "title"), "value").await, "Scaffolding");
    b.fill("#f-title", "Facade and roof offer").await;
    b.fill(&row(1, "unit_price"), "200").await;
    b.wait_text("238.00").await;
    b.screenshot("edit-copy-01-offer-edit").await;
    b.click("#offer-save").await;
    b.wait_js(
        &format!("return location.pathname === '/offers/{offer_id}';"),
        vec![],
    )
    .await;
    b.wait_text("Facade and roof offer").await;
    b.wait_text_of("#offer-gross", "238.00 EUR").await;
    let stored = server.get(&format!("/offers/{offer_id}")).await;
    assert_eq!(stored["title"], "Facade and roof offer");

    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_invoice_is_copied_from_its_detail_and_the_copy_finalized() {
    let (server, customer) = Server::with_customer("Kranzler Bau GmbH").await;
    let b = server.signed_in_browser().await;

    // Copy an invoice: the draft opens in the editor with the positions; finalizing it
    // gives it a number of its own.
    let invoice = server.invoice(customer, "November works").await;
    let invoice_id = invoice["id"].as_i64().unwrap();
    b.open(&server.base, &format!("/invoices/{invoice_id}"))
        .await;
    b.wait_text("November works").await;
    b.screenshot("edit-copy-02-invoice-detail").await;
    b.click("#invoice-copy").await;
    b.wait_js(
        &format!(
            "const m = /^\\/invoices\\/(\\d+)\\/edit$/.exec(location.pathname); return !!m && m[1] !== '{invoice_id}';"
        ),
        vec![],
    )
    .await;
    b.wait_js(
        "return document.querySelector('#f-title') && document.querySelector('#f-title').value === 'November works';",
        vec![],
    )
    .await;
    assert_eq!(b.prop(&row(1, "title"), "value").await, "Consulting");
    b.screenshot("edit-copy-03-invoice-copy").await;
    let path = b.path().await;
    let copy_id: i64 = path
        .trim_start_matches("/invoices/")
        .trim_end_matches("/edit")
        .parse()
        .unwrap();
    // The "copied" toast sits at the top right, over the form's buttons: close it first.
    b.close_toasts().await;
    b.wait_js("return !document.querySelector('.toast');", vec![])
        .await;
    b.click("form button[type=submit]").await;
    b.click("dialog[open] #finalize-confirm").await;
    // The test account has no e-invoice settings: the check asks first.
    b.click_in_dialog("Finalize anyway").await;
    b.wait_js(
        &format!("return location.pathname === '/invoices/{copy_id}';"),
        vec![],
    )
    .await;
    b.wait_text("119.00 EUR").await;
    b.screenshot("edit-copy-04-copy-finalized").await;
    let copy = server.get(&format!("/invoices/{copy_id}")).await;
    assert_ne!(copy["status"], "draft");
    assert_ne!(copy["identifier"], invoice["identifier"]);
    assert!(copy["identifier"].as_str().is_some_and(|n| !n.is_empty()));
    // The detail page shows the copy's own number.
    b.wait_text(copy["identifier"].as_str().unwrap_or_default())
        .await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_purchase_is_edited_and_an_offer_copied_and_deleted() {
    let (server, customer) = Server::with_customer("Kranzler Bau GmbH").await;
    let purchase = server.office_chairs().await;
    let purchase_id = purchase["id"].as_i64().unwrap();
    let b = server.signed_in_browser().await;

    // Edit a pending purchase: prefilled, saved with PUT, back on the detail.
    b.open(&server.base, &format!("/purchases/{purchase_id}"))
        .await;
    b.wait_text("Office chairs").await;
    b.click("#purchase-edit").await;
    b.wait_js(
        "return document.querySelector('#f-receipt_identifier') && document.querySelector('#f-receipt_identifier').value === 'RE-11';",
        vec![],
    )
    .await;
    b.fill("#f-title", "Office chairs and desks").await;
    b.screenshot("edit-copy-05-purchase-edit").await;
    b.click("form button[type=submit]").await;
    b.wait_js(
        &format!("return location.pathname === '/purchases/{purchase_id}';"),
        vec![],
    )
    .await;
    b.wait_text("Office chairs and desks").await;
    let stored = server.get(&format!("/purchases/{purchase_id}")).await;
    assert_eq!(stored["title"], "Office chairs and desks");
    assert_eq!(stored["receipt_identifier"], "RE-11");

    // Copy an offer: the copy opens in its edit page; deleting it (never sent) after the
    // confirmation leads back to the list, and the original stays.
    let offer = server
        .post(
            "/offers",
            json!({"company_id": customer, "recipient_address": "Kranzler Bau GmbH\nRing 1\n10115 Berlin",
                "date": "2026-11-02", "due_date": "2026-12-02", "title": "Roof offer", "tax": 19,
                "currency": "EUR",
                "items": [{"type": "item", "title": "Tiles", "quantity": 3, "unit": "pc", "unit_price": 10}]}),
        )
        .await;
    let offer_id = offer["id"].as_i64().unwrap();
    b.open(&server.base, &format!("/offers/{offer_id}")).await;
    b.wait_text("Roof offer").await;
    b.click("#offer-copy").await;
    b.wait_js(
        &format!(
            "const m = /^\\/offers\\/(\\d+)\\/edit$/.exec(location.pathname); return !!m && m[1] !== '{offer_id}';"
        ),
        vec![],
    )
    .await;
    b.wait_js(
        "return document.querySelector('#f-title') && document.querySelector('#f-title').value === 'Roof offer';",
        vec![],
    )
    .await;
    let path = b.path().await;
    let copy_id: i64 = path
        .trim_start_matches("/offers/")
        .trim_end_matches("/edit")
        .parse()
        .unwrap();
    b.open(&server.base, &format!("/offers/{copy_id}")).await;
    b.wait_text("Roof offer").await;
    b.click("#offer-delete").await;
    b.screenshot("edit-copy-06-offer-delete").await;
    b.click("dialog[open] #offer-delete-confirm").await;
    b.wait_js("return location.pathname === '/offers';", vec![])
        .await;
    let gone = server.get_raw(&format!("/offers/{copy_id}")).await;
    assert_eq!(gone.status, 404);
    let kept = server.get(&format!("/offers/{offer_id}")).await;
    assert_eq!(kept["title"], "Roof offer");
    b.close().await;
}
