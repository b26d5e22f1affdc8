//! `/contacts/people`: contact persons at companies (`decisions.md` § Supporting
//! resources). List filters: `company_id`, `term` (name or e-mail), plus the global filters.

use crate::db::{now, ts, Ts};
use crate::error::{ApiError, ApiResult};
use crate::extract::{IdPath, JsonBody};
use crate::listing::{fetch_page, like_pattern, order_by, push_global, ListQuery};
use crate::pagination::PageOf;
use crate::state::AppState;
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use kontor_model::email::is_address;
use kontor_model::error::{push_error, require_text, FieldErrors};
use kontor_model::party::{IdName, NewPerson, Person};
use kontor_model::query::one;
use serde::Deserialize;
use sqlx::{QueryBuilder, Sqlite, SqlitePool};

/// Routes `/contacts/people` and `/contacts/people/{id}`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/contacts/people", get(list).post(create))
        .route("/contacts/people/{id}", get(get_one))
}

const COLUMNS: &str = "p.*, c.name AS company_name";
const FROM: &str = "FROM people p LEFT JOIN companies c ON c.id = p.company_id";

#[derive(sqlx::FromRow)]
struct PersonRow {
    id: i64,
    firstname: String,
    lastname: String,
    email: Option<String>,
    company_id: Option<i64>,
    company_name: Option<String>,
    created_at: Ts,
    updated_at: Ts,
}

impl From<PersonRow> for Person {
    fn from(r: PersonRow) -> Self {
        Person {
            id: r.id,
            firstname: r.firstname,
            lastname: r.lastname,
            email: r.email,
            company: match (r.company_id, r.company_name) {
                (Some(id), Some(name)) => Some(IdName { id, name }),
                _ => None,
            },
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
        }
    }
}

/// Loads person `id` if it exists.
pub async fn find(pool: &SqlitePool, id: i64) -> ApiResult<Option<Person>> {
    Ok(
        sqlx::query_as::<_, PersonRow>(&format!("SELECT {COLUMNS} {FROM} WHERE p.id = ?"))
            .bind(id)
            .fetch_optional(pool)
            .await?
            .map(Person::from),
    )
}

/// `GET /contacts/people` filters: `company_id`, `term`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct PersonQuery {
    #[serde(deserialize_with = "one")]
    company_id: Option<i64>,
    #[serde(deserialize_with = "one")]
    term: Option<String>,
}

async fn list(
    State(state): State<AppState>,
    list: ListQuery<PersonQuery>,
) -> ApiResult<PageOf<Person>> {
    let ListQuery {
        filter,
        paging,
        global,
        url,
    } = list;
    let company = filter.company_id;
    let term = filter.term.as_deref().map(like_pattern);
    let order = order_by(
        paging.sort_by.as_deref(),
        &[
            ("lastname", "p.lastname"),
            ("firstname", "p.firstname"),
            ("created_at", "p.created_at"),
        ],
        "p.lastname COLLATE NOCASE ASC, p.id ASC",
        "p.id",
    )?;
    let push_where = |qb: &mut QueryBuilder<'_, Sqlite>| {
        qb.push(" WHERE 1");
        if let Some(c) = company {
            qb.push(" AND p.company_id = ").push_bind(c);
        }
        if let Some(t) = &term {
            qb.push(
                " AND (p.firstname || ' ' || p.lastname || ' ' || coalesce(p.email, '')) LIKE ",
            )
            .push_bind(t.clone())
            .push(" ESCAPE '\\'");
        }
        push_global(qb, &global, "p", false);
    };
    let (items, total) =
        fetch_page::<PersonRow, Person>(&state.pool, COLUMNS, FROM, push_where, &order, &paging)
            .await?;
    Ok(PageOf {
        items,
        page: paging.page(),
        per_page: paging.per_page(),
        total,
        url,
    })
}

async fn get_one(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<Json<Person>> {
    find(&state.pool, id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::not_found(format!("person {id}")))
}

/// POST /contacts/people → 200 with the person. Errors: 422 (names, e-mail, unknown company).
async fn create(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<NewPerson>,
) -> ApiResult<Json<Person>> {
    let mut e = FieldErrors::new();
    for (field, value) in [("firstname", &body.firstname), ("lastname", &body.lastname)] {
        require_text(&mut e, field, value.as_ref());
    }
    if body.email.as_deref().is_some_and(|m| !is_address(m)) {
        push_error(&mut e, "email", "is not an e-mail address");
    }
    if let Some(c) = body.company_id {
        if crate::companies::find(&state.pool, c).await?.is_none() {
            push_error(&mut e, "company_id", "does not exist");
        }
    }
    ApiError::check(e)?;
    let _guard = state.write_lock.lock().await;
    let t = ts(now());
    let id: i64 = sqlx::query_scalar("INSERT INTO people (firstname, lastname, email, company_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id")
        .bind(body.firstname.as_deref().map(str::trim))
        .bind(body.lastname.as_deref().map(str::trim))
        .bind(body.email.as_deref())
        .bind(body.company_id)
        .bind(&t)
        .bind(&t)
        .fetch_one(&state.pool)
        .await?;
    find(&state.pool, id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::Internal("person vanished".into()))
}
