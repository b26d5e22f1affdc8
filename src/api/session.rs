//! The session (who the key acts for) and the account (name, currencies, letter papers).

use super::client::{get_one, normalize_server, request, Target};
use super::ApiError;
use gloo_net::http::Method;
use kontor_model::account::{Account, Session};

/// GET /session with the stored key.
pub async fn get_session() -> Result<Session, ApiError> {
    get_one("/session", &[]).await
}

/// GET /account.
pub async fn get_account() -> Result<Account, ApiError> {
    get_one("/account", &[]).await
}

/// GET /session against `server` with `key`, before they are stored (sign-in). A 401 here
/// is just an answer: nothing is cleared and nobody is redirected.
pub async fn verify_key(server: &str, key: &str) -> Result<Session, ApiError> {
    let target = Target {
        server: normalize_server(server),
        key: key.trim().to_string(),
        redirect_on_401: false,
    };
    let answer = request(&target, Method::GET, "/session", &[], None).await?;
    answer.parse()
}
