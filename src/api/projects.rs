//! Projects: list (optionally of one customer) and get.

use super::client::{get_one, get_page};
use super::{ApiError, Page};
use kontor_model::party::Project;

/// GET /projects, only the projects of `company_id` when given (up to 100).
pub async fn list_projects(company_id: Option<i64>) -> Result<Page<Project>, ApiError> {
    let mut query = vec![("per_page".to_string(), "100".to_string())];
    if let Some(id) = company_id {
        query.push(("company_id".into(), id.to_string()));
    }
    get_page("/projects", &query).await
}

/// GET /projects/{id}.
pub async fn get_project(id: i64) -> Result<Project, ApiError> {
    get_one(&format!("/projects/{id}"), &[]).await
}
