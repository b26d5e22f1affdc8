//! The list layer over real HTTP (issue 8): a malformed parameter is a 400 naming it on
//! every list, tags repeated or comma-separated, invoice rows name their customer, the
//! purchase totals per currency follow the list's filter, and the short lists carry the
//! paging headers too.

mod common;

use base64::Engine;
use common::{num, start, TestServer};
use serde_json::{json, Value};

fn message(r: &common::Reply) -> String {
    r.body["message"].as_str().unwrap_or_default().to_string()
}

#[tokio::test]
async fn malformed_parameters_are_400s_naming_them() {
    let s = start().await;
    let cases = [
        ("/invoices?date_from=2026-1-1", "date_from"),
        ("/invoices?project_id=seven", "project_id"),
        ("/invoices?per_page=0", "per_page"),
        ("/offers?deal_id=1,x", "deal_id"),
        ("/purchases?unpaid=maybe", "unpaid"),
        ("/purchases?date=2026-11-01", "date"),
        ("/companies?type=alien", "type"),
        ("/activities?billable=perhaps", "billable"),
        ("/invoice_reminders?invoice_id=x", "invoice_id"),
        ("/users?updated_after=soon", "updated_after"),
        ("/purchases/payments?purchase_id=abc", "purchase_id"),
        ("/purchases/categories?page=x", "page"),
    ];
    for (path, param) in cases {
        let r = s.get(path).await;
        assert_eq!(r.status, 400, "{path}: {}", r.body);
        assert!(message(&r).contains(param), "{path}: {}", r.body);
    }
    // Unknown parameters are ignored; empty values are absent.
    let r = s.get("/invoices?colour=blue&date_from=&status=").await;
    assert_eq!(r.status, 200, "{}", r.body);
}

#[tokio::test]
async fn tags_repeated_or_comma_separated_and_customer_in_rows() {
    let s = start().await;
    let c = s.customer("Hafen GmbH").await;
    for (title, tags) in [("Both", json!(["a", "b"])), ("Only a", json!(["a"]))] {
        let r = s.invoice(c, json!({"title": title, "tags": tags})).await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let titles = |r: &common::Reply| -> Vec<String> {
        r.body
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["title"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(titles(&s.get("/invoices?tags=a&tags=b").await), ["Both"]);
    assert_eq!(titles(&s.get("/invoices?tags=a,b").await), ["Both"]);
    assert_eq!(titles(&s.get("/invoices?tags=a").await).len(), 2);

    let list = s.get("/invoices").await;
    let row = &list.body[0];
    assert_eq!(row["customer_id"], c);
    assert_eq!(row["customer"], json!({"id": c, "name": "Hafen GmbH"}));
    let one = s.get(&format!("/invoices/{}", row["id"])).await;
    assert_eq!(one.body["customer"]["name"], "Hafen GmbH");
}

async fn purchase(s: &TestServer, currency: &str, total: &str, tags: Value) -> Value {
    let body = json!({
        "date": "2026-11-10",
        "currency": currency,
        "payment_method": "bank_transfer",
        "tags": tags,
        "items": [{"title": "Paper", "total": serde_json::from_str::<Value>(total).unwrap(), "tax": 19, "tax_included": true}]
    });
    let r = s.post("/purchases", body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

#[tokio::test]
async fn purchase_totals_per_currency_follow_the_filter() {
    let s = start().await;
    purchase(&s, "EUR", "119", json!(["office"])).await;
    purchase(&s, "EUR", "59.50", json!(["office"])).await;
    purchase(&s, "USD", "11.90", json!(["office"])).await;
    purchase(&s, "EUR", "1000", json!(["travel"])).await;

    let r = s.get("/purchases/totals?tags=office").await;
    assert_eq!(r.status, 200, "{}", r.body);
    let lines = r.body.as_array().unwrap();
    assert_eq!(lines.len(), 2, "{}", r.body);
    assert_eq!(lines[0]["currency"], "EUR");
    assert_eq!(num(&lines[0]["gross_total"]), "178.50");
    assert_eq!(num(&lines[0]["net_total"]), "150.00");
    assert_eq!(lines[0]["count"], 2);
    assert_eq!(lines[1]["currency"], "USD");
    assert_eq!(num(&lines[1]["gross_total"]), "11.90");
    assert_eq!(lines[1]["count"], 1);

    // Paging does not limit the sums; a malformed filter is a 400 naming it.
    let all = s.get("/purchases/totals?per_page=1").await;
    assert_eq!(num(&all.body[0]["gross_total"]), "1178.50");
    let bad = s.get("/purchases/totals?status=lost").await;
    assert_eq!(bad.status, 400);
    assert!(message(&bad).contains("status"));
}

#[tokio::test]
async fn short_lists_carry_the_paging_headers() {
    let s = start().await;
    // Purchase payments.
    let p = purchase(&s, "EUR", "119", json!([])).await;
    let pid = p["id"].as_i64().unwrap();
    for day in ["2026-11-11", "2026-11-12"] {
        let r = s
            .post(
                "/purchases/payments",
                json!({"purchase_id": pid, "date": day, "total": 10}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let r = s
        .get(&format!("/purchases/payments?purchase_id={pid}&per_page=1"))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("x-total"), "2");
    assert_eq!(r.header("x-per-page"), "1");
    assert_eq!(r.body.as_array().unwrap().len(), 1);
    assert!(r.header("link").contains("rel=\"next\""));
    assert_eq!(s.get("/purchases/payments").await.header("x-total"), "2");

    // Purchase categories.
    for name in ["Office", "Travel"] {
        let r = s
            .post(
                "/purchases/categories",
                json!({"name": name, "credit_account": "4930"}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let r = s.get("/purchases/categories").await;
    assert_eq!(r.header("x-total"), "2");
    assert_eq!(r.header("x-page"), "1");

    // A project's expenses.
    let c = s.customer("ACME").await;
    let project = s
        .create("/projects", json!({"name": "Site", "customer_id": c}))
        .await;
    let path = format!("/projects/{project}/expenses");
    let r = s
        .post(
            &path,
            json!({"date": "2026-11-04", "title": "Fonts", "quantity": 2, "unit_price": 30, "unit_cost": 25}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s.get(&path).await;
    assert_eq!(r.header("x-total"), "1");
    assert_eq!(r.body.as_array().unwrap().len(), 1);

    // An offer's attachments.
    let offer = s
        .post(
            "/offers",
            json!({"company_id": c, "recipient_address": "ACME", "date": "2026-11-05", "due_date": "2026-12-05",
                   "title": "Site", "tax": 19, "items": [{"type": "item", "title": "Design", "quantity": 1, "unit": "h", "unit_price": 100}]}),
        )
        .await;
    assert_eq!(offer.status, 200, "{}", offer.body);
    let path = format!("/offers/{}/attachments", offer.body["id"]);
    let pdf = base64::engine::general_purpose::STANDARD.encode("%PDF-1.4\n% terms\n%%EOF\n");
    let r = s
        .post(
            &path,
            json!({"attachment": {"filename": "terms.pdf", "base64": pdf}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s.get(&path).await;
    assert_eq!(r.header("x-total"), "1");
    assert_eq!(r.header("x-per-page"), "100");
}
