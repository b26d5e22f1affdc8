//! `/account`: the account's own data (issue 9 § The account's own data,
//! `docs/decisions.md` § Account settings (issue 9)). The settings live in the database
//! (`account_settings`, seeded from the account file on the first start); `GET /account`
//! reads them, `PUT /account` changes them (partial), `PUT`/`DELETE /account/logo` set the
//! logo, `POST /account/test_email` tries the mail settings. [`document_profile`] is what
//! documents print about the account. A router; the pieces live in the files below.

mod get;
mod logo;
mod profile;
pub mod repo;
mod test_email;
mod update;

pub use logo::logo_file;
pub use profile::{document_profile, AccountProfile, LogoFile};
pub use repo::{check_currency, currencies, default_currency};

use crate::state::AppState;
use axum::extract::DefaultBodyLimit;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes `/account`, `/account/logo`, `/account/test_email`.
pub fn router() -> OpenApiRouter<AppState> {
    let logo = OpenApiRouter::new()
        .routes(routes!(logo::store_logo, logo::delete_logo))
        .layer(DefaultBodyLimit::max(logo::BODY_LIMIT));
    OpenApiRouter::new()
        .routes(routes!(get::get_account, update::update_account))
        .merge(logo)
        .routes(routes!(test_email::send_test_email))
}
