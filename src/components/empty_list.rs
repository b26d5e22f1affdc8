//! What a list page shows when its page has no rows (the invoice, offer, purchase and
//! company lists alike): with filters set, that nothing matches and "Clear filters";
//! without, that there is nothing yet and the link to create the first one.

use crate::i18n::t;
use leptos::prelude::*;

/// The empty state of a list.
#[component]
pub fn EmptyList(
    /// Whether any filter is set.
    filtered: bool,
    /// Said when filters are set ("No invoices match the filters").
    none_match: &'static str,
    /// Said without filters ("No invoices yet").
    none_yet: &'static str,
    /// The link target of the "New …" button (already through `paths::href`).
    #[prop(into)]
    new_href: String,
    /// The "New …" button's text.
    #[prop(into)]
    new_label: String,
    /// "Clear filters" pressed.
    on_clear: Callback<()>,
) -> impl IntoView {
    if filtered {
        view! {
            <div class="empty-state">
                <p>{none_match}</p>
                <button type="button" class="btn" on:click=move |_| on_clear.run(())>
                    {t().list().clear_filters}
                </button>
            </div>
        }
        .into_any()
    } else {
        view! {
            <div class="empty-state">
                <p>{none_yet}</p>
                <a class="btn btn-primary" href=new_href>{new_label}</a>
            </div>
        }
        .into_any()
    }
}
