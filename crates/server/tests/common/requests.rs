//! Requests the JSON helpers of [`TestServer`] do not make: records made for their id,
//! bodies sent as they are, extra headers, pages outside the API.

use super::{reply, Reply, TestServer};
use reqwest::{Method, RequestBuilder};
use serde_json::Value;

/// Whether `mail` (an RFC 5322 message) is whole: its header ends, and a multipart message
/// ends with its outermost closing boundary (`--boundary--`).
fn written_to_its_end(mail: &str) -> bool {
    let Some((head, _)) = mail.split_once("\r\n\r\n") else {
        return false;
    };
    let Some(at) = head.to_ascii_lowercase().find("boundary=") else {
        return true;
    };
    let boundary: String = head[at + "boundary=".len()..]
        .trim_start_matches('"')
        .chars()
        .take_while(|c| !matches!(c, '"' | ';' | '\r' | '\n' | ' '))
        .collect();
    mail.trim_end().ends_with(&format!("--{boundary}--"))
}

impl TestServer {
    /// The outbox's messages (`<data>/outbox/*.eml`, as sent without SMTP) once there are
    /// at least `n` of them and every one is written to its end, for e-mails sent in the
    /// background (lettre's file transport creates the file, then writes it: a reader can
    /// see it empty or half written); panics after 20 seconds.
    pub async fn outbox(&self, n: usize) -> Vec<String> {
        let dir = self.data_path().join("outbox");
        for _ in 0..200 {
            let mails: Vec<String> = std::fs::read_dir(&dir)
                .map(|entries| {
                    entries
                        .flatten()
                        .map(|e| e.path())
                        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
                        .filter_map(|p| std::fs::read_to_string(p).ok())
                        .collect()
                })
                .unwrap_or_default();
            if mails.len() >= n && mails.iter().all(|m| written_to_its_end(m)) {
                return mails;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        panic!("fewer than {n} messages in the outbox");
    }

    /// POSTs `body` to the API path `path` and returns the `id` of the record it made
    /// (panics when the reply has no numeric `id`).
    pub async fn create(&self, path: &str, body: Value) -> i64 {
        self.post(path, body).await.body["id"].as_i64().unwrap()
    }

    /// PUT `/invoices/{invoice}/update_status` with the status `created`: finalizes a
    /// draft (it draws its number); the reply unchecked.
    pub async fn finalize(&self, invoice: impl std::fmt::Display) -> Reply {
        self.put(
            &format!("/invoices/{invoice}/update_status"),
            serde_json::json!({"status": "created"}),
        )
        .await
    }

    /// PATCH `{purchase}/update_status` (`purchase`: `/purchases/{id}`) with `status`
    /// (`pending`, `approved`); asserts 200.
    pub async fn set_purchase_status(&self, purchase: &str, status: &str) {
        let r = self
            .send(
                Method::PATCH,
                &format!("{purchase}/update_status"),
                Some(serde_json::json!({ "status": status })),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }

    /// A request to the API path `path` authorized with the server's key, not yet sent
    /// (for adding headers or a body of one's own; send it with [`send`] or [`send_json`]).
    pub fn keyed(&self, method: Method, path: &str) -> RequestBuilder {
        self.keyed_as(&self.key, method, path)
    }

    /// [`TestServer::keyed`] authorized with `key` instead of the server's key.
    pub fn keyed_as(&self, key: &str, method: Method, path: &str) -> RequestBuilder {
        self.client
            .request(method, self.url(path))
            .header("Authorization", format!("Token token={key}"))
    }

    /// Sends `body` as it is (not encoded again) with `Content-Type: content_type` to the
    /// API path `path`, authorized with the server's key.
    pub async fn send_raw(
        &self,
        method: Method,
        path: &str,
        content_type: &str,
        body: impl Into<reqwest::Body>,
    ) -> Reply {
        send(
            self.keyed(method, path)
                .header("Content-Type", content_type)
                .body(body),
        )
        .await
    }

    /// POST /invoices/preview.pdf with the unsaved invoice `body` as JSON, authorized with
    /// the server's key; the response unread (a PDF when the body is valid).
    pub async fn invoice_preview(&self, body: &Value) -> reqwest::Response {
        self.keyed(Method::POST, "/invoices/preview.pdf")
            .header("Content-Type", "application/json")
            .body(body.to_string())
            .send()
            .await
            .unwrap()
    }

    /// GET `path` below the server's root (outside `/api/v1`: the app's bundle, the API
    /// docs), without a key; the response unread.
    pub async fn get_page(&self, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .unwrap()
    }
}

/// Sends every request of `requests` at the same time (each on its own task) and answers
/// their HTTP statuses, in the order given.
pub async fn statuses_at_once(requests: impl IntoIterator<Item = RequestBuilder>) -> Vec<u16> {
    let tasks: Vec<_> = requests
        .into_iter()
        .map(|r| tokio::spawn(async move { r.send().await.unwrap().status().as_u16() }))
        .collect();
    let mut statuses = Vec::new();
    for t in tasks {
        statuses.push(t.await.unwrap());
    }
    statuses
}

/// Sends `req` and reads its [`Reply`].
pub async fn send(req: RequestBuilder) -> Reply {
    reply(req.send().await.unwrap()).await
}

/// Sends `req` with `body` as its JSON body (`Content-Type: application/json`) and reads
/// its [`Reply`].
pub async fn send_json(req: RequestBuilder, body: &Value) -> Reply {
    send(
        req.header("Content-Type", "application/json")
            .body(body.to_string()),
    )
    .await
}
