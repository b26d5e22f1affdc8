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
