//! Unsaved form state kept in the browser (issue 34 "a half-filled invoice survives a
//! reload", issue 37 "Drafts never lost"): the storage key of a form's local draft, the
//! envelope it is stored in, and when a stored one is offered for restoring. Pure rules;
//! the app's `components::local_draft` reads and writes `localStorage` with them.
//!
//! A local draft belongs to one signed-in person (`owner`: `u{user id}`, or `k{key id}` for
//! an API key) and one form (`invoice.new`, `invoice.17`, `offer.new`, …). Signing out
//! removes every key starting with [`LOCAL_DRAFT_PREFIX`] (shared computers); a different
//! person signing in on the same browser never sees another's drafts because the owner is
//! part of the key. Decision: `docs/decisions.md` § "Local drafts".

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

/// Prefix of every local draft's storage key.
pub const LOCAL_DRAFT_PREFIX: &str = "kontor.draft.";

/// The envelope format written now; other versions are ignored (never restored half).
pub const LOCAL_DRAFT_VERSION: u32 = 1;

/// How long a local draft is offered: 30 days after it was last saved.
pub const LOCAL_DRAFT_MAX_AGE_DAYS: i64 = 30;

/// The largest envelope read back, in bytes of JSON text (a form of 500 positions with
/// long texts stays well below); larger stored text is ignored, never parsed.
pub const LOCAL_DRAFT_MAX_BYTES: usize = 2 * 1024 * 1024;

/// One stored draft: when it was saved and the form's state (the form's own JSON shape).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LocalDraft {
    /// [`LOCAL_DRAFT_VERSION`] when written.
    pub version: u32,
    /// When the form last changed, UTC.
    pub saved_at: DateTime<Utc>,
    /// What the form held, as the form serializes it.
    pub state: serde_json::Value,
}

/// The storage key of `form`'s draft for `owner`: `kontor.draft.{owner}.{form}`. `None`
/// when either is empty or contains a character outside `A–Z a–z 0–9 . _ -` (so no key
/// of one owner is a prefix trick for another's).
pub fn local_draft_key(owner: &str, form: &str) -> Option<String> {
    let clean = |s: &str| {
        !s.is_empty()
            && s.len() <= 64
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
    };
    (clean(owner) && !owner.contains('.') && clean(form))
        .then(|| format!("{LOCAL_DRAFT_PREFIX}{owner}.{form}"))
}

/// The owner word of a signed-in person (`u17`) or of an API key (`k3`).
pub fn local_draft_owner(user_id: Option<i64>, key_id: Option<i64>) -> Option<String> {
    match (user_id, key_id) {
        (Some(u), _) => Some(format!("u{u}")),
        (None, Some(k)) => Some(format!("k{k}")),
        (None, None) => None,
    }
}

impl LocalDraft {
    /// A draft of `state` saved at `now`.
    pub fn new(state: serde_json::Value, now: DateTime<Utc>) -> Self {
        LocalDraft {
            version: LOCAL_DRAFT_VERSION,
            saved_at: now,
            state,
        }
    }

    /// Reads stored text: `None` for text longer than [`LOCAL_DRAFT_MAX_BYTES`], text that
    /// is not an envelope, or an envelope of another version.
    pub fn parse(text: &str) -> Option<Self> {
        if text.len() > LOCAL_DRAFT_MAX_BYTES {
            return None;
        }
        serde_json::from_str::<LocalDraft>(text)
            .ok()
            .filter(|d| d.version == LOCAL_DRAFT_VERSION)
    }

    /// Whether to offer this draft for restoring into a form that now holds `current`:
    /// saved at most [`LOCAL_DRAFT_MAX_AGE_DAYS`] ago (and not in the future by more than
    /// a day of clock skew), and different from what the form shows anyway.
    pub fn worth_offering(&self, current: &serde_json::Value, now: DateTime<Utc>) -> bool {
        let age = now.signed_duration_since(self.saved_at);
        age <= Duration::days(LOCAL_DRAFT_MAX_AGE_DAYS)
            && age >= -Duration::days(1)
            && self.state != *current
    }
}

/// Whether a storage key is a local draft's (signing out removes those).
pub fn is_local_draft_key(key: &str) -> bool {
    key.starts_with(LOCAL_DRAFT_PREFIX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use serde_json::json;

    fn at(h: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 29, h, 14, 0).unwrap()
    }

    #[test]
    fn keys_name_the_owner_and_the_form() {
        assert_eq!(
            local_draft_key("u7", "invoice.new").as_deref(),
            Some("kontor.draft.u7.invoice.new")
        );
        assert_eq!(
            local_draft_key("k3", "offer.12").as_deref(),
            Some("kontor.draft.k3.offer.12")
        );
        assert!(is_local_draft_key("kontor.draft.u7.invoice.new"));
        assert!(!is_local_draft_key("kontor.theme"));
    }

    #[test]
    fn keys_refuse_empty_or_strange_parts() {
        assert_eq!(local_draft_key("", "invoice.new"), None);
        assert_eq!(local_draft_key("u7", ""), None);
        assert_eq!(local_draft_key("u7.x", "invoice.new"), None);
        assert_eq!(local_draft_key("u7", "invoice/new"), None);
        assert_eq!(local_draft_key("u7", &"a".repeat(65)), None);
    }

    #[test]
    fn the_owner_is_the_person_before_the_key() {
        assert_eq!(local_draft_owner(Some(4), Some(9)).as_deref(), Some("u4"));
        assert_eq!(local_draft_owner(None, Some(9)).as_deref(), Some("k9"));
        assert_eq!(local_draft_owner(None, None), None);
    }

    #[test]
    fn a_stored_draft_reads_back_as_written() {
        let d = LocalDraft::new(json!({"title": "Gerüst", "rows": [1, 2]}), at(10));
        let text = serde_json::to_string(&d).unwrap();
        assert_eq!(LocalDraft::parse(&text), Some(d));
    }

    #[test]
    fn broken_foreign_or_huge_text_is_ignored() {
        assert_eq!(LocalDraft::parse("{"), None);
        assert_eq!(LocalDraft::parse("null"), None);
        assert_eq!(
            LocalDraft::parse(r#"{"version": 2, "saved_at": "2026-11-29T10:14:00Z", "state": {}}"#),
            None
        );
        let huge = format!(
            r#"{{"version": 1, "saved_at": "2026-11-29T10:14:00Z", "state": "{}"}}"#,
            "x".repeat(LOCAL_DRAFT_MAX_BYTES)
        );
        assert_eq!(LocalDraft::parse(&huge), None);
    }

    #[test]
    fn only_recent_drafts_that_differ_are_offered() {
        let d = LocalDraft::new(json!({"title": "Gerüst"}), at(10));
        assert!(d.worth_offering(&json!({"title": ""}), at(11)));
        assert!(!d.worth_offering(&json!({"title": "Gerüst"}), at(11)));
        assert!(!d.worth_offering(&json!({}), at(10) + Duration::days(31)));
        assert!(d.worth_offering(&json!({}), at(10) + Duration::days(30)));
        assert!(!d.worth_offering(&json!({}), at(10) - Duration::days(2)));
    }
}
