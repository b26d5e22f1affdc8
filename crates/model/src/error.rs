//! The JSON error body of every HTTP error (`decisions.md` § Errors), field errors, and the
//! catalogue of their messages by code (`decisions.md` § Message codes).

use serde::{Deserialize, Serialize};

pub mod labels;
pub mod message;
pub mod messages;
pub use message::{Message, MessageCode, Text};
use std::collections::BTreeMap;

/// Field errors keyed by field path (`"items[2].unit_price"`) → messages
/// (`["must be a number"]`). Produced by [`crate::validation`] and sent in 422 bodies, each
/// message as its English text (its code and parameters in the body's `error_codes`).
pub type FieldErrors = BTreeMap<String, Vec<Message>>;

/// The body of every error response:
/// `{"message": "...", "errors": {"items[2].unit_price": ["must be a number"]},
/// "error_codes": {"items[2].unit_price": [{"code": "must_be_number", "params": []}]}}`.
/// `errors` and `error_codes` are present on 422 (and on a 409 naming a field) only. The
/// body of a sentence from the catalogue (a failed sign-in, a lockout, a refused key) is
/// just `{"message": …}`; the server keeps its code beside the response, not in it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorBody {
    /// A human-readable sentence (English, or German for `Accept-Language: de`).
    pub message: String,
    /// Field path → messages; only on 422.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<BTreeMap<String, Vec<String>>>))]
    pub errors: Option<FieldErrors>,
    /// Field path → the codes and parameters of its messages, in the order of `errors`
    /// (`docs/decisions.md` § Message codes): a client renders them in its own language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_codes: Option<BTreeMap<String, Vec<MessageCode>>>,
}

impl ErrorBody {
    /// The body for `message` and `errors`, with the `error_codes` of `errors`.
    pub fn new(message: impl Into<String>, errors: Option<FieldErrors>) -> Self {
        let error_codes = errors.as_ref().map(codes_of);
        ErrorBody {
            message: message.into(),
            errors,
            error_codes,
        }
    }

    /// The body as read from the wire with every field message carrying its code again
    /// (from `error_codes`), so that it renders in any language; a code this build does not
    /// know leaves the message's text as it came.
    pub fn with_codes(mut self) -> Self {
        if let (Some(errors), Some(codes)) = (self.errors.as_mut(), self.error_codes.as_ref()) {
            for (field, messages) in errors.iter_mut() {
                let Some(field_codes) = codes.get(field) else {
                    continue;
                };
                for (m, c) in messages.iter_mut().zip(field_codes) {
                    if let Some(coded) = Message::from_code(&c.code, c.params.clone()) {
                        *m = coded;
                    }
                }
            }
        }
        self
    }
}

/// The wire codes of `errors` (field path → codes, in order).
pub fn codes_of(errors: &FieldErrors) -> BTreeMap<String, Vec<MessageCode>> {
    errors
        .iter()
        .map(|(f, ms)| (f.clone(), ms.iter().map(Message::wire_code).collect()))
        .collect()
}

/// Adds `message` (a catalogue entry: [`messages`]) for `field` to `errors`.
pub fn push_error(errors: &mut FieldErrors, field: impl Into<String>, message: impl Into<Message>) {
    errors.entry(field.into()).or_default().push(message.into());
}

/// Adds "is required" for `field` when `value` is absent or only whitespace.
pub fn require_text(errors: &mut FieldErrors, field: &str, value: Option<&String>) {
    if value.map(|v| v.trim()).unwrap_or("").is_empty() {
        push_error(errors, field, messages::IS_REQUIRED);
    }
}
