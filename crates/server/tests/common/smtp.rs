//! A real SMTP server for the tests: Python's aiosmtpd storing every message in a Maildir.

use super::{start_with, TestServer};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// aiosmtpd storing every message in a Maildir; killed on drop.
pub struct SmtpServer {
    /// The port on 127.0.0.1.
    pub port: u16,
    child: Child,
    /// The Maildir is `maildir/mail`.
    pub maildir: tempfile::TempDir,
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub use super::free_port;

/// Starts aiosmtpd on a free port and waits (up to 5 s) until it accepts connections.
pub async fn smtp_server() -> SmtpServer {
    let port = free_port();
    let maildir = tempfile::tempdir().unwrap();
    let child = Command::new(super::tools::test_python())
        .args([
            "-m",
            "aiosmtpd",
            "-n",
            "-l",
            &format!("127.0.0.1:{port}"),
            "-c",
            "aiosmtpd.handlers.Mailbox",
        ])
        .arg(maildir.path().join("mail"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("python -m aiosmtpd (scripts/setup.sh: KONTOR_TEST_PY)");
    super::tools::accepting(port).await;
    SmtpServer {
        port,
        child,
        maildir,
    }
}

/// Every message in the Maildir `dir` (`new` and `cur`), as text.
pub fn messages(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for sub in ["new", "cur"] {
        if let Ok(entries) = std::fs::read_dir(dir.join(sub)) {
            for e in entries.flatten() {
                out.push(std::fs::read_to_string(e.path()).unwrap());
            }
        }
    }
    out
}

/// The account's SMTP settings for a plain (no TLS, no login) server on 127.0.0.1:`port`.
pub use super::tools::plain_smtp as config;

/// A test server whose account sends e-mail through 127.0.0.1:`port` ([`config`]).
pub async fn start_sending_to(port: u16) -> TestServer {
    start_with(move |c| c.account.smtp = Some(config(port))).await
}

/// Waits (up to 4 s) until `mail`'s Maildir holds at least `count` messages; returns all
/// of them (fewer when time ran out — the caller's assertion then says so).
pub async fn wait_for_messages(mail: &SmtpServer, count: usize) -> Vec<String> {
    let mut received = Vec::new();
    for _ in 0..40 {
        received = messages(&mail.maildir.path().join("mail"));
        if received.len() >= count {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    received
}

/// The value of header `name` in a raw message (first occurrence, unfolded); `None` when
/// the header part has no such header.
pub fn header_value(message: &str, name: &str) -> Option<String> {
    let prefix = format!("{}:", name.to_ascii_lowercase());
    let mut lines = message.lines().peekable();
    while let Some(line) = lines.next() {
        if line.is_empty() {
            return None;
        }
        if line.to_ascii_lowercase().starts_with(&prefix) {
            let mut value = line[prefix.len()..].trim().to_string();
            while let Some(next) = lines.peek().filter(|l| l.starts_with([' ', '\t'])) {
                value.push_str(next.trim());
                lines.next();
            }
            return Some(value);
        }
    }
    None
}
