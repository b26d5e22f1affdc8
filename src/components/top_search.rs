//! The top bar's search field (issue 11 § Find and see): it searches what the current page
//! lists — on `/offers…` offers, on `/purchases…` purchases, on `/customers…` and
//! `/suppliers…` those, everywhere else invoices — and says so in its label and
//! placeholder ("Search offers…"). `/` focuses it from anywhere except while typing in a
//! field or while a dialog is open.
//!
//! It is the lists' one search field (the pages have no search input of their own): on a
//! list it shows the URL's `term` and filters the list as you type (300 ms after typing
//! stops, back to page 1, the other filters kept); elsewhere Enter opens the list with
//! `?term=`. History (`docs/decisions.md` § Lists in the app): the first settled change of
//! a typing session pushes an entry, later ones in the same session replace it, so Back
//! returns to the list as it was before the search, not to each keystroke.

use crate::components::debounce::Debounce;
use crate::paths::router_base;
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate, use_query_map};
use leptos_router::NavigateOptions;
use std::time::Duration;
use wasm_bindgen::JsCast;

/// How long typing must pause before the list is filtered.
pub const SEARCH_DELAY: Duration = Duration::from_millis(300);

/// What the search field searches on a page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchScope {
    /// The list's path, e.g. `/offers`.
    pub list: &'static str,
    /// What is searched, plural and lower case, e.g. `offers`.
    pub noun: &'static str,
}

impl SearchScope {
    /// The visible label's words in the user's language: "Search offers" ("Angebote
    /// durchsuchen").
    pub fn label(self) -> String {
        crate::i18n::t()
            .search()
            .get(self.noun)
            .map(str::to_string)
            .unwrap_or_else(|| format!("Search {}", self.noun))
    }

    /// The placeholder: "Search offers…".
    pub fn placeholder(self) -> String {
        format!("{}…", self.label())
    }
}

/// The scope of the in-app `path` (without the hosting prefix): the list of the path's
/// first segment when it is one of offers, purchases, customers, suppliers; invoices
/// otherwise (the invoice pages, settings, the dashboard).
pub fn search_scope(path: &str) -> SearchScope {
    let first = path.trim_start_matches('/').split('/').next().unwrap_or("");
    let (list, noun) = match first {
        "offers" => ("/offers", "offers"),
        "purchases" => ("/purchases", "purchases"),
        "customers" => ("/customers", "customers"),
        "suppliers" => ("/suppliers", "suppliers"),
        _ => ("/invoices", "invoices"),
    };
    SearchScope { list, noun }
}

/// True when the keyboard event's target is a place where `/` is typed: an input, a
/// select, a text area or an editable element.
fn typing_in_field(ev: &web_sys::KeyboardEvent) -> bool {
    let Some(el) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
    else {
        return false;
    };
    matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT") || el.is_content_editable()
}

/// True while a modal dialog is open (the page behind it, the search too, is inert).
fn dialog_open() -> bool {
    document()
        .query_selector("dialog[open]")
        .ok()
        .flatten()
        .is_some()
}

/// The search field of the top bar.
#[component]
pub fn TopSearch() -> impl IntoView {
    let location = use_location();
    let query = use_query_map();
    let navigate = use_navigate();
    let path = Memo::new(move |_| {
        let full = location.pathname.get();
        let base = router_base();
        match full.strip_prefix(base.as_str()) {
            Some(rest) if !base.is_empty() && rest.starts_with('/') => rest.to_string(),
            _ => full,
        }
    });
    let scope = Memo::new(move |_| search_scope(&path.get()));
    let on_list = Memo::new(move |_| path.get().trim_end_matches('/') == scope.get().list);
    let text = RwSignal::new(String::new());
    let wait = Debounce::new(SEARCH_DELAY);
    // Whether this typing session (since the field got focus or Enter) has pushed its
    // history entry yet.
    let pushed = StoredValue::new(false);

    // The field follows the URL: the list's `term` on a list, empty elsewhere. A term that
    // differs only in surrounding spaces from what is typed is left alone.
    Effect::new(move |_| {
        let term = if on_list.get() {
            query.with(|q| q.get("term")).unwrap_or_default()
        } else {
            String::new()
        };
        if !wait.is_pending() && text.get_untracked().trim() != term.trim() {
            text.set(term);
        }
    });

    // Filters the list of the current scope with `term` (page 1, other filters kept on the
    // list itself); `replace` replaces the history entry instead of pushing one.
    let apply = Callback::new(move |(term, replace): (String, bool)| {
        let scope = scope.get_untracked();
        let mut params = if on_list.get_untracked() {
            query.get_untracked()
        } else {
            Default::default()
        };
        let before = params.to_query_string();
        params.remove("term");
        params.remove("page");
        let term = term.trim().to_string();
        if !term.is_empty() {
            params.insert("term", term);
        }
        let after = params.to_query_string();
        if on_list.get_untracked() && after == before {
            return;
        }
        let options = NavigateOptions {
            replace,
            scroll: false,
            ..Default::default()
        };
        navigate(&format!("{}{after}", scope.list), options);
    });
    let on_input = move |ev: leptos::ev::Event| {
        let typed = event_target_value(&ev);
        text.set(typed.clone());
        if on_list.get_untracked() {
            wait.call(move || {
                let replace = pushed.get_value();
                pushed.set_value(true);
                apply.run((typed, replace));
            });
        }
    };
    // A change without typing (the field emptied at once, e.g. by the browser's clear
    // button or an autofill) filters the list at once.
    let on_change = move |ev: leptos::ev::Event| {
        if on_list.get_untracked() {
            wait.cancel();
            let replace = pushed.get_value();
            pushed.set_value(true);
            apply.run((event_target_value(&ev), replace));
        }
    };
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        wait.cancel();
        let replace = on_list.get_untracked() && pushed.get_value();
        pushed.set_value(false);
        apply.run((text.get_untracked(), replace));
    };

    // `/` focuses the field unless the user is typing in a field.
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.key() == "/"
            && !ev.ctrl_key()
            && !ev.meta_key()
            && !ev.alt_key()
            && !ev.default_prevented()
            && !typing_in_field(&ev)
            && !dialog_open()
        {
            if let Some(input) = document()
                .get_element_by_id("global-search")
                .and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok())
            {
                ev.prevent_default();
                let _ = input.focus();
                input.select();
            }
        }
    });
    on_cleanup(move || handle.remove());

    view! {
        <form class="topbar-search" role="search" on:submit=on_submit
            aria-label=move || scope.get().label()>
            <label class="visually-hidden" for="global-search">
                {move || scope.get().label()}
            </label>
            <input id="global-search" type="search" autocomplete="off"
                placeholder=move || scope.get().placeholder()
                aria-keyshortcuts="/"
                data-scope=move || scope.get().noun
                prop:value=move || text.get()
                on:input=on_input
                on:change=on_change
                on:focus=move |_| pushed.set_value(false) />
            <kbd class="topbar-search-key" aria-hidden="true">"/"</kbd>
        </form>
    }
}
