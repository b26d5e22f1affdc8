//! Purchases (supplier receipts): list, get, create, change the status, delete, store the
//! document (multipart upload with progress), categories and purchase payments.

use super::client::{
    delete_empty, error_from_body, get_one, get_page, send_json, server_or_origin, stored_key,
};
use super::{ApiError, Page};
use futures::channel::oneshot;
use gloo_net::http::Method;
use kontor_model::purchase::{
    NewPurchase, NewPurchasePayment, Purchase, PurchaseCategory, PurchasePayment, PurchaseStatus,
};
use kontor_model::query::PurchaseFilter;
use leptos::prelude::{RwSignal, Set};
use send_wrapper::SendWrapper;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::JsCast;

/// GET /purchases with the filter and paging of `filter`.
pub async fn list_purchases(filter: &PurchaseFilter) -> Result<Page<Purchase>, ApiError> {
    get_page("/purchases", &filter.to_pairs()).await
}

/// GET /purchases/{id}: the purchase with items, payments and a fresh `file_url`.
pub async fn get_purchase(id: i64) -> Result<Purchase, ApiError> {
    get_one(&format!("/purchases/{id}"), &[]).await
}

/// POST /purchases (optionally with the document as `file: {filename, base64}`).
pub async fn create_purchase(body: &NewPurchase) -> Result<Purchase, ApiError> {
    send_json(Method::POST, "/purchases", body).await
}

/// PATCH /purchases/{id}/update_status: `pending` or `approved`.
pub async fn update_purchase_status(id: i64, status: PurchaseStatus) -> Result<Purchase, ApiError> {
    let body = serde_json::json!({ "status": status.as_str() });
    send_json(
        Method::PATCH,
        &format!("/purchases/{id}/update_status"),
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
    let key = stored_key().ok_or_else(|| ApiError::local("Please sign in."))?;
    let url = format!(
        "{}/api/v1/purchases/{id}/store_document",
        server_or_origin()
    );
    let failed = |_| ApiError::local("The upload could not be started.");
    let xhr = web_sys::XmlHttpRequest::new().map_err(failed)?;
    xhr.open("PATCH", &url).map_err(failed)?;
    xhr.set_request_header("Authorization", &format!("Token token={key}"))
        .map_err(failed)?;
    xhr.set_request_header("Accept", "application/json")
        .map_err(failed)?;
    let form = web_sys::FormData::new().map_err(failed)?;
    form.append_with_blob_and_filename("file", file, &file.name())
        .map_err(failed)?;
    let on_progress =
        Closure::<dyn Fn(web_sys::ProgressEvent)>::new(move |ev: web_sys::ProgressEvent| {
            if ev.length_computable() && ev.total() > 0.0 {
                progress.set((ev.loaded() / ev.total() * 100.0).round().clamp(0.0, 100.0) as u8);
            }
        });
    xhr.upload()
        .map_err(failed)?
        .set_onprogress(Some(on_progress.as_ref().unchecked_ref()));
    let (done_tx, done_rx) = oneshot::channel::<()>();
    let done_tx = SendWrapper::new(std::cell::RefCell::new(Some(done_tx)));
    let on_end = Closure::<dyn Fn()>::new(move || {
        if let Some(tx) = done_tx.borrow_mut().take() {
            let _ = tx.send(());
        }
    });
    xhr.set_onloadend(Some(on_end.as_ref().unchecked_ref()));
    progress.set(0);
    xhr.send_with_opt_form_data(Some(&form)).map_err(failed)?;
    let _ = done_rx.await;
    drop((on_progress, on_end));
    let status = xhr.status().unwrap_or(0);
    let text = xhr.response_text().ok().flatten().unwrap_or_default();
    match status {
        0 => Err(ApiError::local(format!(
            "The server at {} could not be reached.",
            server_or_origin()
        ))),
        200..=299 => serde_json::from_str(&text)
            .map_err(|e| ApiError::local(format!("The server's answer could not be read ({e})."))),
        _ => Err(error_from_body(status, &text)),
    }
}
