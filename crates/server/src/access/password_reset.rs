//! Forgotten passwords (issue 33 § Forgotten passwords; `docs/decisions.md` § Forgotten
//! passwords): `POST /session/password_reset {email}` answers 202 whatever the address,
//! and — for an active user with that e-mail, when SMTP is set up and the link's origin is
//! trusted ([`crate::http::links`]) — e-mails a one-time link valid for
//! [`PASSWORD_RESET_MINUTES`] minutes (the user's older links stop working). The work
//! after the answer runs in the background, so the answer's timing says nothing either.
//! `POST /session/password_reset/confirm {token, password}` sets the password, ends every
//! session of that user and signs in (like accepting an invitation: both links are rows of
//! `invitations`, only the token's SHA-256 stored). Requests are counted like sign-ins
//! ([`crate::access::attempts`], per e-mail and address and per address) and back off with
//! 429 and `Retry-After`.

use crate::access::attempts::PeerAddr;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::JsonBody;
use crate::state::AppState;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use kontor_model::error::{messages, push_error, FieldErrors};
use kontor_model::users::{
    AcceptInvitation, PasswordReset, SignedIn, User, PASSWORD_RESET_MINUTES,
};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes `/session/password_reset` and `/session/password_reset/confirm`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(request_reset))
        .routes(routes!(confirm_reset))
}

/// POST /session/password_reset `{email}` → 202 (always, with no body: no hint whether the
/// address belongs to a user). Errors: 422 naming `email` when it is missing or not an
/// e-mail address; 429 with `Retry-After` while this e-mail from this address, or this
/// address, backs off (counted like sign-ins).
#[utoipa::path(post, path = "/session/password_reset", operation_id = "session_password_reset", tag = "session",
    request_body = PasswordReset,
    responses((status = 202, description = "Accepted: a link is e-mailed if the address belongs to an active user and SMTP is set up"),
        (status = 422, description = "`email` missing or not an e-mail address", body = kontor_model::error::ErrorBody),
        (status = 429, description = "Too many requests: wait before the next try", body = kontor_model::error::ErrorBody, headers(("Retry-After" = u64, description = "Seconds to wait")))))]
async fn request_reset(
    State(state): State<AppState>,
    peer: Option<Extension<PeerAddr>>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<PasswordReset>,
) -> Response {
    match try_request(state, peer, headers, body).await {
        Ok(()) => StatusCode::ACCEPTED.into_response(),
        Err(ApiError::TooManyRequests(seconds)) => crate::access::session::locked(seconds),
        Err(e) => e.into_response(),
    }
}

async fn try_request(
    state: AppState,
    peer: Option<Extension<PeerAddr>>,
    headers: HeaderMap,
    body: PasswordReset,
) -> ApiResult<()> {
    let email = body
        .email
        .as_deref()
        .map(str::trim)
        .unwrap_or("")
        .to_lowercase();
    let mut e = FieldErrors::new();
    if email.is_empty() {
        push_error(&mut e, "email", messages::IS_REQUIRED);
    } else if !kontor_model::email::is_address(&email) {
        push_error(&mut e, "email", messages::IS_NOT_E_MAIL_ADDRESS);
    }
    ApiError::check(e)?;
    let address = crate::access::attempts::address_of(peer.as_ref().map(|Extension(p)| p));
    // Its own key in the attempts table: a reset never unlocks or locks a sign-in of the
    // same e-mail, but counts toward the address's budget like one.
    crate::access::attempts::claim_sign_in(
        &state.pool,
        &format!("password_reset:{email}"),
        &address,
    )
    .await?;
    let trusted = state.links.for_email(Some(&headers)).is_some();
    let origin = state.links.for_answer(Some(&headers));
    tokio::spawn(async move {
        if let Err(error) = send_link(&state, &email, &origin, trusted).await {
            tracing::warn!(error = ?error, "password reset link not sent");
        }
    });
    Ok(())
}

/// Makes and e-mails the link for the active user with `email`, if there is one, SMTP is
/// set up and the origin is `trusted`. Nothing is made otherwise (an unknown address leaves
/// no row). Errors: the database's or the mail server's.
async fn send_link(state: &AppState, email: &str, origin: &str, trusted: bool) -> ApiResult<()> {
    let Some((user, _)) = crate::users::find_by_email(&state.pool, email).await? else {
        return Ok(());
    };
    if !user.active {
        return Ok(());
    }
    if !trusted {
        tracing::warn!(
            user = user.id,
            "password reset not e-mailed: no KONTOR_PUBLIC_URL and the request's host is not the server's own address"
        );
        return Ok(());
    }
    let settings = crate::account::repo::load(&state.pool).await?;
    if settings.smtp.is_none() || settings.account.email.is_none() {
        // No link is made that nobody could receive.
        tracing::warn!(
            user = user.id,
            "password reset not e-mailed: SMTP is not set up"
        );
        return Ok(());
    }
    let valid = chrono::Duration::minutes(PASSWORD_RESET_MINUTES);
    let link = crate::users::new_link(&state.pool, user.id, origin, valid, "&reset=1").await?;
    let (subject, text) = reset_text(&user, &link.url);
    crate::users::mail_when_set_up(state, email, subject, text).await?;
    Ok(())
}

/// The reset e-mail's subject and text in the user's language (German and English both
/// when the user chose none).
fn reset_text(user: &User, url: &str) -> (String, String) {
    let minutes = PASSWORD_RESET_MINUTES;
    let first = &user.firstname;
    let de = format!(
        "Hallo {first},\n\njemand (hoffentlich Sie) hat ein neues Passwort für Kontor angefordert. \
         Legen Sie es mit diesem Link fest (gültig {minutes} Minuten, einmal):\n{url}\n\n\
         Wenn Sie das nicht waren, ignorieren Sie diese E-Mail; Ihr Passwort bleibt, wie es ist.\n"
    );
    let en = format!(
        "Hello {first},\n\nsomeone (hopefully you) asked for a new Kontor password. \
         Choose it with this link (valid for {minutes} minutes, once):\n{url}\n\n\
         If that was not you, ignore this e-mail; your password stays as it is.\n"
    );
    match user.language.as_deref() {
        Some("de") => ("Neues Passwort für Kontor".into(), de),
        Some("en") => ("Your new Kontor password".into(), en),
        _ => (
            "Your new Kontor password / Neues Passwort für Kontor".into(),
            format!("{en}\n---\n\n{de}"),
        ),
    }
}

/// POST /session/password_reset/confirm `{token, password}` → 200 `{api_key, user}`: the
/// password is set, the link used up, every other session of that user ended, and a new
/// session made. Errors: 422 naming `token` (unknown, used, expired, deactivated user) or
/// `password` (too short or weak; the link stays valid then).
#[utoipa::path(post, path = "/session/password_reset/confirm", operation_id = "session_password_reset_confirm", tag = "session",
    request_body = AcceptInvitation,
    responses((status = 200, description = "The password is set; a new session key and its user", body = SignedIn),
        (status = 422, description = "`token` invalid, used or expired, or `password` too weak", body = kontor_model::error::ErrorBody)))]
async fn confirm_reset(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<AcceptInvitation>,
) -> ApiResult<Json<SignedIn>> {
    crate::access::session::set_password_by_token(&state, body).await
}
