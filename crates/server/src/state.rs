//! Shared state of the request handlers.

use crate::access::rate_limit::RateLimiter;
use crate::config::AccountConfig;
use std::sync::Arc;
use tokio::sync::Mutex;

/// What every handler can reach: the database, the account, and the write lock.
#[derive(Clone)]
pub struct AppState {
    /// SQLite pool (WAL: readers never wait for the writer).
    pub pool: crate::sql::Db,
    /// The data directory (database, stored files, outbox).
    pub data_dir: std::path::PathBuf,
    /// The account (currencies, letter papers).
    pub account: Arc<AccountConfig>,
    /// Serializes the handlers that read before they write, so what they read is what
    /// they change ([`WriteLock`]).
    pub write_lock: WriteLock,
    /// Signs and checks file links.
    pub signer: crate::store::files::Signer,
    /// Where uploads, documents and the logo are stored (directory or bucket).
    pub files: crate::store::storage::FileStore,
    /// Per-key request limiter.
    pub rate_limiter: Option<Arc<RateLimiter>>,
    /// Per-address limiter of the public, token-addressed routes (the customer's approval
    /// page, issue 31): a tenth of the per-key allowance, at least 1.
    pub public_limiter: Option<Arc<RateLimiter>>,
    /// The origins links in e-mails may point to (`KONTOR_PUBLIC_URL`, or the server's own
    /// address).
    pub links: Arc<crate::http::links::LinkOrigins>,
    /// This server's id among the processes on the database (`crate::work::processes`).
    pub process_id: Arc<str>,
}

/// The process's write lock: a handler that reads outside its transaction and then writes
/// holds it from the read to the commit, so no other such handler changes what it read in
/// between; numbering is gap-free because numbers are taken inside the write transaction.
/// With the group commit ([`crate::sql::write_group`]) taking the lock first commits
/// the writes that finished before (plain invoice creations take turns in the group
/// without this lock, issue 35), so the handler's reads see them.
#[derive(Clone)]
pub struct WriteLock {
    mutex: Arc<Mutex<()>>,
    pool: crate::sql::Db,
}

impl WriteLock {
    /// The write lock of the handlers on `pool`.
    pub fn new(pool: crate::sql::Db) -> Self {
        WriteLock {
            mutex: Arc::new(Mutex::new(())),
            pool,
        }
    }

    /// Waits for the lock (first come, first served), then for the group commit of the
    /// writes that finished before; held until the guard is dropped.
    pub async fn lock(&self) -> tokio::sync::MutexGuard<'_, ()> {
        let guard = self.mutex.lock().await;
        self.pool.flush_writes().await;
        guard
    }
}
