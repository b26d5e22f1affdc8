//! A real SMTP server for the tests: Python's aiosmtpd storing every message in a Maildir.

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

/// A port on 127.0.0.1 that was free a moment ago.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts aiosmtpd on a free port and waits (up to 5 s) until it accepts connections.
pub async fn smtp_server() -> SmtpServer {
    let port = free_port();
    let maildir = tempfile::tempdir().unwrap();
    let child = Command::new("python3")
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
        .expect("python3 -m aiosmtpd (pip install aiosmtpd)");
    for _ in 0..100 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_ok()
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
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
