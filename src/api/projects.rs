//! Projects: list (optionally of one customer), get, create, partial update (also
//! archive / restore).

use super::client::{get_one, get_page, send_json};
use super::{ApiError, Page};
use gloo_net::http::Method;
use kontor_model::party::{NewProject, Project};

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

/// POST /projects.
pub async fn create_project(body: &NewProject) -> Result<Project, ApiError> {
    send_json(Method::POST, "/projects", body).await
}

/// PUT /projects/{id} (partial).
pub async fn update_project(id: i64, body: &NewProject) -> Result<Project, ApiError> {
    send_json(Method::PUT, &format!("/projects/{id}"), body).await
}

/// PUT /projects/{id} with `{"active": active}`: archive (`false`) or restore (`true`).
pub async fn set_project_active(id: i64, active: bool) -> Result<Project, ApiError> {
    let body = serde_json::json!({ "active": active });
    send_json(Method::PUT, &format!("/projects/{id}"), &body).await
}
