//! Passwords (issue 12, `docs/decisions.md` § People, sign-in and roles): argon2id hashes
//! in the PHC string format (the `argon2` crate's defaults: 19 MiB, 2 passes, 1 lane, a
//! random salt), verified in constant time by the crate, and the strength rule — at least
//! `kontor_model::users::PASSWORD_MIN_CHARS` characters and a zxcvbn score of at least 3,
//! the estimator's warning or suggestion as the reason. Hashing takes tens of
//! milliseconds of CPU and 19 MiB, so [`hash`] and [`verify`] run on tokio's blocking
//! pool, at most `crate::work::cpu_work::permits()` at once (issue 29).

use crate::http::error::ApiError;
use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::Argon2;
use kontor_model::error::{messages, Message};
use kontor_model::users::password_length_error;

/// The lowest zxcvbn score (0–4) a new password must reach.
pub const MIN_SCORE: u8 = 3;

/// Hashes `password` with argon2id and a fresh salt; the PHC string
/// (`$argon2id$v=19$m=19456,t=2,p=1$…`). Errors: 500 (never expected).
pub fn hash_blocking(password: &str) -> Result<String, ApiError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| ApiError::Internal(format!("password hash: {e}")))
}

/// Whether `password` matches the PHC string `stored`; false for a corrupt hash.
pub fn verify_blocking(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

/// Time budget of one hash or verification (it takes about 30 ms).
const BUDGET: std::time::Duration = std::time::Duration::from_secs(30);

fn too_slow() -> ApiError {
    ApiError::Busy("checking passwords")
}

/// [`hash_blocking`] on the blocking pool, bounded by [`crate::work::cpu_work`].
/// Errors: 503 when too many passwords are being checked, 500 (never expected).
pub async fn hash(password: String) -> Result<String, ApiError> {
    crate::work::cpu_work::run(
        crate::work::cpu_work::Kind::Password,
        BUDGET,
        too_slow,
        move || hash_blocking(&password),
    )
    .await?
}

/// [`verify_blocking`] on the blocking pool, bounded by [`crate::work::cpu_work`]. With
/// `stored` = `None` (unknown e-mail, no password yet) a dummy hash is verified, so the
/// answer takes as long as for a real user, and the result is false.
/// Errors: 503 when too many passwords are being checked.
pub async fn verify(password: String, stored: Option<String>) -> Result<bool, ApiError> {
    crate::work::cpu_work::run(
        crate::work::cpu_work::Kind::Password,
        BUDGET,
        too_slow,
        move || match stored {
            Some(stored) => verify_blocking(&password, &stored),
            None => {
                let _ = verify_blocking(&password, dummy_hash());
                false
            }
        },
    )
    .await
}

/// A fixed hash of a random password, made once, verified for unknown e-mails.
fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| {
        hash_blocking(&crate::access::auth::random_hex(16)).unwrap_or_else(|_| String::new())
    })
}

/// The rule for a new password: `Err(reason)` when shorter than 12 characters or when
/// zxcvbn scores it below [`MIN_SCORE`] (the reason then is the estimator's warning, or
/// its first suggestion, after "is too easy to guess"). `user_inputs` are words the
/// estimator should treat as known (the user's name and e-mail).
pub fn strength_error(password: &str, user_inputs: &[&str]) -> Option<Message> {
    if let Some(reason) = password_length_error(password) {
        return Some(reason);
    }
    let estimate = zxcvbn::zxcvbn(password, user_inputs);
    if (estimate.score() as u8) >= MIN_SCORE {
        return None;
    }
    let hint = estimate.feedback().and_then(|f| {
        f.warning()
            .map(|w| w.to_string())
            .or_else(|| f.suggestions().first().map(|s| s.to_string()))
    });
    Some(match hint {
        Some(hint) if !hint.is_empty() => messages::PASSWORD_TOO_EASY_N.with([hint]),
        _ => messages::PASSWORD_TOO_EASY.into(),
    })
}

/// [`strength_error`] as a 422 naming `field`. Errors: 422.
pub fn check_new(password: &str, user_inputs: &[&str], field: &str) -> Result<(), ApiError> {
    match strength_error(password, user_inputs) {
        Some(reason) => Err(ApiError::field(field, reason)),
        None => Ok(()),
    }
}

/// A random strong password (24 characters from an unambiguous alphabet) for `run.sh`'s
/// demo admin.
pub fn generate() -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::rng();
    (0..24)
        .map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_argon2id_salted_and_verify() {
        let a = hash_blocking("correct horse battery staple").unwrap();
        let b = hash_blocking("correct horse battery staple").unwrap();
        assert!(a.starts_with("$argon2id$"), "{a}");
        assert_ne!(a, b, "salted");
        assert!(verify_blocking("correct horse battery staple", &a));
        assert!(!verify_blocking("correct horse battery stapl", &a));
        assert!(!verify_blocking("x", "not a hash"));
    }

    #[test]
    fn weak_and_short_passwords_are_refused_with_a_reason() {
        assert!(strength_error("short", &[]).unwrap().contains("12"));
        let weak = strength_error("password1234", &[]).unwrap();
        assert!(weak.starts_with("is too easy to guess"), "{weak}");
        // The user's own name does not make a password.
        assert!(strength_error("mariamustermann", &["maria", "mustermann"]).is_some());
        assert_eq!(strength_error("Kupfer-Tisch-Regen-42", &[]), None);
        assert_eq!(strength_error(&generate(), &[]), None);
    }

    #[test]
    fn every_estimator_hint_has_a_german_text() {
        use kontor_model::error_text::{password_hint_german, PASSWORD_HINTS_DE};
        use zxcvbn::feedback::{Suggestion, Warning};
        let warnings = [
            Warning::StraightRowsOfKeysAreEasyToGuess,
            Warning::ShortKeyboardPatternsAreEasyToGuess,
            Warning::RepeatsLikeAaaAreEasyToGuess,
            Warning::RepeatsLikeAbcAbcAreOnlySlightlyHarderToGuess,
            Warning::ThisIsATop10Password,
            Warning::ThisIsATop100Password,
            Warning::ThisIsACommonPassword,
            Warning::ThisIsSimilarToACommonlyUsedPassword,
            Warning::SequencesLikeAbcAreEasyToGuess,
            Warning::RecentYearsAreEasyToGuess,
            Warning::AWordByItselfIsEasyToGuess,
            Warning::DatesAreOftenEasyToGuess,
            Warning::NamesAndSurnamesByThemselvesAreEasyToGuess,
            Warning::CommonNamesAndSurnamesAreEasyToGuess,
        ];
        let suggestions = [
            Suggestion::UseAFewWordsAvoidCommonPhrases,
            Suggestion::NoNeedForSymbolsDigitsOrUppercaseLetters,
            Suggestion::AddAnotherWordOrTwo,
            Suggestion::CapitalizationDoesntHelpVeryMuch,
            Suggestion::AllUppercaseIsAlmostAsEasyToGuessAsAllLowercase,
            Suggestion::ReversedWordsArentMuchHarderToGuess,
            Suggestion::PredictableSubstitutionsDontHelpVeryMuch,
            Suggestion::UseALongerKeyboardPatternWithMoreTurns,
            Suggestion::AvoidRepeatedWordsAndCharacters,
            Suggestion::AvoidSequences,
            Suggestion::AvoidRecentYears,
            Suggestion::AvoidYearsThatAreAssociatedWithYou,
            Suggestion::AvoidDatesAndYearsThatAreAssociatedWithYou,
        ];
        let texts: Vec<String> = warnings
            .iter()
            .map(ToString::to_string)
            .chain(suggestions.iter().map(ToString::to_string))
            .collect();
        assert_eq!(texts.len(), PASSWORD_HINTS_DE.len());
        for text in &texts {
            let de = password_hint_german(text);
            assert!(
                PASSWORD_HINTS_DE.iter().any(|(_, g)| *g == de),
                "no German text for {text:?}"
            );
        }
        let weak = strength_error("password1234", &[]).unwrap();
        assert!(
            weak.german().starts_with("ist zu leicht zu erraten: "),
            "{weak}"
        );
    }

    #[tokio::test]
    async fn async_helpers_run_off_the_executor() {
        let stored = hash("Kupfer-Tisch-Regen-42".into()).await.unwrap();
        assert!(verify("Kupfer-Tisch-Regen-42".into(), Some(stored))
            .await
            .unwrap());
        assert!(!verify("anything at all".into(), None).await.unwrap());
    }
}
