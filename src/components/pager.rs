//! Pagination below a list: the result count, "page N of M", previous and next.

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
        if total.get() == 1 {
            "1 result".to_string()
        } else {
            format!("{} results", total.get())
        }
    };
    view! {
        <nav class="pager" aria-label="Pagination">
            <span class="pager-count">{label}</span>
            <span class="pager-pages">
                <button
                    type="button"
                    class="btn btn-small"
                    disabled=move || { page.get() <= 1 }
                    on:click=move |_| on_page.run(page.get_untracked().saturating_sub(1).max(1))
                >
                    "‹ Previous"
                </button>
                <span class="pager-position">{move || format!("Page {} of {}", page.get(), pages.get())}</span>
                <button
                    type="button"
                    class="btn btn-small"
                    disabled=move || { page.get() >= pages.get() }
                    on:click=move |_| on_page.run(page.get_untracked() + 1)
                >
                    "Next ›"
                </button>
            </span>
        </nav>
    }
}
