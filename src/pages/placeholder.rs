//! The page for an unknown address.

use crate::paths::href;
use leptos::prelude::*;

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
