//! Payments drive the status, reminders, reversal, and billing activities and expenses
//! through invoice items — over real HTTP on a fresh SQLite file.

mod common;

use common::{num, start, TestServer};
use serde_json::json;

async fn invoice_id(s: &TestServer, customer: i64) -> i64 {
    let r = s.invoice(customer, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["id"].as_i64().unwrap()
}

#[tokio::test]
async fn payments_move_the_status_and_back() {
    let s = start().await;
    let c = s.customer("Payer").await;
    let id = invoice_id(&s, c).await;
    s.put(
        &format!("/invoices/{id}/update_status"),
        json!({"status": "sent"}),
    )
    .await;

    let p1 = s
        .post(
            "/invoices/payments",
            json!({"invoice_id": id, "date": "2026-11-10", "paid_total": 100}),
        )
        .await;
    assert_eq!(p1.status, 200, "{}", p1.body);
    assert_eq!(p1.body["currency"], "EUR");
    let inv = s.get(&format!("/invoices/{id}")).await.body;
    assert_eq!(
        (inv["status"].as_str(), inv["locked"].as_bool()),
        (Some("partially_paid"), Some(true))
    );
    assert_eq!(
        s.put(
            &format!("/invoices/{id}/update_status"),
            json!({"status": "sent"})
        )
        .await
        .status,
        422,
        "payments decide now"
    );

    let p2 = s
        .post(
            "/invoices/payments",
            json!({"invoice_id": id, "date": "2026-11-12", "paid_total": 197.50}),
        )
        .await;
    assert_eq!(
        s.get(&format!("/invoices/{id}")).await.body["status"],
        "paid"
    );
    let listed = s.get(&format!("/invoices/payments?invoice_id={id}")).await;
    assert_eq!(listed.body.as_array().unwrap().len(), 2);
    assert_eq!(
        s.get(&format!(
            "/invoices/payments?invoice_id={id}&from=2026-11-11"
        ))
        .await
        .body
        .as_array()
        .unwrap()
        .len(),
        1
    );
    let detail = s.get(&format!("/invoices/{id}")).await.body;
    assert_eq!(num(&detail["payments"][1]["paid_total"]), "197.50");

    let p2id = p2.body["id"].as_i64().unwrap();
    let r = s
        .put(
            &format!("/invoices/payments/{p2id}"),
            json!({"date": "2026-11-12", "paid_total": 50}),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(
        s.get(&format!("/invoices/{id}")).await.body["status"],
        "partially_paid"
    );
    assert_eq!(
        s.delete(&format!("/invoices/payments/{p2id}"), None)
            .await
            .status,
        204
    );
    assert_eq!(
        s.delete(&format!("/invoices/payments/{}", p1.body["id"]), None)
            .await
            .status,
        204
    );
    let inv = s.get(&format!("/invoices/{id}")).await.body;
    assert_eq!(
        inv["status"], "sent",
        "back to the status before the first payment"
    );
    assert_eq!(inv["locked"], true, "it was sent, so it stays locked");
}

#[tokio::test]
async fn payments_are_refused_for_drafts_other_currencies_and_bad_amounts() {
    let s = start().await;
    let c = s.customer("Careful").await;
    let draft = s
        .create("/invoices", json!({"customer_id": c, "status": "draft"}))
        .await;
    let r = s
        .post(
            "/invoices/payments",
            json!({"invoice_id": draft, "date": "2026-11-10", "paid_total": 1}),
        )
        .await;
    assert_eq!(r.status, 422);
    assert!(r.body["errors"]["invoice_id"].is_array());
    let id = invoice_id(&s, c).await;
    let r = s
        .post(
            "/invoices/payments",
            json!({"invoice_id": id, "date": "2026-11-10", "paid_total": 1, "currency": "CHF"}),
        )
        .await;
    assert!(r.body["errors"]["currency"].is_array());
    let r = s
        .post(
            "/invoices/payments",
            json!({"invoice_id": id, "paid_total": -5}),
        )
        .await;
    assert!(r.body["errors"]["paid_total"].is_array() && r.body["errors"]["date"].is_array());
    let r = s
        .post(
            "/invoices/payments",
            json!({"invoice_id": 999, "date": "2026-11-10", "paid_total": 1}),
        )
        .await;
    assert!(r.body["errors"]["invoice_id"].is_array());
    let inv = s.get(&format!("/invoices/{id}")).await.body;
    assert_eq!(
        (inv["status"].as_str(), inv["locked"].as_bool()),
        (Some("created"), Some(false)),
        "nothing changed"
    );
    assert_eq!(
        s.get("/invoices/payments")
            .await
            .body
            .as_array()
            .unwrap()
            .len(),
        0
    );
}

#[tokio::test]
async fn reminders_are_listed_on_the_invoice() {
    let s = start().await;
    let c = s.customer("Late").await;
    let id = invoice_id(&s, c).await;
    let r = s.post("/invoice_reminders", json!({"invoice_id": id, "date": "2100-01-04", "due_date": "2100-01-14", "fee": 5, "text": "<p>Please pay <script>x</script></p>"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["text"], "<p>Please pay </p>");
    assert_eq!(num(&r.body["fee"]), "5");
    let inv = s.get(&format!("/invoices/{id}")).await.body;
    assert_eq!(inv["reminders"][0]["due_date"], "2100-01-14");
    assert_eq!(
        s.get(&format!("/invoice_reminders?invoice_id={id}"))
            .await
            .body
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let r = s
        .post(
            "/invoice_reminders",
            json!({"invoice_id": id, "date": "2100-01-04", "due_date": "2100-01-01"}),
        )
        .await;
    assert!(r.body["errors"]["due_date"].is_array());
}

#[tokio::test]
async fn reversal_negates_and_links_both_ways() {
    let s = start().await;
    let c = s.customer("Reverse").await;
    let id = invoice_id(&s, c).await;
    s.put(
        &format!("/invoices/{id}/update_status"),
        json!({"status": "sent"}),
    )
    .await;
    let r = s.post(&format!("/invoices/{id}/reverse"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let rev = &r.body;
    assert_eq!(rev["reversal"], true);
    assert_eq!(rev["reversed_invoice_id"], id);
    assert_eq!(num(&rev["gross_total"]), "-297.50");
    assert_eq!(
        num(&rev["items"][3]["net_total"]),
        "-100.00",
        "lump sums are negated too"
    );
    assert!(rev["identifier"].as_str().unwrap().starts_with('R'));
    let original = s.get(&format!("/invoices/{id}")).await.body;
    assert_eq!(original["reversed"], true);
    assert_eq!(original["reversal_invoice_id"], rev["id"]);
    assert_eq!(
        s.post(&format!("/invoices/{id}/reverse"), json!({}))
            .await
            .status,
        422,
        "only once"
    );
    assert_eq!(
        s.post(&format!("/invoices/{}/reverse", rev["id"]), json!({}))
            .await
            .status,
        422,
        "a reversal is not reversed"
    );
}

#[tokio::test]
async fn activities_and_expenses_are_billed_once_in_the_invoice_transaction() {
    let s = start().await;
    let c = s.customer("Hours").await;
    let other = s.customer("Other").await;
    let project = s
        .create("/projects", json!({"name": "Site", "customer_id": c}))
        .await;
    let other_project = s
        .create("/projects", json!({"name": "Else", "customer_id": other}))
        .await;
    let a1 = s.post("/activities", json!({"date": "2026-11-02", "hours": 2.5, "description": "Layout", "project_id": project, "hourly_rate": 80})).await;
    assert_eq!(a1.status, 200, "{}", a1.body);
    let a1 = a1.body["id"].as_i64().unwrap();
    let a2 = s
        .create(
            "/activities",
            json!({"date": "2026-11-03", "hours": 1, "project_id": project, "hourly_rate": 80}),
        )
        .await;
    let foreign = s
        .create(
            "/activities",
            json!({"date": "2026-11-03", "hours": 1, "project_id": other_project}),
        )
        .await;
    let e1 = s.post(&format!("/projects/{project}/expenses"), json!({"date": "2026-11-04", "title": "Fonts", "quantity": 2, "unit_price": 30, "unit_cost": 25})).await;
    assert_eq!(e1.status, 200, "{}", e1.body);
    assert_eq!(num(&e1.body["price"]), "60.00");
    let e1 = e1.body["id"].as_i64().unwrap();
    assert_eq!(
        s.get(&format!("/activities?project_id={project}&billed=false"))
            .await
            .body
            .as_array()
            .unwrap()
            .len(),
        2
    );

    let item = |acts: serde_json::Value, exps: serde_json::Value| json!({"items": [{"type": "item", "title": "Work", "quantity": 3.5, "unit": "h", "unit_price": 80, "activity_ids": acts, "expense_ids": exps}], "project_id": project});
    let r = s.invoice(c, item(json!([a1, foreign]), json!([]))).await;
    assert_eq!(r.status, 422);
    assert!(
        r.body["errors"]["items[0].activity_ids"][0]
            .as_str()
            .unwrap()
            .contains("another customer"),
        "{}",
        r.body
    );
    assert_eq!(
        s.get(&format!("/activities/{a1}")).await.body["billed"],
        false,
        "nothing written"
    );

    let r = s.invoice(c, item(json!([a1, a2]), json!([e1]))).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    assert_eq!(
        r.body["items"][0]["activity_ids"],
        json!([a1, a2]),
        "the position reports what it bills"
    );
    assert_eq!(r.body["items"][0]["expense_ids"], json!([e1]));
    assert_eq!(
        s.get(&format!("/activities/{a1}")).await.body["billed"],
        true
    );
    let sheet = s.get(&format!("/invoices/{id}/timesheet")).await.body;
    assert_eq!(sheet.as_array().unwrap().len(), 2);
    assert_eq!(sheet[0]["project"]["name"], "Site");
    assert_eq!(sheet[0]["customer"]["name"], "Hours");
    let expenses = s.get(&format!("/invoices/{id}/expenses")).await.body;
    assert_eq!(expenses[0]["title"], "Fonts");
    assert_eq!(expenses[0]["billed"], true);

    let again = s.invoice(c, item(json!([a2]), json!([]))).await;
    assert_eq!(again.status, 422);
    assert!(again.body["errors"]["items[0].activity_ids"][0]
        .as_str()
        .unwrap()
        .contains("already billed"));
    let again = s.invoice(c, item(json!([]), json!([e1]))).await;
    assert!(again.body["errors"]["items[0].expense_ids"].is_array());

    // Deleting the invoice releases what it billed.
    assert_eq!(
        s.delete(
            &format!("/invoices/{id}"),
            Some(json!({"reason": "wrong hours"}))
        )
        .await
        .status,
        204
    );
    assert_eq!(
        s.get(&format!("/activities/{a1}")).await.body["billed"],
        false
    );
}

#[tokio::test]
async fn editing_a_draft_keeps_what_its_positions_bill() {
    let s = start().await;
    let c = s.customer("Drafty Hours").await;
    let project = s
        .create("/projects", json!({"name": "Site", "customer_id": c}))
        .await;
    let a = s
        .create(
            "/activities",
            json!({"date": "2026-11-02", "hours": 2, "project_id": project, "hourly_rate": 50}),
        )
        .await;
    let mut body = common::invoice_body(c);
    common::merge(
        &mut body,
        json!({"status": "draft", "project_id": project, "items": [{"type": "item", "title": "Hours", "quantity": 2, "unit": "h", "unit_price": 50, "activity_ids": [a]}]}),
    );
    let draft = s.post("/invoices", body.clone()).await;
    assert_eq!(draft.status, 200, "{}", draft.body);
    let id = draft.body["id"].as_i64().unwrap();
    common::merge(&mut body, json!({"title": "Edited"}));
    let edited = s.put(&format!("/invoices/{id}"), body).await;
    assert_eq!(edited.status, 200, "{}", edited.body);
    assert_eq!(edited.body["items"][0]["activity_ids"], json!([a]));
    let activity = s.get(&format!("/activities/{a}")).await.body;
    assert_eq!(
        (
            activity["billed"].as_bool(),
            activity["invoice_id"].as_i64()
        ),
        (Some(true), Some(id))
    );
}
