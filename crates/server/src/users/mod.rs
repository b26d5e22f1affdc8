//! `/users`: the account's users — internal contacts on records and, since issue 12, the
//! people who sign in (`decisions.md` § Supporting resources, `docs/decisions.md`
//! § People, sign-in and roles). Reads are open to every caller; creating, changing and
//! inviting need an admin ([`crate::access::roles::TABLE`]); `/users/me` is the caller's own.

pub mod api_keys;

use crate::access::auth::Caller;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{IdPath, JsonBody};
use crate::http::pagination::PageOf;
use crate::lists::{ListQuery, Listing, NoFilter};
use crate::state::AppState;
use crate::store::db::{now, ts, Ts};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::{Extension, Json};
use kontor_model::email::is_address;
use kontor_model::error::messages;
use kontor_model::error::{push_error, require_text, FieldErrors};
use kontor_model::party::UserRef;
use kontor_model::users::{
    ChangePassword, Invitation, InvitedUser, Role, Theme, UpdateMe, UpdateUser, INVITATION_DAYS,
    LANGUAGES,
};
use kontor_model::users::{NewUser, User};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

mod handlers;

/// Routes `/users`, `/users/{id}`, `/users/{id}/invitation`, `/users/me`,
/// `/users/me/password`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(handlers::list, handlers::create))
        .routes(routes!(handlers::get_me, handlers::update_me))
        .routes(routes!(handlers::change_password))
        .routes(routes!(handlers::get_one, handlers::update))
        .routes(routes!(handlers::invite_again))
}

#[derive(sqlx_macros::FromRow)]
struct UserRow {
    id: i64,
    firstname: String,
    lastname: String,
    email: Option<String>,
    role: String,
    active: bool,
    language: Option<String>,
    theme: String,
    created_at: Ts,
    updated_at: Ts,
}

impl From<UserRow> for User {
    fn from(r: UserRow) -> Self {
        User {
            id: r.id,
            firstname: r.firstname,
            lastname: r.lastname,
            email: r.email,
            role: Role::parse(&r.role).unwrap_or(Role::ReadOnly),
            active: r.active,
            language: r.language,
            theme: Theme::parse(&r.theme).unwrap_or_default(),
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
        }
    }
}

/// The columns of [`User`] (never the password hash).
const COLUMNS: &str =
    "u.id, u.firstname, u.lastname, u.email, u.role, u.active, u.language, u.theme, u.created_at, u.updated_at";

/// The user a joined row names (its `user_id` and the user's names): `Some` only when
/// all three are there (a left join that found the user).
pub fn user_ref(
    id: Option<i64>,
    firstname: Option<String>,
    lastname: Option<String>,
) -> Option<UserRef> {
    match (id, firstname, lastname) {
        (Some(id), Some(firstname), Some(lastname)) => Some(UserRef {
            id,
            firstname,
            lastname,
        }),
        _ => None,
    }
}

/// Loads user `id`. Errors: 404.
pub async fn load(pool: &crate::sql::Db, id: i64) -> ApiResult<User> {
    let sql = format!("SELECT {COLUMNS} FROM users u WHERE u.id = $1");
    crate::sql::find_by_id::<UserRow, User>(pool, &sql, id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("user {id}")))
}

/// The user with e-mail `email` (case-insensitive) and the password hash, if any.
pub async fn find_by_email(
    pool: &crate::sql::Db,
    email: &str,
) -> Result<Option<(User, Option<String>)>, sqlx::Error> {
    let row: Option<(i64, Option<String>)> =
        crate::sql::query_as("SELECT id, password_hash FROM users WHERE lower(email) = lower($1)")
            .bind(email.trim())
            .fetch_optional(pool)
            .await?;
    let Some((id, hash)) = row else {
        return Ok(None);
    };
    let user =
        crate::sql::query_as::<UserRow>(&format!("SELECT {COLUMNS} FROM users u WHERE u.id = $1"))
            .bind(id)
            .fetch_one(pool)
            .await?;
    Ok(Some((user.into(), hash)))
}

/// Checks the fields of a new user: names required, `email` an address not yet used,
/// `role` a role word. Returns the role. Errors: 422 naming the fields.
pub async fn check_new(
    pool: &crate::sql::Db,
    body: &NewUser,
    require_email: bool,
) -> ApiResult<Role> {
    let mut e = FieldErrors::new();
    for (field, value) in [("firstname", &body.firstname), ("lastname", &body.lastname)] {
        require_text(&mut e, field, value.as_ref());
    }
    let role = match body.role.as_deref() {
        None => Role::Staff,
        Some(word) => Role::parse(word).unwrap_or_else(|| {
            push_error(&mut e, "role", messages::MUST_BE_ADMIN_STAFF_OR_READ_ONLY);
            Role::Staff
        }),
    };
    let email = body
        .email
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty());
    let taken = match email {
        Some(email) if is_address(email) => email_taken(pool, email, None).await?,
        _ => false,
    };
    match email {
        None if require_email => push_error(&mut e, "email", messages::IS_REQUIRED),
        None => {}
        Some(email) if !is_address(email) => {
            push_error(&mut e, "email", messages::IS_NOT_E_MAIL_ADDRESS)
        }
        Some(_) if taken => push_error(&mut e, "email", messages::IS_ALREADY_USED_BY_ANOTHER_USER),
        Some(_) => {}
    }
    ApiError::check(e)?;
    Ok(role)
}

async fn email_taken(pool: &crate::sql::Db, email: &str, except: Option<i64>) -> ApiResult<bool> {
    let n: i64 = crate::sql::query_scalar(
        "SELECT COUNT(*) FROM users WHERE lower(email) = lower($1) AND id != COALESCE($2, -1)",
    )
    .bind(email.trim())
    .bind(except)
    .fetch_one(pool)
    .await?;
    Ok(n > 0)
}

/// Inserts a checked user (see [`check_new`]) with `password_hash` (or none: an invitation
/// sets it); returns its id.
pub async fn insert(
    pool: &crate::sql::Db,
    body: &NewUser,
    role: Role,
    password_hash: Option<&str>,
) -> ApiResult<i64> {
    let t = ts(now());
    let email = body
        .email
        .as_deref()
        .map(str::trim)
        .filter(|e| !e.is_empty());
    let insert = crate::sql::query_scalar("INSERT INTO users (firstname, lastname, email, role, password_hash, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id")
        .bind(body.firstname.as_deref().map(str::trim))
        .bind(body.lastname.as_deref().map(str::trim))
        .bind(email)
        .bind(role.as_str())
        .bind(password_hash)
        .bind(t)
        .bind(t);
    Ok(crate::store::db::insert_returning_id(pool, insert).await?)
}

/// Sets user `id`'s password hash and ends every session of the user but `keep_session`
/// (the key of the person changing their own password). Errors: the database's.
pub async fn set_password_hash(
    pool: &crate::sql::Db,
    id: i64,
    hash: &str,
    keep_session: Option<i64>,
) -> ApiResult<()> {
    let mut tx = crate::store::db::begin_write(pool).await?;
    crate::sql::query("UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3")
        .bind(hash)
        .bind(ts(now()))
        .bind(id)
        .execute(&mut tx)
        .await?;
    // Every other session of the user ends with the old password (issue 29): a session
    // someone else opened with it is closed at once. API keys stay (they are not signed
    // in with the password).
    crate::sql::query(
        "UPDATE api_keys SET revoked_at = $1 WHERE user_id = $2 AND kind = $3 \
         AND revoked_at IS NULL AND id <> $4",
    )
    .bind(ts(now()))
    .bind(id)
    .bind(crate::access::auth::KIND_SESSION)
    .bind(keep_session.unwrap_or(0))
    .execute(&mut tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// The number of active admins with a password (who can sign in).
pub async fn active_admins(pool: &crate::sql::Db) -> ApiResult<i64> {
    Ok(crate::sql::query_scalar(
        "SELECT COUNT(*) FROM users WHERE role = 'admin' AND active = TRUE AND password_hash IS NOT NULL",
    )
    .fetch_one(pool)
    .await?)
}

/// Makes a fresh one-time password-set link for user `user_id` (valid
/// [`INVITATION_DAYS`] days; the user's older links stop working); only the token's
/// SHA-256 is stored. `emailed` is false here.
pub async fn new_invitation(
    pool: &crate::sql::Db,
    user_id: i64,
    origin: &str,
) -> ApiResult<Invitation> {
    new_link(
        pool,
        user_id,
        origin,
        chrono::Duration::days(INVITATION_DAYS),
        "",
    )
    .await
}

/// Makes a fresh one-time password-set link for user `user_id`, valid for `valid` (an
/// invitation: [`INVITATION_DAYS`] days; a forgotten password: 60 minutes), with `suffix`
/// appended to the URL's query (`"&reset=1"` for a reset, so the page words itself for
/// it). The user's older links stop working; only the token's SHA-256 is stored.
/// `emailed` is false here. Errors: the database's.
pub async fn new_link(
    pool: &crate::sql::Db,
    user_id: i64,
    origin: &str,
    valid: chrono::Duration,
    suffix: &str,
) -> ApiResult<Invitation> {
    let token = crate::access::auth::random_hex(32);
    let created = now();
    let expires = created + valid;
    let mut tx = crate::store::db::begin_write(pool).await?;
    crate::sql::query("UPDATE invitations SET used_at = $1 WHERE user_id = $2 AND used_at IS NULL")
        .bind(ts(created))
        .bind(user_id)
        .execute(&mut tx)
        .await?;
    crate::sql::query(
        "INSERT INTO invitations (user_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(user_id)
    .bind(crate::access::auth::hash_key(&token))
    .bind(ts(created))
    .bind(ts(expires))
    .execute(&mut tx)
    .await?;
    tx.commit().await?;
    Ok(Invitation {
        url: format!("{origin}/set-password?token={token}{suffix}"),
        token,
        expires_at: expires,
        emailed: false,
    })
}

/// E-mails `invitation` to `user` when the account has SMTP settings and the link's
/// origin is trusted (`trusted`: [`crate::http::links::LinkOrigins::for_email`] found one);
/// true when sent. A refused message is logged (without the link) and answers false: the
/// admin still has the link.
async fn email_invitation(
    state: &AppState,
    user: &User,
    invitation: &Invitation,
    trusted: bool,
) -> bool {
    let Some(address) = user.email.clone() else {
        return false;
    };
    if !trusted {
        tracing::warn!(
            user = user.id,
            "invitation not e-mailed: no KONTOR_PUBLIC_URL and the request's host is not the server's own address"
        );
        return false;
    }
    let subject = "Your Kontor access / Ihr Zugang zu Kontor".to_string();
    let text = format!(
        "Hello {first},\n\nset your password for Kontor with this link (valid for {days} days, once):\n{url}\n\n\
         Hallo {first},\n\nlegen Sie Ihr Passwort für Kontor mit diesem Link fest (gültig {days} Tage, einmal):\n{url}\n",
        first = user.firstname,
        days = INVITATION_DAYS,
        url = invitation.url
    );
    match mail_when_set_up(state, &address, subject, text).await {
        Ok(sent) => sent,
        Err(e) => {
            tracing::warn!(user = user.id, error = ?e, "invitation e-mail not sent");
            false
        }
    }
}

/// Sends a plain-text message from the account to `address` — a password link (an
/// invitation, a forgotten password) — when the account has SMTP settings and a sender
/// address; `Ok(false)` without them (nothing sent). Errors: the database's or the mail
/// server's.
pub(crate) async fn mail_when_set_up(
    state: &AppState,
    address: &str,
    subject: String,
    text: String,
) -> ApiResult<bool> {
    let settings = crate::account::repo::load(&state.pool).await?;
    if settings.smtp.is_none() || settings.account.email.is_none() {
        return Ok(false);
    }
    let body = kontor_model::email::SendEmail {
        subject: Some(subject),
        text: Some(text),
        ..Default::default()
    };
    let recipients = crate::work::mail::Recipients {
        to: vec![address.to_string()],
        cc: vec![],
        bcc: vec![],
    };
    crate::work::mail::send(
        state,
        &body,
        &recipients,
        vec![],
        crate::sent_mail::record::Record::other(None),
    )
    .await?;
    Ok(true)
}

/// Words the strength estimator should treat as known for `user`: names and e-mail.
pub fn user_inputs(user: &User) -> Vec<&str> {
    let mut words = vec![user.firstname.as_str(), user.lastname.as_str()];
    if let Some(email) = &user.email {
        words.extend(email.split(['@', '.']));
    }
    words
}
