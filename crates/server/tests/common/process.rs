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

/// Starts `serve` on a fresh data directory with `extra` arguments and `env`; waits for
/// its address and first key. Panics with the server's standard error when it stops.
pub fn start(extra: &[&str], env: &[(&str, String)]) -> ServerProcess {
    let dir = tempfile::tempdir().unwrap();
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
    let mut child = command(dir.path(), &args, env)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("server binary");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut base = None;
    let mut key = None;
    while let Some(Ok(line)) = lines.next() {
        if let Some(rest) = line.strip_prefix("Kontor is running at ") {
            base = Some(rest.trim_end_matches('/').to_string());
        } else if line.starts_with("A full-access API key") {
            key = lines.next().and_then(Result::ok);
            break;
        }
    }
    std::thread::spawn(move || for _ in lines {});
    let (Some(base), Some(key)) = (base, key) else {
        let out = child.wait_with_output().unwrap();
        panic!(
            "the server did not start: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    ServerProcess {
        child,
        server: TestServer {
            base,
            key,
            dir,
            client: reqwest::Client::new(),
            task: None,
        },
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
