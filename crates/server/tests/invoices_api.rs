//! Invoices over real HTTP on a fresh SQLite file: create, read, list filters,
//! pagination, status rules, drafts, deletion, numbering under concurrency.

mod common;

use common::{num, start};
use serde_json::json;

#[tokio::test]
async fn creates_an_invoice_with_exact_totals_and_reads_it_back() {
    let s = start().await;
    let c = s.customer("ACME GmbH").await;
    let r = s.invoice(c, json!({"discount": 0, "salutation": "<p>Hello <script>alert(1)</script><b>you</b></p>", "tags": ["web"], "custom_properties": {"cost_center": "4711"}})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let inv = &r.body;
    assert_eq!(inv["identifier"], "R2611-001");
    assert_eq!(inv["status"], "created");
    assert_eq!(num(&inv["net_total"]), "250.00");
    assert_eq!(num(&inv["gross_total"]), "297.50");
    assert_eq!(inv["vat"]["reverse_charge"], false);
    assert_eq!(
        inv["salutation"], "<p>Hello <b>you</b></p>",
        "HTML is sanitized before it is stored"
    );
    assert_eq!(inv["locked"], false);
    assert_eq!(inv["user"]["firstname"], "Admin");
    let items = inv["items"].as_array().unwrap();
    assert_eq!(items.len(), 4);
    assert_eq!(items[0]["type"], "title");
    assert_eq!(num(&items[1]["net_total"]), "100.00");
    assert_eq!(num(&items[2]["net_total"]), "50.00");
    assert_eq!(
        items[3]["quantity"],
        serde_json::Value::Null,
        "lump sum keeps no quantity"
    );
    assert_eq!(num(&items[3]["net_total"]), "100.00");
    assert_eq!(num(&items[0]["net_total"]), "0.00");
    assert!(inv["payments"].as_array().unwrap().is_empty());
    assert!(inv["reminders"].as_array().unwrap().is_empty());
    assert!(inv["created_at"].as_str().unwrap().ends_with('Z'));

    let id = inv["id"].as_i64().unwrap();
    let mut got = s.get(&format!("/invoices/{id}")).await;
    assert_eq!(got.status, 200);
    let mut created = r.body.clone();
    for v in [&mut got.body, &mut created] {
        assert!(
            v["file_url"].as_str().unwrap().contains("/files/invoices/"),
            "a signed link is issued"
        );
        v["file_url"] = serde_json::Value::Null;
    }
    assert_eq!(got.body, created);
    assert_eq!(
        got.header("content-type"),
        "application/json; charset=utf-8"
    );
}

#[tokio::test]
async fn reverse_charge_and_discount_follow_the_totals_rules() {
    let s = start().await;
    let c = s.customer("EU Customer").await;
    let r = s
        .invoice(c, json!({"vat": {"reverse_charge": true}, "discount": 10}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(num(&r.body["net_total"]), "225.00");
    assert_eq!(num(&r.body["gross_total"]), "225.00");
    assert_eq!(num(&r.body["tax"]), "0");
}

#[tokio::test]
async fn list_has_no_detail_fields_and_filters_work() {
    let s = start().await;
    let a = s.customer("Alpha").await;
    let b = s.customer("Beta").await;
    s.invoice(a, json!({"title": "Alpha October", "date": "2026-10-05", "due_date": "2026-10-20", "tags": ["web", "retainer"]})).await;
    s.invoice(a, json!({"title": "Alpha November", "tags": ["web"], "service_period_from": "2026-11-01", "service_period_to": "2026-11-30"})).await;
    s.invoice(
        b,
        json!({"title": "Beta November", "custom_properties": {"Kst": "4711"}}),
    )
    .await;

    let all = s.get("/invoices").await;
    assert_eq!(all.status, 200);
    let list = all.body.as_array().unwrap();
    assert_eq!(list.len(), 3);
    for key in [
        "salutation",
        "footer",
        "items",
        "payments",
        "reminders",
        "credit_notes",
    ] {
        assert!(list[0].get(key).is_none(), "{key} must not be in the list");
    }
    assert_eq!(
        list[0]["title"], "Beta November",
        "default order is date desc, id desc"
    );
    assert_eq!(all.header("x-total"), "3");

    let titles = |r: &common::Reply| {
        r.body
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["title"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        titles(
            &s.get(&format!("/invoices?company_id={a}&sort_by=date%20asc"))
                .await
        ),
        ["Alpha October", "Alpha November"]
    );
    assert_eq!(
        titles(
            &s.get("/invoices?date_from=2026-11-01&date_to=2026-11-30&term=alpha")
                .await
        ),
        ["Alpha November"]
    );
    assert_eq!(
        titles(&s.get("/invoices?tags=web&tags=retainer").await),
        ["Alpha October"]
    );
    assert_eq!(
        titles(&s.get("/invoices?tags=web,retainer").await),
        ["Alpha October"]
    );
    assert_eq!(
        titles(&s.get("/invoices?service_period_from=2026-11-01").await),
        ["Alpha November"]
    );
    assert_eq!(
        titles(&s.get("/invoices?identifier=R2610-001").await),
        ["Alpha October"]
    );
    assert_eq!(titles(&s.get("/invoices?term=R2611*").await).len(), 2);
    assert_eq!(
        titles(&s.get("/invoices?custom_properties%5BKst%5D=4711").await),
        ["Beta November"]
    );
    assert_eq!(titles(&s.get("/invoices?status=sent").await).len(), 0);
    // Alpha October is due on a day that has passed: it reads and filters as overdue
    // (issue 14), no longer as created.
    assert_eq!(
        titles(&s.get("/invoices?status=created,sent&sort_by=title").await),
        ["Alpha November", "Beta November"]
    );
    assert_eq!(
        titles(&s.get("/invoices?status=overdue").await),
        ["Alpha October"]
    );
    let first_id = list[2]["id"].as_i64().unwrap();
    assert_eq!(
        titles(&s.get(&format!("/invoices?ids={first_id}")).await),
        ["Alpha October"]
    );
    assert_eq!(
        titles(&s.get("/invoices?updated_after=2999-01-01T00:00:00Z").await).len(),
        0
    );

    let bad = s.get("/invoices?date_from=yesterday").await;
    assert_eq!(bad.status, 400);
    assert!(bad.body["message"].as_str().unwrap().contains("date_from"));
    assert_eq!(s.get("/invoices?sort_by=secret").await.status, 400);
    assert_eq!(s.get("/invoices?status=lost").await.status, 400);
}

#[tokio::test]
async fn pagination_headers_and_links() {
    let s = start().await;
    let c = s.customer("Pager").await;
    for n in 0..5 {
        assert_eq!(
            s.invoice(c, json!({"title": format!("Invoice {n}")}))
                .await
                .status,
            200
        );
    }
    let p1 = s.get("/invoices?per_page=2").await;
    assert_eq!(p1.body.as_array().unwrap().len(), 2);
    assert_eq!(
        (
            p1.header("x-page"),
            p1.header("x-per-page"),
            p1.header("x-total")
        ),
        ("1", "2", "5")
    );
    let link = p1.header("link");
    // The next page by number and by cursor: the id of this page's last invoice (issue 35).
    let last_id = p1.body[1]["id"].as_i64().unwrap();
    assert!(
        link.contains(&format!(
            "<{}/api/v1/invoices?per_page=2&page=2&cursor={last_id}>; rel=\"next\"",
            s.base
        )),
        "{link}"
    );
    assert!(
        link.contains("page=3>; rel=\"last\"") && !link.contains("prev"),
        "{link}"
    );
    let p3 = s.get("/invoices?per_page=2&page=3").await;
    assert_eq!(p3.body.as_array().unwrap().len(), 1);
    let link = p3.header("link");
    assert!(
        !link.contains("next") && link.contains("rel=\"prev\"") && link.contains("rel=\"first\""),
        "{link}"
    );
    let capped = s.get("/invoices?per_page=1000").await;
    assert_eq!(capped.header("x-per-page"), "100");
}

#[tokio::test]
async fn missing_and_wrong_fields_are_422_naming_the_field_and_write_nothing() {
    let s = start().await;
    let c = s.customer("Strict").await;
    let r = s.post("/invoices", json!({"customer_id": c})).await;
    assert_eq!(r.status, 422);
    for f in [
        "title",
        "date",
        "due_date",
        "tax",
        "currency",
        "items",
        "recipient_address",
    ] {
        assert!(r.body["errors"][f].is_array(), "{f} not named: {}", r.body);
    }
    let r = s
        .invoice(
            c,
            json!({"items": [{"type": "item", "title": "x", "quantity": 1, "unit_price": "ten"}]}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body["errors"]["items[0].unit_price"].is_array(),
        "{}",
        r.body
    );
    let r = s
        .invoice(
            c,
            json!({"items": [{"type": "item", "title": "x", "quantity": 1}]}),
        )
        .await;
    assert!(
        r.body["errors"]["items[0].unit_price"].is_array(),
        "{}",
        r.body
    );
    let r = s.invoice(c, json!({"currency": "JPY"})).await;
    assert!(r.body["errors"]["currency"].is_array());
    let r = s.invoice(9999, json!({})).await;
    assert!(r.body["errors"]["customer_id"].is_array());
    let r = s
        .invoice(c, json!({"project_id": 9999, "internal_contact_id": 9999}))
        .await;
    assert!(
        r.body["errors"]["project_id"].is_array()
            && r.body["errors"]["internal_contact_id"].is_array()
    );
    let r = s.invoice(c, json!({"items": [{"type": "item", "title": "x", "quantity": 1, "unit_price": 1, "activity_ids": [1]}]})).await;
    assert!(
        r.body["errors"]["items[0].activity_ids"].is_array(),
        "{}",
        r.body
    );
    let r = s
        .invoice(c, json!({"salutation": null, "project_id": null}))
        .await;
    assert_eq!(r.status, 200, "explicit nulls mean absent: {}", r.body);
    assert_eq!(
        s.get("/invoices").await.header("x-total"),
        "1",
        "nothing was written by refused requests"
    );
}

#[tokio::test]
async fn status_moves_follow_the_rules_and_sent_locks() {
    let s = start().await;
    let c = s.customer("Mover").await;
    let id = s.invoice(c, json!({})).await.body["id"].as_i64().unwrap();
    let path = format!("/invoices/{id}/update_status");
    let r = s.put(&path, json!({"status": "paid"})).await;
    assert_eq!(r.status, 422);
    assert!(r.body["errors"]["status"].is_array());
    assert_eq!(s.put(&path, json!({"status": "draft"})).await.status, 422);
    let r = s.put(&path, json!({"status": "overdue"})).await;
    assert_eq!(
        (r.status.as_u16(), r.body["status"].as_str()),
        (200, Some("overdue"))
    );
    assert_eq!(r.body["locked"], false);
    let r = s.put(&path, json!({"status": "sent"})).await;
    assert_eq!(r.body["status"], "sent");
    assert_eq!(r.body["locked"], true);
    let r = s.put(&path, json!({"status": "ignored"})).await;
    assert_eq!(
        (r.body["status"].as_str(), r.body["locked"].as_bool()),
        (Some("ignored"), Some(true)),
        "stays locked"
    );
    assert_eq!(
        s.put("/invoices/9999/update_status", json!({"status": "sent"}))
            .await
            .status,
        404
    );

    let locked = s.get("/invoices/locked").await;
    assert_eq!(locked.body.as_array().unwrap().len(), 1);
    let r = s
        .delete(&format!("/invoices/{id}"), Some(json!({"reason": "wrong"})))
        .await;
    assert_eq!(r.status, 422, "a locked invoice cannot be deleted");
}

#[tokio::test]
async fn drafts_have_no_number_can_be_edited_finalized_and_deleted_without_reason() {
    let s = start().await;
    let c = s.customer("Drafty").await;
    let r = s
        .post(
            "/invoices",
            json!({"customer_id": c, "status": "draft", "title": "Half done"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["identifier"], serde_json::Value::Null);
    assert_eq!(r.body["status"], "draft");
    let id = r.body["id"].as_i64().unwrap();
    let path = format!("/invoices/{id}/update_status");
    let r = s.put(&path, json!({"status": "created"})).await;
    assert_eq!(
        r.status, 422,
        "an incomplete draft cannot be finalized: {}",
        r.body
    );
    assert!(r.body["errors"]["items"].is_array(), "{}", r.body);

    let mut body = common::invoice_body(c);
    common::merge(
        &mut body,
        json!({"status": "draft", "title": "Now complete"}),
    );
    let r = s.put(&format!("/invoices/{id}"), body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["title"], "Now complete");
    assert_eq!(num(&r.body["gross_total"]), "297.50");
    let r = s.put(&path, json!({"status": "created"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["identifier"], "R2611-001");
    let r = s
        .put(&format!("/invoices/{id}"), common::invoice_body(c))
        .await;
    assert_eq!(r.status, 422, "a final invoice is not editable");

    let d = s
        .create("/invoices", json!({"customer_id": c, "status": "draft"}))
        .await;
    let r = s.delete(&format!("/invoices/{d}"), None).await;
    assert_eq!(r.status, 204);
    assert_eq!(s.get(&format!("/invoices/{d}")).await.status, 404);
}

#[tokio::test]
async fn delete_needs_a_reason_keeps_an_audit_snapshot_and_numbers_stay_gap_free() {
    let s = start().await;
    let c = s.customer("Deleter").await;
    let id = s.invoice(c, json!({})).await.body["id"].as_i64().unwrap();
    let r = s.delete(&format!("/invoices/{id}"), None).await;
    assert_eq!(r.status, 422);
    assert!(r.body["errors"]["reason"].is_array());
    // A GET-style empty body with a JSON content type is valid too.
    let r = s
        .keyed(reqwest::Method::DELETE, &format!("/invoices/{id}"))
        .header("Content-Type", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 422);
    let r = s
        .delete(
            &format!("/invoices/{id}"),
            Some(json!({"reason": "duplicate"})),
        )
        .await;
    assert_eq!(r.status, 204);
    assert_eq!(r.body, serde_json::Value::Null);
    assert_eq!(s.get(&format!("/invoices/{id}")).await.status, 404);
    assert_eq!(s.get("/invoices").await.header("x-total"), "0");

    let pool = s.db().await;
    let (reason, snapshot): (String, String) = kontor_server::sql::query_as(
        "SELECT reason, snapshot FROM invoice_deletions WHERE invoice_id = $1",
    )
    .bind(id)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(reason, "duplicate");
    assert!(
        snapshot.contains("\"identifier\":\"R2611-001\""),
        "{snapshot}"
    );
    let next = s.invoice(c, json!({})).await;
    assert_eq!(
        next.body["identifier"], "R2611-002",
        "a deleted number is never reused"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_parallel_creations_get_gap_free_unique_numbers() {
    let s = std::sync::Arc::new(start().await);
    let c = s.customer("Busy").await;
    let mut tasks = Vec::new();
    for _ in 0..50 {
        let s = s.clone();
        tasks.push(tokio::spawn(async move {
            s.invoice(c, json!({})).await.body["identifier"]
                .as_str()
                .unwrap()
                .to_string()
        }));
    }
    let mut numbers = Vec::new();
    for t in tasks {
        numbers.push(t.await.unwrap());
    }
    numbers.sort();
    let expected: Vec<String> = (1..=50).map(|n| format!("R2611-{n:03}")).collect();
    assert_eq!(numbers, expected);
    let r = s
        .invoice(c, json!({"date": "2026-12-01", "due_date": "2026-12-15"}))
        .await;
    assert_eq!(
        r.body["identifier"], "R2612-001",
        "the counter restarts each month"
    );
}

/// Issue 16 § 2: a finalization that fails after it drew its number (here a fault the
/// database raises while the numbered invoice is written) rolls the number back with it;
/// the next finalization takes that number, so the series has no gap. On both engines.
#[tokio::test]
async fn a_finalization_rolled_back_after_drawing_its_number_leaves_no_gap() {
    let s = start().await;
    let c = s.customer("Fault GmbH").await;
    let first = s.invoice(c, json!({})).await;
    assert_eq!(first.body["identifier"], "R2611-001", "{}", first.body);

    // A fault injected into the database: writing a number onto an invoice titled
    // "Boom" fails, after the counter row has been advanced in the same transaction.
    let pool = s.db().await;
    let statements: &[&str] = if s.database.is_some() {
        &[
            "CREATE FUNCTION inject_fault() RETURNS trigger LANGUAGE plpgsql AS \
             'BEGIN RAISE EXCEPTION ''injected fault''; END'",
            "CREATE TRIGGER inject_fault BEFORE UPDATE ON invoices FOR EACH ROW \
             WHEN (NEW.identifier IS NOT NULL AND NEW.title = 'Boom') \
             EXECUTE FUNCTION inject_fault()",
        ]
    } else {
        &["CREATE TRIGGER inject_fault BEFORE UPDATE ON invoices \
           WHEN NEW.identifier IS NOT NULL AND NEW.title = 'Boom' \
           BEGIN SELECT RAISE(ABORT, 'injected fault'); END"]
    };
    for statement in statements {
        kontor_server::sql::query(statement)
            .execute(&pool)
            .await
            .unwrap();
    }
    pool.close().await;

    let draft = |title: &str| {
        let mut body = common::invoice_body(c);
        common::merge(&mut body, json!({"status": "draft", "title": title}));
        body
    };
    let boom = s.post("/invoices", draft("Boom")).await;
    assert_eq!(boom.status, 200, "{}", boom.body);
    let boom_id = boom.body["id"].as_i64().unwrap();
    let failed = s.finalize(boom_id).await;
    assert!(failed.status.is_server_error(), "{}", failed.body);
    let still = s.get(&format!("/invoices/{boom_id}")).await;
    assert_eq!(still.body["status"], "draft", "{}", still.body);
    assert_eq!(still.body["identifier"], serde_json::Value::Null);

    let next = s.post("/invoices", draft("Fine")).await;
    let next_id = next.body["id"].as_i64().unwrap();
    let done = s.finalize(next_id).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert_eq!(
        done.body["identifier"], "R2611-002",
        "the rolled-back number is the next one: no gap"
    );
}
