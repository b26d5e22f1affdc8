//! The sent-mail record (issue 33 § Sent mail): list (all, failed, or a document's),
//! resend.

use super::client::{get_page, send_json};
use super::{ApiError, Page};
use gloo_net::http::Method;
use kontor_model::email::{EmailRecord, MailDocumentType, MailState};

/// What a page of the record shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EmailFilter {
    /// One state only (`None`: all).
    pub state: Option<MailState>,
    /// Only failures not sent again since.
    pub open: bool,
    /// One document's messages: an invoice's include its reminders, an offer's its order
    /// confirmations.
    pub document: Option<(MailDocumentType, i64)>,
}

/// GET /emails with `filter`, page `page` (50 a page, newest first).
pub async fn list_emails(filter: EmailFilter, page: u32) -> Result<Page<EmailRecord>, ApiError> {
    let mut query = vec![
        ("per_page".to_string(), "50".to_string()),
        ("page".to_string(), page.to_string()),
    ];
    if let Some(s) = filter.state {
        query.push(("state".into(), s.as_str().into()));
    }
    if filter.open {
        query.push(("open".into(), "true".into()));
    }
    if let Some((kind, id)) = filter.document {
        query.push(("document_type".into(), kind.as_str().into()));
        query.push(("document_id".into(), id.to_string()));
    }
    get_page("/emails", &query).await
}

/// POST /emails/{id}/resend: the new record (502 when the mail server refuses again;
/// 422 when the message was not kept).
pub async fn resend_email(id: i64) -> Result<EmailRecord, ApiError> {
    send_json(Method::POST, &format!("/emails/{id}/resend"), &()).await
}
