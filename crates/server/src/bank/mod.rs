//! Money in, matched (issue 32 § Statements in, § Matching): bank statements imported
//! ([`statements`]), their transactions listed, matched by hand, undone and ignored
//! ([`transactions`]), and the booking of payments from them ([`booking`]). Reading the
//! files is `kontor_bank`'s; the matching rules are `kontor_model::bank_matching`'s.
//! `docs/decisions.md` § Bank statements.

pub mod booking;
pub mod reopen;
mod statements;
mod transactions;

use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes `/bank_statements…` and `/bank_transactions…`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(statements::list, statements::create))
        .routes(routes!(statements::get_one, statements::delete))
        .routes(routes!(transactions::list))
        .routes(routes!(transactions::get_one))
        .routes(routes!(transactions::match_one, transactions::unmatch))
        .routes(routes!(transactions::ignore, transactions::unignore))
}
