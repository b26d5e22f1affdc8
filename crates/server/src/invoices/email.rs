//! POST /invoices/{id}/send_email: the invoice PDF by e-mail to the given or default
//! recipients (project's billing addresses, else the customer's). Sending marks the
//! invoice `sent` (unless payments already moved it on) and locks it.

use super::repo;
use crate::db::{now, ts};
use crate::documents::{context, invoice_document};
use crate::error::{ApiError, ApiResult};
use crate::extract::{IdPath, JsonBody};
use crate::mail::{self, MailAttachment};
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use kontor_model::effects::after_send;
use kontor_model::email::{SendEmail, SentEmail};
use kontor_model::recipients::invoice_recipients;
use kontor_model::status::InvoiceStatus;

/// POST /invoices/{id}/send_email → 200 `{subject, text, emails_to, emails_cc, emails_bcc}`.
/// Errors: 404; 422 (draft, subject/text missing, no resolvable `emails_to`, invalid
/// address, unknown letter paper); 502 when the mail server refuses (nothing marked sent).
pub async fn send_email(
    State(state): State<AppState>,
    IdPath(id): IdPath,
    JsonBody(body): JsonBody<SendEmail>,
) -> ApiResult<Json<SentEmail>> {
    let invoice = repo::load(&state.pool, id).await?;
    if invoice.status == InvoiceStatus::Draft {
        return Err(ApiError::Refused(
            "A draft cannot be sent; finalize it first.".into(),
        ));
    }
    let project = match invoice.project_id {
        Some(p) => crate::projects::find(&state.pool, p).await?,
        None => None,
    };
    let customer = crate::companies::find(&state.pool, invoice.customer_id).await?;
    let defaults = invoice_recipients(project.as_ref(), customer.as_ref());
    let recipients = mail::resolve(&body, Some(&defaults.to), Some(&defaults.cc))?;
    let paper = state
        .account
        .letter_paper(body.letter_paper_id)
        .ok_or_else(|| ApiError::field("letter_paper_id", "is not a configured letter paper"))?;
    let (account, printed_for) = context(&state, Some(invoice.customer_id)).await?;
    let pdf = crate::pdf_render::render(invoice_document(
        &invoice,
        &account,
        Some(paper),
        &printed_for,
    )?)
    .await?;
    let filename = format!("{}.pdf", invoice.identifier.as_deref().unwrap_or("invoice"));
    let sent = mail::send(
        &state.pool,
        &state.data_dir,
        &body,
        &recipients,
        vec![MailAttachment {
            filename,
            content_type: "application/pdf".into(),
            bytes: pdf,
        }],
    )
    .await?;

    let _guard = state.write_lock.lock().await;
    let (next, locked) = after_send(invoice.status, invoice.locked);
    sqlx::query(
        "UPDATE invoices SET status = ?, locked = ?, ever_sent = 1, updated_at = ? WHERE id = ?",
    )
    .bind(next.as_str())
    .bind(locked)
    .bind(ts(now()))
    .bind(id)
    .execute(&state.pool)
    .await?;
    Ok(Json(sent))
}
