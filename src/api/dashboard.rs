//! The dashboard: `GET /dashboard` (issue 11 § Find and see).

use super::client::get_one;
use super::ApiError;
use kontor_model::dashboard::Dashboard;

/// GET /dashboard: open and overdue receivables with the oldest open invoices, revenue
/// per month for twelve months, purchases awaiting approval and offers awaiting an
/// answer, for the server's date.
pub async fn get_dashboard() -> Result<Dashboard, ApiError> {
    get_one("/dashboard", &[]).await
}
