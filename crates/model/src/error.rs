//! The JSON error body of every HTTP error (`decisions.md` § Errors) and field errors.

use serde::{Deserialize, Serialize};

pub mod labels;
use std::collections::BTreeMap;

/// Field errors keyed by field path (`"items[2].unit_price"`) → messages
/// (`["must be a number"]`). Produced by [`crate::validation`] and sent in 422 bodies.
pub type FieldErrors = BTreeMap<String, Vec<String>>;

/// The body of every error response:
/// `{"message": "...", "errors": {"items[2].unit_price": ["must be a number"]}}`.
/// `errors` is present on 422 only.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorBody {
    /// A human-readable sentence.
    pub message: String,
    /// Field path → messages; only on 422.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<BTreeMap<String, Vec<String>>>))]
    pub errors: Option<FieldErrors>,
}

/// Adds `message` for `field` to `errors`.
pub fn push_error(errors: &mut FieldErrors, field: impl Into<String>, message: impl Into<String>) {
    errors.entry(field.into()).or_default().push(message.into());
}

/// Adds "is required" for `field` when `value` is absent or only whitespace.
pub fn require_text(errors: &mut FieldErrors, field: &str, value: Option<&String>) {
    if value.map(|v| v.trim()).unwrap_or("").is_empty() {
        push_error(errors, field, "is required");
    }
}
