//! POST /invoices/{id}/send_email: the invoice PDF by e-mail to the given or default
//! recipients (project's billing addresses, else the customer's). Sending marks the
//! invoice `sent` (unless payments already moved it on) and locks it.

use super::repo;
use crate::db::{now, ts};
use crate::documents::invoice_document;
use crate::error::{ApiError, ApiResult};
use crate::extract::{IdPath, JsonBody};
use crate::mail::{self, MailAttachment};
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use kontor_model::email::{SendEmail, SentEmail};
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
    let (mut to, mut cc) = (None, None);
    if let Some(project) = match invoice.project_id {
        Some(p) => crate::projects::find(&state.pool, p).await?,
        None => None,
    } {
        to = project.billing_email_to.filter(|s| !s.trim().is_empty());
        cc = project.billing_email_cc.filter(|s| !s.trim().is_empty());
    }
    if to.is_none() {
        if let Some(customer) = crate::companies::find(&state.pool, invoice.customer_id).await? {
            to = customer.email;
            cc = cc.or(customer.billing_email_cc);
        }
    }
    let recipients = mail::resolve(&body, to.as_deref(), cc.as_deref())?;
    let paper = state
        .account
        .letter_paper(body.letter_paper_id)
        .ok_or_else(|| ApiError::field("letter_paper_id", "is not a configured letter paper"))?;
    let pdf = super::pdf::render(invoice_document(&invoice, &state.account, Some(paper))).await?;
    let filename = format!("{}.pdf", invoice.identifier.as_deref().unwrap_or("invoice"));
    let sent = mail::send(
        &state.account,
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
    let next = match invoice.status {
        InvoiceStatus::Created | InvoiceStatus::Overdue | InvoiceStatus::Ignored => {
            InvoiceStatus::Sent
        }
        other => other,
    };
    sqlx::query(
        "UPDATE invoices SET status = ?, locked = 1, ever_sent = 1, updated_at = ? WHERE id = ?",
    )
    .bind(next.as_str())
    .bind(ts(now()))
    .bind(id)
    .execute(&state.pool)
    .await?;
    Ok(Json(sent))
}
