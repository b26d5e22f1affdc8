//! Where the app is hosted and how to link inside it.
//!
//! The bundle may be served at the site root or under a prefix such as `/kontor/` (build
//! with `trunk build --public-url /kontor/`, which writes `<base href="/kontor/">`). The
//! prefix is read at runtime from the `<base href>` element, so the same code works at
//! both places:
//!
//! - [`router_base`] is handed to `<Router base=..>`;
//! - [`href`] turns an in-app path (`"/invoices/5"`) into a link target
//!   (`"/kontor/invoices/5"`), because leptos_router leaves absolute hrefs as they are;
//! - `use_navigate()` already prefixes the base itself: pass it plain in-app paths.

use leptos::prelude::window;

thread_local! {
    static BASE: String = detect_base();
}

/// The path prefix the app is hosted under, without a trailing slash: `""` at the site
/// root, `"/kontor"` under `/kontor/`.
pub fn router_base() -> String {
    BASE.with(Clone::clone)
}

/// A link target for the in-app `path` (which starts with `/`), e.g. `"/invoices"` →
/// `"/kontor/invoices"` when hosted under `/kontor/`.
pub fn href(path: &str) -> String {
    format!("{}{}", router_base(), path)
}

/// The prefix from a `<base href>` path: `"/"` → `""`, `"/kontor/"` → `"/kontor"`.
pub fn base_from_path(path: &str) -> String {
    path.trim_end_matches('/').to_string()
}

/// Reads `<base href>`; without one (or when it points to another origin) the app is at
/// the root.
fn detect_base() -> String {
    let Some(document) = window().document() else {
        return String::new();
    };
    let has_base = document
        .query_selector("base[href]")
        .ok()
        .flatten()
        .is_some();
    if !has_base {
        return String::new();
    }
    let Ok(Some(base_uri)) = document.base_uri() else {
        return String::new();
    };
    let Ok(url) = web_sys::Url::new(&base_uri) else {
        return String::new();
    };
    let same_origin = window()
        .location()
        .origin()
        .map(|o| o == url.origin())
        .unwrap_or(false);
    if same_origin {
        base_from_path(&url.pathname())
    } else {
        String::new()
    }
}
