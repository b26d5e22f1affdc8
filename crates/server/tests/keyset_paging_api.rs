//! Issue 35 § Lists whose cost does not depend on the page, over HTTP on both engines: the
//! invoice list's `Link` `next` URL carries a cursor (the id of the page's last invoice)
//! beside the page number; following `next` reads every invoice exactly once in the
//! list's order, for every sort by a column that is never empty, also when invoices are
//! added or deleted between two pages; `page`/`per_page` alone keep working; a malformed
//! cursor is a 400 naming `cursor`, and a cursor naming no invoice is read by page number.

mod common;

use common::{invoice_body, list_ids, start, Reply, TestServer};
use serde_json::json;

/// The `rel="next"` URL of `r`'s `Link` header, as a path below `/api/v1`.
fn next_path(s: &TestServer, r: &Reply) -> Option<String> {
    let link = r.header("link");
    let next = link.split(", ").find(|l| l.ends_with("rel=\"next\""))?;
    let url = next.trim_start_matches('<').split('>').next()?;
    let prefix = format!("{}/api/v1", s.base);
    Some(
        url.strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("{url} is not below {prefix}"))
            .to_string(),
    )
}

/// Every id reached from `first` by following `next` links, with the number of pages.
async fn follow(s: &TestServer, first: &str) -> (Vec<i64>, Vec<String>) {
    let mut ids = Vec::new();
    let mut paths = vec![first.to_string()];
    let mut path = first.to_string();
    loop {
        let r = s.get(&path).await;
        ids.extend(list_ids(&r));
        match next_path(s, &r) {
            Some(next) => {
                assert!(paths.len() < 50, "no end after 50 pages: {paths:?}");
                paths.push(next.clone());
                path = next;
            }
            None => return (ids, paths),
        }
    }
}

/// 23 invoices over a few dates and amounts, with ties in each.
async fn invoices(s: &TestServer) -> Vec<i64> {
    let customer = s.customer("Hafen Logistik GmbH").await;
    let mut ids = Vec::new();
    for n in 0..23 {
        let mut body = invoice_body(customer);
        body["date"] = json!(format!("2026-11-{:02}", 1 + n % 4));
        body["due_date"] = json!(format!("2026-12-{:02}", 1 + n % 3));
        body["title"] = json!(format!("Storage {}", n % 5));
        body["items"] = json!([{"type": "item", "title": "Storage", "quantity": 1, "unit_price": 100 + 10 * (n % 6)}]);
        let r = s.post("/invoices", body).await;
        assert_eq!(r.status, 200, "{}", r.body);
        ids.push(r.body["id"].as_i64().unwrap());
    }
    ids
}

#[tokio::test]
async fn following_next_reads_every_invoice_once_in_the_lists_order() {
    let s = start().await;
    let all = invoices(&s).await;
    for sort in [
        "",
        "&sort_by=date",
        "&sort_by=gross_total%20desc",
        "&sort_by=due_date",
        "&sort_by=title",
        "&sort_by=status",
        "&sort_by=created_at",
        "&sort=open_amount",
        "&sort=gross_total&order=asc",
    ] {
        let whole = list_ids(&s.get(&format!("/invoices?per_page=100{sort}")).await);
        assert_eq!(whole.len(), all.len(), "{sort}");
        let (ids, paths) = follow(&s, &format!("/invoices?per_page=5{sort}")).await;
        assert_eq!(ids, whole, "{sort}: by cursor {paths:?}");
        assert_eq!(paths.len(), 5, "{sort}: {paths:?}");
        for (n, path) in paths.iter().enumerate().skip(1) {
            assert!(path.contains(&format!("page={}", n + 1)), "{path}");
            assert!(path.contains("cursor="), "{sort}: {path}");
        }
        // The page numbers alone read the same pages.
        for (n, path) in paths.iter().enumerate() {
            let by_number = s
                .get(&format!("/invoices?per_page=5&page={}{sort}", n + 1))
                .await;
            let by_cursor = s.get(path).await;
            assert_eq!(list_ids(&by_number), list_ids(&by_cursor), "{path}");
            assert_eq!(by_cursor.header("x-page"), (n + 1).to_string());
            assert_eq!(by_cursor.header("x-total"), "23");
        }
    }
}

#[tokio::test]
async fn a_cursor_keeps_its_place_when_invoices_come_and_go() {
    let s = start().await;
    let all = invoices(&s).await;
    // Newest first by date, then id: page 1 of 5.
    let p1 = s.get("/invoices?per_page=5").await;
    let first = list_ids(&p1);
    let next = next_path(&s, &p1).expect("a next page");
    // A new invoice at the top and the first invoice of page 1 deleted: by page number
    // page 2 would now repeat or skip an invoice; by cursor it starts after page 1.
    let customer = s.customer("Kranzler Bau GmbH").await;
    let mut body = invoice_body(customer);
    body["date"] = json!("2026-11-28");
    let added = s.post("/invoices", body).await;
    assert_eq!(added.status, 200, "{}", added.body);
    let gone = s
        .delete(
            &format!("/invoices/{}", first[0]),
            Some(json!({"reason": "Typed twice"})),
        )
        .await;
    assert!(gone.status.is_success(), "{}", gone.body);
    let whole = list_ids(&s.get("/invoices?per_page=100").await);
    let after_page_1: Vec<i64> = whole
        .iter()
        .skip_while(|id| **id != first[4])
        .skip(1)
        .copied()
        .take(5)
        .collect();
    assert_eq!(list_ids(&s.get(&next).await), after_page_1);
    assert_eq!(all.len(), 23);
}

#[tokio::test]
async fn page_numbers_keep_working_and_a_bad_cursor_is_named() {
    let s = start().await;
    invoices(&s).await;
    let whole = list_ids(&s.get("/invoices?per_page=100").await);
    let p3 = s.get("/invoices?per_page=5&page=3").await;
    assert_eq!(list_ids(&p3), whole[10..15]);
    let link = p3.header("link");
    assert!(
        link.contains("page=2>; rel=\"prev\"") && !link.contains("cursor=0"),
        "{link}"
    );
    let huge = "9".repeat(10_000);
    for bad in [
        "abc",
        "-4",
        "0",
        "1.5",
        "99999999999999999999",
        huge.as_str(),
    ] {
        let r = s.get(&format!("/invoices?cursor={bad}")).await;
        assert_eq!(r.status, 400, "{bad}: {}", r.body);
        assert!(r.body.to_string().contains("cursor"), "{bad}: {}", r.body);
    }
    // The last page number a client can send is an empty page past the end (its offset,
    // (2^32 - 2) x 100, overflowed the 32 bits it was once computed in), on every list
    // that pages by number.
    for list in [
        "/invoices",
        "/offers",
        "/purchases",
        "/companies",
        "/invoices/overdue",
        "/audit_events",
    ] {
        let r = s
            .get(&format!("{list}?per_page=100&page={}", u32::MAX))
            .await;
        assert_eq!(r.status, 200, "{list}: {}", r.body);
        assert_eq!(r.body, json!([]), "{list}");
    }
    let r = s.get(&format!("/invoices?page={}", u32::MAX)).await;
    assert_eq!(r.header("x-total"), whole.len().to_string());
    // A cursor naming no invoice: the page is read by its number.
    let r = s.get("/invoices?per_page=5&page=2&cursor=999999").await;
    assert_eq!(list_ids(&r), whole[5..10]);
    // Sorted by number (empty on drafts), pages go by number only.
    let r = s.get("/invoices?per_page=5&sort_by=identifier").await;
    let link = r.header("link");
    assert!(
        link.contains("rel=\"next\"") && !link.contains("cursor"),
        "{link}"
    );
}

#[tokio::test]
async fn offers_and_purchases_follow_next_by_cursor_too() {
    // Issue 35: the offer and purchase lists page by cursor like the invoices, for every
    // order by a column that is never empty; their deep pages are the full list's rows.
    let s = start().await;
    let customer = s.customer("Hafen Logistik GmbH").await;
    for n in 0..13 {
        let offer = json!({
            "company_id": customer,
            "recipient_address": "Hafen Logistik GmbH\nKai 3",
            "date": format!("2026-11-{:02}", 1 + n % 3),
            "due_date": format!("2026-12-{:02}", 1 + n % 2),
            "title": format!("Storage {}", n % 4),
            "tax": 19,
            "items": [{"type": "item", "title": "Storage", "quantity": 1, "unit_price": 100 + 10 * (n % 5)}]
        });
        let r = s.post("/offers", offer).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let purchase = json!({
            "date": format!("2026-10-{:02}", 1 + n % 3),
            "currency": "EUR",
            "title": format!("Paper {}", n % 4),
            "receipt_identifier": format!("RE-{n}"),
            "payment_method": "bank_transfer",
            "items": [{"title": "Paper", "total": 20 + 5 * (n % 5), "tax": 19}]
        });
        let r = s.post("/purchases", purchase).await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    for (list, sorts) in [
        (
            "/offers",
            &[
                "",
                "&sort_by=due_date",
                "&sort_by=title",
                "&sort_by=gross_total%20desc",
                "&sort=gross_total&order=asc",
                "&sort_by=created_at",
            ][..],
        ),
        (
            "/purchases",
            &[
                "",
                "&sort_by=title",
                "&sort_by=net_total",
                "&sort=gross_total&order=desc",
                "&sort_by=updated_at%20desc",
            ][..],
        ),
    ] {
        for sort in sorts {
            let whole = list_ids(&s.get(&format!("{list}?per_page=100{sort}")).await);
            assert_eq!(whole.len(), 13, "{list}{sort}");
            let (ids, paths) = follow(&s, &format!("{list}?per_page=4{sort}")).await;
            assert_eq!(ids, whole, "{list}{sort}: by cursor {paths:?}");
            assert_eq!(paths.len(), 4, "{list}{sort}: {paths:?}");
            for path in paths.iter().skip(1) {
                assert!(path.contains("cursor="), "{list}{sort}: {path}");
            }
        }
    }
    // Ordered by the company's name (a subquery, empty without one), pages go by number.
    let r = s.get("/offers?per_page=4&sort=company").await;
    let link = r.header("link");
    assert!(
        link.contains("rel=\"next\"") && !link.contains("cursor"),
        "{link}"
    );
}
