//! POST /invoices/{id}/send_email: the invoice PDF by e-mail to the given or default
//! recipients (project's billing addresses, else the customer's). Sending marks the
//! invoice `sent` (unless payments already moved it on) and locks it.

use super::einvoice::{self, Syntax};
use super::repo;
use crate::events::{self, Subject};
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::IdPath;
use crate::http::write_request::WriteTo;
use crate::state::AppState;
use crate::store::db::{now, ts};
use crate::work::mail::{self, MailAttachment};
use axum::Json;
use kontor_einvoice::semantic::Specification;
use kontor_model::effects::after_send;
use kontor_model::email::{SendEmail, SentEmail};
use kontor_model::error::messages;
use kontor_model::invoice::Invoice;
use kontor_model::party::{Company, EinvoiceFormat};
use kontor_model::recipients::invoice_recipients;
use kontor_model::status::InvoiceStatus;

/// The XRechnung XML attached for a customer whose `einvoice_format` is `xrechnung_cii` or
/// `xrechnung_ubl` (the PDF stays attached as a readable copy); `None` for `pdf` customers.
/// Errors: 422 naming the missing fields when the XRechnung cannot be written (nothing is
/// sent).
async fn xrechnung_attachment(
    state: &AppState,
    invoice: &Invoice,
    customer: Option<&Company>,
) -> ApiResult<Option<MailAttachment>> {
    let syntax = match customer.map(|c| c.einvoice_format) {
        Some(EinvoiceFormat::XrechnungCii) => Syntax::Cii,
        Some(EinvoiceFormat::XrechnungUbl) => Syntax::Ubl,
        _ => return Ok(None),
    };
    let records = einvoice::records_of(state, invoice.clone()).await?;
    let bytes = einvoice::xml(&records, syntax, Specification::XRechnung)
        .map_err(|m| einvoice::refusal(&m))??;
    Ok(Some(MailAttachment {
        filename: format!("{}.xml", invoice.identifier.as_deref().unwrap_or("invoice")),
        content_type: "application/xml".into(),
        bytes,
    }))
}

/// The recipients of an e-mail about `invoice` (the invoice itself or one of its
/// reminders): `body`'s addresses, else the defaults of [`invoice_recipients`] (the
/// project's billing addresses, else the customer's); with the customer record.
/// Errors: 422 when no `emails_to` can be resolved or an address is invalid.
pub async fn recipients_of(
    state: &AppState,
    invoice: &Invoice,
    body: &SendEmail,
) -> ApiResult<(mail::Recipients, Option<Company>)> {
    let project = match invoice.project_id {
        Some(p) => crate::master_data::projects::find(&state.pool, p).await?,
        None => None,
    };
    let customer = crate::master_data::companies::find(&state.pool, invoice.customer_id).await?;
    let defaults = invoice_recipients(project.as_ref(), customer.as_ref());
    let recipients = mail::resolve(body, Some(&defaults.to), Some(&defaults.cc))?;
    Ok((recipients, customer))
}

/// The letter paper an e-mail about an invoice (the invoice itself or one of its
/// reminders) prints on: `body`'s `letter_paper_id`, else the default paper
/// ([`crate::config::AccountConfig::letter_paper`]). Errors: 422 on `letter_paper_id` for
/// a paper that is not configured.
pub fn mail_paper<'a>(
    state: &'a AppState,
    body: &SendEmail,
) -> ApiResult<&'a crate::config::LetterPaperConfig> {
    state
        .account
        .letter_paper(body.letter_paper_id)
        .ok_or_else(|| ApiError::field("letter_paper_id", messages::IS_NOT_CONFIGURED_LETTER_PAPER))
}

/// POST /invoices/{id}/send_email → 200 `{subject, text, emails_to, emails_cc, emails_bcc}`.
/// Errors: 404; 422 (draft, subject/text missing, no resolvable `emails_to`, invalid
/// address, unknown letter paper, an XRechnung customer's invoice that cannot be written
/// as XRechnung); 502 when the mail server refuses (nothing marked sent).
#[utoipa::path(post, path = "/invoices/{id}/send_email", operation_id = "invoices_send_email", tag = "invoices",
    params(IdPath), request_body = SendEmail,
    responses((status = 200, description = "The message as sent and the recipients used", body = SentEmail),
        (status = 502, description = "The mail server refused the message or could not be reached; nothing was marked sent", body = kontor_model::error::ErrorBody)))]
pub async fn send_email(
    WriteTo(state, caller, id, body): WriteTo<SendEmail>,
) -> ApiResult<Json<SentEmail>> {
    Ok(Json(
        send_invoice(&state, id, &body, Some(caller.user_id)).await?,
    ))
}

/// Sends invoice `id` as [`send_email`] does, on behalf of `user_id` (`None`: the server's
/// own jobs), with `{payment_reference}` filled in (issue 32): marks it sent and records the `sent` event (recipients, subject, Message-ID)
/// in one transaction after the mail server accepted the message.
/// Errors: as [`send_email`].
pub async fn send_invoice(
    state: &AppState,
    id: i64,
    body: &SendEmail,
    user_id: Option<i64>,
) -> ApiResult<SentEmail> {
    let invoice = repo::load(&state.pool, id).await?;
    if invoice.status == InvoiceStatus::Draft {
        return Err(ApiError::Refused(
            kontor_model::error::messages::DRAFT_NOT_SENDABLE.into(),
        ));
    }
    // `{payment_reference}` in the subject or text (issue 32).
    let mut body = body.clone();
    for t in [&mut body.subject, &mut body.text].into_iter().flatten() {
        *t = kontor_model::payment_reference::fill_placeholder(
            t,
            invoice.payment_reference.as_deref(),
        );
    }
    let body = &body;
    let (recipients, customer) = recipients_of(state, &invoice, body).await?;
    let paper = mail_paper(state, body)?;
    let pdf = super::pdf::invoice_pdf_bytes(state, &invoice, Some(paper)).await?;
    let filename = format!("{}.pdf", invoice.identifier.as_deref().unwrap_or("invoice"));
    let mut attachments = vec![MailAttachment {
        filename,
        content_type: "application/pdf".into(),
        bytes: pdf,
    }];
    if let Some(xml) = xrechnung_attachment(state, &invoice, customer.as_ref()).await? {
        attachments.push(xml);
    }
    let delivered = mail::send_with_id(
        state,
        body,
        &recipients,
        attachments,
        crate::sent_mail::record::Record::document(
            kontor_model::email::MailDocumentType::Invoice,
            id,
            user_id,
        ),
    )
    .await?;

    mark_sent(state, id, user_id, &delivered.event_data(&recipients)).await?;
    Ok(delivered.sent)
}

/// Marks invoice `id` sent after a message carrying it left (`after_send`: `sent` and
/// locked) and records the `sent` event with `data`, in one transaction, on behalf of
/// `user_id` (also when a failed message is sent again, `crate::sent_mail`).
/// Errors: 404 when it is gone; 500 on database failure.
pub async fn mark_sent(
    state: &AppState,
    id: i64,
    user_id: Option<i64>,
    data: &kontor_model::event::SentData,
) -> ApiResult<()> {
    let invoice = repo::load(&state.pool, id).await?;
    let _guard = state.write_lock.lock().await;
    let (next, locked) = after_send(invoice.status, invoice.locked);
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    crate::sql::query(
        "UPDATE invoices SET status = $1, locked = $2, ever_sent = TRUE, updated_at = $3 WHERE id = $4",
    )
    .bind(next.as_str())
    .bind(locked)
    .bind(ts(now()))
    .bind(id)
    .execute(&mut tx)
    .await?;
    events::record_sent(&mut tx, user_id, Subject::Invoice(id), data).await?;
    tx.commit().await?;
    Ok(())
}
