//! A real server on 127.0.0.1 over a fresh SQLite file, and a small HTTP client for it.
#![allow(dead_code)]

use kontor_server::config::{AccountConfig, ServerConfig};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub mod einvoice;
pub mod fingerprint;
pub mod haproxy;
pub mod imap;
pub mod people;
pub mod postgres;
pub mod process;
pub mod qr;
pub mod requests;
pub mod s3;
pub mod smtp;
pub mod source;
pub mod tools;

// Not every test binary reads PDFs.
#[allow(unused_imports)]
pub use tools::{free_port, pdftotext};
// Not every test binary compares databases.
#[allow(unused_imports)]
pub use fingerprint::{db_fingerprint, pg_fingerprint};

/// A real 1 × 1 pixel PNG (a logo's header must be readable, issue 29).
pub const PNG: &[u8] = &[
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
    0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0xDA, 0x63, 0x64, 0x60, 0xF8, 0x5F,
    0x0F, 0x00, 0x02, 0x87, 0x01, 0x80, 0xEB, 0x47, 0xBA, 0x92, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
    0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
];

/// A list's JSON without its signed links (`file_url`: their expiry moves with the
/// clock's second, so two reads of unchanged records may differ there).
pub fn unsigned(mut v: Value) -> Value {
    for item in v.as_array_mut().into_iter().flatten() {
        item.as_object_mut().map(|o| o.remove("file_url"));
    }
    v
}

/// Waits until something listens on 127.0.0.1:`port`; panics naming `what` after 30 s.
pub fn wait_for_port(port: u16, what: &str) {
    let started = std::time::Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "{what} did not start"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// GET /invoices/summary without filters (the kept `invoice_totals`, issue 13) equals the
/// same summary computed over every live invoice (a filter that selects all of them);
/// answers it. `step` names the moment in the assertion messages.
pub async fn kept_summary_is_exact(s: &TestServer, step: &str) -> Value {
    let kept = s.get("/invoices/summary").await;
    assert_eq!(kept.status, 200, "{step}: {}", kept.body);
    let computed = s
        .get("/invoices/summary?updated_after=2000-01-01T00:00:00Z")
        .await;
    assert_eq!(computed.status, 200, "{step}: {}", computed.body);
    assert_eq!(kept.body, computed.body, "{step}");
    kept.body
}

/// A running server with its first full-access key.
pub struct TestServer {
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    /// The initial full-access key.
    pub key: String,
    /// The data directory (kept until drop).
    pub dir: tempfile::TempDir,
    pub client: reqwest::Client,
    /// The task serving it (aborted by [`TestServer::stop`]).
    pub task: Option<tokio::task::JoinHandle<Result<(), String>>>,
    /// Its `--database` (a PostgreSQL URL when the suite runs on PostgreSQL).
    pub database: Option<String>,
}

/// A response: status, headers and the JSON body (`Value::Null` when empty).
pub struct Reply {
    pub status: StatusCode,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
}

impl Reply {
    pub fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }
}

pub async fn start() -> TestServer {
    start_with(|_| {}).await
}

pub async fn start_with(adjust: impl FnOnce(&mut ServerConfig)) -> TestServer {
    start_bound(adjust, None).await
}

/// Like [`start`], with the header-read timeout set to `timeout` (see
/// `kontor_server::HEADER_READ_TIMEOUT`).
pub async fn start_with_header_timeout(timeout: std::time::Duration) -> TestServer {
    start_bound(|_| {}, Some(timeout)).await
}

/// Binds a server on a fresh data directory (config changed by `adjust`, header-read
/// timeout replaced when given) and serves it in the background.
async fn start_bound(
    adjust: impl FnOnce(&mut ServerConfig),
    header_read_timeout: Option<std::time::Duration>,
) -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    if let Ok(filter) = std::env::var("KONTOR_TEST_LOG") {
        // The server's log on the test's output, for finding the cause of a 500
        // (`KONTOR_TEST_LOG=1`, or a filter such as `sqlx=debug`).
        let filter = if filter == "1" {
            "kontor_server=warn".to_string()
        } else {
            filter
        };
        let _ = tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_test_writer()
            .try_init();
    }
    let mut config = test_config(dir.path());
    if let Some(admin) = postgres::suite_cluster() {
        config.database = Some(postgres::fresh_database(&admin).await);
    }
    adjust(&mut config);
    let mut bound = kontor_server::bind(&config).await.unwrap();
    if let Some(timeout) = header_read_timeout {
        bound.header_read_timeout = timeout;
    }
    let key = bound
        .initial_key
        .clone()
        .expect("first start creates a key");
    serve(bound, key, dir, config.database)
}

/// The configuration of a test server on `data_dir`: a free port on 127.0.0.1, no
/// bundle, no CORS origins, no rate limit, the default account settings.
pub fn test_config(data_dir: &Path) -> ServerConfig {
    ServerConfig {
        listen: "127.0.0.1:0".parse().unwrap(),
        data_dir: data_dir.to_path_buf(),
        dist_dir: None,
        cors_origins: vec![],
        rate_limit: 0,
        files: None,
        database: None,
        account: AccountConfig::default(),
    }
}

/// Serves `bound` in the background; `key` is the key the client sends.
fn serve(
    bound: kontor_server::Bound,
    key: String,
    dir: tempfile::TempDir,
    database: Option<String>,
) -> TestServer {
    let addr = bound.listener.local_addr().unwrap();
    let task = tokio::spawn(kontor_server::run(bound));
    TestServer {
        base: format!("http://{addr}"),
        key,
        dir,
        client: reqwest::Client::new(),
        task: Some(task),
        database,
    }
}

/// Another server on `config`, whose data already has keys (panics with `why` when binding
/// made a first key), serving in the background; its client sends `key`. Its `dir` is a
/// fresh empty one: the data stays where `config` says.
pub async fn serve_existing(config: &ServerConfig, key: &str, why: &str) -> TestServer {
    let bound = kontor_server::bind(config).await.unwrap();
    assert!(bound.initial_key.is_none(), "{why}");
    serve(
        bound,
        key.to_string(),
        tempfile::tempdir().unwrap(),
        config.database.clone(),
    )
}

/// A server on a data directory the `demo` command filled, with a key made by
/// `keys create` (the demo account, its customers and invoices).
pub async fn start_demo() -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    cli(&["demo"], dir.path());
    let key = cli(&["keys", "create", "--name", "test"], dir.path())
        .lines()
        .last()
        .unwrap()
        .to_string();
    let bound = kontor_server::bind(&test_config(dir.path())).await.unwrap();
    serve(bound, key, dir, None)
}

/// Runs the `kontor-server` binary with `args` on the data directory `data`; returns
/// its standard output (panics with its standard error when it fails).
pub fn cli(args: &[&str], data: &Path) -> String {
    let out = cli_output(args, data);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs the `kontor-server` binary with `args` on the data directory `data`; its output,
/// whether it succeeded or not.
pub fn cli_output(args: &[&str], data: &Path) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_kontor-server"))
        .arg("--data")
        .arg(data)
        .args(args)
        .output()
        .unwrap()
}

impl TestServer {
    /// `kontor-server` on this server's data (its data directory and, on PostgreSQL, its
    /// database), ready for a subcommand's arguments.
    pub fn command(&self) -> std::process::Command {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_kontor-server"));
        c.arg("--data").arg(self.dir.path());
        if let Some(url) = &self.database {
            c.arg("--database").arg(url);
        }
        c
    }

    /// Runs `kontor-server ARGS` on this server's data ([`Self::command`]); returns its
    /// standard output and fails the test when it fails.
    pub fn cli(&self, args: &[&str]) -> String {
        let out = self.command().args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// The fingerprint of this server's database (either engine) and of the stored files
    /// under `files` ([`db_fingerprint`], [`pg_fingerprint`]).
    pub async fn fingerprint(
        &self,
        files: Option<&Path>,
        skip: &[&str],
    ) -> BTreeMap<String, String> {
        match &self.database {
            Some(url) => pg_fingerprint(url, files, skip).await,
            None => db_fingerprint(&self.dir.path().join("kontor.db"), files, skip).await,
        }
    }

    /// A second server on this server's data (its directory and database) beside it, with
    /// `config` as [`test_config`] made then changed by `adjust`, and this server's key.
    pub async fn second(&self, adjust: impl FnOnce(&mut ServerConfig), why: &str) -> TestServer {
        let mut config = test_config(self.dir.path());
        config.database = self.database.clone();
        adjust(&mut config);
        serve_existing(&config, &self.key, why).await
    }

    /// Stops serving (the listener and the server's background jobs); the data directory
    /// stays. Connections already open may finish their requests.
    pub async fn stop(&mut self) {
        if let Some(task) = self.task.take() {
            task.abort();
            let _ = task.await;
        }
    }

    /// Stops the server and starts a new one on the same data directory with the default
    /// test configuration ([`test_config`]; what `start_with` adjusted is not repeated),
    /// as a restart of the process would; the key stays valid.
    pub async fn restart(&mut self) {
        self.stop().await;
        let mut config = test_config(self.dir.path());
        config.database = self.database.clone();
        let bound = kontor_server::bind(&config).await.unwrap();
        let addr = bound.listener.local_addr().unwrap();
        self.base = format!("http://{addr}");
        self.task = Some(tokio::spawn(kontor_server::run(bound)));
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}/api/v1{}", self.base, path)
    }

    /// The server's database (SQLite in its data directory, or its PostgreSQL database),
    /// for checking what was stored.
    pub async fn db(&self) -> kontor_server::sql::Db {
        kontor_server::store::db::open_located(self.database.as_deref(), self.dir.path())
            .await
            .unwrap()
    }

    pub fn data_path(&self) -> PathBuf {
        self.dir.path().to_path_buf()
    }

    pub async fn send(&self, method: Method, path: &str, body: Option<Value>) -> Reply {
        let mut req = self
            .client
            .request(method, self.url(path))
            .header("Authorization", format!("Token token={}", self.key));
        if let Some(b) = body {
            req = req
                .header("Content-Type", "application/json")
                .body(serde_json::to_string(&b).unwrap());
        }
        reply(req.send().await.unwrap()).await
    }

    pub async fn get(&self, path: &str) -> Reply {
        self.send(Method::GET, path, None).await
    }

    pub async fn post(&self, path: &str, body: Value) -> Reply {
        self.send(Method::POST, path, Some(body)).await
    }

    pub async fn put(&self, path: &str, body: Value) -> Reply {
        self.send(Method::PUT, path, Some(body)).await
    }

    pub async fn delete(&self, path: &str, body: Option<Value>) -> Reply {
        self.send(Method::DELETE, path, body).await
    }

    /// Sends `bytes` as the multipart part `file` (file name `name`, type
    /// `application/octet-stream`) to `path`, authorized with `key`.
    pub async fn upload_as(
        &self,
        key: &str,
        method: Method,
        path: &str,
        name: &str,
        bytes: &[u8],
    ) -> Reply {
        let part = reqwest::multipart::Part::bytes(bytes.to_vec())
            .file_name(name.to_string())
            .mime_str("application/octet-stream")
            .unwrap();
        let form = reqwest::multipart::Form::new().part("file", part);
        let req = self
            .client
            .request(method, self.url(path))
            .header("Authorization", format!("Token token={key}"))
            .multipart(form);
        reply(req.send().await.unwrap()).await
    }

    /// [`TestServer::upload_as`] with the server's key.
    pub async fn upload(&self, method: Method, path: &str, name: &str, bytes: &[u8]) -> Reply {
        self.upload_as(&self.key, method, path, name, bytes).await
    }

    /// GET `path` with the key, unparsed: (status, content type or "", body bytes).
    pub async fn bytes(&self, path: &str) -> (u16, String, Vec<u8>) {
        let resp = self
            .client
            .get(self.url(path))
            .header("Authorization", format!("Token token={}", self.key))
            .send()
            .await
            .unwrap();
        let status = resp.status().as_u16();
        let ty = resp
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default();
        (status, ty, resp.bytes().await.unwrap().to_vec())
    }

    /// A second API key ("viewer") with read-only rights, made in the database.
    pub async fn read_only_key(&self) -> String {
        let pool = self.db().await;
        let (_, key) = kontor_server::access::auth::create_key(&pool, "viewer", true)
            .await
            .unwrap();
        pool.close().await;
        key
    }

    /// The HTTP status of a request authorized with `key` ([`people::send_as`]).
    pub async fn status_as(
        &self,
        key: &str,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> u16 {
        people::send_as(self, Some(key), method, path, body)
            .await
            .status
            .as_u16()
    }

    /// Creates a customer and returns its id.
    pub async fn customer(&self, name: &str) -> i64 {
        let r = self.post("/companies", json!({"name": name, "address": "Main St 1\n12345 Town", "email": "billing@example.com"})).await;
        assert_eq!(r.status, 200, "{}", r.body);
        r.body["id"].as_i64().unwrap()
    }

    /// Creates an invoice from a valid body for `customer` with `overrides` merged in.
    pub async fn invoice(&self, customer: i64, overrides: Value) -> Reply {
        let mut body = invoice_body(customer);
        merge(&mut body, overrides);
        self.post("/invoices", body).await
    }
}

pub async fn reply(resp: reqwest::Response) -> Reply {
    let status = resp.status();
    let headers = resp.headers().clone();
    let text = resp.text().await.unwrap();
    let body = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap_or(Value::String(text))
    };
    Reply {
        status,
        headers,
        body,
    }
}

/// A valid invoice body: a title, two items and a lump sum; net 250.00, gross 297.50. Due
/// on 2099-12-31, so it never becomes overdue (issue 14) under a test that checks another
/// status; the dunning tests give their invoices past due dates.
pub fn invoice_body(customer: i64) -> Value {
    json!({
        "customer_id": customer,
        "recipient_address": "ACME GmbH\nMain St 1\n12345 Town",
        "date": "2026-11-03",
        "due_date": "2099-12-31",
        "title": "Website work",
        "tax": 19,
        "currency": "EUR",
        "items": [
            {"type": "title", "title": "Design"},
            {"type": "item", "title": "Concept", "quantity": 2, "unit": "h", "unit_price": 50},
            {"type": "item", "title": "Screens", "quantity": 0.5, "unit": "h", "unit_price": 100},
            {"type": "item", "title": "Flat fee", "net_total": 100}
        ]
    })
}

pub fn merge(target: &mut Value, overrides: Value) {
    if let (Value::Object(t), Value::Object(o)) = (target, overrides) {
        for (k, v) in o {
            t.insert(k, v);
        }
    }
}

/// The `id`s of a list's reply, in its order (asserts a 200).
pub fn list_ids(r: &Reply) -> Vec<i64> {
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_i64().unwrap())
        .collect()
}

/// The JSON number text of a value (`"297.50"`), to compare amounts exactly.
pub fn num(v: &Value) -> String {
    assert!(v.is_number(), "not a number: {v}");
    v.to_string()
}
