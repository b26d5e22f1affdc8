//! Recurring invoices (issue 11): list, get with the history of runs, create, replace,
//! delete. The server's job turns each due schedule into invoices; the app only edits the
//! schedule and shows what the job made.

use super::client::{delete_empty, get_one, get_page, send_json};
use super::{ApiError, Page};
use gloo_net::http::Method;
pub use kontor_model::recurring::{
    Interval, NewRecurringInvoice, RecurringInvoice, RecurringMode, RecurringRun,
};

/// GET /recurring_invoices: one page (newest first, `per_page` rows, page from 1); the
/// runs are left out or cut to the last few in the list.
pub async fn list_recurring_invoices(
    page: u32,
    per_page: u32,
) -> Result<Page<RecurringInvoice>, ApiError> {
    let query = [
        ("page".to_string(), page.to_string()),
        ("per_page".to_string(), per_page.to_string()),
    ];
    get_page("/recurring_invoices", &query).await
}

/// GET /recurring_invoices/{id}: the schedule with every run, newest first.
pub async fn get_recurring_invoice(id: i64) -> Result<RecurringInvoice, ApiError> {
    get_one(&format!("/recurring_invoices/{id}"), &[]).await
}

/// POST /recurring_invoices: 201 with the schedule; 422 naming `template.*`, `interval`,
/// `next_date`, `end_date` or `mode`. A next date today or earlier makes the server's job
/// run at once.
pub async fn create_recurring_invoice(
    body: &NewRecurringInvoice,
) -> Result<RecurringInvoice, ApiError> {
    send_json(Method::POST, "/recurring_invoices", body).await
}

/// PUT /recurring_invoices/{id}: replaces the schedule with `body` (the creation body).
pub async fn update_recurring_invoice(
    id: i64,
    body: &NewRecurringInvoice,
) -> Result<RecurringInvoice, ApiError> {
    send_json(Method::PUT, &format!("/recurring_invoices/{id}"), body).await
}

/// DELETE /recurring_invoices/{id}: the schedule and its history go; the invoices it made
/// stay.
pub async fn delete_recurring_invoice(id: i64) -> Result<(), ApiError> {
    delete_empty(&format!("/recurring_invoices/{id}")).await
}
