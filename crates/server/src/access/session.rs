//! `/session` and `/setup`: the key's identity (`decisions.md` § Authentication and keys)
//! and, since issue 12, signing in with e-mail and password, signing out, accepting an
//! invitation, and the first-run setup (`docs/decisions.md` § People, sign-in and roles).
//! `GET /account` lives in [`crate::account`].
//!
//! POST /session, POST /session/invitation and GET/POST /setup are the only public routes
//! ([`crate::access::roles::TABLE`]). Every sign-in failure is the same 401. Failures are counted
//! before the password is checked and back off per e-mail and address
//! ([`crate::access::attempts`]): beyond the free ones a try waits 30 s, doubling up to 15
//! minutes (429 with `Retry-After` and a message saying in how many minutes — German for
//! `Accept-Language: de` through [`crate::http::localize`]).

use crate::access::auth::{Caller, KeyContext, KIND_SESSION};
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::JsonBody;
use crate::state::AppState;
use crate::store::db::{now, ts};
use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use kontor_model::account::Session;
use kontor_model::error::{messages, Message};
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::users::{AcceptInvitation, Role, SignIn, SignedIn};
use kontor_model::users::{NewUser, User};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::access::attempts::PeerAddr;

/// Routes `/session`, `/session/invitation`, `/setup`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_session, sign_in, sign_out))
        .routes(routes!(accept_invitation))
        .routes(routes!(setup_needed, setup))
}

/// GET /session → `{id, uuid, name, read_only, user, kind}` of the calling key.
#[utoipa::path(get, path = "/session", operation_id = "session_get", tag = "session",
    responses((status = 200, description = "The calling key and its user", body = Session)))]
async fn get_session(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
    Extension(context): Extension<KeyContext>,
) -> ApiResult<Json<Session>> {
    let user = crate::users::load(&state.pool, caller.user_id).await?;
    Ok(Json(Session {
        id: caller.user_id,
        uuid: caller.uuid,
        name: caller.name,
        read_only: caller.read_only,
        user: Some(user),
        kind: Some(context.kind),
    }))
}

/// DELETE /session: revokes the calling key (session or API key). 204.
#[utoipa::path(delete, path = "/session", operation_id = "session_delete", tag = "session",
    responses((status = 204, description = "The calling key is revoked")))]
async fn sign_out(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
) -> ApiResult<StatusCode> {
    crate::access::auth::revoke_key(&state.pool, caller.key_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A new session key for `user` named "Sign-in <date>".
pub(crate) async fn session_for(pool: &crate::sql::Db, user: User) -> ApiResult<Json<SignedIn>> {
    let name = format!("Sign-in {}", now().format("%Y-%m-%d"));
    let (_, api_key) =
        crate::access::auth::create_key_for(pool, user.id, &name, false, KIND_SESSION).await?;
    Ok(Json(SignedIn { api_key, user }))
}

/// Requires `email` and `password` to be given. Errors: 422 naming them.
fn credentials(body: &SignIn) -> ApiResult<(String, String)> {
    let mut e = FieldErrors::new();
    let email = body.email.as_deref().map(str::trim).unwrap_or("");
    let password = body.password.as_deref().unwrap_or("");
    if email.is_empty() {
        push_error(&mut e, "email", messages::IS_REQUIRED);
    }
    if password.is_empty() {
        push_error(&mut e, "password", messages::IS_REQUIRED);
    }
    ApiError::check(e)?;
    Ok((email.to_lowercase(), password.to_string()))
}

/// The sentence of a sign-in lockout that ends in `seconds`: "Too many sign-in attempts.
/// Try again in N minutes." (whole minutes, rounded up; "1 minute" for up to a minute).
/// English; `crate::http::localize` answers it in German (by its code) for
/// `Accept-Language: de`.
pub fn lockout_message(seconds: u64) -> Message {
    match seconds.div_ceil(60) {
        0 | 1 => messages::SIGN_IN_LOCKED_ONE_MINUTE.into(),
        minutes => messages::SIGN_IN_LOCKED_N_MINUTES.with([minutes]),
    }
}

/// The 429 of a locked sign-in: [`lockout_message`] and `Retry-After` in seconds.
pub(crate) fn locked(seconds: u64) -> Response {
    let message = lockout_message(seconds);
    let mut response = (
        StatusCode::TOO_MANY_REQUESTS,
        Json(serde_json::json!({ "message": message.english() })),
    )
        .into_response();
    // The code stays beside the response for `crate::http::localize` (German).
    response.extensions_mut().insert(message);
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    response
}

/// POST /session `{email, password}` → 200 `{api_key, user}` with a new session key.
/// Errors: 401 (one message for every failure), 422 when a field is missing, 429 while
/// this e-mail from this address, this address, or this e-mail backs off after failures
/// (its message says in how many minutes to try again), 503 when too many passwords are
/// being checked.
#[utoipa::path(post, path = "/session", operation_id = "session_create", tag = "session",
    request_body = SignIn,
    responses((status = 200, description = "A new session key and its user", body = SignedIn),
        (status = 401, description = "E-mail or password is wrong (one message for every failure)", body = kontor_model::error::ErrorBody),
        (status = 429, description = "Too many failed sign-ins: wait before the next try", body = kontor_model::error::ErrorBody, headers(("Retry-After" = u64, description = "Seconds until the lock ends")))))]
async fn sign_in(
    state: State<AppState>,
    peer: Option<Extension<PeerAddr>>,
    body: JsonBody<SignIn>,
) -> Response {
    match try_sign_in(state, peer, body).await {
        Ok(signed) => signed.into_response(),
        Err(ApiError::TooManyRequests(seconds)) => locked(seconds),
        Err(e) => e.into_response(),
    }
}

async fn try_sign_in(
    State(state): State<AppState>,
    peer: Option<Extension<PeerAddr>>,
    JsonBody(body): JsonBody<SignIn>,
) -> ApiResult<Json<SignedIn>> {
    let (email, password) = credentials(&body)?;
    let address = crate::access::attempts::address_of(peer.as_ref().map(|Extension(p)| p));
    let pool = &state.pool;
    // Counted before the password is checked: parallel tries cannot slip past the limit.
    let claim = crate::access::attempts::claim_sign_in(pool, &email, &address).await?;
    let found = crate::users::find_by_email(pool, &email).await?;
    let (user, stored) = match found {
        Some((user, hash)) if user.active => (Some(user), hash),
        _ => (None, None),
    };
    let verified = match crate::access::passwords::verify(password, stored).await {
        Ok(verified) => verified,
        Err(busy) => {
            crate::access::attempts::sign_in_unchecked(pool, claim).await?;
            return Err(busy);
        }
    };
    match user {
        Some(user) if verified => {
            crate::access::attempts::sign_in_succeeded(pool, claim, &email, &address).await?;
            session_for(pool, user).await
        }
        _ => {
            crate::access::attempts::sign_in_failed(pool).await?;
            tracing::info!("sign-in failed");
            Err(ApiError::SignInFailed)
        }
    }
}

/// The link's error: one message for an unknown, used or expired token.
fn bad_token() -> ApiError {
    ApiError::field("token", messages::LINK_INVALID_OR_EXPIRED)
}

/// POST /session/invitation `{token, password}`: sets the password of the invited user,
/// consumes the link, and signs in (200 like POST /session). Errors: 422 naming `token`
/// (unknown, used, expired, deactivated user) or `password` (too short or weak; the link
/// stays valid then).
#[utoipa::path(post, path = "/session/invitation", operation_id = "session_accept_invitation", tag = "session",
    request_body = AcceptInvitation,
    responses((status = 200, description = "The password is set; a new session key and its user", body = SignedIn)))]
async fn accept_invitation(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<AcceptInvitation>,
) -> ApiResult<Json<SignedIn>> {
    set_password_by_token(&state, body).await
}

/// Sets the password of the user a one-time link (`token`) belongs to, consumes the link,
/// ends every session of that user, and signs in with a new session (200 like POST
/// /session). Shared by accepting an invitation and confirming a forgotten-password reset
/// (both links live in `invitations`). Errors: 422 naming `token` (unknown, used,
/// expired, deactivated user) or `password` (too short or weak; the link stays valid
/// then).
pub(crate) async fn set_password_by_token(
    state: &AppState,
    body: AcceptInvitation,
) -> ApiResult<Json<SignedIn>> {
    let pool = &state.pool;
    let token = body.token.as_deref().map(str::trim).unwrap_or("");
    if token.is_empty() {
        return Err(bad_token());
    }
    let row: Option<(i64, i64)> = crate::sql::query_as(
        "SELECT i.id, i.user_id FROM invitations i JOIN users u ON u.id = i.user_id \
         WHERE i.token_hash = $1 AND i.used_at IS NULL AND i.expires_at > $2 AND u.active = TRUE",
    )
    .bind(crate::access::auth::hash_key(token))
    .bind(ts(now()))
    .fetch_optional(pool)
    .await?;
    let Some((invitation_id, user_id)) = row else {
        return Err(bad_token());
    };
    let user = crate::users::load(pool, user_id).await?;
    let password = body.password.unwrap_or_default();
    crate::access::passwords::check_new(&password, &crate::users::user_inputs(&user), "password")?;
    let hash = crate::access::passwords::hash(password).await?;
    let used =
        crate::sql::query("UPDATE invitations SET used_at = $1 WHERE id = $2 AND used_at IS NULL")
            .bind(ts(now()))
            .bind(invitation_id)
            .execute(pool)
            .await?;
    if used.rows_affected() != 1 {
        return Err(bad_token());
    }
    crate::users::set_password_hash(pool, user_id, &hash, None).await?;
    session_for(pool, user).await
}

/// The answer of GET /setup.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct SetupNeeded {
    /// True while no active admin with a password exists.
    pub needed: bool,
}

/// GET /setup → `{"needed": bool}`: true while no active admin with a password exists.
#[utoipa::path(get, path = "/setup", operation_id = "setup_get", tag = "session",
    responses((status = 200, description = "Whether the first-run setup is needed", body = SetupNeeded)))]
async fn setup_needed(State(state): State<AppState>) -> ApiResult<Json<SetupNeeded>> {
    let needed = crate::users::active_admins(&state.pool).await? == 0;
    Ok(Json(SetupNeeded { needed }))
}

/// POST /setup `{email, firstname, lastname, password}`: creates the first admin and
/// signs in (200 like POST /session). Errors: 409 once an admin exists, 422 naming the
/// fields.
#[utoipa::path(post, path = "/setup", operation_id = "setup_create", tag = "session",
    request_body = SignIn,
    responses((status = 200, description = "The first admin, signed in", body = SignedIn),
        (status = 409, description = "Kontor is set up already", body = kontor_model::error::ErrorBody)))]
async fn setup(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<SignIn>,
) -> ApiResult<Json<SignedIn>> {
    let pool = &state.pool;
    let new = NewUser {
        firstname: body.firstname.clone(),
        lastname: body.lastname.clone(),
        email: body.email.clone(),
        role: Some(Role::Admin.as_str().into()),
    };
    let guard = state.write_lock.lock().await;
    if crate::users::active_admins(pool).await? > 0 {
        return Err(ApiError::AlreadyDone(
            "Kontor is set up already; an admin can invite you.".into(),
        ));
    }
    crate::users::check_new(pool, &new, true).await?;
    let password = body.password.clone().unwrap_or_default();
    let inputs: Vec<&str> = [&new.firstname, &new.lastname, &new.email]
        .into_iter()
        .filter_map(|v| v.as_deref())
        .collect();
    crate::access::passwords::check_new(&password, &inputs, "password")?;
    let hash = crate::access::passwords::hash(password).await?;
    let id = crate::users::insert(pool, &new, Role::Admin, Some(&hash)).await?;
    drop(guard);
    let user = crate::users::load(pool, id).await?;
    session_for(pool, user).await
}
