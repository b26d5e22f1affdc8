//! Offers: list, get, create, change the status, the PDF, send by e-mail, and the
//! attachments (upload with progress, list, delete).

use super::client::{
    delete_empty, get_all_pages, get_one, get_page, request_pdf, send_json, to_json,
};
use super::invoice_documents::Paper;
use super::upload::{send_with_progress, UploadBody};
use super::{ApiError, Page};
use gloo_net::http::Method;
use kontor_model::email::{SendEmail, SentEmail};
use kontor_model::offer::{Attachment, FileUpload, NewAttachment, NewOffer, Offer, OfferStatus};
use kontor_model::query::{ListFilter, ListSummary, OfferFilter};
use leptos::prelude::RwSignal;
use web_sys::Blob;

/// GET /offers with the filter, paging and sorting of `filter` (no items).
pub async fn list_offers(filter: &OfferFilter) -> Result<Page<Offer>, ApiError> {
    get_page("/offers", &filter.to_pairs()).await
}

/// GET /offers/summary with the filters of `filter` (paging and sorting ignored by the
/// server): count, net and gross per currency over every matching offer (no open amount).
pub async fn get_offer_summary(filter: &OfferFilter) -> Result<ListSummary, ApiError> {
    get_one("/offers/summary", &filter.to_pairs()).await
}

/// GET /offers/{id}: the offer with items, company, project, deal, contact and user.
pub async fn get_offer(id: i64) -> Result<Offer, ApiError> {
    get_one(&format!("/offers/{id}"), &[]).await
}

/// POST /offers (422 on `company_id` without company, deal or project; on `currency`
/// when it differs from the project's or deal's).
pub async fn create_offer(body: &NewOffer) -> Result<Offer, ApiError> {
    send_json(Method::POST, "/offers", body).await
}

/// PUT /offers/{id}: replaces the offer with `body` (the creation body); 422 unless the
/// offer is created or sent (`model::edit::offer_edit_refusal`).
pub async fn update_offer(id: i64, body: &NewOffer) -> Result<Offer, ApiError> {
    send_json(Method::PUT, &format!("/offers/{id}"), body).await
}

/// DELETE /offers/{id}: 422 unless the offer was never sent (status created).
pub async fn delete_offer(id: i64) -> Result<(), ApiError> {
    delete_empty(&format!("/offers/{id}")).await
}

/// POST /offers/{id}/copy: answers a new offer (status created) with the same customer,
/// positions, texts and tags, dated today.
pub async fn copy_offer(id: i64) -> Result<Offer, ApiError> {
    send_json(Method::POST, &format!("/offers/{id}/copy"), &()).await
}

/// PUT /offers/{id}/update_status: any of the six states.
pub async fn update_offer_status(id: i64, status: OfferStatus) -> Result<Offer, ApiError> {
    let body = serde_json::json!({ "status": status.as_str() });
    send_json(Method::PUT, &format!("/offers/{id}/update_status"), &body).await
}

/// GET /offers/{id}.pdf on `paper` (default: the white paper). `Paper::Blank` is sent
/// as the default, since offers know no blank paper.
pub async fn get_offer_pdf(id: i64, paper: Paper) -> Result<Blob, ApiError> {
    let query = match paper {
        Paper::Id(_) => paper.to_pairs(),
        _ => Vec::new(),
    };
    request_pdf(Method::GET, &format!("/offers/{id}.pdf"), &query, None).await
}

/// POST /offers/{id}/send_email: the PDF and the attachments by e-mail; 422
/// (`errors.emails_to`) without a recipient.
pub async fn send_offer_email(id: i64, body: &SendEmail) -> Result<SentEmail, ApiError> {
    send_json(Method::POST, &format!("/offers/{id}/send_email"), body).await
}

/// GET /offers/{id}/attachments: every attachment (all pages).
pub async fn list_offer_attachments(id: i64) -> Result<Vec<Attachment>, ApiError> {
    get_all_pages(&format!("/offers/{id}/attachments")).await
}

/// POST /offers/{id}/attachments with `{attachment: {filename, base64}}`; `progress`
/// follows the upload (percent). A file that is not a PDF or too large is a 422 on
/// `attachment.base64`.
pub async fn create_offer_attachment(
    id: i64,
    filename: String,
    base64: String,
    progress: RwSignal<u8>,
) -> Result<Attachment, ApiError> {
    let body = NewAttachment {
        attachment: Some(FileUpload {
            filename: Some(filename),
            base64: Some(base64),
        }),
    };
    let json = UploadBody::Json(to_json(&body)?);
    send_with_progress("POST", &format!("/offers/{id}/attachments"), json, progress).await
}

/// DELETE /offers/{offer_id}/attachments/{id} (the file is removed).
pub async fn delete_offer_attachment(offer_id: i64, id: i64) -> Result<(), ApiError> {
    delete_empty(&format!("/offers/{offer_id}/attachments/{id}")).await
}
