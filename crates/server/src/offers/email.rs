//! POST /offers/{id}/send_email: the offer PDF and its attachments by e-mail to the given
//! or default recipients (the model's `offer_recipients`: the contact person's e-mail,
//! else the company's; no CC).

use super::repo;
use crate::events::{self, Subject};
use crate::http::caller_context::CallerContext;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{IdPath, JsonBody};
use crate::store::db::{now, ts};
use crate::work::mail::{self, MailAttachment};
use axum::Json;
use kontor_model::email::{SendEmail, SentEmail};
use kontor_model::error::messages;
use kontor_model::offer::OfferStatus;
use kontor_model::recipients::offer_recipients;

/// Send an offer by e-mail.
///
/// POST /offers/{id}/send_email → 200 `{subject, text, emails_to, emails_cc, emails_bcc}`.
/// `{approval_url}` in the subject or text becomes the offer's online approval link
/// (issue 31). Errors: 404; 422 (subject/text missing, no resolvable `emails_to`, invalid
/// address; `text` naming `{approval_url}` while the approval is not active); 502 when
/// the mail server refuses.
#[utoipa::path(post, path = "/offers/{id}/send_email", operation_id = "offers_send_email", tag = "offers",
    params(IdPath), request_body = SendEmail,
    responses((status = 200, description = "The message as sent, with the recipients used.", body = SentEmail),
        (status = 502, description = "The mail server refused the message or could not be reached.", body = kontor_model::error::ErrorBody)))]
pub async fn send_email(
    CallerContext(state, caller, _): CallerContext,
    headers: axum::http::HeaderMap,
    IdPath(id): IdPath,
    JsonBody(body): JsonBody<SendEmail>,
) -> ApiResult<Json<SentEmail>> {
    let offer = repo::load(&state.pool, id).await?;
    let body = crate::approvals::staff::fill_approval_url(&state, &headers, id, body).await?;
    let contact_email = match &offer.contact {
        Some(contact) => crate::master_data::contacts::find(&state.pool, contact.id)
            .await?
            .and_then(|p| p.email),
        None => None,
    };
    let company = match &offer.company {
        Some(company) => crate::master_data::companies::find(&state.pool, company.id).await?,
        None => None,
    };
    let defaults = offer_recipients(contact_email.as_deref(), company.as_ref());
    let recipients = mail::resolve(&body, Some(&defaults.to), Some(&defaults.cc))?;
    let paper = match body.letter_paper_id {
        Some(p) => state.account.letter_paper(Some(p)).ok_or_else(|| {
            ApiError::field("letter_paper_id", messages::IS_NOT_CONFIGURED_LETTER_PAPER)
        })?,
        None => state
            .account
            .white_letter_paper()
            .ok_or_else(|| ApiError::Internal("no letter paper".into()))?,
    };
    let (pdf, filename) = super::pdf::offer_pdf(&state, id, Some(paper)).await?;
    let mut files = vec![MailAttachment {
        filename,
        content_type: "application/pdf".into(),
        bytes: pdf,
    }];
    files.extend(super::attachments::read_all(&state, id).await?);
    let delivered = mail::send_with_id(
        &state,
        &body,
        &recipients,
        files,
        crate::sent_mail::record::Record::document(
            kontor_model::email::MailDocumentType::Offer,
            id,
            Some(caller.user_id),
        ),
    )
    .await?;
    let data = delivered.event_data(&recipients);
    let user = Some(caller.user_id);
    // Sent (or put in the outbox) like an invoice: a created offer becomes `sent`
    // (issue 34, `OfferStatus::after_sending`), with the `sent` event in one transaction.
    let _guard = state.write_lock.lock().await;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let current: Option<String> =
        crate::sql::query_scalar("SELECT status FROM offers WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut tx)
            .await?;
    if let Some(current) = current.as_deref().and_then(OfferStatus::parse) {
        let next = current.after_sending();
        if next != current {
            crate::sql::query("UPDATE offers SET status = $1, updated_at = $2 WHERE id = $3")
                .bind(next.as_str())
                .bind(ts(now()))
                .bind(id)
                .execute(&mut tx)
                .await?;
        }
    }
    events::record_sent(&mut tx, user, Subject::Offer(id), &data).await?;
    tx.commit().await?;
    Ok(Json(delivered.sent))
}
