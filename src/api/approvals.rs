//! Online approval and order confirmations (issue 31, `docs/decisions.md` § Online
//! approval, § Order confirmations).
//!
//! Staff side (with the stored key): read, activate and deactivate an offer's approval
//! link; create, fetch (PDF) and send its order confirmation. Public side (no key, no
//! session: the token in the page's address is the only credential): read the offer as
//! the customer sees it, sign, decline.

use super::client::{get_one, request_open, request_pdf, send_json, to_json};
use super::invoice_documents::Paper;
use super::ApiError;
use gloo_net::http::Method;
use kontor_model::approval::{
    CustomerApprovalDetail, DeclineApproval, PublicApproval, SignApproval,
};
use kontor_model::email::{SendEmail, SentEmail};
use kontor_model::offer::OfferConfirmation;
use leptos::prelude::window;
use serde::de::DeserializeOwned;
use web_sys::Blob;

/// GET /offers/{id}/customer_approval: the approval link and its state; `None` while it
/// was never activated (the server's 404).
pub async fn get_customer_approval(
    offer_id: i64,
) -> Result<Option<CustomerApprovalDetail>, ApiError> {
    match get_one(&format!("/offers/{offer_id}/customer_approval"), &[]).await {
        Ok(detail) => Ok(Some(detail)),
        Err(e) if e.status == 404 => Ok(None),
        Err(e) => Err(e),
    }
}

/// POST /offers/{id}/customer_approval/activate: creates the link or makes it work
/// again (the same link); 403 for read-only keys.
pub async fn activate_customer_approval(offer_id: i64) -> Result<CustomerApprovalDetail, ApiError> {
    send_json(
        Method::POST,
        &format!("/offers/{offer_id}/customer_approval/activate"),
        &(),
    )
    .await
}

/// POST /offers/{id}/customer_approval/deactivate: the link stops working at once.
pub async fn deactivate_customer_approval(
    offer_id: i64,
) -> Result<CustomerApprovalDetail, ApiError> {
    send_json(
        Method::POST,
        &format!("/offers/{offer_id}/customer_approval/deactivate"),
        &(),
    )
    .await
}

/// POST /offers/{id}/offer_confirmation with the default title: the order confirmation
/// (new, or the one the offer has); 422 unless the offer is accepted or partially billed.
pub async fn create_offer_confirmation(offer_id: i64) -> Result<OfferConfirmation, ApiError> {
    send_json(
        Method::POST,
        &format!("/offers/{offer_id}/offer_confirmation"),
        &serde_json::json!({}),
    )
    .await
}

/// GET /offers/{id}/offer_confirmation.pdf on `paper` (default: the white paper).
pub async fn get_offer_confirmation_pdf(offer_id: i64, paper: Paper) -> Result<Blob, ApiError> {
    let query = match paper {
        Paper::Id(_) => paper.to_pairs(),
        _ => Vec::new(),
    };
    request_pdf(
        Method::GET,
        &format!("/offers/{offer_id}/offer_confirmation.pdf"),
        &query,
        None,
    )
    .await
}

/// POST /offers/{id}/offer_confirmation/send_email: the confirmation PDF by e-mail;
/// 422 (`errors.emails_to`) without a recipient, 502 when the mail server refuses.
pub async fn send_offer_confirmation_email(
    offer_id: i64,
    body: &SendEmail,
) -> Result<SentEmail, ApiError> {
    send_json(
        Method::POST,
        &format!("/offers/{offer_id}/offer_confirmation/send_email"),
        body,
    )
    .await
}

/// The server of a public page: always this page's origin (the approval link was built
/// by the server that serves the bundle; a key stored for another server is not used).
fn public_server() -> String {
    window().location().origin().unwrap_or_default()
}

/// A public request: `method /customer_approvals/{token}{tail}` without credentials. A
/// 429 answers the server's message with the `Retry-After` seconds filled in.
async fn public<T: DeserializeOwned>(
    method: Method,
    token: &str,
    tail: &str,
    body: Option<String>,
) -> Result<T, ApiError> {
    let path = format!("/customer_approvals/{}{tail}", path_token(token));
    let text = request_open(&public_server(), method, &path, body)
        .await
        .map_err(|(e, _)| e)?;
    serde_json::from_str(&text).map_err(|e| ApiError::local(e.to_string()))
}

/// The token as it may appear in a path: only letters, digits, `-` and `_` are kept (a
/// token is hex; anything else cannot name an approval and must not change the path).
fn path_token(token: &str) -> String {
    token
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect()
}

/// GET /customer_approvals/{token}: the offer as the customer sees it; 404 for an
/// unknown or deactivated link, 429 when asked too often.
pub async fn get_public_approval(token: &str) -> Result<PublicApproval, ApiError> {
    public(Method::GET, token, "", None).await
}

/// POST /customer_approvals/{token}/sign; 422 naming the field (`customer_full_name`,
/// `customer_email`, `accepted_terms`, `signature`, `optional_item_ids`) or saying why
/// the offer cannot be signed, 409 when it was signed already.
pub async fn sign_public_approval(
    token: &str,
    body: &SignApproval,
) -> Result<PublicApproval, ApiError> {
    public(Method::POST, token, "/sign", Some(to_json(body)?)).await
}

/// POST /customer_approvals/{token}/decline; 422 naming `customer_full_name` or `reason`.
pub async fn decline_public_approval(
    token: &str,
    body: &DeclineApproval,
) -> Result<PublicApproval, ApiError> {
    public(Method::POST, token, "/decline", Some(to_json(body)?)).await
}

/// The public PDF's address (`document_url` of the answer is server-relative).
pub fn public_document_href(document_url: &str) -> String {
    format!("{}{document_url}", public_server())
}
