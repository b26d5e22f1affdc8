//! Contact people: list (of one company, optionally by term), create, update, delete.

use super::client::{delete_empty, get_page, send_json};
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

/// PUT /contacts/people/{id} (partial; `billing_contact: true` clears the mark on the
/// company's other people).
pub async fn update_person(id: i64, body: &NewPerson) -> Result<Person, ApiError> {
    send_json(Method::PUT, &format!("/contacts/people/{id}"), body).await
}

/// DELETE /contacts/people/{id}.
pub async fn delete_person(id: i64) -> Result<(), ApiError> {
    delete_empty(&format!("/contacts/people/{id}")).await
}
