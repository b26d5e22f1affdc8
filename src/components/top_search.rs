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
//!
//! Issue 33 § One search: from two characters on, the field also asks `GET /search` and
//! shows the hits of every kind grouped under it (a combobox: arrow keys move through
//! them, Enter opens the active hit — the first when none is chosen — Escape closes). Before
//! the hits are shown, Enter opens the list with `?term=` as ever. On a list page the list
//! itself is the result: typing filters it and no hits are shown.

use crate::components::debounce::Debounce;
use crate::components::search_results::{hit_id, hits, Hit, SearchResultsList};
use crate::components::shortcuts::{dialog_open, typing_in_field};
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
    // Issue 33: the hits of one search over everything, the active one, and whether the
    // list under the field is open. `asked` is the term of the latest request (an older
    // answer arriving late is dropped).
    let found = RwSignal::new(Vec::<Hit>::new());
    let active = RwSignal::new(None::<usize>);
    let shown = RwSignal::new(false);
    let asked = StoredValue::new(String::new());
    let everywhere = Debounce::new(Duration::from_millis(250));
    let navigate_hit = use_navigate();
    let open_hit = Callback::new(move |n: usize| {
        if let Some(hit) = found.get_untracked().get(n) {
            shown.set(false);
            active.set(None);
            text.set(String::new());
            navigate_hit(&hit.path, Default::default());
        }
    });
    let look_up = move |typed: String| {
        let term = typed.trim().to_string();
        if term.chars().count() < 2 {
            everywhere.cancel();
            asked.set_value(String::new());
            shown.set(false);
            found.set(Vec::new());
            active.set(None);
            return;
        }
        everywhere.call(move || {
            asked.set_value(term.clone());
            leptos::task::spawn_local(async move {
                let answer = crate::api::search::search(&term).await;
                if asked.get_value() != term {
                    return;
                }
                found.set(answer.map(|r| hits(&r)).unwrap_or_default());
                active.set(None);
                shown.set(true);
            });
        });
    };

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
        // On a list the list itself is the result; elsewhere the hits of every kind show.
        if !on_list.get_untracked() {
            look_up(typed.clone());
        }
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
        // A hit chosen with the arrows, or off a list the first hit once shown, opens.
        let first = (shown.get_untracked()
            && !on_list.get_untracked()
            && !found.with_untracked(Vec::is_empty))
        .then_some(0);
        if let Some(n) = active.get_untracked().or(first) {
            wait.cancel();
            everywhere.cancel();
            open_hit.run(n);
            return;
        }
        shown.set(false);
        everywhere.cancel();
        asked.set_value(String::new());
        wait.cancel();
        let replace = on_list.get_untracked() && pushed.get_value();
        pushed.set_value(false);
        apply.run((text.get_untracked(), replace));
    };

    // Arrow keys move through the hits; Escape closes them.
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let count = found.with_untracked(Vec::len);
        match ev.key().as_str() {
            "ArrowDown" if shown.get_untracked() && count > 0 => {
                ev.prevent_default();
                active.update(|a| *a = Some(a.map_or(0, |n| (n + 1) % count)));
            }
            "ArrowUp" if shown.get_untracked() && count > 0 => {
                ev.prevent_default();
                active.update(|a| *a = Some(a.map_or(count - 1, |n| (n + count - 1) % count)));
            }
            "Escape" if shown.get_untracked() => {
                ev.prevent_default();
                shown.set(false);
                active.set(None);
            }
            _ => {}
        }
        if let Some(n) = active.get_untracked() {
            if let Some(el) = document().get_element_by_id(&hit_id(n)) {
                el.scroll_into_view_with_bool(false);
            }
        }
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
                role="combobox" aria-autocomplete="list" aria-controls="global-search-results"
                aria-expanded=move || shown.get().to_string()
                aria-activedescendant=move || active.get().map(hit_id)
                placeholder=move || scope.get().placeholder()
                aria-keyshortcuts="/"
                data-scope=move || scope.get().noun
                prop:value=move || text.get()
                on:input=on_input
                on:change=on_change
                on:keydown=on_key
                on:blur=move |_| shown.set(false)
                on:focus=move |_| {
                    pushed.set_value(false);
                    if !found.with_untracked(Vec::is_empty) && text.with_untracked(|t| t.trim().chars().count() >= 2) {
                        shown.set(true);
                    }
                } />
            <kbd class="topbar-search-key" aria-hidden="true">"/"</kbd>
            <Show when=move || shown.get()>
                <SearchResultsList hits=found active=active on_pick=open_hit />
            </Show>
        </form>
    }
}
