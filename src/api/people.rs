//! Contact people: list (of one company, optionally by term) and create.

use super::client::{get_page, send_json};
use super::{ApiError, Page};
use gloo_net::http::Method;
use kontor_model::party::{NewPerson, Person};

/// GET /contacts/people, only the people of `company_id` when given (up to 100).
pub async fn list_people(
    company_id: Option<i64>,
    term: Option<&str>,
) -> Result<Page<Person>, ApiError> {
    let mut query = vec![("per_page".to_string(), "100".to_string())];
    if let Some(id) = company_id {
        query.push(("company_id".into(), id.to_string()));
    }
    if let Some(t) = term.filter(|t| !t.is_empty()) {
        query.push(("term".into(), t.to_string()));
    }
    get_page("/contacts/people", &query).await
}

/// POST /contacts/people.
pub async fn create_person(body: &NewPerson) -> Result<Person, ApiError> {
    send_json(Method::POST, "/contacts/people", body).await
}
