//! Purchases (supplier receipts): list, get, create, change the status, delete, store the
//! document (multipart upload with progress), categories and purchase payments.

use super::client::{delete_empty, get_one, get_page, send_json};
use super::upload::{send_with_progress, UploadBody};
use super::{ApiError, Page};
use crate::i18n::t;
use gloo_net::http::Method;
use kontor_model::purchase::{
    NewPurchase, NewPurchasePayment, Purchase, PurchaseCategory, PurchasePayment, PurchaseStatus,
};
use kontor_model::query::{ListFilter, ListSummary, PurchaseFilter};
use leptos::prelude::RwSignal;

/// GET /purchases with the filter and paging of `filter`.
pub async fn list_purchases(filter: &PurchaseFilter) -> Result<Page<Purchase>, ApiError> {
    get_page("/purchases", &filter.to_pairs()).await
}

/// GET /purchases/summary with the filters of `filter` (paging and sorting ignored by the
/// server): count, net, gross and open amount per currency over every matching purchase.
pub async fn get_purchase_summary(filter: &PurchaseFilter) -> Result<ListSummary, ApiError> {
    get_one("/purchases/summary", &filter.to_pairs()).await
}

/// GET /purchases/{id}: the purchase with items, payments and a fresh `file_url`.
pub async fn get_purchase(id: i64) -> Result<Purchase, ApiError> {
    get_one(&format!("/purchases/{id}"), &[]).await
}

/// POST /purchases (optionally with the document as `file: {filename, base64}`).
pub async fn create_purchase(body: &NewPurchase) -> Result<Purchase, ApiError> {
    send_json(Method::POST, "/purchases", body).await
}

/// PUT /purchases/{id}: replaces the purchase with `body` (the creation body); 422 unless
/// the purchase is pending (`model::edit::purchase_edit_refusal`).
pub async fn update_purchase(id: i64, body: &NewPurchase) -> Result<Purchase, ApiError> {
    send_json(Method::PUT, &format!("/purchases/{id}"), body).await
}

/// PATCH /purchases/{id}/update_status: `pending` or `approved`; `override_reason` is an
/// admin's reason for approving despite an e-invoice defect (issue 36).
pub async fn update_purchase_status(
    id: i64,
    status: PurchaseStatus,
    override_reason: Option<String>,
) -> Result<Purchase, ApiError> {
    let body = match override_reason {
        Some(reason) => serde_json::json!({ "status": status.as_str(), "override_reason": reason }),
        None => serde_json::json!({ "status": status.as_str() }),
    };
    send_json(
        Method::PATCH,
        &format!("/purchases/{id}/update_status"),
        &body,
    )
    .await
}

/// POST /purchases/{id}/correction_request (issue 36): e-mails the seller the e-invoice's
/// findings in `language` (`de`/`en`); `to` empty → the address Kontor knows.
pub async fn request_corrected_invoice(
    id: i64,
    to: Option<String>,
    language: &str,
) -> Result<kontor_model::email::SentEmail, ApiError> {
    let body = serde_json::json!({ "to": to, "language": language });
    send_json(
        Method::POST,
        &format!("/purchases/{id}/correction_request"),
        &body,
    )
    .await
}

/// DELETE /purchases/{id}: only pending purchases without payments (else 422).
pub async fn delete_purchase(id: i64) -> Result<(), ApiError> {
    delete_empty(&format!("/purchases/{id}")).await
}

/// GET /purchases/categories.
pub async fn list_purchase_categories() -> Result<Page<PurchaseCategory>, ApiError> {
    get_page(
        "/purchases/categories",
        &[("per_page".into(), "100".into())],
    )
    .await
}

/// GET /purchases/payments?purchase_id=: the payments of one purchase.
pub async fn list_purchase_payments(purchase_id: i64) -> Result<Page<PurchasePayment>, ApiError> {
    let query = [
        ("purchase_id".to_string(), purchase_id.to_string()),
        ("per_page".to_string(), "100".to_string()),
    ];
    get_page("/purchases/payments", &query).await
}

/// POST /purchases/payments: records a payment (`purchase_id`, `date`, `total`).
pub async fn create_purchase_payment(
    body: &NewPurchasePayment,
) -> Result<PurchasePayment, ApiError> {
    send_json(Method::POST, "/purchases/payments", body).await
}

/// DELETE /purchases/payments/{id}.
pub async fn delete_purchase_payment(id: i64) -> Result<(), ApiError> {
    delete_empty(&format!("/purchases/payments/{id}")).await
}

/// PATCH /purchases/{id}/store_document with `file` as multipart part `file`; replaces the
/// stored document. `progress` follows the upload from 0 to 100 (percent). A wrong file is
/// a 422 with `errors.file`.
pub async fn store_purchase_document(
    id: i64,
    file: &web_sys::File,
    progress: RwSignal<u8>,
) -> Result<Purchase, ApiError> {
    let failed = |_| ApiError::local(t().api_errors().upload_not_started);
    let form = web_sys::FormData::new().map_err(failed)?;
    form.append_with_blob_and_filename("file", file, &file.name())
        .map_err(failed)?;
    let path = format!("/purchases/{id}/store_document");
    send_with_progress("PATCH", &path, UploadBody::Form(form), progress).await
}
