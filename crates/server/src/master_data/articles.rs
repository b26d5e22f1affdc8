//! `/articles` (issue 33, `docs/decisions.md` § Articles and text snippets (issue 33)):
//! priced services and goods a position is filled from, like MOCO's `catalog_services`.
//! Wire shape [`Article`] `{id, number, title, description, unit, unit_price, currency,
//! tax_category, tax, active, created_at, updated_at}`; the rules are the model's
//! ([`kontor_model::article`]), the server adds the account's currencies and that no other
//! article has the number (regardless of case; the unique index `articles_number_key`
//! holds it across processes). List filters: `term` (number and title), `active`, plus
//! the global filters. `PUT` is a partial update with the creation rules; `DELETE`
//! removes the article only — positions copied its values and stay as they are.

use super::patch::{check_patch_types, merged_body};
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{IdPath, JsonBody};
use crate::http::pagination::PageOf;
use crate::lists::{like_pattern, ListQuery, Listing};
use crate::state::AppState;
use crate::store::db::{now, ts, Dec, Ts, Word};
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use kontor_model::article::{
    article_currency, article_number_key, errors_of_article_patch, normalize_article,
    validate_article, Article, NewArticle, ARTICLE_KEEP_ON_NULL,
};
use kontor_model::error::{messages, push_error, FieldErrors};
use kontor_model::position_vat::TaxCategory;
use kontor_model::query::one;
use serde::Deserialize;
use serde_json::Value;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes `/articles` and `/articles/{id}`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(get_one, update, delete))
}

const COLUMNS: &str = "a.id, a.number, a.title, a.description, a.unit, a.unit_price, a.currency, \
     a.tax_category, a.tax, a.active, a.created_at, a.updated_at";
const FROM: &str = "FROM articles a";

#[derive(sqlx_macros::FromRow)]
struct ArticleRow {
    id: i64,
    number: Option<String>,
    title: String,
    description: Option<String>,
    unit: Option<String>,
    unit_price: Option<Dec>,
    currency: String,
    tax_category: Option<Word<TaxCategory>>,
    tax: Option<Dec>,
    active: bool,
    created_at: Ts,
    updated_at: Ts,
}

impl From<ArticleRow> for Article {
    fn from(r: ArticleRow) -> Self {
        Article {
            id: r.id,
            number: r.number,
            title: r.title,
            description: r.description,
            unit: r.unit,
            unit_price: r.unit_price.map(|d| d.0),
            currency: r.currency,
            tax_category: r.tax_category.map(|w| w.0),
            tax: r.tax.map(|d| d.0),
            active: r.active,
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
        }
    }
}

/// Loads article `id` if it exists.
pub async fn find(pool: &crate::sql::Db, id: i64) -> ApiResult<Option<Article>> {
    let sql = format!("SELECT {COLUMNS} {FROM} WHERE a.id = $1");
    Ok(crate::sql::find_by_id::<ArticleRow, _>(pool, &sql, id).await?)
}

/// Loads article `id`. Errors: 404.
async fn load(pool: &crate::sql::Db, id: i64) -> ApiResult<Article> {
    find(pool, id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("article {id}")))
}

/// `GET /articles` filters: `term`, `active`.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
struct ArticleQuery {
    /// Part of the number or the title, case-insensitive (`*` is a wildcard, `%` and `_`
    /// are literal).
    #[serde(deserialize_with = "one")]
    term: Option<String>,
    /// `true`: active only; `false`: archived only; absent: all.
    #[serde(deserialize_with = "one")]
    active: Option<bool>,
}

/// GET /articles → one page of articles, by title (case-insensitive) unless `sort_by`
/// says otherwise (`number`, `title`, `created_at`, `updated_at`). Errors: 400 for a
/// malformed filter or `sort_by`.
#[utoipa::path(get, path = "/articles", operation_id = "articles_list", tag = "articles",
    params(kontor_model::query::ListParams, ArticleQuery),
    responses((status = 200, description = "One page of articles", body = Vec<Article>)))]
async fn list(
    State(state): State<AppState>,
    list: ListQuery<ArticleQuery>,
) -> ApiResult<PageOf<Article>> {
    let active = list.filter.active;
    let term = list.filter.term.as_deref().map(like_pattern);
    let listing = Listing {
        columns: COLUMNS,
        from: FROM,
        alias: "a",
        custom_properties: false,
        sorts: &[
            // Articles without a number sort as "" (first ascending) on both engines.
            ("number", "kontor_fold(coalesce(a.number, ''))"),
            ("title", "kontor_fold(a.title)"),
            ("created_at", "a.created_at"),
            ("updated_at", "a.updated_at"),
        ],
        default_order: "kontor_fold(a.title) ASC, a.id ASC",
        id: "a.id",
    };
    list.fetch::<ArticleRow, Article>(&state.pool, &listing, |qb| {
        qb.push(" WHERE TRUE");
        if let Some(t) = &term {
            qb.push(format!(" AND ({}", crate::sql::functions::like("a.title")))
                .push_bind(t.clone())
                .push(crate::sql::functions::LIKE_END)
                .push(format!(" OR {}", crate::sql::functions::like("a.number")))
                .push_bind(t.clone())
                .push(crate::sql::functions::LIKE_END)
                .push(")");
        }
        if let Some(a) = active {
            qb.push(" AND a.active = ").push_bind(a);
        }
    })
    .await
}

/// GET /articles/{id} → the article. Errors: 404.
#[utoipa::path(get, path = "/articles/{id}", operation_id = "articles_get", tag = "articles",
    params(IdPath),
    responses((status = 200, description = "The article", body = Article)))]
async fn get_one(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<Json<Article>> {
    load(&state.pool, id).await.map(Json)
}

/// Adds "is already the number of the article …" under `number` when another article
/// than `id` (`None`: a new one) has `body`'s number, regardless of case. Errors:
/// database errors (500).
async fn check_number_free(
    pool: &crate::sql::Db,
    id: Option<i64>,
    body: &NewArticle,
    errors: &mut FieldErrors,
) -> ApiResult<()> {
    let Some(key) = article_number_key(body.number.as_deref()) else {
        return Ok(());
    };
    let other: Option<String> = crate::sql::query_scalar(
        "SELECT title FROM articles WHERE number_key = $1 AND id <> $2 ORDER BY id LIMIT 1",
    )
    .bind(key)
    .bind(id.unwrap_or(0))
    .fetch_optional(pool)
    .await?;
    if let Some(title) = other {
        push_error(
            errors,
            "number",
            messages::ARTICLE_NUMBER_TAKEN_BY_N.with([title]),
        );
    }
    Ok(())
}

/// A mapper for the article write's `.map_err`: a unique-index violation (another process
/// wrote the same number between [`check_number_free`] and the write) becomes the 422 on
/// `number`; every other database error stays what it is.
fn on_number_taken(e: sqlx::Error) -> ApiError {
    if let sqlx::Error::Database(d) = &e {
        if d.kind() == sqlx::error::ErrorKind::UniqueViolation {
            return ApiError::field("number", messages::ARTICLE_NUMBER_TAKEN);
        }
    }
    ApiError::from(e)
}

/// POST /articles → 200 with the article (`active` true and the account's default
/// currency unless the body says otherwise). Errors: 422 naming each bad field (`title`,
/// `number` — also when another article has it —, `unit`, `description`, `unit_price`,
/// `currency`, `tax`, `tax_category`), nothing stored.
#[utoipa::path(post, path = "/articles", operation_id = "articles_create", tag = "articles",
    request_body = NewArticle,
    responses((status = 200, description = "The created article", body = Article)))]
async fn create(
    State(state): State<AppState>,
    JsonBody(mut body): JsonBody<NewArticle>,
) -> ApiResult<Json<Article>> {
    let currencies = crate::account::currencies(&state.pool).await?;
    ApiError::check(validate_article(&body, &currencies))?;
    normalize_article(&mut body);
    body.currency = Some(article_currency(&body, &currencies));
    let _guard = state.write_lock.lock().await;
    let mut taken = FieldErrors::new();
    check_number_free(&state.pool, None, &body, &mut taken).await?;
    ApiError::check(taken)?;
    let id = write(&state.pool, None, &body).await?;
    load(&state.pool, id).await.map(Json)
}

/// PUT /articles/{id}: partial update with the creation rules (absent: unchanged; `null`:
/// cleared, except `title`, `currency` and `active`); `{"active": false}` archives,
/// `{"active": true}` restores. → 200 with the article. Errors: 404; 422 naming each bad
/// field the body sends (a new `currency` also answers for the stored `unit_price`'s
/// places), nothing stored.
#[utoipa::path(put, path = "/articles/{id}", operation_id = "articles_update", tag = "articles",
    params(IdPath), request_body(content = NewArticle, description = "The fields to change (absent: unchanged; `null`: cleared)"),
    responses((status = 200, description = "The updated article", body = Article)))]
async fn update(
    State(state): State<AppState>,
    IdPath(id): IdPath,
    JsonBody(patch): JsonBody<Value>,
) -> ApiResult<Json<Article>> {
    check_patch_types::<NewArticle>(&patch)?;
    let _guard = state.write_lock.lock().await;
    let stored = load(&state.pool, id).await?;
    let mut body = merged_body(&NewArticle::from(&stored), &patch, ARTICLE_KEEP_ON_NULL)?;
    let currencies = crate::account::currencies(&state.pool).await?;
    let mut errors = validate_article(&body, &currencies);
    check_number_free(&state.pool, Some(id), &body, &mut errors).await?;
    ApiError::check(errors_of_article_patch(errors, &patch))?;
    normalize_article(&mut body);
    body.currency = Some(article_currency(&body, &currencies));
    write(&state.pool, Some(id), &body).await?;
    load(&state.pool, id).await.map(Json)
}

/// Inserts (`id` `None`) or overwrites article `id` with every field of the validated,
/// normalized `body` (description sanitized like a position's), in a write transaction
/// (the audit trail names the writer). Returns the id. Errors: 422 on `number` when the
/// unique index refuses it; the database's.
async fn write(pool: &crate::sql::Db, id: Option<i64>, body: &NewArticle) -> ApiResult<i64> {
    let t = ts(now());
    let description = crate::input::sanitize::html_opt(body.description.as_deref());
    let mut tx = crate::store::db::begin_write(pool).await?;
    let id = match id {
        None => crate::sql::query_scalar(
            "INSERT INTO articles (number, number_key, title, description, unit, unit_price, currency, \
             tax_category, tax, active, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
        )
        .bind(body.number.as_deref())
        .bind(article_number_key(body.number.as_deref()))
        .bind(body.title.as_deref().unwrap_or(""))
        .bind(description)
        .bind(body.unit.as_deref())
        .bind(body.unit_price)
        .bind(body.currency.as_deref())
        .bind(body.tax_category.map(TaxCategory::as_str))
        .bind(body.tax)
        .bind(body.active.unwrap_or(true))
        .bind(t)
        .bind(t)
        .fetch_one(&mut tx)
        .await
        .map_err(on_number_taken)?,
        Some(id) => {
            crate::sql::query(
                "UPDATE articles SET number = $1, number_key = $2, title = $3, description = $4, unit = $5, \
                 unit_price = $6, currency = $7, tax_category = $8, tax = $9, active = $10, updated_at = $11 \
                 WHERE id = $12",
            )
            .bind(body.number.as_deref())
            .bind(article_number_key(body.number.as_deref()))
            .bind(body.title.as_deref().unwrap_or(""))
            .bind(description)
            .bind(body.unit.as_deref())
            .bind(body.unit_price)
            .bind(body.currency.as_deref())
            .bind(body.tax_category.map(TaxCategory::as_str))
            .bind(body.tax)
            .bind(body.active.unwrap_or(true))
            .bind(t)
            .bind(id)
            .execute(&mut tx)
            .await
            .map_err(on_number_taken)?;
            id
        }
    };
    tx.commit().await?;
    Ok(id)
}

/// DELETE /articles/{id} → 204. Only the article goes: invoices and offers whose
/// positions were filled from it copied its values and stay as they are. Errors: 404.
#[utoipa::path(delete, path = "/articles/{id}", operation_id = "articles_delete", tag = "articles",
    params(IdPath),
    responses((status = 204, description = "Deleted")))]
async fn delete(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<StatusCode> {
    let _guard = state.write_lock.lock().await;
    load(&state.pool, id).await?;
    crate::store::db::write_alone(
        &state.pool,
        crate::sql::query("DELETE FROM articles WHERE id = $1").bind(id),
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}
