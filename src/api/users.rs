//! Users of the account: list and get (every signed-in caller), and for admins invite,
//! change and deactivate (issue 12).

use super::client::{get_one, get_page, send_json};
use super::{ApiError, Page};
use gloo_net::http::Method;
use kontor_model::users::{Invitation, InvitedUser, UpdateUser};
use kontor_model::users::{NewUser, User};
use serde::Serialize;

/// GET /users (up to 100).
pub async fn list_users() -> Result<Page<User>, ApiError> {
    get_page("/users", &[("per_page".to_string(), "100".to_string())]).await
}

/// GET /users/{id}.
pub async fn get_user(id: i64) -> Result<User, ApiError> {
    get_one(&format!("/users/{id}"), &[]).await
}

/// POST /users (admin): creates the user and its one-time password-set link (e-mailed when
/// mail is configured). 422 `email` when taken.
pub async fn create_user(body: &NewUser) -> Result<InvitedUser, ApiError> {
    send_json(Method::POST, "/users", body).await
}

/// PUT /users/{id} (admin): names, role, `active`. 422 `role`/`active` for the last admin.
pub async fn update_user(id: i64, body: &UpdateUser) -> Result<User, ApiError> {
    send_json(Method::PUT, &format!("/users/{id}"), body).await
}

#[derive(Serialize)]
struct Empty {}

/// POST /users/{id}/invitation (admin): a fresh link; older links of the user stop working.
pub async fn new_invitation(id: i64) -> Result<Invitation, ApiError> {
    send_json(Method::POST, &format!("/users/{id}/invitation"), &Empty {}).await
}
