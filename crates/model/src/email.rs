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
