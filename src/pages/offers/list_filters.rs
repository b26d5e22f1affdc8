//! The filter bar above the offer list: status, date range, customer (searched as you
//! type), deal and project. Every change writes the URL query, pushes a history entry and
//! goes back to page 1. Sorting is by the table's headers, the search term is the top
//! bar's (`components::top_search`).

use crate::components::filter_fields::{
    change_filter, ClearFilters, CompanyFilter, DateRangeFilter,
};
use crate::i18n::{status_label, t};
use kontor_model::offer::OfferStatus;
use kontor_model::party::{CompanyType, Deal, Project};
use kontor_model::query::{OfferFilter, SortedFilter};
use leptos::prelude::*;

/// `filter` without its filters: what "Clear filters" leaves (the sort, the page size and
/// `sort_by`).
pub fn cleared(filter: &OfferFilter) -> OfferFilter {
    let mut f = filter.cleared();
    f.paging.sort_by = filter.paging.sort_by.clone();
    f
}

/// A `<select>` of `(value, label)` options bound to one filter field.
fn select(
    id: &'static str,
    label: &'static str,
    value: impl Fn() -> String + Send + Sync + Copy + 'static,
    options: impl Fn() -> Vec<(String, String)> + Send + Sync + 'static,
    on_pick: impl Fn(String) + 'static,
) -> impl IntoView {
    view! {
        <div class="field field-inline">
            <label for=id>{label}</label>
            <select id=id prop:value=value on:change=move |ev| on_pick(event_target_value(&ev))>
                {move || options().into_iter().map(|(v, l)| {
                    let selected = { let v = v.clone(); move || value() == v };
                    view! { <option value=v selected=selected>{l}</option> }
                }).collect_view()}
            </select>
        </div>
    }
}

/// The filters and "clear filters".
#[component]
pub fn OfferFilters(
    /// The filter in effect (from the URL).
    #[prop(into)]
    filter: Signal<OfferFilter>,
    /// Deals to choose from.
    #[prop(into)]
    deals: Signal<Vec<Deal>>,
    /// Projects to choose from.
    #[prop(into)]
    projects: Signal<Vec<Project>>,
    /// Called with the changed filter (page reset to 1).
    on_change: Callback<OfferFilter>,
) -> impl IntoView {
    let change =
        move |edit: Box<dyn FnOnce(&mut OfferFilter)>| change_filter(filter, on_change, edit);
    let first_id = |ids: &[i64]| ids.first().map(|i| i.to_string()).unwrap_or_default();
    view! {
        <form class="filters" role="search" aria-label=t().offers().filter_label on:submit=|ev| ev.prevent_default()>
            {select("filter-status", t().list().status, move || filter.with(|f| f.status.first().map(|s| s.as_str()).unwrap_or_default().to_string()),
                || std::iter::once(("".into(), t().list().all_statuses.into())).chain(OfferStatus::ALL.iter().map(|s| (s.as_str().into(), status_label(s.as_str())))).collect(),
                move |v| change(Box::new(move |f| f.status = OfferStatus::parse(&v).into_iter().collect())))}
            <DateRangeFilter filter=filter on_change=on_change />
            <CompanyFilter id="filter-customer" label=t().list().customer kind=CompanyType::Customer
                value=Signal::derive(move || filter.with(|f| f.company_id))
                on_pick=Callback::new(move |id| change(Box::new(move |f| f.company_id = id))) />
            {select("filter-deal", t().list().deal, move || filter.with(|f| first_id(&f.deal_ids)),
                move || std::iter::once(("".into(), t().list().all_deals.into())).chain(deals.get().into_iter().map(|d| (d.id.to_string(), d.name))).collect(),
                move |v| change(Box::new(move |f| f.deal_ids = v.parse().into_iter().collect())))}
            {select("filter-project", t().list().project, move || filter.with(|f| first_id(&f.project_ids)),
                move || std::iter::once(("".into(), t().list().all_projects.into())).chain(projects.get().into_iter().map(|p| (p.id.to_string(), p.name))).collect(),
                move |v| change(Box::new(move |f| f.project_ids = v.parse().into_iter().collect())))}
            <ClearFilters
                shown=Signal::derive(move || filter.with(SortedFilter::has_filters))
                on_clear=Callback::new(move |_| on_change.run(cleared(&filter.get_untracked()))) />
        </form>
    }
}
