//! The real `kontor-server serve` binary as a separate process (its own environment), for
//! the tests of what a process reads from its environment (`--files`, `AWS_*`).

use super::TestServer;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// A server process and a [`TestServer`] client of it; the process is killed when dropped.
pub struct ServerProcess {
    child: Child,
    /// The client (its `task` is `None`: the server is the child process).
    pub server: TestServer,
}

/// The `kontor-server` binary (`KONTOR_SERVER_BIN` or cargo's).
pub fn binary() -> String {
    std::env::var("KONTOR_SERVER_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_kontor-server").to_string())
}

/// The command `kontor-server --data <dir> <args…>` with `env` set.
pub fn command(data: &std::path::Path, args: &[&str], env: &[(&str, String)]) -> Command {
    let mut cmd = Command::new(binary());
    cmd.arg("--data").arg(data).args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd
}

/// Runs `kontor-server --data <dir> <args…>` with `env` to its end; its standard output.
/// Panics with its standard error when it fails.
pub fn run_ok(data: &std::path::Path, args: &[&str], env: &[(&str, String)]) -> String {
    let out = command(data, args, env).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Creates a purchase with a PDF document on `made_on` and fetches its signed link from
/// the server at `other_base` instead: the link must work there, with the same bytes (a
/// link signed by one process is served by another, issue 16 § 4).
pub async fn assert_link_served_by_other(made_on: &TestServer, other_base: &str) {
    use base64::Engine;
    let pdf = b"%PDF-1.4\n% receipt\n%%EOF";
    let made = made_on
        .post(
            "/purchases",
            serde_json::json!({"date": "2026-11-10", "currency": "EUR", "payment_method": "bank_transfer",
                "items": [{"title": "Paper", "total": 119, "tax": 19, "tax_included": true}],
                "file": {"filename": "r.pdf",
                    "base64": base64::engine::general_purpose::STANDARD.encode(pdf)}}),
        )
        .await;
    assert_eq!(made.status, 200, "{}", made.body);
    let link = made.body["file_url"].as_str().unwrap();
    let elsewhere = link.replace(&made_on.base, other_base);
    assert_ne!(
        elsewhere, link,
        "the link points at the server that made it"
    );
    let served = reqwest::get(&elsewhere).await.unwrap();
    assert_eq!(served.status(), 200);
    assert_eq!(served.bytes().await.unwrap().as_ref(), pdf);
}

/// Starts `serve` on the data directory `data` with `extra` arguments and `env`; returns
/// the process, its base URL and, on the directory's first start, the printed key. Panics
/// with the server's standard error when it stops instead.
pub fn spawn_on(
    data: &std::path::Path,
    extra: &[&str],
    env: &[(&str, String)],
) -> (Child, String, Option<String>) {
    let mut args = vec![
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--rate-limit",
        "0",
        "--dist",
        "/nonexistent",
    ];
    args.extend_from_slice(extra);
    let mut child = command(data, &args, env)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("server binary");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut base = None;
    let mut key = None;
    // A first start prints its key before the line saying the server runs.
    while let Some(Ok(line)) = lines.next() {
        if let Some(rest) = line.strip_prefix("Kontor is running at ") {
            base = Some(rest.trim_end_matches('/').to_string());
            break;
        } else if line.starts_with("A full-access API key") {
            key = lines.next().and_then(Result::ok);
        }
    }
    std::thread::spawn(move || for _ in lines {});
    let Some(base) = base else {
        let out = child.wait_with_output().unwrap();
        panic!(
            "the server did not start: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    // Standard error is drained so the server never blocks on a full pipe.
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || for _ in BufReader::new(stderr).lines() {});
    (child, base, key)
}

/// Starts `serve` on a fresh data directory with `extra` arguments and `env`; waits for
/// its address and first key.
pub fn start(extra: &[&str], env: &[(&str, String)]) -> ServerProcess {
    let dir = tempfile::tempdir().unwrap();
    let (child, base, key) = spawn_on(dir.path(), extra, env);
    ServerProcess {
        child,
        server: TestServer {
            base,
            key: key.expect("a first start prints its key"),
            dir,
            client: reqwest::Client::new(),
            task: None,
            database: None,
        },
    }
}

/// A figure of `/proc/<pid>/status` in MiB (`VmRSS`: resident now; `VmHWM`: the peak).
pub fn memory_mib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{field}:")))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kb| kb / 1024)
        .unwrap_or_else(|| panic!("no {field} in /proc/{pid}/status"))
}

impl ServerProcess {
    /// The process's resident memory now, in MiB.
    pub fn rss_mib(&self) -> u64 {
        memory_mib(self.child.id(), "VmRSS")
    }

    /// The process's peak resident memory so far, in MiB.
    pub fn peak_mib(&self) -> u64 {
        memory_mib(self.child.id(), "VmHWM")
    }

    /// Whether the process still runs (it did not abort).
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Kills the process at once (SIGKILL), as a crash would.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
