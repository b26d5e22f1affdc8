//! Reminders and dunning (issue 14): an invoice's reminders and recording one, the invoices
//! due for a reminder, the account's dunning levels, and a reminder's letter, e-mail and
//! deletion.

use super::client::{delete_empty, get_one, get_page, request_pdf, send_json};
use super::payments::of_invoice;
use super::{ApiError, Page};
use gloo_net::http::Method;
use kontor_model::dunning::{DunningLevels, NewReminder, OverdueInvoice, Reminder};
use kontor_model::email::{SendEmail, SentEmail};
use web_sys::Blob;

/// GET /invoices/overdue: one page (`page` from 1, `per_page` 1–100) of the invoices due
/// for dunning, oldest due date first.
pub async fn list_overdue_invoices(
    page: u32,
    per_page: u32,
) -> Result<Page<OverdueInvoice>, ApiError> {
    let query = [
        ("page".to_string(), page.to_string()),
        ("per_page".to_string(), per_page.to_string()),
    ];
    get_page("/invoices/overdue", &query).await
}

/// GET /dunning_levels: the account's levels (names per language, days, fees).
pub async fn get_dunning_levels() -> Result<DunningLevels, ApiError> {
    get_one("/dunning_levels", &[]).await
}

/// GET /invoice_reminders/{id}.pdf: the reminder letter on the default letter paper.
pub async fn get_reminder_pdf(id: i64) -> Result<Blob, ApiError> {
    request_pdf(
        Method::GET,
        &format!("/invoice_reminders/{id}.pdf"),
        &[],
        None,
    )
    .await
}

/// POST /invoice_reminders/{id}/send_email: sends the letter with the invoice attached;
/// empty fields of `body` take the server's defaults (the invoice's recipients, the
/// letter's heading, a cover note).
pub async fn send_reminder_email(id: i64, body: &SendEmail) -> Result<SentEmail, ApiError> {
    send_json(
        Method::POST,
        &format!("/invoice_reminders/{id}/send_email"),
        body,
    )
    .await
}

/// DELETE /invoice_reminders/{id}: removes a reminder that was not sent (422 once sent).
pub async fn delete_invoice_reminder(id: i64) -> Result<(), ApiError> {
    delete_empty(&format!("/invoice_reminders/{id}")).await
}

/// GET /invoice_reminders?invoice_id=: the reminders of one invoice (up to 100).
pub async fn list_invoice_reminders(invoice_id: i64) -> Result<Page<Reminder>, ApiError> {
    get_page("/invoice_reminders", &of_invoice(invoice_id)).await
}

/// POST /invoice_reminders: records a reminder (`invoice_id`, `date`, `due_date`, `fee`,
/// `text`).
pub async fn create_invoice_reminder(body: &NewReminder) -> Result<Reminder, ApiError> {
    send_json(Method::POST, "/invoice_reminders", body).await
}

/// PUT /dunning_levels (admins): replaces the account's levels; answers them as stored.
/// 422 naming `levels[i].field` (days, fee, names, texts, placeholders), 403 for others.
pub async fn put_dunning_levels(levels: &DunningLevels) -> Result<DunningLevels, ApiError> {
    send_json(Method::PUT, "/dunning_levels", levels).await
}
