//! The head of a page that creates something (the lists and the dashboard): the title
//! and the primary "New …" link, which the key `n` follows (`components::shortcuts`).

use leptos::prelude::*;

/// `<h1>` `title` with the primary link `new_label` to `new_href` beside it.
#[component]
pub fn PageHeadNew(
    /// The page title.
    #[prop(into)]
    title: String,
    /// The link target (already through `paths::href`).
    #[prop(into)]
    new_href: String,
    /// The link text ("New invoice").
    #[prop(into)]
    new_label: String,
) -> impl IntoView {
    view! {
        <div class="page-head">
            <h1>{title}</h1>
            <div class="page-actions">
                <a class="btn btn-primary" href=new_href data-shortcut="new" aria-keyshortcuts="n">{new_label}</a>
            </div>
        </div>
    }
}
