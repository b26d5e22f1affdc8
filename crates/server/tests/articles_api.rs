//! Articles and text snippets over real HTTP (issue 33; `docs/decisions.md` § Articles and
//! text snippets (issue 33)): every endpoint, the wire shape, partial updates, the list's
//! `term`, `active`, `kind` and `language` filters with paging headers, unique article
//! numbers regardless of case, each bad field a 422 naming it with nothing stored, 404s,
//! read-only keys refused on writes, the audit trail, and documents left alone when an
//! article goes. Runs on SQLite and, with `scripts/test-postgres.sh`, on PostgreSQL.

mod common;

use common::{list_ids, num, start, Reply, TestServer};
use reqwest::Method;
use serde_json::{json, Value};

/// An article with every field set.
fn full_article() -> Value {
    json!({
        "number": "B-100", "title": "Beratung", "description": "<p>Per <b>hour</b></p>",
        "unit": "h", "unit_price": 95.5, "currency": "EUR", "tax_category": "standard",
        "tax": 19, "active": true
    })
}

/// The titles of a list reply, in its order.
fn titles(r: &Reply) -> Vec<String> {
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["title"].as_str().unwrap().to_string())
        .collect()
}

/// The names of a snippet list reply, in its order.
fn names(r: &Reply) -> Vec<String> {
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect()
}

/// The keys of a 422's `errors`.
fn error_fields(r: &Reply) -> Vec<String> {
    assert_eq!(r.status, 422, "{}", r.body);
    r.body["errors"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect()
}

async fn count(s: &TestServer, path: &str) -> usize {
    let r = s.get(path).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body.as_array().unwrap().len()
}

#[tokio::test]
async fn an_article_is_created_read_updated_in_part_archived_and_deleted() {
    let s = start().await;
    let r = s.post("/articles", full_article()).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let a = r.body;
    let id = a["id"].as_i64().unwrap();
    let mut keys: Vec<&String> = a.as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "active",
            "created_at",
            "currency",
            "description",
            "id",
            "number",
            "tax",
            "tax_category",
            "title",
            "unit",
            "unit_price",
            "updated_at"
        ]
    );
    assert_eq!(a["number"], "B-100");
    assert_eq!(a["title"], "Beratung");
    assert_eq!(a["description"], "<p>Per <b>hour</b></p>");
    assert_eq!(a["unit"], "h");
    assert_eq!(num(&a["unit_price"]), "95.5");
    assert_eq!(a["currency"], "EUR");
    assert_eq!(a["tax_category"], "standard");
    assert_eq!(num(&a["tax"]), "19");
    assert_eq!(a["active"], true);
    assert!(a["created_at"].as_str().unwrap().ends_with('Z'));

    let got = s.get(&format!("/articles/{id}")).await;
    assert_eq!(got.status, 200);
    assert_eq!(got.body, a);

    // Partial: only the named fields change; null clears a nullable field and leaves
    // title, currency and active; a price keeps the places it was sent with.
    let r = s
        .put(
            &format!("/articles/{id}"),
            // Written out: `json!` would send 120.50 as the float 120.5.
            serde_json::from_str(
                r#"{"unit_price": 120.50, "number": null, "title": null, "currency": null,
                    "tax": null, "tax_category": null, "unit": " Std. "}"#,
            )
            .unwrap(),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(num(&r.body["unit_price"]), "120.50");
    assert_eq!(r.body["number"], Value::Null);
    assert_eq!(r.body["title"], "Beratung");
    assert_eq!(r.body["currency"], "EUR");
    assert_eq!(r.body["tax"], Value::Null);
    assert_eq!(r.body["tax_category"], Value::Null);
    assert_eq!(r.body["unit"], "Std.");
    assert_eq!(r.body["description"], "<p>Per <b>hour</b></p>");
    assert_eq!(r.body["created_at"], a["created_at"]);

    // Archive and restore; the list's active filter.
    let r = s
        .put(&format!("/articles/{id}"), json!({"active": false}))
        .await;
    assert_eq!(r.body["active"], false);
    assert_eq!(count(&s, "/articles?active=true").await, 0);
    assert_eq!(count(&s, "/articles?active=false").await, 1);
    assert_eq!(count(&s, "/articles").await, 1);
    let r = s
        .put(&format!("/articles/{id}"), json!({"active": true}))
        .await;
    assert_eq!(r.body["active"], true);

    // Delete, then 404 everywhere.
    let r = s.delete(&format!("/articles/{id}"), None).await;
    assert_eq!(r.status, 204, "{}", r.body);
    assert_eq!(s.get(&format!("/articles/{id}")).await.status, 404);
    let r = s
        .put(&format!("/articles/{id}"), json!({"title": "X"}))
        .await;
    assert_eq!(r.status, 404);
    assert_eq!(s.delete(&format!("/articles/{id}"), None).await.status, 404);
    assert_eq!(s.get("/articles/999999").await.status, 404);
    assert_eq!(count(&s, "/articles").await, 0);
}

#[tokio::test]
async fn an_article_takes_the_accounts_default_currency_and_sanitizes_its_description() {
    let s = start().await;
    let r = s
        .post(
            "/articles",
            json!({"title": "Plain", "description": "<script>x()</script><i>fine</i>"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["currency"], "EUR");
    assert_eq!(r.body["active"], true);
    assert_eq!(r.body["description"], "<i>fine</i>");
    for field in ["number", "unit", "unit_price", "tax", "tax_category"] {
        assert_eq!(r.body[field], Value::Null, "{field}");
    }
    let r = s.put("/account", json!({"default_currency": "CHF"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s.post("/articles", json!({"title": "Franken"})).await;
    assert_eq!(r.body["currency"], "CHF");
    let r = s
        .post("/articles", json!({"title": "Dollar", "currency": "USD"}))
        .await;
    assert_eq!(r.body["currency"], "USD");
}

#[tokio::test]
async fn articles_are_listed_by_term_and_active_with_paging() {
    let s = start().await;
    for (number, title, active) in [
        (Some("B-100"), "Beratung", true),
        (Some("W-7"), "Workshop (Tag)", true),
        (None, "Anfahrt", true),
        (Some("L-1"), "Lizenz ALT", false),
        (Some("XB-1"), "Zubehör", true),
    ] {
        let r = s
            .post(
                "/articles",
                json!({"number": number, "title": title, "active": active}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    // By title, case-insensitive, unless sort_by says otherwise.
    assert_eq!(
        titles(&s.get("/articles").await),
        [
            "Anfahrt",
            "Beratung",
            "Lizenz ALT",
            "Workshop (Tag)",
            "Zubehör"
        ]
    );
    // term: number or title, case-insensitive.
    assert_eq!(
        titles(&s.get("/articles?term=b-1").await),
        ["Beratung", "Zubehör"]
    );
    assert_eq!(
        titles(&s.get("/articles?term=WORKSHOP").await),
        ["Workshop (Tag)"]
    );
    assert_eq!(titles(&s.get("/articles?term=alt").await), ["Lizenz ALT"]);
    assert_eq!(
        titles(&s.get("/articles?term=ZUBEHÖR").await),
        ["Zubehör"],
        "letters beyond ASCII fold too"
    );
    assert_eq!(
        titles(&s.get("/articles?term=_").await),
        Vec::<String>::new()
    );
    assert_eq!(
        titles(&s.get("/articles?term=b&active=true").await),
        ["Beratung", "Zubehör"]
    );
    assert_eq!(
        titles(&s.get("/articles?active=false").await),
        ["Lizenz ALT"]
    );
    // Paging.
    let r = s.get("/articles?per_page=2&page=2&sort_by=title").await;
    assert_eq!(titles(&r), ["Lizenz ALT", "Workshop (Tag)"]);
    assert_eq!(r.header("x-total"), "5");
    assert_eq!(r.header("x-page"), "2");
    assert_eq!(r.header("x-per-page"), "2");
    assert!(
        r.header("link").contains("rel=\"prev\""),
        "{}",
        r.header("link")
    );
    assert!(
        r.header("link").contains("rel=\"next\""),
        "{}",
        r.header("link")
    );
    let r = s.get("/articles?per_page=2&page=3").await;
    assert_eq!(titles(&r), ["Zubehör"]);
    let r = s.get("/articles?sort_by=number%20desc").await;
    assert_eq!(
        titles(&r),
        [
            "Zubehör",
            "Workshop (Tag)",
            "Lizenz ALT",
            "Beratung",
            "Anfahrt"
        ]
    );
    let ids = list_ids(&s.get("/articles?sort_by=created_at").await);
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
    // Malformed parameters: 400 naming them.
    let r = s.get("/articles?active=maybe").await;
    assert_eq!(r.status, 400);
    assert!(
        r.body["message"].as_str().unwrap().contains("active"),
        "{}",
        r.body
    );
    let r = s.get("/articles?sort_by=unit_price").await;
    assert_eq!(r.status, 400);
    assert!(
        r.body["message"].as_str().unwrap().contains("sort_by"),
        "{}",
        r.body
    );
}

#[tokio::test]
async fn each_bad_article_field_is_a_422_naming_it_and_nothing_is_stored() {
    let s = start().await;
    for (field, value) in [
        ("title", json!(" ")),
        ("title", json!("t".repeat(201))),
        ("title", json!(7)),
        ("number", json!("n".repeat(51))),
        ("unit", json!("u".repeat(21))),
        ("description", json!("d".repeat(20_001))),
        ("unit_price", json!(1.0000001)),
        ("unit_price", json!(1e15)),
        ("unit_price", json!("12.50")),
        ("currency", json!("JPY")),
        ("tax", json!(101)),
        ("tax", json!(-0.5)),
        ("tax", json!(7.12345)),
        ("tax", json!("19")),
        ("tax_category", json!("luxury")),
        ("tax_category", json!(1)),
        ("active", json!("yes")),
    ] {
        let mut body = json!({"title": "Beratung"});
        body[field] = value.clone();
        let r = s.post("/articles", body).await;
        assert_eq!(error_fields(&r), [field], "{field} {value}: {}", r.body);
    }
    // A missing title is named too; so is a rate the category does not take.
    let r = s.post("/articles", json!({"unit_price": 5})).await;
    assert_eq!(error_fields(&r), ["title"]);
    assert_eq!(r.body["errors"]["title"][0], "is required");
    let r = s
        .post(
            "/articles",
            json!({"title": "Export", "tax": 19, "tax_category": "export"}),
        )
        .await;
    assert_eq!(error_fields(&r), ["tax"]);
    assert_eq!(
        r.body["error_codes"]["tax"][0]["code"],
        "must_be_0_for_n_position"
    );
    let r = s
        .post(
            "/articles",
            json!({"title": "Yen", "currency": "CHF", "unit_price": 1.123456}),
        )
        .await;
    assert_eq!(r.status, 200, "CHF takes 6 places: {}", r.body);
    assert_eq!(count(&s, "/articles").await, 1);

    // The same rules on PUT, naming only the fields sent; nothing changes.
    let id = s.create("/articles", full_article()).await;
    for (field, value, named) in [
        ("title", json!(""), "title"),
        ("unit_price", json!(0.0000001), "unit_price"),
        ("unit_price", json!("1"), "unit_price"),
        ("tax", json!(100.5), "tax"),
        ("tax_category", json!("duty_free"), "tax_category"),
        // The stored 19 % does not fit a zero-rate category: named on the rate.
        ("tax_category", json!("zero"), "tax"),
        ("currency", json!("GBP"), "currency"),
        ("unit", json!("u".repeat(21)), "unit"),
    ] {
        let mut body = json!({"description": "changed"});
        body[field] = value.clone();
        let r = s.put(&format!("/articles/{id}"), body).await;
        assert_eq!(error_fields(&r), [named], "{field} {value}: {}", r.body);
    }
    // A currency with fewer places answers for the stored price's places.
    let r = s
        .put(&format!("/articles/{id}"), json!({"unit_price": 9.123456}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s
        .put(
            "/account",
            json!({"currencies": ["EUR", "CHF", "USD", "JPY"]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s
        .put(&format!("/articles/{id}"), json!({"currency": "JPY"}))
        .await;
    assert_eq!(error_fields(&r), ["unit_price"]);
    let stored = s.get(&format!("/articles/{id}")).await.body;
    assert_eq!(stored["description"], "<p>Per <b>hour</b></p>");
    assert_eq!(num(&stored["unit_price"]), "9.123456");
    assert_eq!(stored["currency"], "EUR");
    assert_eq!(stored["tax_category"], "standard");
    // Not JSON at all is a 400.
    let r = s
        .send_raw(Method::POST, "/articles", "application/json", "{not json")
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
}

#[tokio::test]
async fn an_article_number_belongs_to_one_article_regardless_of_case() {
    let s = start().await;
    let first = s
        .create("/articles", json!({"number": "B-100", "title": "Beratung"}))
        .await;
    for number in ["B-100", "b-100", " B-100 "] {
        let r = s
            .post("/articles", json!({"number": number, "title": "Copy"}))
            .await;
        assert_eq!(error_fields(&r), ["number"], "{number}");
        assert_eq!(
            r.body["errors"]["number"][0],
            "is already the number of the article Beratung"
        );
        assert_eq!(
            r.body["error_codes"]["number"][0]["code"],
            "article_number_taken_by_n"
        );
    }
    // In German too.
    let r = common::requests::send_json(
        s.keyed(Method::POST, "/articles")
            .header("Accept-Language", "de"),
        &json!({"number": "b-100", "title": "Kopie"}),
    )
    .await;
    assert_eq!(
        r.body["errors"]["number"][0],
        "ist bereits die Nummer des Artikels Beratung"
    );
    // Any number of articles without a number; a blank number is none.
    for title in ["Ohne 1", "Ohne 2"] {
        let r = s
            .post("/articles", json!({"title": title, "number": "  "}))
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.body["number"], Value::Null);
    }
    let second = s
        .create("/articles", json!({"number": "W-1", "title": "Workshop"}))
        .await;
    let r = s
        .put(&format!("/articles/{second}"), json!({"number": "b-100"}))
        .await;
    assert_eq!(error_fields(&r), ["number"]);
    assert_eq!(
        s.get(&format!("/articles/{second}")).await.body["number"],
        "W-1"
    );
    // The article itself may change the case of its own number, and another article may
    // take a number once it is free.
    let r = s
        .put(&format!("/articles/{first}"), json!({"number": "b-100"}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["number"], "b-100");
    assert_eq!(
        s.delete(&format!("/articles/{first}"), None).await.status,
        204
    );
    let r = s
        .put(&format!("/articles/{second}"), json!({"number": "B-100"}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

#[tokio::test]
async fn deleting_an_article_leaves_the_documents_that_used_it() {
    let s = start().await;
    let customer = s.customer("Hafen GmbH").await;
    let article = s.create("/articles", full_article()).await;
    let a = s.get(&format!("/articles/{article}")).await.body;
    // A position filled from the article: its values copied.
    let mut body = common::invoice_body(customer);
    body["items"] = json!([{
        "type": "item", "title": a["title"], "description": a["description"], "quantity": 2,
        "unit": a["unit"], "unit_price": a["unit_price"], "tax": a["tax"],
        "tax_category": a["tax_category"]
    }]);
    let r = s.post("/invoices", body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let invoice = r.body["id"].as_i64().unwrap();
    let before = s.get(&format!("/invoices/{invoice}")).await.body;
    assert_eq!(num(&before["net_total"]), "191.00");

    let r = s
        .put(
            &format!("/articles/{article}"),
            json!({"unit_price": 200, "title": "Neu"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        s.delete(&format!("/articles/{article}"), None).await.status,
        204
    );
    let after = s.get(&format!("/invoices/{invoice}")).await.body;
    assert_eq!(after["items"], before["items"]);
    assert_eq!(after["net_total"], before["net_total"]);
    assert_eq!(after["items"][0]["title"], "Beratung");
}

#[tokio::test]
async fn a_text_snippet_is_created_listed_updated_and_deleted() {
    let s = start().await;
    let r = s
        .post(
            "/text_snippets",
            json!({"name": " Standardgruß ", "kind": "salutation", "language": "de",
                   "text": "<p>Sehr geehrte Damen und Herren,</p>"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let snippet = r.body;
    let id = snippet["id"].as_i64().unwrap();
    let mut keys: Vec<&String> = snippet.as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "created_at",
            "id",
            "kind",
            "language",
            "name",
            "text",
            "updated_at"
        ]
    );
    assert_eq!(snippet["name"], "Standardgruß");
    assert_eq!(snippet["kind"], "salutation");
    assert_eq!(snippet["language"], "de");
    assert_eq!(snippet["text"], "<p>Sehr geehrte Damen und Herren,</p>");
    assert_eq!(s.get(&format!("/text_snippets/{id}")).await.body, snippet);

    for (name, kind, language) in [
        ("Footer EN", "footer", "en"),
        ("Footer DE", "footer", "de"),
        ("Mail EN", "email", "en"),
        ("Anrede EN", "salutation", "en"),
    ] {
        let r = s
            .post(
                "/text_snippets",
                json!({"name": name, "kind": kind, "language": language, "text": "Text"}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    assert_eq!(
        names(&s.get("/text_snippets").await),
        [
            "Anrede EN",
            "Footer DE",
            "Footer EN",
            "Mail EN",
            "Standardgruß"
        ]
    );
    assert_eq!(
        names(&s.get("/text_snippets?kind=footer").await),
        ["Footer DE", "Footer EN"]
    );
    assert_eq!(
        names(&s.get("/text_snippets?language=en").await),
        ["Anrede EN", "Footer EN", "Mail EN"]
    );
    assert_eq!(
        names(&s.get("/text_snippets?kind=salutation&language=de").await),
        ["Standardgruß"]
    );
    let r = s.get("/text_snippets?per_page=2&page=3").await;
    assert_eq!(names(&r), ["Standardgruß"]);
    assert_eq!(r.header("x-total"), "5");
    assert_eq!(r.header("x-page"), "3");
    let r = s.get("/text_snippets?kind=letter").await;
    assert_eq!(r.status, 400);
    assert!(
        r.body["message"].as_str().unwrap().contains("kind"),
        "{}",
        r.body
    );
    let r = s.get("/text_snippets?language=fr").await;
    assert_eq!(r.status, 400);
    assert!(
        r.body["message"].as_str().unwrap().contains("language"),
        "{}",
        r.body
    );

    // Partial update: null and absent leave a field.
    let r = s
        .put(
            &format!("/text_snippets/{id}"),
            json!({"language": "en", "text": "<p>Dear Sir or Madam,</p>", "name": null}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["language"], "en");
    assert_eq!(r.body["text"], "<p>Dear Sir or Madam,</p>");
    assert_eq!(r.body["name"], "Standardgruß");
    assert_eq!(r.body["kind"], "salutation");
    assert_eq!(count(&s, "/text_snippets?language=de").await, 1);

    assert_eq!(
        s.delete(&format!("/text_snippets/{id}"), None).await.status,
        204
    );
    assert_eq!(s.get(&format!("/text_snippets/{id}")).await.status, 404);
    let r = s
        .put(&format!("/text_snippets/{id}"), json!({"name": "X"}))
        .await;
    assert_eq!(r.status, 404);
    assert_eq!(
        s.delete(&format!("/text_snippets/{id}"), None).await.status,
        404
    );
    assert_eq!(count(&s, "/text_snippets").await, 4);
}

#[tokio::test]
async fn each_bad_text_snippet_field_is_a_422_naming_it() {
    let s = start().await;
    let valid = || json!({"name": "Gruß", "kind": "footer", "language": "de", "text": "Danke"});
    for (field, value) in [
        ("name", json!("")),
        ("name", json!("n".repeat(101))),
        ("name", Value::Null),
        ("kind", json!("letter")),
        ("kind", json!("Footer")),
        ("kind", json!(3)),
        ("kind", Value::Null),
        ("language", json!("fr")),
        ("language", Value::Null),
        ("text", json!("  ")),
        ("text", json!("t".repeat(10_001))),
        ("text", Value::Null),
    ] {
        let mut body = valid();
        body[field] = value.clone();
        let r = s.post("/text_snippets", body).await;
        assert_eq!(error_fields(&r), [field], "{field} {value}: {}", r.body);
    }
    let r = s.post("/text_snippets", json!({})).await;
    assert_eq!(error_fields(&r), ["kind", "language", "name", "text"]);
    assert_eq!(count(&s, "/text_snippets").await, 0);

    let id = s.create("/text_snippets", valid()).await;
    for (field, value) in [
        ("name", json!(" ")),
        ("kind", json!("letter")),
        ("language", json!("FR")),
        ("text", json!("")),
    ] {
        let r = s
            .put(&format!("/text_snippets/{id}"), json!({ field: value }))
            .await;
        assert_eq!(error_fields(&r), [field], "{field} {value}: {}", r.body);
    }
    assert_eq!(
        s.get(&format!("/text_snippets/{id}")).await.body["text"],
        "Danke"
    );
}

#[tokio::test]
async fn a_read_only_key_reads_but_cannot_write_the_catalogue() {
    let s = start().await;
    let article = s.create("/articles", full_article()).await;
    let snippet = s
        .create(
            "/text_snippets",
            json!({"name": "Gruß", "kind": "email", "language": "de", "text": "Hallo"}),
        )
        .await;
    let ro = s.read_only_key().await;
    for (method, path, body) in [
        (
            Method::POST,
            "/articles".to_string(),
            Some(json!({"title": "X"})),
        ),
        (
            Method::PUT,
            format!("/articles/{article}"),
            Some(json!({"title": "X"})),
        ),
        (Method::DELETE, format!("/articles/{article}"), None),
        (
            Method::POST,
            "/text_snippets".to_string(),
            Some(json!({"name": "X", "kind": "email", "language": "en", "text": "X"})),
        ),
        (
            Method::PUT,
            format!("/text_snippets/{snippet}"),
            Some(json!({"name": "X"})),
        ),
        (Method::DELETE, format!("/text_snippets/{snippet}"), None),
    ] {
        let status = s.status_as(&ro, method.clone(), &path, body).await;
        assert_eq!(status, 403, "{method} {path}");
    }
    for path in [
        "/articles".to_string(),
        format!("/articles/{article}"),
        "/text_snippets".to_string(),
        format!("/text_snippets/{snippet}"),
    ] {
        assert_eq!(
            s.status_as(&ro, Method::GET, &path, None).await,
            200,
            "{path}"
        );
    }
    assert_eq!(
        s.get(&format!("/articles/{article}")).await.body["title"],
        "Beratung"
    );
    assert_eq!(count(&s, "/articles").await, 1);
    assert_eq!(count(&s, "/text_snippets").await, 1);
}

#[tokio::test]
async fn article_and_snippet_changes_are_in_the_audit_trail() {
    let s = start().await;
    let article = s.create("/articles", full_article()).await;
    let r = s
        .put(&format!("/articles/{article}"), json!({"unit_price": 99}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        s.delete(&format!("/articles/{article}"), None).await.status,
        204
    );
    let snippet = s
        .create(
            "/text_snippets",
            json!({"name": "Gruß", "kind": "footer", "language": "de", "text": "Danke"}),
        )
        .await;
    let r = s
        .get(&format!(
            "/audit_events?record_type=article&record_id={article}"
        ))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let actions: Vec<&str> = r
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions, ["delete", "update", "create"], "newest first");
    let update = &r.body[1];
    assert!(update["user_id"].is_i64(), "{update}");
    let change = &update["changes"][0];
    assert_eq!(change["field"], "unit_price");
    assert_eq!(change["old"], "95.5");
    assert_eq!(change["new"], "99");
    let r = s
        .get(&format!(
            "/audit_events?record_type=text_snippet&record_id={snippet}"
        ))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body[0]["action"], "create");
}
