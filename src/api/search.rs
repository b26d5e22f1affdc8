//! One search (issue 33): `GET /search?term=`.

use super::client::get_one;
use super::ApiError;
use kontor_model::search::SearchResults;

/// GET /search?term=: at most five invoices, offers, purchases, companies and contact
/// people each that `term` finds (also invoices by an amount as typed). 422 `term` when
/// blank or longer than 200 characters.
pub async fn search(term: &str) -> Result<SearchResults, ApiError> {
    get_one("/search", &[("term".to_string(), term.to_string())]).await
}
