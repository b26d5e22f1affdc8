//! Articles (issue 33): the catalogue the position editor offers.

use super::client::get_page;
use super::{ApiError, Page};
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
