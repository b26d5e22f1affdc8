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
    /// Serializes write transactions so numbering is gap-free and SQLite never answers
    /// "database is locked" under concurrent creation.
    pub write_lock: Arc<Mutex<()>>,
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
