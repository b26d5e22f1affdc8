//! Search and sorting of the invoice, offer and purchase lists over real HTTP (issue 11
//! § Find and see): `term` finds customers, suppliers, addresses and position titles,
//! `%`/`_` are literal, every `sort` key runs both ways with stable pages, and an
//! unknown key or direction is a 400 naming its parameter.

mod common;

use common::{list_ids, num, start, TestServer};
use serde_json::{json, Value};

fn titles(r: &common::Reply) -> Vec<String> {
    assert_eq!(r.status, 200, "{}", r.body);
    let mut t: Vec<String> = r
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["title"].as_str().unwrap().to_string())
        .collect();
    t.sort();
    t
}

/// Three invoices for three customers with different dates, due dates and totals.
async fn invoices(s: &TestServer) -> Vec<i64> {
    let mut out = Vec::new();
    for (name, title, date, due, price, address) in [
        (
            "Kranzler KG",
            "Relaunch",
            "2026-11-03",
            "2026-11-30",
            300,
            "Kranzler KG\nLindenweg 4\n10115 Berlin",
        ),
        (
            "Adler AG",
            "100% done_now",
            "2026-11-05",
            "2026-11-20",
            100,
            "Adler AG\nHafenstr. 9\n20457 Hamburg",
        ),
        (
            "Zeisig GmbH",
            "Hosting",
            "2026-11-04",
            "2026-12-10",
            200,
            "Zeisig GmbH\nBergstr. 1\n80331 München",
        ),
    ] {
        let c = s.customer(name).await;
        let r = s
            .invoice(
                c,
                json!({"title": title, "date": date, "due_date": due, "recipient_address": address,
                       "items": [{"type": "item", "title": "Work", "quantity": 1, "unit": "h", "unit_price": price}]}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        out.push(r.body["id"].as_i64().unwrap());
    }
    out
}

#[tokio::test]
async fn invoices_are_found_by_customer_name_address_and_literal_wildcards() {
    let s = start().await;
    let made = invoices(&s).await;
    assert_eq!(list_ids(&s.get("/invoices?term=kranzler").await), [made[0]]);
    assert_eq!(list_ids(&s.get("/invoices?term=Hafenstr").await), [made[1]]);
    assert_eq!(list_ids(&s.get("/invoices?term=hosting").await), [made[2]]);
    // `%` and `_` match themselves only.
    assert_eq!(list_ids(&s.get("/invoices?term=100%25").await), [made[1]]);
    assert_eq!(list_ids(&s.get("/invoices?term=%25").await), [made[1]]);
    assert_eq!(list_ids(&s.get("/invoices?term=done_now").await), [made[1]]);
    assert!(list_ids(&s.get("/invoices?term=r_l").await).is_empty());
    // Combined with the other filters.
    assert!(list_ids(&s.get("/invoices?term=kranzler&date_from=2026-11-04").await).is_empty());
    assert_eq!(
        list_ids(&s.get("/invoices?term=GmbH&date_from=2026-11-04").await),
        [made[2]]
    );
}

/// Checks every key both ways: desc is asc reversed (ties break by id in the same
/// direction) and pages of two put together give the whole list.
async fn check_sorts(s: &TestServer, list: &str, keys: &[&str]) -> Vec<(String, Vec<i64>)> {
    let mut out = Vec::new();
    for key in keys {
        let asc = list_ids(&s.get(&format!("{list}?sort={key}&order=asc")).await);
        let mut desc = list_ids(&s.get(&format!("{list}?sort={key}&order=desc")).await);
        desc.reverse();
        assert_eq!(asc, desc, "{list} sort={key}");
        let mut paged = Vec::new();
        for page in 1..=3 {
            paged.extend(list_ids(
                &s.get(&format!(
                    "{list}?sort={key}&order=asc&per_page=2&page={page}"
                ))
                .await,
            ));
        }
        assert_eq!(paged, asc, "{list} sort={key} paged");
        out.push((key.to_string(), asc));
    }
    out
}

#[tokio::test]
async fn invoices_sort_by_every_key_both_ways() {
    let s = start().await;
    let made = invoices(&s).await;
    // A fourth invoice equal to the first in everything but its id.
    let c = s.customer("Kranzler KG").await;
    let twin = s
        .invoice(
            c,
            json!({"title": "Relaunch", "date": "2026-11-03", "due_date": "2026-11-30",
                   "items": [{"type": "item", "title": "Work", "quantity": 1, "unit": "h", "unit_price": 300}]}),
        )
        .await;
    let twin = twin.body["id"].as_i64().unwrap();
    let sorted = check_sorts(
        &s,
        "/invoices",
        &[
            "identifier",
            "date",
            "due_date",
            "customer",
            "gross_total",
            "open_amount",
        ],
    )
    .await;
    let by = |k: &str| sorted.iter().find(|(n, _)| n == k).unwrap().1.clone();
    assert_eq!(by("date"), [made[0], twin, made[2], made[1]]);
    assert_eq!(by("due_date"), [made[1], made[0], twin, made[2]]);
    assert_eq!(by("customer"), [made[1], made[0], twin, made[2]]);
    assert_eq!(by("gross_total"), [made[1], made[2], made[0], twin]);
    assert_eq!(by("open_amount"), [made[1], made[2], made[0], twin]);
    // Without `order`: dates newest first, the rest ascending; default stays newest first.
    assert_eq!(
        list_ids(&s.get("/invoices?sort=date").await),
        [made[1], made[2], twin, made[0]]
    );
    assert_eq!(
        list_ids(&s.get("/invoices?sort=gross_total").await),
        [made[1], made[2], made[0], twin]
    );
    assert_eq!(
        list_ids(&s.get("/invoices").await),
        [made[1], made[2], twin, made[0]]
    );
    let r = s.get("/invoices?sort=gross_total&order=desc").await;
    assert_eq!(num(&r.body[0]["gross_total"]), "357.00");
}

#[tokio::test]
async fn unknown_sort_or_order_is_a_400_naming_it() {
    let s = start().await;
    for (path, param) in [
        ("/invoices?sort=colour", "sort"),
        ("/invoices?sort=date&order=up", "order"),
        ("/offers?sort=supplier", "sort"),
        ("/offers?order=sideways", "order"),
        ("/purchases?sort=customer", "sort"),
        ("/purchases?sort=date&order=1", "order"),
    ] {
        let r = s.get(path).await;
        assert_eq!(r.status, 400, "{path}: {}", r.body);
        let message = r.body["message"].as_str().unwrap_or_default();
        assert!(message.contains(param), "{path}: {}", r.body);
    }
}

async fn offer(
    s: &TestServer,
    company: i64,
    title: &str,
    date: &str,
    price: i64,
    address: &str,
) -> i64 {
    let r = s
        .post(
            "/offers",
            json!({"company_id": company, "recipient_address": address, "date": date,
                   "due_date": "2026-12-31", "title": title, "tax": 19,
                   "items": [{"type": "item", "title": "Work", "quantity": 1, "unit": "h", "unit_price": price}]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["id"].as_i64().unwrap()
}

#[tokio::test]
async fn offers_are_found_by_company_and_sorted() {
    let s = start().await;
    let k = s.customer("Kranzler KG").await;
    let a = s.customer("Adler AG").await;
    let o1 = offer(
        &s,
        k,
        "Relaunch",
        "2026-11-03",
        300,
        "Kranzler KG\nLindenweg 4",
    )
    .await;
    let o2 = offer(&s, a, "Shop", "2026-11-05", 100, "Adler AG\nHafenstr. 9").await;
    let o3 = offer(&s, a, "Hosting", "2026-11-04", 200, "Adler AG\nHafenstr. 9").await;
    assert_eq!(list_ids(&s.get("/offers?term=KRANZLER").await), [o1]);
    assert_eq!(
        titles(&s.get("/offers?term=hafenstr").await),
        ["Hosting", "Shop"]
    );
    assert_eq!(
        list_ids(&s.get("/offers?term=adler&from=2026-11-05").await),
        [o2]
    );
    assert!(list_ids(&s.get("/offers?term=%25").await).is_empty());
    let sorted = check_sorts(
        &s,
        "/offers",
        &[
            "identifier",
            "date",
            "company",
            "gross_total",
            "title",
            "created_at",
        ],
    )
    .await;
    let by = |k: &str| sorted.iter().find(|(n, _)| n == k).unwrap().1.clone();
    assert_eq!(by("date"), [o1, o3, o2]);
    assert_eq!(by("company"), [o2, o3, o1]);
    assert_eq!(by("gross_total"), [o2, o3, o1]);
    assert_eq!(by("identifier"), [o1, o2, o3]);
    // The interface's sorts keep their meaning: date newest first, title A–Z.
    assert_eq!(list_ids(&s.get("/offers?sort=date").await), [o2, o3, o1]);
    assert_eq!(list_ids(&s.get("/offers?sort=title").await), [o3, o1, o2]);
    assert_eq!(list_ids(&s.get("/offers").await), [o2, o3, o1]);
}

async fn purchase(
    s: &TestServer,
    supplier: i64,
    receipt: &str,
    date: &str,
    item: &str,
    total: &str,
) -> i64 {
    let r = s
        .post(
            "/purchases",
            json!({"company_id": supplier, "receipt_identifier": receipt, "date": date,
                   "currency": "EUR", "payment_method": "bank_transfer",
                   "items": [{"title": item, "total": serde_json::from_str::<Value>(total).unwrap(), "tax": 19, "tax_included": true}]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["id"].as_i64().unwrap()
}

#[tokio::test]
async fn purchases_are_found_by_supplier_and_position_and_sorted() {
    let s = start().await;
    let post = s.customer("Druckerei Kranzler").await;
    let bahn = s.customer("Bahn AG").await;
    let p1 = purchase(&s, post, "RE-77", "2026-11-02", "Flyer 50_50", "119").await;
    let p2 = purchase(&s, bahn, "B-1", "2026-11-09", "Ticket Berlin", "59.50").await;
    let p3 = purchase(&s, bahn, "B-2", "2026-11-05", "Ticket Hamburg", "89.25").await;
    assert_eq!(list_ids(&s.get("/purchases?term=kranzler").await), [p1]);
    assert_eq!(list_ids(&s.get("/purchases?term=hamburg").await), [p3]);
    assert_eq!(list_ids(&s.get("/purchases?term=re-77").await), [p1]);
    assert_eq!(list_ids(&s.get("/purchases?term=50_50").await), [p1]);
    assert!(list_ids(&s.get("/purchases?term=re_77").await).is_empty());
    assert_eq!(
        list_ids(&s.get("/purchases?term=ticket&date=2026-11-06:").await),
        [p2]
    );
    let sorted = check_sorts(
        &s,
        "/purchases",
        &["identifier", "date", "supplier", "gross_total"],
    )
    .await;
    let by = |k: &str| sorted.iter().find(|(n, _)| n == k).unwrap().1.clone();
    assert_eq!(by("date"), [p1, p3, p2]);
    assert_eq!(by("supplier"), [p2, p3, p1]);
    assert_eq!(by("gross_total"), [p2, p3, p1]);
    assert_eq!(by("identifier").len(), 3);
    assert_eq!(list_ids(&s.get("/purchases").await), [p2, p3, p1]);
}

#[tokio::test]
async fn searches_fold_umlauts_alike_on_both_engines() {
    let s = start().await;
    for name in [
        "ÄRZTE-Verbund Nord",
        "Ärztehaus Süd",
        "Praxis ärzte & Co",
        "Baumarkt",
    ] {
        let r = s.post("/companies", json!({"name": name})).await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    // "ärzte" finds every spelling (issue 30: SQLite's LIKE folded ASCII letters only).
    for term in ["ärzte", "ÄRZTE", "Ärzte"] {
        let found = s
            .get(&format!("/companies?term={}", urlencode(term)))
            .await
            .body;
        let mut names: Vec<&str> = found
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        names.sort();
        assert_eq!(
            names,
            ["Praxis ärzte & Co", "ÄRZTE-Verbund Nord", "Ärztehaus Süd"],
            "{term}"
        );
    }
    // Invoice titles too.
    let c = s.customer("Kunde").await;
    s.invoice(c, json!({"title": "Beratung ÜBERSETZUNG"})).await;
    let found = s
        .get(&format!("/invoices?term={}", urlencode("übersetzung")))
        .await
        .body;
    assert_eq!(found.as_array().unwrap().len(), 1, "{found}");
}

fn urlencode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}
