//! The texts of the password rule in the user's language: the hint under a new password
//! and the length reason (the rule itself is `kontor_model::users`), shared by the
//! set-password page, the first-run setup and the user menu's password change.

use crate::i18n::{fill, t};
use kontor_model::error::{FieldErrors, Message};
use kontor_model::users::PASSWORD_MIN_CHARS;

/// The length rule's reason in the user's language ("must be at least 12 characters long
/// (it has 5)"); `None` when `password` is long enough.
pub fn password_length_message(password: &str) -> Option<String> {
    let chars = password.chars().count();
    (chars < PASSWORD_MIN_CHARS).then(|| {
        fill(
            t().people_common().too_short,
            &[
                ("min", &PASSWORD_MIN_CHARS.to_string()),
                ("n", &chars.to_string()),
            ],
        )
    })
}

/// The hint under a new password: "At least 12 characters; a phrase of several words is
/// strong."
pub fn password_hint() -> String {
    fill(
        t().people_common().password_hint,
        &[("min", &PASSWORD_MIN_CHARS.to_string())],
    )
}

/// Adds a new password's error to `errors`: the length reason at `password`, or, when it
/// is long enough but `repeat` differs, `mismatch` at `repeat`.
pub fn check_new_password(errors: &mut FieldErrors, password: &str, repeat: &str, mismatch: &str) {
    if let Some(reason) = password_length_message(password) {
        errors.insert("password".into(), vec![Message::verbatim(reason)]);
    } else if password != repeat {
        errors.insert("repeat".into(), vec![Message::verbatim(mismatch)]);
    }
}
