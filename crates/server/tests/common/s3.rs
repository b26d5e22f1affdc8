//! A real S3-compatible server for the object-storage tests (issue 16 § 5): moto's
//! standalone server from PyPI (installed by `scripts/setup.sh` into
//! `$HOME/.cache/kontor/moto-5.1.22`, or `KONTOR_MOTO_SERVER`), one per test on a free
//! loopback port, killed when dropped. Tests fail (never skip) when it is missing.

use object_store::aws::AmazonS3Builder;
use object_store::ObjectStore;
use std::process::{Child, Command, Stdio};

/// A running moto server.
pub struct Moto {
    child: Child,
    /// `http://127.0.0.1:<port>`.
    pub endpoint: String,
}

fn binary() -> String {
    std::env::var("KONTOR_MOTO_SERVER").unwrap_or_else(|_| {
        format!(
            "{}/.cache/kontor/moto-5.1.22/bin/moto_server",
            std::env::var("HOME").unwrap()
        )
    })
}

impl Moto {
    /// Starts moto on a free port and waits until it answers.
    pub fn start() -> Moto {
        let port = super::free_port();
        let child = Command::new(binary())
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "cannot start moto_server ({}): {e}; run scripts/setup.sh",
                    binary()
                )
            });
        let endpoint = format!("http://127.0.0.1:{port}");
        super::wait_for_port(port, "moto");
        Moto { child, endpoint }
    }

    /// The environment a Kontor process needs to reach this server (fixed test
    /// credentials; moto accepts any).
    pub fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("AWS_ENDPOINT_URL", self.endpoint.clone()),
            ("AWS_REGION", "us-east-1".into()),
            ("AWS_ACCESS_KEY_ID", "kontor-test".into()),
            ("AWS_SECRET_ACCESS_KEY", "kontor-test-secret".into()),
        ]
    }

    /// Creates the bucket `name`.
    pub async fn create_bucket(&self, name: &str) {
        let r = reqwest::Client::new()
            .put(format!("{}/{name}", self.endpoint))
            .send()
            .await
            .unwrap();
        assert!(r.status().is_success(), "create bucket: {}", r.status());
    }

    /// A client of bucket `name` (to look at what the server stored).
    pub fn bucket(&self, name: &str) -> impl ObjectStore {
        AmazonS3Builder::new()
            .with_endpoint(&self.endpoint)
            .with_allow_http(true)
            .with_region("us-east-1")
            .with_access_key_id("kontor-test")
            .with_secret_access_key("kontor-test-secret")
            .with_bucket_name(name)
            .build()
            .unwrap()
    }

    /// The keys stored in bucket `name` under `prefix`, sorted.
    pub async fn keys(&self, name: &str, prefix: &str) -> Vec<String> {
        use futures_util::TryStreamExt;
        let prefix = object_store::path::Path::from(prefix);
        let mut keys: Vec<String> = self
            .bucket(name)
            .list(Some(&prefix))
            .map_ok(|m| m.location.to_string())
            .try_collect()
            .await
            .unwrap();
        keys.sort();
        keys
    }

    /// The bytes of `key` in bucket `name`.
    pub async fn object(&self, name: &str, key: &str) -> Vec<u8> {
        self.bucket(name)
            .get(&object_store::path::Path::from(key))
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap()
            .to_vec()
    }
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
