//! Issue 16 § 4, nothing per process: two servers on one database (here the embedded
//! SQLite file, which two processes on one machine may share) answer each other's
//! clients — a session made on one works on the other and signing out on one ends it on
//! both; a signed file link made by one is served by the other; an `Idempotency-Key` used
//! on one replays on the other; the rate limit's allowance is one for both.

mod common;

use common::people::{send_as, sign_in, user_with_role, PASSWORD};
use common::TestServer;
use reqwest::Method;
use serde_json::json;

/// A second server on `s`'s data directory (the first keeps running), with `rate_limit`.
async fn second(s: &TestServer, rate_limit: u32) -> TestServer {
    s.second(
        |c| c.rate_limit = rate_limit,
        "one database, one first start",
    )
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn sessions_file_links_and_idempotency_keys_work_on_either_server() {
    let a = common::start().await;
    let b = second(&a, 0).await;

    // A session made on A works on B; signing out on B ends it on A.
    let (_, _) = user_with_role(&a, "ines@example.com", "staff").await;
    let signed = sign_in(&a, "ines@example.com", PASSWORD).await;
    assert_eq!(signed.status, 200, "{}", signed.body);
    let session = signed.body["api_key"].as_str().unwrap().to_string();
    let me = send_as(&b, Some(&session), Method::GET, "/session", None).await;
    assert_eq!(me.status, 200, "{}", me.body);
    let out = send_as(&b, Some(&session), Method::DELETE, "/session", None).await;
    assert!(out.status.is_success(), "{}", out.body);
    let after = send_as(&a, Some(&session), Method::GET, "/session", None).await;
    assert_eq!(after.status, 401, "signed out everywhere");

    // A signed link made by A is served by B.
    common::process::assert_link_served_by_other(&a, &b.base).await;

    // An Idempotency-Key used on A replays its answer on B, without a second invoice.
    let customer = a.customer("Kranzler KG").await;
    let body = common::invoice_body(customer);
    let post = |s: &TestServer| {
        s.client
            .post(s.url("/invoices"))
            .header("Authorization", format!("Token token={}", s.key))
            .header("Idempotency-Key", "one-invoice-please")
            .json(&body)
            .send()
    };
    let first = common::reply(post(&a).await.unwrap()).await;
    assert!(first.status.is_success(), "{}", first.body);
    let again = common::reply(post(&b).await.unwrap()).await;
    assert_eq!(again.header("idempotent-replayed"), "true");
    assert_eq!(again.body["id"], first.body["id"]);
    assert_eq!(b.get("/invoices").await.body.as_array().unwrap().len(), 1);
}

/// Waits until the requests the servers share (`rate_limit_counts`) add up to `n` for one
/// key; panics after 20 seconds.
async fn shared_count_reaches(s: &TestServer, n: i64) {
    let db = s.db().await;
    let mut shared = 0;
    for _ in 0..200 {
        shared = kontor_server::sql::query_scalar::<i64>(
            "SELECT CAST(COALESCE(MAX(shared), 0) AS BIGINT) FROM \
             (SELECT SUM(count) AS shared FROM rate_limit_counts GROUP BY key_id) AS per_key",
        )
        .fetch_one(&db)
        .await
        .unwrap();
        if shared >= n {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("{shared} requests shared, not {n}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_rate_limit_is_one_allowance_across_servers() {
    // The allowance is per 2-minute window: start early in one, so the test stays in it.
    let into_window = chrono::Utc::now().timestamp().rem_euclid(120);
    if into_window > 100 {
        tokio::time::sleep(std::time::Duration::from_secs((121 - into_window) as u64)).await;
    }
    let a = common::start_with(|c| c.rate_limit = 6).await;
    let b = second(&a, 6).await;
    for _ in 0..4 {
        assert_eq!(a.get("/invoices").await.status, 200);
    }
    // Both processes share their counts every second (`rate_limit::SYNC_INTERVAL`): A
    // writes them at its tick, B reads them at its next one.
    shared_count_reaches(&a, 4).await;
    tokio::time::sleep(std::time::Duration::from_millis(2000)).await;
    assert_eq!(b.get("/invoices").await.status, 200);
    assert_eq!(b.get("/invoices").await.status, 200);
    let refused = b.get("/invoices").await;
    assert_eq!(refused.status, 429, "4 on A and 2 on B use the 6");
    let wait: u64 = refused.header("retry-after").parse().unwrap();
    assert!((1..=120).contains(&wait), "{wait}");
    shared_count_reaches(&a, 6).await;
    tokio::time::sleep(std::time::Duration::from_millis(2000)).await;
    assert_eq!(
        a.get("/invoices").await.status,
        429,
        "A sees B's counts too"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_database_that_does_not_answer_gives_503_and_the_server_recovers() {
    if common::postgres::sqlite_only("it holds SQLite's write lock from another process") {
        return;
    }
    use sqlx::Connection;
    let s = common::start().await;
    // Another process holds the database's write lock longer than the server waits for
    // it (its busy timeout, 10 s).
    let mut other = sqlx::SqliteConnection::connect(&format!(
        "sqlite://{}",
        s.data_path().join("kontor.db").display()
    ))
    .await
    .unwrap();
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut other)
        .await
        .unwrap();
    let r = s.post("/companies", json!({"name": "Kranzler KG"})).await;
    assert_eq!(r.status, 503, "{}", r.body);
    assert_eq!(r.header("retry-after"), "5");
    assert!(r.body["message"]
        .as_str()
        .unwrap()
        .starts_with("The database is not available right now; nothing was changed."));
    let r = s.get("/companies").await;
    assert_eq!(r.status, 503, "the key's use is recorded first: {}", r.body);

    // The lock goes away: the same server writes again, without a restart.
    sqlx::query("COMMIT").execute(&mut other).await.unwrap();
    let r = s.post("/companies", json!({"name": "Kranzler KG"})).await;
    assert!(r.status.is_success(), "{} {}", r.status, r.body);
    let names: Vec<_> = s.get("/companies").await.body.as_array().unwrap().clone();
    assert_eq!(names.len(), 1, "the refused request wrote nothing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgresql_going_away_under_load_gives_503_and_the_server_recovers_by_itself() {
    use std::sync::{Arc, Mutex};
    // A cluster of the test's own, which it stops as a crash would and starts again.
    let cluster = common::postgres::Cluster::start();
    let url = cluster.create_database().await;
    let s = Arc::new(common::start_with(|c| c.database = Some(url.clone())).await);
    assert_eq!(
        s.post("/companies", json!({"name": "Vorher GmbH"}))
            .await
            .status,
        200
    );

    #[derive(Default)]
    struct Seen {
        acked: Vec<String>,
        unavailable: usize,
        other: Vec<String>,
    }
    let seen: Arc<Mutex<Seen>> = Arc::default();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let load: Vec<_> = (0..4)
        .map(|worker| {
            let (s, seen, stop) = (s.clone(), seen.clone(), stop.clone());
            tokio::spawn(async move {
                let mut n = 0;
                while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                    n += 1;
                    let name = format!("Firma {worker}-{n} GmbH");
                    let sent = s
                        .client
                        .post(s.url("/companies"))
                        .header("Authorization", format!("Token token={}", s.key))
                        .json(&json!({ "name": name }))
                        .send()
                        .await;
                    {
                        let mut seen = seen.lock().unwrap();
                        match sent {
                            Ok(r) if r.status() == 200 => seen.acked.push(name),
                            Ok(r) if r.status() == 503 => {
                                let retry = r
                                    .headers()
                                    .get("retry-after")
                                    .map(|v| v.to_str().unwrap().to_string());
                                if retry.as_deref() == Some("5") {
                                    seen.unavailable += 1;
                                } else {
                                    seen.other
                                        .push(format!("503 without Retry-After: {retry:?}"));
                                }
                            }
                            Ok(r) => seen.other.push(format!("{}", r.status())),
                            Err(e) => seen.other.push(format!("no answer: {e}")),
                        }
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                }
            })
        })
        .collect();

    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    cluster.halt();
    tokio::time::sleep(std::time::Duration::from_secs(4)).await;
    let during = seen.lock().unwrap().unavailable;
    // While the database is away, a read is a 503 with the retry hint too.
    let r = s.get("/companies").await;
    assert_eq!(r.status, 503, "{}", r.body);
    assert_eq!(r.header("retry-after"), "5");
    assert!(r.body["message"]
        .as_str()
        .unwrap()
        .starts_with("The database is not available right now"));
    cluster.resume();
    // The same server, not restarted, writes again.
    let mut back = false;
    for _ in 0..50 {
        if s.post("/companies", json!({"name": "Nachher GmbH"}))
            .await
            .status
            == 200
        {
            back = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert!(back, "the server writes again after the database came back");
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    for t in load {
        t.await.unwrap();
    }
    let seen = std::mem::take(&mut *seen.lock().unwrap());
    assert!(seen.other.is_empty(), "only 200 or 503: {:?}", seen.other);
    assert!(during > 0, "requests during the outage got 503");
    assert!(seen.acked.len() > 10, "the load ran: {}", seen.acked.len());
    // Every acknowledged write is there.
    let pool = s.db().await;
    let names: std::collections::BTreeSet<String> =
        kontor_server::sql::query_scalar("SELECT name FROM companies")
            .fetch_all(&pool)
            .await
            .unwrap()
            .into_iter()
            .collect();
    pool.close().await;
    for name in &seen.acked {
        assert!(names.contains(name), "acknowledged {name} is stored");
    }
    assert!(names.contains("Vorher GmbH") && names.contains("Nachher GmbH"));
}
