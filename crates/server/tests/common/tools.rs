//! Helpers the server tests and the end-to-end tests both use (`tests/e2e` includes this
//! file by path): a free port and waiting until it accepts connections, plain SMTP
//! settings, the text of a PDF, and the python with the tests' PyPI oracles.

use kontor_server::config::{SmtpConfig, SmtpSecurity};
use std::time::Duration;

/// A free TCP port on 127.0.0.1 (for servers the tests start).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("port")
        .local_addr()
        .expect("addr")
        .port()
}

/// The python that has the tests' PyPI packages (aiosmtpd, python-stdnum): the venv
/// `scripts/setup.sh` makes, named by `KONTOR_TEST_PY` (`scripts/test.sh` sets it), else
/// `python3` from the path.
pub fn test_python() -> String {
    std::env::var("KONTOR_TEST_PY").unwrap_or_else(|_| "python3".into())
}

/// Waits (up to 5 s) until something accepts connections on 127.0.0.1:`port`; returns
/// either way (the caller's first request then says what is wrong).
pub async fn accepting(port: u16) {
    for _ in 0..100 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_ok()
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// SMTP settings for a plain (no TLS, no login) server on 127.0.0.1:`port` (also for one
/// that is not there, to see refusals).
pub fn plain_smtp(port: u16) -> SmtpConfig {
    SmtpConfig {
        host: "127.0.0.1".into(),
        port: Some(port),
        security: SmtpSecurity::None,
        user: None,
        password: None,
    }
}

/// The text of `pdf` as `pdftotext -layout` reads it (poppler-utils must be installed).
pub fn pdftotext(pdf: &[u8]) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new("pdftotext")
        .args(["-layout", "-", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("pdftotext (poppler-utils)");
    child.stdin.take().unwrap().write_all(pdf).unwrap();
    String::from_utf8_lossy(&child.wait_with_output().unwrap().stdout).into_owned()
}
