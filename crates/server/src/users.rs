//! `/users`: the account's users (internal contacts), `decisions.md` § Supporting resources.

use crate::db::{now, ts, Ts};
use crate::error::{ApiError, ApiResult};
use crate::extract::{IdPath, JsonBody};
use crate::listing::{fetch_page, order_by, push_global, ListQuery, NoFilter};
use crate::pagination::PageOf;
use crate::state::AppState;
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use kontor_model::error::{require_text, FieldErrors};
use kontor_model::party::{NewUser, User};

use sqlx::{QueryBuilder, Sqlite, SqlitePool};

/// Routes `/users` and `/users/{id}`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/users", get(list).post(create))
        .route("/users/{id}", get(get_one))
}

#[derive(sqlx::FromRow)]
struct UserRow {
    id: i64,
    firstname: String,
    lastname: String,
    email: Option<String>,
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
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
        }
    }
}

/// Loads user `id`. Errors: 404.
pub async fn load(pool: &SqlitePool, id: i64) -> ApiResult<User> {
    sqlx::query_as::<_, UserRow>("SELECT * FROM users WHERE id = ?")
        .bind(id)
        .fetch_optional(pool)
        .await?
        .map(User::from)
        .ok_or_else(|| ApiError::not_found(format!("user {id}")))
}

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
    let push_where = |qb: &mut QueryBuilder<'_, Sqlite>| {
        qb.push(" WHERE 1");
        push_global(qb, &global, "u", false);
    };
    let (items, total) = fetch_page::<UserRow, User>(
        &state.pool,
        "u.*",
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

async fn get_one(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<Json<User>> {
    load(&state.pool, id).await.map(Json)
}

async fn create(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<NewUser>,
) -> ApiResult<Json<User>> {
    let mut e = FieldErrors::new();
    for (field, value) in [("firstname", &body.firstname), ("lastname", &body.lastname)] {
        require_text(&mut e, field, value.as_ref());
    }
    ApiError::check(e)?;
    let _guard = state.write_lock.lock().await;
    let t = ts(now());
    let id: i64 = sqlx::query_scalar("INSERT INTO users (firstname, lastname, email, created_at, updated_at) VALUES (?, ?, ?, ?, ?) RETURNING id")
        .bind(body.firstname.as_deref().map(str::trim))
        .bind(body.lastname.as_deref().map(str::trim))
        .bind(body.email.as_deref())
        .bind(&t)
        .bind(&t)
        .fetch_one(&state.pool)
        .await?;
    load(&state.pool, id).await.map(Json)
}
