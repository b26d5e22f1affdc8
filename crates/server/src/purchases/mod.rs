//! `/purchases`: supplier receipts (interface.md § Purchases; `decisions.md` § Totals,
//! § State rules), their categories and payments. One file per operation.

mod categories;
mod correction;
mod create;
mod document;
mod duplicates;
mod get;
pub mod import;
mod import_repo;
pub mod list;
pub mod payments;
pub mod repo;
mod status;

pub use create::create_purchase;
pub use document::{document_file, MAX_DOCUMENT};
pub use import::{import_bytes, Imported};

use crate::http::extract::UPLOAD_LIMIT;
use crate::state::AppState;
use axum::extract::DefaultBodyLimit;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

/// Routes of the purchase resource.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list::list, create::create))
        .routes(routes!(list::totals))
        .routes(routes!(list::summary))
        .routes(routes!(import::import).layer(DefaultBodyLimit::max(UPLOAD_LIMIT)))
        .routes(routes!(import::e_invoice_html))
        .routes(routes!(categories::list, categories::create))
        .routes(routes!(categories::get_one))
        .routes(routes!(payments::list, payments::create))
        .routes(routes!(payments::get_one, payments::delete))
        .routes(routes!(get::get_one, create::update, status::delete))
        .routes(routes!(status::update_status))
        .routes(routes!(correction::correction_request))
        .routes(routes!(document::store_document).layer(DefaultBodyLimit::max(UPLOAD_LIMIT)))
}
