//! `/recurring_invoices` (issue 11 § Edit, delete, copy, repeat; contract § Recurring
//! invoices; `docs/decisions.md` § Recurring invoices (issue 11)): schedules that create
//! an invoice per calendar month, quarter or year from a stored creation body. [`api`]
//! answers the requests, [`job`] creates the due invoices, [`repo`] stores both.

pub mod api;
pub mod job;
pub mod repo;

use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes of the recurring invoice resource, each with its OpenAPI description.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(api::list, api::create))
        .routes(routes!(api::get_one, api::update, api::delete))
}
