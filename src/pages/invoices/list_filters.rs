//! The filter bar above the invoice list. Every change writes the URL query (so a view can
//! be shared and survives reload), pushes a history entry and goes back to page 1.

use crate::components::filter_fields::{
    change_filter, ClearFilters, CompanyFilter, DateRangeFilter, TagsFilter,
};
use crate::i18n::{status_label, t};
use kontor_model::party::CompanyType;
use kontor_model::query::{InvoiceFilter, SortedFilter};
use kontor_model::status::InvoiceStatus;
use leptos::prelude::*;

/// The filters: status, date range, customer (searched as you type) and tags, and
/// "clear filters". The search term is the top bar's (`components::top_search`).
#[component]
pub fn InvoiceFilters(
    /// The filter in effect (from the URL).
    #[prop(into)]
    filter: Signal<InvoiceFilter>,
    /// Called with the changed filter (page reset to 1).
    on_change: Callback<InvoiceFilter>,
) -> impl IntoView {
    let change =
        move |edit: Box<dyn FnOnce(&mut InvoiceFilter)>| change_filter(filter, on_change, edit);
    let status_value = move || {
        filter.with(|f| {
            f.status
                .first()
                .map(|s| s.as_str())
                .unwrap_or_default()
                .to_string()
        })
    };
    view! {
        <form class="filters" role="search" aria-label=t().invoices().filter_label on:submit=|ev| ev.prevent_default()>
            <div class="field field-inline">
                <label for="filter-status">{t().list().status}</label>
                <select
                    id="filter-status"
                    prop:value=status_value
                    on:change=move |ev| {
                        let status = InvoiceStatus::parse(&event_target_value(&ev));
                        change(Box::new(move |f| f.status = status.into_iter().collect()));
                    }
                >
                    <option value="" selected=move || status_value().is_empty()>{t().list().all_statuses}</option>
                    {InvoiceStatus::ALL
                        .into_iter()
                        .map(|s| view! { <option value=s.as_str() selected=move || status_value() == s.as_str()>{status_label(s.as_str())}</option> })
                        .collect_view()}
                </select>
            </div>
            <DateRangeFilter filter=filter on_change=on_change />
            <CompanyFilter id="filter-customer" label=t().list().customer kind=CompanyType::Customer
                value=Signal::derive(move || filter.with(|f| f.company_id))
                on_pick=Callback::new(move |id| change(Box::new(move |f| f.company_id = id))) />
            <TagsFilter label=t().list().tags placeholder=t().list().tags_placeholder
                value=Signal::derive(move || filter.with(|f| f.tags.clone()))
                on_pick=Callback::new(move |tags| change(Box::new(move |f| f.tags = tags))) />
            <ClearFilters
                shown=Signal::derive(move || filter.with(SortedFilter::has_filters))
                on_clear=Callback::new(move |_| on_change.run(filter.get_untracked().cleared())) />
        </form>
    }
}
