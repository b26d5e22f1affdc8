//! The fields of a list's filter bar that the invoice, offer, purchase and company lists
//! share (issue 30): a date bound to one side of a range and the tags, and applying an
//! edit of a document list's filter (back on page 1).

use crate::components::date::{iso, parse_iso};
use chrono::NaiveDate;
use kontor_model::query::{split_list, ListFilter};
use leptos::prelude::*;

/// Applies `edit` to the filter in effect (`filter`, read untracked), goes back to page 1
/// (`page` absent) and hands the result to `on_change`.
pub fn change_filter<F>(filter: Signal<F>, on_change: Callback<F>, edit: impl FnOnce(&mut F))
where
    F: ListFilter + Clone + Send + Sync + 'static,
{
    let mut f = filter.get_untracked();
    edit(&mut f);
    f.paging_mut().page = None;
    on_change.run(f);
}

/// A labelled `<input type="date">` of a filter bar (`id`, e.g. `filter-from`), showing
/// `value` as `YYYY-MM-DD` (empty when absent); `on_pick` gets the date typed, `None`
/// when cleared or not a date.
#[component]
pub fn DateFilter(
    /// The input's id (the label points at it).
    id: &'static str,
    /// The label text.
    label: &'static str,
    /// The date in effect.
    #[prop(into)]
    value: Signal<Option<NaiveDate>>,
    /// Called with the changed date.
    on_pick: Callback<Option<NaiveDate>>,
) -> impl IntoView {
    view! {
        <div class="field field-inline">
            <label for=id>{label}</label>
            <input
                id=id
                type="date"
                prop:value=move || value.get().map(iso).unwrap_or_default()
                on:change=move |ev| on_pick.run(parse_iso(&event_target_value(&ev)))
            />
        </div>
    }
}

/// The labelled tags input of a filter bar (`#filter-tags`): `value` joined with `, `;
/// `on_pick` gets the typed list split at commas ([`split_list`]).
#[component]
pub fn TagsFilter(
    /// The label text.
    label: &'static str,
    /// The placeholder text.
    placeholder: &'static str,
    /// The tags in effect.
    #[prop(into)]
    value: Signal<Vec<String>>,
    /// Called with the changed tags.
    on_pick: Callback<Vec<String>>,
) -> impl IntoView {
    view! {
        <div class="field field-inline">
            <label for="filter-tags">{label}</label>
            <input
                id="filter-tags"
                type="text"
                placeholder=placeholder
                prop:value=move || value.with(|tags| tags.join(", "))
                on:change=move |ev| on_pick.run(split_list(&event_target_value(&ev)).collect())
            />
        </div>
    }
}
