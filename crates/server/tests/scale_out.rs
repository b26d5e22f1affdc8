//! Issue 16 § 6, several servers behind one address: two real `kontor-server serve`
//! processes on one PostgreSQL database (a real throwaway cluster) and one bucket (moto),
//! behind a real haproxy on loopback.
//!
//! - 200 concurrent invoice creations and finalizations spread over both yield 200
//!   distinct, gap-free numbers;
//! - a signed file link made by one process is served by the other;
//! - a session key created on one works on the other;
//! - killing one process mid-load loses no acknowledged write, leaves the numbers
//!   gap-free, and the other keeps serving.

mod common;

use common::haproxy::Haproxy;
use common::people::{send_as, sign_in, user_with_role, PASSWORD};
use common::process::spawn_on;
use common::s3::Moto;
use common::{invoice_body, TestServer};
use reqwest::Method;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A client of `base` with `key` (the processes and the balancer share the test server's
/// helpers; the data directory belongs to the test).
fn client(base: &str, key: &str) -> TestServer {
    TestServer {
        base: base.to_string(),
        key: key.to_string(),
        dir: tempfile::tempdir().unwrap(),
        client: reqwest::Client::builder()
            .timeout(Duration::from_secs(60))
            .build()
            .unwrap(),
        task: None,
        database: None,
    }
}

/// Every invoice's number (all pages).
async fn all_numbers(s: &TestServer) -> Vec<String> {
    let mut numbers = Vec::new();
    for page in 1.. {
        let r = s.get(&format!("/invoices?per_page=100&page={page}")).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let rows = r.body.as_array().unwrap();
        if rows.is_empty() {
            break;
        }
        numbers.extend(
            rows.iter()
                .filter_map(|i| i["identifier"].as_str().map(str::to_string)),
        );
    }
    numbers
}

/// The counters of the `R<yy><mm>-NNN` numbers of the invoices' date (`invoice_body`'s,
/// not today's: the number follows the invoice date), sorted; panics on another form.
fn counters(numbers: &[String]) -> Vec<u32> {
    let body = invoice_body(0);
    let date = body["date"].as_str().expect("the invoice body's date");
    let prefix = chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d")
        .expect("an ISO date")
        .format("R%y%m-")
        .to_string();
    let mut c: Vec<u32> = numbers
        .iter()
        .map(|n| {
            n.strip_prefix(&prefix)
                .unwrap_or_else(|| panic!("{n} is not {prefix}NNN"))
                .parse()
                .unwrap()
        })
        .collect();
    c.sort();
    c
}

/// Sends `body` with `method` to `path` through `s`; the JSON answer of a 2xx, `None` for
/// anything else, a broken connection included (a request the killed process dropped).
async fn try_send(s: &TestServer, method: Method, path: &str, body: &Value) -> Option<Value> {
    let resp = s
        .client
        .request(method, s.url(path))
        .header("Authorization", format!("Token token={}", s.key))
        .json(body)
        .send()
        .await
        .ok()?;
    if !resp.status().is_success() {
        return None;
    }
    resp.json().await.ok()
}

/// Creates a draft and finalizes it; the finalized invoice's (id, number), or `None` when
/// either request was not answered with success.
async fn create_and_finalize(s: &TestServer, customer: i64) -> Option<(i64, String)> {
    let mut body = invoice_body(customer);
    body["status"] = json!("draft");
    let draft = try_send(s, Method::POST, "/invoices", &body).await?;
    let id = draft["id"].as_i64()?;
    let path = format!("/invoices/{id}/update_status");
    let done = try_send(s, Method::PUT, &path, &json!({"status": "created"})).await?;
    // The finalization answers the invoice with its number.
    Some((id, done["identifier"].as_str()?.to_string()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_servers_behind_haproxy_share_numbers_links_sessions_and_survive_a_kill() {
    let (_cluster, database) = common::postgres::some_database().await;
    let moto = Moto::start();
    moto.create_bucket("kontor").await;
    let mut env = moto.env();
    let shared = ["--files", "s3://kontor/scale", "--database", &database];
    // Each process has its own data directory: nothing on disk is shared but the audit
    // key, which every process of one installation needs (issue 29), named by
    // KONTOR_AUDIT_KEY_FILE.
    let (data_a, data_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let keys = tempfile::tempdir().unwrap();
    let key_file = keys.path().join("audit.key");
    env.push((
        "KONTOR_AUDIT_KEY_FILE",
        key_file.to_string_lossy().into_owned(),
    ));
    let (mut a, base_a, key) = spawn_on(data_a.path(), &shared, &env);
    let key = key.expect("the first start prints a key");
    let (mut b, base_b, second_key) = spawn_on(data_b.path(), &shared, &env);
    assert!(second_key.is_none(), "one database, one first start");
    let lb = Haproxy::start(&[&base_a, &base_b]);
    let (via_lb, on_a, on_b) = (
        client(&lb.base, &key),
        client(&base_a, &key),
        client(&base_b, &key),
    );
    let customer = via_lb.customer("Kranzler KG").await;

    // 200 concurrent creations and finalizations through the balancer.
    let via_lb = Arc::new(via_lb);
    let tasks: Vec<_> = (0..200)
        .map(|_| {
            let s = via_lb.clone();
            tokio::spawn(async move { create_and_finalize(&s, customer).await })
        })
        .collect();
    let mut numbers = Vec::new();
    for t in tasks {
        let (_, number) = t
            .await
            .unwrap()
            .expect("every request answered with success");
        numbers.push(number);
    }
    let distinct: BTreeSet<_> = numbers.iter().collect();
    assert_eq!(distinct.len(), 200, "distinct numbers");
    assert_eq!(
        counters(&numbers),
        (1..=200).collect::<Vec<_>>(),
        "gap-free"
    );

    // Both processes served: each process's own log of requests is not visible, so ask
    // each directly for an invoice the other may have made.
    assert_eq!(on_a.get("/invoices/1").await.status, 200);
    assert_eq!(on_b.get("/invoices/1").await.status, 200);

    // A signed link made by A is served by B (the file is in the bucket).
    common::process::assert_link_served_by_other(&on_a, &base_b).await;

    // A session made on A works on B.
    user_with_role(&on_a, "ines@example.com", "staff").await;
    let signed = sign_in(&on_a, "ines@example.com", PASSWORD).await;
    assert_eq!(signed.status, 200, "{}", signed.body);
    let session = signed.body["api_key"].as_str().unwrap();
    let me = send_as(&on_b, Some(session), Method::GET, "/session", None).await;
    assert_eq!(me.status, 200, "{}", me.body);
    assert_eq!(me.body["user"]["email"], "ines@example.com");

    // Kill A mid-load: no acknowledged write is lost and B keeps serving.
    let acked: Arc<Mutex<Vec<(i64, String)>>> = Arc::default();
    let after_kill = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let killed = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let clients: Vec<_> = (0..8)
        .map(|_| {
            let (s, acked, killed, after_kill) = (
                via_lb.clone(),
                acked.clone(),
                killed.clone(),
                after_kill.clone(),
            );
            tokio::spawn(async move {
                let end = tokio::time::Instant::now() + Duration::from_secs(6);
                while tokio::time::Instant::now() < end {
                    if let Some(done) = create_and_finalize(&s, customer).await {
                        acked.lock().unwrap().push(done);
                        if killed.load(std::sync::atomic::Ordering::SeqCst) {
                            after_kill.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        }
                    }
                }
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_secs(2)).await;
    a.kill().ok();
    a.wait().ok();
    // Counted as "after" once the balancer has noticed (one failed check, 300 ms).
    tokio::time::sleep(Duration::from_millis(700)).await;
    killed.store(true, std::sync::atomic::Ordering::SeqCst);
    for c in clients {
        c.await.unwrap();
    }
    let acked = acked.lock().unwrap().clone();
    eprintln!(
        "kill under load: {} acknowledged, {} after the kill",
        acked.len(),
        after_kill.load(std::sync::atomic::Ordering::SeqCst)
    );
    assert!(
        acked.len() >= 10,
        "the load ran: {} acknowledged",
        acked.len()
    );
    assert!(
        after_kill.load(std::sync::atomic::Ordering::SeqCst) > 0,
        "B kept serving after A was killed"
    );
    for (id, number) in &acked {
        let r = via_lb.get(&format!("/invoices/{id}")).await;
        assert_eq!(r.status, 200, "acknowledged invoice {id} is there");
        assert_eq!(r.body["identifier"], Value::from(number.as_str()));
    }
    let all = all_numbers(&via_lb).await;
    let n = all.len() as u32;
    assert_eq!(
        counters(&all),
        (1..=n).collect::<Vec<_>>(),
        "still gap-free after the kill"
    );
    b.kill().ok();
    b.wait().ok();
    // Both processes sealed with the one key: the trail verifies as a whole.
    let verified = common::process::run_ok(
        data_b.path(),
        &["--database", &database, "audit", "verify"],
        &[(
            "KONTOR_AUDIT_KEY_FILE",
            key_file.to_string_lossy().into_owned(),
        )],
    );
    assert!(verified.contains("intact"), "{verified}");
}
