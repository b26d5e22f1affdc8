//! POST /purchases/{id}/correction_request (issue 36, "Ask for a corrected invoice"): an
//! e-mail to the seller of an imported e-invoice listing every finding of Kontor's EN 16931
//! check (`kontor_model::einvoice_check::correction_request` writes it), as the BMF letter
//! of 15 October 2025 expects the recipient to tell the sender what is wrong.

use super::repo;
use crate::events::{self, Subject};
use crate::http::caller_context::CallerContext;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{IdPath, OptionalJsonBody};
use crate::work::mail::{self, Recipients};
use axum::Json;
use kontor_model::einvoice_check::{correction_request as request_text, EinvoiceCheck};
use kontor_model::email::{is_address, SendEmail, SentEmail};
use kontor_model::error::messages;
use kontor_model::event::{to_data, EventKind};
use serde::Deserialize;

/// The body (optional): where to and in which language.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
pub struct CorrectionRequest {
    /// The recipient; default: the document's seller e-mail (BT-43, or an `EM` electronic
    /// address BT-34), else the sender of the inbox message the document came with.
    #[serde(default)]
    pub to: Option<String>,
    /// `de` or `en`; default: the caller's `Accept-Language` (German when it prefers `de`).
    #[serde(default)]
    pub language: Option<String>,
}

/// Ask the seller for a corrected invoice.
///
/// POST /purchases/{id}/correction_request `{to?, language?}` → 200 with the message sent
/// (`{subject, text, emails_to, …}`), listing every finding (rule, business term, what is
/// wrong) in plain German or English; recorded on the purchase's timeline (`sent`) and in
/// the sent mail. Errors: 404; 422 when the purchase has no findings; 422 on `to` when no
/// address is known or it is none; 422 when the account has no sender address; 502 when
/// the mail server refuses or cannot be reached.
#[utoipa::path(post, path = "/purchases/{id}/correction_request", operation_id = "purchases_correction_request", tag = "purchases",
    params(IdPath), request_body(content = Option<CorrectionRequest>, content_type = "application/json", description = "Optional: `to` (default: the seller's e-mail from the document, else the inbox message's sender) and `language` (`de`/`en`, default: Accept-Language)."),
    responses((status = 200, description = "The request was sent; the message as sent.", body = SentEmail)))]
pub async fn correction_request(
    CallerContext(state, caller, _base): CallerContext,
    headers: axum::http::HeaderMap,
    IdPath(id): IdPath,
    OptionalJsonBody(body): OptionalJsonBody<CorrectionRequest>,
) -> ApiResult<Json<SentEmail>> {
    let body = body.unwrap_or_default();
    let row = repo::load_row(&state.pool, id).await?;
    let check: Option<EinvoiceCheck> = row
        .einvoice_check
        .as_deref()
        .and_then(|c| serde_json::from_str(c).ok());
    let Some(check) = check.filter(|c| !c.findings.is_empty()) else {
        return Err(ApiError::Refused(
            messages::EINVOICE_NOTHING_TO_CORRECT.into(),
        ));
    };
    let to = body
        .to
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .or_else(|| row.einvoice_reply_to.clone())
        .ok_or_else(|| ApiError::field("to", messages::EINVOICE_NO_REPLY_ADDRESS))?;
    if !is_address(&to) {
        return Err(ApiError::field(
            "to",
            messages::N_IS_NOT_E_MAIL_ADDRESS.with([&to]),
        ));
    }
    let german = match body.language.as_deref() {
        Some(l) => l.eq_ignore_ascii_case("de"),
        None => headers
            .get(axum::http::header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| kontor_model::error_text::language(v) == "de"),
    };
    let purchase = repo::load(&state, "", id).await?;
    let account = crate::account::repo::load(&state.pool).await?.account;
    let date = if german {
        purchase.date.format("%d.%m.%Y").to_string()
    } else {
        purchase.date.format("%Y-%m-%d").to_string()
    };
    let (subject, text) = request_text(
        &check,
        &purchase.receipt_identifier,
        &date,
        &account.name,
        german,
    );
    let message = SendEmail {
        subject: Some(subject),
        text: Some(text),
        ..SendEmail::default()
    };
    let recipients = Recipients {
        to: vec![to],
        cc: Vec::new(),
        bcc: Vec::new(),
    };
    let delivered = mail::send_with_id(
        &state,
        &message,
        &recipients,
        Vec::new(),
        crate::sent_mail::record::Record::other(Some(caller.user_id)),
    )
    .await?;
    let _guard = state.write_lock.lock().await;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    events::record_as(
        &mut tx,
        Some(caller.user_id),
        Subject::Purchase(id),
        EventKind::Sent,
        to_data(&delivered.event_data(&recipients)),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(delivered.sent))
}
