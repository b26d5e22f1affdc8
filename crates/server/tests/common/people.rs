//! Helpers for the people, sign-in and roles tests (issue 12): requests with another key
//! or none, users made through the API, and signing in.

use super::{reply, Reply, TestServer};
use reqwest::Method;
use serde_json::{json, Value};

/// A password the strength rule accepts.
pub const PASSWORD: &str = "Kupfer-Tisch-Regen-42";

/// Sends a request authorized with `key` (`None`: no Authorization header).
pub async fn send_as(
    s: &TestServer,
    key: Option<&str>,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> Reply {
    let mut req = s.client.request(method, s.url(path));
    if let Some(key) = key {
        req = req.header("Authorization", format!("Token token={key}"));
    }
    if let Some(b) = body {
        req = req
            .header("Content-Type", "application/json")
            .body(serde_json::to_string(&b).unwrap());
    }
    reply(req.send().await.unwrap()).await
}

/// POST /session with `email` and `password` (no key).
pub async fn sign_in(s: &TestServer, email: &str, password: &str) -> Reply {
    send_as(
        s,
        None,
        Method::POST,
        "/session",
        Some(json!({"email": email, "password": password})),
    )
    .await
}

/// Creates a user with `role` as the server's admin key, accepts the invitation with
/// [`PASSWORD`], and returns (user id, session key).
pub async fn user_with_role(s: &TestServer, email: &str, role: &str) -> (i64, String) {
    let created = s
        .post(
            "/users",
            json!({"email": email, "firstname": "Test", "lastname": role, "role": role}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let token = created.body["invitation"]["token"]
        .as_str()
        .unwrap()
        .to_string();
    let accepted = send_as(
        s,
        None,
        Method::POST,
        "/session/invitation",
        Some(json!({"token": token, "password": PASSWORD})),
    )
    .await;
    assert_eq!(accepted.status, 200, "{}", accepted.body);
    (
        created.body["user"]["id"].as_i64().unwrap(),
        accepted.body["api_key"].as_str().unwrap().to_string(),
    )
}

/// Runs `statement` on the server's database with its one `?` bound to the time `ago`
/// before now (for moving times back, on either engine).
pub async fn set_time_ago(s: &TestServer, statement: &str, ago: chrono::Duration) {
    let pool = s.db().await;
    kontor_server::sql::query(statement)
        .bind(kontor_server::store::db::ts(
            kontor_server::store::db::now() - ago,
        ))
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
}

/// Runs `statement` (SQL both engines accept) on the server's database.
pub async fn sql(s: &TestServer, statement: &str) {
    let pool = s.db().await;
    kontor_server::sql::query(statement)
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
}
