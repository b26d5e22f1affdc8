//! Order confirmations (issue 31 "order confirmations"; MOCO's `offer_confirmation`;
//! `docs/decisions.md` § Order confirmations): which offers may be confirmed, the
//! confirmation's default title in the customer's language, and the optional body of
//! `POST /offers/{id}/offer_confirmation`.
//!
//! Pure: the server stores one confirmation per offer, prints it and e-mails it; the
//! wire object is [`crate::offer::OfferConfirmation`] (`{id, title, created_at,
//! updated_at}`).

use crate::error::message::Text;
use crate::error::{messages, push_error, FieldErrors};
use crate::limits::MAX_LINE;
use crate::offer::OfferStatus;
use crate::party::Language;
use serde::{Deserialize, Serialize};

/// Why an offer in `status` cannot have an order confirmation, `None` when it can: only
/// an accepted or partially billed offer is confirmed (issue 31; a billed or archived
/// one is done, a created or sent one has no order yet). The text is the 422's message.
pub fn confirmation_refusal(status: OfferStatus) -> Option<Text> {
    match status {
        OfferStatus::Accepted | OfferStatus::PartiallyBilled => None,
        _ => Some(messages::OFFER_NOT_ACCEPTED_FOR_CONFIRMATION),
    }
}

/// The default title of offer `identifier`'s confirmation in the customer's correspondence
/// `language`: `"Auftragsbestätigung {identifier}"` (German, the default) or
/// `"Order confirmation {identifier}"` (English). Also the printed confirmation's heading.
pub fn default_title(identifier: &str, language: Language) -> String {
    match language {
        Language::De => format!("Auftragsbestätigung {identifier}"),
        Language::En => format!("Order confirmation {identifier}"),
    }
}

/// The printed confirmation's sentence above its positions, in `language`: the order of
/// offer `identifier` of `offer_date` (as the document prints dates) is confirmed.
pub fn confirmation_sentence(identifier: &str, offer_date: &str, language: Language) -> String {
    match language {
        Language::De => format!(
            "Vielen Dank für Ihren Auftrag. Hiermit bestätigen wir Ihnen den Auftrag gemäß unserem Angebot {identifier} vom {offer_date} mit den folgenden Positionen."
        ),
        Language::En => format!(
            "Thank you for your order. We hereby confirm your order according to our offer {identifier} of {offer_date} with the following positions."
        ),
    }
}

/// The subject and text of a confirmation's e-mail when the request gives none (and of
/// the one sent on its own after an online signing), in `language`: the subject is the
/// confirmation's `title`; the text says the confirmation of offer `identifier` is attached.
pub fn default_email(title: &str, identifier: &str, language: Language) -> (String, String) {
    let text = match language {
        Language::De => format!(
            "Guten Tag,\n\nvielen Dank für Ihren Auftrag. Im Anhang finden Sie unsere Auftragsbestätigung zu unserem Angebot {identifier}.\n\nMit freundlichen Grüßen"
        ),
        Language::En => format!(
            "Hello,\n\nthank you for your order. Please find attached our order confirmation for our offer {identifier}.\n\nKind regards"
        ),
    };
    (title.to_string(), text)
}

/// The optional body of `POST /offers/{id}/offer_confirmation`: `{"title": "…"}`. An
/// absent, `null` or blank title means the default ([`default_title`]) when the
/// confirmation is created, and "keep it" when it exists.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OfferConfirmationInput {
    /// The confirmation's title (at most 500 characters).
    #[serde(default)]
    pub title: Option<String>,
}

impl OfferConfirmationInput {
    /// The title to store, trimmed; `None` for absent or blank. Errors: 422 on `title`
    /// when it is longer than [`MAX_LINE`] characters.
    pub fn check(&self) -> Result<Option<String>, FieldErrors> {
        let Some(title) = self
            .title
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
        else {
            return Ok(None);
        };
        let mut errors = FieldErrors::new();
        if title.chars().count() > MAX_LINE {
            push_error(
                &mut errors,
                "title",
                messages::MUST_BE_AT_MOST_N_CHARACTERS.with([MAX_LINE]),
            );
        }
        if errors.is_empty() {
            Ok(Some(title.to_string()))
        } else {
            Err(errors)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_accepted_and_partially_billed_offers_are_confirmed() {
        for status in OfferStatus::ALL {
            let allowed = matches!(status, OfferStatus::Accepted | OfferStatus::PartiallyBilled);
            assert_eq!(
                confirmation_refusal(status).is_none(),
                allowed,
                "{status:?}"
            );
        }
        assert_eq!(
            confirmation_refusal(OfferStatus::Sent).map(|t| t.code),
            Some("offer_not_accepted_for_confirmation")
        );
    }

    #[test]
    fn default_title_follows_the_customer_language() {
        assert_eq!(
            default_title("A2611-001", Language::De),
            "Auftragsbestätigung A2611-001"
        );
        assert_eq!(
            default_title("A2611-001", Language::En),
            "Order confirmation A2611-001"
        );
        assert_eq!(
            default_title("A1", Language::default()),
            "Auftragsbestätigung A1"
        );
    }

    #[test]
    fn sentence_and_email_follow_the_language() {
        let de = confirmation_sentence("A1", "01.02.2026", Language::De);
        assert!(de.contains("Angebot A1 vom 01.02.2026"), "{de}");
        let en = confirmation_sentence("A1", "2026-02-01", Language::En);
        assert!(en.contains("offer A1 of 2026-02-01"), "{en}");
        let (subject, text) = default_email("Order confirmation A1", "A1", Language::En);
        assert_eq!(subject, "Order confirmation A1");
        assert!(text.contains("order confirmation for our offer A1"));
        let (_, text) = default_email("Auftragsbestätigung A1", "A1", Language::De);
        assert!(text.contains("Auftragsbestätigung zu unserem Angebot A1"));
    }

    #[test]
    fn the_body_title_is_trimmed_and_checked() {
        let input = |t: Option<&str>| OfferConfirmationInput {
            title: t.map(String::from),
        };
        assert_eq!(input(None).check(), Ok(None));
        assert_eq!(input(Some("  ")).check(), Ok(None));
        assert_eq!(input(Some(" AB 7 ")).check(), Ok(Some("AB 7".to_string())));
        let long = "x".repeat(MAX_LINE + 1);
        let errors = input(Some(&long)).check().unwrap_err();
        assert!(errors.contains_key("title"));
        let body: OfferConfirmationInput = serde_json::from_str("{}").unwrap();
        assert_eq!(body.title, None);
    }
}
