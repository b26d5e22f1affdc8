//! E-mail with lettre (`decisions.md` § Files, PDFs and e-mail): SMTP when configured,
//! otherwise one `.eml` file per message in `<data>/outbox/`. A message that cannot be
//! handed over is an error (502), never a silent success. The sender and the SMTP
//! settings are read from the account settings in the database at send time (issue 9:
//! changed on the Settings page, seeded from the account file); the SMTP password is never
//! logged or answered.

use crate::config::SmtpSecurity;
use crate::http::error::{ApiError, ApiResult};
use kontor_model::email::{is_address, split_addresses, MailTransport, SendEmail, SentEmail};
use kontor_model::error::messages;
use kontor_model::error::{push_error, require_text, FieldErrors};
use kontor_model::event::SentData;
use lettre::message::header::ContentType;
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{AsyncFileTransport, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use std::path::Path;
use std::time::Duration;

/// A file attached to a message.
pub struct MailAttachment {
    /// File name shown to the recipient.
    pub filename: String,
    /// MIME type, e.g. `application/pdf`.
    pub content_type: String,
    /// Content.
    pub bytes: Vec<u8>,
}

/// Recipients resolved from a request and the defaults (`;`-separated lists).
pub struct Recipients {
    /// To.
    pub to: Vec<String>,
    /// Cc.
    pub cc: Vec<String>,
    /// Bcc.
    pub bcc: Vec<String>,
}

/// Checks subject and text and resolves the recipients: when all three lists are empty,
/// the defaults (`default_to`, `default_cc`); otherwise the given lists, with an empty
/// `emails_to` still taken from `default_to` (it must be available either way). Errors: 422 naming
/// `subject`, `text`, `emails_to` (none resolvable) or a list with an invalid address.
pub fn resolve(
    body: &SendEmail,
    default_to: Option<&str>,
    default_cc: Option<&str>,
) -> ApiResult<Recipients> {
    let mut e = FieldErrors::new();
    for (field, value) in [("subject", &body.subject), ("text", &body.text)] {
        require_text(&mut e, field, value.as_ref());
    }
    let list = |v: &Option<String>| split_addresses(v.as_deref().unwrap_or(""));
    let (mut to, mut cc, bcc) = (
        list(&body.emails_to),
        list(&body.emails_cc),
        list(&body.emails_bcc),
    );
    if to.is_empty() && cc.is_empty() && bcc.is_empty() {
        cc = split_addresses(default_cc.unwrap_or(""));
    }
    if to.is_empty() {
        to = split_addresses(default_to.unwrap_or(""));
    }
    if to.is_empty() {
        push_error(&mut e, "emails_to", messages::NO_RECIPIENT);
    }
    for (field, addresses) in [("emails_to", &to), ("emails_cc", &cc), ("emails_bcc", &bcc)] {
        for a in addresses.iter().filter(|a| !is_address(a)) {
            push_error(&mut e, field, messages::N_IS_NOT_E_MAIL_ADDRESS.with([a]));
        }
    }
    ApiError::check(e)?;
    Ok(Recipients { to, cc, bcc })
}

fn mailbox(address: &str) -> ApiResult<Mailbox> {
    address.parse().map_err(|_| {
        ApiError::field(
            "emails_to",
            messages::N_IS_NOT_E_MAIL_ADDRESS.with([address]),
        )
    })
}

/// How long one SMTP step may take (connecting).
pub const SMTP_STEP_TIMEOUT: Duration = Duration::from_secs(10);
/// How long handing one message to the SMTP server may take in all (connect, TLS, login,
/// data): a silent server cannot hold a request longer (issue 29).
pub const SMTP_TIMEOUT: Duration = Duration::from_secs(30);

/// The answer when the server cannot be reached, answers nothing or speaks no SMTP: the
/// same sentence for a closed port, an open one of another service and a silent one, so
/// the SMTP settings cannot be used to probe the network (the details go to the log).
pub const UNREACHABLE: &str = messages::MAIL_SERVER_UNREACHABLE.en;

/// The sentence of a failed hand-over (502): the server's refusal by kind (permanent or
/// transient SMTP reply), else [`UNREACHABLE`]; never the low-level cause.
pub fn smtp_failure(e: &lettre::transport::smtp::Error) -> &'static str {
    if e.is_permanent() {
        messages::MAIL_SERVER_REFUSED.en
    } else if e.is_transient() {
        messages::MAIL_SERVER_LATER.en
    } else {
        UNREACHABLE
    }
}

/// Builds and hands over the message, from the account's name and e-mail address, through
/// the account's SMTP settings (read from the database now, so a change on the Settings
/// page applies to the next message), and records it as `record` says
/// ([`crate::sent_mail`], issue 33). Returns what was sent.
/// Errors: 422 when the account has no e-mail address to send from, 502 when the SMTP
/// server refuses or cannot be reached (within [`SMTP_TIMEOUT`]; [`smtp_failure`]) —
/// recorded as `failed` — and 500 when the outbox cannot be written.
pub async fn send(
    state: &crate::state::AppState,
    body: &SendEmail,
    recipients: &Recipients,
    attachments: Vec<MailAttachment>,
    record: crate::sent_mail::record::Record,
) -> ApiResult<SentEmail> {
    Ok(send_with_id(state, body, recipients, attachments, record)
        .await?
        .sent)
}

/// A message as it was handed over: the answer of send_email and its `Message-ID`.
pub struct Delivered {
    /// What was sent (the send_email answer).
    pub sent: SentEmail,
    /// The `Message-ID` header value, with angle brackets (`<hex@sender-domain>`).
    pub message_id: String,
}

impl Delivered {
    /// The `sent` timeline event's data: the recipients (`to`, `cc` of `recipients`), the
    /// subject and the Message-ID.
    pub fn event_data(&self, recipients: &Recipients) -> SentData {
        SentData {
            to: recipients.to.clone(),
            cc: recipients.cc.clone(),
            subject: self.sent.subject.clone(),
            message_id: self.message_id.clone(),
        }
    }
}

/// A new `Message-ID` value `<32 hex digits@domain>`, the domain taken from the sender's
/// address (`docs/decisions.md` § Timeline (issue 11)); `kontor.invalid` when it has none.
pub fn new_message_id(sender: &str) -> String {
    use rand::RngCore;
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    let domain = sender
        .rsplit_once('@')
        .map(|(_, d)| d.trim().trim_end_matches('>'))
        .filter(|d| {
            !d.is_empty()
                && d.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
        })
        .unwrap_or("kontor.invalid");
    format!("<{}@{domain}>", hex::encode(bytes))
}

/// [`send`], answering the message's `Message-ID` too (recorded on the timeline's `sent`
/// event). Errors: as [`send`].
pub async fn send_with_id(
    state: &crate::state::AppState,
    body: &SendEmail,
    recipients: &Recipients,
    attachments: Vec<MailAttachment>,
    record: crate::sent_mail::record::Record,
) -> ApiResult<Delivered> {
    let settings = crate::account::repo::load(&state.pool).await?;
    let account = &settings.account;
    let subject = body.subject.clone().unwrap_or_default();
    let text = body.text.clone().unwrap_or_default();
    let sender = account.email.as_deref().ok_or_else(|| {
        ApiError::Refused(kontor_model::error::messages::ACCOUNT_HAS_NO_E_MAIL.into())
    })?;
    let from: Mailbox = format!("{} <{}>", account.name.replace(['<', '>', '"'], ""), sender)
        .parse()
        .map_err(|e| ApiError::Internal(format!("sender address: {e}")))?;
    let message_id = new_message_id(sender);
    let mut builder = Message::builder()
        .from(from)
        .subject(subject.clone())
        .message_id(Some(message_id.clone()));
    for a in &recipients.to {
        builder = builder.to(mailbox(a)?);
    }
    for a in &recipients.cc {
        builder = builder.cc(mailbox(a)?);
    }
    for a in &recipients.bcc {
        builder = builder.bcc(mailbox(a)?);
    }
    let mut parts = MultiPart::mixed().singlepart(SinglePart::plain(text.clone()));
    for file in attachments {
        let content_type = ContentType::parse(&file.content_type)
            .map_err(|e| ApiError::Internal(format!("content type: {e}")))?;
        parts = parts.singlepart(Attachment::new(file.filename).body(file.bytes, content_type));
    }
    let message = builder
        .multipart(parts)
        .map_err(|e| ApiError::Internal(format!("message: {e}")))?;
    let envelope = message.envelope().clone();
    let raw = message.formatted();
    let outcome = deliver(&settings, &state.data_dir, &envelope, &raw).await;
    let message_record = crate::sent_mail::record::Message {
        sender,
        to: &recipients.to,
        cc: &recipients.cc,
        bcc: &recipients.bcc,
        subject: &subject,
        message_id: &message_id,
        raw: &raw,
    };
    let email_id =
        crate::sent_mail::record::record(state, &record, &message_record, &outcome).await;
    let transport = outcome?;
    Ok(Delivered {
        sent: SentEmail {
            subject,
            text,
            emails_to: recipients.to.join(";"),
            emails_cc: recipients.cc.join(";"),
            emails_bcc: recipients.bcc.join(";"),
            email_id,
            transport: Some(transport),
        },
        message_id,
    })
}

/// Hands the formatted message `raw` to `envelope`'s recipients: through the account's
/// SMTP server when `settings` has one, else as a file in `<data_dir>/outbox/`. Returns how
/// it left. Errors: 502 when the SMTP server refuses or cannot be reached (within
/// [`SMTP_TIMEOUT`]), 500 when the outbox cannot be written.
pub async fn deliver(
    settings: &crate::account::repo::Settings,
    data_dir: &Path,
    envelope: &lettre::address::Envelope,
    raw: &[u8],
) -> ApiResult<MailTransport> {
    match &settings.smtp {
        Some(smtp) => {
            let tls = || {
                TlsParameters::new(smtp.host.clone())
                    .map_err(|e| ApiError::Internal(format!("TLS: {e}")))
            };
            let (port, tls) = match smtp.security {
                SmtpSecurity::Starttls => (smtp.port.unwrap_or(587), Tls::Required(tls()?)),
                SmtpSecurity::Tls => (smtp.port.unwrap_or(465), Tls::Wrapper(tls()?)),
                SmtpSecurity::None => (smtp.port.unwrap_or(25), Tls::None),
            };
            let mut transport =
                AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(smtp.host.clone())
                    .port(port)
                    .tls(tls)
                    .timeout(Some(SMTP_STEP_TIMEOUT));
            if let (Some(user), Some(password)) = (&smtp.user, &smtp.password) {
                transport = transport.credentials(Credentials::new(user.clone(), password.clone()));
            }
            // lettre bounds the connect only; the whole conversation is bounded here, so a
            // server that accepts and then says nothing cannot hold the request.
            match tokio::time::timeout(SMTP_TIMEOUT, transport.build().send_raw(envelope, raw))
                .await
            {
                Ok(Ok(_)) => Ok(MailTransport::Smtp),
                Ok(Err(e)) => {
                    tracing::warn!(error = %e, host = %smtp.host, port, "mail server refused or could not be reached");
                    Err(ApiError::BadGateway(smtp_failure(&e).into()))
                }
                Err(_) => {
                    tracing::warn!(host = %smtp.host, port, "mail server did not finish within 30 s");
                    Err(ApiError::BadGateway(UNREACHABLE.into()))
                }
            }
        }
        None => {
            let outbox = data_dir.join("outbox");
            tokio::fs::create_dir_all(&outbox)
                .await
                .map_err(|e| ApiError::Internal(format!("outbox: {e}")))?;
            AsyncFileTransport::<Tokio1Executor>::new(&outbox)
                .send_raw(envelope, raw)
                .await
                .map_err(|e| ApiError::Internal(format!("outbox: {e}")))?;
            Ok(MailTransport::Outbox)
        }
    }
}
