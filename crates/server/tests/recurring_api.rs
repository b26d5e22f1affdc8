//! Recurring invoices over real HTTP (issue 11 § Edit, delete, copy, repeat; contract
//! § Recurring invoices): CRUD and every refusal, the job catching up every missed period
//! once — at creation, at start after downtime, never again after restarts, once with two
//! server processes on one data directory — finalize and send modes (a real SMTP server),
//! placeholders, service periods, due dates, and the end date.

mod common;

use chrono::{Datelike, Months, NaiveDate};
use common::smtp::{free_port, smtp_server, start_sending_to, wait_for_messages};
use common::{invoice_body, start, TestServer};
use reqwest::Method;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::Stdio;

/// An invoice creation body without dates, with placeholders in the title and position.
fn template(customer: i64) -> Value {
    let mut t = invoice_body(customer);
    let o = t.as_object_mut().unwrap();
    o.remove("date");
    o.remove("due_date");
    t["title"] = json!("Hosting {month} {year}");
    t["items"] = json!([
        {"type": "item", "title": "Server {period}", "description": "<p>{quarter}</p>", "quantity": 1, "unit": "Monat", "unit_price": 50}
    ]);
    t
}

fn schedule(customer: i64, interval: &str, next_date: &str, mode: &str) -> Value {
    json!({"template": template(customer), "interval": interval, "next_date": next_date, "mode": mode})
}

fn today() -> NaiveDate {
    chrono::Local::now().date_naive()
}

fn day(date: NaiveDate) -> String {
    date.format("%Y-%m-%d").to_string()
}

/// Live invoices and runs in the database file, counted directly.
async fn counts(s: &TestServer) -> (i64, i64) {
    let pool = s.db().await;
    let invoices: i64 =
        kontor_server::sql::query_scalar("SELECT COUNT(*) FROM invoices WHERE deleted_at IS NULL")
            .fetch_one(&pool)
            .await
            .unwrap();
    let runs: i64 = kontor_server::sql::query_scalar("SELECT COUNT(*) FROM recurring_invoice_runs")
        .fetch_one(&pool)
        .await
        .unwrap();
    pool.close().await;
    (invoices, runs)
}

/// Moves schedule `id`'s next date (and anchor) to `date` behind the server's back, as if
/// it had been down since.
/// Creates a monthly, finalizing schedule for customer `c` whose first run is 40 days
/// ahead (so nothing runs yet); returns its id.
async fn future_schedule(s: &TestServer, c: i64) -> i64 {
    let r = s
        .post(
            "/recurring_invoices",
            schedule(
                c,
                "monthly",
                &day(today() + chrono::Days::new(40)),
                "finalize",
            ),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.body["id"].as_i64().unwrap()
}

async fn set_next_date(s: &TestServer, id: i64, date: NaiveDate) {
    let pool = s.db().await;
    kontor_server::sql::query(
        "UPDATE recurring_invoices SET next_date = $1, anchor_day = $2 WHERE id = $3",
    )
    .bind(date)
    .bind(i64::from(date.day()))
    .bind(id)
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
}

fn errors(r: &common::Reply) -> Vec<String> {
    r.body["errors"]
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default()
}

#[tokio::test]
async fn create_read_list_replace_delete() {
    let s = start().await;
    let c = s.customer("Kranzler GmbH").await;
    let next = today() + chrono::Days::new(10);
    let r = s
        .post(
            "/recurring_invoices",
            schedule(c, "monthly", &day(next), "draft"),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    assert_eq!(
        r.body["customer"],
        json!({"id": c, "name": "Kranzler GmbH"})
    );
    assert_eq!(r.body["title"], "Hosting {month} {year}");
    assert_eq!(r.body["interval"], "monthly");
    assert_eq!(r.body["next_date"], day(next));
    assert_eq!(r.body["end_date"], Value::Null);
    assert_eq!(r.body["mode"], "draft");
    assert_eq!(r.body["active"], true);
    assert_eq!(r.body["last_run_date"], Value::Null);
    assert_eq!(r.body["runs"], json!([]), "nothing is due yet");
    assert_eq!(r.body["template"]["customer_id"], c);
    assert_eq!(r.body["template"]["items"][0]["title"], "Server {period}");
    assert!(
        r.body["template"].get("date").is_none(),
        "runs set the date"
    );
    assert!(r.body["created_at"].as_str().unwrap().ends_with('Z'));
    assert_eq!(counts(&s).await, (0, 0));

    let got = s.get(&format!("/recurring_invoices/{id}")).await;
    assert_eq!(got.status, 200);
    assert_eq!(got.body, r.body);

    let second = s
        .post(
            "/recurring_invoices",
            schedule(c, "yearly", &day(next), "finalize"),
        )
        .await;
    assert_eq!(second.status, 201, "{}", second.body);
    let list = s.get("/recurring_invoices?per_page=1").await;
    assert_eq!(list.status, 200);
    assert_eq!(list.header("x-total"), "2");
    assert_eq!(list.header("x-per-page"), "1");
    assert_eq!(list.body.as_array().unwrap().len(), 1);
    assert_eq!(list.body[0]["id"], second.body["id"], "newest first");
    let page2 = s.get("/recurring_invoices?per_page=1&page=2").await;
    assert_eq!(page2.body[0]["id"], id);
    let sorted = s.get("/recurring_invoices?sort_by=next_date%20asc").await;
    assert_eq!(sorted.status, 200);
    assert_eq!(sorted.body[0]["id"], id, "same next date: ties by id");
    assert_eq!(sorted.body[0]["runs"], json!([]));
    assert_eq!(s.get("/recurring_invoices?sort_by=gross").await.status, 400);

    let mut changed = schedule(
        c,
        "quarterly",
        &day(next + chrono::Days::new(1)),
        "finalize",
    );
    changed["end_date"] = json!(day(next + chrono::Days::new(400)));
    changed["template"]["title"] = json!("Wartung {period}");
    let put = s.put(&format!("/recurring_invoices/{id}"), changed).await;
    assert_eq!(put.status, 200, "{}", put.body);
    assert_eq!(put.body["interval"], "quarterly");
    assert_eq!(put.body["mode"], "finalize");
    assert_eq!(put.body["title"], "Wartung {period}");
    assert_eq!(put.body["end_date"], day(next + chrono::Days::new(400)));
    assert_eq!(put.body["created_at"], r.body["created_at"]);

    let del = s.delete(&format!("/recurring_invoices/{id}"), None).await;
    assert_eq!(del.status, 204);
    assert_eq!(
        s.get(&format!("/recurring_invoices/{id}")).await.status,
        404
    );
    assert_eq!(s.get("/recurring_invoices").await.header("x-total"), "1");
}

#[tokio::test]
async fn refusals_name_the_fields() {
    let s = start().await;
    let c = s.customer("Kranzler GmbH").await;
    let next = day(today() + chrono::Days::new(10));

    let r = s.post("/recurring_invoices", json!({})).await;
    assert_eq!(r.status, 422);
    for f in ["template", "interval", "next_date", "mode"] {
        assert!(errors(&r).contains(&f.to_string()), "{f}: {}", r.body);
    }

    let mut b = schedule(c, "weekly", &next, "draft");
    let r = s.post("/recurring_invoices", b.clone()).await;
    assert_eq!(
        (r.status.as_u16(), errors(&r)),
        (422, vec!["interval".to_string()])
    );
    b["interval"] = json!("monthly");
    b["mode"] = json!("mail");
    let r = s.post("/recurring_invoices", b.clone()).await;
    assert_eq!(
        (r.status.as_u16(), errors(&r)),
        (422, vec!["mode".to_string()])
    );
    b["mode"] = json!("draft");
    b["next_date"] = json!("2026-13-01");
    let r = s.post("/recurring_invoices", b.clone()).await;
    assert_eq!(
        (r.status.as_u16(), errors(&r)),
        (422, vec!["next_date".to_string()])
    );
    b["next_date"] = json!(next);
    b["end_date"] = json!("2020-01-01");
    let r = s.post("/recurring_invoices", b.clone()).await;
    assert_eq!(
        (r.status.as_u16(), errors(&r)),
        (422, vec!["end_date".to_string()])
    );

    let mut b = schedule(c, "monthly", &next, "draft");
    b["template"]["items"][0]["title"] = json!("");
    b["template"]["currency"] = json!("XYZ");
    let r = s.post("/recurring_invoices", b).await;
    assert_eq!(r.status, 422);
    assert!(
        errors(&r).contains(&"template.items[0].title".to_string()),
        "{}",
        r.body
    );
    assert!(
        errors(&r).contains(&"template.currency".to_string()),
        "{}",
        r.body
    );

    let r = s
        .post(
            "/recurring_invoices",
            schedule(999, "monthly", &next, "draft"),
        )
        .await;
    assert_eq!(
        (r.status.as_u16(), errors(&r)),
        (422, vec!["template.customer_id".to_string()]),
        "{}",
        r.body
    );

    let mut b = schedule(c, "monthly", &next, "draft");
    b["template"]["items"][0]["unit_price"] = json!("50");
    let r = s.post("/recurring_invoices", b).await;
    assert_eq!(
        (r.status.as_u16(), errors(&r)),
        (422, vec!["template.items[0].unit_price".to_string()])
    );

    // Sending needs somebody to send to.
    let silent = s
        .create(
            "/companies",
            json!({"name": "Stumm KG", "address": "Weg 2"}),
        )
        .await;
    let r = s
        .post(
            "/recurring_invoices",
            schedule(silent, "monthly", &next, "send"),
        )
        .await;
    assert_eq!(
        (r.status.as_u16(), errors(&r)),
        (422, vec!["mode".to_string()]),
        "{}",
        r.body
    );
    assert_eq!(
        s.get("/recurring_invoices").await.header("x-total"),
        "0",
        "nothing stored"
    );

    // 404s, and bodies checked on PUT too.
    let ok = s
        .post(
            "/recurring_invoices",
            schedule(c, "monthly", &next, "draft"),
        )
        .await;
    let id = ok.body["id"].as_i64().unwrap();
    assert_eq!(s.get("/recurring_invoices/999").await.status, 404);
    assert_eq!(
        s.put(
            "/recurring_invoices/999",
            schedule(c, "monthly", &next, "draft")
        )
        .await
        .status,
        404
    );
    assert_eq!(s.delete("/recurring_invoices/999", None).await.status, 404);
    assert_eq!(s.get("/recurring_invoices/abc").await.status, 404);
    let r = s
        .put(
            &format!("/recurring_invoices/{id}"),
            schedule(c, "daily", &next, "draft"),
        )
        .await;
    assert_eq!(
        (r.status.as_u16(), errors(&r)),
        (422, vec!["interval".to_string()])
    );
    assert_eq!(
        s.get(&format!("/recurring_invoices/{id}")).await.body["interval"],
        "monthly"
    );

    // Read-only keys read but never write.
    let ro = s.read_only_key().await;
    let path = format!("/recurring_invoices/{id}");
    assert_eq!(s.status_as(&ro, Method::GET, &path, None).await, 200);
    assert_eq!(
        s.status_as(&ro, Method::GET, "/recurring_invoices", None)
            .await,
        200
    );
    let body = schedule(c, "monthly", &next, "draft");
    assert_eq!(
        s.status_as(&ro, Method::POST, "/recurring_invoices", Some(body.clone()))
            .await,
        403
    );
    assert_eq!(s.status_as(&ro, Method::PUT, &path, Some(body)).await, 403);
    assert_eq!(s.status_as(&ro, Method::DELETE, &path, None).await, 403);
    assert_eq!(s.get(&path).await.status, 200, "still there");
}

#[tokio::test]
async fn a_past_due_schedule_catches_up_once_and_restarts_create_nothing_more() {
    let mut s = start().await;
    let c = s.customer("Kranzler GmbH").await;
    let first = today().with_day(1).unwrap() - Months::new(3);
    let r = s
        .post(
            "/recurring_invoices",
            schedule(c, "monthly", &day(first), "draft"),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    // The first of the month three months ago, two months ago, last month and this month.
    let runs = r.body["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 4, "{}", r.body);
    assert_eq!(counts(&s).await, (4, 4));
    let expected: Vec<String> = (0..4)
        .map(|n| day(today().with_day(1).unwrap() - Months::new(n)))
        .collect();
    let dates: Vec<&str> = runs
        .iter()
        .map(|r| r["invoice_date"].as_str().unwrap())
        .collect();
    assert_eq!(dates, expected, "newest first");
    assert_eq!(r.body["last_run_date"], expected[0]);
    assert_eq!(
        r.body["next_date"],
        day(today().with_day(1).unwrap() + Months::new(1))
    );
    for run in runs {
        assert_eq!(run["status"], "draft");
        assert_eq!(run["invoice_identifier"], Value::Null);
        assert_eq!(run["error"], Value::Null);
        let inv = s.get(&format!("/invoices/{}", run["invoice_id"])).await;
        assert_eq!(inv.status, 200);
        assert_eq!(inv.body["date"], run["invoice_date"]);
        assert_eq!(inv.body["service_period_from"], run["period_start"]);
        assert_eq!(inv.body["service_period_to"], run["period_end"]);
        // The created event names the schedule.
        let events = s
            .get(&format!("/invoices/{}/events", run["invoice_id"]))
            .await;
        assert_eq!(events.status, 200, "{}", events.body);
        {
            let created = events
                .body
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["kind"] == "created")
                .cloned();
            assert_eq!(
                created.unwrap()["data"],
                json!({"recurring_invoice_id": id}),
                "{}",
                events.body
            );
        }
    }

    s.restart().await;
    assert_eq!(counts(&s).await, (4, 4));
    s.restart().await;
    assert_eq!(counts(&s).await, (4, 4));
    let again = s.get(&format!("/recurring_invoices/{id}")).await;
    assert_eq!(again.body["runs"].as_array().unwrap().len(), 4);

    // Down over three run dates: the start creates each missed period once.
    let later_id = future_schedule(&s, c).await;
    assert_eq!(counts(&s).await, (4, 4));
    s.stop().await;
    set_next_date(&s, later_id, today() - Months::new(2)).await;
    s.restart().await;
    assert_eq!(counts(&s).await, (7, 7));
    s.restart().await;
    assert_eq!(counts(&s).await, (7, 7));
    // Moving a schedule back over periods it billed bills nothing twice.
    let mut back = schedule(c, "monthly", &day(first), "draft");
    back["template"]["title"] = json!("Again {month}");
    let r = s.put(&format!("/recurring_invoices/{id}"), back).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(counts(&s).await, (7, 7));
    assert_eq!(r.body["runs"].as_array().unwrap().len(), 4);
}

#[tokio::test]
async fn two_server_processes_on_one_data_directory_create_each_period_once() {
    let s = start().await;
    let c = s.customer("Kranzler GmbH").await;
    let id = future_schedule(&s, c).await;
    set_next_date(&s, id, today().with_day(1).unwrap() - Months::new(5)).await;

    let spawn = || {
        s.command()
            .args(["serve", "--listen", "127.0.0.1:0", "--dist", "/nonexistent"])
            .env("KONTOR_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    let mut children = [spawn(), spawn()];
    for child in children.iter_mut() {
        // The start's catch-up has run when the server says it is running.
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let running = lines.any(|l| l.unwrap().starts_with("Kontor is running"));
        assert!(running);
    }
    for child in children.iter_mut() {
        child.kill().unwrap();
        child.wait().unwrap();
    }
    assert_eq!(counts(&s).await, (6, 6));
    let detail = s.get(&format!("/recurring_invoices/{id}")).await;
    let runs = detail.body["runs"].as_array().unwrap();
    let mut periods: Vec<&str> = runs
        .iter()
        .map(|r| r["period_start"].as_str().unwrap())
        .collect();
    periods.dedup();
    assert_eq!(periods.len(), 6);
    // Finalized with gap-free numbers, each drawn once.
    let mut numbers: Vec<String> = runs
        .iter()
        .map(|r| r["invoice_identifier"].as_str().unwrap().to_string())
        .collect();
    numbers.sort();
    numbers.dedup();
    assert_eq!(numbers.len(), 6);
}

#[tokio::test]
async fn finalize_mode_numbers_and_fills_placeholders_service_period_and_due_date() {
    let s = start().await;
    let de = s.customer("Kranzler GmbH").await;
    let body = json!({"template": template(de), "interval": "monthly", "next_date": "2025-01-31", "end_date": "2025-03-31", "mode": "finalize"});
    let r = s.post("/recurring_invoices", body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let runs = r.body["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3, "the end date stops it: {}", r.body);
    assert_eq!(r.body["active"], false);
    assert_eq!(
        r.body["next_date"], "2025-04-30",
        "the anchor day 31 comes back after February"
    );
    assert_eq!(r.body["last_run_date"], "2025-03-31");
    let expected = [
        (
            "2025-03-31",
            "2025-03-01",
            "Hosting März 2025",
            "Server 03/2025",
            "<p>Q1</p>",
        ),
        (
            "2025-02-28",
            "2025-02-01",
            "Hosting Februar 2025",
            "Server 02/2025",
            "<p>Q1</p>",
        ),
        (
            "2025-01-31",
            "2025-01-01",
            "Hosting Januar 2025",
            "Server 01/2025",
            "<p>Q1</p>",
        ),
    ];
    for (run, (date, start_, title, item, description)) in runs.iter().zip(expected) {
        assert_eq!(run["invoice_date"], date);
        assert_eq!(run["period_start"], start_);
        assert_eq!(
            run["period_end"], date,
            "the runs fall on the months' last days"
        );
        assert_eq!(run["status"], "created");
        let inv = s
            .get(&format!("/invoices/{}", run["invoice_id"]))
            .await
            .body;
        assert_eq!(inv["identifier"], run["invoice_identifier"]);
        assert!(
            inv["identifier"].as_str().unwrap().starts_with("R25"),
            "{}",
            inv["identifier"]
        );
        // Made for 2025 and due long ago: overdue on reading (issue 14).
        assert_eq!(inv["status"], "overdue");
        assert_eq!(inv["title"], title);
        assert_eq!(inv["items"][0]["title"], item);
        assert_eq!(inv["items"][0]["description"], description);
        assert_eq!(inv["date"], date);
        let due = NaiveDate::parse_from_str(date, "%Y-%m-%d").unwrap() + chrono::Days::new(14);
        assert_eq!(
            inv["due_date"],
            day(due),
            "the account's default payment term of 14 days"
        );
        assert_eq!(inv["service_period_from"], start_);
        assert_eq!(inv["service_period_to"], date);
    }
    let mut s = s;
    s.restart().await;
    assert_eq!(
        counts(&s).await,
        (3, 3),
        "an ended schedule never runs again"
    );

    // English customer with a payment term, quarterly.
    let en = s
        .post("/companies", json!({"name": "Harbour Ltd", "address": "Quay 1", "language": "en", "payment_term_days": 30}))
        .await;
    assert_eq!(en.status, 200, "{}", en.body);
    let en = en.body["id"].as_i64().unwrap();
    let mut t = template(en);
    t["title"] = json!("Support {period} ({month} {year}, {quarter})");
    let r = s
        .post("/recurring_invoices", json!({"template": t, "interval": "quarterly", "next_date": "2025-05-15", "end_date": "2025-11-14", "mode": "draft"}))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let runs = r.body["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2, "{}", r.body);
    let inv = s
        .get(&format!("/invoices/{}", runs[1]["invoice_id"]))
        .await
        .body;
    assert_eq!(inv["title"], "Support Q2 2025 (April 2025, Q2)");
    assert_eq!(inv["date"], "2025-05-15");
    assert_eq!(inv["due_date"], "2025-06-14", "the customer's payment term");
    assert_eq!(inv["service_period_from"], "2025-04-01");
    assert_eq!(inv["service_period_to"], "2025-06-30");
    assert_eq!(inv["status"], "draft");
    assert_eq!(inv["identifier"], Value::Null);
    let inv = s
        .get(&format!("/invoices/{}", runs[0]["invoice_id"]))
        .await
        .body;
    assert_eq!(inv["title"], "Support Q3 2025 (July 2025, Q3)");
    assert_eq!(r.body["next_date"], "2025-11-15");
    assert_eq!(r.body["active"], false);
}

#[tokio::test]
async fn send_mode_emails_each_invoice_to_the_default_recipients() {
    let mail = smtp_server().await;
    let port = mail.port;
    let s = start_sending_to(port).await;
    let c = s.customer("Kranzler GmbH").await;
    let next = today() - chrono::Days::new(40);
    let r = s
        .post(
            "/recurring_invoices",
            schedule(c, "monthly", &day(next), "send"),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let runs = r.body["runs"].as_array().unwrap().clone();
    assert_eq!(runs.len(), 2, "{}", r.body);
    let all = wait_for_messages(&mail, 2).await;
    assert_eq!(all.len(), 2);
    for run in &runs {
        assert_eq!(run["error"], Value::Null, "{run}");
        let number = run["invoice_identifier"].as_str().unwrap();
        let inv = s
            .get(&format!("/invoices/{}", run["invoice_id"]))
            .await
            .body;
        // Sent; one whose due date has passed reads as overdue (issue 14).
        let due = inv["due_date"].as_str().unwrap();
        let expected = if due < day(today()).as_str() {
            "overdue"
        } else {
            "sent"
        };
        assert_eq!(inv["status"], expected, "due {due}");
        let message = all
            .iter()
            .find(|m| m.contains(&format!("Subject: Rechnung {number}")))
            .unwrap_or_else(|| panic!("no message for {number}"));
        assert!(message.contains("To: billing@example.com"), "{message}");
        assert!(message.contains(".pdf"), "the PDF is attached");
    }
    let detail = s
        .get(&format!("/recurring_invoices/{}", r.body["id"]))
        .await;
    assert_eq!(detail.body["runs"][0]["status"], "sent");
}

#[tokio::test]
async fn a_failed_send_keeps_the_invoice_and_records_the_error() {
    let dead = free_port();
    let s = start_sending_to(dead).await;
    let c = s.customer("Kranzler GmbH").await;
    let r = s
        .post(
            "/recurring_invoices",
            schedule(c, "monthly", &day(today()), "send"),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let run = &r.body["runs"][0];
    assert!(
        run["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{}",
        r.body
    );
    assert_eq!(run["status"], "created", "finalized, not sent");
    assert!(run["invoice_identifier"].is_string());
    assert_eq!(counts(&s).await, (1, 1));
}

#[tokio::test]
async fn a_run_that_cannot_create_its_invoice_records_why_and_moves_on() {
    let s = start().await;
    let c = s.customer("Kranzler GmbH").await;
    let id = future_schedule(&s, c).await;
    // The template's currency is not (or no longer) one of the account's.
    let pool = s.db().await;
    let template =
        kontor_server::sql::dialect::json_with(pool.engine(), "template", &[("currency", "'XYZ'")]);
    let template = kontor_server::sql::dialect::json_text(pool.engine(), &template);
    kontor_server::sql::query(&format!(
        "UPDATE recurring_invoices SET template = {template} WHERE id = $1"
    ))
    .bind(id)
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
    let mut s = s;
    s.stop().await;
    set_next_date(&s, id, today()).await;
    s.restart().await;
    let detail = s.get(&format!("/recurring_invoices/{id}")).await.body;
    let run = &detail["runs"][0];
    assert_eq!(run["invoice_id"], Value::Null, "{detail}");
    assert!(run["error"].as_str().unwrap().contains("currency"), "{run}");
    assert_eq!(counts(&s).await, (0, 1));
    s.restart().await;
    assert_eq!(
        counts(&s).await,
        (0, 1),
        "the period is not retried every start"
    );
}
