//! A real SMTP server for the e-mail tests: Python's aiosmtpd storing every message in a
//! Maildir (`python3 -m aiosmtpd -n -l 127.0.0.1:PORT -c aiosmtpd.handlers.Mailbox DIR`).

use crate::plain_smtp;
use kontor_server::config::SmtpConfig;
use std::process::Stdio;
use std::time::Duration;
use tokio::process::{Child, Command};

/// aiosmtpd on a free port; killed on drop.
pub struct SmtpServer {
    /// The port it listens on (127.0.0.1).
    pub port: u16,
    maildir: tempfile::TempDir,
    _child: Child,
}

impl SmtpServer {
    /// Starts aiosmtpd and waits until it accepts connections.
    pub async fn start() -> SmtpServer {
        let port = crate::free_port();
        let maildir = tempfile::tempdir().expect("maildir");
        let child = Command::new(crate::test_python())
            .args(["-m", "aiosmtpd", "-n", "-l", &format!("127.0.0.1:{port}")])
            .args(["-c", "aiosmtpd.handlers.Mailbox"])
            .arg(maildir.path().join("mail"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("python -m aiosmtpd (scripts/setup.sh: KONTOR_TEST_PY)");
        crate::accepting(port).await;
        SmtpServer {
            port,
            maildir,
            _child: child,
        }
    }

    /// The account's SMTP settings for this server (no TLS, no login).
    pub fn config(&self) -> SmtpConfig {
        plain_smtp(self.port)
    }

    /// Every message received so far, as raw text.
    pub fn messages(&self) -> Vec<String> {
        let dir = self.maildir.path().join("mail");
        ["new", "cur"]
            .iter()
            .filter_map(|sub| std::fs::read_dir(dir.join(sub)).ok())
            .flat_map(|entries| entries.flatten())
            .filter_map(|e| std::fs::read_to_string(e.path()).ok())
            .collect()
    }

    /// Waits up to 10 s for a message containing `text`.
    pub async fn wait_message(&self, text: &str) -> String {
        for _ in 0..100 {
            if let Some(m) = self.messages().into_iter().find(|m| m.contains(text)) {
                return m;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("no message containing {text:?}; got {:?}", self.messages());
    }
}
