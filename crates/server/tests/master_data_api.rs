//! Master data over real HTTP (issue 9 contract § Company, § Person, § Project, § Deal):
//! companies created, updated in part, archived, restored and deleted (or refused), each
//! bad field a 422 naming it with nothing stored, the list filters and paging headers,
//! one billing contact per company and the default recipients using it, project and deal
//! updates, and read-only keys refused.

mod common;

use common::{start, TestServer};
use serde_json::{json, Value};

/// A German customer with every new field set.
fn full_company() -> Value {
    json!({
        "name": "Hafen GmbH", "type": "customer", "address": "Kai 1\n20457 Hamburg",
        "country_code": "DE", "email": "ap@hafen.example", "billing_email_cc": "boss@hafen.example",
        "phone": "+49 40 123", "website": "https://hafen.example", "vat_identifier": "de 136 308 783",
        "tax_number": "27/123/45678", "iban": "DE89 3704 0044 0532 0130 00", "bic": "cobadeffxxx",
        "currency": "EUR", "default_invoice_due_days": 21, "default_discount": 2.5,
        "default_cash_discount": 2, "default_cash_discount_days": 10, "language": "en",
        "tags": ["key account"], "info": "Pays on time", "custom_properties": {"Kst": "4711"},
        "customer_vat": {"tax": 19, "reverse_charge": false, "intra_eu": false}
    })
}

async fn count(s: &TestServer, path: &str) -> usize {
    let r = s.get(path).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body.as_array().unwrap().len()
}

#[tokio::test]
async fn a_company_is_created_updated_in_part_archived_and_restored() {
    let s = start().await;
    let r = s.post("/companies", full_company()).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let c = r.body;
    let id = c["id"].as_i64().unwrap();
    assert_eq!(c["active"], true);
    assert_eq!(c["country_code"], "DE");
    assert_eq!(c["vat_identifier"], "DE136308783");
    assert_eq!(c["iban"], "DE89370400440532013000");
    assert_eq!(c["bic"], "COBADEFFXXX");
    assert_eq!(c["default_invoice_due_days"], 21);
    assert_eq!(c["payment_term_days"], 21);
    assert_eq!(c["default_discount"].to_string(), "2.5");
    assert_eq!(c["default_cash_discount_days"], 10);
    assert_eq!(c["language"], "en");
    assert_eq!(c["custom_properties"]["Kst"], "4711");
    assert_eq!(c["billing_contact"], Value::Null);
    assert_eq!(
        count(&s, "/companies?custom_properties%5BKst%5D=4711").await,
        1
    );
    assert_eq!(
        count(&s, "/companies?custom_properties%5BKst%5D=1").await,
        0
    );

    // Partial: only the named fields change; null clears a nullable field and leaves a
    // field that cannot be empty; payment_term_days alone still sets the term.
    let r = s
        .put(
            &format!("/companies/{id}"),
            json!({"phone": "+49 40 999", "website": null, "name": null, "payment_term_days": 30}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["phone"], "+49 40 999");
    assert_eq!(r.body["website"], Value::Null);
    assert_eq!(r.body["name"], "Hafen GmbH");
    assert_eq!(r.body["default_invoice_due_days"], 30);
    assert_eq!(r.body["vat_identifier"], "DE136308783");
    assert_eq!(r.body["language"], "en");
    assert_eq!(r.body["tags"], json!(["key account"]));

    let r = s
        .put(&format!("/companies/{id}"), json!({"active": false}))
        .await;
    assert_eq!(r.body["active"], false);
    assert_eq!(count(&s, "/companies?active=true").await, 0);
    assert_eq!(count(&s, "/companies?active=false").await, 1);
    assert_eq!(count(&s, "/companies").await, 1);
    let r = s
        .put(&format!("/companies/{id}"), json!({"active": true}))
        .await;
    assert_eq!(r.body["active"], true);
    assert_eq!(count(&s, "/companies?active=true").await, 1);

    assert_eq!(
        s.put("/companies/999", json!({"phone": "1"})).await.status,
        404
    );
}

#[tokio::test]
async fn each_bad_field_is_named_and_nothing_is_stored() {
    let s = start().await;
    for (field, value) in [
        ("vat_identifier", json!("DE136308784")),
        ("vat_identifier", json!("XY123")),
        ("iban", json!("DE89 3704 0044 0532 0130 01")),
        ("bic", json!("COBA1")),
        ("country_code", json!("XX")),
        ("email", json!("not-an-address")),
        ("billing_email_cc", json!("ok@x.example; nope")),
        ("website", json!("ftp://x.example")),
        ("default_discount", json!(101)),
        ("default_discount", json!("5")),
        ("default_invoice_due_days", json!(400)),
        ("language", json!("fr")),
    ] {
        let mut body = json!({"name": "Bad GmbH"});
        body[field] = value.clone();
        let r = s.post("/companies", body).await;
        assert_eq!(r.status, 422, "{field} {value}: {}", r.body);
        assert!(
            r.body["errors"][field].is_array(),
            "{field} {value}: {}",
            r.body
        );
    }
    assert_eq!(count(&s, "/companies").await, 0);

    let id = s.create("/companies", full_company()).await;
    for (field, value) in [
        ("vat_identifier", json!("ATU13585628")),
        ("iban", json!("DE00")),
        ("bic", json!("COBADEFF1")),
        ("country_code", json!("de1")),
        ("email", json!("x@")),
        ("name", json!(" ")),
    ] {
        let mut body = json!({"phone": "changed"});
        body[field] = value.clone();
        let r = s.put(&format!("/companies/{id}"), body).await;
        assert_eq!(r.status, 422, "{field} {value}: {}", r.body);
        let keys: Vec<&String> = r.body["errors"].as_object().unwrap().keys().collect();
        assert_eq!(keys, [field], "{}", r.body);
    }
    let stored = s.get(&format!("/companies/{id}")).await.body;
    assert_eq!(stored["phone"], "+49 40 123");
    assert_eq!(stored["vat_identifier"], "DE136308783");
    assert_eq!(stored["name"], "Hafen GmbH");
}

#[tokio::test]
async fn delete_is_refused_while_records_reference_the_company() {
    let s = start().await;
    let c = s.customer("Busy AG").await;
    let inv = s.invoice(c, json!({})).await;
    assert_eq!(inv.status, 200, "{}", inv.body);
    let p = s
        .post("/projects", json!({"name": "Relaunch", "customer_id": c}))
        .await;
    assert_eq!(p.status, 200);
    let r = s.delete(&format!("/companies/{c}"), None).await;
    assert_eq!(r.status, 422, "{}", r.body);
    let message = r.body["message"].as_str().unwrap();
    assert!(
        message.contains("1 invoice")
            && message.contains("1 project")
            && message.contains("archive"),
        "{message}"
    );
    // Issue 30: a state rule's refusal comes in the caller's language, by its code.
    let de = common::requests::send(
        s.keyed(reqwest::Method::DELETE, &format!("/companies/{c}"))
            .header("Accept-Language", "de-DE,de;q=0.9"),
    )
    .await;
    assert_eq!(de.status, 422, "{}", de.body);
    assert_eq!(
        de.body["message"],
        "Busy AG hat 1 Rechnung, 1 Projekt; archivieren Sie die Firma stattdessen"
    );
    assert_eq!(s.get(&format!("/companies/{c}")).await.status, 200);

    // Only contact people: the company goes, and its people with it.
    let free = s.customer("Free KG").await;
    let person = s
        .post(
            "/contacts/people",
            json!({"firstname": "Anna", "lastname": "Berg", "company_id": free}),
        )
        .await;
    assert_eq!(person.status, 200, "{}", person.body);
    let pid = person.body["id"].as_i64().unwrap();
    let r = s.delete(&format!("/companies/{free}"), None).await;
    assert_eq!(r.status, 204, "{}", r.body);
    assert_eq!(s.get(&format!("/companies/{free}")).await.status, 404);
    assert_eq!(s.get(&format!("/contacts/people/{pid}")).await.status, 404);
    assert_eq!(
        s.delete(&format!("/companies/{free}"), None).await.status,
        404
    );
}

#[tokio::test]
async fn lists_filter_by_type_term_tags_and_active_with_paging() {
    let s = start().await;
    for (name, kind, tags, email) in [
        (
            "Alpha GmbH",
            "customer",
            json!(["key account", "north"]),
            "a@alpha.example",
        ),
        ("Beta AG", "customer", json!(["north"]), "info@beta.example"),
        ("Gamma KG", "supplier", json!([]), "gamma@paper.example"),
        (
            "Delta Org",
            "organization",
            json!(["key account"]),
            "d@delta.example",
        ),
    ] {
        let r = s
            .post(
                "/companies",
                json!({"name": name, "type": kind, "tags": tags, "email": email}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let names = |r: &common::Reply| -> Vec<String> {
        r.body
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap().to_string())
            .collect()
    };
    let r = s
        .get("/companies?type=customer,supplier&sort_by=name%20desc")
        .await;
    assert_eq!(names(&r), ["Gamma KG", "Beta AG", "Alpha GmbH"]);
    // term searches name, e-mail and tags, case-insensitively.
    assert_eq!(names(&s.get("/companies?term=PAPER").await), ["Gamma KG"]);
    assert_eq!(
        names(&s.get("/companies?term=key%20acc").await),
        ["Alpha GmbH", "Delta Org"]
    );
    assert_eq!(
        names(&s.get("/companies?tags=key%20account,north").await),
        ["Alpha GmbH"]
    );
    assert_eq!(
        names(&s.get("/companies?tags=north").await),
        ["Alpha GmbH", "Beta AG"]
    );
    let r = s.get("/companies?per_page=2&page=2&sort_by=name").await;
    assert_eq!(names(&r), ["Delta Org", "Gamma KG"]);
    assert_eq!(r.header("x-total"), "4");
    assert_eq!(r.header("x-page"), "2");
    assert_eq!(r.header("x-per-page"), "2");
    assert!(
        r.header("link").contains("rel=\"prev\""),
        "{}",
        r.header("link")
    );
    assert_eq!(s.get("/companies?active=maybe").await.status, 400);
    assert_eq!(s.get("/companies?sort_by=iban").await.status, 400);
}

#[tokio::test]
async fn one_billing_contact_per_company_and_invoices_go_to_it() {
    let s = start().await;
    let c = s.create("/companies",
            json!({"name": "Mail AG", "address": "Weg 1", "email": "ap@mail-ag.example", "billing_email_cc": "boss@mail-ag.example"}),).await;
    let person = |first: &str, mail: &str, billing: bool| {
        json!({"firstname": first, "lastname": "Muster", "email": mail, "company_id": c,
               "billing_contact": billing, "gender": "F", "salutation": "Dr.", "job_position": "CFO", "phone": "040 1"})
    };
    let a = s
        .post(
            "/contacts/people",
            person("Anna", "anna@mail-ag.example", true),
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.body["billing_contact"], true);
    assert_eq!(a.body["gender"], "F");
    assert_eq!(a.body["salutation"], "Dr.");
    assert_eq!(a.body["job_position"], "CFO");
    let a_id = a.body["id"].as_i64().unwrap();
    let b = s
        .post(
            "/contacts/people",
            person("Bernd", "bernd@mail-ag.example", false),
        )
        .await;
    let b_id = b.body["id"].as_i64().unwrap();
    assert_eq!(
        s.get(&format!("/companies/{c}")).await.body["billing_contact"]["id"],
        a_id
    );

    // Marking Bernd clears Anna.
    let r = s
        .put(
            &format!("/contacts/people/{b_id}"),
            json!({"billing_contact": true}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        s.get(&format!("/contacts/people/{a_id}")).await.body["billing_contact"],
        false
    );
    let company = s.get(&format!("/companies/{c}")).await.body;
    assert_eq!(company["billing_contact"]["id"], b_id);
    assert_eq!(company["billing_contact"]["name"], "Bernd Muster");
    let flagged = s
        .get(&format!("/contacts/people?company_id={c}"))
        .await
        .body;
    let marks: Vec<bool> = flagged
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["billing_contact"].as_bool().unwrap())
        .collect();
    assert_eq!(marks.iter().filter(|m| **m).count(), 1);

    // The default recipients: the billing contact, with the company's billing CC.
    let id = s.invoice(c, json!({})).await.body["id"].as_i64().unwrap();
    let r = s
        .post(
            &format!("/invoices/{id}/send_email"),
            json!({"subject": "Invoice", "text": "Attached."}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["emails_to"], "bernd@mail-ag.example");
    assert_eq!(r.body["emails_cc"], "boss@mail-ag.example");

    // Bad fields name themselves and store nothing; a person without company cannot be
    // the billing contact.
    let r = s
        .put(
            &format!("/contacts/people/{b_id}"),
            json!({"email": "bernd@", "gender": "X"}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["errors"]["gender"].is_array(), "{}", r.body);
    let r = s
        .put(
            &format!("/contacts/people/{b_id}"),
            json!({"email": "bernd@"}),
        )
        .await;
    assert!(r.body["errors"]["email"].is_array(), "{}", r.body);
    let r = s
        .post(
            "/contacts/people",
            json!({"firstname": "Solo", "lastname": "X", "billing_contact": true}),
        )
        .await;
    assert!(r.body["errors"]["billing_contact"].is_array(), "{}", r.body);

    // Deleting the billing contact leaves the company without one.
    assert_eq!(
        s.delete(&format!("/contacts/people/{b_id}"), None)
            .await
            .status,
        204
    );
    assert_eq!(
        s.get(&format!("/companies/{c}")).await.body["billing_contact"],
        Value::Null
    );
    let r = s
        .post(
            &format!("/invoices/{id}/send_email"),
            json!({"subject": "Invoice", "text": "Attached."}),
        )
        .await;
    assert_eq!(r.body["emails_to"], "ap@mail-ag.example");
}

#[tokio::test]
async fn projects_and_deals_are_updated_and_filtered() {
    let s = start().await;
    let c = s.customer("Proj GmbH").await;
    let other = s.customer("Other GmbH").await;
    let p = s
        .post("/projects", json!({"name": "Relaunch", "customer_id": c}))
        .await;
    assert_eq!(p.body["active"], true);
    let pid = p.body["id"].as_i64().unwrap();
    let r = s
        .put(
            &format!("/projects/{pid}"),
            json!({"name": "Relaunch 2", "billing_email_to": "pm@proj.example", "billing_address": "Postfach 1"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["name"], "Relaunch 2");
    assert_eq!(r.body["billing_email_to"], "pm@proj.example");
    assert_eq!(r.body["customer"]["id"], c);
    let r = s
        .put(&format!("/projects/{pid}"), json!({"active": false}))
        .await;
    assert_eq!(r.body["active"], false);
    assert_eq!(r.body["name"], "Relaunch 2");
    assert_eq!(
        count(&s, &format!("/projects?customer_id={c}&active=false")).await,
        1
    );
    assert_eq!(
        count(&s, &format!("/projects?customer_id={c}&active=true")).await,
        0
    );
    for (body, field) in [
        (json!({"customer_id": 999}), "customer_id"),
        (json!({"billing_email_cc": "nope"}), "billing_email_cc"),
        (json!({"currency": "XXX"}), "currency"),
        (json!({"name": ""}), "name"),
    ] {
        let r = s.put(&format!("/projects/{pid}"), body).await;
        assert_eq!(r.status, 422, "{}", r.body);
        assert!(r.body["errors"][field].is_array(), "{}", r.body);
    }
    assert_eq!(
        s.get(&format!("/projects/{pid}")).await.body["billing_email_cc"],
        Value::Null
    );

    let d = s
        .post("/deals", json!({"name": "Shop 2027", "company_id": c}))
        .await;
    assert_eq!(d.status, 200, "{}", d.body);
    assert_eq!(d.body["status"], "open");
    let did = d.body["id"].as_i64().unwrap();
    s.post("/deals", json!({"name": "Other", "company_id": other}))
        .await;
    let r = s
        .put(&format!("/deals/{did}"), json!({"status": "won"}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["status"], "won");
    assert_eq!(r.body["name"], "Shop 2027");
    let r = s
        .put(&format!("/deals/{did}"), json!({"status": "pending"}))
        .await;
    assert_eq!(r.status, 422);
    assert!(r.body["errors"]["status"].is_array());
    assert_eq!(s.get(&format!("/deals/{did}")).await.body["status"], "won");
    let list = s.get(&format!("/deals?company_id={c}")).await.body;
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(
        s.put("/deals/999", json!({"status": "lost"})).await.status,
        404
    );
}

#[tokio::test]
async fn the_documents_of_a_company_are_listed_by_company_id() {
    let s = start().await;
    let a = s.customer("Docs A").await;
    let b = s.customer("Docs B").await;
    assert_eq!(s.invoice(a, json!({})).await.status, 200);
    assert_eq!(s.invoice(b, json!({})).await.status, 200);
    assert_eq!(s.invoice(b, json!({})).await.status, 200);
    let offer = |company: i64| {
        json!({"company_id": company, "recipient_address": "Docs\nWeg 1", "date": "2026-11-05",
               "due_date": "2026-12-05", "title": "Offer", "tax": 19,
               "items": [{"type": "item", "title": "Design", "quantity": 1, "unit": "h", "unit_price": 100}]})
    };
    assert_eq!(s.post("/offers", offer(a)).await.status, 200);
    let supplier = s
        .create(
            "/companies",
            json!({"name": "Papier KG", "type": "supplier"}),
        )
        .await;
    let purchase = s
        .post(
            "/purchases",
            json!({"company_id": supplier, "date": "2026-11-10", "currency": "EUR", "payment_method": "bank_transfer",
                   "items": [{"title": "Paper", "total": 119, "tax": 19, "tax_included": true}]}),
        )
        .await;
    assert_eq!(purchase.status, 200, "{}", purchase.body);
    assert_eq!(count(&s, &format!("/invoices?company_id={a}")).await, 1);
    assert_eq!(count(&s, &format!("/invoices?customer_id={b}")).await, 2);
    assert_eq!(count(&s, &format!("/offers?company_id={a}")).await, 1);
    assert_eq!(count(&s, &format!("/offers?company_id={b}")).await, 0);
    assert_eq!(
        count(&s, &format!("/purchases?company_id={supplier}")).await,
        1
    );
    assert_eq!(count(&s, &format!("/purchases?company_id={a}")).await, 0);
    let r = s.delete(&format!("/companies/{supplier}"), None).await;
    assert_eq!(r.status, 422);
    assert!(
        r.body["message"].as_str().unwrap().contains("1 purchase"),
        "{}",
        r.body
    );
}

#[tokio::test]
async fn a_person_named_on_an_offer_cannot_be_deleted() {
    let s = start().await;
    let c = s.customer("Offer GmbH").await;
    let other = s.customer("Contact Home KG").await;
    let person = s
        .create(
            "/contacts/people",
            json!({"firstname": "Eva", "lastname": "Lang", "company_id": other}),
        )
        .await;
    let r = s
        .post(
            "/offers",
            json!({"company_id": c, "contact_id": person, "recipient_address": "Offer GmbH", "date": "2026-11-05",
                   "due_date": "2026-12-05", "title": "Offer", "tax": 19,
                   "items": [{"type": "item", "title": "Design", "quantity": 1, "unit": "h", "unit_price": 100}]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s.delete(&format!("/contacts/people/{person}"), None).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body["message"].as_str().unwrap().contains("1 offer"),
        "{}",
        r.body
    );
    // Its company is refused too: an offer names one of its people.
    let r = s.delete(&format!("/companies/{other}"), None).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(
        s.get(&format!("/contacts/people/{person}")).await.status,
        200
    );
}

#[tokio::test]
async fn a_read_only_key_cannot_change_master_data() {
    let s = start().await;
    let c = s.customer("Ro GmbH").await;
    let person = s
        .create(
            "/contacts/people",
            json!({"firstname": "A", "lastname": "B", "company_id": c}),
        )
        .await;
    let project = s
        .create("/projects", json!({"name": "P", "customer_id": c}))
        .await;
    let deal = s
        .create("/deals", json!({"name": "D", "company_id": c}))
        .await;
    let ro = s.read_only_key().await;
    use reqwest::Method;
    for (method, path, body) in [
        (
            Method::PUT,
            format!("/companies/{c}"),
            Some(json!({"active": false})),
        ),
        (Method::DELETE, format!("/companies/{c}"), None),
        (
            Method::PUT,
            format!("/contacts/people/{person}"),
            Some(json!({"phone": "1"})),
        ),
        (Method::DELETE, format!("/contacts/people/{person}"), None),
        (
            Method::PUT,
            format!("/projects/{project}"),
            Some(json!({"active": false})),
        ),
        (
            Method::PUT,
            format!("/deals/{deal}"),
            Some(json!({"status": "won"})),
        ),
    ] {
        let status = s.status_as(&ro, method.clone(), &path, body).await;
        assert_eq!(status, 403, "{method} {path}");
    }
    let status = s
        .status_as(&ro, Method::GET, &format!("/companies/{c}"), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(s.get(&format!("/companies/{c}")).await.body["active"], true);
}

#[tokio::test]
async fn concurrent_billing_marks_leave_exactly_one() {
    let s = start().await;
    let c = s.customer("Race GmbH").await;
    let mut ids = Vec::new();
    for n in 0..6 {
        let r = s
            .post(
                "/contacts/people",
                json!({"firstname": format!("P{n}"), "lastname": "Race", "company_id": c}),
            )
            .await;
        ids.push(r.body["id"].as_i64().unwrap());
    }
    let mut puts = tokio::task::JoinSet::new();
    for id in &ids {
        let req = s
            .client
            .put(s.url(&format!("/contacts/people/{id}")))
            .header("Authorization", format!("Token token={}", s.key))
            .header("Content-Type", "application/json")
            .body(json!({"billing_contact": true}).to_string());
        puts.spawn(async move { req.send().await.unwrap().status() });
    }
    while let Some(status) = puts.join_next().await {
        assert_eq!(status.unwrap(), 200);
    }
    let people = s
        .get(&format!("/contacts/people?company_id={c}"))
        .await
        .body;
    let marked: Vec<i64> = people
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["billing_contact"] == true)
        .map(|p| p["id"].as_i64().unwrap())
        .collect();
    assert_eq!(marked.len(), 1, "{people}");
    assert_eq!(
        s.get(&format!("/companies/{c}")).await.body["billing_contact"]["id"],
        marked[0]
    );
}
