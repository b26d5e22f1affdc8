//! `/contacts/people`: contact persons at companies (`decisions.md` § Supporting
//! resources; issue 9 contract § Person). List filters: `company_id`, `term` (name or
//! e-mail), plus the global filters. At most one person per company is its billing
//! contact: marking one clears the others in the same transaction.

use super::patch::{check_patch_types, merged_body};
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{IdPath, JsonBody};
use crate::http::pagination::PageOf;
use crate::lists::{like_pattern, ListQuery, Listing};
use crate::state::AppState;
use crate::store::db::{now, ts, Ts, Word};
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use kontor_model::error::FieldErrors;
use kontor_model::master_data::{
    errors_of_patch, normalize_person, validate_person, PERSON_KEEP_ON_NULL,
};
use kontor_model::party::{Gender, NewPerson, Person};
use kontor_model::query::one;
use serde::Deserialize;
use serde_json::Value;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes `/contacts/people` and `/contacts/people/{id}`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(get_one, update, delete))
}

const COLUMNS: &str = "p.*, c.name AS company_name";
const FROM: &str = "FROM people p LEFT JOIN companies c ON c.id = p.company_id";

#[derive(sqlx_macros::FromRow)]
struct PersonRow {
    id: i64,
    firstname: String,
    lastname: String,
    email: Option<String>,
    company_id: Option<i64>,
    company_name: Option<String>,
    gender: Option<Word<Gender>>,
    salutation: Option<String>,
    job_position: Option<String>,
    phone: Option<String>,
    billing_contact: bool,
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
            company: super::id_name(r.company_id, r.company_name),
            gender: r.gender.map(|g| g.0),
            salutation: r.salutation,
            job_position: r.job_position,
            phone: r.phone,
            billing_contact: r.billing_contact,
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
        }
    }
}

/// Loads person `id` if it exists.
pub async fn find(pool: &crate::sql::Db, id: i64) -> ApiResult<Option<Person>> {
    let sql = format!("SELECT {COLUMNS} {FROM} WHERE p.id = $1");
    Ok(crate::sql::find_by_id::<PersonRow, _>(pool, &sql, id).await?)
}

/// `GET /contacts/people` filters: `company_id`, `term`.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub(crate) struct PersonQuery {
    /// Only people of this company.
    #[serde(deserialize_with = "one")]
    pub(crate) company_id: Option<i64>,
    /// Part of the name or e-mail, case-insensitive.
    #[serde(deserialize_with = "one")]
    pub(crate) term: Option<String>,
}

/// GET /contacts/people → one page of contact people. Errors: 400 for a malformed filter.
#[utoipa::path(get, path = "/contacts/people", operation_id = "people_list", tag = "people",
    params(kontor_model::query::ListParams, PersonQuery),
    responses((status = 200, description = "One page of people", body = Vec<Person>)))]
pub(crate) async fn list(
    State(state): State<AppState>,
    list: ListQuery<PersonQuery>,
) -> ApiResult<PageOf<Person>> {
    let company = list.filter.company_id;
    let term = list.filter.term.as_deref().map(like_pattern);
    let listing = Listing {
        columns: COLUMNS,
        from: FROM,
        alias: "p",
        custom_properties: false,
        sorts: &[
            ("lastname", "p.lastname"),
            ("firstname", "p.firstname"),
            ("created_at", "p.created_at"),
        ],
        default_order: "kontor_fold(p.lastname) ASC, p.id ASC",
        id: "p.id",
    };
    list.fetch::<PersonRow, Person>(&state.pool, &listing, |qb| {
        qb.push(" WHERE TRUE");
        if let Some(c) = company {
            qb.push(" AND p.company_id = ").push_bind(c);
        }
        if let Some(t) = &term {
            qb.push(
                " AND kontor_fold(p.firstname || ' ' || p.lastname || ' ' || coalesce(p.email, '')) LIKE kontor_fold(",
            )
            .push_bind(t.clone())
            .push(crate::sql::functions::LIKE_END);
        }
    })
    .await
}

async fn load(pool: &crate::sql::Db, id: i64) -> ApiResult<Person> {
    find(pool, id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("person {id}")))
}

/// GET /contacts/people/{id} → the person. Errors: 404.
#[utoipa::path(get, path = "/contacts/people/{id}", operation_id = "people_get", tag = "people",
    params(IdPath),
    responses((status = 200, description = "The person", body = Person)))]
async fn get_one(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<Json<Person>> {
    load(&state.pool, id).await.map(Json)
}

/// The model's person rules plus: the company exists.
async fn validate(pool: &crate::sql::Db, body: &NewPerson) -> ApiResult<FieldErrors> {
    let mut e = validate_person(body);
    super::companies::check_exists(pool, &mut e, "company_id", body.company_id).await?;
    Ok(e)
}

/// POST /contacts/people → 200 with the person; `billing_contact: true` clears the mark
/// on the company's other people. Errors: 422 (names, e-mail, unknown company).
#[utoipa::path(post, path = "/contacts/people", operation_id = "people_create", tag = "people",
    request_body = NewPerson,
    responses((status = 200, description = "The created person", body = Person)))]
async fn create(
    State(state): State<AppState>,
    JsonBody(mut body): JsonBody<NewPerson>,
) -> ApiResult<Json<Person>> {
    ApiError::check(validate(&state.pool, &body).await?)?;
    normalize_person(&mut body);
    let _guard = state.write_lock.lock().await;
    let id = write(&state.pool, None, &body).await?;
    load(&state.pool, id).await.map(Json)
}

/// PUT /contacts/people/{id}: partial update with the creation rules (absent: unchanged;
/// `null`: cleared, except names and `billing_contact`). → 200 with the person.
/// Errors: 404; 422 naming each bad field (nothing stored).
#[utoipa::path(put, path = "/contacts/people/{id}", operation_id = "people_update", tag = "people",
    params(IdPath), request_body(content = NewPerson, description = "The fields to change (absent: unchanged; `null`: cleared)"),
    responses((status = 200, description = "The updated person", body = Person)))]
async fn update(
    State(state): State<AppState>,
    IdPath(id): IdPath,
    JsonBody(patch): JsonBody<Value>,
) -> ApiResult<Json<Person>> {
    check_patch_types::<NewPerson>(&patch)?;
    let _guard = state.write_lock.lock().await;
    let stored = load(&state.pool, id).await?;
    let mut body = merged_body(&NewPerson::from(&stored), &patch, PERSON_KEEP_ON_NULL)?;
    ApiError::check(errors_of_patch(validate(&state.pool, &body).await?, &patch))?;
    normalize_person(&mut body);
    write(&state.pool, Some(id), &body).await?;
    load(&state.pool, id).await.map(Json)
}

/// Inserts (`id` `None`) or overwrites person `id`; a billing contact first clears the
/// mark on the company's other people (one transaction).
async fn write(pool: &crate::sql::Db, id: Option<i64>, body: &NewPerson) -> ApiResult<i64> {
    let t = ts(now());
    let billing = body.billing_contact.unwrap_or(false) && body.company_id.is_some();
    let mut tx = crate::store::db::begin_write(pool).await?;
    if billing {
        crate::sql::query(
            "UPDATE people SET billing_contact = FALSE, updated_at = $1 \
             WHERE company_id = $2 AND billing_contact = TRUE AND id IS DISTINCT FROM $3",
        )
        .bind(t)
        .bind(body.company_id)
        .bind(id)
        .execute(&mut tx)
        .await?;
    }
    // The columns both statements set, in their order: firstname … billing_contact,
    // updated_at.
    let values: [crate::sql::Arg<'_>; 10] = [
        body.firstname.clone().unwrap_or_default().into(),
        body.lastname.clone().unwrap_or_default().into(),
        body.email.clone().into(),
        body.company_id.into(),
        body.gender.map(Gender::as_str).into(),
        body.salutation.clone().into(),
        body.job_position.clone().into(),
        body.phone.clone().into(),
        billing.into(),
        t.into(),
    ];
    let id = match id {
        None => {
            let mut insert = crate::sql::query_scalar(
                "INSERT INTO people (firstname, lastname, email, company_id, gender, salutation, job_position, phone, billing_contact, updated_at, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id",
            );
            for value in values {
                insert = insert.bind(value);
            }
            insert.bind(t).fetch_one(&mut tx).await?
        }
        Some(id) => {
            let mut update = crate::sql::query(
                "UPDATE people SET firstname = $1, lastname = $2, email = $3, company_id = $4, gender = $5, salutation = $6, \
                 job_position = $7, phone = $8, billing_contact = $9, updated_at = $10 WHERE id = $11",
            );
            for value in values {
                update = update.bind(value);
            }
            update.bind(id).execute(&mut tx).await?;
            id
        }
    };
    tx.commit().await?;
    Ok(id)
}

/// DELETE /contacts/people/{id} → 204. Errors: 404; 422 when an offer names the person
/// as its contact.
#[utoipa::path(delete, path = "/contacts/people/{id}", operation_id = "people_delete", tag = "people",
    params(IdPath),
    responses((status = 204, description = "Deleted")))]
async fn delete(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<StatusCode> {
    let _guard = state.write_lock.lock().await;
    let person = load(&state.pool, id).await?;
    let offers: i64 = crate::sql::query_scalar("SELECT COUNT(*) FROM offers WHERE contact_id = $1")
        .bind(id)
        .fetch_one(&state.pool)
        .await?;
    if offers > 0 {
        return Err(ApiError::Refused(if offers == 1 {
            kontor_model::error::messages::PERSON_CONTACT_OF_ONE_OFFER.with([person.full_name()])
        } else {
            kontor_model::error::messages::PERSON_CONTACT_OF_N_OFFERS
                .with([person.full_name(), offers.to_string()])
        }));
    }
    crate::sql::query("DELETE FROM people WHERE id = $1")
        .bind(id)
        .execute(&state.pool)
        .await
        .map_err(crate::http::error::on_foreign_key(ApiError::Refused(
            kontor_model::error::messages::PERSON_STILL_REFERENCED.with([person.full_name()]),
        )))?;
    Ok(StatusCode::NO_CONTENT)
}
