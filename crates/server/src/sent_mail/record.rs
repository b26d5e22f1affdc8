//! How a sent message is recorded (issue 33 § Sent mail): [`record`] writes one row of
//! `emails` after each hand-over (`crate::work::mail::send_with_id`), keeping the message
//! for resending when it carries a document.

use crate::http::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::store::db::{now, ts};
use crate::store::storage::Area;
use kontor_model::email::{MailDocumentType, MailState, MailTransport};

/// How a message is recorded: the document it carries (`None` for other mail), whether
/// its bytes are kept for resending (not for mail carrying a password link), and who sent
/// it (`None`: the server's own jobs).
#[derive(Clone, Debug, Default)]
pub struct Record {
    /// The document: type and the invoice's or offer's id.
    pub document: Option<(MailDocumentType, i64)>,
    /// Keep the message to send it again.
    pub keep: bool,
    /// The user who sent it.
    pub user_id: Option<i64>,
}

impl Record {
    /// A message carrying `kind` of record `id`, kept for resending, sent by `user_id`.
    pub fn document(kind: MailDocumentType, id: i64, user_id: Option<i64>) -> Self {
        Record {
            document: Some((kind, id)),
            keep: true,
            user_id,
        }
    }

    /// A message about no document, not kept (it may carry a secret link).
    pub fn other(user_id: Option<i64>) -> Self {
        Record {
            document: None,
            keep: false,
            user_id,
        }
    }
}

/// A message as handed over, for its record.
pub struct Message<'a> {
    /// The sender's address.
    pub sender: &'a str,
    /// Its recipients (To).
    pub to: &'a [String],
    /// Copies (Cc).
    pub cc: &'a [String],
    /// Blind copies (Bcc), kept for resending only.
    pub bcc: &'a [String],
    /// Its subject.
    pub subject: &'a str,
    /// Its `Message-ID` header value.
    pub message_id: &'a str,
    /// The formatted message (RFC 5322 bytes).
    pub raw: &'a [u8],
}

/// Writes the record of `message` delivered with `outcome` (transport, or the error the
/// sender gets) and returns its id. A record that cannot be written is logged and answers
/// `None`: the message has left (or failed) either way, and the sender's answer says so.
pub async fn record(
    state: &AppState,
    how: &Record,
    message: &Message<'_>,
    outcome: &ApiResult<MailTransport>,
) -> Option<i64> {
    match write_record(state, how, message, outcome, None).await {
        Ok(id) => Some(id),
        Err(e) => {
            tracing::warn!(error = ?e, "the sent-mail record could not be written");
            None
        }
    }
}

/// The transport a failed hand-over used and the sentence it was answered: a 502 is the
/// SMTP server's (its sentence), anything else the outbox's.
fn failure(e: &ApiError) -> (MailTransport, String) {
    match e {
        ApiError::BadGateway(sentence) => (MailTransport::Smtp, sentence.clone()),
        _ => (
            MailTransport::Outbox,
            "The message could not be handed over.".to_string(),
        ),
    }
}

/// Writes the record of `message` delivered with `outcome`; `message_key` names the kept
/// message when it is already stored (a resend), else it is stored now when `how` keeps
/// it. Returns the new record's id. Errors: 500 when the store or the database fails.
pub(crate) async fn write_record(
    state: &AppState,
    how: &Record,
    message: &Message<'_>,
    outcome: &ApiResult<MailTransport>,
    message_key: Option<String>,
) -> ApiResult<i64> {
    let (transport, mail_state, error) = match outcome {
        Ok(t) => (*t, MailState::delivered(*t), None),
        Err(e) => {
            let (t, sentence) = failure(e);
            (t, MailState::Failed, Some(sentence))
        }
    };
    let key = match (message_key, how.keep && how.document.is_some()) {
        (Some(key), _) => Some(key),
        (None, true) => Some(
            state
                .files
                .put_new(Area::SentMail, "eml", message.raw)
                .await?,
        ),
        (None, false) => None,
    };
    let list = |v: &[String]| serde_json::to_string(v).unwrap_or_else(|_| "[]".into());
    let at = ts(now());
    let id: i64 = crate::sql::query_scalar(
        "INSERT INTO emails (at, sender, to_addresses, cc_addresses, bcc_addresses, subject, \
         document_type, document_id, transport, state, error, message_id, message_key, user_id, \
         updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) \
         RETURNING id",
    )
    .bind(at)
    .bind(message.sender)
    .bind(list(message.to))
    .bind(list(message.cc))
    .bind(list(message.bcc))
    .bind(message.subject)
    .bind(how.document.map(|(k, _)| k.as_str()))
    .bind(how.document.map(|(_, id)| id))
    .bind(transport.as_str())
    .bind(mail_state.as_str())
    .bind(error)
    .bind(message.message_id)
    .bind(key)
    .bind(how.user_id)
    .bind(at)
    .fetch_one(&state.pool)
    .await?;
    Ok(id)
}
