//! Summaries and the dashboard over real HTTP (issue 11 § Find and see; contract
//! § Summaries, § Dashboard): `GET /{invoices,offers,purchases}/summary` equal the sums of
//! the listed records for every filter and currency, every invoice carries its
//! `open_amount` (list and detail, also after partial and over-payment), the SQL of
//! `sort=open_amount`/`open`/`overdue` agrees with the model's rule, and `GET /dashboard`
//! reports the known figures of a fixed data set.

mod common;

use chrono::{Datelike, Duration, Local, NaiveDate};
use common::{num, start, TestServer};
use kontor_model::Decimal;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::str::FromStr;

fn dec(v: &Value) -> Decimal {
    Decimal::from_str(&num(v)).unwrap()
}

fn today() -> NaiveDate {
    Local::now().date_naive()
}

fn text(d: NaiveDate) -> String {
    d.format("%Y-%m-%d").to_string()
}

/// Per currency: count, net, gross and (when `open` names the field) open sums of the
/// listed records of `list_path` (all pages of 100).
async fn listed_totals(
    s: &TestServer,
    list_path: &str,
    open: Option<&str>,
) -> BTreeMap<String, (i64, Decimal, Decimal, Decimal)> {
    let mut out: BTreeMap<String, (i64, Decimal, Decimal, Decimal)> = BTreeMap::new();
    // The whole list: without the filter's own paging (which the summary ignores).
    let (path, query) = list_path.split_once('?').unwrap_or((list_path, ""));
    let mut pairs: Vec<&str> = query
        .split('&')
        .filter(|p| !p.is_empty() && !p.starts_with("page=") && !p.starts_with("per_page="))
        .collect();
    pairs.push("per_page=100");
    let r = s.get(&format!("{path}?{}", pairs.join("&"))).await;
    assert_eq!(r.status, 200, "{list_path}: {}", r.body);
    for rec in r.body.as_array().unwrap() {
        let e = out
            .entry(rec["currency"].as_str().unwrap().to_string())
            .or_default();
        e.0 += 1;
        e.1 += dec(&rec["net_total"]);
        e.2 += dec(&rec["gross_total"]);
        if let Some(field) = open {
            e.3 += dec(&rec[field]);
        }
    }
    out
}

/// Asserts that `GET {resource}/summary?{filter}` equals the sums of `GET
/// {resource}?{filter}`; returns the number of currencies.
async fn check_summary(s: &TestServer, resource: &str, filter: &str, open: Option<&str>) -> usize {
    let q = if filter.is_empty() {
        String::new()
    } else {
        format!("?{filter}")
    };
    let listed = listed_totals(s, &format!("{resource}{q}"), open).await;
    let r = s.get(&format!("{resource}/summary{q}")).await;
    assert_eq!(r.status, 200, "{resource}/summary{q}: {}", r.body);
    let totals = r.body["totals"].as_array().unwrap();
    let currencies: Vec<&str> = totals
        .iter()
        .map(|t| t["currency"].as_str().unwrap())
        .collect();
    let expected: Vec<&str> = listed.keys().map(String::as_str).collect();
    assert_eq!(currencies, expected, "{resource}{q}");
    for t in totals {
        let (count, net, gross, open_sum) = &listed[t["currency"].as_str().unwrap()];
        let what = format!("{resource}{q} {}", t["currency"]);
        assert_eq!(t["count"].as_i64(), Some(*count), "{what}");
        assert_eq!(dec(&t["net_total"]), *net, "{what} net");
        assert_eq!(dec(&t["gross_total"]), *gross, "{what} gross");
        match open {
            Some(_) => assert_eq!(dec(&t["open_amount"]), *open_sum, "{what} open"),
            None => assert!(t["open_amount"].is_null(), "{what}: {t}"),
        }
        if t["currency"] == "EUR" {
            // At the currency's places, like every amount.
            assert!(num(&t["gross_total"]).contains('.'), "{what}: {t}");
        }
    }
    totals.len()
}

async fn company(s: &TestServer, name: &str, kind: &str) -> i64 {
    let r = s
        .post(
            "/companies",
            json!({"name": name, "type": kind, "address": "Main St 1\n12345 Town", "email": "billing@example.com"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["id"].as_i64().unwrap()
}

/// An invoice of one position at `price` (net) with 19 % VAT; `extra` merged in.
async fn invoice(s: &TestServer, customer: i64, price: &str, extra: Value) -> Value {
    // Due on 2026-11-17 unless `extra` says otherwise: past the server's date, so every
    // open one is overdue.
    let mut body = json!({
        "due_date": "2026-11-17",
        "items": [{"type": "item", "title": "Work", "quantity": 1, "unit": "h",
                   "unit_price": serde_json::from_str::<Value>(price).unwrap()}]
    });
    common::merge(&mut body, extra);
    let r = s.invoice(customer, body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

async fn pay(s: &TestServer, id: i64, amount: &str) {
    let r = s
        .post(
            "/invoices/payments",
            json!({"invoice_id": id, "date": "2026-11-10",
                   "paid_total": serde_json::from_str::<Value>(amount).unwrap()}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

async fn detail(s: &TestServer, id: i64) -> Value {
    let r = s.get(&format!("/invoices/{id}")).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

fn id(v: &Value) -> i64 {
    v["id"].as_i64().unwrap()
}

#[tokio::test]
async fn invoice_summary_equals_the_listed_sums_for_every_filter() {
    let s = start().await;
    let kranzler = company(&s, "Kranzler GmbH", "customer").await;
    let adler = company(&s, "Adler AG", "customer").await;
    let a = invoice(
        &s,
        kranzler,
        "100",
        json!({"date": "2026-10-03", "due_date": "2026-10-17"}),
    )
    .await;
    let b = invoice(
        &s,
        kranzler,
        "250",
        json!({"date": "2026-11-03", "tags": ["web"]}),
    )
    .await;
    pay(&s, id(&b), "100.25").await;
    invoice(
        &s,
        adler,
        "200",
        json!({"currency": "CHF", "date": "2026-11-04"}),
    )
    .await;
    invoice(
        &s,
        adler,
        "80",
        json!({"status": "draft", "date": "2026-11-05"}),
    )
    .await;
    invoice(
        &s,
        kranzler,
        "33.33",
        json!({"currency": "USD", "date": "2026-11-06"}),
    )
    .await;
    let paid = invoice(&s, adler, "10", json!({"date": "2026-11-07"})).await;
    pay(&s, id(&paid), "11.90").await;
    let reversed = invoice(&s, adler, "70", json!({"date": "2026-11-08"})).await;
    let r = s
        .post(&format!("/invoices/{}/reverse", id(&reversed)), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let ignored = invoice(&s, kranzler, "40", json!({"date": "2026-11-09"})).await;
    let r = s
        .put(
            &format!("/invoices/{}/update_status", id(&ignored)),
            json!({"status": "ignored"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);

    let mut currencies = Vec::new();
    for filter in [
        "",
        "status=created",
        "status=draft,partially_paid",
        "status=paid",
        &format!("company_id={kranzler}"),
        &format!("customer_id={adler}"),
        "term=kranzler",
        "term=adler&status=created",
        "date_from=2026-11-01&date_to=2026-11-06",
        "date_to=2026-10-31",
        "tags=web",
        "open=true",
        "open=false",
        "overdue=true",
        "overdue=false",
        "term=nobody",
        "page=2&per_page=1&sort=gross_total",
    ] {
        currencies.push(check_summary(&s, "/invoices", filter, Some("open_amount")).await);
    }
    assert_eq!(currencies[0], 3, "EUR, CHF and USD");
    assert_eq!(
        currencies[15], 0,
        "an empty result has no totals: {currencies:?}"
    );
    let r = s.get("/invoices/summary?term=nobody").await;
    assert_eq!(r.body, json!({"totals": []}));

    // The figures themselves: EUR open = 119.00 (a) + 297.50 − 100.25 (b) = 316.25;
    // the paid, reversed (and its reversal), ignored and draft invoices owe nothing.
    let r = s.get("/invoices/summary").await;
    let eur = r.body["totals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["currency"] == "EUR")
        .unwrap()
        .clone();
    assert_eq!(num(&eur["open_amount"]), "316.25", "{eur}");
    assert_eq!(eur["count"], 7, "{eur}");
    // Every one is due before the server's date (2026-10-17, the default 2026-11-17):
    // all open ones are overdue.
    let r = s.get("/invoices/summary?overdue=true").await;
    let overdue: Vec<(String, String)> = r.body["totals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["currency"].as_str().unwrap().to_string(),
                num(&t["open_amount"]),
            )
        })
        .collect();
    assert_eq!(
        overdue,
        [
            ("CHF".to_string(), "238.00".to_string()),
            ("EUR".to_string(), "316.25".to_string()),
            ("USD".to_string(), "39.66".to_string())
        ]
    );
    let r = s.get("/invoices?overdue=true").await;
    let ids: Vec<i64> = r.body.as_array().unwrap().iter().map(id).collect();
    assert!(ids.contains(&id(&a)), "{ids:?}");
    // A malformed filter is refused like on the list.
    let r = s.get("/invoices/summary?status=lost").await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body["message"].as_str().unwrap().contains("status"));
    let r = s.get("/invoices/summary?overdue=maybe").await;
    assert_eq!(r.status, 400, "{}", r.body);
}

#[tokio::test]
async fn open_amount_on_list_and_detail_follows_payments_and_status() {
    let s = start().await;
    let c = s.customer("Kranzler GmbH").await;
    let inv = s.invoice(c, json!({})).await.body;
    assert_eq!(num(&inv["open_amount"]), "297.50", "created, unpaid: {inv}");
    pay(&s, id(&inv), "100").await;
    let one = detail(&s, id(&inv)).await;
    assert_eq!(
        (num(&one["open_amount"]), one["status"].as_str()),
        ("197.50".to_string(), Some("partially_paid"))
    );
    let listed = s.get("/invoices").await;
    assert_eq!(num(&listed.body[0]["open_amount"]), "197.50");
    pay(&s, id(&inv), "200").await;
    let over = detail(&s, id(&inv)).await;
    assert_eq!(num(&over["open_amount"]), "0.00", "overpaid: {over}");

    let draft = s.invoice(c, json!({"status": "draft"})).await.body;
    assert_eq!(num(&draft["open_amount"]), "0.00", "{draft}");
    let rev = s.invoice(c, json!({})).await.body;
    let reversal = s
        .post(&format!("/invoices/{}/reverse", id(&rev)), json!({}))
        .await;
    assert_eq!(reversal.status, 200, "{}", reversal.body);
    assert_eq!(num(&detail(&s, id(&rev)).await["open_amount"]), "0.00");
    let reversal_id = reversal.body["reversal_invoice_id"]
        .as_i64()
        .or_else(|| reversal.body["id"].as_i64())
        .unwrap();
    assert_eq!(num(&detail(&s, reversal_id).await["open_amount"]), "0.00");
}

#[tokio::test]
async fn sort_by_open_amount_agrees_with_the_listed_open_amounts() {
    let s = start().await;
    let c = s.customer("Kranzler GmbH").await;
    // Gross order is the reverse of open order.
    let big = invoice(&s, c, "300", json!({})).await;
    pay(&s, id(&big), "400").await;
    let mid = invoice(&s, c, "200", json!({})).await;
    pay(&s, id(&mid), "100").await;
    let small = invoice(&s, c, "100", json!({})).await;
    invoice(&s, c, "500", json!({"status": "draft"})).await;
    let r = s.get("/invoices?sort=open_amount&order=desc").await;
    let listed: Vec<(i64, Decimal)> = r
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (id(v), dec(&v["open_amount"])))
        .collect();
    let opens: Vec<Decimal> = listed.iter().map(|(_, o)| *o).collect();
    let mut sorted = opens.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(opens, sorted, "{listed:?}");
    assert_eq!(listed[0].0, id(&mid), "238.00 − 100 = 138.00 open");
    assert_eq!(listed[1].0, id(&small), "119.00 open");
    assert_eq!(dec(&r.body[0]["open_amount"]).to_string(), "138.00");
    // open=true lists exactly the invoices with something open.
    let r = s.get("/invoices?open=true").await;
    let mut open_ids: Vec<i64> = r.body.as_array().unwrap().iter().map(id).collect();
    open_ids.sort();
    assert_eq!(open_ids, [id(&mid), id(&small)]);
}

#[tokio::test]
async fn offer_and_purchase_summaries_equal_the_listed_sums() {
    let s = start().await;
    let acme = company(&s, "ACME GmbH", "customer").await;
    let zeisig = company(&s, "Zeisig AG", "customer").await;
    for (company_id, currency, date, price, status) in [
        (acme, "EUR", "2026-11-02", 100, None),
        (acme, "EUR", "2026-11-05", 250, Some("sent")),
        (zeisig, "CHF", "2026-11-06", 70, Some("sent")),
        (zeisig, "EUR", "2026-10-01", 33, None),
    ] {
        let r = s
            .post(
                "/offers",
                json!({"company_id": company_id, "recipient_address": "ACME GmbH\nMain St 1",
                       "date": date, "due_date": "2026-12-31", "title": "Relaunch", "tax": 19,
                       "currency": currency,
                       "items": [{"type": "item", "title": "Design", "quantity": 1, "unit": "h", "unit_price": price}]}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        if let Some(status) = status {
            let r = s
                .put(
                    &format!("/offers/{}/update_status", r.body["id"]),
                    json!({"status": status}),
                )
                .await;
            assert_eq!(r.status, 200, "{}", r.body);
        }
    }
    let mut n = Vec::new();
    for filter in [
        "",
        "status=sent",
        "status=created",
        &format!("company_id={acme}"),
        "term=zeisig",
        "from=2026-11-01&to=2026-11-05",
        "term=nothing-like-this",
    ] {
        n.push(check_summary(&s, "/offers", filter, None).await);
    }
    assert_eq!((n[0], n[1], n[6]), (2, 2, 0), "{n:?}");

    let papier = company(&s, "Papier & Co. KG", "supplier").await;
    let mut made = Vec::new();
    for (body, payment) in [
        (
            json!({"company_id": papier, "date": "2026-11-10", "currency": "EUR"}),
            Some("50"),
        ),
        (
            json!({"company_id": papier, "date": "2026-11-12", "currency": "EUR", "status": "approved"}),
            Some("500"),
        ),
        (json!({"date": "2026-10-10", "currency": "CHF"}), None),
        (
            json!({"date": "2026-11-20", "currency": "EUR", "receipt_identifier": "RE-77"}),
            None,
        ),
    ] {
        let mut b = json!({"payment_method": "bank_transfer",
            "items": [{"title": "Printer paper", "total": 119, "tax": 19, "tax_included": true},
                      {"title": "Toner", "total": 10.05, "tax": 19}]});
        common::merge(&mut b, body);
        let r = s.post("/purchases", b).await;
        assert_eq!(r.status, 200, "{}", r.body);
        if let Some(total) = payment {
            let p = s
                .post(
                    "/purchases/payments",
                    json!({"purchase_id": r.body["id"], "date": "2026-11-21",
                           "total": serde_json::from_str::<Value>(total).unwrap()}),
                )
                .await;
            assert_eq!(p.status, 200, "{}", p.body);
        }
        made.push(r.body);
    }
    // The purchases' open amounts (gross − payments, never below 0) as the test computes
    // them, to compare with the summary's.
    let open_of = |i: usize, paid: &str| {
        (dec(&made[i]["gross_total"]) - Decimal::from_str(paid).unwrap()).max(Decimal::ZERO)
    };
    let expected_eur_open = open_of(0, "50") + open_of(1, "500") + open_of(3, "0");
    for filter in [
        "",
        "status=pending",
        &format!("company_id={papier}"),
        "company_id=0",
        "date=2026-11-01:",
        "date=:2026-10-31",
        "unpaid=true",
        "term=toner",
        "term=RE-77",
    ] {
        // Purchases carry no open amount field: compare counts, net and gross with the
        // list, open with the computed figure below.
        let listed = listed_totals(&s, &format!("/purchases?{filter}"), None).await;
        let r = s.get(&format!("/purchases/summary?{filter}")).await;
        assert_eq!(r.status, 200, "{filter}: {}", r.body);
        let totals = r.body["totals"].as_array().unwrap();
        assert_eq!(totals.len(), listed.len(), "{filter}");
        for t in totals {
            let (count, net, gross, _) = listed[t["currency"].as_str().unwrap()];
            assert_eq!(t["count"].as_i64(), Some(count), "{filter}");
            assert_eq!(dec(&t["net_total"]), net, "{filter}");
            assert_eq!(dec(&t["gross_total"]), gross, "{filter}");
            assert!(t["open_amount"].is_number(), "{filter}: {t}");
        }
    }
    let r = s.get("/purchases/summary").await;
    assert_eq!(r.body["totals"][0]["currency"], "CHF");
    assert_eq!(r.body["totals"][1]["currency"], "EUR");
    assert_eq!(dec(&r.body["totals"][1]["open_amount"]), expected_eur_open);
    assert_eq!(
        num(&r.body["totals"][1]["open_amount"]),
        format!("{:.2}", expected_eur_open)
    );
    let r = s.get("/purchases/summary?date=yesterday").await;
    assert_eq!(r.status, 400, "{}", r.body);
}

/// The month `n` months before `d`'s, as `YYYY-MM`.
fn month_before(d: NaiveDate, n: i32) -> String {
    let index = d.year() * 12 + d.month0() as i32 - n;
    format!(
        "{:04}-{:02}",
        index.div_euclid(12),
        index.rem_euclid(12) + 1
    )
}

#[tokio::test]
async fn dashboard_reports_the_figures_of_a_known_data_set() {
    let s = start().await;
    // Empty account: nothing open, twelve zero months, no purchases or offers.
    let r = s.get("/dashboard").await;
    assert_eq!(r.status, 200, "{}", r.body);
    let t = today();
    assert_eq!(r.body["today"], text(t));
    assert_eq!(r.body["receivables"]["open"], json!([]));
    assert_eq!(r.body["receivables"]["oldest"], json!([]));
    assert_eq!(r.body["revenue"]["currency"], "EUR");
    assert_eq!(r.body["revenue"]["months"].as_array().unwrap().len(), 12);
    assert_eq!(r.body["purchases_awaiting_approval"], json!([]));
    assert_eq!(r.body["offers_awaiting_answer"], json!([]));

    let kranzler = company(&s, "Kranzler GmbH", "customer").await;
    let adler = company(&s, "Adler AG", "customer").await;
    let days = |n: i64| text(t + Duration::days(n));
    // Overdue 12 days, nothing paid: 119.00 open.
    let a = invoice(
        &s,
        kranzler,
        "100",
        json!({"date": days(-40), "due_date": days(-12)}),
    )
    .await;
    // Overdue 3 days, 238.00 gross, 38.00 paid: 200.00 open.
    let b = invoice(
        &s,
        adler,
        "200",
        json!({"date": days(-10), "due_date": days(-3)}),
    )
    .await;
    pay(&s, id(&b), "38").await;
    // CHF, overdue 1 day: 59.50 open.
    let c = invoice(
        &s,
        adler,
        "50",
        json!({"currency": "CHF", "date": days(-1), "due_date": days(-1)}),
    )
    .await;
    // Due in 10 days: open, not overdue.
    let d = invoice(
        &s,
        kranzler,
        "10",
        json!({"date": days(0), "due_date": days(10)}),
    )
    .await;
    // Due today: open, not overdue.
    let e = invoice(
        &s,
        kranzler,
        "20",
        json!({"date": days(0), "due_date": days(0)}),
    )
    .await;
    // Not counted as receivables: a draft, a paid invoice, a reversed one (and its reversal).
    invoice(
        &s,
        kranzler,
        "1000",
        json!({"status": "draft", "date": days(-60), "due_date": days(-50)}),
    )
    .await;
    let paid = invoice(
        &s,
        adler,
        "5",
        json!({"date": days(0), "due_date": days(-0)}),
    )
    .await;
    pay(&s, id(&paid), "5.95").await;
    let rev = invoice(
        &s,
        adler,
        "400",
        json!({"date": days(0), "due_date": days(-0)}),
    )
    .await;
    let r = s
        .post(&format!("/invoices/{}/reverse", id(&rev)), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Revenue only (paid in full): twelve months ago (outside the chart) and two months ago.
    let old = invoice(
        &s,
        kranzler,
        "777",
        json!({"date": month_before(t, 12) + "-15", "due_date": month_before(t, 12) + "-28"}),
    )
    .await;
    pay(&s, id(&old), "924.63").await;
    let recent = invoice(
        &s,
        kranzler,
        "300",
        json!({"date": month_before(t, 2) + "-10", "due_date": month_before(t, 2) + "-11"}),
    )
    .await;
    pay(&s, id(&recent), "357").await;

    // Purchases: two pending in EUR, one approved; offers: one sent, one created.
    for status in ["pending", "pending", "approved"] {
        let r = s
            .post(
                "/purchases",
                json!({"date": days(0), "currency": "EUR", "payment_method": "bank_transfer", "status": status,
                       "items": [{"title": "Paper", "total": 119, "tax": 19, "tax_included": true}]}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    for status in ["sent", "created"] {
        let r = s
            .post(
                "/offers",
                json!({"company_id": kranzler, "recipient_address": "Kranzler GmbH", "date": days(0),
                       "due_date": days(30), "title": "Relaunch", "tax": 19, "currency": "EUR",
                       "items": [{"type": "item", "title": "Design", "quantity": 2, "unit": "h", "unit_price": 125}]}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        if status == "sent" {
            let r = s
                .put(
                    &format!("/offers/{}/update_status", r.body["id"]),
                    json!({"status": "sent"}),
                )
                .await;
            assert_eq!(r.status, 200, "{}", r.body);
        }
    }

    let r = s.get("/dashboard").await;
    assert_eq!(r.status, 200, "{}", r.body);
    let dash = &r.body;
    let figures = |v: &Value, amount: &str| {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| {
                (
                    x["currency"].as_str().unwrap().to_string(),
                    x["count"].as_i64().unwrap(),
                    num(&x[amount]),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        figures(&dash["receivables"]["open"], "amount"),
        [
            ("CHF".to_string(), 1, "59.50".to_string()),
            // 119.00 + 200.00 + 11.90 + 23.80
            ("EUR".to_string(), 4, "354.70".to_string())
        ],
        "{dash}"
    );
    assert_eq!(
        figures(&dash["receivables"]["overdue"], "amount"),
        [
            ("CHF".to_string(), 1, "59.50".to_string()),
            ("EUR".to_string(), 2, "319.00".to_string())
        ]
    );
    let oldest: Vec<(i64, i64, String)> = dash["receivables"]["oldest"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                id(o),
                o["days_overdue"].as_i64().unwrap(),
                num(&o["open_amount"]),
            )
        })
        .collect();
    assert_eq!(
        oldest,
        [
            (id(&a), 12, "119.00".to_string()),
            (id(&b), 3, "200.00".to_string()),
            (id(&c), 1, "59.50".to_string()),
            (id(&e), 0, "23.80".to_string()),
            (id(&d), 0, "11.90".to_string()),
        ]
    );
    let first = &dash["receivables"]["oldest"][0];
    assert_eq!(
        first["customer"],
        json!({"id": kranzler, "name": "Kranzler GmbH"})
    );
    assert_eq!(first["currency"], "EUR");
    assert_eq!(first["due_date"], days(-12));
    assert!(first["identifier"].as_str().unwrap().starts_with('R'));

    // The figures equal the lists they link to.
    let open = s.get("/invoices/summary?open=true").await;
    let overdue = s.get("/invoices/summary?overdue=true").await;
    for (figure, summary) in [("open", &open.body), ("overdue", &overdue.body)] {
        let from_summary: Vec<(String, i64, String)> = summary["totals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                (
                    t["currency"].as_str().unwrap().to_string(),
                    t["count"].as_i64().unwrap(),
                    num(&t["open_amount"]),
                )
            })
            .collect();
        assert_eq!(
            figures(&dash["receivables"][figure], "amount"),
            from_summary,
            "{figure}"
        );
    }

    // Revenue: twelve months, the current one last, EUR finalized invoices by date
    // (the reversal cancels its original; the CHF one and the draft do not count).
    let months = dash["revenue"]["months"].as_array().unwrap();
    assert_eq!(months.len(), 12);
    assert_eq!(months[11]["month"], month_before(t, 0));
    assert_eq!(months[0]["month"], month_before(t, 11));
    let mut expected: BTreeMap<String, Decimal> = BTreeMap::new();
    for (date, net) in [
        (t - Duration::days(40), "100"),
        (t - Duration::days(10), "200"),
        (t, "10"),
        (t, "20"),
        (t, "5"),
    ] {
        *expected
            .entry(date.format("%Y-%m").to_string())
            .or_default() += Decimal::from_str(net).unwrap();
    }
    *expected.entry(month_before(t, 2)).or_default() += Decimal::from(300);
    for m in months {
        let month = m["month"].as_str().unwrap();
        assert_eq!(
            dec(&m["net_total"]),
            expected.get(month).copied().unwrap_or_default(),
            "{month}: {months:?}"
        );
        assert!(num(&m["net_total"]).contains('.'), "{m}");
    }
    assert_eq!(
        figures(&dash["purchases_awaiting_approval"], "gross_total"),
        [("EUR".to_string(), 2, "238.00".to_string())]
    );
    assert_eq!(
        figures(&dash["offers_awaiting_answer"], "net_total"),
        [("EUR".to_string(), 1, "250.00".to_string())]
    );
}

/// The to-do list (issue 33): every kind with its count, and each `href` opens a list of
/// exactly that many records.
#[tokio::test]
async fn the_todo_list_counts_what_to_do_and_links_the_exact_list() {
    let s = start().await;
    let t = today();
    let days = |n: i64| text(t + Duration::days(n));
    let todo = |body: &Value| -> BTreeMap<String, (i64, String)> {
        body["todo"]
            .as_array()
            .expect("todo")
            .iter()
            .map(|i| {
                (
                    i["kind"].as_str().unwrap().to_string(),
                    (
                        i["count"].as_i64().unwrap(),
                        i["href"].as_str().unwrap().to_string(),
                    ),
                )
            })
            .collect()
    };
    let empty = todo(&s.get("/dashboard").await.body);
    assert_eq!(empty.len(), 8, "{empty:?}");
    // Nothing to do but setting up a mail server (the test account has none, issue 33).
    assert_eq!(empty["smtp_not_set_up"], (1, "/settings#smtp".to_string()));
    assert!(
        empty
            .iter()
            .all(|(kind, (n, _))| *n == 0 || kind == "smtp_not_set_up"),
        "{empty:?}"
    );
    assert_eq!(empty["emails_failed"].1, "/mail?open=true");
    assert_eq!(empty["invoices_to_remind"].1, "/dunning");

    let kranzler = company(&s, "Kranzler GmbH", "customer").await;
    // Two old drafts (dated 3 and 10 days ago) and a fresh one (2 days ago).
    for n in [-3, -10, -2] {
        invoice(
            &s,
            kranzler,
            "10",
            json!({"status": "draft", "date": days(n), "due_date": days(n + 14)}),
        )
        .await;
    }
    // Overdue for 40 days without a reminder: the first level is due.
    invoice(
        &s,
        kranzler,
        "100",
        json!({"date": days(-60), "due_date": days(-40)}),
    )
    .await;
    // Due tomorrow: nothing to remind yet.
    invoice(
        &s,
        kranzler,
        "100",
        json!({"date": days(-5), "due_date": days(1)}),
    )
    .await;
    // Sent offers valid until in 3 and in 10 days, and one that ran out yesterday.
    for valid in [3, 10, -1] {
        let r = s
            .post(
                "/offers",
                json!({"company_id": kranzler, "recipient_address": "Kranzler GmbH\nMain St 1",
                       "date": days(-20), "due_date": days(valid), "title": "Relaunch", "tax": 19,
                       "items": [{"type": "item", "title": "Design", "quantity": 1, "unit_price": 100}]}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let sent = s
            .put(
                &format!("/offers/{}/update_status", r.body["id"]),
                json!({"status": "sent"}),
            )
            .await;
        assert_eq!(sent.status, 200, "{}", sent.body);
    }
    // A purchase to approve.
    let r = s
        .post(
            "/purchases",
            json!({"date": days(-1), "currency": "EUR", "payment_method": "bank_transfer",
                   "items": [{"title": "Toner", "total": 10, "tax": 19}]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);

    let list = todo(&s.get("/dashboard").await.body);
    assert_eq!(list["old_drafts"].0, 2, "{list:?}");
    assert_eq!(list["invoices_to_remind"].0, 1, "{list:?}");
    assert_eq!(list["offers_expiring"].0, 1, "{list:?}");
    assert_eq!(list["purchases_to_approve"].0, 1, "{list:?}");
    assert_eq!(list["recurring_failed"].0, 0, "{list:?}");
    assert_eq!(list["bank_transactions_to_review"].0, 0, "{list:?}");

    // Each link's list holds exactly the counted records.
    for kind in ["old_drafts", "offers_expiring", "purchases_to_approve"] {
        let (count, href) = &list[kind];
        let r = s.get(href).await;
        assert_eq!(r.status, 200, "{href}: {}", r.body);
        assert_eq!(
            r.body.as_array().unwrap().len() as i64,
            *count,
            "{kind}: {href} lists {}",
            r.body
        );
    }
    let overdue = s.get("/invoices/overdue").await.body;
    let due_now = overdue
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| {
            i["next_dunning_on"]
                .as_str()
                .is_some_and(|d| d <= text(t).as_str())
        })
        .count();
    assert_eq!(due_now as i64, list["invoices_to_remind"].0);
}
