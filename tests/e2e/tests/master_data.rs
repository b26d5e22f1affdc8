//! Issue 9's master-data paths in real Chromium against the real server with the release
//! bundle: create a customer from the Customers page (a bad VAT ID refused at the field
//! first), give it a billing contact and a project, find it by typing in the invoice
//! form's picker and invoice it, see the invoice with its open amount on the customer's
//! page, be told why it cannot be deleted, archive it; and create a supplier inline from
//! the purchase form and save the purchase with it. Issue 10: the customer gets a buyer
//! reference (Leitweg-ID) and a SEPA mandate reference on its form; the invoice form shows
//! the customer's reference as the placeholder of its own; the account's SEPA creditor ID
//! and the Factur-X switch are saved on the Settings page.
//!
//! Run: `trunk build --release && CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-e2e
//! --test master_data -- --test-threads=1`.

use fantoccini::Locator;
use kontor_e2e::{dist, Browser, Server};
use serde_json::{json, Value};

/// Waits until the dialog is closed.
async fn dialog_closed(b: &Browser) {
    b.wait_js("return !document.querySelector('dialog[open]');", vec![])
        .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_customer_created_on_the_customers_page_is_invoiced() {
    let server = Server::start(Some(dist()), vec![]).await;
    server.customer("Hafen Logistik GmbH").await;
    server
        .post(
            "/companies",
            json!({"name": "Alpen Consulting GmbH", "country_code": "AT", "email": "office@alpen.example", "tags": ["retainer"]}),
        )
        .await;
    // The account is in Austria: new companies start there (issue 34).
    server.put("/account", json!({"country_code": "AT"})).await;
    let b = server.signed_in_browser().await;

    // The list, reached from the navigation.
    b.nav("Customers").await;
    b.wait_text("Alpen Consulting GmbH").await;
    b.wait_text("New customer").await;
    b.screenshot("master-01-customers-list").await;
    // The search (the top bar's field, which searches customers here) is in the URL.
    b.fill("#global-search", "alpen").await;
    b.wait_js("return location.search.includes('term=alpen') && !document.body.innerText.includes('Hafen Logistik GmbH');", vec![]).await;
    b.click(".filters-clear").await;
    b.wait_text("Hafen Logistik GmbH").await;

    // The form: a bad VAT ID is refused at the field before anything is sent.
    b.click(".page-actions a.btn-primary").await;
    b.find("#f-name").await;
    // Issue 34: a new customer starts in the account's country (Austria, above).
    assert_eq!(
        b.wait_js(
            "const v = document.querySelector('#f-country_code').value; return v !== '' && v;",
            vec![]
        )
        .await,
        "AT"
    );
    b.fill("#f-name", "Nordlicht Design GmbH").await;
    b.select("#f-country_code", "DE").await;
    b.fill("#f-address", "Fleetstraße 12\n20459 Hamburg").await;
    b.fill("#f-email", "rechnung@nordlicht.example").await;
    b.fill("#f-vat_identifier", "DE12345678").await;
    b.fill("#f-iban", "DE89 3704 0044 0532 0130 00").await;
    b.fill("#f-default_invoice_due_days", "21").await;
    b.click("form.company-form .form-actions button[type=submit]")
        .await;
    b.wait_text("Please correct the marked fields.").await;
    let error = b
        .find("#f-vat_identifier-error")
        .await
        .text()
        .await
        .unwrap();
    assert!(!error.is_empty(), "the VAT ID error shows at the field");
    assert_eq!(
        server.get("/companies?term=Nordlicht").await,
        json!([]),
        "nothing was stored"
    );
    b.screenshot("master-02-customer-form-error").await;
    b.fill("#f-vat_identifier", "DE 136 308 783").await;
    b.click("#f-custom_properties-add").await;
    b.fill(".custom-property-name", "Kostenstelle").await;
    b.fill(".custom-property-value", "4711").await;
    // The e-invoice data (issue 10): the Leitweg-ID as buyer reference.
    b.fill("#f-buyer_reference", "04011000-12345-67").await;
    b.fill("#f-sepa_mandate_reference", "KD-4711").await;
    b.client
        .execute(
            "document.querySelector('#sec-einvoice').scrollIntoView({block: 'center'});",
            vec![],
        )
        .await
        .unwrap();
    b.screenshot("master-03-customer-form-einvoice").await;
    b.screenshot("master-03-customer-form").await;
    b.client.set_window_size(1024, 900).await.unwrap();
    b.screenshot("master-03-customer-form-1024").await;
    b.client.set_window_size(1280, 900).await.unwrap();
    b.click("form.company-form .form-actions button[type=submit]")
        .await;

    // The detail: master data, then a billing contact and a project.
    b.wait_text("Master data").await;
    b.wait_text("DE136308783").await;
    let found = server.get("/companies?term=Nordlicht").await;
    let customer = found[0]["id"].as_i64().expect("stored");
    assert_eq!(found[0]["type"], "customer");
    assert_eq!(found[0]["default_invoice_due_days"], 21);
    assert_eq!(
        found[0]["custom_properties"],
        json!({"Kostenstelle": "4711"})
    );
    assert_eq!(found[0]["buyer_reference"], "04011000-12345-67");
    assert_eq!(found[0]["sepa_mandate_reference"], "KD-4711");
    assert_eq!(found[0]["einvoice_format"], "pdf");
    b.wait_text("Kostenstelle").await;
    b.wait_text("04011000-12345-67").await;
    b.click("#contact-add").await;
    b.find("dialog[open] #p-firstname").await;
    b.fill("#p-firstname", "Eva").await;
    b.fill("#p-lastname", "Berg").await;
    b.fill("#p-email", "eva.berg@nordlicht.example").await;
    b.click("#p-billing_contact").await;
    b.click_in_dialog("Save").await;
    dialog_closed(&b).await;
    b.wait_text("eva.berg@nordlicht.example").await;
    b.wait_text("Billing contact").await;
    b.click("#project-add").await;
    b.find("dialog[open] #pr-name").await;
    b.fill("#pr-name", "Brand refresh").await;
    b.click_in_dialog("Save").await;
    dialog_closed(&b).await;
    b.wait_text("Brand refresh").await;
    let people = server
        .get(&format!("/contacts/people?company_id={customer}"))
        .await;
    assert_eq!(people[0]["billing_contact"], true);

    // The invoice form's picker finds the customer by typing.
    b.open(&server.base, "/invoices/new").await;
    b.pick_company("#f-customer_id", "Nordlicht Design GmbH")
        .await;
    b.wait_picked("#f-customer_id", &customer.to_string()).await;
    let address = "const a = document.querySelector('#f-recipient_address'); return !!a && a.value.startsWith('Nordlicht Design GmbH\\nFleetstraße 12');";
    b.wait_js(address, vec![]).await;
    b.fill("#f-title", "Brand workshop").await;
    // The invoice's buyer reference starts empty and shows the customer's as placeholder.
    b.wait_js("const e = document.querySelector('#f-buyer_reference'); return !!e && e.value === '' && e.placeholder === '04011000-12345-67';", vec![]).await;
    b.screenshot("master-04-invoice-buyer-reference").await;
    let row = |field: &str| {
        format!(".pe-table tbody tr[data-row-key]:nth-of-type(1) [data-field={field}]")
    };
    b.fill(&row("title"), "Workshop").await;
    b.fill(&row("quantity"), "2").await;
    b.fill(&row("unit_price"), "500").await;
    b.wait_text("1,190.00").await;
    b.screenshot("master-04-invoice-picker").await;
    b.click("form button[type=submit]").await;
    b.click("dialog[open] #finalize-confirm").await;
    b.wait_text("Brand workshop").await;
    b.wait_js(
        "return /\\/invoices\\/\\d+$/.test(location.pathname);",
        vec![],
    )
    .await;
    let invoices = server
        .get(&format!("/invoices?company_id={customer}"))
        .await;
    assert_eq!(invoices.as_array().map(Vec::len), Some(1), "{invoices}");
    assert_eq!(invoices[0]["title"], "Brand workshop");
    assert_eq!(
        invoices[0]["buyer_reference"],
        Value::Null,
        "the customer's applies; the invoice stores none"
    );

    // Back on the customer: the invoice with its open amount.
    b.open(&server.base, &format!("/customers/{customer}"))
        .await;
    b.wait_text("Brand workshop").await;
    let row_text = b
        .client
        .find(Locator::XPath("//tr[contains(., 'Brand workshop')]"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(
        row_text.matches("1,190.00").count(),
        2,
        "gross total and open amount: {row_text}"
    );
    b.screenshot("master-05-customer-detail").await;
    b.client
        .execute(
            "document.querySelector('#sec-invoices').scrollIntoView({block: 'start'});",
            vec![],
        )
        .await
        .unwrap();
    b.screenshot("master-05-customer-documents").await;
    b.client.set_window_size(1024, 900).await.unwrap();
    b.screenshot("master-05-customer-detail-1024").await;
    b.client.set_window_size(1280, 900).await.unwrap();

    // Deleting is refused with the server's reason; archiving works.
    b.click("#company-delete").await;
    b.click("dialog[open] #company-delete-confirm").await;
    // The server's 422 message (naming the invoice) replaces the question's text.
    b.wait_js("const t = document.querySelector('dialog[open] .confirm-text'); return !!t && /invoice/i.test(t.textContent) && !t.textContent.includes('removed for good');", vec![]).await;
    b.screenshot("master-05-delete-refused").await;
    b.click("dialog[open] #company-archive-instead").await;
    dialog_closed(&b).await;
    b.wait_js(
        "return document.querySelector('#company-archive').textContent.trim() === 'Restore';",
        vec![],
    )
    .await;
    let stored = server.get(&format!("/companies/{customer}")).await;
    assert_eq!(stored["active"], false);

    // The account's e-invoice settings (issue 10): SEPA creditor ID and the Factur-X switch.
    b.open(&server.base, "/settings").await;
    b.find("#settings-einvoice").await;
    b.client
        .execute(
            "document.querySelector('#settings-einvoice').scrollIntoView({block: 'start'});",
            vec![],
        )
        .await
        .unwrap();
    b.fill("#f-sepa_creditor_identifier", "DE98ZZZ09999999999")
        .await;
    b.click("#f-factur_x").await;
    b.screenshot("master-09-settings-einvoice").await;
    b.click("#settings-einvoice-save").await;
    b.wait_text("E-invoice settings saved.").await;
    let account = server.get("/account").await;
    assert_eq!(account["sepa_creditor_identifier"], "DE98ZZZ09999999999");
    assert_eq!(account["factur_x"], false);
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_supplier_created_inline_from_the_purchase_form() {
    let server = Server::start(Some(dist()), vec![]).await;
    let b = server.signed_in_browser().await;
    b.open(&server.base, "/purchases/new").await;

    // "New supplier…" opens the dialog with what was typed.
    b.fill("#f-company_id", "Druckerei Weiß KG").await;
    b.wait_text("No match.").await;
    b.screenshot("master-06-supplier-picker").await;
    b.click(".combo-new").await;
    b.find("dialog[open] #c-name").await;
    assert_eq!(b.prop("#c-name", "value").await, "Druckerei Weiß KG");
    b.fill("#c-email", "buchhaltung@weiss.example").await;
    b.fill("#c-vat_identifier", "DE811363057").await;
    b.screenshot("master-06-new-supplier-dialog").await;
    b.click("#company-dialog-save").await;
    dialog_closed(&b).await;
    // It is selected in the picker.
    b.wait_js(
        "const e = document.querySelector('#f-company_id'); return !!e && e.dataset.companyId !== '' && e.value === 'Druckerei Weiß KG';",
        vec![],
    )
    .await;
    let supplier = b
        .find("#f-company_id")
        .await
        .attr("data-company-id")
        .await
        .unwrap()
        .unwrap();

    b.set_value("#f-date", "2026-11-10", "input").await;
    b.fill("#f-receipt_identifier", "DW-2026-118").await;
    let cell = |class: &str| format!("tr.purchase-row:nth-of-type(1) .{class}");
    b.fill(&cell("item-title"), "Flyer print").await;
    b.fill(&cell("item-total"), "238").await;
    b.click("form.purchase-form .form-actions button[type=submit]")
        .await;
    b.wait_text("Flyer print").await;
    b.wait_js(
        "return /\\/purchases\\/\\d+$/.test(location.pathname);",
        vec![],
    )
    .await;

    let id: i64 = b.path().await.rsplit('/').next().unwrap().parse().unwrap();
    let purchase = server.get(&format!("/purchases/{id}")).await;
    assert_eq!(purchase["company"]["name"], "Druckerei Weiß KG");
    assert_eq!(purchase["company"]["id"].to_string(), supplier);
    let company: Value = server.get(&format!("/companies/{supplier}")).await;
    assert_eq!(company["type"], "supplier");
    assert_eq!(company["vat_identifier"], "DE811363057");

    // The supplier's page lists the purchase with what is open.
    b.nav("Suppliers").await;
    b.wait_text("Druckerei Weiß KG").await;
    b.screenshot("master-07-suppliers-list").await;
    b.click(".table-companies tbody tr:first-child a").await;
    b.wait_text("Flyer print").await;
    b.screenshot("master-08-supplier-detail").await;
    b.close().await;
}
