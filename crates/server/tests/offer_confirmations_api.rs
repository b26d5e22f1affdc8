//! Order confirmations over real HTTP (issue 31): only an accepted or partially billed
//! offer gets one (422 otherwise, in English and German); its default title is in the
//! customer's language; the offer carries it; its PDF shows the heading and the accepted
//! positions; it is e-mailed to the offer's default recipient; and the account setting
//! `offer_confirmation_on_approval` creates and sends it when the customer signs online.

mod common;

use common::{start, TestServer};
use serde_json::{json, Value};

/// An offer of a company whose correspondence language is `language` (its e-mail
/// `office@acme.example`): one position (10 h × 100) and an optional one (5 h × 100).
async fn offer(s: &TestServer, language: &str) -> i64 {
    let company = s
        .create(
            "/companies",
            json!({"name": "ACME GmbH", "email": "office@acme.example", "language": language}),
        )
        .await;
    s.create(
        "/offers",
        json!({
            "company_id": company,
            "recipient_address": "ACME GmbH\nMain St 1",
            "date": "2026-11-05",
            "due_date": "2099-12-31",
            "title": "Website relaunch",
            "tax": 19,
            "items": [
                {"type": "item", "title": "Design", "quantity": 10, "unit": "h", "unit_price": 100},
                {"type": "item", "title": "Extra animations", "quantity": 5, "unit": "h", "unit_price": 100, "optional": true}
            ]
        }),
    )
    .await
}

async fn set_status(s: &TestServer, id: i64, status: &str) {
    let r = s
        .put(
            &format!("/offers/{id}/update_status"),
            json!({"status": status}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

async fn identifier(s: &TestServer, id: i64) -> String {
    s.get(&format!("/offers/{id}")).await.body["identifier"]
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn only_accepted_or_partially_billed_offers_are_confirmed() {
    let s = start().await;
    let id = offer(&s, "en").await;
    let path = format!("/offers/{id}/offer_confirmation");
    let r = s.post(&path, json!({})).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(
        r.body["message"],
        "Only an accepted or partially billed offer can have an order confirmation."
    );
    set_status(&s, id, "sent").await;
    let r = common::requests::send(
        s.client
            .post(s.url(&path))
            .header("Authorization", format!("Token token={}", s.key))
            .header("Accept-Language", "de")
            .json(&json!({})),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(
        r.body["message"],
        "Nur ein angenommenes oder teilweise abgerechnetes Angebot kann eine Auftragsbestätigung erhalten."
    );
    assert!(s.get(&format!("/offers/{id}")).await.body["offer_confirmation"].is_null());
    assert_eq!(s.get(&format!("{path}.pdf")).await.status, 404);
    assert_eq!(
        s.post("/offers/999999/offer_confirmation", json!({}))
            .await
            .status,
        404
    );
    // A read-only key may not create one.
    set_status(&s, id, "accepted").await;
    let read_only = s.read_only_key().await;
    let r = common::requests::send(
        s.client
            .post(s.url(&path))
            .header("Authorization", format!("Token token={read_only}"))
            .json(&json!({})),
    )
    .await;
    assert_eq!(r.status, 403, "{}", r.body);
}

#[tokio::test]
async fn the_default_title_is_in_the_customers_language_and_the_offer_carries_it() {
    let s = start().await;
    let german = offer(&s, "de").await;
    set_status(&s, german, "accepted").await;
    let number = identifier(&s, german).await;
    let r = s
        .send(
            reqwest::Method::POST,
            &format!("/offers/{german}/offer_confirmation"),
            None,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["title"], format!("Auftragsbestätigung {number}"));
    let keys: Vec<&String> = r.body.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["created_at", "id", "title", "updated_at"]);
    assert!(r.body["created_at"].as_str().unwrap().ends_with('Z'));
    let offer_json = s.get(&format!("/offers/{german}")).await.body;
    assert_eq!(offer_json["offer_confirmation"], r.body);

    // POST again: the same confirmation; a title in the body renames it.
    let again = s
        .post(&format!("/offers/{german}/offer_confirmation"), json!({}))
        .await;
    assert_eq!(again.body, r.body);
    let renamed = s
        .post(
            &format!("/offers/{german}/offer_confirmation"),
            json!({"title": " AB-7 Relaunch "}),
        )
        .await;
    assert_eq!(renamed.status, 200, "{}", renamed.body);
    assert_eq!(renamed.body["id"], r.body["id"]);
    assert_eq!(renamed.body["title"], "AB-7 Relaunch");
    let long = s
        .post(
            &format!("/offers/{german}/offer_confirmation"),
            json!({"title": "x".repeat(501)}),
        )
        .await;
    assert_eq!(long.status, 422, "{}", long.body);
    assert!(long.body["errors"]["title"].is_array(), "{}", long.body);

    // An English customer's; a partially billed offer may be confirmed too.
    let english = offer(&s, "en").await;
    set_status(&s, english, "partially_billed").await;
    let number = identifier(&s, english).await;
    let r = s
        .post(&format!("/offers/{english}/offer_confirmation"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["title"], format!("Order confirmation {number}"));
}

#[tokio::test]
async fn the_pdf_shows_the_heading_and_the_accepted_positions() {
    let s = start().await;
    let id = offer(&s, "en").await;
    set_status(&s, id, "accepted").await;
    let number = identifier(&s, id).await;
    let r = s
        .post(&format!("/offers/{id}/offer_confirmation"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let (status, content_type, bytes) = s
        .bytes(&format!("/offers/{id}/offer_confirmation.pdf"))
        .await;
    assert_eq!(status, 200);
    assert_eq!(content_type, "application/pdf");
    let text = common::pdftotext(&bytes);
    for expected in [
        format!("Order confirmation {number}"),
        "We hereby confirm your order".to_string(),
        "Design".to_string(),
        "Website relaunch".to_string(),
    ] {
        assert!(text.contains(&expected), "{expected} missing: {text}");
    }
    assert!(
        !text.contains("Extra animations"),
        "an optional position not taken is not confirmed: {text}"
    );
    assert!(!text.contains("valid until"), "{text}");

    let german = offer(&s, "de").await;
    set_status(&s, german, "accepted").await;
    let number = identifier(&s, german).await;
    s.post(&format!("/offers/{german}/offer_confirmation"), json!({}))
        .await;
    let (_, _, bytes) = s
        .bytes(&format!("/offers/{german}/offer_confirmation.pdf"))
        .await;
    let text = common::pdftotext(&bytes);
    assert!(
        text.contains(&format!("Auftragsbestätigung {number}")),
        "{text}"
    );
    assert!(text.contains("Hiermit bestätigen wir"), "{text}");
}

#[tokio::test]
async fn send_email_goes_to_the_default_recipient_and_onto_the_timeline() {
    let s = start().await;
    let id = offer(&s, "en").await;
    set_status(&s, id, "accepted").await;
    let number = identifier(&s, id).await;
    let path = format!("/offers/{id}/offer_confirmation/send_email");
    assert_eq!(s.post(&path, json!({})).await.status, 404, "none yet");
    s.post(&format!("/offers/{id}/offer_confirmation"), json!({}))
        .await;
    let r = s.post(&path, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["emails_to"], "office@acme.example");
    assert_eq!(r.body["subject"], format!("Order confirmation {number}"));
    let mails = s.outbox(1).await;
    assert!(mails[0].contains("To: office@acme.example"), "{}", mails[0]);
    assert!(
        mails[0].contains(&format!("{number}-confirmation.pdf")),
        "the PDF is attached"
    );
    let events = s.get(&format!("/offers/{id}/events")).await.body;
    let sent: Vec<&Value> = events
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "sent")
        .collect();
    assert_eq!(sent.len(), 1, "{events}");
    assert_eq!(sent[0]["data"]["document"], "offer_confirmation");
    assert_eq!(sent[0]["data"]["to"], json!(["office@acme.example"]));

    // Given recipients and texts win.
    let r = s
        .post(
            &path,
            json!({"emails_to": "buyer@acme.example", "subject": "Your order", "text": "Attached."}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["emails_to"], "buyer@acme.example");
    assert_eq!(r.body["subject"], "Your order");
}

#[tokio::test]
async fn the_account_setting_creates_and_sends_it_when_the_customer_signs() {
    let s = start().await;
    assert_eq!(
        s.get("/account").await.body["offer_confirmation_on_approval"],
        false
    );
    let r = s
        .put("/account", json!({"offer_confirmation_on_approval": true}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["offer_confirmation_on_approval"], true);
    assert_eq!(
        s.get("/account").await.body["offer_confirmation_on_approval"],
        true
    );

    let id = offer(&s, "en").await;
    let number = identifier(&s, id).await;
    let activated = s
        .post(
            &format!("/offers/{id}/customer_approval/activate"),
            json!({}),
        )
        .await;
    let url = activated.body["approval_url"].as_str().unwrap();
    let token = url.rsplit('/').next().unwrap();
    let signed = common::reply(
        s.client
            .post(s.url(&format!("/customer_approvals/{token}/sign")))
            .json(&json!({
                "customer_full_name": "Erika Mustermann", "customer_email": "erika@example.com",
                "accepted_terms": true
            }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(signed.status, 200, "{}", signed.body);
    let o = s.get(&format!("/offers/{id}")).await.body;
    assert_eq!(o["status"], "accepted");
    assert_eq!(
        o["offer_confirmation"]["title"],
        format!("Order confirmation {number}")
    );
    // The approval's two e-mails and the confirmation to the offer's recipient.
    let mails = s.outbox(3).await;
    let confirmation = mails
        .iter()
        .find(|m| m.contains(&format!("{number}-confirmation.pdf")))
        .unwrap_or_else(|| panic!("no confirmation sent: {mails:?}"));
    assert!(
        confirmation.contains("To: office@acme.example"),
        "{confirmation}"
    );
    for _ in 0..100 {
        let events = s.get(&format!("/offers/{id}/events")).await.body;
        if events.to_string().contains("offer_confirmation") {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("no sent event for the confirmation");
}

#[tokio::test]
async fn without_the_setting_signing_creates_no_confirmation() {
    let s = start().await;
    let id = offer(&s, "en").await;
    let activated = s
        .post(
            &format!("/offers/{id}/customer_approval/activate"),
            json!({}),
        )
        .await;
    let url = activated.body["approval_url"].as_str().unwrap();
    let token = url.rsplit('/').next().unwrap();
    let signed = common::reply(
        s.client
            .post(s.url(&format!("/customer_approvals/{token}/sign")))
            .json(&json!({
                "customer_full_name": "Erika Mustermann", "customer_email": "erika@example.com",
                "accepted_terms": true
            }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(signed.status, 200, "{}", signed.body);
    s.outbox(2).await;
    tokio::time::sleep(std::time::Duration::from_millis(1000)).await;
    assert_eq!(
        s.outbox(2).await.len(),
        2,
        "only the approval's own e-mails"
    );
    let o = s.get(&format!("/offers/{id}")).await.body;
    assert!(o["offer_confirmation"].is_null(), "{o}");
}
