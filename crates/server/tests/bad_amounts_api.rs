//! Issue 8 over real HTTP: the probes that used to panic, store saturated totals, answer
//! 400 for valid JSON or accept numeric strings and impossible dates are now 422s naming
//! the field (`docs/decisions.md` § Amount ranges (issue 8)), and nothing is stored.

mod common;

use common::{invoice_body, merge, start, TestServer};
use reqwest::Method;
use serde_json::Value;

/// JSON from text, so numbers keep their exact digits (`5e28`, `1e308`).
fn raw(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

fn assert_field(r: &common::Reply, field: &str) {
    assert_eq!(r.status, 422, "{field}: {}", r.body);
    assert!(
        r.body["errors"][field].is_array(),
        "expected errors.{field}: {}",
        r.body
    );
}

async fn invoice_count(s: &TestServer) -> usize {
    let r = s.get("/invoices").await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
        .as_array()
        .map(Vec::len)
        .unwrap_or_else(|| r.body["items"].as_array().map(Vec::len).unwrap_or_default())
}

/// The valid invoice body for `customer` with `overrides` (JSON text, [`raw`]) merged in.
fn invoice_with(customer: i64, overrides: &str) -> Value {
    let mut body = invoice_body(customer);
    merge(&mut body, raw(overrides));
    body
}

async fn post_invoice(s: &TestServer, customer: i64, overrides: &str) -> common::Reply {
    s.post("/invoices", invoice_with(customer, overrides)).await
}

/// POST `path` with `text` (JSON text, [`raw`]) as its body.
async fn post_text(s: &TestServer, path: &str, text: &str) -> common::Reply {
    s.post(path, raw(text)).await
}

/// Creates the project "Site" of `customer`; returns its id.
async fn project(s: &TestServer, customer: i64) -> i64 {
    let r = post_text(
        s,
        "/projects",
        &format!(r#"{{"name": "Site", "customer_id": {customer}}}"#),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["id"].as_i64().unwrap()
}

#[tokio::test]
async fn overflowing_positions_are_field_errors_and_nothing_is_stored() {
    let s = start().await;
    let c = s.customer("ACME").await;
    let before = invoice_count(&s).await;

    let r = post_invoice(
        &s,
        c,
        r#"{"items": [{"type": "item", "title": "x", "quantity": 1e15, "unit_price": 1e15}]}"#,
    )
    .await;
    assert_field(&r, "items[0].quantity");
    assert_field(&r, "items[0].unit_price");
    let message = r.body["errors"]["items[0].quantity"][0].as_str().unwrap();
    assert!(
        message.contains("1000000000"),
        "the range is stated: {message}"
    );

    for (overrides, fields) in [
        // Each in range, the product not.
        (
            r#"{"items": [{"type": "item", "title": "x", "quantity": 100000000, "unit_price": 100000000}]}"#,
            &["items[0].unit_price"][..],
        ),
        // Two lump sums of 5e28 used to be stored with totals 0.
        (
            r#"{"items": [{"type": "item", "title": "a", "net_total": 5e28}, {"type": "item", "title": "b", "net_total": 5e28}]}"#,
            &["items[0].net_total", "items[1].net_total"],
        ),
        // In range one by one, too large together.
        (
            r#"{"items": [{"type": "item", "title": "a", "net_total": 900000000000000}, {"type": "item", "title": "b", "net_total": 900000000000000}]}"#,
            &["items"],
        ),
        // Too many places for a unit price (EUR: 2 + 4).
        (
            r#"{"items": [{"type": "item", "title": "x", "quantity": 1, "unit_price": 0.0000001}]}"#,
            &["items[0].unit_price"],
        ),
    ] {
        let r = post_invoice(&s, c, overrides).await;
        for field in fields {
            assert_field(&r, field);
        }
    }

    // The same rule for offers.
    let r = post_text(&s, "/offers", &format!(
                r#"{{"company_id": {c}, "recipient_address": "ACME", "date": "2026-11-03", "due_date": "2026-12-03",
                "title": "Probe", "tax": 19, "items": [{{"type": "item", "title": "x", "quantity": 1e15, "unit_price": 1e15}}]}}"#
            )).await;
    assert_field(&r, "items[0].quantity");

    assert_eq!(invoice_count(&s).await, before, "nothing was stored");
    // The server still answers and valid bodies still work.
    let r = s.invoice(c, raw("{}")).await;
    assert_eq!(r.status, 200, "{}", r.body);
}

#[tokio::test]
async fn a_purchase_total_beyond_the_range_is_refused() {
    let s = start().await;
    let r = post_text(
        &s,
        "/purchases",
        r#"{"date": "2026-11-10", "currency": "EUR", "payment_method": "bank_transfer",
                "items": [{"title": "Paper", "total": 7e28, "tax": 19}]}"#,
    )
    .await;
    assert_field(&r, "items[0].total");
    let r = post_text(&s, "/purchases", r#"{"date": "2026-11-10", "currency": "EUR", "payment_method": "bank_transfer",
                "items": [{"title": "a", "total": 900000000000000, "tax": 0}, {"title": "b", "total": 900000000000000, "tax": 0}]}"#).await;
    assert_field(&r, "items");
    let list = s.get("/purchases").await;
    assert_eq!(list.status, 200, "{}", list.body);
}

#[tokio::test]
async fn huge_payments_are_refused_on_paid_total() {
    let s = start().await;
    let c = s.customer("ACME").await;
    let r = s.invoice(c, raw("{}")).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    for _ in 0..8 {
        let r = post_text(
            &s,
            "/invoices/payments",
            &format!(r#"{{"invoice_id": {id}, "date": "2026-11-10", "paid_total": 1e28}}"#),
        )
        .await;
        assert_field(&r, "paid_total");
    }
    let r = post_text(
        &s,
        "/purchases",
        r#"{"date": "2026-11-10", "currency": "EUR", "payment_method": "bank_transfer",
                "items": [{"title": "Paper", "total": 10, "tax": 19}]}"#,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let purchase = r.body["id"].as_i64().unwrap();
    let r = post_text(
        &s,
        "/purchases/payments",
        &format!(r#"{{"purchase_id": {purchase}, "date": "2026-11-10", "total": 1e28}}"#),
    )
    .await;
    assert_field(&r, "total");
    let invoice = s.get(&format!("/invoices/{id}")).await;
    assert_eq!(invoice.status, 200, "{}", invoice.body);
    // Nothing was paid: the status is the one before payments (overdue once its due date
    // has passed) and the open amount is the whole gross.
    assert!(
        matches!(invoice.body["status"].as_str(), Some("created" | "overdue")),
        "{}",
        invoice.body
    );
    assert_eq!(
        invoice.body["open_amount"], invoice.body["gross_total"],
        "{}",
        invoice.body
    );
}

#[tokio::test]
async fn huge_expenses_are_refused_before_they_are_stored() {
    let s = start().await;
    let c = s.customer("ACME").await;
    let project = project(&s, c).await;
    let path = format!("/projects/{project}/expenses");
    let r = s
        .post(
            &path,
            raw(r#"{"date": "2026-11-04", "title": "Fonts", "quantity": 1e15, "unit_price": 1e15, "unit_cost": 1e28}"#),
        )
        .await;
    assert_field(&r, "quantity");
    assert_field(&r, "unit_price");
    assert_field(&r, "unit_cost");
    let r = s
        .post(
            &path,
            raw(r#"{"date": "2026-11-04", "title": "Fonts", "quantity": 100000000, "unit_price": 100000000}"#),
        )
        .await;
    assert_field(&r, "unit_price");
    let list = s.get(&path).await;
    assert_eq!(
        list.status, 200,
        "the list is still readable: {}",
        list.body
    );
    let ok = s
        .post(
            &path,
            raw(r#"{"date": "2026-11-04", "title": "Fonts", "quantity": 2, "unit_price": 30}"#),
        )
        .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    let list = s.get(&path).await;
    assert_eq!(list.status, 200, "{}", list.body);
    assert!(list.body.to_string().contains("Fonts"), "{}", list.body);
}

#[tokio::test]
async fn valid_json_of_the_wrong_type_is_422_naming_the_field() {
    let s = start().await;
    let c = s.customer("ACME").await;

    let r = post_invoice(
        &s,
        c,
        r#"{"items": [{"type": 1, "title": "x", "net_total": 5}]}"#,
    )
    .await;
    assert_field(&r, "items[0].type");
    let r = post_invoice(&s, c, r#"{"status": 2}"#).await;
    assert_field(&r, "status");
    let r = post_invoice(&s, c, r#"{"tax": "12.5"}"#).await;
    assert_field(&r, "tax");
    let r = post_invoice(
        &s,
        c,
        r#"{"items": [{"type": "item", "title": "x", "quantity": "2", "unit_price": 5}]}"#,
    )
    .await;
    assert_field(&r, "items[0].quantity");

    let r = post_invoice(&s, c, r#"{"tax": 1e308}"#).await;
    assert_field(&r, "tax");
    let keys: Vec<&String> = r.body["errors"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["tax"], "no serde_json token in the path: {}", r.body);

    for date in ["0000-01-01", "2026-1-1", "1899-12-31", "2026-02-30"] {
        let r = post_invoice(&s, c, &format!(r#"{{"date": "{date}"}}"#)).await;
        assert_field(&r, "date");
    }
    let r = post_text(&s, "/purchases", r#"{"date": "2026-11-10", "due_date": "3000-01-01", "currency": "EUR", "payment_method": "bank_transfer",
                "items": [{"title": "Paper", "total": 10, "tax": 19}]}"#).await;
    assert_field(&r, "due_date");

    // Not JSON at all is still a 400.
    let bad = s
        .send_raw(Method::POST, "/invoices", "application/json", "{\"tax\": ")
        .await;
    assert_eq!(bad.status, 400);
}

#[tokio::test]
async fn query_dates_follow_the_same_rule() {
    let s = start().await;
    for bad in ["2026-1-1", "0000-01-01"] {
        let r = s.get(&format!("/invoices/payments?from={bad}")).await;
        assert!(matches!(r.status.as_u16(), 400 | 422), "{bad}: {}", r.body);
    }
    let r = s.get("/invoices/payments?from=2026-01-01").await;
    assert_eq!(r.status, 200, "{}", r.body);
}

#[tokio::test]
async fn a_stored_expense_that_overflows_is_an_error_not_a_panic() {
    let s = start().await;
    let c = s.customer("ACME").await;
    let project = project(&s, c).await;
    // A row written before amounts were range-checked.
    let pool = s.db().await;
    kontor_server::sql::query(
        "INSERT INTO expenses (project_id, date, title, description, quantity, unit, unit_price, unit_cost, currency, billable, created_at, updated_at)
         VALUES ($1, '2026-11-04', 'Old', '', '1000000000000000', '', '1000000000000000', '0', 'EUR', TRUE, '2026-11-04T00:00:00Z', '2026-11-04T00:00:00Z')",
    )
    .bind(project)
    .execute(&pool)
    .await
    .unwrap();
    let r = s.get(&format!("/projects/{project}/expenses")).await;
    assert_eq!(r.status, 500, "{}", r.body);
    assert!(
        r.body["message"].is_string(),
        "a JSON error body: {}",
        r.body
    );
}

#[tokio::test]
async fn the_live_preview_refuses_totals_that_do_not_fit() {
    let s = start().await;
    let c = s.customer("ACME").await;
    let body = invoice_with(
        c,
        r#"{"items": [{"type": "item", "title": "a", "net_total": 5e28}, {"type": "item", "title": "b", "net_total": 5e28}]}"#,
    );
    let r = s.post("/invoices/preview.pdf", body).await;
    assert_field(&r, "items");
}
