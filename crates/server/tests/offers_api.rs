//! Offers over real HTTP: the company/deal/project and currency rules, optional positions,
//! numbering, list filters, status moves, PDF, attachments and e-mail (outbox).

mod common;

use base64::Engine;
use common::{num, start, TestServer};
use serde_json::{json, Value};

fn offer_body(overrides: Value) -> Value {
    let mut body = json!({
        "recipient_address": "ACME GmbH\nMain St 1",
        "date": "2026-11-05",
        "due_date": "2026-12-05",
        "title": "Website relaunch",
        "tax": 19,
        "items": [
            {"type": "item", "title": "Design", "quantity": 10, "unit": "h", "unit_price": 100},
            {"type": "item", "title": "Extra animations", "quantity": 5, "unit": "h", "unit_price": 100, "optional": true},
            {"type": "subtotal"}
        ]
    });
    common::merge(&mut body, overrides);
    body
}

async fn setup(s: &TestServer) -> (i64, i64, i64) {
    let company = s
        .create(
            "/companies",
            json!({"name": "ACME GmbH", "email": "office@acme.example", "currency": "EUR"}),
        )
        .await;
    let project = s
        .create(
            "/projects",
            json!({"name": "Relaunch", "customer_id": company, "currency": "CHF"}),
        )
        .await;
    let deal = s
        .post(
            "/deals",
            json!({"name": "Relaunch 2027", "company_id": company, "currency": "CHF"}),
        )
        .await;
    assert_eq!(deal.status, 200, "{}", deal.body);
    (company, project, deal.body["id"].as_i64().unwrap())
}

#[tokio::test]
async fn creates_offers_with_optional_positions_not_counted() {
    let s = start().await;
    let (company, _, _) = setup(&s).await;
    let r = s
        .post("/offers", offer_body(json!({"company_id": company})))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let o = &r.body;
    assert_eq!(o["identifier"], "A2611-001");
    assert_eq!(o["status"], "created");
    assert_eq!(o["currency"], "EUR", "from the company");
    assert_eq!(num(&o["net_total"]), "1000.00");
    assert_eq!(num(&o["gross_total"]), "1190.00");
    assert_eq!(o["items"][1]["optional"], true);
    assert_eq!(num(&o["items"][1]["net_total"]), "500.00");
    assert_eq!(
        num(&o["items"][2]["net_total"]),
        "1000.00",
        "subtotal leaves optional positions out"
    );
    assert_eq!(o["company"]["name"], "ACME GmbH");
    assert_eq!(o["deal"], Value::Null);
    assert_eq!(o["offer_confirmation"], Value::Null);
    assert_eq!(o["vat"]["active"], true);
    assert_eq!(o["user"]["firstname"], "Admin");
    assert_eq!(o["print_detail_columns"], true);
    let got = s.get(&format!("/offers/{}", o["id"])).await;
    assert_eq!(got.body["items"].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn company_deal_project_and_currency_rules() {
    let s = start().await;
    let (company, project, deal) = setup(&s).await;
    let other = s.customer("Other AG").await;
    let r = s.post("/offers", offer_body(json!({}))).await;
    assert_eq!(r.status, 422);
    assert!(r.body["errors"]["company_id"].is_array());

    let r = s
        .post(
            "/offers",
            offer_body(json!({"project_id": project, "company_id": other})),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.body["company"]["id"], company,
        "the project's company wins"
    );
    assert_eq!(r.body["currency"], "CHF", "the project's currency");

    let r = s
        .post("/offers", offer_body(json!({"deal_id": deal})))
        .await;
    assert_eq!(
        (
            r.body["company"]["id"].as_i64(),
            r.body["currency"].as_str()
        ),
        (Some(company), Some("CHF"))
    );

    let r = s
        .post(
            "/offers",
            offer_body(json!({"project_id": project, "currency": "EUR"})),
        )
        .await;
    assert_eq!(r.status, 422);
    assert!(r.body["errors"]["currency"][0]
        .as_str()
        .unwrap()
        .contains("project"));
    let r = s
        .post(
            "/offers",
            offer_body(
                json!({"deal_id": deal, "currency": "CHF", "company_id": null, "project_id": null}),
            ),
        )
        .await;
    assert_eq!(r.status, 200, "explicit nulls are absent: {}", r.body);
    let r = s
        .post(
            "/offers",
            offer_body(json!({"project_id": 999, "deal_id": 998})),
        )
        .await;
    assert!(r.body["errors"]["project_id"].is_array() && r.body["errors"]["deal_id"].is_array());
    let r = s.post("/offers", offer_body(json!({"company_id": company, "items": [{"type": "item", "title": "x", "quantity": 1}]}))).await;
    assert!(r.body["errors"]["items[0].unit_price"].is_array());
}

#[tokio::test]
async fn list_filters_and_status_moves() {
    let s = start().await;
    let (company, project, deal) = setup(&s).await;
    s.post("/offers", offer_body(json!({"company_id": company, "title": "B first", "date": "2026-11-01", "due_date": "2026-11-30"}))).await;
    let with_project = s
        .create(
            "/offers",
            offer_body(json!({"project_id": project, "title": "A second"})),
        )
        .await;
    s.post("/offers", offer_body(json!({"deal_id": deal, "title": "C third", "date": "2026-11-09", "due_date": "2026-11-30"}))).await;
    let titles = |r: &common::Reply| {
        r.body
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["title"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let all = s.get("/offers").await;
    assert_eq!(titles(&all), ["C third", "A second", "B first"]);
    assert!(all.body[0].get("items").is_none() && all.body[0].get("salutation").is_none());
    assert_eq!(
        titles(&s.get("/offers?sort=title").await),
        ["A second", "B first", "C third"]
    );
    assert_eq!(
        titles(&s.get(&format!("/offers?project_id={project}")).await),
        ["A second"]
    );
    assert_eq!(
        titles(&s.get(&format!("/offers?deal_id={deal},999")).await),
        ["C third"]
    );
    assert_eq!(
        titles(&s.get("/offers?from=2026-11-02&to=2026-11-06").await),
        ["A second"]
    );
    assert_eq!(
        titles(&s.get("/offers?identifier=A2611-001").await),
        ["B first"]
    );
    assert_eq!(s.get("/offers?sort=price").await.status, 400);

    let path = format!("/offers/{with_project}/update_status");
    for status in [
        "sent",
        "accepted",
        "partially_billed",
        "billed",
        "archived",
        "created",
    ] {
        let r = s.put(&path, json!({"status": status})).await;
        assert_eq!(
            (r.status.as_u16(), r.body["status"].as_str()),
            (200, Some(status))
        );
    }
    assert_eq!(s.put(&path, json!({"status": "won"})).await.status, 422);
    assert_eq!(titles(&s.get("/offers?status=created,sent").await).len(), 3);
}

fn pdf_b64(text: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(format!("%PDF-1.4\n% {text}\n%%EOF\n"))
}

#[tokio::test]
async fn attachments_are_pdfs_judged_by_content_and_survive_until_deleted() {
    let s = start().await;
    let (company, _, _) = setup(&s).await;
    let id = s
        .create("/offers", offer_body(json!({"company_id": company})))
        .await;
    let path = format!("/offers/{id}/attachments");
    let r = s
        .post(
            &path,
            json!({"attachment": {"filename": "terms.pdf", "base64": pdf_b64("terms")}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let a = r.body.clone();
    assert_eq!(
        (a["filename"].as_str(), a["content_type"].as_str()),
        (Some("terms.pdf"), Some("application/pdf"))
    );
    assert!(a["byte_size"].as_i64().unwrap() > 10);
    let fetched = reqwest::get(a["file_url"].as_str().unwrap()).await.unwrap();
    assert_eq!(fetched.headers()["content-type"], "application/pdf");
    assert!(fetched.bytes().await.unwrap().starts_with(b"%PDF-1.4"));

    let text = base64::engine::general_purpose::STANDARD.encode("just text");
    let r = s
        .post(
            &path,
            json!({"attachment": {"filename": "evil.pdf", "base64": text}}),
        )
        .await;
    assert_eq!(r.status, 422);
    assert!(
        r.body["errors"]["attachment.base64"].is_array(),
        "{}",
        r.body
    );
    let r = s
        .post(
            &path,
            json!({"attachment": {"filename": "x.pdf", "base64": "!!notbase64"}}),
        )
        .await;
    assert!(r.body["errors"]["attachment.base64"].is_array());
    let r = s
        .post(&path, json!({"attachment": {"base64": pdf_b64("x")}}))
        .await;
    assert!(r.body["errors"]["attachment.filename"].is_array());
    let big = base64::engine::general_purpose::STANDARD
        .encode([&b"%PDF-"[..], &vec![b'x'; 10 * 1024 * 1024]].concat());
    let r = s
        .post(
            &path,
            json!({"attachment": {"filename": "big.pdf", "base64": big}}),
        )
        .await;
    assert_eq!(r.status, 422, "over 10 MiB decoded");
    assert!(r.body["errors"]["attachment.base64"][0]
        .as_str()
        .unwrap()
        .contains("MiB"));

    let list = s.get(&path).await;
    assert_eq!(list.body.as_array().unwrap().len(), 1);
    let dir = s.data_path().join("files/offer_attachments");
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "refused uploads left nothing behind"
    );
    assert_eq!(
        s.delete(&format!("{path}/{}", a["id"]), None).await.status,
        204
    );
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "the stored file is removed"
    );
    assert_eq!(s.get(&path).await.body.as_array().unwrap().len(), 0);
    assert_eq!(
        s.delete(&format!("{path}/{}", a["id"]), None).await.status,
        404
    );
}

#[tokio::test]
async fn pdf_marks_optional_positions_and_can_hide_detail_columns() {
    let s = start().await;
    let (company, _, _) = setup(&s).await;
    let id = s
        .create(
            "/offers",
            offer_body(json!({"company_id": company, "print_detail_columns": false})),
        )
        .await;
    let r = s
        .client
        .get(s.url(&format!("/offers/{id}.pdf")))
        .header("Authorization", format!("Token token={}", s.key))
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["content-type"], "application/pdf");
    let text = common::pdftotext(&r.bytes().await.unwrap());
    assert!(
        text.contains("Angebot A2611-001") && text.contains("Extra animations (optional)"),
        "{text}"
    );
    assert!(
        !text.contains("Einzelpreis"),
        "detail columns hidden:\n{text}"
    );
    assert!(text.contains("1.190,00 EUR"));
    assert_eq!(
        s.get(&format!("/offers/{id}.pdf?letter_paper_id=42"))
            .await
            .status,
        404
    );
}

#[tokio::test]
async fn send_email_attaches_the_offer_and_its_attachments() {
    let s = start().await;
    let (company, _, _) = setup(&s).await;
    let person = s.post("/contacts/people", json!({"firstname": "Eva", "lastname": "Kunde", "email": "eva@acme.example", "company_id": company})).await;
    assert_eq!(person.status, 200, "{}", person.body);
    let id = s
        .create(
            "/offers",
            offer_body(json!({"company_id": company, "contact_id": person.body["id"]})),
        )
        .await;
    s.post(
        &format!("/offers/{id}/attachments"),
        json!({"attachment": {"filename": "terms.pdf", "base64": pdf_b64("terms")}}),
    )
    .await;
    let r = s
        .post(
            &format!("/offers/{id}/send_email"),
            json!({"subject": "Our offer", "text": "Please see attached."}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.body["emails_to"], "eva@acme.example",
        "the contact's e-mail first"
    );
    let outbox = s.data_path().join("outbox");
    let eml = std::fs::read_dir(&outbox)
        .unwrap()
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .find(|m| m.contains("Our offer"))
        .unwrap();
    assert!(
        eml.contains("A2611-001.pdf") && eml.contains("terms.pdf"),
        "both attachments"
    );
    let r = s
        .post(&format!("/offers/{id}/send_email"), json!({"subject": "x"}))
        .await;
    assert!(r.body["errors"]["text"].is_array());
    // Issue 34: e-mailed, the offer is sent — counted as such and no longer deleted as a
    // draft-like offer; the timeline says it was sent.
    let sent = s.get(&format!("/offers/{id}")).await.body;
    assert_eq!(sent["status"], "sent", "{sent}");
    let r = s.delete(&format!("/offers/{id}"), None).await;
    assert_eq!(r.status, 422, "{}", r.body);
    let events = s.get(&format!("/offers/{id}/events")).await.body;
    assert!(
        events
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["kind"] == "sent"),
        "{events}"
    );
    // An accepted offer e-mailed again stays accepted.
    let r = s
        .put(
            &format!("/offers/{id}/update_status"),
            json!({"status": "accepted"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s
        .post(
            &format!("/offers/{id}/send_email"),
            json!({"subject": "Again", "text": "Once more."}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        s.get(&format!("/offers/{id}")).await.body["status"],
        "accepted"
    );
}

#[tokio::test]
async fn stored_attachments_survive_a_restart() {
    let s = start().await;
    let (company, _, _) = setup(&s).await;
    let id = s
        .create("/offers", offer_body(json!({"company_id": company})))
        .await;
    s.post(
        &format!("/offers/{id}/attachments"),
        json!({"attachment": {"filename": "plan.pdf", "base64": pdf_b64("plan")}}),
    )
    .await;

    // A second server process on the same data directory (the first one keeps running).
    let second = s.second(|_| {}, "keys survive too").await;
    let list = second.get(&format!("/offers/{id}/attachments")).await.body;
    assert_eq!(list[0]["filename"], "plan.pdf");
    let file = reqwest::get(list[0]["file_url"].as_str().unwrap())
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    assert!(file.starts_with(b"%PDF-1.4\n% plan"));
}
