//! Harness of the end-to-end browser tests: the real server (in this process, on
//! 127.0.0.1, fresh SQLite file, serving the release bundle), chromedriver with headless
//! Chromium, and helpers to drive pages as a user does (more in `api`, `browser`; a real
//! SMTP server in `smtp`).
//!
//! Environment: `KONTOR_DIST` (release bundle, default `<workspace>/dist`),
//! `KONTOR_DIST_PREFIX` (bundle built with `--public-url /kontor/`, default
//! `<workspace>/target/dist-prefix`), `CHROMEDRIVER` (default `/usr/bin/chromedriver`),
//! `KONTOR_E2E_ARTIFACTS` (screenshots, default `<workspace>/tests/e2e/artifacts`).

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use kontor_server::config::{AccountConfig, ServerConfig};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;
use tokio::process::{Child, Command};

mod api;
mod browser;
/// A real IMAP server (Dovecot) for the inbox tests (issue 36), shared with the server's tests.
#[path = "../../../crates/server/tests/common/imap.rs"]
pub mod imap;
mod pages;
mod smtp;
#[path = "../../../crates/server/tests/common/tools.rs"]
mod tools;

pub use pages::{every_page, OneOfEach};
pub use smtp::SmtpServer;
use tools::accepting;
pub use tools::{free_port, pdftotext, plain_smtp, test_python};

/// The workspace root.
pub fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("workspace root")
}

fn env_path(name: &str, default: PathBuf) -> PathBuf {
    std::env::var_os(name).map(PathBuf::from).unwrap_or(default)
}

/// A running Kontor server with its first key.
pub struct Server {
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    /// Full-access key.
    pub key: String,
    /// The configuration it runs with (its real address in `listen`), for [`Server::restart`].
    config: ServerConfig,
    /// The running server ([`kontor_server::run`]).
    task: tokio::task::JoinHandle<Result<(), String>>,
    _data: tempfile::TempDir,
}

impl Server {
    /// Starts a server on a fresh database serving `dist`, trusting `cors_origins`.
    pub async fn start(dist: Option<PathBuf>, cors_origins: Vec<String>) -> Server {
        Self::start_with(dist, cors_origins, AccountConfig::default()).await
    }

    /// A server with the release bundle ([`dist`]) and one customer named `name`
    /// ([`Server::customer`]); also the customer's id.
    pub async fn with_customer(name: &str) -> (Server, i64) {
        let server = Self::start(Some(dist()), vec![]).await;
        let customer = server.customer(name).await;
        (server, customer)
    }

    /// A browser signed in to this server with its key ([`Browser::sign_in`]), on the
    /// invoice list.
    pub async fn signed_in_browser(&self) -> Browser {
        let b = Browser::start().await;
        b.sign_in(&self.base, &self.key).await;
        b
    }

    /// Like [`Server::start`] with the account configuration `account` (e.g. with SMTP).
    pub async fn start_with(
        dist: Option<PathBuf>,
        cors_origins: Vec<String>,
        account: AccountConfig,
    ) -> Server {
        let data = tempfile::tempdir().expect("tempdir");
        let config = ServerConfig {
            listen: "127.0.0.1:0".parse().expect("addr"),
            data_dir: data.path().to_path_buf(),
            dist_dir: dist,
            cors_origins,
            rate_limit: 0,
            files: None,
            database: None,
            account,
        };
        let mut config = config;
        let bound = kontor_server::bind(&config).await.expect("server binds");
        config.listen = bound.listener.local_addr().expect("addr");
        let base = format!("http://{}", config.listen);
        let key = bound.initial_key.clone().expect("initial key");
        let task = tokio::spawn(kontor_server::run(bound));
        Server {
            base,
            key,
            config,
            task,
            _data: data,
        }
    }

    /// Stops the server (its listener and background jobs end with it) and starts it again
    /// on the same database, address and key, as after a restart of the process; the
    /// start's work (e.g. recurring invoices that fell due) is done when this returns.
    pub async fn restart(&mut self) {
        self.task.abort();
        let _ = (&mut self.task).await;
        self.bind_again().await;
    }

    async fn bind_again(&mut self) {
        let mut last_error = String::new();
        for _ in 0..100 {
            match kontor_server::bind(&self.config).await {
                Ok(bound) => {
                    self.task = tokio::spawn(kontor_server::run(bound));
                    return;
                }
                Err(e) => last_error = e,
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("the server does not start again: {last_error}");
    }

    /// Stops the server: its listener closes and its open connections are shut down, so
    /// a browser's requests fail as without a network ([`Server::resume`] starts it again).
    pub async fn stop(&mut self) {
        self.task.abort();
        let _ = (&mut self.task).await;
        // The connections' own tasks see the shutdown and close (idle keep-alive ones at once).
        tokio::time::sleep(Duration::from_millis(300)).await;
    }

    /// Starts a [`Server::stop`]ped server again on the same database, address and key.
    pub async fn resume(&mut self) {
        self.bind_again().await;
    }

    /// POSTs JSON to `/api/v1{path}` with the key; returns the JSON answer (panics on non-2xx).
    pub async fn post(&self, path: &str, body: Value) -> Value {
        self.send_json(reqwest::Method::POST, path, body).await
    }

    /// POSTs `body` to the API path `path` and returns the `id` of the record it made
    /// (panics when the answer has no numeric `id`).
    pub async fn create(&self, path: &str, body: Value) -> i64 {
        self.post(path, body).await["id"]
            .as_i64()
            .unwrap_or_else(|| panic!("{path}: no id"))
    }

    /// Creates a user with a password, as `kontor-server users create --email … --firstname
    /// … --lastname … --role … --password-stdin` does (the same library calls on this
    /// server's database: the same checks, argon2id hash); returns the user's id. Panics
    /// when the server refuses (e.g. a weak password).
    pub async fn user(
        &self,
        email: &str,
        first: &str,
        last: &str,
        role: &str,
        password: &str,
    ) -> i64 {
        use kontor_server::access::passwords;
        use kontor_server::users;
        let pool = kontor_server::store::db::open(&self.config.data_dir)
            .await
            .expect("database");
        let body = kontor_model::users::NewUser {
            firstname: Some(first.into()),
            lastname: Some(last.into()),
            email: Some(email.into()),
            role: Some(role.into()),
        };
        let role = users::check_new(&pool, &body, true)
            .await
            .map_err(|e| format!("{e:?}"))
            .expect("user accepted");
        passwords::check_new(password, &[first, last, email], "password")
            .map_err(|e| format!("{e:?}"))
            .expect("strong password");
        let hash = passwords::hash(password.to_string())
            .await
            .map_err(|e| format!("{e:?}"))
            .expect("hash");
        let id = users::insert(&pool, &body, role, Some(&hash))
            .await
            .map_err(|e| format!("{e:?}"))
            .expect("user inserted");
        pool.close().await;
        id
    }

    /// Creates a customer with an address; returns its id.
    pub async fn customer(&self, name: &str) -> i64 {
        self.create("/companies", json!({"name": name, "address": "Hafenstraße 5\n20457 Hamburg", "email": "billing@example.com", "payment_term_days": 14, "customer_vat": {"tax": 19}})).await
    }
}

/// The release bundle directory.
pub fn dist() -> PathBuf {
    env_path("KONTOR_DIST", workspace().join("dist"))
}

/// Copies the directory `from` (a bundle) to `to`, recursively; panics naming `from` when
/// it cannot be read (the bundle was not built).
pub fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("{}: {e}", to.display()));
    let entries = std::fs::read_dir(from)
        .unwrap_or_else(|e| panic!("{}: {e} (build the bundle first)", from.display()));
    for entry in entries.flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target)
                .unwrap_or_else(|e| panic!("{}: {e}", entry.path().display()));
        }
    }
}

/// The release bundle built for the `/kontor/` prefix.
pub fn dist_prefix() -> PathBuf {
    env_path("KONTOR_DIST_PREFIX", workspace().join("target/dist-prefix"))
}

/// chromedriver plus a WebDriver session in headless Chromium (fresh profile).
pub struct Browser {
    /// The WebDriver client.
    pub client: Client,
    driver: Child,
    _profile: tempfile::TempDir,
    /// chromedriver's and Chromium's own `TMPDIR` (Chromium leaves ~100 MB scoped
    /// folders there): removed with the browser.
    _tmp: tempfile::TempDir,
}

impl Browser {
    /// Starts chromedriver on a free port and opens a session (1280×900 window).
    pub async fn start() -> Browser {
        Self::start_with_args(&[]).await
    }

    /// Like [`Browser::start`] with extra Chromium arguments (e.g. `--lang=de-DE` for a
    /// German browser: `navigator.languages` and `Accept-Language`).
    pub async fn start_with_args(extra: &[&str]) -> Browser {
        let port = free_port();
        let tmp = tempfile::tempdir().expect("temporary dir for chromedriver");
        let driver = Command::new(env_path(
            "CHROMEDRIVER",
            PathBuf::from("/usr/bin/chromedriver"),
        ))
        .arg(format!("--port={port}"))
        .env("TMPDIR", tmp.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("chromedriver starts (install chromium-driver)");
        let profile = tempfile::tempdir().expect("profile dir");
        let caps = json!({"goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--no-first-run", "--disable-quic", "--window-size=1280,900",
            format!("--user-data-dir={}", profile.path().display())
        ]}});
        let mut caps = caps;
        if let Some(args) = caps["goog:chromeOptions"]["args"].as_array_mut() {
            args.extend(extra.iter().map(|a| Value::from(*a)));
        }
        if let Some(lang) = extra.iter().find_map(|a| a.strip_prefix("--lang=")) {
            caps["goog:chromeOptions"]["prefs"] = json!({"intl.accept_languages": lang});
        }
        let caps: serde_json::Map<String, Value> = caps.as_object().expect("object").clone();
        let mut last_error = String::new();
        for _ in 0..50 {
            match ClientBuilder::native()
                .capabilities(caps.clone())
                .connect(&format!("http://127.0.0.1:{port}"))
                .await
            {
                Ok(client) => {
                    return Browser {
                        client,
                        driver,
                        _profile: profile,
                        _tmp: tmp,
                    }
                }
                Err(e) => last_error = e.to_string(),
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        panic!("cannot start a WebDriver session: {last_error}");
    }

    /// Waits up to 15 s for an element matching `css`.
    pub async fn find(&self, css: &str) -> Element {
        self.client
            .wait()
            .at_most(Duration::from_secs(15))
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no element {css}: {e}"))
    }

    /// Waits up to 15 s until the page's text contains `text`.
    pub async fn wait_text(&self, text: &str) {
        for _ in 0..150 {
            if self.body_text().await.contains(text) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let body = self.body_text().await;
        self.failure_screenshot("wait_text_failure").await;
        panic!("page never showed {text:?}; it shows:\n{body}");
    }

    /// The visible text of the page.
    pub async fn body_text(&self) -> String {
        match self.client.find(Locator::Css("body")).await {
            Ok(body) => body.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        }
    }

    /// Clears the input matching `css` and types `text`.
    pub async fn fill(&self, css: &str, text: &str) {
        let el = self.find(css).await;
        el.clear().await.expect("clear");
        el.send_keys(text).await.expect("type");
    }

    /// Types a person's `email`, first and last name into the inputs `#{form}-email`,
    /// `#{form}-firstname` and `#{form}-lastname` (`form`: e.g. `setup`, `invite`).
    pub async fn fill_person(&self, form: &str, email: &str, first: &str, last: &str) {
        self.fill(&format!("#{form}-email"), email).await;
        self.fill(&format!("#{form}-firstname"), first).await;
        self.fill(&format!("#{form}-lastname"), last).await;
    }

    /// Scrolls the element matching `css` to the middle of the window (as a person would,
    /// clear of sticky bars) and clicks it.
    pub async fn click(&self, css: &str) {
        let el = self.find(css).await;
        let arg = serde_json::to_value(&el).expect("element reference");
        self.client
            .execute("arguments[0].scrollIntoView({block: 'center'})", vec![arg])
            .await
            .expect("scroll");
        if let Err(e) = el.click().await {
            // A toast over the control: close the toasts, as a person would, and click again.
            if !e.to_string().contains("toast") {
                panic!("click {css}: {e}");
            }
            self.close_toasts().await;
            el.click()
                .await
                .unwrap_or_else(|e| panic!("click {css}: {e}"));
        }
    }

    /// Writes a PNG of the page to the artifacts folder (`tests/e2e/artifacts`, or
    /// `KONTOR_E2E_ARTIFACTS`) for a person to look at; nothing when screenshots are off
    /// ([`screenshots_wanted`]). Asserts nothing.
    pub async fn screenshot(&self, name: &str) {
        if screenshots_wanted() {
            self.failure_screenshot(name).await;
        }
    }

    /// Waits `pause` for the page to settle (a PDF viewer painting, a resize), then
    /// [`Browser::screenshot`]s it; neither when screenshots are off.
    pub async fn screenshot_after(&self, pause: Duration, name: &str) {
        if screenshots_wanted() {
            tokio::time::sleep(pause).await;
            self.failure_screenshot(name).await;
        }
    }

    /// Like [`Browser::screenshot`], also when screenshots are off: the page as a failing
    /// wait left it, for the person reading the failure.
    pub async fn failure_screenshot(&self, name: &str) {
        let dir = env_path(
            "KONTOR_E2E_ARTIFACTS",
            workspace().join("tests/e2e/artifacts"),
        );
        let _ = std::fs::create_dir_all(&dir);
        if let Ok(png) = self.client.screenshot().await {
            let _ = std::fs::write(dir.join(format!("{name}.png")), png);
        }
    }

    /// Ends the session and chromedriver.
    pub async fn close(mut self) {
        let _ = self.client.clone().close().await;
        let _ = self.driver.kill().await;
    }
}

/// Whether the tests write their screenshots (light and dark, 1280 and 1024 px: what a
/// person looks at, asserting nothing): yes unless `KONTOR_E2E_SCREENSHOTS=0`, which
/// `.ci/run` sets — in a CI clone nobody sees them, and taking them (a settle pause and a
/// PNG of the page each, about 600 in all) cost a sixth of german.rs's time (issue 35,
/// `docs/benchmarks.md` § Screenshots only where someone looks). Read once.
pub fn screenshots_wanted() -> bool {
    static WANTED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *WANTED.get_or_init(|| std::env::var("KONTOR_E2E_SCREENSHOTS").map_or(true, |v| v != "0"))
}

/// A plain static file server (Python's `http.server`) for `root` on a free port;
/// killed on drop.
pub struct StaticServer {
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    _child: Child,
}

impl StaticServer {
    /// Serves `root` on 127.0.0.1.
    pub async fn start(root: &std::path::Path) -> StaticServer {
        let port = free_port();
        let child = Command::new("python3")
            .args([
                "-m",
                "http.server",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
                "--directory",
            ])
            .arg(root)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("python3 starts");
        let base = format!("http://127.0.0.1:{port}");
        accepting(port).await;
        StaticServer {
            base,
            _child: child,
        }
    }
}
