//! Users of the account (internal contacts): list and get.

use super::client::{get_one, get_page};
use super::{ApiError, Page};
use kontor_model::party::User;

/// GET /users (up to 100).
pub async fn list_users() -> Result<Page<User>, ApiError> {
    get_page("/users", &[("per_page".to_string(), "100".to_string())]).await
}

/// GET /users/{id}.
pub async fn get_user(id: i64) -> Result<User, ApiError> {
    get_one(&format!("/users/{id}"), &[]).await
}
