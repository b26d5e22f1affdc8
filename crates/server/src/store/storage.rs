//! Where uploaded and stored files live (issue 16 § 3; `docs/decisions.md` § Files in
//! object storage): purchase documents, offer attachments and the account logo, through
//! the `object_store` crate.
//!
//! - **The default** is the local directory `<data>/files/` (`LocalFileSystem`), laid
//!   out as `files/<area>/<key>` as before, so existing installations and backups keep
//!   working. Local writes are synced (file and directory) before a row may point at them
//!   (`docs/decisions.md` § Durability).
//! - **`--files s3://bucket/prefix`** (or `KONTOR_FILES`) stores them in any
//!   S3-compatible store as `<prefix>/<area>/<key>`. Endpoint, region and credentials
//!   come from the environment as the AWS tools name them (`AWS_ENDPOINT_URL`,
//!   `AWS_REGION`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`); a
//!   plain `http://` endpoint is allowed because the operator named it.
//!
//! Every write is **create-only** (`PutMode::Create`, `If-None-Match: *` on S3) under a
//! fresh random key, and happens before the transaction that stores the row pointing at
//! it; when that transaction fails the object is deleted again, so no row ever points at
//! a missing object and no object is overwritten.
//!
//! A leaf: it knows no handler.

use crate::http::error::{ApiError, ApiResult};
use object_store::aws::AmazonS3Builder;
use object_store::local::LocalFileSystem;
use object_store::path::Path as ObjectPath;
use object_store::{ClientOptions, ObjectStore, PutMode, PutOptions, PutPayload, RetryConfig};
use rand::RngCore;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The kinds of stored file; each is a folder (`files/<area>/` locally, `<prefix>/<area>/`
/// in a bucket).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Area {
    /// Receipts and supplier e-invoices of purchases (`purchases.document_key`).
    PurchaseDocuments,
    /// PDF attachments of offers (`offer_attachments.storage_key`).
    OfferAttachments,
    /// The account's logo (`settings` key `logo`).
    AccountLogo,
    /// Signature drawings of online offer approvals
    /// (`offer_customer_approvals.signature_key`, issue 31).
    ApprovalSignatures,
    /// Messages as sent, for sending them again (`emails.message_key`, issue 33).
    SentMail,
}

impl Area {
    /// The folder name of the area.
    pub fn folder(self) -> &'static str {
        match self {
            Area::PurchaseDocuments => "purchase_documents",
            Area::OfferAttachments => "offer_attachments",
            Area::AccountLogo => "account_logo",
            Area::ApprovalSignatures => "approval_signatures",
            Area::SentMail => "sent_mail",
        }
    }

    /// The area of a folder name (as backups name entries), if it is one.
    pub fn from_folder(folder: &str) -> Option<Area> {
        [
            Area::PurchaseDocuments,
            Area::OfferAttachments,
            Area::AccountLogo,
            Area::ApprovalSignatures,
            Area::SentMail,
        ]
        .into_iter()
        .find(|a| a.folder() == folder)
    }
}

/// Whether `key` is a plain stored-file name: ASCII letters, digits, `.`, `_` and `-`, not
/// empty and not starting with a dot (no separators, no `..`). Keys read from the
/// database or a backup are never trusted as paths.
pub fn is_plain_key(key: &str) -> bool {
    !key.is_empty()
        && !key.starts_with('.')
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '-')
}

/// The file store of one server: the local directory or a bucket (see the module docs).
/// Cheap to clone.
#[derive(Clone)]
pub struct FileStore {
    store: Arc<dyn ObjectStore>,
    prefix: ObjectPath,
    /// The local root (`<data>/files`) when the store is the local directory, for syncing.
    local_root: Option<PathBuf>,
    description: String,
}

impl std::fmt::Debug for FileStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.description)
    }
}

/// How long a request to a bucket may take, and how often it is retried, before the
/// request that needed it fails (a bucket that does not answer must not hang the server).
fn remote_options() -> (ClientOptions, RetryConfig) {
    let client = ClientOptions::new()
        .with_connect_timeout(Duration::from_secs(5))
        .with_timeout(Duration::from_secs(60));
    let retry = RetryConfig {
        max_retries: 3,
        retry_timeout: Duration::from_secs(20),
        ..RetryConfig::default()
    };
    (client, retry)
}

impl FileStore {
    /// The local directory `<data_dir>/files` (created if missing). Errors: the directory
    /// cannot be created, as a sentence.
    pub fn local(data_dir: &Path) -> Result<FileStore, String> {
        let root = data_dir.join("files");
        std::fs::create_dir_all(&root)
            .map_err(|e| format!("cannot create the file directory {}: {e}", root.display()))?;
        let store = LocalFileSystem::new_with_prefix(&root)
            .map_err(|e| format!("cannot use the file directory {}: {e}", root.display()))?;
        Ok(FileStore {
            store: Arc::new(store),
            prefix: ObjectPath::default(),
            description: format!("the directory {}", root.display()),
            local_root: Some(root),
        })
    }

    /// The store named by `location`: `None` or an empty string for the local directory,
    /// `s3://bucket[/prefix]` for a bucket (settings from the environment, see the module
    /// docs). Errors: any other scheme, a missing bucket name, or settings the S3 client
    /// refuses, as a sentence naming `--files`.
    pub fn open(location: Option<&str>, data_dir: &Path) -> Result<FileStore, String> {
        let location = location.map(str::trim).unwrap_or("");
        if location.is_empty() {
            return FileStore::local(data_dir);
        }
        let Some(rest) = location.strip_prefix("s3://") else {
            return Err(format!(
                "--files {location:?} is not supported: give s3://bucket/prefix, or leave it \
                 out for the local directory <data>/files"
            ));
        };
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        if bucket.is_empty() {
            return Err(format!(
                "--files {location:?} names no bucket (s3://bucket/prefix)"
            ));
        }
        let prefix = prefix.trim_matches('/');
        let mut builder = AmazonS3Builder::from_env().with_bucket_name(bucket);
        let endpoint = std::env::var("AWS_ENDPOINT_URL")
            .or_else(|_| std::env::var("AWS_ENDPOINT"))
            .unwrap_or_default();
        let (client, retry) = remote_options();
        builder =
            builder.with_client_options(client.with_allow_http(endpoint.starts_with("http://")));
        builder = builder.with_retry(retry);
        if !endpoint.is_empty() {
            // S3-compatible servers (MinIO, Garage, moto) address buckets by path.
            builder = builder.with_endpoint(&endpoint);
        }
        let store = builder
            .build()
            .map_err(|e| format!("--files {location:?}: the S3 settings are not usable: {e}"))?;
        Ok(FileStore {
            store: Arc::new(store),
            prefix: ObjectPath::parse(prefix)
                .map_err(|e| format!("--files {location:?}: the prefix is not usable: {e}"))?,
            description: format!("the bucket s3://{bucket}/{prefix}"),
            local_root: None,
        })
    }

    /// Where the files live, for messages ("the directory …", "the bucket s3://…").
    pub fn describe(&self) -> &str {
        &self.description
    }

    /// Whether this is the local directory (backups copy it from disk).
    pub fn is_local(&self) -> bool {
        self.local_root.is_some()
    }

    /// A failed store request as an error: 503 (`Retry-After`) when the store did not
    /// answer or failed on its side, so the client may retry; 500 otherwise.
    fn failed(&self, doing: &str, e: object_store::Error) -> ApiError {
        let cause = format!("{doing} {}: {e}", self.description);
        match e {
            object_store::Error::Generic { .. } => ApiError::Unavailable("file store", cause),
            _ => ApiError::Internal(cause),
        }
    }

    fn path(&self, area: Area, key: &str) -> ObjectPath {
        self.prefix.child(area.folder()).child(key)
    }

    /// Proves at start that the store can be written, read and cleaned: writes, reads and
    /// deletes a probe object. Errors: a sentence naming the store and the failure (the
    /// server then does not start).
    pub async fn check_writable(&self) -> Result<(), String> {
        let mut id = [0u8; 8];
        rand::rng().fill_bytes(&mut id);
        let path = self
            .prefix
            .child(format!(".kontor-probe-{}", hex::encode(id)));
        let fail =
            |what: &str, e: object_store::Error| format!("cannot {what} {}: {e}", self.description);
        self.store
            .put_opts(
                &path,
                PutPayload::from_static(b"kontor"),
                PutOptions::from(PutMode::Create),
            )
            .await
            .map_err(|e| fail("write to", e))?;
        self.store
            .get(&path)
            .await
            .map_err(|e| fail("read from", e))?;
        self.store
            .delete(&path)
            .await
            .map_err(|e| fail("delete from", e))?;
        Ok(())
    }

    /// Stores `bytes` in `area` under a new random key ending in `.extension`, create-only
    /// and (locally) synced to disk; returns the key. Errors: 500 when the store fails.
    pub async fn put_new(&self, area: Area, extension: &str, bytes: &[u8]) -> ApiResult<String> {
        let mut id = [0u8; 16];
        rand::rng().fill_bytes(&mut id);
        let key = format!("{}.{extension}", hex::encode(id));
        let path = self.path(area, &key);
        self.store
            .put_opts(
                &path,
                PutPayload::from(bytes.to_vec()),
                PutOptions::from(PutMode::Create),
            )
            .await
            .map_err(|e| {
                ApiError::Internal(format!("storing a file in {}: {e}", self.description))
            })?;
        self.sync_local(area, &key).await?;
        Ok(key)
    }

    /// Stores `bytes` as the given `key` in `area` (restoring a backup, moving an
    /// installation), create-only: an object already there must hold the same bytes.
    /// Returns whether it was created now (false: it was there already).
    /// Errors: 500 when the store fails or holds other bytes under `key`.
    pub async fn put_at(&self, area: Area, key: &str, bytes: &[u8]) -> ApiResult<bool> {
        if !is_plain_key(key) {
            return Err(ApiError::Internal(format!(
                "not a stored-file key: {key:?}"
            )));
        }
        let path = self.path(area, key);
        match self
            .store
            .put_opts(
                &path,
                PutPayload::from(bytes.to_vec()),
                PutOptions::from(PutMode::Create),
            )
            .await
        {
            Ok(_) => self.sync_local(area, key).await.map(|()| true),
            Err(object_store::Error::AlreadyExists { .. }) => {
                if self.get(area, key).await?.as_deref() == Some(bytes) {
                    Ok(false)
                } else {
                    Err(ApiError::Internal(format!(
                        "{}/{key} already exists in {} with other content",
                        area.folder(),
                        self.description
                    )))
                }
            }
            Err(e) => Err(self.failed("storing a file in", e)),
        }
    }

    /// Syncs a just-written local file and its directory (no-op for a bucket).
    async fn sync_local(&self, area: Area, key: &str) -> ApiResult<()> {
        let Some(root) = &self.local_root else {
            return Ok(());
        };
        let dir = root.join(area.folder());
        let file = dir.join(key);
        tokio::task::spawn_blocking(move || -> std::io::Result<()> {
            std::fs::File::open(&file)?.sync_all()?;
            std::fs::File::open(&dir)?.sync_all()
        })
        .await
        .map_err(|e| ApiError::Internal(format!("storage: {e}")))?
        .map_err(|e| ApiError::Internal(format!("syncing a stored file: {e}")))
    }

    /// The bytes of `key` in `area`; `None` when there is no such object. Errors: 500
    /// when the store fails otherwise.
    pub async fn get(&self, area: Area, key: &str) -> ApiResult<Option<Vec<u8>>> {
        if !is_plain_key(key) {
            return Ok(None);
        }
        let read = |e: object_store::Error| self.failed("reading a file from", e);
        match self.store.get(&self.path(area, key)).await {
            Ok(result) => Ok(Some(result.bytes().await.map_err(read)?.to_vec())),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(read(e)),
        }
    }

    /// The bytes of `key` in `area`; 500 when it is missing (a row points at it).
    pub async fn read(&self, area: Area, key: &str) -> ApiResult<Vec<u8>> {
        self.get(area, key).await?.ok_or_else(|| {
            ApiError::Internal(format!(
                "the stored file {}/{key} is missing from {}",
                area.folder(),
                self.description
            ))
        })
    }

    /// Deletes `key` in `area` when it exists. Used after the row pointing at it is gone
    /// (or was never written), so a failure only leaves an unreferenced object; it is
    /// logged, never returned.
    pub async fn delete(&self, area: Area, key: &str) {
        if !is_plain_key(key) {
            return;
        }
        match self.store.delete(&self.path(area, key)).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => {}
            Err(e) => tracing::warn!(
                "could not delete {}/{key} from {}: {e}",
                area.folder(),
                self.description
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn local_files_are_created_once_read_and_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::open(None, dir.path()).unwrap();
        store.check_writable().await.unwrap();
        let key = store
            .put_new(Area::OfferAttachments, "pdf", b"%PDF-1.7")
            .await
            .unwrap();
        assert!(key.ends_with(".pdf") && key.len() == 36, "{key}");
        let on_disk = dir.path().join("files/offer_attachments").join(&key);
        assert_eq!(std::fs::read(&on_disk).unwrap(), b"%PDF-1.7");
        assert_eq!(
            store
                .get(Area::OfferAttachments, &key)
                .await
                .unwrap()
                .unwrap(),
            b"%PDF-1.7"
        );
        assert_eq!(store.get(Area::AccountLogo, &key).await.unwrap(), None);
        assert_eq!(
            store.get(Area::OfferAttachments, "../x").await.unwrap(),
            None
        );
        store.delete(Area::OfferAttachments, &key).await;
        assert!(!on_disk.exists());
        assert_eq!(store.get(Area::OfferAttachments, &key).await.unwrap(), None);
        // No probe or staging file is left behind.
        let left: Vec<_> = std::fs::read_dir(dir.path().join("files"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, vec![std::ffi::OsString::from("offer_attachments")]);
    }

    #[test]
    fn only_plain_keys_name_files() {
        assert!(is_plain_key("3f2a9c.pdf"));
        assert!(!is_plain_key("../kontor.db"));
        assert!(!is_plain_key("a/b.pdf"));
        assert!(!is_plain_key(".hidden"));
        assert!(!is_plain_key(""));
    }

    #[test]
    fn unknown_locations_are_refused_with_a_sentence() {
        let dir = tempfile::tempdir().unwrap();
        let e = FileStore::open(Some("ftp://x/y"), dir.path()).unwrap_err();
        assert!(
            e.contains("--files") && e.contains("s3://bucket/prefix"),
            "{e}"
        );
        let e = FileStore::open(Some("s3:///prefix"), dir.path()).unwrap_err();
        assert!(e.contains("names no bucket"), "{e}");
        for area in [
            Area::PurchaseDocuments,
            Area::OfferAttachments,
            Area::AccountLogo,
        ] {
            assert_eq!(Area::from_folder(area.folder()), Some(area));
        }
        assert_eq!(Area::from_folder("x"), None);
    }
}
