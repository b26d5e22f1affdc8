//! A real IMAP server for the inbox tests (issue 36): Debian's Dovecot (`dovecot-imapd`)
//! with a throwaway configuration on 127.0.0.1 — one user, Maildir in a temporary
//! directory, no TLS — and Python's `imaplib` as an independent client to put messages in
//! and look at the folders. Self-contained (the browser tests include this file too).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// A running Dovecot; stopped (and its directory removed) on drop.
pub struct ImapServer {
    /// The IMAP port on 127.0.0.1 (STARTTLS there with TLS).
    pub port: u16,
    /// The implicit-TLS port (0 without TLS).
    pub tls_port: u16,
    /// The user's name.
    pub user: &'static str,
    /// The user's password.
    pub password: &'static str,
    child: Child,
    dir: tempfile::TempDir,
}

impl ImapServer {
    /// The self-signed certificate of a TLS server (PEM), to trust in the client.
    pub fn certificate(&self) -> PathBuf {
        self.dir.path().join("cert.pem")
    }

    fn config(&self) -> PathBuf {
        self.dir.path().join("dovecot.conf")
    }

    /// Runs `script` (Python, with `m` a signed-in `imaplib.IMAP4`) and returns what it
    /// prints. Panics with its standard error when it fails.
    pub fn python(&self, script: &str) -> String {
        let program = format!(
            "import imaplib, sys\nm = imaplib.IMAP4('127.0.0.1', {})\nm.login('{}', '{}')\n{script}\nm.logout()\n",
            self.port, self.user, self.password
        );
        let out = Command::new("python3")
            .arg("-c")
            .arg(&program)
            .output()
            .expect("python3");
        assert!(
            out.status.success(),
            "imaplib: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Appends the message `raw` to `folder` (created when missing).
    pub fn append(&self, folder: &str, raw: &[u8]) {
        let file = self
            .dir
            .path()
            .join(format!("append-{}.eml", rand_suffix()));
        std::fs::write(&file, raw).unwrap();
        self.python(&format!(
            "m.create('{folder}')\nr = m.append('{folder}', None, None, open({:?}, 'rb').read())\nassert r[0] == 'OK', r",
            file.display().to_string()
        ));
    }

    /// The number of messages in `folder` (0 when it does not exist).
    pub fn count(&self, folder: &str) -> usize {
        let out = self.python(&format!(
            "r = m.select('\"{folder}\"', readonly=True)\nprint(r[1][0].decode() if r[0] == 'OK' else 0)"
        ));
        out.trim().parse().unwrap_or(0)
    }

    /// The subjects of the messages in `folder`, sorted.
    pub fn subjects(&self, folder: &str) -> Vec<String> {
        let out = self.python(&format!(
            "r = m.select('\"{folder}\"', readonly=True)\n\
             if r[0] == 'OK':\n\
             \x20   t, d = m.search(None, 'ALL')\n\
             \x20   for n in d[0].split():\n\
             \x20       t, h = m.fetch(n, '(BODY.PEEK[HEADER.FIELDS (SUBJECT)])')\n\
             \x20       print(h[0][1].decode().strip().replace('Subject: ', ''))"
        ));
        let mut subjects: Vec<String> = out.lines().map(str::to_string).collect();
        subjects.sort();
        subjects
    }
}

impl Drop for ImapServer {
    fn drop(&mut self) {
        let _ = Command::new("doveadm")
            .arg("-c")
            .arg(self.config())
            .arg("stop")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn rand_suffix() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// The user the mail belongs to, and whether the tests run as root (Dovecot refuses mail
/// access as root, so the mail then belongs to its own `dovecot` user).
fn current_user() -> (String, bool) {
    if uid() == 0 {
        ("dovecot".into(), true)
    } else {
        let name = Command::new("id").arg("-un").output().unwrap();
        (
            String::from_utf8_lossy(&name.stdout).trim().to_string(),
            false,
        )
    }
}

fn uid() -> u32 {
    let out = Command::new("id").arg("-u").output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .unwrap_or(0)
}

/// Starts Dovecot on a free port with user `office` / password `secret` and a `/`
/// hierarchy separator, and waits until it accepts connections.
pub async fn imap_server() -> ImapServer {
    start(false).await
}

/// Like [`imap_server`], with TLS: a self-signed certificate for `localhost` and
/// 127.0.0.1 ([`ImapServer::certificate`]), STARTTLS on [`ImapServer::port`] and implicit
/// TLS on [`ImapServer::tls_port`].
pub async fn imap_server_tls() -> ImapServer {
    start(true).await
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

async fn start(tls: bool) -> ImapServer {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for sub in ["run", "state", "mail"] {
        std::fs::create_dir_all(d.join(sub)).unwrap();
    }
    let (mail_user, root) = current_user();
    if root {
        // Dovecot refuses mail access as root: the mail belongs to its own user.
        let status = Command::new("chown")
            .args(["-R", "dovecot:dovecot"])
            .arg(d.join("mail"))
            .status()
            .unwrap();
        assert!(status.success());
        // Its processes must reach the directory.
        let _ = Command::new("chmod").args(["755"]).arg(d).status();
    }
    let (login_user, internal_user) = if root {
        ("dovenull".to_string(), "dovecot".to_string())
    } else {
        (mail_user.clone(), mail_user.clone())
    };
    std::fs::write(d.join("users"), "office:{PLAIN}secret\n").unwrap();
    let port = free_port();
    let tls_port = if tls { free_port() } else { 0 };
    let ssl = if tls {
        let out = Command::new("openssl")
            .args([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            ])
            .args([
                "-subj",
                "/CN=localhost",
                "-addext",
                "subjectAltName=DNS:localhost,IP:127.0.0.1",
            ])
            .arg("-keyout")
            .arg(d.join("key.pem"))
            .arg("-out")
            .arg(d.join("cert.pem"))
            .output()
            .expect("openssl");
        assert!(
            out.status.success(),
            "openssl: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        format!(
            "ssl = yes\nssl_cert = <{}\nssl_key = <{}\n",
            d.join("cert.pem").display(),
            d.join("key.pem").display()
        )
    } else {
        "ssl = no\n".to_string()
    };
    let p = |sub: &str| d.join(sub).display().to_string();
    let config = format!(
        "base_dir = {run}\nstate_dir = {state}\nlog_path = {log}\nlisten = 127.0.0.1\n\
         protocols = imap\nfirst_valid_uid = 1\nfirst_valid_gid = 1\n{ssl}\
         disable_plaintext_auth = no\nauth_mechanisms = plain login\n\
         mail_location = maildir:{mail}/%u:LAYOUT=fs\n\
         default_login_user = {login_user}\ndefault_internal_user = {internal_user}\n\
         namespace inbox {{\n  inbox = yes\n  separator = /\n}}\n\
         passdb {{\n  driver = passwd-file\n  args = scheme=PLAIN username_format=%u {users}\n}}\n\
         userdb {{\n  driver = static\n  args = uid={mail_user} gid={mail_user} home={mail}/%u\n}}\n\
         service imap-login {{\n  inet_listener imap {{\n    address = 127.0.0.1\n    port = {port}\n  }}\n  inet_listener imaps {{\n    address = 127.0.0.1\n    port = {tls_port}\n  }}\n}}\n\
         service stats {{\n  unix_listener stats-reader {{\n    mode = 0666\n  }}\n  unix_listener stats-writer {{\n    mode = 0666\n  }}\n}}\n",
        run = p("run"),
        state = p("state"),
        log = p("dovecot.log"),
        mail = p("mail"),
        users = p("users"),
    );
    let config_path = d.join("dovecot.conf");
    std::fs::write(&config_path, config).unwrap();
    // In the foreground (`-F`): a child of the test, stopped on drop.
    let child = Command::new(dovecot_binary())
        .arg("-F")
        .arg("-c")
        .arg(&config_path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("dovecot (apt-get install dovecot-imapd; scripts/setup.sh installs it)");
    for _ in 0..100 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_ok()
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    if tls {
        for _ in 0..100 {
            if tokio::net::TcpStream::connect(("127.0.0.1", tls_port))
                .await
                .is_ok()
            {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }
    ImapServer {
        port,
        tls_port,
        user: "office",
        password: "secret",
        child,
        dir,
    }
}

fn dovecot_binary() -> &'static Path {
    for p in ["/usr/sbin/dovecot", "/usr/local/sbin/dovecot"] {
        if Path::new(p).exists() {
            return Path::new(p);
        }
    }
    Path::new("dovecot")
}
