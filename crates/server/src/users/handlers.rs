//! The `/users` handlers: the list, one user, creating and inviting (admins), changing a
//! user, the caller's own record (`/users/me`) and password.

use super::*;
use crate::http::write_request::{Write, WriteTo};
use kontor_model::error::messages;

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
pub async fn list(
    State(state): State<AppState>,
    list: ListQuery<NoFilter>,
) -> ApiResult<PageOf<User>> {
    let listing = Listing {
        columns: COLUMNS,
        from: "FROM users u",
        alias: "u",
        custom_properties: false,
        sorts: &[
            ("lastname", "u.lastname"),
            ("firstname", "u.firstname"),
            ("created_at", "u.created_at"),
        ],
        default_order: "u.lastname ASC, u.id ASC",
        id: "u.id",
    };
    list.fetch::<UserRow, User>(&state.pool, &listing, |qb| {
        qb.push(" WHERE TRUE");
    })
    .await
}

/// GET /users/{id} → the user. Errors: 404.
#[utoipa::path(get, path = "/users/{id}", operation_id = "users_get", tag = "users",
    params(IdPath),
    responses((status = 200, description = "The user", body = User)))]
pub async fn get_one(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<Json<User>> {
    load(&state.pool, id).await.map(Json)
}

/// POST /users (admin): creates the user (staff unless `role` says otherwise; e-mail
/// required and unique) and a password-set link, e-mailed when SMTP is configured.
/// Errors: 422 naming `firstname`, `lastname`, `email`, `role`.
#[utoipa::path(post, path = "/users", operation_id = "users_create", tag = "users",
    request_body = NewUser,
    responses((status = 201, description = "The user and a password-set link", body = InvitedUser)))]
pub async fn create(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<NewUser>,
) -> ApiResult<(StatusCode, Json<InvitedUser>)> {
    let _guard = state.write_lock.lock().await;
    let role = check_new(&state.pool, &body, true).await?;
    let id = insert(&state.pool, &body, role, None).await?;
    drop(_guard);
    let user = load(&state.pool, id).await?;
    let invitation = invite(&state, &headers, &user).await?;
    Ok((StatusCode::CREATED, Json(InvitedUser { user, invitation })))
}

/// POST /users/{id}/invitation (admin): a fresh link; older ones stop working.
/// Errors: 404, 422 `active` for a deactivated user.
#[utoipa::path(post, path = "/users/{id}/invitation", operation_id = "users_invite", tag = "users",
    params(IdPath),
    responses((status = 201, description = "A fresh password-set link", body = Invitation)))]
pub async fn invite_again(
    State(state): State<AppState>,
    headers: HeaderMap,
    IdPath(id): IdPath,
) -> ApiResult<(StatusCode, Json<Invitation>)> {
    let user = load(&state.pool, id).await?;
    if !user.active {
        return Err(ApiError::field("active", messages::USER_IS_DEACTIVATED));
    }
    let invitation = invite(&state, &headers, &user).await?;
    Ok((StatusCode::CREATED, Json(invitation)))
}

/// A fresh password-set link for `user` (older ones stop working), its origin taken
/// from the request's `headers`, e-mailed when SMTP is configured and the origin is
/// trusted (`emailed` says whether it went). Errors: the database's.
async fn invite(state: &AppState, headers: &HeaderMap, user: &User) -> ApiResult<Invitation> {
    let trusted = state.links.for_email(Some(headers)).is_some();
    let origin = state.links.for_answer(Some(headers));
    let mut invitation = new_invitation(&state.pool, user.id, &origin).await?;
    invitation.emailed = email_invitation(state, user, &invitation, trusted).await;
    Ok(invitation)
}

/// PUT /users/{id} (admin): names, role, active. The last active admin can be neither
/// demoted nor deactivated, and no one deactivates themselves.
/// Errors: 404, 422 naming `firstname`, `lastname`, `role`,
/// `active`.
#[utoipa::path(put, path = "/users/{id}", operation_id = "users_update", tag = "users",
    params(IdPath), request_body = UpdateUser,
    responses((status = 200, description = "The updated user", body = User)))]
pub async fn update(
    WriteTo(state, caller, id, body): WriteTo<UpdateUser>,
) -> ApiResult<Json<User>> {
    let _guard = state.write_lock.lock().await;
    let user = load(&state.pool, id).await?;
    let mut e = FieldErrors::new();
    // No one locks themselves out: another admin deactivates them (stepping down from
    // admin stays possible while another admin is left).
    if id == caller.user_id && body.active == Some(false) && user.active {
        push_error(&mut e, "active", messages::YOU_CANNOT_DEACTIVATE_YOURSELF);
    }
    names(&mut e, &body.firstname, &body.lastname);
    let role = match body.role.as_deref() {
        None => user.role,
        Some(word) => Role::parse(word).unwrap_or_else(|| {
            push_error(&mut e, "role", messages::MUST_BE_ADMIN_STAFF_OR_READ_ONLY);
            user.role
        }),
    };
    let active = body.active.unwrap_or(user.active);
    let was_admin = user.role == Role::Admin && user.active;
    if was_admin && (role != Role::Admin || !active) {
        let others: i64 = crate::sql::query_scalar(
            "SELECT COUNT(*) FROM users WHERE role = 'admin' AND active = TRUE AND id != $1",
        )
        .bind(id)
        .fetch_one(&state.pool)
        .await?;
        if others == 0 {
            let field = if active { "role" } else { "active" };
            push_error(&mut e, field, messages::LAST_ACTIVE_ADMIN);
        }
    }
    ApiError::check(e)?;
    let update = crate::sql::query("UPDATE users SET firstname = COALESCE($1, firstname), lastname = COALESCE($2, lastname), role = $3, active = $4, updated_at = $5 WHERE id = $6")
        .bind(body.firstname.as_deref().map(str::trim))
        .bind(body.lastname.as_deref().map(str::trim))
        .bind(role.as_str())
        .bind(active)
        .bind(ts(now()))
        .bind(id);
    crate::store::db::write_alone(&state.pool, update).await?;
    load(&state.pool, id).await.map(Json)
}

/// Names that are given must not be blank.
pub(super) fn names(e: &mut FieldErrors, firstname: &Option<String>, lastname: &Option<String>) {
    for (field, value) in [("firstname", firstname), ("lastname", lastname)] {
        if value.as_deref().is_some_and(|v| v.trim().is_empty()) {
            push_error(e, field, messages::MUST_NOT_BE_BLANK);
        }
    }
}

/// GET /users/me → the caller's own user.
#[utoipa::path(get, path = "/users/me", operation_id = "users_me", tag = "users",
    responses((status = 200, description = "The caller's user", body = User)))]
pub async fn get_me(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
) -> ApiResult<Json<User>> {
    load(&state.pool, caller.user_id).await.map(Json)
}

/// PUT /users/me: the caller's language, theme and names. Errors: 422 naming
/// `language`, `theme`, `firstname`, `lastname`.
#[utoipa::path(put, path = "/users/me", operation_id = "users_update_me", tag = "users",
    request_body = UpdateMe,
    responses((status = 200, description = "The caller's updated user", body = User)))]
pub async fn update_me(Write(state, caller, body): Write<UpdateMe>) -> ApiResult<Json<User>> {
    let user = load(&state.pool, caller.user_id).await?;
    let mut e = FieldErrors::new();
    names(&mut e, &body.firstname, &body.lastname);
    let language = match body.language.as_deref() {
        None => user.language.clone(),
        Some(l) if LANGUAGES.contains(&l) => Some(l.to_string()),
        Some(_) => {
            push_error(&mut e, "language", messages::MUST_BE_DE_OR_EN);
            None
        }
    };
    let theme = match body.theme.as_deref() {
        None => user.theme,
        Some(t) => Theme::parse(t).unwrap_or_else(|| {
            push_error(&mut e, "theme", messages::MUST_BE_SYSTEM_LIGHT_OR_DARK);
            user.theme
        }),
    };
    ApiError::check(e)?;
    let _guard = state.write_lock.lock().await;
    let update = crate::sql::query("UPDATE users SET firstname = COALESCE($1, firstname), lastname = COALESCE($2, lastname), language = $3, theme = $4, updated_at = $5 WHERE id = $6")
        .bind(body.firstname.as_deref().map(str::trim))
        .bind(body.lastname.as_deref().map(str::trim))
        .bind(language)
        .bind(theme.as_str())
        .bind(ts(now()))
        .bind(caller.user_id);
    crate::store::db::write_alone(&state.pool, update).await?;
    load(&state.pool, caller.user_id).await.map(Json)
}

/// PUT /users/me/password: `current_password` must match, `password` must be strong
/// (see [`crate::access::passwords::strength_error`]). 204. Errors: 422 naming
/// `current_password`, `password`.
#[utoipa::path(put, path = "/users/me/password", operation_id = "users_change_password", tag = "users",
    request_body = ChangePassword,
    responses((status = 204, description = "Password changed")))]
pub async fn change_password(
    Write(state, caller, body): Write<ChangePassword>,
) -> ApiResult<StatusCode> {
    let user = load(&state.pool, caller.user_id).await?;
    let stored: Option<String> =
        crate::sql::query_scalar("SELECT password_hash FROM users WHERE id = $1")
            .bind(caller.user_id)
            .fetch_one(&state.pool)
            .await?;
    let current = body.current_password.clone().unwrap_or_default();
    if !crate::access::passwords::verify(current, stored).await? {
        return Err(ApiError::field("current_password", messages::IS_WRONG));
    }
    let password = body.password.unwrap_or_default();
    crate::access::passwords::check_new(&password, &user_inputs(&user), "password")?;
    let hash = crate::access::passwords::hash(password).await?;
    set_password_hash(&state.pool, user.id, &hash, Some(caller.key_id)).await?;
    Ok(StatusCode::NO_CONTENT)
}
