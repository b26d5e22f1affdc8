//! Articles (issue 33): the catalogue the position editor offers.

use super::client::{delete_empty, get_page, send_json};
use super::{ApiError, Page};
use gloo_net::http::Method;
use kontor_model::article::Article;

/// GET /articles?active=true: the first 100 active articles (number, title, unit, unit
/// price, VAT), ordered as the list orders them.
pub async fn active_articles() -> Result<Page<Article>, ApiError> {
    get_page(
        "/articles",
        &[
            ("active".to_string(), "true".to_string()),
            ("per_page".to_string(), "100".to_string()),
        ],
    )
    .await
}

/// GET /text_snippets?kind=…: the first 100 text snippets of `kind` (both languages), by
/// name.
pub async fn text_snippets(
    kind: kontor_model::article::SnippetKind,
) -> Result<Page<kontor_model::article::TextSnippet>, ApiError> {
    get_page(
        "/text_snippets",
        &[
            ("kind".to_string(), kind.as_str().to_string()),
            ("per_page".to_string(), "100".to_string()),
        ],
    )
    .await
}

/// GET /articles: every article, active and archived (the first 100 by the list's
/// order, newest first), for the catalogue page.
pub async fn all_articles() -> Result<Page<Article>, ApiError> {
    get_page("/articles", &[("per_page".to_string(), "100".to_string())]).await
}

/// POST /articles (`id` `None`) or PUT /articles/{id}: the stored article; 422 naming
/// fields (`number` taken, `title` missing, …).
pub async fn save_article(
    id: Option<i64>,
    body: &impl serde::Serialize,
) -> Result<Article, ApiError> {
    match id {
        Some(id) => send_json(Method::PUT, &format!("/articles/{id}"), body).await,
        None => send_json(Method::POST, "/articles", body).await,
    }
}

/// DELETE /articles/{id}.
pub async fn delete_article(id: i64) -> Result<(), ApiError> {
    delete_empty(&format!("/articles/{id}")).await
}

/// GET /text_snippets: every text snippet (the first 100), for the catalogue page.
pub async fn all_text_snippets() -> Result<Page<kontor_model::article::TextSnippet>, ApiError> {
    get_page(
        "/text_snippets",
        &[("per_page".to_string(), "100".to_string())],
    )
    .await
}

/// POST /text_snippets (`id` `None`) or PUT /text_snippets/{id}: the stored snippet;
/// 422 naming fields.
pub async fn save_text_snippet(
    id: Option<i64>,
    body: &kontor_model::article::NewTextSnippet,
) -> Result<kontor_model::article::TextSnippet, ApiError> {
    match id {
        Some(id) => send_json(Method::PUT, &format!("/text_snippets/{id}"), body).await,
        None => send_json(Method::POST, "/text_snippets", body).await,
    }
}

/// DELETE /text_snippets/{id}.
pub async fn delete_text_snippet(id: i64) -> Result<(), ApiError> {
    delete_empty(&format!("/text_snippets/{id}")).await
}
