//! Issue 36 § Every incoming e-invoice checked, on a real server: each purchase imported
//! from an e-invoice carries `einvoice_check {valid, class, findings}`; a content or formal
//! defect holds approval up until an admin overrides with a reason (kept on the `approved`
//! event); "Ask for a corrected invoice" e-mails the seller the findings (a real SMTP
//! server), in German or English.

mod common;

use common::people::{send_as, user_with_role};
use common::smtp::{smtp_server, start_sending_to, wait_for_messages};
use common::{num, start, Reply, TestServer};
use reqwest::Method;
use serde_json::{json, Value};
use std::path::PathBuf;

fn sample(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/einvoice/samples")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn replace(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from:?} not in the sample");
    text.replacen(from, to, 1)
}

/// The UBL sample with one line's net amount off by 10 (BR-CO-10, BR-S-08).
fn wrong_line_sum() -> String {
    replace(
        &sample("01.01a-INVOICE_ubl.xml"),
        "<cbc:LineExtensionAmount currencyID=\"EUR\">288.79</cbc:LineExtensionAmount>",
        "<cbc:LineExtensionAmount currencyID=\"EUR\">298.79</cbc:LineExtensionAmount>",
    )
}

async fn import(s: &TestServer, name: &str, xml: &str) -> Reply {
    s.upload(Method::POST, "/purchases/import", name, xml.as_bytes())
        .await
}

async fn approve(s: &TestServer, key: Option<&str>, id: i64, reason: Option<&str>) -> Reply {
    let mut body = json!({"status": "approved"});
    if let Some(r) = reason {
        body["override_reason"] = json!(r);
    }
    match key {
        Some(k) => {
            send_as(
                s,
                Some(k),
                Method::PATCH,
                &format!("/purchases/{id}/update_status"),
                Some(body),
            )
            .await
        }
        None => {
            s.send(
                Method::PATCH,
                &format!("/purchases/{id}/update_status"),
                Some(body),
            )
            .await
        }
    }
}

fn rules(check: &Value) -> Vec<&str> {
    check["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn samples_are_valid_and_approve_as_usual() {
    let s = start().await;
    for name in ["01.01a-INVOICE_ubl.xml", "03.01a-INVOICE_uncefact.xml"] {
        let r = import(&s, name, &sample(name)).await;
        assert_eq!(r.status, 201, "{name}: {}", r.body);
        let check = &r.body["einvoice_check"];
        assert_eq!(check["valid"], true, "{name}: {check}");
        assert!(check["class"].is_null());
        assert_eq!(check["findings"], json!([]));
        let id = r.body["id"].as_i64().unwrap();
        let approved = approve(&s, None, id, None).await;
        assert_eq!(approved.status, 200, "{}", approved.body);
        // The stored check comes back with every read.
        let again = s.get(&format!("/purchases/{id}")).await;
        assert_eq!(again.body["einvoice_check"]["valid"], true);
    }
    // A purchase entered by hand has no check.
    let manual = s
        .post(
            "/purchases",
            json!({"date": "2026-11-02", "currency": "EUR", "payment_method": "bank_transfer",
                "items": [{"title": "Paper", "total": 10, "tax": 19}]}),
        )
        .await;
    assert!(manual.status.is_success(), "{}", manual.body);
    assert!(manual.body["einvoice_check"].is_null(), "{}", manual.body);
}

#[tokio::test]
async fn a_content_defect_holds_approval_until_an_admin_overrides_with_a_reason() {
    let s = start().await;
    let r = import(&s, "wrong-sum.xml", &wrong_line_sum()).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let check = &r.body["einvoice_check"];
    assert_eq!(check["valid"], false);
    assert_eq!(check["class"], "content");
    let found = rules(check);
    assert!(
        found.contains(&"BR-CO-10") && found.contains(&"BR-S-08"),
        "{found:?}"
    );
    let co10 = check["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "BR-CO-10")
        .unwrap();
    assert_eq!(co10["term"], "BT-106");
    assert_eq!(co10["class"], "content");
    assert!(
        co10["message"].as_str().unwrap().contains("314.86"),
        "{co10}"
    );
    // Booked as the document states its lines and VAT: nothing made up.
    assert_eq!(num(&r.body["net_total"]), "324.86");
    let id = r.body["id"].as_i64().unwrap();

    // Neither the status change nor a PUT approves it without an override.
    let refused = approve(&s, None, id, None).await;
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert!(
        refused.body["errors"]["status"].is_array(),
        "{}",
        refused.body
    );
    let mut put = s.get(&format!("/purchases/{id}")).await.body;
    put["status"] = json!("approved");
    let put = s.put(&format!("/purchases/{id}"), put).await;
    assert_eq!(put.status, 422, "{}", put.body);
    // Staff may not override; a blank reason is no reason.
    let (_, staff) = user_with_role(&s, "staff@kontor.example", "staff").await;
    let by_staff = approve(&s, Some(&staff), id, Some("Agreed by phone")).await;
    assert_eq!(by_staff.status, 403, "{}", by_staff.body);
    let blank = approve(&s, None, id, Some("   ")).await;
    assert_eq!(blank.status, 422);
    let long = approve(&s, None, id, Some(&"x".repeat(2_001))).await;
    assert_eq!(long.status, 422);
    assert!(
        long.body["errors"]["override_reason"].is_array(),
        "{}",
        long.body
    );
    assert_eq!(
        s.get(&format!("/purchases/{id}")).await.body["status"],
        "pending"
    );

    // The admin overrides; the reason and the rules are on the approved event.
    let ok = approve(&s, None, id, Some("Seller confirmed the amounts by phone")).await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(ok.body["status"], "approved");
    let events = s.get(&format!("/purchases/{id}/events")).await.body;
    let approved = events
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "approved")
        .unwrap_or_else(|| panic!("no approved event: {events}"));
    assert_eq!(
        approved["data"]["override_reason"],
        "Seller confirmed the amounts by phone"
    );
    assert_eq!(approved["data"]["einvoice_class"], "content");
    assert!(approved["data"]["rules"].to_string().contains("BR-CO-10"));
}

#[tokio::test]
async fn other_and_formal_defects_are_classified() {
    let s = start().await;
    // A missing buyer reference in an XRechnung: other (approval not held up).
    let no_reference = replace(
        &sample("01.01a-INVOICE_uncefact.xml"),
        "<ram:BuyerReference>04011000-12345-03</ram:BuyerReference>",
        "",
    );
    let r = import(&s, "no-reference.xml", &no_reference).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["einvoice_check"]["class"], "other");
    assert_eq!(rules(&r.body["einvoice_check"]), ["BR-DE-15"]);
    let id = r.body["id"].as_i64().unwrap();
    assert_eq!(approve(&s, None, id, None).await.status, 200);

    // A currency that is not ISO 4217: a formal defect.
    let currency = sample("02.01a-INVOICE_ubl.xml")
        .replace("currencyID=\"EUR\"", "currencyID=\"EUX\"")
        .replace(">EUR<", ">EUX<");
    let r = import(&s, "currency.xml", &currency).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["einvoice_check"]["class"], "formal");
    assert!(rules(&r.body["einvoice_check"]).contains(&"BR-CL-04"));
    let id = r.body["id"].as_i64().unwrap();
    assert_eq!(approve(&s, None, id, None).await.status, 422);

    // An element the UBL 2.1 schema does not have: booked, a formal defect naming the
    // element (KONTOR-XSD), approval held.
    let unknown = replace(
        &sample("02.01a-INVOICE_ubl.xml"),
        "<cbc:DocumentCurrencyCode>",
        "<cbc:Colour>blue</cbc:Colour><cbc:DocumentCurrencyCode>",
    )
    .replacen("<cbc:ID>1234567</cbc:ID>", "<cbc:ID>1234568</cbc:ID>", 1);
    let r = import(&s, "unknown-element.xml", &unknown).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["einvoice_check"]["class"], "formal");
    assert_eq!(rules(&r.body["einvoice_check"]), ["KONTOR-XSD"]);
    assert_eq!(
        r.body["einvoice_check"]["findings"][0]["term"],
        "cbc:Colour"
    );
    let id = r.body["id"].as_i64().unwrap();
    assert_eq!(approve(&s, None, id, None).await.status, 422);

    // An unknown VAT category cannot be booked: 422 naming the rule, nothing written.
    let category = replace(
        &sample("01.01a-INVOICE_uncefact.xml"),
        "<ram:CategoryCode>S</ram:CategoryCode>",
        "<ram:CategoryCode>Q</ram:CategoryCode>",
    );
    let r = import(&s, "category.xml", &category).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body["errors"]["file"][0]
            .as_str()
            .unwrap()
            .contains("BR-CL-18"),
        "{}",
        r.body
    );
}

#[tokio::test]
async fn ask_for_a_corrected_invoice_mails_the_seller_the_findings() {
    let mail = smtp_server().await;
    let s = start_sending_to(mail.port).await;
    let r = import(&s, "wrong-sum.xml", &wrong_line_sum()).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    let path = format!("/purchases/{id}/correction_request");

    // English by default, to the seller's e-mail from the document.
    let sent = s.post(&path, json!({})).await;
    assert_eq!(sent.status, 200, "{}", sent.body);
    assert_eq!(sent.body["emails_to"], "seller@email.de");
    let text = sent.body["text"].as_str().unwrap();
    assert!(
        text.contains("BR-CO-10") && text.contains("BT-106"),
        "{text}"
    );
    assert!(text.contains("123456XX"), "{text}");
    // German when asked, to another address.
    let german = s
        .post(
            &path,
            json!({"to": "rechnung@lieferant.example", "language": "de"}),
        )
        .await;
    assert_eq!(german.status, 200, "{}", german.body);
    assert!(german.body["subject"]
        .as_str()
        .unwrap()
        .contains("berichtigte Rechnung"));
    assert!(german.body["text"]
        .as_str()
        .unwrap()
        .contains("Summe der Positionsnettobeträge"));

    let received = wait_for_messages(&mail, 2).await;
    assert_eq!(received.len(), 2, "{received:?}");
    let english = received
        .iter()
        .find(|m| m.contains("seller@email.de"))
        .expect("the message to the seller");
    assert!(english.contains("BR-CO-10"), "{english}");
    assert!(received
        .iter()
        .any(|m| m.contains("rechnung@lieferant.example")));
    // On the purchase's timeline.
    let events = s.get(&format!("/purchases/{id}/events")).await.body;
    let sent_events = events
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "sent")
        .count();
    assert_eq!(sent_events, 2, "{events}");

    // Refusals: a bad address, a purchase with nothing to correct.
    let bad = s.post(&path, json!({"to": "not an address"})).await;
    assert_eq!(bad.status, 422);
    assert!(bad.body["errors"]["to"].is_array(), "{}", bad.body);
    let valid = import(&s, "valid.xml", &sample("03.01a-INVOICE_uncefact.xml")).await;
    let valid_id = valid.body["id"].as_i64().unwrap();
    let nothing = s
        .post(
            &format!("/purchases/{valid_id}/correction_request"),
            json!({}),
        )
        .await;
    assert_eq!(nothing.status, 422, "{}", nothing.body);
    let none = s
        .post("/purchases/999999/correction_request", json!({}))
        .await;
    assert_eq!(none.status, 404);
}

#[tokio::test]
async fn a_document_with_too_many_lines_is_refused_naming_the_limit_and_leaves_nothing() {
    let s = start().await;
    let ubl = sample("01.01a-INVOICE_ubl.xml");
    let (start_at, end_at) = (
        ubl.find("<cac:InvoiceLine>").unwrap(),
        ubl.find("</cac:InvoiceLine>").unwrap() + "</cac:InvoiceLine>".len(),
    );
    let line = &ubl[start_at..end_at];
    let huge = format!(
        "{}{}{}",
        &ubl[..start_at],
        line.repeat(5_001),
        &ubl[end_at..]
    );
    let r = import(&s, "huge.xml", &huge).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body["errors"]["file"][0]
            .as_str()
            .unwrap()
            .contains("KONTOR-SIZE"),
        "{}",
        r.body
    );
    let list = s.get("/purchases").await;
    assert_eq!(list.body, json!([]));
}
