//! `/purchases`: supplier receipts (interface.md § Purchases; `decisions.md` § Totals,
//! § State rules), their categories and payments. One file per operation.

mod categories;
mod create;
mod document;
mod duplicates;
mod get;
mod import;
mod import_repo;
pub mod list;
mod payments;
pub mod repo;
mod status;

pub use create::create_purchase;
pub use document::{document_file, documents_dir};

use crate::extract::UPLOAD_LIMIT;
use crate::state::AppState;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, patch, post};
use axum::Router;

/// Routes of the purchase resource.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/purchases", get(list::list).post(create::create))
        .route("/purchases/totals", get(list::totals))
        .route("/purchases/summary", get(list::summary))
        .route(
            "/purchases/import",
            post(import::import).layer(DefaultBodyLimit::max(UPLOAD_LIMIT)),
        )
        .route(
            "/purchases/{id}/e_invoice.html",
            get(import::e_invoice_html),
        )
        .route(
            "/purchases/categories",
            get(categories::list).post(categories::create),
        )
        .route("/purchases/categories/{id}", get(categories::get_one))
        .route(
            "/purchases/payments",
            get(payments::list).post(payments::create),
        )
        .route(
            "/purchases/payments/{id}",
            get(payments::get_one).delete(payments::delete),
        )
        .route(
            "/purchases/{id}",
            get(get::get_one).put(create::update).delete(status::delete),
        )
        .route(
            "/purchases/{id}/update_status",
            patch(status::update_status),
        )
        .route(
            "/purchases/{id}/store_document",
            patch(document::store_document).layer(DefaultBodyLimit::max(UPLOAD_LIMIT)),
        )
}
