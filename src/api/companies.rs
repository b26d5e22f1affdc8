//! Companies (customers, suppliers, organizations): list with search and filters, get,
//! create, partial update (also archive / restore) and delete.

use super::client::{delete_empty, get_one, get_page, send_json};
use super::{ApiError, Page};
use gloo_net::http::Method;
use kontor_model::party::{Company, CompanyType, NewCompany};
use kontor_model::query::{CompanyFilter, ListFilter, Paging};

/// What a picker asks while the user types: active companies of `kind` whose name (or
/// e-mail, tags) contains `term`, sorted by name, the first 20.
pub fn search_filter(kind: CompanyType, term: &str) -> CompanyFilter {
    CompanyFilter {
        kinds: vec![kind],
        term: Some(term.trim().to_string()).filter(|t| !t.is_empty()),
        active: Some(true),
        paging: Paging {
            sort_by: Some("name asc".into()),
            per_page: Some(20),
            ..Default::default()
        },
        ..Default::default()
    }
}

/// GET /companies with the filter, paging and sorting of `filter`.
///
/// Each item is decoded as `T`: [`Company`], or the pickers' slim
/// [`kontor_model::party::CompanyRef`].
pub async fn list_companies<T: serde::de::DeserializeOwned>(
    filter: &CompanyFilter,
) -> Result<Page<T>, ApiError> {
    get_page("/companies", &filter.to_pairs()).await
}

/// GET /companies/{id}.
pub async fn get_company(id: i64) -> Result<Company, ApiError> {
    get_company_as(id).await
}

/// GET /companies/{id}, decoded as `T` (e.g. the slim
/// [`kontor_model::party::CompanyRef`] when only the name is shown).
pub async fn get_company_as<T: serde::de::DeserializeOwned>(id: i64) -> Result<T, ApiError> {
    get_one(&format!("/companies/{id}"), &[]).await
}

/// POST /companies: 422 with field errors for bad input.
pub async fn create_company(body: &NewCompany) -> Result<Company, ApiError> {
    send_json(Method::POST, "/companies", body).await
}

/// PUT /companies/{id}: partial update with the same field rules as creation.
pub async fn update_company(id: i64, body: &NewCompany) -> Result<Company, ApiError> {
    send_json(Method::PUT, &format!("/companies/{id}"), body).await
}

/// PUT /companies/{id} with `{"name": name}`: renames the company (a supplier whose
/// e-invoice carries a new name, issue 34). Errors: the server's (422 `name`).
pub async fn rename_company(id: i64, name: &str) -> Result<Company, ApiError> {
    send_json(
        Method::PUT,
        &format!("/companies/{id}"),
        &serde_json::json!({ "name": name }),
    )
    .await
}

/// PUT /companies/{id} with `{"active": active}`: archive (`false`) or restore (`true`).
pub async fn set_company_active(id: i64, active: bool) -> Result<Company, ApiError> {
    let body = serde_json::json!({ "active": active });
    send_json(Method::PUT, &format!("/companies/{id}"), &body).await
}

/// DELETE /companies/{id}: 204, or 422 naming what still references the company.
pub async fn delete_company(id: i64) -> Result<(), ApiError> {
    delete_empty(&format!("/companies/{id}")).await
}
