//! `/offers`: quotes (interface.md § Offers, `decisions.md` § Representations). One file
//! per operation; [`repo`] turns rows into representations.

mod attachments;
mod create;
mod edit;
mod email;
mod get;
pub mod list;
mod pdf;
pub mod repo;
mod status;

pub use attachments::attachment_file;
pub use create::create_offer;
pub use pdf::offer_pdf;

use crate::state::AppState;
use axum::routing::{delete, get, post, put};
use axum::Router;

/// Routes of the offer resource.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/offers", get(list::list).post(create::create))
        .route("/offers/summary", get(list::summary))
        .route(
            "/offers/{id}",
            get(get::get_one).put(edit::update).delete(edit::delete),
        )
        .route("/offers/{id}/copy", post(edit::copy))
        .route("/offers/{id}/update_status", put(status::update_status))
        .route("/offers/{id}/send_email", post(email::send_email))
        .route(
            "/offers/{id}/attachments",
            get(attachments::list).post(attachments::create),
        )
        .route(
            "/offers/{id}/attachments/{attachment_id}",
            delete(attachments::delete),
        )
}
