//! `/text_snippets` (issue 33, `docs/decisions.md` § Articles and text snippets (issue
//! 33)): named salutations, footers and e-mail texts per language, to pick from when a
//! document or an e-mail is written. Wire shape [`TextSnippet`] `{id, name, kind,
//! language, text, created_at, updated_at}`; the rules are the model's
//! ([`kontor_model::article::validate_text_snippet`]). List filters: `kind`, `language`,
//! plus the global filters. `PUT` is a partial update with the creation rules.

use super::patch::{check_patch_types, merged_body};
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{IdPath, JsonBody};
use crate::http::pagination::PageOf;
use crate::lists::{ListQuery, Listing};
use crate::state::AppState;
use crate::store::db::{now, ts, Ts, Word};
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use kontor_model::article::{
    normalize_text_snippet, validate_text_snippet, NewTextSnippet, SnippetKind, TextSnippet,
    TEXT_SNIPPET_KEEP_ON_NULL,
};
use kontor_model::master_data::errors_of_patch;
use kontor_model::party::Language;
use kontor_model::query::one;
use serde::Deserialize;
use serde_json::Value;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes `/text_snippets` and `/text_snippets/{id}`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(get_one, update, delete))
}

const COLUMNS: &str = "s.id, s.name, s.kind, s.language, s.text, s.created_at, s.updated_at";
const FROM: &str = "FROM text_snippets s";

#[derive(sqlx_macros::FromRow)]
struct SnippetRow {
    id: i64,
    name: String,
    kind: Word<SnippetKind>,
    language: Word<Language>,
    text: String,
    created_at: Ts,
    updated_at: Ts,
}

impl From<SnippetRow> for TextSnippet {
    fn from(r: SnippetRow) -> Self {
        TextSnippet {
            id: r.id,
            name: r.name,
            kind: r.kind.0,
            language: r.language.0,
            text: r.text,
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
        }
    }
}

/// Loads snippet `id` if it exists.
pub async fn find(pool: &crate::sql::Db, id: i64) -> ApiResult<Option<TextSnippet>> {
    let sql = format!("SELECT {COLUMNS} {FROM} WHERE s.id = $1");
    Ok(crate::sql::find_by_id::<SnippetRow, _>(pool, &sql, id).await?)
}

/// Loads snippet `id`. Errors: 404.
async fn load(pool: &crate::sql::Db, id: i64) -> ApiResult<TextSnippet> {
    find(pool, id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("text snippet {id}")))
}

/// `GET /text_snippets` filters: `kind`, `language`.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
struct SnippetQuery {
    /// Only snippets of this kind (`salutation`, `footer`, `email`; another word is a
    /// 400 naming `kind`).
    #[serde(deserialize_with = "one")]
    kind: Option<SnippetKind>,
    /// Only snippets in this language (`de`, `en`; another word is a 400 naming
    /// `language`).
    #[serde(deserialize_with = "one")]
    language: Option<Language>,
}

/// GET /text_snippets → one page of snippets, by name (case-insensitive) unless
/// `sort_by` says otherwise (`name`, `kind`, `language`, `created_at`, `updated_at`).
/// Errors: 400 for a malformed filter or `sort_by`.
#[utoipa::path(get, path = "/text_snippets", operation_id = "text_snippets_list", tag = "text_snippets",
    params(kontor_model::query::ListParams, SnippetQuery),
    responses((status = 200, description = "One page of text snippets", body = Vec<TextSnippet>)))]
async fn list(
    State(state): State<AppState>,
    list: ListQuery<SnippetQuery>,
) -> ApiResult<PageOf<TextSnippet>> {
    let (kind, language) = (list.filter.kind, list.filter.language);
    let listing = Listing {
        columns: COLUMNS,
        from: FROM,
        alias: "s",
        custom_properties: false,
        sorts: &[
            ("name", "kontor_fold(s.name)"),
            ("kind", "s.kind"),
            ("language", "s.language"),
            ("created_at", "s.created_at"),
            ("updated_at", "s.updated_at"),
        ],
        default_order: "kontor_fold(s.name) ASC, s.id ASC",
        id: "s.id",
    };
    list.fetch::<SnippetRow, TextSnippet>(&state.pool, &listing, |qb| {
        qb.push(" WHERE TRUE");
        if let Some(k) = kind {
            qb.push(" AND s.kind = ").push_bind(k.as_str());
        }
        if let Some(l) = language {
            qb.push(" AND s.language = ").push_bind(l.as_str());
        }
    })
    .await
}

/// GET /text_snippets/{id} → the snippet. Errors: 404.
#[utoipa::path(get, path = "/text_snippets/{id}", operation_id = "text_snippets_get", tag = "text_snippets",
    params(IdPath),
    responses((status = 200, description = "The text snippet", body = TextSnippet)))]
async fn get_one(
    State(state): State<AppState>,
    IdPath(id): IdPath,
) -> ApiResult<Json<TextSnippet>> {
    load(&state.pool, id).await.map(Json)
}

/// POST /text_snippets → 200 with the snippet. Errors: 422 naming each bad field
/// (`name`, `kind`, `language`, `text`), nothing stored.
#[utoipa::path(post, path = "/text_snippets", operation_id = "text_snippets_create", tag = "text_snippets",
    request_body = NewTextSnippet,
    responses((status = 200, description = "The created text snippet", body = TextSnippet)))]
async fn create(
    State(state): State<AppState>,
    JsonBody(mut body): JsonBody<NewTextSnippet>,
) -> ApiResult<Json<TextSnippet>> {
    ApiError::check(validate_text_snippet(&body))?;
    normalize_text_snippet(&mut body);
    let _guard = state.write_lock.lock().await;
    let id = write(&state.pool, None, &body).await?;
    load(&state.pool, id).await.map(Json)
}

/// PUT /text_snippets/{id}: partial update with the creation rules (absent or `null`:
/// unchanged). → 200 with the snippet. Errors: 404; 422 naming each bad field the body
/// sends, nothing stored.
#[utoipa::path(put, path = "/text_snippets/{id}", operation_id = "text_snippets_update", tag = "text_snippets",
    params(IdPath), request_body(content = NewTextSnippet, description = "The fields to change (absent or `null`: unchanged)"),
    responses((status = 200, description = "The updated text snippet", body = TextSnippet)))]
async fn update(
    State(state): State<AppState>,
    IdPath(id): IdPath,
    JsonBody(patch): JsonBody<Value>,
) -> ApiResult<Json<TextSnippet>> {
    check_patch_types::<NewTextSnippet>(&patch)?;
    let _guard = state.write_lock.lock().await;
    let stored = load(&state.pool, id).await?;
    let mut body = merged_body(
        &NewTextSnippet::from(&stored),
        &patch,
        TEXT_SNIPPET_KEEP_ON_NULL,
    )?;
    ApiError::check(errors_of_patch(validate_text_snippet(&body), &patch))?;
    normalize_text_snippet(&mut body);
    write(&state.pool, Some(id), &body).await?;
    load(&state.pool, id).await.map(Json)
}

/// Inserts (`id` `None`) or overwrites snippet `id` with every field of the validated,
/// normalized `body`, in a write transaction (the audit trail names the writer). Returns
/// the id. Errors: the database's.
async fn write(pool: &crate::sql::Db, id: Option<i64>, body: &NewTextSnippet) -> ApiResult<i64> {
    let t = ts(now());
    let name = body.name.as_deref().unwrap_or("");
    let kind = body.kind.map(SnippetKind::as_str).unwrap_or("");
    let language = body.language.unwrap_or_default().as_str();
    let text = body.text.as_deref().unwrap_or("");
    let mut tx = crate::store::db::begin_write(pool).await?;
    let id = match id {
        None => {
            crate::sql::query_scalar(
                "INSERT INTO text_snippets (name, kind, language, text, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
            )
            .bind(name)
            .bind(kind)
            .bind(language)
            .bind(text)
            .bind(t)
            .bind(t)
            .fetch_one(&mut tx)
            .await?
        }
        Some(id) => {
            crate::sql::query(
                "UPDATE text_snippets SET name = $1, kind = $2, language = $3, text = $4, updated_at = $5 \
                 WHERE id = $6",
            )
            .bind(name)
            .bind(kind)
            .bind(language)
            .bind(text)
            .bind(t)
            .bind(id)
            .execute(&mut tx)
            .await?;
            id
        }
    };
    tx.commit().await?;
    Ok(id)
}

/// DELETE /text_snippets/{id} → 204. Texts already put into documents stay as they are.
/// Errors: 404.
#[utoipa::path(delete, path = "/text_snippets/{id}", operation_id = "text_snippets_delete", tag = "text_snippets",
    params(IdPath),
    responses((status = 204, description = "Deleted")))]
async fn delete(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<StatusCode> {
    let _guard = state.write_lock.lock().await;
    load(&state.pool, id).await?;
    crate::store::db::write_alone(
        &state.pool,
        crate::sql::query("DELETE FROM text_snippets WHERE id = $1").bind(id),
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}
