//! Sending documents by e-mail (interface.md § send_email; `decisions.md` § Success
//! responses).

use serde::{Deserialize, Serialize};

/// POST /invoices/{id}/send_email (and offers) body. Address lists are `;`-separated.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SendEmail {
    /// Required: subject.
    #[serde(default)]
    pub subject: Option<String>,
    /// Required: text (plain text; line breaks kept).
    #[serde(default)]
    pub text: Option<String>,
    /// Recipients; empty → the default recipients.
    #[serde(default)]
    pub emails_to: Option<String>,
    /// CC recipients.
    #[serde(default)]
    pub emails_cc: Option<String>,
    /// BCC recipients.
    #[serde(default)]
    pub emails_bcc: Option<String>,
    /// Letter paper of the attached PDF; absent → the default.
    #[serde(default)]
    pub letter_paper_id: Option<i64>,
}

/// The answer of send_email: exactly the message as sent and the recipients used.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SentEmail {
    /// Subject.
    pub subject: String,
    /// Text.
    pub text: String,
    /// Recipients used, `;`-separated.
    pub emails_to: String,
    /// CC used, `;`-separated.
    pub emails_cc: String,
    /// BCC used, `;`-separated.
    pub emails_bcc: String,
    /// The sent-mail record of this message (`GET /emails/{id}`, issue 33); absent in
    /// answers of older servers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email_id: Option<i64>,
    /// How it left: `smtp` (handed to the mail server) or `outbox` (no SMTP set up: a file
    /// in the server's outbox — the app says "put in the outbox", never "sent").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transport: Option<MailTransport>,
}

/// How a message left Kontor (issue 33 § Sent mail).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum MailTransport {
    /// Handed to the account's SMTP server.
    Smtp,
    /// Written to the server's outbox folder (no SMTP set up).
    Outbox,
}

impl MailTransport {
    /// The wire and stored word.
    pub fn as_str(self) -> &'static str {
        match self {
            MailTransport::Smtp => "smtp",
            MailTransport::Outbox => "outbox",
        }
    }

    /// Parses a stored word; `None` otherwise.
    pub fn parse(text: &str) -> Option<Self> {
        [MailTransport::Smtp, MailTransport::Outbox]
            .into_iter()
            .find(|t| t.as_str() == text)
    }
}

/// What became of a message: `sent` (the SMTP server took it), `queued` (in the outbox,
/// not delivered by Kontor), `failed` (the SMTP server refused it or could not be
/// reached; `error` says why).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum MailState {
    /// Taken by the SMTP server.
    Sent,
    /// Written to the outbox.
    Queued,
    /// Not handed over.
    Failed,
}

impl MailState {
    /// Every state, in order.
    pub const ALL: [MailState; 3] = [MailState::Sent, MailState::Queued, MailState::Failed];

    /// The wire and stored word.
    pub fn as_str(self) -> &'static str {
        match self {
            MailState::Sent => "sent",
            MailState::Queued => "queued",
            MailState::Failed => "failed",
        }
    }

    /// Parses a wire word; `None` otherwise.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == text)
    }

    /// The state of a message handed over by `transport`: `sent` by SMTP, `queued` in
    /// the outbox.
    pub fn delivered(transport: MailTransport) -> Self {
        match transport {
            MailTransport::Smtp => MailState::Sent,
            MailTransport::Outbox => MailState::Queued,
        }
    }
}

/// The kind of document a message carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum MailDocumentType {
    /// An invoice (its PDF, maybe its e-invoice).
    Invoice,
    /// An offer.
    Offer,
    /// A payment reminder (its letter; the subject is the reminder's invoice).
    Reminder,
    /// An order confirmation of an offer.
    OrderConfirmation,
}

impl MailDocumentType {
    /// Every type, in order.
    pub const ALL: [MailDocumentType; 4] = [
        MailDocumentType::Invoice,
        MailDocumentType::Offer,
        MailDocumentType::Reminder,
        MailDocumentType::OrderConfirmation,
    ];

    /// The wire and stored word.
    pub fn as_str(self) -> &'static str {
        match self {
            MailDocumentType::Invoice => "invoice",
            MailDocumentType::Offer => "offer",
            MailDocumentType::Reminder => "reminder",
            MailDocumentType::OrderConfirmation => "order_confirmation",
        }
    }

    /// Parses a wire word; `None` otherwise.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == text)
    }

    /// The app path of the record the document belongs to: the invoice, the offer (for an
    /// order confirmation), the reminder's invoice (`invoice_id` given by the server).
    pub fn app_path(self, id: i64) -> String {
        match self {
            MailDocumentType::Invoice | MailDocumentType::Reminder => format!("/invoices/{id}"),
            MailDocumentType::Offer | MailDocumentType::OrderConfirmation => {
                format!("/offers/{id}")
            }
        }
    }
}

/// The document a message was about: for a reminder and an order confirmation the
/// invoice or offer it belongs to (`id`, `identifier`), so the link opens that record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MailDocument {
    /// `invoice`, `offer`, `reminder`, `order_confirmation`.
    #[serde(rename = "type")]
    pub kind: MailDocumentType,
    /// The invoice's or offer's id.
    pub id: i64,
    /// Its number (`R2611-001`), when it has one.
    pub identifier: Option<String>,
}

/// One message Kontor sent or put in the outbox (`GET /emails`, issue 33 § Sent mail).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EmailRecord {
    /// Record id.
    pub id: i64,
    /// When it was handed over (or failed), UTC.
    #[serde(with = "crate::timestamp")]
    pub at: chrono::DateTime<chrono::Utc>,
    /// Recipients (To).
    pub to: Vec<String>,
    /// Copies (Cc). Blind copies are not shown.
    pub cc: Vec<String>,
    /// Subject.
    pub subject: String,
    /// The document it carried; `null` for other mail (invitations, password links, the
    /// test e-mail).
    pub document: Option<MailDocument>,
    /// `smtp` or `outbox`.
    pub transport: MailTransport,
    /// `sent`, `queued` or `failed`.
    pub state: MailState,
    /// Why it failed (the sentence the sender was shown); `null` otherwise.
    pub error: Option<String>,
    /// Whether it can be sent again (`POST /emails/{id}/resend`): the message is kept for
    /// documents, not for mail carrying a password link.
    pub resendable: bool,
    /// The record of the message that resent this one, if any.
    pub resent_email_id: Option<i64>,
}

/// Splits a `;`- (or `,`-) separated address list, trimming and dropping empties.
pub fn split_addresses(list: &str) -> Vec<String> {
    list.split([';', ','])
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(str::to_string)
        .collect()
}

/// Whether `address` is an e-mail address (`local@domain.tld`: RFC 5322 syntax without
/// display name or domain literal, and a top-level domain).
pub fn is_address(address: &str) -> bool {
    // The address syntax (RFC 5321/5322) is the `email_address` crate's (issue 30:
    // libraries where they exist); Kontor adds that mail goes to a domain with a dot.
    email_address::EmailAddress::parse_with_options(
        address,
        email_address::Options::default()
            .without_display_text()
            .without_domain_literal()
            .with_required_tld(),
    )
    .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_checks_addresses() {
        assert_eq!(
            split_addresses(" a@x.de; b@y.com ;;"),
            vec!["a@x.de", "b@y.com"]
        );
        assert!(is_address("anna@kontor.example"));
        assert!(!is_address("anna@kontor"));
        assert!(!is_address("an na@kontor.de"));
        assert!(!is_address("@kontor.de"));
    }
}
