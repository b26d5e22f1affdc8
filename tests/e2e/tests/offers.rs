//! Issue 4 (offers) in real Chromium against the real server with the release bundle:
//! an offer with an optional position written through the form (project → company and
//! currency), a PDF attachment uploaded and listed, the PDF previewed, the offer sent by
//! e-mail to a real SMTP server (aiosmtpd) with both PDFs attached, accepted, and turned
//! into an invoice without the optional position.

use kontor_e2e::{Server, SmtpServer};
use serde_json::json;

fn row(n: usize, field: &str) -> String {
    format!(".pe-table tbody tr[data-row-key]:nth-of-type({n}) [data-field={field}]")
}

#[tokio::test(flavor = "multi_thread")]
async fn an_offer_is_written_sent_with_attachments_accepted_and_invoiced() {
    let mail = SmtpServer::start().await;
    let server = Server::start_with_smtp(&mail).await;
    let customer = server.customer("Hafen Logistik GmbH").await;
    let project = server
        .create(
            "/projects",
            json!({"name": "Harbour app", "customer_id": customer, "currency": "EUR"}),
        )
        .await;
    server
        .post(
            "/deals",
            json!({"name": "Harbour deal", "company_id": customer, "currency": "EUR"}),
        )
        .await;
    // The company's billing contact (no e-mail of her own: mail goes to the company).
    let contact = server
        .create(
            "/contacts/people",
            json!({"firstname": "Hanna", "lastname": "Hafen", "gender": "F", "company_id": customer, "billing_contact": true}),
        )
        .await;
    let b = server.signed_in_browser().await;

    // The form: picking the project sets the company and the address.
    b.open(&server.base, "/offers/new").await;
    b.wait_text("Contact person").await;
    b.select("#f-project_id", &project.to_string()).await;
    b.wait_picked("#f-company_id", &customer.to_string()).await;
    let address = "return document.querySelector('#f-recipient_address').value;";
    let filled = b.wait_js(address, vec![]).await;
    assert!(filled.as_str().unwrap().starts_with("Hafen Logistik GmbH"));
    // Issue 34: the billing contact is preselected.
    b.wait_js(
        "return document.querySelector('#f-contact_id').value === arguments[0];",
        vec![contact.to_string().into()],
    )
    .await;
    b.fill("#f-title", "Harbour app offer").await;
    b.screenshot("offers-00-form-top").await;
    b.fill(&row(1, "title"), "Design").await;
    b.fill(&row(1, "quantity"), "2").await;
    b.fill(&row(1, "unit_price"), "50").await;
    b.click("button[data-add=item]").await;
    b.fill(&row(2, "title"), "Extra support").await;
    b.fill(&row(2, "quantity"), "1").await;
    b.fill(&row(2, "unit_price"), "100").await;
    b.click(
        ".pe-table tbody tr[data-row-key]:nth-of-type(2) input[aria-label='Optional position']",
    )
    .await;
    b.wait_text("119.00").await; // 100.00 net + 19 %: the optional 100.00 is not counted
    b.screenshot("offers-01-form").await;
    b.click("#offer-save").await;
    b.wait_js(
        "return /^\\/offers\\/\\d+$/.test(location.pathname);",
        vec![],
    )
    .await;
    b.wait_text("Optional").await;
    b.wait_text_of("#offer-gross", "119.00 EUR").await;
    let identifier = b.find(".detail-head h1").await.text().await.unwrap();
    let identifier = identifier.split_whitespace().next().unwrap().to_string();

    // An attachment through the file picker, listed with its size.
    let files = tempfile::tempdir().unwrap();
    let pdf = files.path().join("terms.pdf");
    std::fs::write(
        &pdf,
        b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n",
    )
    .unwrap();
    b.find("#attachment-file")
        .await
        .send_keys(pdf.to_str().unwrap())
        .await
        .unwrap();
    b.wait_text_of("#attachments tbody td a", "terms.pdf").await;
    b.wait_text("terms.pdf attached.").await;

    // The PDF preview through an object URL.
    let frame = "iframe.pdf-frame[src^='blob:']";
    let src = b.find(frame).await.attr("src").await.unwrap().unwrap();
    let inside = b.fetch_in_page(&src).await;
    assert!(
        inside.starts_with("application/pdf ") && inside.ends_with("%PDF"),
        "{inside}"
    );
    b.screenshot("offers-02-detail").await;

    // Sent by e-mail: the company's address by default; both PDFs attached.
    b.click("#send-email").await;
    let to = "return document.querySelector('#email-to').value;";
    assert_eq!(b.wait_js(to, vec![]).await, "billing@example.com");
    b.click_in_dialog("Send").await;
    b.wait_text(&format!("Offer {identifier} sent to billing@example.com."))
        .await;
    // Issue 34: e-mailed, it is sent (and no longer offered for deletion).
    b.wait_text_of(".detail-head h1 .badge", "Sent").await;
    assert_eq!(
        b.wait_js(
            "return document.querySelector('#offer-delete') === null;",
            vec![]
        )
        .await,
        true
    );
    let message = mail
        // The customer reads German (issue 29: the customer's language).
        .wait_message(&format!("Subject: Angebot {identifier}"))
        .await;
    assert!(message.contains(&format!("{identifier}.pdf")), "{message}");
    assert!(message.contains("terms.pdf"), "{message}");
    assert_eq!(message.matches("application/pdf").count(), 2, "{message}");

    // Drag and drop: a second PDF dropped on the zone is listed, then deleted after the
    // confirmation.
    let drop = "const dt = new DataTransfer();
        dt.items.add(new File(['%PDF-1.4 scope'], 'scope.pdf', {type: 'application/pdf'}));
        const zone = document.querySelector('.drop-zone');
        zone.dispatchEvent(new DragEvent('dragover', {dataTransfer: dt, bubbles: true, cancelable: true}));
        zone.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));";
    b.client.execute(drop, vec![]).await.unwrap();
    b.wait_text("scope.pdf attached.").await;
    let listed = "return document.querySelectorAll('#attachments tbody tr').length;";
    assert_eq!(b.wait_js(listed, vec![]).await, 2);
    b.wait_js(
        "const f = document.querySelector('iframe.pdf-frame'); if (f) f.scrollIntoView(); return !!f;",
        vec![],
    )
    .await;
    b.screenshot("offers-03-document-and-attachments").await;
    // (toasts sit over the row's button; a keyboard user presses it the same way)
    b.client
        .execute(
            "document.querySelector(\"button[aria-label='Delete scope.pdf']\").click();",
            vec![],
        )
        .await
        .unwrap();
    b.wait_text("will be removed from the offer").await;
    b.click_in_dialog("Delete").await;
    b.wait_text("scope.pdf deleted.").await;
    assert_eq!(
        b.wait_js(
            "return document.querySelectorAll('#attachments tbody tr').length === 1;",
            vec![]
        )
        .await,
        true
    );

    // Accepted, then "Create invoice": the form without the optional position.
    b.select("#offer-status", "accepted").await;
    b.wait_text_of(".detail-head h1 .badge", "Accepted").await;
    b.click("#create-invoice").await;
    b.wait_js(
        "return location.pathname.endsWith('/invoices/new');",
        vec![],
    )
    .await;
    b.wait_js(
        "return document.querySelector('#f-title') && document.querySelector('#f-title').value === 'Harbour app offer';",
        vec![],
    )
    .await;
    let rows = "return document.querySelectorAll('.pe-table tbody tr[data-row-key]').length;";
    assert_eq!(b.wait_js(rows, vec![]).await, 1);
    assert_eq!(b.prop(&row(1, "title"), "value").await, "Design");
    b.wait_picked("#f-customer_id", &customer.to_string()).await;
    b.wait_text("119.00").await;
    b.screenshot("offers-04-invoice-from-offer").await;
    b.click("form button[type=submit]").await;
    b.click("dialog[open] #finalize-confirm").await;
    b.wait_js(
        "return /^\\/invoices\\/\\d+$/.test(location.pathname);",
        vec![],
    )
    .await;
    b.wait_text("119.00 EUR").await;
    // The invoice links its offer; the offer is billed now and lists the invoice.
    b.wait_text("Created from").await;

    // The list, with offers in other states written through the API.
    for (title, status) in [
        ("Quay lighting", "billed"),
        ("Old crane survey", "archived"),
        ("Dock security", "sent"),
    ] {
        let o = server
            .post(
                "/offers",
                json!({"company_id": customer, "title": title, "recipient_address": "Hafen Logistik GmbH",
                    "date": "2026-11-02", "due_date": "2026-12-02", "tax": 19,
                    "items": [{"type": "item", "title": "Work", "quantity": 3, "unit_price": 80}]}),
            )
            .await;
        let id = o["id"].as_i64().unwrap();
        let r = reqwest::Client::new()
            .put(format!("{}/api/v1/offers/{id}/update_status", server.base))
            .header("Authorization", format!("Token token={}", server.key))
            .json(&json!({"status": status}))
            .send()
            .await
            .unwrap();
        assert!(r.status().is_success());
    }
    b.open(&server.base, "/offers").await;
    b.wait_text("Dock security").await;
    b.select("#filter-status", "archived").await;
    b.wait_js("return location.search === '?status=archived';", vec![])
        .await;
    b.wait_js(
        "return document.querySelectorAll('#offer-table tbody tr').length === 1;",
        vec![],
    )
    .await;
    b.wait_text("1 result").await;
    b.click(".filters-clear").await;
    b.wait_text("4 results").await;
    b.wait_text("Harbour app offer").await;
    b.screenshot("offers-05-list").await;
    b.close().await;
}
