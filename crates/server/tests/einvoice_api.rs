//! E-invoices out (issue 10): GET /invoices/{id}.xml (XRechnung 3.0, CII and UBL),
//! GET /invoices/{id}/e_invoice, and the Factur-X PDF — every invoice shape checked with
//! the official EN 16931 and XRechnung rules (`../shared/einvoice/validate.py`).

mod common;

use common::einvoice::{complete_account, customer, validate};
use common::{start, TestServer};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

async fn invoice(s: &TestServer, customer: i64, overrides: Value) -> Value {
    let r = s.invoice(customer, overrides).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

/// Writes the CII and UBL XML and the PDF of invoice `id` under `dir` as `<name>.*`.
async fn documents(s: &TestServer, id: i64, name: &str, dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for (suffix, file) in [
        (".xml?syntax=cii", format!("{name}-cii.xml")),
        (".xml?syntax=ubl", format!("{name}-ubl.xml")),
        (".pdf", format!("{name}.pdf")),
    ] {
        let (status, ty, body) = s.bytes(&format!("/invoices/{id}{suffix}")).await;
        assert_eq!(
            status,
            200,
            "{name}{suffix}: {}",
            String::from_utf8_lossy(&body)
        );
        if suffix.starts_with(".xml") {
            assert_eq!(ty, "application/xml", "{name}{suffix}");
        }
        let path = dir.join(file);
        std::fs::write(&path, body).unwrap();
        out.push(path);
    }
    out
}

#[tokio::test]
async fn every_invoice_shape_is_a_valid_xrechnung_and_factur_x() {
    let s = start().await;
    complete_account(&s).await;
    let dir = tempfile::tempdir().unwrap();
    let de = customer(&s, "Kranzler AG", json!({"vat_identifier": "DE811907980"})).await;
    let at = customer(
        &s,
        "Wiener Werkstätten GmbH",
        json!({"address": "Ringstraße 5\n1010 Wien", "country_code": "AT", "vat_identifier": "ATU13585627"}),
    )
    .await;
    let ch = customer(
        &s,
        "Zürcher Treuhand AG",
        json!({"address": "Bahnhofstrasse 1\n8001 Zürich", "country_code": "CH"}),
    )
    .await;

    let public = customer(
        &s,
        "Stadtverwaltung Musterstadt",
        json!({
            "buyer_reference": "04011000-12345-67",
            "electronic_address": "xrechnung@musterstadt.example",
            "iban": "DE89370400440532013000",
            "sepa_mandate_reference": "MANDAT-2026-01"
        }),
    )
    .await;
    let many: Vec<Value> = (1..=1000)
        .map(|n| json!({"type": "item", "title": format!("Position {n}"), "quantity": 1, "unit": "h", "unit_price": 12.5}))
        .collect();
    let every_type = json!([
        {"type": "title", "title": "Design"},
        {"type": "description", "title": "Notes", "description": "<p>Setup &amp; <b>training</b></p>"},
        {"type": "item", "title": "Concept", "quantity": 2, "unit": "Std.", "unit_price": 50, "description": "<ul><li>A</li><li>B</li></ul>"},
        {"type": "subtotal", "title": "Subtotal"},
        {"type": "page-break", "title": ""},
        {"type": "separator", "title": ""},
        {"type": "item", "title": "Licence", "quantity": 3, "unit": "Lizenzen", "unit_price": 19.99},
        {"type": "item", "title": "Credit", "quantity": 1, "unit": "pcs", "unit_price": -10},
        {"type": "item", "title": "Flat fee", "net_total": 100}
    ]);
    let shapes: Vec<(&str, i64, Value)> = vec![
        ("standard", de, json!({})),
        ("discount", de, json!({"discount": 10})),
        (
            "cash-discount",
            de,
            json!({"cash_discount": 2, "cash_discount_days": 10}),
        ),
        (
            "reverse-charge",
            at,
            json!({"tax": 0, "vat": {"reverse_charge": true}}),
        ),
        (
            "intra-eu",
            at,
            json!({"tax": 0, "vat": {"intra_eu": true}, "service_period_from": "2026-11-01", "service_period_to": "2026-11-30"}),
        ),
        ("zero", de, json!({"tax": 0})),
        ("chf", ch, json!({"currency": "CHF", "tax": 8.1})),
        (
            "jpy",
            de,
            json!({"currency": "JPY", "items": [{"type": "item", "title": "Beratung", "quantity": 3, "unit": "h", "unit_price": 15000}]}),
        ),
        (
            "every-type",
            de,
            json!({"items": every_type, "service_period": "10/2026"}),
        ),
        ("thousand", de, json!({"items": many})),
        ("direct-debit-leitweg", public, json!({})),
        (
            "own-buyer-reference",
            de,
            json!({"buyer_reference": "PO-4711", "payment_means": "credit_transfer"}),
        ),
        (
            "mixed-rates",
            de,
            json!({"discount": 5, "items": [
                {"type": "item", "title": "Beratung", "quantity": 3, "unit": "h", "unit_price": 95},
                {"type": "item", "title": "Fachbuch", "quantity": 2, "unit": "pcs", "unit_price": 24.9, "tax": 7, "tax_category": "reduced"},
                {"type": "item", "title": "Porto", "net_total": 4.5, "tax": 0, "tax_category": "zero"},
            {"type": "item", "title": "Zeitschrift", "quantity": 1, "unit": "pcs", "unit_price": 9.99, "tax": 7},
                {"type": "item", "title": "Schulung", "quantity": 1, "unit": "day", "unit_price": 800, "tax": 0, "tax_category": "exempt", "tax_exemption_reason": "Steuerfrei nach § 4 Nr. 21 UStG"}
            ]}),
        ),
        (
            "export",
            ch,
            json!({"tax": 0, "items": [
                {"type": "item", "title": "Maschine", "quantity": 1, "unit": "pcs", "unit_price": 12000, "tax_category": "export"}
            ]}),
        ),
    ];
    let mut files = Vec::new();
    let mut ids = Vec::new();
    for (name, customer, overrides) in &shapes {
        let inv = invoice(&s, *customer, overrides.clone()).await;
        let id = inv["id"].as_i64().unwrap();
        ids.push(id);
        files.extend(documents(&s, id, name, dir.path()).await);
    }
    // A reversal invoice is a credit note referring to the invoice it reverses.
    let r = s
        .post(&format!("/invoices/{}/reverse", ids[1]), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let reversal = r.body["id"].as_i64().unwrap();
    files.extend(documents(&s, reversal, "reversal", dir.path()).await);
    let cii = std::fs::read_to_string(dir.path().join("reversal-cii.xml")).unwrap();
    assert!(cii.contains("<ram:TypeCode>381</ram:TypeCode>"), "{cii}");
    let original = s.get(&format!("/invoices/{}", ids[1])).await.body;
    assert!(
        cii.contains(original["identifier"].as_str().unwrap()),
        "the credit note names the reversed invoice"
    );
    let ubl = std::fs::read_to_string(dir.path().join("reversal-ubl.xml")).unwrap();
    assert!(ubl.contains("CreditNote"), "{ubl}");

    // Credit notes (issue 33): one position in part and a free amount of the mixed-rate
    // invoice (with its discount), and a lump sum of the every-type invoice — each a 381
    // credit note naming the credited invoice.
    let mixed_index = shapes
        .iter()
        .position(|(n, _, _)| *n == "mixed-rates")
        .unwrap();
    let every_index = shapes
        .iter()
        .position(|(n, _, _)| *n == "every-type")
        .unwrap();
    for (name, index, pick) in [
        (
            "credit-note-mixed",
            mixed_index,
            vec![("Fachbuch", Some(1)), ("Schulung", None)],
        ),
        ("credit-note-lump", every_index, vec![("Flat fee", None)]),
    ] {
        let full = s.get(&format!("/invoices/{}", ids[index])).await.body;
        let mut items: Vec<Value> = pick
            .iter()
            .map(|(title, quantity)| {
                let item = full["items"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|i| i["title"] == *title)
                    .unwrap();
                match quantity {
                    Some(q) => json!({"id": item["id"], "quantity": q}),
                    None => json!({"id": item["id"]}),
                }
            })
            .collect();
        items.push(json!({"type": "item", "title": "Nachlass", "quantity": 1, "unit_price": 20}));
        let r = s
            .post(
                &format!("/invoices/{}/credit_note", ids[index]),
                json!({ "items": items }),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let note = r.body["id"].as_i64().unwrap();
        files.extend(documents(&s, note, name, dir.path()).await);
        let cii = std::fs::read_to_string(dir.path().join(format!("{name}-cii.xml"))).unwrap();
        assert!(cii.contains("<ram:TypeCode>381</ram:TypeCode>"), "{cii}");
        assert!(cii.contains(full["identifier"].as_str().unwrap()), "{cii}");
        let ubl = std::fs::read_to_string(dir.path().join(format!("{name}-ubl.xml"))).unwrap();
        assert!(ubl.contains("<CreditNote"), "{ubl}");
    }

    // A final invoice (issue 33) at two rates with a discount, deducting a down payment
    // at both rates and one at 19 %, and its reversal: the deductions are allowances per
    // rate, so BT-109/BT-110 carry what is left and BT-115 the amount due.
    let two_rates = |net19: f64, net7: f64| {
        json!([
            {"type": "item", "title": "Umsetzung", "net_total": net19},
            {"type": "item", "title": "Fachbuch", "net_total": net7, "tax": 7, "tax_category": "reduced"}
        ])
    };
    let first = invoice(
        &s,
        de,
        json!({"kind": "down_payment", "items": two_rates(1000.0, 100.0)}),
    )
    .await;
    let second = invoice(
        &s,
        de,
        json!({"kind": "down_payment", "items": two_rates(500.0, 0.01)}),
    )
    .await;
    let fin = invoice(
        &s,
        de,
        json!({"kind": "final", "discount": 3, "items": two_rates(10000.0, 333.33),
               "down_payment_invoice_ids": [first["id"], second["id"]]}),
    )
    .await;
    let fin_id = fin["id"].as_i64().unwrap();
    files.extend(documents(&s, fin_id, "final", dir.path()).await);
    let ubl = std::fs::read_to_string(dir.path().join("final-ubl.xml")).unwrap();
    assert!(ubl.contains(first["identifier"].as_str().unwrap()), "{ubl}");
    assert!(
        ubl.contains(&format!(
            "<cbc:PayableAmount currencyID=\"EUR\">{}</cbc:PayableAmount>",
            common::num(&fin["amount_due"])
        )),
        "{ubl}"
    );
    let r = s
        .post(&format!("/invoices/{fin_id}/reverse"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let fin_reversal = r.body["id"].as_i64().unwrap();
    files.extend(documents(&s, fin_reversal, "final-reversal", dir.path()).await);

    let leitweg = std::fs::read_to_string(dir.path().join("direct-debit-leitweg-cii.xml")).unwrap();
    assert!(
        leitweg.contains("04011000-12345-67"),
        "the customer's Leitweg-ID is BT-10"
    );
    assert!(
        leitweg.contains("MANDAT-2026-01"),
        "direct debit names the mandate"
    );
    assert!(
        leitweg.contains("<ram:TypeCode>59</ram:TypeCode>"),
        "{leitweg}"
    );
    let own = std::fs::read_to_string(dir.path().join("own-buyer-reference-ubl.xml")).unwrap();
    assert!(
        own.contains("<cbc:BuyerReference>PO-4711</cbc:BuyerReference>"),
        "the invoice's wins"
    );

    let report = validate::check(&files);
    assert!(report.success, "validate.py:\n{}", report.output);
    assert!(
        report
            .output
            .contains(&format!("{} passed, 0 failed", files.len())),
        "{}",
        report.output
    );
}

#[tokio::test]
async fn the_xml_names_the_file_and_carries_the_invoice_data() {
    let s = start().await;
    complete_account(&s).await;
    let c = customer(&s, "Kranzler AG", json!({})).await;
    let inv = invoice(&s, c, json!({})).await;
    let id = inv["id"].as_i64().unwrap();
    let number = inv["identifier"].as_str().unwrap().to_string();
    let resp = s
        .client
        .get(s.url(&format!("/invoices/{id}.xml")))
        .header("Authorization", format!("Token token={}", s.key))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let disposition = resp.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        disposition.contains(&format!("{number}.xml")),
        "{disposition}"
    );
    let xml = resp.text().await.unwrap();
    assert!(xml.contains("CrossIndustryInvoice"), "CII is the default");
    assert!(xml.contains(&number));
    assert!(xml.contains("xrechnung_3.0"));
    assert!(xml.contains("297.50"), "the gross total");
    // Without a buyer reference anywhere, the customer's id is BT-10.
    assert!(
        xml.contains(&format!("<ram:BuyerReference>{c}</ram:BuyerReference>")),
        "{xml}"
    );
    // The unit h is HUR, the lump sum is one C62.
    assert!(xml.contains("unitCode=\"HUR\""));
    assert!(xml.contains("unitCode=\"C62\""));

    let (status, _, _) = s.bytes(&format!("/invoices/{id}.xml?syntax=pdf")).await;
    assert_eq!(status, 400);
    let (status, _, _) = s.bytes("/invoices/999999.xml").await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn missing_data_is_named_with_where_to_set_it() {
    let s = start().await;
    // The default account has no VAT ID, phone or IBAN.
    let c = s.customer("Kunde ohne Land").await;
    let inv = invoice(&s, c, json!({})).await;
    let id = inv["id"].as_i64().unwrap();
    let r = s.get(&format!("/invoices/{id}/e_invoice")).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["ready"], false);
    assert_eq!(r.body["factur_x"], false);
    let fields: Vec<&str> = r.body["missing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["field"].as_str().unwrap())
        .collect();
    assert!(fields.contains(&"account.vat_identifier"), "{fields:?}");
    assert!(fields.contains(&"customer.country_code"), "{fields:?}");
    let vat = r.body["missing"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["field"] == "account.vat_identifier")
        .unwrap();
    assert_eq!(vat["where"], "settings");

    let r = s.get(&format!("/invoices/{id}.xml")).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body["errors"]["account.vat_identifier"].is_array(),
        "{}",
        r.body
    );

    // Without what EN 16931 needs the PDF stays a plain PDF.
    let (status, _, pdf) = s.bytes(&format!("/invoices/{id}.pdf")).await;
    assert_eq!(status, 200);
    assert!(!String::from_utf8_lossy(&pdf).contains("factur-x.xml"));

    // Once the data is there, the same invoice is ready.
    complete_account(&s).await;
    let r = s
        .put(
            &format!("/companies/{c}"),
            json!({"country_code": "DE", "address": "Main St 1\n12345 Town"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s.get(&format!("/invoices/{id}/e_invoice")).await;
    assert_eq!(r.body["ready"], true, "{}", r.body);
    assert_eq!(r.body["factur_x"], true, "{}", r.body);

    // A draft has no number yet.
    let draft = invoice(&s, c, json!({"status": "draft"})).await;
    let r = s.get(&format!("/invoices/{}.xml", draft["id"])).await;
    assert_eq!(r.status, 422);
    assert!(
        r.body["errors"]["invoice.identifier"].is_array(),
        "{}",
        r.body
    );
}

#[tokio::test]
async fn an_xrechnung_customer_gets_the_xml_by_mail_and_cannot_be_finalized_without_the_data() {
    use common::smtp::{messages, smtp_server, start_sending_to};
    let mail = smtp_server().await;
    let s = start_sending_to(mail.port).await;
    let c = customer(&s, "Behörde", json!({"einvoice_format": "xrechnung_ubl"})).await;
    // The account lacks the VAT ID, phone and IBAN: finalizing is refused before a number
    // is drawn, naming what is missing; a draft is fine.
    let r = s.invoice(c, json!({})).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body["errors"]["account.vat_identifier"].is_array(),
        "{}",
        r.body
    );
    let draft = invoice(&s, c, json!({"status": "draft"})).await;
    let path = format!("/invoices/{}/update_status", draft["id"]);
    let r = s.put(&path, json!({"status": "created"})).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["errors"]["account.phone"].is_array(), "{}", r.body);
    // Replacing the draft with a finalizing body is refused the same way; replacing it as
    // a draft is not (the gate is about drawing the number).
    let draft_path = format!("/invoices/{}", draft["id"]);
    let mut body = common::invoice_body(c);
    body["status"] = json!("created");
    let r = s.put(&draft_path, body.clone()).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["errors"]["account.phone"].is_array(), "{}", r.body);
    body["status"] = json!("draft");
    let r = s.put(&draft_path, body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body["identifier"].is_null(), "{}", r.body);

    complete_account(&s).await;
    let r = s.put(&path, json!({"status": "created"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let number = r.body["identifier"].as_str().unwrap().to_string();
    let r = s
        .post(
            &format!("/invoices/{}/send_email", draft["id"]),
            json!({"subject": "Rechnung", "text": "Anbei."}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let all = messages(&mail.maildir.path().join("mail"));
    let message = all
        .iter()
        .find(|m| m.contains("Subject: Rechnung"))
        .expect("sent");
    assert!(
        message.contains(&format!("{number}.xml")),
        "the XML is attached"
    );
    assert!(
        message.contains(&format!("{number}.pdf")),
        "the PDF stays as a copy"
    );
    assert!(message.contains("application/xml"));
}

#[tokio::test]
async fn every_finalized_demo_invoice_is_a_valid_e_invoice() {
    let s = common::start_demo().await;
    let list = s.get("/invoices?per_page=100").await;
    assert_eq!(list.status, 200, "{}", list.body);
    let out = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for inv in list.body.as_array().unwrap() {
        if inv["status"] == "draft" {
            continue;
        }
        let id = inv["id"].as_i64().unwrap();
        let r = s.get(&format!("/invoices/{id}/e_invoice")).await;
        assert_eq!(r.body["ready"], true, "demo invoice {id}: {}", r.body);
        assert_eq!(r.body["factur_x"], true, "demo invoice {id}: {}", r.body);
        files.extend(documents(&s, id, &format!("demo-{id}"), out.path()).await);
    }
    assert!(files.len() >= 9, "the demo has finalized invoices");
    let report = validate::check(&files);
    assert!(report.success, "validate.py:\n{}", report.output);
}

#[tokio::test]
async fn a_swiss_qr_bill_invoice_is_a_valid_factur_x_pdf_too() {
    let s = start().await;
    let r = s
        .put(
            "/account",
            json!({
                "name": "Alpen Kontor AG",
                "address": "Bahnhofstrasse 1\n8001 Zürich",
                "country_code": "CH",
                "vat_identifier": "CHE109238471",
                "phone": "+41 44 1234567",
                "email": "rechnung@alpen.example",
                "iban": "CH4431999123000889012",
                "currencies": ["CHF", "EUR"]
            }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let c = customer(
        &s,
        "Luzerner Bäckerei GmbH",
        json!({"address": "Seestrasse 4\n6006 Luzern", "country_code": "CH"}),
    )
    .await;
    let inv = invoice(&s, c, json!({"currency": "CHF", "tax": 8.1})).await;
    let dir = tempfile::tempdir().unwrap();
    let files = documents(&s, inv["id"].as_i64().unwrap(), "qr-bill", dir.path()).await;
    let pdf = std::fs::read(&files[2]).unwrap();
    assert!(
        common::pdftotext(&pdf).contains("Zahlteil"),
        "the QR-bill is printed"
    );
    let report = validate::check(&files);
    assert!(report.success, "validate.py:\n{}", report.output);
}
