//! What invoices can bill: a project's unbilled time sheet entries and its expenses.

use super::client::{get_all_pages, get_page};
use super::{ApiError, Page};
use kontor_model::billing::{Activity, Expense};

/// GET /activities?project_id=&billed=false&billable=true: the entries an invoice may
/// still bill (up to 100).
pub async fn list_unbilled_activities(project_id: i64) -> Result<Page<Activity>, ApiError> {
    let query = [
        ("project_id", project_id.to_string()),
        ("billed", "false".into()),
        ("billable", "true".into()),
        ("per_page", "100".into()),
    ]
    .map(|(k, v)| (k.to_string(), v));
    get_page("/activities", &query).await
}

/// GET /projects/{id}/expenses: all of a project's expenses, every page (filter
/// `billed`/`billable`).
pub async fn list_project_expenses(project_id: i64) -> Result<Vec<Expense>, ApiError> {
    get_all_pages(&format!("/projects/{project_id}/expenses")).await
}
