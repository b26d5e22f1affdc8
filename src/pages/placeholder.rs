//! Pages that say there is nothing here (yet).

use crate::paths::href;
use leptos::prelude::*;

/// A section that is not built yet (offers, purchases).
#[component]
pub fn ComingSoon(
    /// The section's name.
    title: &'static str,
) -> impl IntoView {
    view! {
        <div class="page-head">
            <h1>{title}</h1>
        </div>
        <div class="empty-state">
            <p>{format!("{title} are coming soon.")}</p>
            <p>
                <a href=href("/invoices")>"Go to invoices"</a>
            </p>
        </div>
    }
}

/// An unknown address.
#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <div class="center-page">
            <h1>"Page not found"</h1>
            <p>"There is nothing at this address."</p>
            <p>
                <a href=href("/invoices")>"Go to invoices"</a>
            </p>
        </div>
    }
}
