//! `/users`: the account's users — internal contacts on records and, since issue 12, the
//! people who sign in (`decisions.md` § Supporting resources, `docs/decisions.md`
//! § People, sign-in and roles). Reads are open to every caller; creating, changing and
//! inviting need an admin ([`crate::access::roles::TABLE`]); `/users/me` is the caller's own.

pub mod api_keys;

use crate::access::auth::Caller;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{IdPath, JsonBody};
use crate::http::pagination::PageOf;
use crate::lists::{fetch_page, order_by, push_global, ListQuery, NoFilter};
use crate::state::AppState;
use crate::store::db::{now, ts, Ts};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::{Extension, Json};
use kontor_model::email::is_address;
use kontor_model::error::{push_error, require_text, FieldErrors};
use kontor_model::users::{
    ChangePassword, Invitation, InvitedUser, Role, Theme, UpdateMe, UpdateUser, INVITATION_DAYS,
    LANGUAGES,
};
use kontor_model::users::{NewUser, User};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes `/users`, `/users/{id}`, `/users/{id}/invitation`, `/users/me`,
/// `/users/me/password`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(get_me, update_me))
        .routes(routes!(change_password))
        .routes(routes!(get_one, update))
        .routes(routes!(invite_again))
}

#[derive(sqlx::FromRow)]
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

/// Loads user `id`. Errors: 404.
pub async fn load(pool: &crate::sql::Db, id: i64) -> ApiResult<User> {
    crate::sql::query_as::<UserRow>(&format!("SELECT {COLUMNS} FROM users u WHERE u.id = ?"))
        .bind(id)
        .fetch_optional(pool)
        .await?
        .map(User::from)
        .ok_or_else(|| ApiError::not_found(format!("user {id}")))
}

/// The user with e-mail `email` (case-insensitive) and the password hash, if any.
pub async fn find_by_email(
    pool: &crate::sql::Db,
    email: &str,
) -> Result<Option<(User, Option<String>)>, sqlx::Error> {
    let row: Option<(i64, Option<String>)> =
        crate::sql::query_as("SELECT id, password_hash FROM users WHERE lower(email) = lower(?)")
            .bind(email.trim())
            .fetch_optional(pool)
            .await?;
    let Some((id, hash)) = row else {
        return Ok(None);
    };
    let user =
        crate::sql::query_as::<UserRow>(&format!("SELECT {COLUMNS} FROM users u WHERE u.id = ?"))
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
            push_error(&mut e, "role", "must be admin, staff or read_only");
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
        None if require_email => push_error(&mut e, "email", "is required"),
        None => {}
        Some(email) if !is_address(email) => {
            push_error(&mut e, "email", "is not an e-mail address")
        }
        Some(_) if taken => push_error(&mut e, "email", "is already used by another user"),
        Some(_) => {}
    }
    ApiError::check(e)?;
    Ok(role)
}

async fn email_taken(pool: &crate::sql::Db, email: &str, except: Option<i64>) -> ApiResult<bool> {
    let n: i64 = crate::sql::query_scalar(
        "SELECT COUNT(*) FROM users WHERE lower(email) = lower(?) AND id != COALESCE(?, -1)",
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
    let mut tx = crate::store::db::begin_write(pool).await?;
    let id = crate::sql::query_scalar("INSERT INTO users (firstname, lastname, email, role, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id")
        .bind(body.firstname.as_deref().map(str::trim))
        .bind(body.lastname.as_deref().map(str::trim))
        .bind(email)
        .bind(role.as_str())
        .bind(password_hash)
        .bind(t)
        .bind(t)
        .fetch_one(&mut tx)
        .await?;
    tx.commit().await?;
    Ok(id)
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
    crate::sql::query("UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?")
        .bind(hash)
        .bind(ts(now()))
        .bind(id)
        .execute(&mut tx)
        .await?;
    // Every other session of the user ends with the old password (issue 29): a session
    // someone else opened with it is closed at once. API keys stay (they are not signed
    // in with the password).
    crate::sql::query(
        "UPDATE api_keys SET revoked_at = ? WHERE user_id = ? AND kind = ? \
         AND revoked_at IS NULL AND id <> ?",
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
    let token = crate::access::auth::random_hex(32);
    let created = now();
    let expires = created + chrono::Duration::days(INVITATION_DAYS);
    let mut tx = crate::store::db::begin_write(pool).await?;
    crate::sql::query("UPDATE invitations SET used_at = ? WHERE user_id = ? AND used_at IS NULL")
        .bind(ts(created))
        .bind(user_id)
        .execute(&mut tx)
        .await?;
    crate::sql::query(
        "INSERT INTO invitations (user_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?)",
    )
    .bind(user_id)
    .bind(crate::access::auth::hash_key(&token))
    .bind(ts(created))
    .bind(ts(expires))
    .execute(&mut tx)
    .await?;
    tx.commit().await?;
    Ok(Invitation {
        url: format!("{origin}/set-password?token={token}"),
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
    let configured = match crate::account::repo::load(&state.pool).await {
        Ok(settings) => settings.smtp.is_some() && settings.account.email.is_some(),
        Err(_) => false,
    };
    if !configured {
        return false;
    }
    let body = kontor_model::email::SendEmail {
        subject: Some("Your Kontor access / Ihr Zugang zu Kontor".into()),
        text: Some(format!(
            "Hello {first},\n\nset your password for Kontor with this link (valid for {days} days, once):\n{url}\n\n\
             Hallo {first},\n\nlegen Sie Ihr Passwort für Kontor mit diesem Link fest (gültig {days} Tage, einmal):\n{url}\n",
            first = user.firstname,
            days = INVITATION_DAYS,
            url = invitation.url
        )),
        ..Default::default()
    };
    let recipients = crate::work::mail::Recipients {
        to: vec![address],
        cc: vec![],
        bcc: vec![],
    };
    match crate::work::mail::send(&state.pool, &state.data_dir, &body, &recipients, vec![]).await {
        Ok(_) => true,
        Err(e) => {
            tracing::warn!(user = user.id, error = ?e, "invitation e-mail not sent");
            false
        }
    }
}

/// GET /users → one page of the account's users. Errors: 400 for a malformed parameter.
#[utoipa::path(
    get,
    path = "/users",
    operation_id = "users_list",
    tag = "users",
    params(kontor_model::query::ListParams),
    responses(
        (status = 200, description = "One page of users", body = Vec<User>),
    )
)]
async fn list(State(state): State<AppState>, list: ListQuery<NoFilter>) -> ApiResult<PageOf<User>> {
    let ListQuery {
        filter: _,
        paging,
        global,
        url,
    } = list;
    let order = order_by(
        paging.sort_by.as_deref(),
        &[
            ("lastname", "u.lastname"),
            ("firstname", "u.firstname"),
            ("created_at", "u.created_at"),
        ],
        "u.lastname ASC, u.id ASC",
        "u.id",
    )?;
    let push_where = |qb: &mut crate::sql::Builder<'_>| {
        qb.push(" WHERE TRUE");
        push_global(qb, &global, "u", false);
    };
    let (items, total) = fetch_page::<UserRow, User>(
        &state.pool,
        COLUMNS,
        "FROM users u",
        push_where,
        &order,
        &paging,
    )
    .await?;
    Ok(PageOf {
        items,
        page: paging.page(),
        per_page: paging.per_page(),
        total,
        url,
    })
}

/// GET /users/{id} → the user. Errors: 404.
#[utoipa::path(
    get,
    path = "/users/{id}",
    operation_id = "users_get",
    tag = "users",
    params(("id" = i64, Path, description = "User id")),
    responses(
        (status = 200, description = "The user", body = User),
    )
)]
async fn get_one(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<Json<User>> {
    load(&state.pool, id).await.map(Json)
}

/// POST /users (admin): creates the user (staff unless `role` says otherwise; e-mail
/// required and unique) and a password-set link, e-mailed when SMTP is configured.
/// Errors: 422 naming `firstname`, `lastname`, `email`, `role`.
#[utoipa::path(
    post,
    path = "/users",
    operation_id = "users_create",
    tag = "users",
    request_body = NewUser,
    responses(
        (status = 201, description = "The user and a password-set link", body = InvitedUser),
    )
)]
async fn create(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<NewUser>,
) -> ApiResult<(StatusCode, Json<InvitedUser>)> {
    let _guard = state.write_lock.lock().await;
    let role = check_new(&state.pool, &body, true).await?;
    let id = insert(&state.pool, &body, role, None).await?;
    drop(_guard);
    let user = load(&state.pool, id).await?;
    let trusted = state.links.for_email(Some(&headers)).is_some();
    let origin = state.links.for_answer(Some(&headers));
    let mut invitation = new_invitation(&state.pool, id, &origin).await?;
    invitation.emailed = email_invitation(&state, &user, &invitation, trusted).await;
    Ok((StatusCode::CREATED, Json(InvitedUser { user, invitation })))
}

/// POST /users/{id}/invitation (admin): a fresh link; older ones stop working.
/// Errors: 404, 422 `active` for a deactivated user.
#[utoipa::path(
    post,
    path = "/users/{id}/invitation",
    operation_id = "users_invite",
    tag = "users",
    params(("id" = i64, Path, description = "User id")),
    responses(
        (status = 201, description = "A fresh password-set link", body = Invitation),
    )
)]
async fn invite_again(
    State(state): State<AppState>,
    headers: HeaderMap,
    IdPath(id): IdPath,
) -> ApiResult<(StatusCode, Json<Invitation>)> {
    let user = load(&state.pool, id).await?;
    if !user.active {
        return Err(ApiError::field("active", "the user is deactivated"));
    }
    let trusted = state.links.for_email(Some(&headers)).is_some();
    let origin = state.links.for_answer(Some(&headers));
    let mut invitation = new_invitation(&state.pool, id, &origin).await?;
    invitation.emailed = email_invitation(&state, &user, &invitation, trusted).await;
    Ok((StatusCode::CREATED, Json(invitation)))
}

/// PUT /users/{id} (admin): names, role, active. The last active admin can be neither
/// demoted nor deactivated, and no one deactivates themselves.
/// Errors: 404, 422 naming `firstname`, `lastname`, `role`,
/// `active`.
#[utoipa::path(
    put,
    path = "/users/{id}",
    operation_id = "users_update",
    tag = "users",
    params(("id" = i64, Path, description = "User id")),
    request_body = UpdateUser,
    responses(
        (status = 200, description = "The updated user", body = User),
    )
)]
async fn update(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
    IdPath(id): IdPath,
    JsonBody(body): JsonBody<UpdateUser>,
) -> ApiResult<Json<User>> {
    let _guard = state.write_lock.lock().await;
    let user = load(&state.pool, id).await?;
    let mut e = FieldErrors::new();
    // No one locks themselves out: another admin deactivates them (stepping down from
    // admin stays possible while another admin is left).
    if id == caller.user_id && body.active == Some(false) && user.active {
        push_error(&mut e, "active", "you cannot deactivate yourself");
    }
    names(&mut e, &body.firstname, &body.lastname);
    let role = match body.role.as_deref() {
        None => user.role,
        Some(word) => Role::parse(word).unwrap_or_else(|| {
            push_error(&mut e, "role", "must be admin, staff or read_only");
            user.role
        }),
    };
    let active = body.active.unwrap_or(user.active);
    let was_admin = user.role == Role::Admin && user.active;
    if was_admin && (role != Role::Admin || !active) {
        let others: i64 = crate::sql::query_scalar(
            "SELECT COUNT(*) FROM users WHERE role = 'admin' AND active = TRUE AND id != ?",
        )
        .bind(id)
        .fetch_one(&state.pool)
        .await?;
        if others == 0 {
            let field = if active { "role" } else { "active" };
            push_error(
                &mut e,
                field,
                "the last active admin must stay an active admin",
            );
        }
    }
    ApiError::check(e)?;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    crate::sql::query("UPDATE users SET firstname = COALESCE(?, firstname), lastname = COALESCE(?, lastname), role = ?, active = ?, updated_at = ? WHERE id = ?")
        .bind(body.firstname.as_deref().map(str::trim))
        .bind(body.lastname.as_deref().map(str::trim))
        .bind(role.as_str())
        .bind(active)
        .bind(ts(now()))
        .bind(id)
        .execute(&mut tx)
        .await?;
    tx.commit().await?;
    load(&state.pool, id).await.map(Json)
}

/// Names that are given must not be blank.
fn names(e: &mut FieldErrors, firstname: &Option<String>, lastname: &Option<String>) {
    for (field, value) in [("firstname", firstname), ("lastname", lastname)] {
        if value.as_deref().is_some_and(|v| v.trim().is_empty()) {
            push_error(e, field, "must not be blank");
        }
    }
}

/// GET /users/me → the caller's own user.
#[utoipa::path(
    get,
    path = "/users/me",
    operation_id = "users_me",
    tag = "users",
    responses(
        (status = 200, description = "The caller's user", body = User),
    )
)]
async fn get_me(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
) -> ApiResult<Json<User>> {
    load(&state.pool, caller.user_id).await.map(Json)
}

/// PUT /users/me: the caller's language, theme and names. Errors: 422 naming
/// `language`, `theme`, `firstname`, `lastname`.
#[utoipa::path(
    put,
    path = "/users/me",
    operation_id = "users_update_me",
    tag = "users",
    request_body = UpdateMe,
    responses(
        (status = 200, description = "The caller's updated user", body = User),
    )
)]
async fn update_me(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
    JsonBody(body): JsonBody<UpdateMe>,
) -> ApiResult<Json<User>> {
    let user = load(&state.pool, caller.user_id).await?;
    let mut e = FieldErrors::new();
    names(&mut e, &body.firstname, &body.lastname);
    let language = match body.language.as_deref() {
        None => user.language.clone(),
        Some(l) if LANGUAGES.contains(&l) => Some(l.to_string()),
        Some(_) => {
            push_error(&mut e, "language", "must be de or en");
            None
        }
    };
    let theme = match body.theme.as_deref() {
        None => user.theme,
        Some(t) => Theme::parse(t).unwrap_or_else(|| {
            push_error(&mut e, "theme", "must be system, light or dark");
            user.theme
        }),
    };
    ApiError::check(e)?;
    let _guard = state.write_lock.lock().await;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    crate::sql::query("UPDATE users SET firstname = COALESCE(?, firstname), lastname = COALESCE(?, lastname), language = ?, theme = ?, updated_at = ? WHERE id = ?")
        .bind(body.firstname.as_deref().map(str::trim))
        .bind(body.lastname.as_deref().map(str::trim))
        .bind(language)
        .bind(theme.as_str())
        .bind(ts(now()))
        .bind(caller.user_id)
        .execute(&mut tx)
        .await?;
    tx.commit().await?;
    load(&state.pool, caller.user_id).await.map(Json)
}

/// PUT /users/me/password: `current_password` must match, `password` must be strong
/// (see [`crate::access::passwords::strength_error`]). 204. Errors: 422 naming
/// `current_password`, `password`.
#[utoipa::path(
    put,
    path = "/users/me/password",
    operation_id = "users_change_password",
    tag = "users",
    request_body = ChangePassword,
    responses(
        (status = 204, description = "Password changed"),
    )
)]
async fn change_password(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
    JsonBody(body): JsonBody<ChangePassword>,
) -> ApiResult<StatusCode> {
    let user = load(&state.pool, caller.user_id).await?;
    let stored: Option<String> =
        crate::sql::query_scalar("SELECT password_hash FROM users WHERE id = ?")
            .bind(caller.user_id)
            .fetch_one(&state.pool)
            .await?;
    let current = body.current_password.clone().unwrap_or_default();
    if !crate::access::passwords::verify(current, stored).await? {
        return Err(ApiError::field("current_password", "is wrong"));
    }
    let password = body.password.unwrap_or_default();
    crate::access::passwords::check_new(&password, &user_inputs(&user), "password")?;
    let hash = crate::access::passwords::hash(password).await?;
    set_password_hash(&state.pool, user.id, &hash, Some(caller.key_id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Words the strength estimator should treat as known for `user`: names and e-mail.
pub fn user_inputs(user: &User) -> Vec<&str> {
    let mut words = vec![user.firstname.as_str(), user.lastname.as_str()];
    if let Some(email) = &user.email {
        words.extend(email.split(['@', '.']));
    }
    words
}
