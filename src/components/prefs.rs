//! The user's display preferences in the browser (issue 12): the theme as `data-theme` on
//! `<html>` (absent for "system", so `prefers-color-scheme` decides — style/polish.css) and
//! the language as `<html lang>`, both kept in `localStorage` so index.html's inline script
//! applies the theme before the first paint. Also what every way of signing in does once
//! the server answered a session key.

use crate::api::client::store_credentials;
use kontor_model::users::User;
use kontor_model::users::{SignedIn, Theme};
use leptos::prelude::*;

/// `localStorage` key of the theme word (`system`, `light`, `dark`); read by index.html.
pub const THEME_STORAGE_KEY: &str = "kontor.theme";
/// `localStorage` key of the language (`de`, `en`).
pub const LANGUAGE_STORAGE_KEY: &str = "kontor.language";

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// The stored theme; `System` when none.
pub fn stored_theme() -> Theme {
    storage()
        .and_then(|s| s.get_item(THEME_STORAGE_KEY).ok().flatten())
        .and_then(|t| Theme::parse(&t))
        .unwrap_or_default()
}

/// Applies `theme` at once (`data-theme` on `<html>`, removed for `System`) and stores it.
pub fn apply_theme(theme: Theme) {
    if let Some(root) = document().document_element() {
        let _ = match theme {
            Theme::System => root.remove_attribute("data-theme"),
            other => root.set_attribute("data-theme", other.as_str()),
        };
    }
    if let Some(s) = storage() {
        let _ = s.set_item(THEME_STORAGE_KEY, theme.as_str());
    }
}

/// The stored language, else the browser's first (`de` or `en`), else `en`.
pub fn stored_language() -> String {
    storage()
        .and_then(|s| s.get_item(LANGUAGE_STORAGE_KEY).ok().flatten())
        .filter(|l| l == "de" || l == "en")
        .unwrap_or_else(browser_language)
}

/// `de` when the browser's first language is German, else `en`.
pub fn browser_language() -> String {
    let first = window().navigator().language().unwrap_or_default();
    if first.to_ascii_lowercase().starts_with("de") {
        "de".into()
    } else {
        "en".into()
    }
}

/// Sets `<html lang>` to `language`, stores it and makes it the app's language for what
/// is rendered from now on ([`crate::i18n::set_language`]; what is shown already follows
/// after [`crate::i18n::switch_language`]).
pub fn apply_language(language: &str) {
    crate::i18n::set_language_code(Some(language));
    if let Some(root) = document().document_element() {
        let _ = root.set_attribute("lang", language);
    }
    if let Some(s) = storage() {
        let _ = s.set_item(LANGUAGE_STORAGE_KEY, language);
    }
}

/// Applies the user's stored preferences (theme; language when chosen).
pub fn apply_user_prefs(user: &User) {
    apply_theme(user.theme);
    match user.language.as_deref() {
        Some(l @ ("de" | "en")) => apply_language(l),
        _ => apply_language(&browser_language()),
    }
}

/// After any sign-in (password, first run, invitation): stores the server and the session
/// key and applies the user's preferences.
pub fn start_session(server: &str, signed_in: &SignedIn) {
    store_credentials(server, &signed_in.api_key);
    apply_user_prefs(&signed_in.user);
}

/// "Firstname Lastname", or the e-mail when both are empty.
pub fn display_name(user: &User) -> String {
    let name = format!("{} {}", user.firstname.trim(), user.lastname.trim())
        .trim()
        .to_string();
    if name.is_empty() {
        user.email.clone().unwrap_or_default()
    } else {
        name
    }
}
