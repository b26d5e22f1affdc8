//! Kontor's server: the `/api/v1` interface of `shared/spec/interface.md` with the
//! decisions of `shared/spec/decisions.md`, over SQLite, plus the browser bundle.
//!
//! A request flows: [`http::routes::app`] (CORS, tracing) → [`access::auth::require_key`] (key, rate
//! limit, read-only rule) → a resource module's handler (extractors from [`http::extract`]
//! turn every bad input into an [`http::error::ApiError`]) → SQL through sqlx → a
//! `kontor_model` representation as JSON.
//!
//! The house (issue 30; `docs/architecture.md`): the HTTP edge ([`http`]), who may do
//! what ([`access`]), the query layer and schema ([`sql`], [`schema`]), where data lives
//! ([`store`]), bounded work ([`work`]), outside input made safe ([`input`]), the audit
//! trail ([`proof`]), the list layer ([`lists`]), and one module or folder per resource.

#![warn(missing_docs)]

pub mod access;
pub mod account;
pub mod approvals;
pub mod bank;
pub mod billable;
pub mod config;
pub mod confirmations;
pub mod dashboard;
pub mod demo;
pub mod documents;
pub mod events;
pub mod exports;
pub mod http;
pub mod inbox;
pub mod input;
pub mod invoices;
pub mod lists;
pub mod master_data;
pub mod numbering;
pub mod offers;
pub mod proof;
pub mod purchases;
pub mod recurring;
pub mod reminders;
pub mod schema;
pub mod search;
pub mod sent_mail;
pub mod sql;
pub mod state;
pub mod store;
pub mod users;
pub mod work;

use config::ServerConfig;
use state::AppState;
use std::sync::Arc;

/// Builds the state for `config` over an opened pool. Errors: the signing secret cannot
/// be read or stored, or the stored one is corrupt; the file store (`--files`) is not
/// usable or cannot be written (the server then refuses to start).
pub async fn state(pool: crate::sql::Db, config: &ServerConfig) -> Result<AppState, String> {
    let files = store::storage::FileStore::open(config.files.as_deref(), &config.data_dir)?;
    files.check_writable().await?;
    let signer = store::files::Signer::load(&pool).await?;
    account::repo::seed(&pool, &config.account).await?;
    let rate_limiter =
        access::rate_limit::RateLimiter::new(config.rate_limit, pool.clone()).map(Arc::new);
    let public_limiter =
        access::rate_limit::RateLimiter::new(config.rate_limit.div_ceil(10), pool.clone())
            .map(Arc::new);
    Ok(AppState {
        write_lock: state::WriteLock::new(pool.clone()),
        pool,
        data_dir: config.data_dir.clone(),
        signer,
        files,
        account: Arc::new(config.account.clone()),
        rate_limiter,
        public_limiter,
        links: Arc::new(http::links::LinkOrigins::from_env(config.listen)),
        process_id: Arc::from(work::processes::new_id()),
    })
}

/// How long a client may take to send a request's complete headers, counted from when
/// the server starts reading them, before the connection is closed (`docs/decisions.md`
/// § Server hardening).
pub const HEADER_READ_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// A bound, not yet running server (tests bind to port 0 and read the address).
pub struct Bound {
    /// The listener.
    pub listener: tokio::net::TcpListener,
    /// The application.
    pub app: axum::Router,
    /// The key created on first start, if this start created one.
    pub initial_key: Option<String>,
    /// See [`HEADER_READ_TIMEOUT`] (tests shorten it).
    pub header_read_timeout: std::time::Duration,
    /// The application's state (for the background jobs [`run`] starts).
    pub state: AppState,
}

/// Opens the database, creates the first key on an empty database, creates the recurring
/// invoices that fell due while the server was down (`recurring::job`), and binds the
/// listener. Errors: database or bind failures, as a sentence.
pub async fn bind(config: &ServerConfig) -> Result<Bound, String> {
    let pool = store::db::open_located(config.database.as_deref(), &config.data_dir).await?;
    let initial_key = access::auth::ensure_initial_key(&pool)
        .await
        .map_err(|e| format!("cannot create the first key: {e}"))?;
    let mut state = state(pool, config).await?;
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    // Links may point at the address actually bound (port 0 picks one).
    if let Ok(bound) = listener.local_addr() {
        state.links = Arc::new(http::links::LinkOrigins::from_env(bound));
    }
    // Recurring invoices due while the server was down are created before it serves.
    recurring::job::run_due(&state).await;
    let app = http::routes::app(
        state.clone(),
        config.dist_dir.as_deref(),
        &config.cors_origins,
    );
    Ok(Bound {
        listener,
        app,
        initial_key,
        header_read_timeout: HEADER_READ_TIMEOUT,
        state,
    })
}

/// Runs a bound server until Ctrl-C (or until this future is dropped), with the hourly
/// recurring invoice job, then waits for the open connections to finish.
///
/// HTTP/1.1 through hyper's connection builder rather than `axum::serve`, which has no
/// header-read timeout: a connection that does not finish its request headers within
/// `bound.header_read_timeout` is closed. Errors: none in practice (accept errors such as
/// too many open files are logged and retried).
pub async fn run(bound: Bound) -> Result<(), String> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use tower::ServiceExt;

    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(bound.header_read_timeout);
    // The hourly recurring invoice job runs as long as this server does.
    let _recurring = recurring::job::spawn_hourly(bound.state.clone());
    // The supplier inbox is read every 5 minutes while it is enabled (issue 36).
    let _inbox = inbox::poll::spawn_every(bound.state.clone());
    // The audit trail's head goes to the log now and daily (issue 29).
    let _audit_head = proof::audit::log_head_daily(bound.state.pool.clone());
    // This process says it is alive, so requests it leaves pending can be told apart
    // from running ones (issue 29, `processes`).
    let _heartbeat = work::processes::spawn_heartbeat(
        bound.state.pool.clone(),
        bound.state.process_id.to_string(),
    );
    // The rate limit's counts are shared with the other processes on this database.
    let _rate_sync = bound
        .state
        .rate_limiter
        .clone()
        .map(access::rate_limit::RateLimiter::spawn_sync);
    let _public_rate_sync = bound
        .state
        .public_limiter
        .clone()
        .map(access::rate_limit::RateLimiter::spawn_sync);
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let shutdown = tokio::signal::ctrl_c();
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = bound.listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        let app = bound.app.clone();
        // The client's address for the back-off of failed attempts (`access::attempts::PeerAddr`).
        let peer = access::attempts::PeerAddr(peer.ip());
        let service = hyper::service::service_fn(move |mut request: hyper::Request<_>| {
            request.extensions_mut().insert(peer);
            app.clone().oneshot(request)
        });
        let connection = http.serve_connection(TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, "connection closed with an error");
            }
        });
    }
    graceful.shutdown().await;
    Ok(())
}
