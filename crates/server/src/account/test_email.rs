//! POST /account/test_email `{"to"}` (issue 9, the Settings page's "Send test e-mail"):
//! a short message through the stored mail settings, so a wrong host, port or password
//! shows at once. SMTP when set, else the outbox, exactly like documents are sent.

use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::JsonBody;
use crate::state::AppState;
use crate::work::mail::{self, Recipients};
use axum::extract::State;
use axum::Json;
use kontor_model::email::{is_address, split_addresses, SendEmail};
use kontor_model::error::messages;
use serde::{Deserialize, Serialize};

/// Most recipients of one test message.
const MAX_RECIPIENTS: usize = 10;

/// The body: `to`, one address or a `;`-separated list.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct TestEmail {
    /// Recipients.
    #[serde(default)]
    pub to: Option<String>,
}

/// The answer: the recipients used, `;`-separated.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TestEmailSent {
    /// Recipients, `;`-separated.
    pub emails_to: String,
}

/// POST /account/test_email → 200 `{"emails_to"}`: a short message in the caller's
/// language (`Accept-Language`: German when it prefers `de`, else English). Errors: 403 (read-only key), 422 on
/// `to` (missing, not an address, more than 10), 502 when the mail server refuses or
/// cannot be reached (the message says why; the password never appears).
#[utoipa::path(post, path = "/account/test_email", operation_id = "account_test_email", tag = "account",
    request_body = TestEmail,
    responses((status = 200, description = "Sent; the recipients used", body = TestEmailSent),
        (status = 502, description = "The mail server refused the message or cannot be reached", body = kontor_model::error::ErrorBody)))]
pub async fn send_test_email(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    JsonBody(body): JsonBody<TestEmail>,
) -> ApiResult<Json<TestEmailSent>> {
    // In the caller's language (issue 34: every text in German mode is German).
    let german = headers
        .get(axum::http::header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| kontor_model::error_text::language(v) == "de");
    let to = split_addresses(body.to.as_deref().unwrap_or(""));
    if to.is_empty() {
        return Err(ApiError::field("to", messages::IS_REQUIRED));
    }
    if to.len() > MAX_RECIPIENTS {
        return Err(ApiError::field(
            "to",
            messages::MAY_LIST_AT_MOST_N_ADDRESSES.with([MAX_RECIPIENTS]),
        ));
    }
    if let Some(bad) = to.iter().find(|a| !is_address(a)) {
        return Err(ApiError::field(
            "to",
            messages::N_IS_NOT_E_MAIL_ADDRESS.with([bad]),
        ));
    }
    let (subject, text) = if german {
        (
            "Kontor: Test-E-Mail",
            "Dies ist eine Testnachricht aus den Einstellungen von Kontor. \
             Wenn Sie sie lesen können, funktioniert der E-Mail-Versand.",
        )
    } else {
        (
            "Kontor: test e-mail",
            "This is a test message from Kontor's Settings page. \
             If you can read it, sending e-mail works.",
        )
    };
    let message = SendEmail {
        subject: Some(subject.into()),
        text: Some(text.into()),
        ..SendEmail::default()
    };
    let recipients = Recipients {
        to,
        cc: Vec::new(),
        bcc: Vec::new(),
    };
    let sent = mail::send(
        &state,
        &message,
        &recipients,
        Vec::new(),
        crate::sent_mail::record::Record::other(None),
    )
    .await?;
    Ok(Json(TestEmailSent {
        emails_to: sent.emails_to,
    }))
}
