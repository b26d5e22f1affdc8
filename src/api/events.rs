//! Timelines (issue 11 § Timeline): the events of an invoice, offer or purchase, oldest
//! first as the server answers them (`docs/api.md` § Events).

use super::client::get_one;
use super::ApiError;
use kontor_model::event::Event;

/// GET /invoices/{id}/events. Errors: 404 for an unknown invoice.
pub async fn get_invoice_events(id: i64) -> Result<Vec<Event>, ApiError> {
    get_one(&format!("/invoices/{id}/events"), &[]).await
}

/// GET /offers/{id}/events. Errors: 404 for an unknown offer.
pub async fn get_offer_events(id: i64) -> Result<Vec<Event>, ApiError> {
    get_one(&format!("/offers/{id}/events"), &[]).await
}

/// GET /purchases/{id}/events. Errors: 404 for an unknown purchase.
pub async fn get_purchase_events(id: i64) -> Result<Vec<Event>, ApiError> {
    get_one(&format!("/purchases/{id}/events"), &[]).await
}
