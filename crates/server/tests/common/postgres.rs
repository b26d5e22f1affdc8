//! A real PostgreSQL server for the tests (issue 16 § 5): a throwaway cluster from
//! Debian's `postgresql` package (installed by `scripts/setup.sh`), started by
//! `scripts/pg.sh` in a temporary directory and listening only on a Unix socket there;
//! stopped and deleted when dropped. Tests fail (never skip) when PostgreSQL is missing.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

/// A running cluster.
pub struct Cluster {
    dir: PathBuf,
    /// The socket directory, for URLs (`postgres://kontor@localhost/DB?host=<dir>`).
    pub socket_dir: String,
}

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/pg.sh")
}

impl Cluster {
    /// Creates and starts a cluster. Panics with the script's message when it cannot.
    pub fn start() -> Cluster {
        let dir = std::env::temp_dir().join(format!(
            "kontor-pg-{}-{}",
            std::process::id(),
            rand::random::<u32>()
        ));
        let out = Command::new("bash")
            .arg(script())
            .arg("start")
            .arg(&dir)
            .output()
            .expect("bash scripts/pg.sh");
        assert!(
            out.status.success(),
            "scripts/pg.sh start failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let socket_dir = dir.to_string_lossy().into_owned();
        Cluster { dir, socket_dir }
    }

    /// Stops the server at once, as a crash or a pulled cable would (`pg_ctl stop -m
    /// immediate`); the data stays for [`Cluster::resume`].
    pub fn halt(&self) {
        self.run("halt");
    }

    /// Starts a halted server again (crash recovery replays its log).
    pub fn resume(&self) {
        self.run("resume");
    }

    fn run(&self, command: &str) {
        let out = Command::new("bash")
            .arg(script())
            .arg(command)
            .arg(&self.dir)
            .output()
            .expect("bash scripts/pg.sh");
        assert!(
            out.status.success(),
            "scripts/pg.sh {command} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// The URL of database `name` on this cluster.
    pub fn url(&self, name: &str) -> String {
        format!(
            "postgres://kontor@localhost/{name}?host={}",
            self.socket_dir
        )
    }

    /// Creates a fresh, empty database and returns its URL.
    pub async fn create_database(&self) -> String {
        fresh_database(&self.url("postgres")).await
    }
}

/// The cluster the test command started for the whole suite (`scripts/test.sh` runs the
/// server's API suite a second time with `KONTOR_TEST_POSTGRES` set to its URL), if any.
pub fn suite_cluster() -> Option<String> {
    std::env::var("KONTOR_TEST_POSTGRES")
        .ok()
        .filter(|u| !u.is_empty())
}

/// A fresh, empty database for a test that needs PostgreSQL whichever engine the suite
/// runs on: on the suite's cluster when there is one, else on a cluster started for the
/// test (returned, so it lives as long as the test keeps it).
pub async fn some_database() -> (Option<Cluster>, String) {
    match suite_cluster() {
        Some(admin) => (None, fresh_database(&admin).await),
        None => {
            let cluster = Cluster::start();
            let url = cluster.create_database().await;
            (Some(cluster), url)
        }
    }
}

/// Creates a fresh, empty database on the server of `admin_url` (a URL of an existing
/// database there) and returns the new database's URL.
pub async fn fresh_database(admin_url: &str) -> String {
    static NEXT: AtomicU32 = AtomicU32::new(1);
    let name = format!(
        "k{}_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed),
        rand::random::<u16>()
    );
    let admin = sqlx::PgPool::connect(admin_url).await.unwrap();
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&admin)
        .await
        .unwrap();
    admin.close().await;
    let (base, query) = admin_url.split_once('?').unwrap_or((admin_url, ""));
    let base = &base[..base.rfind('/').expect("a database in the URL")];
    if query.is_empty() {
        format!("{base}/{name}")
    } else {
        format!("{base}/{name}?{query}")
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(script())
            .arg("stop")
            .arg(&self.dir)
            .status();
    }
}

/// For a test that checks SQLite itself (its files, query plans, locks or the text it
/// stores): true, with a note on the test's output, when the suite runs on PostgreSQL,
/// where the test has nothing to check; the test then returns. The SQLite run (the
/// README's test command) always runs it.
pub fn sqlite_only(why: &str) -> bool {
    let postgres = suite_cluster().is_some();
    if postgres {
        eprintln!("SQLite only, not run on PostgreSQL: {why}");
    }
    postgres
}
