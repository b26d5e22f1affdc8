//! Reading and writing local drafts in `localStorage` (issue 34, issue 37): the storage
//! under [`crate::components::local_draft`]'s form hook, kept apart so that signing out
//! ([`wipe_all`], the user menu) needs nothing of the frame.

use chrono::Utc;
use kontor_model::local_draft::{is_local_draft_key, LocalDraft};
use leptos::prelude::*;

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// Removes every local draft of every person from this browser (sign-out).
pub fn wipe_all() {
    let Some(s) = storage() else { return };
    let len = s.length().unwrap_or(0);
    let keys: Vec<String> = (0..len)
        .filter_map(|i| s.key(i).ok().flatten())
        .filter(|k| is_local_draft_key(k))
        .collect();
    for k in keys {
        let _ = s.remove_item(&k);
    }
}

/// The stored draft under `key`, if it reads back.
pub fn read(key: &str) -> Option<LocalDraft> {
    let text = storage()?.get_item(key).ok().flatten()?;
    LocalDraft::parse(&text)
}

/// Stores `state` under `key`, saved now. A full storage keeps the older draft.
pub fn write(key: &str, state: serde_json::Value) {
    write_saved_at(key, state, Utc::now());
}

/// Stores `state` under `key` as saved at `saved_at` (an outbox item going back to its
/// form keeps the time it was typed). A full storage keeps the older draft.
pub fn write_saved_at(key: &str, state: serde_json::Value, saved_at: chrono::DateTime<Utc>) {
    let draft = LocalDraft::new(state, saved_at);
    if let (Some(s), Ok(text)) = (storage(), serde_json::to_string(&draft)) {
        let _ = s.set_item(key, &text);
    }
}

/// Removes the draft under `key`.
pub fn remove(key: &str) {
    if let Some(s) = storage() {
        let _ = s.remove_item(key);
    }
}
