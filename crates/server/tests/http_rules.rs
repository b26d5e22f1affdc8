//! Transport rules over real HTTP: authentication (both header forms, read-only keys,
//! revocation), the JSON error body for framework errors, 404/405/413/415, CORS and the
//! rate limit.

mod common;

use common::requests::send;
use common::{reply, start, start_with};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn both_header_forms_work_and_anything_else_is_401_with_json() {
    let s = start().await;
    let ok = s
        .client
        .get(s.url("/session"))
        .header("Authorization", format!("Bearer {}", s.key))
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);
    let session = reply(ok).await.body;
    assert!(
        session["id"].is_i64() && session["uuid"].is_string(),
        "{session}"
    );

    for header in [
        None,
        Some("Token token=wrong".to_string()),
        Some(format!("Basic {}", s.key)),
        Some(s.key.clone()),
    ] {
        let mut req = s.client.get(s.url("/invoices"));
        if let Some(h) = &header {
            req = req.header("Authorization", h);
        }
        let r = reply(req.send().await.unwrap()).await;
        assert_eq!(r.status, 401, "{header:?}");
        assert_eq!(r.header("www-authenticate"), "Token realm=\"api\"");
        assert!(r.body["message"].is_string());
        assert!(r.body.get("errors").is_none());
    }
}

#[tokio::test]
async fn read_only_keys_only_read_and_revoked_keys_stop_working() {
    let s = start().await;
    let pool = s.db().await;
    let (info, ro) = kontor_server::access::auth::create_key(&pool, "viewer", true)
        .await
        .unwrap();
    let get = send(s.keyed_as(&ro, Method::GET, "/invoices")).await;
    assert_eq!(get.status, 200);
    let post = send(
        s.keyed_as(&ro, Method::POST, "/companies")
            .header("Content-Type", "application/json")
            .body("{\"name\":\"x\"}"),
    )
    .await;
    assert_eq!(post.status, 403);
    assert!(post.body["message"].as_str().unwrap().contains("read-only"));
    assert!(kontor_server::access::auth::revoke_key(&pool, info.id)
        .await
        .unwrap());
    let get = send(s.keyed_as(&ro, Method::GET, "/invoices")).await;
    assert_eq!(get.status, 401);
    let stored: Vec<Vec<u8>> = kontor_server::sql::query_scalar("SELECT hash FROM api_keys")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert!(
        stored
            .iter()
            .all(|h| h.len() == 32 && !String::from_utf8_lossy(h).contains("kontor_")),
        "only hashes are stored"
    );
}

#[tokio::test]
async fn framework_errors_have_the_json_body() {
    let s = start().await;
    let r = s.get("/nothing/here").await;
    assert_eq!(r.status, 404);
    assert!(r.body["message"].is_string());
    assert_eq!(s.get("/invoices/abc").await.status, 404);
    assert_eq!(s.get("/invoices/424242").await.status, 404);

    let r = send(s.keyed(Method::PATCH, "/invoices")).await;
    assert_eq!(r.status, 405);
    assert!(r.body["message"].is_string());

    let r = s
        .send_raw(Method::POST, "/companies", "text/plain", "name=x")
        .await;
    assert_eq!(r.status, 415);
    assert!(r.body["message"].is_string());

    let r = s
        .send_raw(
            Method::POST,
            "/companies",
            "application/json",
            "{\"name\": ",
        )
        .await;
    assert_eq!(r.status, 400);
    assert!(r.body["message"].as_str().unwrap().contains("JSON"));

    let r = s
        .send_raw(
            Method::POST,
            "/companies",
            "application/json",
            "{\"name\": 5}",
        )
        .await;
    assert_eq!(r.status, 422, "wrong type inside valid JSON");
    assert!(r.body["errors"]["name"].is_array(), "{}", r.body);

    let big = format!("{{\"name\": \"{}\"}}", "x".repeat(1024 * 1024 + 10));
    let r = s
        .send_raw(Method::POST, "/companies", "application/json", big)
        .await;
    assert_eq!(r.status, 413);
    assert!(r.body["message"].is_string());

    let r = reply(s.get_page("/api/v2/invoices").await).await;
    assert_eq!(r.status, 404);
    assert!(r.body["message"].is_string());

    // Unknown fields are ignored.
    let r = s
        .post("/companies", json!({"name": "Extra", "colour": "blue"}))
        .await;
    assert_eq!(r.status, 200);
}

#[tokio::test]
async fn cors_only_for_trusted_origins() {
    let s = start_with(|c| c.cors_origins = vec!["http://127.0.0.1:9999".into()]).await;
    let pre = s
        .client
        .request(reqwest::Method::OPTIONS, s.url("/invoices"))
        .header("Origin", "http://127.0.0.1:9999")
        .header("Access-Control-Request-Method", "GET")
        .header("Access-Control-Request-Headers", "authorization")
        .send()
        .await
        .unwrap();
    assert!(
        pre.status().is_success(),
        "preflight needs no key: {}",
        pre.status()
    );
    let h = pre.headers();
    assert_eq!(h["access-control-allow-origin"], "http://127.0.0.1:9999");
    let allowed = h["access-control-allow-headers"]
        .to_str()
        .unwrap()
        .to_ascii_lowercase();
    assert!(allowed.contains("authorization") && allowed.contains("content-type"));

    let get = s
        .keyed(Method::GET, "/invoices")
        .header("Origin", "http://127.0.0.1:9999")
        .send()
        .await
        .unwrap();
    let expose = get.headers()["access-control-expose-headers"]
        .to_str()
        .unwrap()
        .to_ascii_lowercase();
    for name in [
        "x-page",
        "x-per-page",
        "x-total",
        "link",
        "content-disposition",
    ] {
        assert!(expose.contains(name), "{name} not exposed: {expose}");
    }
    let evil = s
        .keyed(Method::GET, "/invoices")
        .header("Origin", "http://evil.example")
        .send()
        .await
        .unwrap();
    assert!(evil.headers().get("access-control-allow-origin").is_none());
}

#[tokio::test]
async fn rate_limit_answers_429_with_retry_after() {
    let s = start_with(|c| c.rate_limit = 3).await;
    for _ in 0..3 {
        assert_eq!(s.get("/session").await.status, 200);
    }
    let r = s.get("/session").await;
    assert_eq!(r.status, 429);
    let retry: u64 = r.header("retry-after").parse().unwrap();
    assert!(retry >= 1);
    assert!(r.body["message"].is_string());
}

#[tokio::test]
async fn serves_the_bundle_with_fallback_to_index() {
    let dist = tempfile::tempdir().unwrap();
    std::fs::write(dist.path().join("index.html"), "<html>kontor app</html>").unwrap();
    std::fs::write(dist.path().join("app.js"), "console.log(1)").unwrap();
    let path = dist.path().to_path_buf();
    let s = start_with(move |c| c.dist_dir = Some(path)).await;
    let page = s.get_page("/invoices/17").await;
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("kontor app"));
    let js = s.get_page("/app.js").await;
    assert_eq!(js.text().await.unwrap(), "console.log(1)");
    assert_eq!(
        s.get("/unknown").await.status,
        404,
        "API routes never fall back to the page"
    );
}
