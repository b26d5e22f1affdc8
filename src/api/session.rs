//! The session (who the key acts for), the account, and signing in (issue 12): e-mail and
//! password, the first-run setup, invitation links, sign-out and the user's own
//! preferences and password.

use super::client::{
    generic_message, get_one, normalize_server, request, request_open, send_json, send_no_content,
    to_json, Target,
};
use super::ApiError;
use crate::i18n::{fill, t};
use gloo_net::http::Method;
use kontor_model::account::{Account, AccountHead, Session};
use kontor_model::users::User;
use kontor_model::users::{
    AcceptInvitation, ChangePassword, PasswordReset, SignIn, SignedIn, UpdateMe,
};
use serde::Deserialize;

/// GET /session with the stored key.
pub async fn get_session() -> Result<Session, ApiError> {
    get_one("/session", &[]).await
}

/// GET /account.
pub async fn get_account() -> Result<Account, ApiError> {
    get_one("/account", &[]).await
}

/// GET /account, only the name (the frame's top bar).
pub async fn get_account_head() -> Result<AccountHead, ApiError> {
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

/// The app's own sentence for a locked sign-in (429) whose answer carries no message of
/// the server: when to try again, from `Retry-After` in seconds (rounded up to whole
/// minutes; "a few minutes" when unknown), in the user's language.
pub fn retry_message(retry_after: Option<u64>) -> String {
    let texts = t().api_errors();
    match retry_after {
        Some(s) if s <= 60 => texts.locked_minute.to_string(),
        Some(s) => fill(texts.locked_minutes, &[("n", &s.div_ceil(60).to_string())]),
        None => texts.locked_later.to_string(),
    }
}

/// A failed unauthenticated request's error: a 429 keeps the server's message ("Too many
/// sign-in attempts. Try again in 14 minutes.", in the language `Accept-Language` asked
/// for); only when the server sent none (its body was no error JSON) the app says
/// [`retry_message`].
fn open_error((error, retry_after): (ApiError, Option<u64>)) -> ApiError {
    if error.status == 429 && error.message == generic_message(429) {
        ApiError {
            message: retry_message(retry_after),
            ..error
        }
    } else {
        error
    }
}

fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, ApiError> {
    serde_json::from_str(text).map_err(|e| {
        ApiError::local(fill(
            t().api_errors().unreadable,
            &[("error", &e.to_string())],
        ))
    })
}

/// POST /session on `server`: e-mail and password → the personal session key and the
/// user. 401 carries the server's message; 429 a message saying when to try again.
pub async fn sign_in(server: &str, email: &str, password: &str) -> Result<SignedIn, ApiError> {
    let body = to_json(&SignIn {
        email: Some(email.trim().to_string()),
        password: Some(password.to_string()),
        ..SignIn::default()
    })?;
    let text = request_open(server, Method::POST, "/session", Some(body))
        .await
        .map_err(open_error)?;
    parse(&text)
}

#[derive(Deserialize)]
struct SetupNeeded {
    needed: bool,
}

/// GET /setup on `server`: whether the first-run page is needed (no active admin yet).
pub async fn setup_needed(server: &str) -> Result<bool, ApiError> {
    let text = request_open(server, Method::GET, "/setup", None)
        .await
        .map_err(open_error)?;
    parse::<SetupNeeded>(&text).map(|s| s.needed)
}

/// POST /setup on `server`: creates the first admin and signs them in (409 once an admin
/// exists; 422 per field).
pub async fn post_setup(server: &str, body: &SignIn) -> Result<SignedIn, ApiError> {
    let text = request_open(server, Method::POST, "/setup", Some(to_json(body)?))
        .await
        .map_err(open_error)?;
    parse(&text)
}

/// POST /session/invitation on `server`: sets the password from an invitation link and
/// signs in (422 `token` when the link is bad, used or expired; 422 `password` when weak).
pub async fn accept_invitation(
    server: &str,
    token: &str,
    password: &str,
) -> Result<SignedIn, ApiError> {
    let body = to_json(&AcceptInvitation {
        token: Some(token.to_string()),
        password: Some(password.to_string()),
    })?;
    let text = request_open(server, Method::POST, "/session/invitation", Some(body))
        .await
        .map_err(open_error)?;
    parse(&text)
}

/// POST /session/password_reset on `server` (issue 33): asks for a forgotten-password link
/// for `email`. The server answers 202 whether or not the address belongs to a user; 422
/// `email` when it is no address; 429 with a message saying when to try again.
pub async fn request_password_reset(server: &str, email: &str) -> Result<(), ApiError> {
    let body = to_json(&PasswordReset {
        email: Some(email.trim().to_string()),
    })?;
    request_open(server, Method::POST, "/session/password_reset", Some(body))
        .await
        .map_err(open_error)
        .map(|_| ())
}

/// POST /session/password_reset/confirm on `server`: sets the new password from a reset
/// link and signs in (every other session of the user ends); 422 `token` when the link is
/// bad, used or expired, 422 `password` when weak.
pub async fn confirm_password_reset(
    server: &str,
    token: &str,
    password: &str,
) -> Result<SignedIn, ApiError> {
    let body = to_json(&AcceptInvitation {
        token: Some(token.to_string()),
        password: Some(password.to_string()),
    })?;
    let text = request_open(
        server,
        Method::POST,
        "/session/password_reset/confirm",
        Some(body),
    )
    .await
    .map_err(open_error)?;
    parse(&text)
}

/// DELETE /session: revokes the stored key (sign-out). A 401 means it was already gone.
pub async fn delete_session() -> Result<(), ApiError> {
    let target = Target {
        redirect_on_401: false,
        ..Target::stored()?
    };
    request(&target, Method::DELETE, "/session", &[], None)
        .await
        .map(|_| ())
}

/// PUT /users/me: the signed-in user's language, theme or names.
pub async fn update_me(body: &UpdateMe) -> Result<User, ApiError> {
    send_json(Method::PUT, "/users/me", body).await
}

/// PUT /users/me/password: 204; 422 `current_password` (wrong) or `password` (too short
/// or weak, with the estimator's reason).
pub async fn change_password(current: &str, password: &str) -> Result<(), ApiError> {
    send_no_content(
        Method::PUT,
        "/users/me/password",
        &ChangePassword {
            current_password: Some(current.to_string()),
            password: Some(password.to_string()),
        },
    )
    .await
}
