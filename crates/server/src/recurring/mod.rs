//! `/recurring_invoices` (issue 11 § Edit, delete, copy, repeat; contract § Recurring
//! invoices; `docs/decisions.md` § Recurring invoices (issue 11)): schedules that create
//! an invoice per calendar month, quarter or year from a stored creation body. [`api`]
//! answers the requests, [`job`] creates the due invoices, [`repo`] stores both.

pub mod api;
pub mod job;
pub mod repo;

use crate::state::AppState;
use axum::routing::get;
use axum::Router;

/// Routes of the recurring invoice resource.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/recurring_invoices", get(api::list).post(api::create))
        .route(
            "/recurring_invoices/{id}",
            get(api::get_one).put(api::update).delete(api::delete),
        )
}
