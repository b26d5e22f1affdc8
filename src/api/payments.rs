//! Invoice payments (they move the invoice to `partially_paid` / `paid` and back: re-fetch
//! the invoice after a change). Reminders are [`super::dunning`].

use super::client::{delete_empty, get_page, send_json};
use super::{ApiError, Page};
use gloo_net::http::Method;
use kontor_model::payment::{NewPayment, Payment};

/// The query of one invoice's records (up to 100): `invoice_id` and `per_page`.
pub(super) fn of_invoice(invoice_id: i64) -> [(String, String); 2] {
    [
        ("invoice_id".into(), invoice_id.to_string()),
        ("per_page".into(), "100".into()),
    ]
}

/// GET /invoices/payments?invoice_id=: the payments of one invoice (up to 100).
pub async fn list_invoice_payments(invoice_id: i64) -> Result<Page<Payment>, ApiError> {
    get_page("/invoices/payments", &of_invoice(invoice_id)).await
}

/// POST /invoices/payments: records a payment (`invoice_id`, `date`, `paid_total`).
pub async fn create_invoice_payment(body: &NewPayment) -> Result<Payment, ApiError> {
    send_json(Method::POST, "/invoices/payments", body).await
}

/// PUT /invoices/payments/{id}: changes a payment's date or amount.
pub async fn update_invoice_payment(id: i64, body: &NewPayment) -> Result<Payment, ApiError> {
    send_json(Method::PUT, &format!("/invoices/payments/{id}"), body).await
}

/// DELETE /invoices/payments/{id}.
pub async fn delete_invoice_payment(id: i64) -> Result<(), ApiError> {
    delete_empty(&format!("/invoices/payments/{id}")).await
}
