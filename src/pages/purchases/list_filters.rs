//! The filter bar above the purchase list. Every change writes the URL query through
//! `PurchaseFilter::to_pairs` (so a view can be shared and survives reload), pushes a
//! history entry and goes back to page 1.

use crate::components::filter_fields::{
    change_filter, ClearFilters, CompanyFilter, DateRangeFilter, TagsFilter,
};
use crate::i18n::t;
use kontor_model::party::CompanyType;
use kontor_model::purchase::{PaymentMethod, PurchaseCategory, PurchaseStatus};
use kontor_model::query::{ListFilter, PurchaseFilter, SortedFilter};
use leptos::prelude::*;

/// Reads the filter back from a query string such as `?unpaid=true&date=:2026-11-30`.
pub fn parse_query(query: &str) -> Result<PurchaseFilter, kontor_model::query::QueryError> {
    PurchaseFilter::from_query(query.trim_start_matches('?'))
}

type Edit = Box<dyn FnOnce(&mut PurchaseFilter)>;

/// The filters: status, supplier (searched on the server as you type) or "without
/// supplier", category, date range, payment method, tags, unpaid, and "clear filters".
/// The search term is the top bar's (`components::top_search`).
#[component]
pub fn PurchaseFilters(
    /// The filter in effect (from the URL).
    #[prop(into)]
    filter: Signal<PurchaseFilter>,
    /// Categories to choose from.
    #[prop(into)]
    categories: Signal<Vec<PurchaseCategory>>,
    /// Called with the changed filter (page reset to 1).
    on_change: Callback<PurchaseFilter>,
) -> impl IntoView {
    let change = move |edit: Edit| change_filter(filter, on_change, edit);
    let id_of = |ev: &leptos::ev::Event| event_target_value(ev).parse::<i64>().ok();
    let status = move || filter.with(|f| f.status.first().map(|s| s.as_str()).unwrap_or_default());
    // `company_id=0` means "without supplier" (the checkbox); the picker shows the others.
    let supplier = Signal::derive(move || filter.with(|f| f.company_id.filter(|id| *id > 0)));
    let without = move || filter.with(|f| f.company_id == Some(0));
    let category =
        move || filter.with(|f| f.category_id.map(|c| c.to_string()).unwrap_or_default());
    let method = move || filter.with(|f| f.payment_method.map(|m| m.as_str()).unwrap_or_default());
    view! {
        <form class="filters" role="search" aria-label=t().purchases().filter_label on:submit=|ev| ev.prevent_default()>
            <div class="field field-inline">
                <label for="filter-status">{t().list().status}</label>
                <select id="filter-status" prop:value=status on:change=move |ev| {
                    let s = PurchaseStatus::parse(&event_target_value(&ev));
                    change(Box::new(move |f| f.status = s.into_iter().collect()));
                }>
                    <option value="">{t().list().all_statuses}</option>
                    <option value="pending" selected=move || status() == "pending">{t().status().pending}</option>
                    <option value="approved" selected=move || status() == "approved">{t().status().approved}</option>
                </select>
            </div>
            <CompanyFilter id="filter-supplier" label=t().list().supplier kind=CompanyType::Supplier
                value=supplier
                on_pick=Callback::new(move |id| change(Box::new(move |f| f.company_id = id))) />
            <label class="check filter-without">
                <input id="filter-without-supplier" type="checkbox"
                    prop:checked=without
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        change(Box::new(move |f| f.company_id = on.then_some(0)));
                    } />
                " " {t().purchase_filters().without_supplier}
            </label>
            <div class="field field-inline">
                <label for="filter-category">{t().list().category}</label>
                <select id="filter-category" prop:value=category on:change=move |ev| {
                    let id = id_of(&ev);
                    change(Box::new(move |f| f.category_id = id));
                }>
                    <option value="">{t().list().all_categories}</option>
                    <For each=move || categories.get() key=|c| c.id let:c>
                        <option value=c.id.to_string() selected=move || category() == c.id.to_string()>{c.name.clone()}</option>
                    </For>
                </select>
            </div>
            <DateRangeFilter filter=filter on_change=on_change />
            <div class="field field-inline">
                <label for="filter-method">{t().list().payment}</label>
                <select id="filter-method" prop:value=method on:change=move |ev| {
                    let m = PaymentMethod::parse(&event_target_value(&ev));
                    change(Box::new(move |f| f.payment_method = m));
                }>
                    <option value="">{t().list().any_method}</option>
                    {PaymentMethod::ALL.into_iter().map(|m| view! {
                        <option value=m.as_str() selected=move || method() == m.as_str()>{t().payment_method().get(m.as_str()).unwrap_or(m.label())}</option>
                    }).collect_view()}
                </select>
            </div>
            <TagsFilter label=t().list().tags placeholder=t().list().tags_placeholder
                value=Signal::derive(move || filter.with(|f| f.tags.clone()))
                on_pick=Callback::new(move |tags| change(Box::new(move |f| f.tags = tags))) />
            <label class="check filter-unpaid">
                <input id="filter-unpaid" type="checkbox"
                    prop:checked=move || filter.with(|f| f.unpaid == Some(true))
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        change(Box::new(move |f| f.unpaid = on.then_some(true)));
                    } />
                " " {t().purchase_filters().unpaid_only}
            </label>
            <ClearFilters
                shown=Signal::derive(move || filter.with(SortedFilter::has_filters))
                on_clear=Callback::new(move |_| on_change.run(filter.get_untracked().cleared())) />
        </form>
    }
}
