//! Kontor's server: the `/api/v1` interface of `shared/spec/interface.md` with the
//! decisions of `shared/spec/decisions.md`, over SQLite, plus the browser bundle.
//!
//! A request flows: [`routes::app`] (CORS, tracing) → [`auth::require_key`] (key, rate
//! limit, read-only rule) → a resource module's handler (extractors from [`extract`]
//! turn every bad input into an [`error::ApiError`]) → SQL through sqlx → a
//! `kontor_model` representation as JSON.

#![warn(missing_docs)]

pub mod activities;
pub mod auth;
pub mod billing;
pub mod companies;
pub mod config;
pub mod db;
pub mod deals;
pub mod demo;
pub mod documents;
pub mod error;
pub mod expenses;
pub mod extract;
pub mod files;
pub mod invoice_payments;
pub mod invoices;
pub mod listing;
pub mod mail;
pub mod numbering;
pub mod offers;
pub mod pagination;
pub mod people;
pub mod projects;
pub mod purchases;
pub mod rate_limit;
pub mod reminders;
pub mod routes;
pub mod sanitize;
pub mod session;
pub mod state;
pub mod uploads;
pub mod users;

use config::ServerConfig;
use state::AppState;
use std::sync::Arc;

/// Builds the state for `config` over an opened pool. Errors: the signing secret cannot
/// be read or stored.
pub async fn state(pool: sqlx::SqlitePool, config: &ServerConfig) -> Result<AppState, String> {
    let signer = files::Signer::load(&pool)
        .await
        .map_err(|e| format!("cannot load the file-link secret: {e}"))?;
    Ok(AppState {
        pool,
        data_dir: config.data_dir.clone(),
        signer,
        account: Arc::new(config.account.clone()),
        write_lock: Arc::new(tokio::sync::Mutex::new(())),
        rate_limiter: rate_limit::RateLimiter::new(config.rate_limit).map(Arc::new),
    })
}

/// A bound, not yet running server (tests bind to port 0 and read the address).
pub struct Bound {
    /// The listener.
    pub listener: tokio::net::TcpListener,
    /// The application.
    pub app: axum::Router,
    /// The key created on first start, if this start created one.
    pub initial_key: Option<String>,
}

/// Opens the database, creates the first key on an empty database, and binds the
/// listener. Errors: database or bind failures, as a sentence.
pub async fn bind(config: &ServerConfig) -> Result<Bound, String> {
    let pool = db::open(&config.data_dir).await?;
    let initial_key = auth::ensure_initial_key(&pool)
        .await
        .map_err(|e| format!("cannot create the first key: {e}"))?;
    let app = routes::app(
        state(pool, config).await?,
        config.dist_dir.as_deref(),
        &config.cors_origins,
    );
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    Ok(Bound {
        listener,
        app,
        initial_key,
    })
}

/// Runs a bound server until Ctrl-C / SIGTERM.
pub async fn run(bound: Bound) -> Result<(), String> {
    axum::serve(bound.listener, bound.app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| format!("server error: {e}"))
}
