//! Issue 15 § 3, `Idempotency-Key` on POST against a real server: concurrent duplicates
//! are answered once (one record, identical answers), a retry replays the first answer
//! without a second write, the same key with another body is a 422 on `Idempotency-Key`,
//! a key older than 24 hours writes anew, keys are per API key, a malformed key is a 422,
//! and a request that failed validation (4xx) is replayed as that 4xx.

mod common;

use common::requests::send_json;
use common::{invoice_body, Reply, TestServer};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

async fn post_with_key(
    server: &TestServer,
    api_key: &str,
    path: &str,
    body: &Value,
    idem: &str,
) -> Reply {
    let req = server
        .keyed_as(api_key, Method::POST, path)
        .header("Idempotency-Key", idem);
    send_json(req, body).await
}

async fn count(server: &TestServer, path: &str) -> usize {
    let r = server.get(path).await;
    assert_eq!(r.status, StatusCode::OK, "{:?}", r.body);
    r.body.as_array().unwrap().len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_duplicates_write_once_and_get_the_same_answer() {
    let server = common::start().await;
    let customer = server.customer("ACME GmbH").await;
    let body = invoice_body(customer);
    let server = std::sync::Arc::new(server);
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let server = server.clone();
        let body = body.clone();
        tasks.push(tokio::spawn(async move {
            post_with_key(&server, &server.key, "/invoices", &body, "create-invoice-1").await
        }));
    }
    let mut answers = Vec::new();
    for t in tasks {
        answers.push(t.await.unwrap());
    }
    for a in &answers {
        assert_eq!(a.status, StatusCode::OK, "{:?}", a.body);
        assert_eq!(a.body, answers[0].body);
    }
    let replayed = answers
        .iter()
        .filter(|a| a.header("idempotent-replayed") == "true")
        .count();
    assert_eq!(replayed, 9, "one request wrote, nine were replayed");
    assert_eq!(count(&server, "/invoices").await, 1);

    // A later retry: the first answer again, still one invoice.
    let retry = post_with_key(&server, &server.key, "/invoices", &body, "create-invoice-1").await;
    assert_eq!(retry.status, StatusCode::OK);
    assert_eq!(retry.body, answers[0].body);
    assert_eq!(retry.header("idempotent-replayed"), "true");
    assert_eq!(count(&server, "/invoices").await, 1);

    // The same key with another body: 422 naming the header, nothing written.
    let mut other = body.clone();
    other["title"] = json!("Another title");
    let refused = post_with_key(
        &server,
        &server.key,
        "/invoices",
        &other,
        "create-invoice-1",
    )
    .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{:?}",
        refused.body
    );
    assert!(
        refused.body["errors"]["Idempotency-Key"].is_array(),
        "{:?}",
        refused.body
    );
    assert_eq!(count(&server, "/invoices").await, 1);

    // The same key on another path is another request too.
    let elsewhere = post_with_key(
        &server,
        &server.key,
        "/companies",
        &json!({"name": "Other GmbH"}),
        "create-invoice-1",
    )
    .await;
    assert_eq!(elsewhere.status, StatusCode::UNPROCESSABLE_ENTITY);

    // A fresh key writes a second invoice; no key at all writes each time.
    let second = post_with_key(&server, &server.key, "/invoices", &body, "create-invoice-2").await;
    assert_eq!(second.status, StatusCode::OK);
    assert_ne!(second.body["id"], answers[0].body["id"]);
    server.post("/invoices", body.clone()).await;
    assert_eq!(count(&server, "/invoices").await, 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_duplicate_payments_record_one_payment() {
    let server = common::start().await;
    let customer = server.customer("ACME GmbH").await;
    let invoice = server.invoice(customer, json!({})).await.body["id"]
        .as_i64()
        .unwrap();
    let payment = json!({"invoice_id": invoice, "date": "2026-11-20", "paid_total": 100});
    let server = std::sync::Arc::new(server);
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let (server, payment) = (server.clone(), payment.clone());
        tasks.push(tokio::spawn(async move {
            post_with_key(
                &server,
                &server.key,
                "/invoices/payments",
                &payment,
                "pay-1",
            )
            .await
        }));
    }
    let mut bodies = Vec::new();
    for t in tasks {
        let a = t.await.unwrap();
        assert_eq!(a.status, StatusCode::OK, "{:?}", a.body);
        bodies.push(a.body);
    }
    assert!(bodies.iter().all(|b| b == &bodies[0]));
    let payments = server
        .get(&format!("/invoices/payments?invoice_id={invoice}"))
        .await;
    assert_eq!(
        payments.body.as_array().unwrap().len(),
        1,
        "{:?}",
        payments.body
    );
}

#[tokio::test]
async fn keys_expire_after_24_hours_and_belong_to_one_api_key() {
    let server = common::start().await;
    let customer = server.customer("ACME GmbH").await;
    let body = invoice_body(customer);
    let first = post_with_key(&server, &server.key, "/invoices", &body, "k-aged").await;
    assert_eq!(first.status, StatusCode::OK);

    // Another API key with the same idempotency key: its own request, a second invoice.
    let (_, other_key) =
        common::people::user_with_role(&server, "second@kontor.test", "admin").await;
    let theirs = post_with_key(&server, &other_key, "/invoices", &body, "k-aged").await;
    assert_eq!(theirs.status, StatusCode::OK);
    assert_ne!(theirs.header("idempotent-replayed"), "true");
    assert_eq!(count(&server, "/invoices").await, 2);

    // 25 hours later the key is forgotten: the same request writes again.
    common::people::sql(
        &server,
        "UPDATE idempotency_keys SET created_at = created_at - 25 * 3600",
    )
    .await;
    let later = post_with_key(&server, &server.key, "/invoices", &body, "k-aged").await;
    assert_eq!(later.status, StatusCode::OK);
    assert_ne!(later.header("idempotent-replayed"), "true");
    assert_ne!(later.body["id"], first.body["id"]);
    assert_eq!(count(&server, "/invoices").await, 3);
}

#[tokio::test]
async fn refusals_are_replayed_and_bad_keys_refused() {
    let server = common::start().await;
    // A refused body (4xx) is an answer too: the retry gets it without running again.
    let bad = json!({"name": ""});
    let first = post_with_key(&server, &server.key, "/companies", &bad, "bad-1").await;
    assert_eq!(first.status, StatusCode::UNPROCESSABLE_ENTITY);
    let again = post_with_key(&server, &server.key, "/companies", &bad, "bad-1").await;
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(again.body, first.body);
    assert_eq!(again.header("idempotent-replayed"), "true");

    for key in ["", "with space", &"k".repeat(256)] {
        let r = post_with_key(
            &server,
            &server.key,
            "/companies",
            &json!({"name": "X"}),
            key,
        )
        .await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{key:?}");
        assert!(
            r.body["errors"]["Idempotency-Key"].is_array(),
            "{:?}",
            r.body
        );
    }
    assert_eq!(count(&server, "/companies").await, 0);

    // Other methods ignore the header.
    let get = server
        .client
        .get(server.url("/companies"))
        .header("Authorization", format!("Token token={}", server.key))
        .header("Idempotency-Key", "with space")
        .send()
        .await
        .unwrap();
    assert_eq!(get.status(), StatusCode::OK);
}

/// Leaves the key `idem` as a crash of its process would: pending, without an answer,
/// owned by a process that is gone, `committed` as given.
async fn as_left_by_a_crash(server: &TestServer, idem: &str, committed: bool) {
    let pool = server.db().await;
    let changed = kontor_server::sql::query(
        "UPDATE idempotency_keys SET state = 'pending', status = NULL, content_type = NULL, \
         location = NULL, body = NULL, owner = 'a-process-that-was-killed', committed = $1 \
         WHERE idem_key = $2",
    )
    .bind(committed)
    .bind(idem)
    .execute(&pool)
    .await
    .unwrap();
    assert_eq!(changed.rows_affected(), 1);
    pool.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_leaves_no_key_stuck_committed_writes_answer_uncommitted_ones_run_again() {
    let server = common::start().await;
    let customer = server.customer("ACME GmbH").await;
    let body = invoice_body(customer);
    // The write committed, the answer was lost: the retry gets the invoice, no second one.
    let first = post_with_key(&server, &server.key, "/invoices", &body, "crash-1").await;
    assert_eq!(first.status, StatusCode::OK, "{:?}", first.body);
    as_left_by_a_crash(&server, "crash-1", true).await;
    let started = std::time::Instant::now();
    let retry = post_with_key(&server, &server.key, "/invoices", &body, "crash-1").await;
    assert_eq!(retry.status, StatusCode::OK, "{:?}", retry.body);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "answered at once"
    );
    assert_eq!(retry.headers["idempotent-replayed"], "true");
    assert_eq!(retry.body["id"], first.body["id"]);
    assert_eq!(retry.body["identifier"], first.body["identifier"]);
    assert_eq!(count(&server, "/invoices").await, 1);
    // … and that answer is now the key's: the next retry replays it.
    let again = post_with_key(&server, &server.key, "/invoices", &body, "crash-1").await;
    assert_eq!(again.body["id"], first.body["id"]);

    // Nothing committed (the process died before its write): the retry runs again, once.
    let mut draft = invoice_body(customer);
    draft["status"] = json!("draft");
    let lost = post_with_key(&server, &server.key, "/invoices", &draft, "crash-2").await;
    assert_eq!(lost.status, StatusCode::OK, "{:?}", lost.body);
    let gone = server
        .delete(&format!("/invoices/{}", lost.body["id"]), None)
        .await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT);
    as_left_by_a_crash(&server, "crash-2", false).await;
    let ran = post_with_key(&server, &server.key, "/invoices", &draft, "crash-2").await;
    assert_eq!(ran.status, StatusCode::OK, "{:?}", ran.body);
    assert_ne!(ran.body["id"], lost.body["id"], "written anew");
    assert!(ran.headers.get("idempotent-replayed").is_none());
    let replayed = post_with_key(&server, &server.key, "/invoices", &draft, "crash-2").await;
    assert_eq!(replayed.body["id"], ran.body["id"]);
    assert_eq!(count(&server, "/invoices").await, 2);
}
