//! Pagination below a list: the result count, "page N of M", previous and next.

use crate::i18n::{fill, t};
use leptos::prelude::*;

/// The pager of a list.
#[component]
pub fn Pager(
    /// The page shown, from 1.
    #[prop(into)]
    page: Signal<u32>,
    /// The number of pages (at least 1).
    #[prop(into)]
    pages: Signal<u32>,
    /// The number of records over all pages (`X-Total`).
    #[prop(into)]
    total: Signal<u64>,
    /// Called with the page to show next.
    on_page: Callback<u32>,
) -> impl IntoView {
    let label = move || {
        let total = total.get();
        if total == 1 {
            t().pager().one_result.to_string()
        } else {
            fill(t().pager().results, &[("n", &total.to_string())])
        }
    };
    view! {
        <nav class="pager" aria-label=t().pager().label>
            <span class="pager-count">{label}</span>
            <span class="pager-pages">
                <button
                    type="button"
                    class="btn btn-small"
                    disabled=move || { page.get() <= 1 }
                    on:click=move |_| on_page.run(page.get_untracked().saturating_sub(1).max(1))
                >
                    {t().pager().previous}
                </button>
                <span class="pager-position">{move || fill(t().common().page_of, &[("page", &page.get().to_string()), ("pages", &pages.get().to_string())])}</span>
                <button
                    type="button"
                    class="btn btn-small"
                    disabled=move || { page.get() >= pages.get() }
                    on:click=move |_| on_page.run(page.get_untracked() + 1)
                >
                    {t().pager().next}
                </button>
            </span>
        </nav>
    }
}

/// The page number in the current URL's `?page=` (1 when absent, malformed or below 1),
/// as a memo that follows navigation.
pub fn page_in_query() -> Memo<u32> {
    let query = leptos_router::hooks::use_query_map();
    Memo::new(move |_| {
        query.with(|q| {
            q.get_str("page")
                .and_then(|p| p.parse::<u32>().ok())
                .filter(|p| *p >= 1)
                .unwrap_or(1)
        })
    })
}
