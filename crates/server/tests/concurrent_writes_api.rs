//! Concurrent writers never get a 500 (issue 13, found by `scripts/bench.sh`): eight clients
//! creating numbered invoices at the same time all succeed — write transactions take
//! SQLite's write lock up front (`db::begin_write`), so none fails half-way with
//! `SQLITE_BUSY_SNAPSHOT` — and the numbers are distinct and the total exact.

mod common;

use common::{invoice_body, start};
use std::collections::HashSet;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn eight_clients_creating_invoices_at_once_all_succeed() {
    let s = start().await;
    let customer = s.customer("Hafen Logistik GmbH").await;
    let mut tasks = Vec::new();
    for client in 0..8 {
        let base = s.base.clone();
        let key = s.key.clone();
        tasks.push(tokio::spawn(async move {
            let http = reqwest::Client::new();
            let mut numbers = Vec::new();
            for n in 0..30 {
                let mut body = invoice_body(customer);
                body["title"] = serde_json::json!(format!("Client {client} invoice {n}"));
                let r = http
                    .post(format!("{base}/api/v1/invoices"))
                    .header("Authorization", format!("Token token={key}"))
                    .json(&body)
                    .send()
                    .await
                    .unwrap();
                let status = r.status();
                let body: serde_json::Value = r.json().await.unwrap();
                assert!(status.is_success(), "{status}: {body}");
                numbers.push(body["identifier"].as_str().unwrap().to_string());
            }
            numbers
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    let distinct: HashSet<_> = all.iter().collect();
    assert_eq!(distinct.len(), 240, "every invoice got its own number");
    assert_eq!(s.get("/invoices").await.header("x-total"), "240");
}
