//! API helpers of [`Server`]: reading records and raw documents, creating the records a
//! test starts from.

use crate::{dist, Server, SmtpServer};
use kontor_server::config::AccountConfig;
use serde_json::{json, Value};

/// A raw answer: status, `Content-Type` and body bytes.
pub struct Raw {
    /// HTTP status.
    pub status: u16,
    /// The `Content-Type` header.
    pub content_type: String,
    /// The body.
    pub bytes: Vec<u8>,
}

impl Server {
    /// Creates a read-only key (as the server's key command does); its secret.
    pub async fn read_only_key(&self) -> String {
        let pool = kontor_server::store::db::open(self._data.path())
            .await
            .expect("database");
        let (_, secret) = kontor_server::access::auth::create_key(&pool, "viewer", true)
            .await
            .expect("read-only key");
        pool.close().await;
        secret
    }

    /// GETs `/api/v1{path}` with the key; the raw answer.
    pub async fn get_raw(&self, path: &str) -> Raw {
        let r = reqwest::Client::new()
            .get(format!("{}/api/v1{path}", self.base))
            .header("Authorization", format!("Token token={}", self.key))
            .send()
            .await
            .expect("request");
        let status = r.status().as_u16();
        let content_type = r
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        let bytes = r.bytes().await.expect("body").to_vec();
        Raw {
            status,
            content_type,
            bytes,
        }
    }

    /// GETs `/api/v1{path}` with the key; the JSON answer (panics on non-2xx).
    pub async fn get(&self, path: &str) -> Value {
        let raw = self.get_raw(path).await;
        let text = String::from_utf8_lossy(&raw.bytes).to_string();
        assert!(
            (200..300).contains(&raw.status),
            "GET {path}: {} {text}",
            raw.status
        );
        serde_json::from_str(&text).expect("json")
    }

    /// Starts a server with the release bundle whose account sends e-mail through `mail`.
    pub async fn start_with_smtp(mail: &SmtpServer) -> Server {
        let account = AccountConfig {
            smtp: Some(mail.config()),
            ..AccountConfig::default()
        };
        Server::start_with(Some(dist()), vec![], account).await
    }

    /// PUTs JSON to `/api/v1{path}` with the key; returns the JSON answer (panics on non-2xx).
    pub async fn put(&self, path: &str, body: Value) -> Value {
        self.send_json(reqwest::Method::PUT, path, body).await
    }

    /// Sends JSON with `method` to `/api/v1{path}` with the key; returns the JSON answer
    /// (panics on non-2xx) — [`Server::post`] and [`Server::put`].
    pub(crate) async fn send_json(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Value,
    ) -> Value {
        let r = reqwest::Client::new()
            .request(method.clone(), format!("{}/api/v1{path}", self.base))
            .header("Authorization", format!("Token token={}", self.key))
            .header("Content-Type", "application/json")
            .body(body.to_string())
            .send()
            .await
            .expect("request");
        let status = r.status();
        let text = r.text().await.expect("body");
        assert!(status.is_success(), "{method} {path}: {status} {text}");
        serde_json::from_str(&text).expect("json")
    }

    /// Creates an offer for `customer` titled `title` (Kranzler Bau GmbH's address, one
    /// item of 100.00 EUR at 19 % tax, dated 2026-11-02, valid until 2026-12-02); returns it.
    pub async fn offer(&self, customer: i64, title: &str) -> Value {
        self.post(
            "/offers",
            json!({"company_id": customer, "recipient_address": "Kranzler Bau GmbH\nRing 1\n10115 Berlin",
                "date": "2026-11-02", "due_date": "2026-12-02", "title": title, "tax": 19,
                "currency": "EUR",
                "items": [{"type": "item", "title": "Scaffolding", "quantity": 1, "unit": "pc", "unit_price": 100}]}),
        )
        .await
    }

    /// Creates an invoice for `customer` titled `title` with one item of 100.00 EUR at
    /// 19 % tax (gross 119.00), due on 2099-12-31 (never overdue); returns it.
    pub async fn invoice(&self, customer: i64, title: &str) -> Value {
        self.post(
            "/invoices",
            json!({"customer_id": customer, "recipient_address": "Hafen Logistik GmbH\nHafenstraße 5\n20457 Hamburg",
                "date": "2026-11-02", "due_date": "2099-12-31", "title": title, "tax": 19, "currency": "EUR",
                "items": [{"type": "item", "title": "Consulting", "quantity": 1, "unit": "h", "unit_price": 100}]}),
        )
        .await
    }

    /// Records the cash purchase "Office chairs" (receipt RE-11, 10 Nov 2026, no supplier):
    /// one item of 119.00 EUR gross, 19 % tax included; returns it.
    pub async fn office_chairs(&self) -> Value {
        self.post(
            "/purchases",
            json!({"date": "2026-11-10", "currency": "EUR", "payment_method": "cash", "receipt_identifier": "RE-11",
                "title": "Office chairs", "items": [{"title": "Chairs", "total": 119, "tax": 19, "tax_included": true}]}),
        )
        .await
    }

    /// Creates a project of `customer` with unbilled time: one activity per `(hours,
    /// description)` at 95.00 per hour; returns the project id and the activity ids.
    pub async fn project_with_time(
        &self,
        customer: i64,
        entries: &[(&str, &str)],
    ) -> (i64, Vec<i64>) {
        let project = self
            .post(
                "/projects",
                json!({"name": "Website relaunch", "customer_id": customer}),
            )
            .await["id"]
            .as_i64()
            .expect("project id");
        let mut ids = Vec::new();
        for (hours, description) in entries {
            let hours: Value = serde_json::from_str(hours).expect("hours");
            let a = self
                .post(
                    "/activities",
                    json!({"project_id": project, "date": "2026-11-03", "hours": hours,
                    "description": description, "hourly_rate": 95, "billable": true}),
                )
                .await;
            ids.push(a["id"].as_i64().expect("activity id"));
        }
        (project, ids)
    }
}
