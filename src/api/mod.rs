//! The typed client of the Kontor server (`docs/api.md`).
//!
//! [`client`] holds the core: where the server is, the stored API key, the one private
//! request function, [`ApiError`] and [`Page`]. Every other module covers one resource
//! and offers one `pub async fn` per endpoint named `<verb>_<resource>`, returning
//! `Result<T, ApiError>` (never `Option` for a failed call).
//!
//! Amounts never pass through `f64`: bodies are written with serde_json (feature
//! `arbitrary_precision`) to a string, and responses are read from the response text.
//!
//! GET requests and PDF fetches started inside a reactive owner (a resource of a page) are aborted when
//! that owner is cleaned up: when the page goes away or the resource reloads.

pub mod account;
pub mod api_keys;
pub mod approvals;
pub mod articles;
pub mod audit;
pub mod bank;
pub mod billing;
pub mod client;
pub mod companies;
pub mod contacts;
pub mod dashboard;
pub mod deals;
pub mod dunning;
pub mod einvoices;
pub mod emails;
pub mod events;
pub mod exports;
pub mod inbox;
pub mod invoice_documents;
pub mod invoices;
pub mod offers;
pub mod offline;
pub mod outbox;
pub mod payments;
pub mod projects;
pub mod purchases;
pub mod recurring;
pub mod search;
pub mod session;
pub mod upload;
pub mod users;

pub use client::{ApiError, Page};

/// Saves a form's record in one request: `update(id, body)` (PUT) when `editing` names
/// the record, else `create(body)` (POST); the answer is the stored record.
pub async fn create_or_update<B, T>(
    editing: Option<i64>,
    body: &B,
    create: impl AsyncFnOnce(&B) -> Result<T, ApiError>,
    update: impl AsyncFnOnce(i64, &B) -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    match editing {
        Some(id) => update(id, body).await,
        None => create(body).await,
    }
}
