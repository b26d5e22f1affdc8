//! Online offer approval over real HTTP (issue 31): staff activate, read and deactivate the
//! link; the customer, without credentials, reads only what the offer prints, downloads the
//! PDF, signs (choosing optional positions) or declines; every refusal names its field or
//! says why, and stores nothing; the token is the only key and is rate-limited.

mod common;

use base64::Engine;
use common::{start, start_with, Reply, TestServer};
use serde_json::{json, Value};

/// A customer with an offer: one counted position (10 h × 100), two optional ones
/// (5 h × 100 and 2 h × 50), tags, custom properties, a deal and a project. Returns the
/// offer's id.
async fn offer(s: &TestServer, overrides: Value) -> i64 {
    let company = s
        .create(
            "/companies",
            json!({"name": "ACME GmbH", "email": "office@acme.example", "language": "en"}),
        )
        .await;
    let project = s
        .create(
            "/projects",
            json!({"name": "Secret project Lima", "customer_id": company}),
        )
        .await;
    let mut body = json!({
        "company_id": company,
        "project_id": project,
        "recipient_address": "ACME GmbH\nMain St 1",
        "date": "2026-11-05",
        "due_date": "2099-12-31",
        "title": "Website relaunch",
        "tax": 19,
        "tags": ["internal-tag-xyz"],
        "custom_properties": {"Margin": "internal-margin-42"},
        "items": [
            {"type": "item", "title": "Design", "quantity": 10, "unit": "h", "unit_price": 100},
            {"type": "item", "title": "Extra animations", "quantity": 5, "unit": "h", "unit_price": 100, "optional": true},
            {"type": "item", "title": "Dark mode", "quantity": 2, "unit": "h", "unit_price": 50, "optional": true}
        ]
    });
    common::merge(&mut body, overrides);
    s.create("/offers", body).await
}

/// A request without credentials.
async fn public(s: &TestServer, method: reqwest::Method, path: &str, body: Option<Value>) -> Reply {
    let mut req = s.client.request(method, s.url(path));
    if let Some(body) = body {
        req = req.json(&body);
    }
    common::reply(req.send().await.unwrap()).await
}

/// The token of an approval URL (`…/approval/{token}`).
fn token_of(url: &str) -> String {
    let token = url.rsplit('/').next().unwrap().to_string();
    assert_eq!(token.len(), 64, "{url}");
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()), "{url}");
    token
}

/// A 3 × 2 PNG as a data URL.
fn signature() -> String {
    let mut png = Vec::new();
    image::RgbaImage::from_pixel(3, 2, image::Rgba([0, 0, 0, 255]))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(png)
    )
}

async fn activate(s: &TestServer, offer: i64) -> Value {
    let r = s
        .post(
            &format!("/offers/{offer}/customer_approval/activate"),
            json!({}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

#[tokio::test]
async fn staff_activate_read_and_deactivate_the_same_link() {
    let s = start().await;
    let id = offer(&s, json!({})).await;
    let path = format!("/offers/{id}/customer_approval");
    assert_eq!(s.get(&path).await.status, 404);
    assert!(s.get(&format!("/offers/{id}")).await.body["customer_approval"].is_null());

    let first = activate(&s, id).await;
    let url = first["approval_url"].as_str().unwrap().to_string();
    assert!(url.starts_with("http://"), "{url}");
    assert!(url.contains("/approval/"), "{url}");
    let token = token_of(&url);
    assert_eq!(
        first["offer_document_url"],
        url.replace(
            &format!("/approval/{token}"),
            &format!("/api/v1/customer_approvals/{token}/document.pdf")
        )
    );
    assert_eq!(first["active"], true);
    assert!(first["signed_at"].is_null() && first["customer_full_name"].is_null());
    assert!(first["signature_url"].is_null());
    // Activating twice keeps the link; the offer carries {id, active, url}.
    assert_eq!(activate(&s, id).await["approval_url"], url.as_str());
    let offer_json = s.get(&format!("/offers/{id}")).await.body;
    assert_eq!(
        offer_json["customer_approval"],
        json!({"id": first["id"], "active": true, "url": url})
    );
    assert_eq!(s.get(&path).await.body["approval_url"], url.as_str());
    let listed = s.get("/offers").await.body;
    let row = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["id"] == id)
        .unwrap();
    assert_eq!(row["customer_approval"]["url"], url.as_str());

    // The token is stored only as a hash: the database holds neither it nor its text.
    let db = s.db().await;
    let texts: Vec<(String, String)> = kontor_server::sql::query_as(
        "SELECT token_nonce, key_fingerprint FROM offer_customer_approvals",
    )
    .fetch_all(&db)
    .await
    .unwrap();
    assert_eq!(texts.len(), 1);
    assert!(!texts[0].0.contains(&token) && !token.contains(&texts[0].0));

    // The offer e-mail's {approval_url} becomes the link.
    let mail = s
        .post(
            &format!("/offers/{id}/send_email"),
            json!({"subject": "Offer to sign", "text": "Please sign here: {approval_url}"}),
        )
        .await;
    assert_eq!(mail.status, 200, "{}", mail.body);
    assert_eq!(mail.body["text"], format!("Please sign here: {url}"));

    // A read-only key may look, not activate.
    let read_only = s.read_only_key().await;
    let activate_path = format!("/offers/{id}/customer_approval/activate");
    assert_eq!(
        s.status_as(
            &read_only,
            reqwest::Method::POST,
            &activate_path,
            Some(json!({}))
        )
        .await,
        403
    );

    // Deactivated, the link stops working at once; PUT works as MOCO's example sends it.
    assert_eq!(
        public(
            &s,
            reqwest::Method::GET,
            &format!("/customer_approvals/{token}"),
            None
        )
        .await
        .status,
        200
    );
    let off = s.post(&format!("{path}/deactivate"), json!({})).await;
    assert_eq!(off.status, 200, "{}", off.body);
    assert_eq!(off.body["active"], false);
    let gone = public(
        &s,
        reqwest::Method::GET,
        &format!("/customer_approvals/{token}"),
        None,
    )
    .await;
    assert_eq!(gone.status, 404, "{}", gone.body);
    assert!(gone.body["message"].is_string());
    assert_eq!(activate(&s, id).await["approval_url"], url.as_str());
    let off = s.put(&format!("{path}/deactivate"), json!({})).await;
    assert_eq!(off.status, 200, "{}", off.body);
    assert_eq!(off.body["active"], false);
    // An inactive link cannot be e-mailed.
    let mail = s
        .post(
            &format!("/offers/{id}/send_email"),
            json!({"subject": "Offer", "text": "Sign: {approval_url}"}),
        )
        .await;
    assert_eq!(mail.status, 422, "{}", mail.body);
    assert_eq!(
        mail.body["errors"]["text"][0],
        "Online approval is not activated for this offer."
    );
    assert_eq!(
        s.post("/offers/999999/customer_approval/activate", json!({}))
            .await
            .status,
        404
    );
}

#[tokio::test]
async fn the_customer_sees_the_offer_and_nothing_internal() {
    let s = start().await;
    let id = offer(&s, json!({})).await;
    let token = token_of(activate(&s, id).await["approval_url"].as_str().unwrap());
    let r = public(
        &s,
        reqwest::Method::GET,
        &format!("/customer_approvals/{token}"),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let v = &r.body;
    assert_eq!(v["title"], "Website relaunch");
    assert_eq!(v["state"], "open");
    assert_eq!(v["language"], "en");
    assert!(v["identifier"].as_str().unwrap().starts_with('A'));
    assert_eq!(common::num(&v["net_total"]), "1000.00");
    let items = v["items"].as_array().unwrap();
    assert_eq!(items.len(), 3);
    assert_eq!(
        items
            .iter()
            .map(|i| i["optional"].as_bool().unwrap())
            .collect::<Vec<_>>(),
        [false, true, true]
    );
    assert!(v["signing_refusal"].is_null());
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "account",
            "currency",
            "customer_full_name",
            "date",
            "discount",
            "document_url",
            "due_date",
            "footer",
            "gross_total",
            "identifier",
            "intra_eu",
            "items",
            "language",
            "net_total",
            "optional_item_ids",
            "print_detail_columns",
            "recipient_address",
            "reverse_charge",
            "salutation",
            "signed_at",
            "signing_refusal",
            "signing_refusal_code",
            "state",
            "tax",
            "tax_breakdown",
            "title"
        ]
    );
    let text = v.to_string();
    for internal in [
        "internal-tag-xyz",
        "internal-margin-42",
        "Secret project Lima",
        "custom_properties",
        "tags",
        "\"user\"",
        "\"deal\"",
        "\"project\"",
    ] {
        assert!(!text.contains(internal), "{internal} leaked: {text}");
    }
    // The PDF is the offer's.
    let pdf = s
        .client
        .get(s.url(&format!("/customer_approvals/{token}/document.pdf")))
        .send()
        .await
        .unwrap();
    assert_eq!(pdf.status(), 200);
    assert_eq!(pdf.headers()["content-type"], "application/pdf");
    let bytes = pdf.bytes().await.unwrap();
    assert!(bytes.starts_with(b"%PDF"));
    assert!(common::pdftotext(&bytes).contains("Website relaunch"));
    // Unknown and malformed tokens are the same 404.
    for bad in ["0".repeat(64), "short".into(), "../../offers".into()] {
        let r = public(
            &s,
            reqwest::Method::GET,
            &format!("/customer_approvals/{bad}"),
            None,
        )
        .await;
        assert_eq!(r.status, 404, "{bad}: {}", r.body);
    }
}

#[tokio::test]
async fn signing_refuses_each_bad_field_and_stores_nothing() {
    let s = start().await;
    let id = offer(&s, json!({})).await;
    let token = token_of(activate(&s, id).await["approval_url"].as_str().unwrap());
    let items = s.get(&format!("/offers/{id}")).await.body["items"].clone();
    let counted = items[0]["id"].as_i64().unwrap();
    let sign = format!("/customer_approvals/{token}/sign");
    let good = json!({
        "customer_full_name": "Erika Mustermann", "customer_email": "erika@example.com",
        "accepted_terms": true, "signature": signature()
    });
    for (field, change) in [
        ("customer_full_name", json!({"customer_full_name": "  "})),
        ("customer_email", json!({"customer_email": "no-address"})),
        ("accepted_terms", json!({"accepted_terms": false})),
        (
            "signature",
            json!({"signature": "data:image/png;base64,/9j/4AAQSkZJRg=="}),
        ),
        (
            "signature",
            json!({"signature": "data:image/jpeg;base64,AAAA"}),
        ),
        ("optional_item_ids", json!({"optional_item_ids": [counted]})),
    ] {
        let mut body = good.clone();
        common::merge(&mut body, change);
        let r = public(&s, reqwest::Method::POST, &sign, Some(body)).await;
        assert_eq!(r.status, 422, "{field}: {}", r.body);
        assert!(r.body["errors"][field].is_array(), "{field}: {}", r.body);
    }
    let r = public(&s, reqwest::Method::POST, &sign, Some(json!({}))).await;
    assert_eq!(r.status, 422);
    let view = public(
        &s,
        reqwest::Method::GET,
        &format!("/customer_approvals/{token}"),
        None,
    )
    .await;
    assert_eq!(view.body["state"], "open");
    let offer_json = s.get(&format!("/offers/{id}")).await.body;
    assert_eq!(offer_json["status"], "created");
    assert_eq!(common::num(&offer_json["net_total"]), "1000.00");
    let events = s.get(&format!("/offers/{id}/events")).await.body;
    assert!(!events.to_string().contains("accepted_online"));
}

#[tokio::test]
async fn signing_accepts_the_offer_with_the_chosen_option_once() {
    let s = start().await;
    let id = offer(&s, json!({})).await;
    let token = token_of(activate(&s, id).await["approval_url"].as_str().unwrap());
    let items = s.get(&format!("/offers/{id}")).await.body["items"].clone();
    let animations = items[1]["id"].as_i64().unwrap();
    let png = signature();
    let r = public(
        &s,
        reqwest::Method::POST,
        &format!("/customer_approvals/{token}/sign"),
        Some(json!({
            "customer_full_name": " Erika Mustermann ", "customer_email": "erika@example.com",
            "accepted_terms": true, "signature": png, "optional_item_ids": [animations]
        })),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["state"], "signed");
    assert_eq!(r.body["customer_full_name"], "Erika Mustermann");
    assert_eq!(r.body["optional_item_ids"], json!([animations]));
    assert_eq!(r.body["signing_refusal_code"], "offer_already_signed");

    // Staff see the offer accepted, the chosen option counted, the other still optional.
    let o = s.get(&format!("/offers/{id}")).await.body;
    assert_eq!(o["status"], "accepted");
    assert_eq!(common::num(&o["net_total"]), "1500.00");
    assert_eq!(common::num(&o["gross_total"]), "1785.00");
    let optional: Vec<bool> = o["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["optional"].as_bool().unwrap())
        .collect();
    assert_eq!(optional, [false, false, true]);
    let detail = s.get(&format!("/offers/{id}/customer_approval")).await.body;
    assert_eq!(detail["customer_full_name"], "Erika Mustermann");
    assert_eq!(detail["customer_email"], "erika@example.com");
    assert!(detail["signed_at"].as_str().unwrap().ends_with('Z'));
    // The signature link serves the very drawing, without a key.
    let link = detail["signature_url"].as_str().unwrap();
    let drawn = reqwest::get(link).await.unwrap();
    assert_eq!(drawn.status(), 200);
    let expected = base64::engine::general_purpose::STANDARD
        .decode(png.trim_start_matches("data:image/png;base64,"))
        .unwrap();
    assert_eq!(drawn.bytes().await.unwrap().to_vec(), expected);
    // The timeline says who accepted online.
    let events = s.get(&format!("/offers/{id}/events")).await.body;
    let accepted: Vec<&Value> = events
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "accepted_online")
        .collect();
    assert_eq!(accepted.len(), 1, "{events}");
    assert_eq!(
        accepted[0]["data"]["customer_full_name"],
        "Erika Mustermann"
    );
    assert_eq!(
        accepted[0]["data"]["optional_item_ids"],
        json!([animations])
    );

    // The customer's document is now the signed one: the offer and its approval page.
    let pdf = s
        .client
        .get(s.url(&format!("/customer_approvals/{token}/document.pdf")))
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    let text = common::pdftotext(&pdf);
    for expected in [
        "Online approval",
        "Erika Mustermann accepted offer",
        "erika@example.com",
        "UTC",
        "Extra animations",
        "Signature",
    ] {
        assert!(text.contains(expected), "{expected} missing: {text}");
    }
    // Both e-mails arrive (the outbox, without SMTP): the office's and the signer's with
    // the signed PDF.
    let mails = s.outbox(2).await;
    let to_signer = mails
        .iter()
        .find(|m| m.contains("To: erika@example.com"))
        .unwrap_or_else(|| panic!("no mail to the signer: {mails:?}"));
    assert!(
        to_signer.contains("Subject: Your acceptance of offer"),
        "{to_signer}"
    );
    assert!(
        to_signer.contains("application/pdf") && to_signer.contains("-signed.pdf"),
        "{to_signer}"
    );
    let to_office = mails
        .iter()
        .find(|m| m.contains("accepted online by Erika Mustermann"))
        .unwrap_or_else(|| panic!("no mail to the office: {mails:?}"));
    assert!(!to_office.contains("To: erika@example.com"), "{to_office}");

    // Signing twice is a conflict; declining after signing too.
    let again = public(
        &s,
        reqwest::Method::POST,
        &format!("/customer_approvals/{token}/sign"),
        Some(json!({"customer_full_name": "X", "customer_email": "x@example.com", "accepted_terms": true})),
    )
    .await;
    assert_eq!(again.status, 409, "{}", again.body);
    let decline = public(
        &s,
        reqwest::Method::POST,
        &format!("/customer_approvals/{token}/decline"),
        Some(json!({"customer_full_name": "X"})),
    )
    .await;
    assert_eq!(decline.status, 409, "{}", decline.body);
}

#[tokio::test]
async fn billed_archived_or_expired_offers_cannot_be_signed() {
    let s = start().await;
    let body = json!({"customer_full_name": "Erika", "customer_email": "erika@example.com", "accepted_terms": true});
    let archived = offer(&s, json!({})).await;
    let token = token_of(
        activate(&s, archived).await["approval_url"]
            .as_str()
            .unwrap(),
    );
    let moved = s
        .put(
            &format!("/offers/{archived}/update_status"),
            json!({"status": "archived"}),
        )
        .await;
    assert_eq!(moved.status, 200, "{}", moved.body);
    let r = public(
        &s,
        reqwest::Method::POST,
        &format!("/customer_approvals/{token}/sign"),
        Some(body.clone()),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(
        r.body["message"],
        "This offer has been archived; it can no longer be signed."
    );
    let view = public(
        &s,
        reqwest::Method::GET,
        &format!("/customer_approvals/{token}"),
        None,
    )
    .await;
    assert_eq!(view.body["signing_refusal_code"], "offer_archived");

    let expired = offer(&s, json!({"date": "2026-01-05", "due_date": "2026-02-05"})).await;
    let token = token_of(
        activate(&s, expired).await["approval_url"]
            .as_str()
            .unwrap(),
    );
    let r = common::requests::send(
        s.client
            .post(s.url(&format!("/customer_approvals/{token}/sign")))
            .header("Accept-Language", "de")
            .json(&body),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(
        r.body["message"],
        "Dieses Angebot ist abgelaufen; bitte fragen Sie ein neues an."
    );
    assert_eq!(
        s.get(&format!("/offers/{expired}")).await.body["status"],
        "created"
    );
}

#[tokio::test]
async fn declining_keeps_the_offer_and_tells_the_timeline() {
    let s = start().await;
    let id = offer(&s, json!({})).await;
    let token = token_of(activate(&s, id).await["approval_url"].as_str().unwrap());
    let path = format!("/customer_approvals/{token}/decline");
    let r = public(
        &s,
        reqwest::Method::POST,
        &path,
        Some(json!({"reason": "Too expensive"})),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["errors"]["customer_full_name"].is_array());
    let r = public(
        &s,
        reqwest::Method::POST,
        &path,
        Some(json!({"customer_full_name": "Erika", "reason": " Too expensive "})),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["state"], "declined");
    assert_eq!(
        s.get(&format!("/offers/{id}")).await.body["status"],
        "created"
    );
    let detail = s.get(&format!("/offers/{id}/customer_approval")).await.body;
    assert_eq!(detail["decline_reason"], "Too expensive");
    let events = s.get(&format!("/offers/{id}/events")).await.body;
    let declined: Vec<&Value> = events
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "declined_online")
        .collect();
    assert_eq!(declined.len(), 1, "{events}");
    assert_eq!(declined[0]["data"]["reason"], "Too expensive");
    // The office is told, with the reason.
    let mails = s.outbox(1).await;
    assert!(
        mails[0].contains("declined online by Erika") && mails[0].contains("Too expensive"),
        "{mails:?}"
    );
    let again = public(
        &s,
        reqwest::Method::POST,
        &path,
        Some(json!({"customer_full_name": "Erika"})),
    )
    .await;
    assert_eq!(again.status, 409, "{}", again.body);
}

#[tokio::test]
async fn public_requests_are_rate_limited_per_address() {
    // A per-key allowance of 10 gives the public routes 1 request per window.
    let s = start_with(|c| c.rate_limit = 10).await;
    let id = offer(&s, json!({})).await;
    let token = token_of(activate(&s, id).await["approval_url"].as_str().unwrap());
    let path = format!("/customer_approvals/{token}");
    let first = public(&s, reqwest::Method::GET, &path, None).await;
    assert_eq!(first.status, 200, "{}", first.body);
    let second = public(&s, reqwest::Method::GET, &path, None).await;
    assert_eq!(second.status, 429, "{}", second.body);
    assert!(second.header("retry-after").parse::<u64>().unwrap() >= 1);
    // Unknown tokens count too: guessing is slowed down the same way.
    let guess = public(
        &s,
        reqwest::Method::GET,
        &format!("/customer_approvals/{}", "1".repeat(64)),
        None,
    )
    .await;
    assert_eq!(guess.status, 429);
}

#[tokio::test]
async fn concurrent_signings_accept_the_offer_once() {
    let s = start().await;
    let id = offer(&s, json!({})).await;
    // Activations racing each other keep one link.
    let (a, b) = tokio::join!(activate(&s, id), activate(&s, id));
    assert_eq!(a["approval_url"], b["approval_url"]);
    let token = token_of(a["approval_url"].as_str().unwrap());
    let path = format!("/customer_approvals/{token}/sign");
    let body = |name: &str| {
        Some(
            json!({"customer_full_name": name, "customer_email": "x@example.com", "accepted_terms": true}),
        )
    };
    let (r1, r2, r3, r4) = tokio::join!(
        public(&s, reqwest::Method::POST, &path, body("Anna")),
        public(&s, reqwest::Method::POST, &path, body("Bert")),
        public(&s, reqwest::Method::POST, &path, body("Cleo")),
        public(&s, reqwest::Method::POST, &path, body("Dora")),
    );
    let replies = [r1, r2, r3, r4];
    let mut statuses: Vec<u16> = replies.iter().map(|r| r.status.as_u16()).collect();
    statuses.sort_unstable();
    let bodies: Vec<String> = replies.iter().map(|r| r.body.to_string()).collect();
    assert_eq!(statuses, [200, 409, 409, 409], "{bodies:#?}");
    let events = s.get(&format!("/offers/{id}/events")).await.body;
    let accepted = events
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "accepted_online")
        .count();
    assert_eq!(accepted, 1, "{events}");
}
