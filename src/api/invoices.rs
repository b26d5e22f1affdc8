//! Invoices: list, get, create, edit a draft, change the status, delete, reverse, send by
//! e-mail. Documents (PDFs, time sheet, expenses) are in [`super::invoice_documents`].

use super::client::{get_one, get_page, send_json, send_no_content};
use super::{ApiError, Page};
use gloo_net::http::Method;
use kontor_model::email::{SendEmail, SentEmail};
use kontor_model::invoice::Invoice;
use kontor_model::invoice_input::{DeleteReason, NewInvoice, StatusChange};
use kontor_model::query::{InvoiceFilter, ListFilter, ListSummary};
use kontor_model::status::InvoiceStatus;

/// GET /invoices with the filter, paging and sorting of `filter`, each item decoded as `T`
/// (the list's slim [`kontor_model::invoice::InvoiceRow`], or [`Invoice`]).
pub async fn list_invoices<T: serde::de::DeserializeOwned>(
    filter: &InvoiceFilter,
) -> Result<Page<T>, ApiError> {
    get_page("/invoices", &filter.to_pairs()).await
}

/// GET /invoices/summary with the filters of `filter` (paging and sorting ignored by the
/// server): count, net, gross and open amount per currency over every matching invoice.
pub async fn get_invoice_summary(filter: &InvoiceFilter) -> Result<ListSummary, ApiError> {
    get_one("/invoices/summary", &filter.to_pairs()).await
}

/// GET /invoices/{id}: the invoice with items, payments and reminders.
pub async fn get_invoice(id: i64) -> Result<Invoice, ApiError> {
    get_one(&format!("/invoices/{id}"), &[]).await
}

/// POST /invoices: creates an invoice (or a draft with `status: draft`).
pub async fn create_invoice(body: &NewInvoice) -> Result<Invoice, ApiError> {
    send_json(Method::POST, "/invoices", body).await
}

/// PUT /invoices/{id}: replaces a draft with `body` (422 unless it is a draft); with
/// `status: created` in `body` it also finalizes the draft (number assigned) in the same
/// request, so "Save and finalize" is one request.
pub async fn update_invoice(id: i64, body: &NewInvoice) -> Result<Invoice, ApiError> {
    send_json(Method::PUT, &format!("/invoices/{id}"), body).await
}

/// POST /invoices/{id}/copy: answers a new draft with the same customer, positions,
/// texts and tags, dated today, due after the payment term.
pub async fn copy_invoice(id: i64) -> Result<Invoice, ApiError> {
    send_json(Method::POST, &format!("/invoices/{id}/copy"), &()).await
}

/// PUT /invoices/{id}/update_status: moves the invoice to `status` (finalizes a draft
/// with `created`).
pub async fn update_invoice_status(id: i64, status: InvoiceStatus) -> Result<Invoice, ApiError> {
    let body = StatusChange {
        status: status.as_str().to_string(),
        override_reason: None,
    };
    send_json(Method::PUT, &format!("/invoices/{id}/update_status"), &body).await
}

/// DELETE /invoices/{id} with a reason (required unless the invoice is a draft).
pub async fn delete_invoice(id: i64, reason: Option<String>) -> Result<(), ApiError> {
    let reason = reason
        .map(|r| r.trim().to_string())
        .filter(|r| !r.is_empty());
    send_no_content(
        Method::DELETE,
        &format!("/invoices/{id}"),
        &DeleteReason { reason },
    )
    .await
}

/// POST /invoices/{id}/reverse: creates and answers the reversal invoice (positions
/// negated); the original becomes `reversed`.
pub async fn reverse_invoice(id: i64) -> Result<Invoice, ApiError> {
    send_json(Method::POST, &format!("/invoices/{id}/reverse"), &()).await
}

/// POST /invoices/{id}/credit_note (issue 33): a credit note for positions of the invoice
/// or free amounts; answers the credit note. 422 naming `items`/`items[i].…` (e.g. more
/// than is left to credit) or when the invoice cannot be credited.
pub async fn credit_invoice(
    id: i64,
    body: kontor_model::credit_note::NewCreditNote,
) -> Result<Invoice, ApiError> {
    send_json(Method::POST, &format!("/invoices/{id}/credit_note"), &body).await
}

/// POST /invoices/{id}/send_email: the PDF by e-mail; answers the message as sent with the
/// recipients used. 422 (`errors.emails_to`) without a recipient, 502 when the mail
/// server refuses.
pub async fn send_invoice_email(id: i64, body: &SendEmail) -> Result<SentEmail, ApiError> {
    send_json(Method::POST, &format!("/invoices/{id}/send_email"), body).await
}

/// GET /invoices/monthly with the list's filters: open and overdue totals per currency and
/// twelve months of paid, open and overdue amounts (the list's chart, issue 14).
pub async fn get_invoice_months(
    filter: &InvoiceFilter,
) -> Result<kontor_model::query::InvoiceMonths, ApiError> {
    get_one("/invoices/monthly", &filter.to_pairs()).await
}
