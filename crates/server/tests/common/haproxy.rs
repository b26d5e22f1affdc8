//! A real load balancer in front of several server processes (issue 16 § 6): Debian's
//! haproxy (installed by `scripts/setup.sh`; `KONTOR_HAPROXY` names another binary) on a
//! free loopback port, round robin with health checks on the API description, killed when
//! dropped. Tests fail (never skip) when it is missing.

use std::process::{Child, Command, Stdio};

/// A running haproxy.
pub struct Haproxy {
    child: Child,
    _config: tempfile::NamedTempFile,
    /// `http://127.0.0.1:<port>`.
    pub base: String,
}

impl Haproxy {
    /// Balances over the servers at `backends` (`http://127.0.0.1:<port>` each). A server
    /// that fails one health check (every 300 ms) gets no new requests; a request whose
    /// connection is refused is sent to another server.
    pub fn start(backends: &[&str]) -> Haproxy {
        let port = super::free_port();
        let servers: String = backends
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let addr = b.trim_start_matches("http://");
                format!("  server s{i} {addr} check\n")
            })
            .collect();
        let config = format!(
            "global\n  maxconn 2048\n\
             defaults\n  mode http\n  timeout connect 2s\n  timeout client 60s\n  \
             timeout server 60s\n  retries 3\n  option redispatch\n\
             frontend kontor\n  bind 127.0.0.1:{port}\n  default_backend servers\n\
             backend servers\n  balance roundrobin\n  \
             option httpchk GET /api/v1/openapi.json\n  \
             default-server inter 300ms fall 1 rise 2\n{servers}"
        );
        let mut file = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(&mut file, config.as_bytes()).unwrap();
        let binary = std::env::var("KONTOR_HAPROXY").unwrap_or_else(|_| "haproxy".into());
        let child = Command::new(&binary)
            .arg("-db")
            .arg("-f")
            .arg(file.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {binary}: {e}; run scripts/setup.sh"));
        super::wait_for_port(port, "haproxy");
        Haproxy {
            child,
            _config: file,
            base: format!("http://127.0.0.1:{port}"),
        }
    }
}

impl Drop for Haproxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
