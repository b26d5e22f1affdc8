//! One search (issue 33 § One search): `GET /search?term=` finds invoices, offers,
//! purchases, companies and contact people by number, title, name and e-mail — at most
//! five each — and invoices by an amount as typed ("1.190,00").

mod common;

use common::start;
use serde_json::json;

fn names(v: &serde_json::Value, field: &str) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x[field].as_str().unwrap_or_default().to_string())
        .collect()
}

#[tokio::test]
async fn one_search_finds_every_kind_of_record() {
    let s = start().await;
    let mueller = s
        .post(
            "/companies",
            json!({"name": "Müller Metallbau GmbH", "type": "customer", "email": "rechnung@mueller-metall.de"}),
        )
        .await;
    assert_eq!(mueller.status, 200, "{}", mueller.body);
    let mueller = mueller.body["id"].as_i64().unwrap();
    let other = s
        .post(
            "/companies",
            json!({"name": "Hafen Logistik AG", "type": "customer"}),
        )
        .await
        .body["id"]
        .as_i64()
        .unwrap();
    let person = s
        .post(
            "/contacts/people",
            json!({"company_id": mueller, "firstname": "Jana", "lastname": "Müller", "email": "jana@mueller-metall.de"}),
        )
        .await;
    assert_eq!(person.status, 200, "{}", person.body);
    // 1,000.00 net at 19 %: 1,190.00 gross, for Hafen (not named Müller).
    let invoice = s
        .invoice(
            other,
            json!({"title": "Lagerhalle", "tax": 19, "items": [{"type": "item", "title": "Miete", "quantity": 1, "unit_price": 1000}]}),
        )
        .await;
    assert_eq!(invoice.status, 200, "{}", invoice.body);
    let number = invoice.body["identifier"].as_str().unwrap().to_string();
    let titled = s
        .invoice(
            mueller,
            json!({"title": "Geländer Müllerstraße", "items": [{"type": "item", "title": "Montage", "quantity": 1, "unit_price": 80}]}),
        )
        .await;
    assert_eq!(titled.status, 200, "{}", titled.body);
    let offer = s
        .post(
            "/offers",
            json!({"company_id": mueller, "recipient_address": "Müller Metallbau GmbH", "date": "2026-11-20",
                   "due_date": "2026-12-20", "title": "Treppe", "tax": 19,
                   "items": [{"type": "item", "title": "Treppe", "quantity": 1, "unit_price": 5000}]}),
        )
        .await;
    assert_eq!(offer.status, 200, "{}", offer.body);

    let r = s.get("/search?term=m%C3%BCller").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        names(&r.body["companies"], "name"),
        vec!["Müller Metallbau GmbH"]
    );
    assert_eq!(
        names(&r.body["contacts"], "email"),
        vec!["jana@mueller-metall.de"]
    );
    assert_eq!(
        names(&r.body["invoices"], "title"),
        vec!["Geländer Müllerstraße"]
    );
    assert_eq!(names(&r.body["offers"], "title"), vec!["Treppe"]);
    assert_eq!(r.body["purchases"], json!([]));

    // By e-mail, by number, by the amount as typed in German and in English.
    let r = s.get("/search?term=mueller-metall.de").await;
    assert_eq!(
        names(&r.body["companies"], "name"),
        vec!["Müller Metallbau GmbH"]
    );
    assert_eq!(r.body["contacts"].as_array().unwrap().len(), 1);
    let r = s.get(&format!("/search?term={number}")).await;
    assert_eq!(
        names(&r.body["invoices"], "identifier"),
        vec![number.clone()]
    );
    for amount in ["1.190,00", "1190.00", "1190,00%20%E2%82%AC"] {
        let r = s.get(&format!("/search?term={amount}")).await;
        assert_eq!(r.status, 200, "{amount}: {}", r.body);
        assert_eq!(
            names(&r.body["invoices"], "identifier"),
            vec![number.clone()],
            "{amount}: {}",
            r.body
        );
    }

    // Nothing found: every group empty.
    let r = s.get("/search?term=xyzzy").await;
    assert_eq!(
        r.body,
        json!({"invoices": [], "offers": [], "purchases": [], "companies": [], "contacts": []})
    );
}

#[tokio::test]
async fn at_most_five_per_group_and_a_term_is_required() {
    let s = start().await;
    for n in 0..7 {
        let r = s
            .post(
                "/companies",
                json!({"name": format!("Bäckerei Korn {n}"), "type": "customer"}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let r = s.get("/search?term=korn").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["companies"].as_array().unwrap().len(), 5);
    for bad in ["/search", "/search?term=", "/search?term=%20%20"] {
        let r = s.get(bad).await;
        assert_eq!(r.status, 422, "{bad}: {}", r.body);
        assert!(r.body["errors"]["term"].is_array(), "{}", r.body);
    }
    let long = "a".repeat(201);
    let r = s.get(&format!("/search?term={long}")).await;
    assert_eq!(r.status, 422, "{}", r.body);
    // Read-only keys may search.
    let key = s.read_only_key().await;
    let r = common::people::send_as(
        &s,
        Some(&key),
        reqwest::Method::GET,
        "/search?term=korn",
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

#[tokio::test]
async fn odd_terms_find_nothing_and_never_fail() {
    let s = start().await;
    for term in [
        "1e999",
        "%25_%2A",
        "99999999999999999999999999999%2C99",
        "-0,00",
        "%27%3B%20DROP%20TABLE%20invoices%3B--",
        "%E2%82%AC",
        "%F0%9F%98%80",
    ] {
        let r = s.get(&format!("/search?term={term}")).await;
        assert_eq!(r.status, 200, "{term}: {}", r.body);
        assert_eq!(r.body["invoices"], json!([]), "{term}");
    }
}
