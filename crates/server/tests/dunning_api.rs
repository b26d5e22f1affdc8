//! Issue 14 § Rules, dunning levels over HTTP: `GET /dunning_levels` gives the account's
//! levels (the defaults until an admin changes them), `PUT /dunning_levels` replaces them
//! as a whole after the model's checks (422 naming `levels[i].field`), admins only.

mod common;

use chrono::Datelike;
use common::people::{send_as, user_with_role};
use common::{num, start};
use reqwest::Method;
use serde_json::{json, Value};

fn level(n: u8, days: i64, fee: &str, de: &str) -> Value {
    json!({
        "level": n,
        "name": {"en": format!("Level {n}"), "de": format!("Stufe {n}")},
        "days": days,
        "fee": serde_json::from_str::<Value>(fee).unwrap(),
        "flat_fee": n == 2,
        "text": {"en": "Invoice {invoice_number} is open: {open_amount}.", "de": de}
    })
}

#[tokio::test]
async fn a_new_account_has_the_three_default_levels() {
    let s = start().await;
    let r = s.get("/dunning_levels").await;
    assert_eq!(r.status, 200, "{}", r.body);
    let levels = r.body["levels"].as_array().unwrap();
    let summary: Vec<(i64, String, i64, String)> = levels
        .iter()
        .map(|l| {
            (
                l["level"].as_i64().unwrap(),
                l["name"]["de"].as_str().unwrap().to_string(),
                l["days"].as_i64().unwrap(),
                num(&l["fee"]),
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            (1, "Zahlungserinnerung".into(), 7, "0".into()),
            (2, "Mahnung".into(), 14, "5.00".into()),
            (3, "Letzte Mahnung".into(), 14, "10.00".into()),
        ]
    );
    assert!(
        levels[0]["text"]["de"]
            .as_str()
            .unwrap()
            .contains("{invoice_number}"),
        "{}",
        levels[0]
    );
}

#[tokio::test]
async fn admins_replace_the_levels_and_bad_levels_are_refused_by_field() {
    let s = start().await;
    let four = json!({"levels": [
        level(1, 5, "0", "Rechnung {invoice_number}: offen {open_amount}."),
        level(2, 10, "2.50", "Mahnung zu {invoice_number}, Gebühren {fees}, Zinsen {interest}."),
        level(3, 10, "7.50", "Letzte Mahnung zu {invoice_number} bis {new_due_date}."),
        level(4, 30, "15", "Inkasso-Ankündigung zu {invoice_number} vom {invoice_date}."),
    ]});
    let r = s.put("/dunning_levels", four.clone()).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let stored = s.get("/dunning_levels").await;
    assert_eq!(stored.status, 200);
    assert_eq!(stored.body["levels"].as_array().unwrap().len(), 4);
    assert_eq!(num(&stored.body["levels"][1]["fee"]), "2.50");
    assert_eq!(stored.body["levels"][1]["flat_fee"], true);
    assert_eq!(stored.body["levels"][3]["days"], 30);
    assert_eq!(stored.body, r.body, "PUT answers what GET reads");

    // Each broken rule is named by its field; nothing is stored.
    let bad = json!({"levels": [
        level(1, 400, "0", "Rechnung {invoice_number}."),
        level(3, 10, "-1", "Mahnung {rechnungsnummer}."),
    ]});
    let r = s.put("/dunning_levels", bad).await;
    assert_eq!(r.status, 422, "{}", r.body);
    let errors = r.body["errors"].as_object().unwrap();
    for field in [
        "levels[0].days",
        "levels[1].level",
        "levels[1].fee",
        "levels[1].text.de",
    ] {
        assert!(errors.contains_key(field), "{field} in {}", r.body);
    }
    assert!(
        r.body["errors"]["levels[1].text.de"][0]
            .as_str()
            .unwrap()
            .contains("{rechnungsnummer}"),
        "{}",
        r.body
    );
    let r = s.put("/dunning_levels", json!({"levels": []})).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["errors"]["levels"].is_array(), "{}", r.body);
    let r = s
        .put("/dunning_levels", json!({"levels": [{"level": 1}]}))
        .await;
    assert!(
        r.status == 400 || r.status == 422,
        "a level without its fields: {} {}",
        r.status,
        r.body
    );
    let after = s.get("/dunning_levels").await;
    assert_eq!(after.body, stored.body, "refused changes store nothing");

    // Staff read the levels but do not change them.
    let (_, staff) = user_with_role(&s, "staff@example.com", "staff").await;
    let r = send_as(&s, Some(&staff), Method::GET, "/dunning_levels", None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = send_as(&s, Some(&staff), Method::PUT, "/dunning_levels", Some(four)).await;
    assert_eq!(r.status, 403, "{}", r.body);
}

fn today() -> chrono::NaiveDate {
    chrono::Local::now().date_naive()
}

fn days(n: i64) -> chrono::Duration {
    chrono::Duration::days(n)
}

#[tokio::test]
async fn overdue_invoices_are_reminded_level_by_level_with_fees_and_interest() {
    let s = start().await;
    let a = s.customer("Hafen Logistik GmbH").await;
    let b = s.customer("Kranzler Bau GmbH").await;
    let due = today() - days(45);
    let create = |customer: i64, overrides: Value| {
        let s = &s;
        async move {
            let mut body = common::invoice_body(customer);
            body["date"] = json!((due - days(14)).to_string());
            body["due_date"] = json!(due.to_string());
            common::merge(&mut body, overrides);
            let r = s.post("/invoices", body).await;
            assert!(r.status.is_success(), "{}", r.body);
            r.body["id"].as_i64().unwrap()
        }
    };
    // 250 net + 19 % = 297.50 gross each.
    let first = create(a, json!({})).await;
    let partly = create(b, json!({})).await;
    let r = s
        .post(
            "/invoices/payments",
            json!({"invoice_id": partly, "date": due.to_string(), "paid_total": 100}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let not_due = create(a, json!({"due_date": (today() + days(10)).to_string()})).await;
    let draft = create(a, json!({"status": "draft"})).await;

    let r = s.get("/invoices/overdue").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("x-total"), "2", "{}", r.body);
    let ids: Vec<i64> = r
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_i64().unwrap())
        .collect();
    assert_eq!(
        ids,
        vec![first, partly],
        "oldest due first, only the overdue ones"
    );
    let row = &r.body[1];
    assert_eq!(num(&row["open_amount"]), "197.50", "{row}");
    assert_eq!(row["days_overdue"], 45, "{row}");
    assert_eq!(row["last_dunning_level"], 0, "{row}");
    assert_eq!(row["next_dunning_level"], 1, "{row}");
    assert_eq!(
        row["next_dunning_on"],
        json!((due + days(7)).to_string()),
        "{row}"
    );
    assert_eq!(row["customer"]["name"], "Kranzler Bau GmbH", "{row}");
    let r = s.get(&format!("/invoices/overdue?customer_id={b}")).await;
    assert_eq!(r.header("x-total"), "1", "{}", r.body);

    // Level 1: no fee; asked for interest: base rate 1.27 + 9 = 10.27 % for 45 days on
    // 297.50 = 3.77 (297.50 × 10.27 / 100 × 45 / 365 = 3.7668…).
    let r = s
        .post(
            "/invoice_reminders",
            json!({"invoice_id": first, "date": today().to_string(), "charge_interest": true}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let reminder = r.body.clone();
    assert_eq!(reminder["dunning_level"], 1, "{reminder}");
    assert_eq!(num(&reminder["fee"]), "0.00", "{reminder}");
    assert_eq!(num(&reminder["open_amount"]), "297.50", "{reminder}");
    assert_eq!(reminder["days_overdue"], 45, "{reminder}");
    assert_eq!(num(&reminder["interest_rate"]), "10.27", "{reminder}");
    assert_eq!(num(&reminder["interest"]), "3.77", "{reminder}");
    assert_eq!(
        reminder["due_date"],
        json!((today() + days(14)).to_string()),
        "due again when level 2 would be: {reminder}"
    );
    assert_eq!(reminder["sent_on"], Value::Null, "{reminder}");
    // Level 2 follows with its fee; the detail lists both.
    let r = s
        .post(
            "/invoice_reminders",
            json!({"invoice_id": first, "date": today().to_string(), "due_date": (today() + days(7)).to_string()}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["dunning_level"], 2, "{}", r.body);
    assert_eq!(num(&r.body["fee"]), "5.00", "{}", r.body);
    assert_eq!(r.body["interest_rate"], Value::Null, "{}", r.body);
    let detail = s.get(&format!("/invoices/{first}")).await;
    let levels: Vec<i64> = detail.body["reminders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["dunning_level"].as_i64().unwrap())
        .collect();
    assert_eq!(levels, vec![1, 2], "{}", detail.body);
    // A reminder made in error is deleted while unsent; the level is free again.
    let extra = s
        .post(
            "/invoice_reminders",
            json!({"invoice_id": partly, "date": today().to_string()}),
        )
        .await;
    assert_eq!(extra.status, 200, "{}", extra.body);
    let extra_id = extra.body["id"].as_i64().unwrap();
    let r = s
        .delete(&format!("/invoice_reminders/{extra_id}"), None)
        .await;
    assert_eq!(r.status, 204, "{}", r.body);
    let r = s.get(&format!("/invoice_reminders/{extra_id}")).await;
    assert_eq!(r.status, 404, "{}", r.body);
    let r = s
        .delete(&format!("/invoice_reminders/{extra_id}"), None)
        .await;
    assert_eq!(r.status, 404, "{}", r.body);
    let r = s.get("/invoices/overdue?level=3").await;
    assert_eq!(r.header("x-total"), "1", "{}", r.body);
    assert_eq!(r.body[0]["id"], first, "{}", r.body);
    assert_eq!(r.body[0]["last_dunning_level"], 2, "{}", r.body);

    // Bad choices are refused by field.
    let r = s
        .post(
            "/invoice_reminders",
            json!({"invoice_id": first, "date": today().to_string(), "dunning_level": 7}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["errors"]["dunning_level"].is_array(), "{}", r.body);
    let r = s
        .post(
            "/invoice_reminders",
            json!({"invoice_id": first, "date": today().to_string(), "charge_interest": true, "interest_rate": 31}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["errors"]["interest_rate"].is_array(), "{}", r.body);

    // Bulk: the next level for each, or why not, in order.
    let r = s
        .post(
            "/invoice_reminders/bulk",
            json!({"invoice_ids": [first, partly, draft, 999_999]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let results = r.body["results"].as_array().unwrap();
    assert_eq!(results.len(), 4, "{}", r.body);
    assert_eq!(results[0]["reminder"]["dunning_level"], 3, "{}", r.body);
    assert_eq!(num(&results[0]["reminder"]["fee"]), "10.00", "{}", r.body);
    assert_eq!(results[1]["reminder"]["dunning_level"], 1, "{}", r.body);
    assert_eq!(
        num(&results[1]["reminder"]["open_amount"]),
        "197.50",
        "{}",
        r.body
    );
    assert_eq!(
        results[1]["reminder"]["date"],
        json!(today().to_string()),
        "{}",
        r.body
    );
    for refused in &results[2..] {
        assert_eq!(refused["reminder"], Value::Null, "{}", r.body);
        assert!(
            refused["error"]["errors"]["invoice_id"].is_array(),
            "{}",
            r.body
        );
    }
    // Past the last level nothing is created without a level to repeat.
    let r = s
        .post("/invoice_reminders/bulk", json!({"invoice_ids": [first]}))
        .await;
    assert!(
        r.body["results"][0]["error"]["errors"]["dunning_level"].is_array(),
        "{}",
        r.body
    );
    let r = s.get("/invoices/overdue?level=4").await;
    assert_eq!(r.header("x-total"), "0", "past the last level: {}", r.body);
    let r = s.get(&format!("/invoices/overdue?customer_id={a}")).await;
    assert_eq!(r.body[0]["next_dunning_level"], Value::Null, "{}", r.body);
    // Not overdue yet (issue 14 § Bad input): 422 naming invoice_id, nothing stored.
    let r = s
        .post(
            "/invoice_reminders",
            json!({"invoice_id": not_due, "date": today().to_string()}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body["errors"]["invoice_id"][0]
            .as_str()
            .unwrap()
            .contains("not overdue"),
        "{}",
        r.body
    );
    let stored = s
        .get(&format!("/invoice_reminders?invoice_id={not_due}"))
        .await;
    assert_eq!(stored.body, json!([]), "nothing stored");
    for bad in [
        json!({"invoice_ids": []}),
        json!({"invoice_ids": [first, first]}),
    ] {
        let r = s.post("/invoice_reminders/bulk", bad).await;
        assert_eq!(r.status, 422, "{}", r.body);
        assert!(r.body["errors"]["invoice_ids"].is_array(), "{}", r.body);
    }
}

#[tokio::test]
async fn the_base_rate_table_is_the_published_one_until_an_admin_extends_it() {
    let s = start().await;
    let r = s.get("/base_rates").await;
    assert_eq!(r.status, 200, "{}", r.body);
    let rows = r.body["base_rates"].as_array().unwrap();
    assert_eq!(rows[0]["from"], "2020-01-01", "{}", r.body);
    assert_eq!(num(&rows[0]["rate"]), "-0.88", "{}", r.body);
    let mut extended = rows.clone();
    extended.push(json!({"from": "2026-07-01", "rate": 2.5}));
    let r = s.put("/base_rates", json!({"base_rates": extended})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.body["base_rates"].as_array().unwrap().len(),
        rows.len() + 1
    );
    let r = s
        .put(
            "/base_rates",
            json!({"base_rates": [{"from": "2026-07-01", "rate": 2.5}, {"from": "2026-01-01", "rate": 99}]}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body["errors"]["base_rates[1].from"].is_array(),
        "{}",
        r.body
    );
    assert!(
        r.body["errors"]["base_rates[1].rate"].is_array(),
        "{}",
        r.body
    );
}

#[tokio::test]
async fn a_consumer_customer_owes_five_points_and_no_flat_fee() {
    let s = start().await;
    let r = s
        .post(
            "/companies",
            json!({"name": "Erika Mustermann", "address": "Gartenweg 3\n12345 Dorf",
                   "customer_vat": {"tax": 19}, "consumer": true}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["consumer"], true, "{}", r.body);
    let consumer = r.body["id"].as_i64().unwrap();
    // An edit that does not name the flag keeps it.
    let r = s
        .put(
            &format!("/companies/{consumer}"),
            json!({"phone": "+49 30 123"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["consumer"], true, "{}", r.body);
    let business = s.customer("Hafen Logistik GmbH").await;
    assert_eq!(
        s.get(&format!("/companies/{business}")).await.body["consumer"],
        false
    );

    let mut levels = s.get("/dunning_levels").await.body;
    levels["levels"][0]["flat_fee"] = json!(true);
    let r = s.put("/dunning_levels", levels).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let due = today() - days(10);
    let mut claims = Vec::new();
    for customer in [consumer, business] {
        let mut body = common::invoice_body(customer);
        body["date"] = json!((due - days(14)).to_string());
        body["due_date"] = json!(due.to_string());
        let r = s.post("/invoices", body).await;
        assert!(r.status.is_success(), "{}", r.body);
        let id = r.body["id"].as_i64().unwrap();
        let r = s
            .post(
                "/invoice_reminders",
                json!({"invoice_id": id, "date": today().to_string(), "charge_interest": true}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        claims.push(r.body);
    }
    assert_eq!(num(&claims[0]["interest_rate"]), "6.27", "{}", claims[0]);
    assert_eq!(num(&claims[0]["flat_fee"]), "0.00", "{}", claims[0]);
    assert_eq!(num(&claims[1]["interest_rate"]), "10.27", "{}", claims[1]);
    assert_eq!(num(&claims[1]["flat_fee"]), "40.00", "{}", claims[1]);
}

/// Issue 14 § Overdue: a created or sent invoice whose due date has passed with something
/// open reads as `overdue` in the detail and the list, and `status=overdue` finds exactly
/// those; due today, paid, partly paid, ignored, reversed and draft invoices keep their
/// status.
#[tokio::test]
async fn past_due_invoices_read_and_filter_as_overdue() {
    let s = start().await;
    let c = s.customer("Hafen Logistik GmbH").await;
    let create = |title: &str, due: chrono::NaiveDate, extra: Value| {
        let s = &s;
        let title = title.to_string();
        async move {
            let mut body = common::invoice_body(c);
            body["title"] = json!(title);
            body["date"] = json!((today() - days(60)).to_string());
            body["due_date"] = json!(due.to_string());
            common::merge(&mut body, extra);
            let r = s.post("/invoices", body).await;
            assert!(r.status.is_success(), "{}", r.body);
            r.body["id"].as_i64().unwrap()
        }
    };
    let yesterday = today() - days(1);
    let created = create("created, due yesterday", yesterday, json!({})).await;
    let sent = create("sent, due yesterday", yesterday, json!({})).await;
    let r = s
        .put(
            &format!("/invoices/{sent}/update_status"),
            json!({"status": "sent"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["status"], "overdue", "sent but past due: {}", r.body);
    create("due today", today(), json!({})).await;
    let paid = create("paid", yesterday, json!({})).await;
    let partly = create("partly paid", yesterday, json!({})).await;
    for (id, amount) in [(paid, "297.50"), (partly, "100")] {
        let r = s
            .post(
                "/invoices/payments",
                json!({"invoice_id": id, "date": today().to_string(),
                       "paid_total": serde_json::from_str::<Value>(amount).unwrap()}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let ignored = create("ignored", yesterday, json!({})).await;
    let r = s
        .put(
            &format!("/invoices/{ignored}/update_status"),
            json!({"status": "ignored"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let reversed = create("reversed", yesterday, json!({})).await;
    let r = s
        .post(&format!("/invoices/{reversed}/reverse"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    create("draft", yesterday, json!({"status": "draft"})).await;

    let expected = [
        ("created, due yesterday", "overdue"),
        ("sent, due yesterday", "overdue"),
        ("due today", "created"),
        ("paid", "paid"),
        ("partly paid", "partially_paid"),
        ("ignored", "ignored"),
        ("reversed", "created"),
        ("draft", "draft"),
    ];
    let list = s.get("/invoices?per_page=100").await;
    assert_eq!(list.status, 200, "{}", list.body);
    for (title, status) in expected {
        let row = list
            .body
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["title"] == title)
            .unwrap_or_else(|| panic!("{title} listed"));
        assert_eq!(row["status"], status, "list: {title}");
        let detail = s.get(&format!("/invoices/{}", row["id"])).await;
        assert_eq!(detail.body["status"], status, "detail: {title}");
    }
    let titles = |r: &common::Reply| -> Vec<String> {
        let mut t: Vec<String> = r
            .body
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                let title = i["title"].as_str().unwrap();
                // The reversal's title is in the customer's language (issue 29).
                match title
                    .strip_prefix("Reversal of invoice ")
                    .or_else(|| title.strip_prefix("Stornorechnung zu Rechnung "))
                {
                    Some(rest) => {
                        format!("Reversal of invoice …{}", &rest[rest.find(':').unwrap()..])
                    }
                    None => title.to_string(),
                }
            })
            .collect();
        t.sort();
        t
    };
    assert_eq!(
        titles(&s.get("/invoices?status=overdue").await),
        ["created, due yesterday", "sent, due yesterday"]
    );
    assert_eq!(
        titles(&s.get("/invoices?status=created,sent").await),
        ["Reversal of invoice …: reversed", "due today", "reversed"],
        "the overdue ones no longer count as created or sent"
    );
    // A payment that clears an overdue invoice makes it paid.
    let r = s
        .post(
            "/invoices/payments",
            json!({"invoice_id": created, "date": today().to_string(), "paid_total": 297.5}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        s.get(&format!("/invoices/{created}")).await.body["status"],
        "paid"
    );
    // Deleting the payment brings the overdue status back.
    let r = s
        .delete(&format!("/invoices/payments/{}", r.body["id"]), None)
        .await;
    assert_eq!(r.status, 204, "{}", r.body);
    assert_eq!(
        s.get(&format!("/invoices/{created}")).await.body["status"],
        "overdue"
    );
}

/// Issue 14 § Cash discount: a payment within the discount days that equals the gross
/// minus the discount settles the invoice (paid, open 0) and records the discount it
/// took; a correction that breaks the condition takes the discount back.
#[tokio::test]
async fn a_payment_of_gross_minus_cash_discount_in_time_settles_the_invoice() {
    let s = start().await;
    let c = s.customer("Hafen Logistik GmbH").await;
    let mut body = common::invoice_body(c);
    body["date"] = json!((today() - days(5)).to_string());
    body["cash_discount"] = json!(2);
    body["cash_discount_days"] = json!(10);
    let r = s.post("/invoices", body.clone()).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    // 297.50 gross, 2 % = 5.95: 291.55 settles it.
    let r = s
        .post(
            "/invoices/payments",
            json!({"invoice_id": id, "date": today().to_string(), "paid_total": 291.55}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(num(&r.body["cash_discount"]), "5.95", "{}", r.body);
    let payment = r.body["id"].as_i64().unwrap();
    let inv = s.get(&format!("/invoices/{id}")).await.body;
    assert_eq!(inv["status"], "paid", "{inv}");
    assert_eq!(num(&inv["open_amount"]), "0.00", "{inv}");
    assert_eq!(num(&inv["payments"][0]["cash_discount"]), "5.95", "{inv}");
    let summary = s.get("/invoices/summary").await.body;
    assert_eq!(
        num(&summary["totals"][0]["open_amount"]),
        "0.00",
        "{summary}"
    );
    let overdue = s.get("/invoices/overdue").await;
    assert_eq!(overdue.header("x-total"), "0");

    // Corrected to less: no discount, partly paid, 5.96 open.
    let r = s
        .put(
            &format!("/invoices/payments/{payment}"),
            json!({"date": today().to_string(), "paid_total": 291.54}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(num(&r.body["cash_discount"]), "0.00", "{}", r.body);
    let inv = s.get(&format!("/invoices/{id}")).await.body;
    assert_eq!(inv["status"], "partially_paid", "{inv}");
    assert_eq!(num(&inv["open_amount"]), "5.96", "{inv}");
    let summary = s.get("/invoices/summary").await.body;
    assert_eq!(
        num(&summary["totals"][0]["open_amount"]),
        "5.96",
        "{summary}"
    );

    // The same amount after the discount days: no discount either.
    let mut late = body;
    late["date"] = json!((today() - days(30)).to_string());
    let r = s.post("/invoices", late).await;
    let late = r.body["id"].as_i64().unwrap();
    let r = s
        .post(
            "/invoices/payments",
            json!({"invoice_id": late, "date": today().to_string(), "paid_total": 291.55}),
        )
        .await;
    assert_eq!(num(&r.body["cash_discount"]), "0.00", "{}", r.body);
    let inv = s.get(&format!("/invoices/{late}")).await.body;
    assert_eq!(inv["status"], "partially_paid", "{inv}");
    assert_eq!(num(&inv["open_amount"]), "5.95", "{inv}");
}

/// German money as the letter prints it below 1,000: `197.50` → `197,50 EUR`.
fn de_money(amount: &str) -> String {
    format!("{} EUR", amount.replace('.', ","))
}

/// Issue 14 § API: `GET /invoice_reminders/{id}.pdf` is the reminder letter (the open
/// items with the payment received, the fee, the flat fee, the interest, the amount due,
/// the new due date and the bank account); `POST /invoice_reminders/{id}/send_email` sends
/// it with the invoice's PDF attached to the invoice's recipients and marks it sent, after
/// which it cannot be deleted.
#[tokio::test]
async fn the_reminder_letter_claims_open_items_fees_and_interest_and_is_sent_with_the_invoice() {
    let mail = common::smtp::smtp_server().await;
    let s = common::smtp::start_sending_to(mail.port).await;
    let r = s
        .put(
            "/account",
            json!({"name": "Nordlicht Software GmbH", "address": "Friedrichstraße 68\n10117 Berlin",
                   "email": "billing@nordlicht.example", "iban": "DE02120300000000202051"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // The default levels with the § 288 (5) flat fee switched on at level 2.
    let mut levels = s.get("/dunning_levels").await.body;
    levels["levels"][1]["flat_fee"] = json!(true);
    let r = s.put("/dunning_levels", levels).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let c = s.customer("Hafen Logistik GmbH").await;
    let due = today() - days(45);
    let mut body = common::invoice_body(c);
    body["date"] = json!((due - days(14)).to_string());
    body["due_date"] = json!(due.to_string());
    let r = s.post("/invoices", body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let invoice = r.body["id"].as_i64().unwrap();
    let number = r.body["identifier"].as_str().unwrap().to_string();
    let paid_on = due - days(3);
    let r = s
        .post(
            "/invoices/payments",
            json!({"invoice_id": invoice, "date": paid_on.to_string(), "paid_total": 100}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s
        .post(
            "/invoice_reminders",
            json!({"invoice_id": invoice, "date": today().to_string(), "dunning_level": 2,
                   "charge_interest": true}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let reminder = r.body.clone();
    let id = reminder["id"].as_i64().unwrap();
    assert_eq!(num(&reminder["open_amount"]), "197.50");
    let (fee, flat, interest) = (
        num(&reminder["fee"]),
        num(&reminder["flat_fee"]),
        num(&reminder["interest"]),
    );
    assert_eq!((fee.as_str(), flat.as_str()), ("5.00", "40.00"));
    let due_total: rust_decimal::Decimal = ["197.50", &fee, &flat, &interest]
        .iter()
        .map(|a| a.parse::<rust_decimal::Decimal>().unwrap())
        .sum();

    let (status, _, pdf) = s.bytes(&format!("/invoice_reminders/{id}.pdf")).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&pdf));
    // Words as read, one space between them (the totals' labels and amounts are columns).
    let text = common::pdftotext(&pdf)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let new_due =
        chrono::NaiveDate::parse_from_str(reminder["due_date"].as_str().unwrap(), "%Y-%m-%d")
            .unwrap()
            .format("%d.%m.%Y")
            .to_string();
    for expected in [
        format!("Mahnung zu Rechnung {number}"),
        format!(
            "Rechnung {number} vom {}",
            (due - days(14)).format("%d.%m.%Y")
        ),
        "297,50 EUR".to_string(),
        format!("Zahlung vom {}", paid_on.format("%d.%m.%Y")),
        "-100,00 EUR".to_string(),
        format!("Offener Betrag {}", de_money("197.50")),
        format!("Mahngebühr {}", de_money(&fee)),
        format!("Verzugspauschale {}", de_money(&flat)),
        format!("Zinsen 10,27 % (45 Tage) {}", de_money(&interest)),
        de_money(&interest),
        format!("Zu zahlender Betrag {}", de_money(&due_total.to_string())),
        format!("bis zum {new_due}"),
        "IBAN DE02 1203 0000 0000 2020 51".to_string(),
        // Issue 34: it opens with the salutation (no billing contact: the general one)
        // and closes with a greeting and the sender.
        "Sehr geehrte Damen und Herren, trotz unserer Erinnerung".to_string(),
        "Mit freundlichen Grüßen Nordlicht Software GmbH".to_string(),
    ] {
        assert!(text.contains(&expected), "{expected:?} missing:\n{text}");
    }
    let (status, _, _) = s.bytes("/invoice_reminders/9999.pdf").await;
    assert_eq!(status, 404);

    // Sent with the defaults: the customer's address, the letter's heading as subject,
    // both PDFs attached; then it is on record and cannot be deleted.
    let r = s
        .post(&format!("/invoice_reminders/{id}/send_email"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["emails_to"], "billing@example.com", "{}", r.body);
    assert_eq!(
        r.body["subject"],
        format!("Mahnung zu Rechnung {number}"),
        "{}",
        r.body
    );
    assert!(
        r.body["text"]
            .as_str()
            .unwrap()
            .contains(&de_money(&due_total.to_string())),
        "{}",
        r.body
    );
    let messages = common::smtp::wait_for_messages(&mail, 1).await;
    assert_eq!(messages.len(), 1);
    let message = &messages[0];
    for filename in [format!("Mahnung-2-{number}.pdf"), format!("{number}.pdf")] {
        assert!(
            message.contains(&format!("filename=\"{filename}\""))
                || message.contains(&format!("filename={filename}")),
            "{filename} attached:\n{}",
            &message[..message.len().min(3000)]
        );
    }
    let stored = s.get(&format!("/invoice_reminders/{id}")).await;
    assert_eq!(
        stored.body["sent_on"],
        json!(today().to_string()),
        "{}",
        stored.body
    );
    let r = s.delete(&format!("/invoice_reminders/{id}"), None).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(s.get(&format!("/invoice_reminders/{id}")).await.status, 200);
    let r = s
        .post("/invoice_reminders/9999/send_email", json!({}))
        .await;
    assert_eq!(r.status, 404, "{}", r.body);
}

/// Issue 14 § App, the list's chart: `GET /invoices/monthly` answers, for the list's
/// filter, the open and overdue totals (equal to the summary's figures) and per month of
/// the invoice date what is paid, open and overdue.
#[tokio::test]
async fn the_monthly_figures_split_each_month_into_paid_open_and_overdue() {
    let s = start().await;
    let a = s.customer("Hafen Logistik GmbH").await;
    let b = s.customer("Kranzler Bau GmbH").await;
    let this_month = today().format("%Y-%m").to_string();
    let make = |customer: i64, date: chrono::NaiveDate, due: chrono::NaiveDate| {
        let s = &s;
        async move {
            let mut body = common::invoice_body(customer);
            body["date"] = json!(date.to_string());
            body["due_date"] = json!(due.to_string());
            let r = s.post("/invoices", body).await;
            assert!(r.status.is_success(), "{}", r.body);
            r.body["id"].as_i64().unwrap()
        }
    };
    // 297.50 each. This month: one paid 100 and not yet due, one due yesterday.
    let first_of_month = today().with_day(1).unwrap();
    let partly = make(a, first_of_month, today() + days(30)).await;
    let r = s
        .post(
            "/invoices/payments",
            json!({"invoice_id": partly, "date": today().to_string(), "paid_total": 100}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Due yesterday: dated the first of this month, or yesterday on the first of a month
    // (no day of this month lies before today then).
    let overdue_date = if today().day() > 1 {
        first_of_month
    } else {
        today() - days(1)
    };
    make(b, overdue_date, today() - days(1)).await;
    // Two years ago, overdue: in the totals, not in the twelve months.
    make(a, today() - days(730), today() - days(700)).await;

    let r = s.get("/invoices/monthly").await;
    assert_eq!(r.status, 200, "{}", r.body);
    let eur = &r.body["currencies"][0];
    assert_eq!(eur["currency"], "EUR");
    assert_eq!(num(&eur["open_amount"]), "792.50", "{eur}");
    assert_eq!(num(&eur["overdue_amount"]), "595.00", "{eur}");
    let months = eur["months"].as_array().unwrap();
    assert_eq!(months.len(), 12);
    let now = &months[11];
    assert_eq!(now["month"], this_month.as_str(), "{now}");
    if today().day() > 1 {
        assert_eq!(num(&now["overdue"]), "297.50", "{now}");
    } else {
        // On the first of a month the overdue invoice is dated, and counted, the month before.
        assert_eq!(num(&now["overdue"]), "0.00", "{now}");
        assert_eq!(num(&months[10]["overdue"]), "297.50", "{}", months[10]);
    }
    assert_eq!(num(&now["paid"]), "100.00", "{now}");
    assert_eq!(num(&now["open"]), "197.50", "{now}");

    // The same conditions as the list: the totals equal the summary's for each filter.
    for filter in [
        "",
        "company_id={a}",
        "status=overdue",
        "status=partially_paid",
    ] {
        let filter = filter.replace("{a}", &a.to_string());
        let monthly = s.get(&format!("/invoices/monthly?{filter}")).await.body;
        let summary = s.get(&format!("/invoices/summary?{filter}")).await.body;
        let overdue = s
            .get(&format!("/invoices/summary?{filter}&overdue=true"))
            .await
            .body;
        let open = |v: &Value| v["totals"][0]["open_amount"].clone();
        assert_eq!(
            num(&monthly["currencies"][0]["open_amount"]),
            num(&open(&summary)),
            "{filter}"
        );
        let overdue_open = if overdue["totals"].as_array().unwrap().is_empty() {
            "0.00".to_string()
        } else {
            num(&open(&overdue))
        };
        assert_eq!(
            num(&monthly["currencies"][0]["overdue_amount"]),
            overdue_open,
            "{filter}"
        );
    }
    let r = s.get("/invoices/monthly?term=nobody").await;
    assert_eq!(r.body, json!({"currencies": []}));
}

/// Issue 34: a reminder letter addresses the customer's billing contact in the customer's
/// language ("Dear Ms Dr. Berger,"), closes with "Kind regards", and its file is named
/// `Reminder-1-<number>.pdf`.
#[tokio::test]
async fn the_reminder_letter_greets_the_billing_contact_in_the_customers_language() {
    let s = start().await;
    let c = s.customer("Harbour Freight Ltd").await;
    let r = s
        .put(&format!("/companies/{c}"), json!({"language": "en"}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s
        .post(
            "/contacts/people",
            json!({"firstname": "Anna", "lastname": "Berger", "gender": "F", "salutation": "Dr.",
                   "company_id": c, "billing_contact": true, "email": "anna@harbour.example"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let due = today() - days(30);
    let mut body = common::invoice_body(c);
    body["date"] = json!((due - days(14)).to_string());
    body["due_date"] = json!(due.to_string());
    let r = s.post("/invoices", body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let (invoice, number) = (
        r.body["id"].as_i64().unwrap(),
        r.body["identifier"].as_str().unwrap().to_string(),
    );
    let r = s
        .post(
            "/invoice_reminders",
            json!({"invoice_id": invoice, "date": today().to_string(), "dunning_level": 1}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    let resp = s
        .keyed(Method::GET, &format!("/invoice_reminders/{id}.pdf"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    let disposition = resp
        .headers()
        .get("content-disposition")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    assert!(
        disposition.contains(&format!("Reminder-1-{number}.pdf")),
        "{disposition}"
    );
    let pdf = resp.bytes().await.unwrap();
    let text = common::pdftotext(&pdf)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(text.contains("Dear Ms Dr. Berger, Our invoice"), "{text}");
    assert!(text.contains("Kind regards"), "{text}");
    assert!(!text.contains("Sehr geehrte"), "{text}");
}
