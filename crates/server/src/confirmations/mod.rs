//! Order confirmations (issue 31 "order confirmations"; MOCO's `offer_confirmation`;
//! `docs/decisions.md` § Order confirmations): one per accepted offer.
//!
//! - `POST /offers/{id}/offer_confirmation` creates it (or answers the existing one,
//!   retitled when a title is given) → `{id, title, created_at, updated_at}`; the offer
//!   then carries it as `offer_confirmation`.
//! - `GET /offers/{id}/offer_confirmation.pdf`: the confirmation printed ([`document`]).
//! - `POST /offers/{id}/offer_confirmation/send_email`: by e-mail, recipients as for the
//!   offer; a `sent` event (`"document": "offer_confirmation"`) on the offer's timeline.
//! - [`on_signing`] and [`send_after_signing`]: the account setting
//!   `offer_confirmation_on_approval` creates it when the customer signs online and sends
//!   it after the signing.
//!
//! Writes need staff (`crate::access::roles::TABLE`).

pub mod document;
pub mod repo;

use crate::http::caller_context::CallerContext;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{IdPath, OptionalJsonBody, QueryPairs};
use crate::state::AppState;
use crate::store::files::pdf_response;
use axum::extract::State;
use axum::response::Response;
use axum::Json;
use kontor_model::confirmation::OfferConfirmationInput;
use kontor_model::email::{SendEmail, SentEmail};
use kontor_model::offer::OfferConfirmation;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// POST /offers/{id}/offer_confirmation → the offer's order confirmation, created with the
/// body's `title` or the default ("Auftragsbestätigung {identifier}" / "Order confirmation
/// {identifier}" in the customer's language). A second POST keeps the one confirmation
/// and answers it, its title changed when the body gives one. The body is optional.
/// Errors: 404 unknown offer; 422 unless the offer is accepted or partially billed
/// (`offer_not_accepted_for_confirmation`), or naming `title` (over 500 characters).
#[utoipa::path(post, path = "/offers/{id}/offer_confirmation", operation_id = "offer_confirmation_create", tag = "offers",
    params(IdPath), request_body = OfferConfirmationInput,
    responses((status = 200, description = "The order confirmation (new or the existing one)", body = OfferConfirmation)))]
async fn create(
    State(state): State<AppState>,
    IdPath(id): IdPath,
    OptionalJsonBody(body): OptionalJsonBody<OfferConfirmationInput>,
) -> ApiResult<Json<OfferConfirmation>> {
    let title = body
        .unwrap_or_default()
        .check()
        .map_err(ApiError::invalid)?;
    let _guard = state.write_lock.lock().await;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let (confirmation, _) = repo::create_or_retitle(&mut tx, id, title).await?;
    tx.commit().await?;
    Ok(Json(confirmation))
}

/// GET /offers/{id}/offer_confirmation.pdf → the order confirmation as a PDF on a letter
/// paper (`letter_paper_id`; default the white one), `<identifier>-confirmation.pdf`.
/// Errors: 404 unknown offer, no confirmation yet, unknown letter paper.
#[utoipa::path(get, path = "/offers/{id}/offer_confirmation.pdf", operation_id = "offer_confirmation_pdf", tag = "offers",
    params(IdPath, ("letter_paper_id" = Option<i64>, Query, description = "Letter paper of the account's settings; absent or empty: the white letter paper.")),
    responses((status = 200, description = "The order confirmation as a PDF.", content_type = "application/pdf")))]
async fn pdf(
    State(state): State<AppState>,
    IdPath(id): IdPath,
    query: QueryPairs,
) -> ApiResult<Response> {
    let paper = crate::offers::offer_paper(&state, &query)?;
    let (bytes, name, _) = document::confirmation_pdf(&state, id, Some(paper)).await?;
    Ok(pdf_response(bytes, &name))
}

/// POST /offers/{id}/offer_confirmation/send_email → the confirmation PDF by e-mail to the
/// given or default recipients (as the offer's: the contact person's e-mail, else the
/// company's); subject and text default to the confirmation's title and a short text in
/// the customer's language. A `sent` event on the offer's timeline. Errors: 404 (offer,
/// confirmation); 422 (no resolvable `emails_to`, invalid address, unknown
/// `letter_paper_id`); 502 when the mail server refuses.
#[utoipa::path(post, path = "/offers/{id}/offer_confirmation/send_email", operation_id = "offer_confirmation_send_email", tag = "offers",
    params(IdPath), request_body = SendEmail,
    responses((status = 200, description = "The message as sent, with the recipients used.", body = SentEmail),
        (status = 502, description = "The mail server refused the message or could not be reached.", body = kontor_model::error::ErrorBody)))]
async fn send_email(
    CallerContext(state, caller, _): CallerContext,
    IdPath(id): IdPath,
    OptionalJsonBody(body): OptionalJsonBody<SendEmail>,
) -> ApiResult<Json<SentEmail>> {
    let body = body.unwrap_or_default();
    let sent = document::send(&state, Some(caller.user_id), id, body, None).await?;
    Ok(Json(sent))
}

/// The routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create))
        .routes(routes!(pdf))
        .routes(routes!(send_email))
}

/// Inside an online signing's transaction, after the offer became accepted: creates the
/// offer's confirmation (default title) when the account's `offer_confirmation_on_approval`
/// is on. Returns whether it did. Errors: the database's (the signing fails with them).
pub async fn on_signing(tx: &mut crate::sql::Tx, offer_id: i64) -> ApiResult<bool> {
    let on: bool = crate::sql::query_scalar(
        "SELECT offer_confirmation_on_approval FROM account_settings WHERE id = 1",
    )
    .fetch_optional(&mut *tx)
    .await?
    .unwrap_or(false);
    if !on {
        return Ok(false);
    }
    repo::create_or_retitle(tx, offer_id, None).await?;
    Ok(true)
}

/// After an online signing has committed (in the background, like the approval's own
/// e-mails): e-mails the confirmation [`on_signing`] created to the offer's default
/// recipients, else to the signer's `signer_email`. Does nothing when the setting is off or
/// there is no confirmation; a failure is logged, the signing stands.
pub async fn send_after_signing(state: AppState, offer_id: i64, signer_email: Option<String>) {
    let on = crate::account::repo::load(&state.pool)
        .await
        .map(|s| s.account.offer_confirmation_on_approval)
        .unwrap_or(false);
    if !on {
        return;
    }
    let sent = document::send(
        &state,
        None,
        offer_id,
        SendEmail::default(),
        signer_email.as_deref(),
    )
    .await;
    if let Err(e) = sent {
        tracing::warn!(offer = offer_id, error = ?e, "the order confirmation after an online approval was not sent");
    }
}
