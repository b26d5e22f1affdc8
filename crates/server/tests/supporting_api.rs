//! Supporting resources the forms need: companies, projects, users, session, account.

mod common;

use common::{start, Reply};
use serde_json::json;

#[tokio::test]
async fn companies_filter_by_type_and_term() {
    let s = start().await;
    s.post("/companies", json!({"name": "Acme Customer", "type": "customer", "customer_vat": {"tax": 19, "reverse_charge": false, "intra_eu": false}})).await;
    s.post(
        "/companies",
        json!({"name": "Paper Supplier", "type": "supplier", "iban": "DE89370400440532013000"}),
    )
    .await;
    let customers = s.get("/companies?type=customer").await;
    let names: Vec<_> = customers
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Acme Customer"]);
    assert_eq!(customers.body[0]["customer_vat"]["tax"].to_string(), "19");
    let found = s.get("/companies?term=paper").await;
    assert_eq!(found.body[0]["type"], "supplier");
    assert_eq!(s.get("/companies?type=alien").await.status, 400);
    let r = s.post("/companies", json!({"type": "customer"})).await;
    assert!(r.body["errors"]["name"].is_array());
    let r = s
        .post("/companies", json!({"name": "X", "currency": "XXX"}))
        .await;
    assert!(r.body["errors"]["currency"].is_array());
}

#[tokio::test]
async fn projects_belong_to_customers() {
    let s = start().await;
    let a = s.customer("A").await;
    let b = s.customer("B").await;
    let p = s
        .post(
            "/projects",
            json!({"name": "Relaunch", "customer_id": a, "billing_email_to": "pm@a.example"}),
        )
        .await;
    assert_eq!(p.status, 200, "{}", p.body);
    assert_eq!(p.body["customer"]["name"], "A");
    s.post("/projects", json!({"name": "Other", "customer_id": b}))
        .await;
    let list = s.get(&format!("/projects?company_id={a}")).await;
    assert_eq!(list.body.as_array().unwrap().len(), 1);
    let r = s
        .post("/projects", json!({"name": "Orphan", "customer_id": 999}))
        .await;
    assert!(r.body["errors"]["customer_id"].is_array());
    let pid = p.body["id"].as_i64().unwrap();
    let r = s.invoice(b, json!({"project_id": pid})).await;
    assert_eq!(r.status, 422);
    assert!(r.body["errors"]["project_id"].is_array());
}

#[tokio::test]
async fn users_session_and_account() {
    let s = start().await;
    let u = s
        .post(
            "/users",
            json!({"firstname": "Lea", "lastname": "Fischer", "email": "lea@example.com"}),
        )
        .await;
    // Issue 12: 201 with the user and its password-set link.
    assert_eq!(u.status, 201);
    assert!(u.body["invitation"]["url"].is_string());
    let u = Reply {
        body: u.body["user"].clone(),
        ..u
    };
    let users = s.get("/users").await;
    assert_eq!(
        users.body.as_array().unwrap().len(),
        2,
        "the key's own user and Lea"
    );
    assert_eq!(
        s.get(&format!("/users/{}", u.body["id"])).await.body["firstname"],
        "Lea"
    );
    let account = s.get("/account").await.body;
    assert_eq!(account["currencies"], json!(["EUR", "CHF", "USD"]));
    assert_eq!(account["default_currency"], "EUR");
    assert_eq!(account["letter_papers"][0]["default"], true);
    let session = s.get("/session").await.body;
    assert_eq!(session["name"], "initial");
}
