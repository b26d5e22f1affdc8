//! The page for an unknown address.

use crate::i18n::t;
use crate::paths::href;
use leptos::prelude::*;

/// An unknown address.
#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <div class="center-page">
            <h1>{t().people_pages().not_found}</h1>
            <p>{t().people_pages().nothing_here}</p>
            <p>
                <a href=href("/invoices")>{t().people_pages().go_to_invoices}</a>
            </p>
        </div>
    }
}
