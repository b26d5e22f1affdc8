//! The fields of a list's filter bar that the invoice, offer, purchase and company lists
//! share (issue 30): a date range, the company, the tags and "Clear filters", and applying
//! an edit of a document list's filter (back on page 1).

use crate::components::company_picker::CompanyPicker;
use crate::components::date::{iso, parse_iso};
use crate::i18n::t;
use chrono::NaiveDate;
use kontor_model::party::{CompanyRef, CompanyType};
use kontor_model::query::{split_list, InvoiceFilter, ListFilter, OfferFilter, PurchaseFilter};
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

/// A document list's filter with a date range: the invoice, offer and purchase filters.
pub trait DatedFilter: ListFilter + Clone + Send + Sync + 'static {
    /// The first and the last day in effect.
    fn days(&self) -> (Option<NaiveDate>, Option<NaiveDate>);
    /// The first and the last day, to change.
    fn days_mut(&mut self) -> (&mut Option<NaiveDate>, &mut Option<NaiveDate>);
}

/// Implements [`DatedFilter`] for a filter whose days are its fields `from` and `to`, or
/// those of its field `$range`.
macro_rules! dated_filter {
    ($filter:ty $(, $range:ident)?) => {
        impl DatedFilter for $filter {
            fn days(&self) -> (Option<NaiveDate>, Option<NaiveDate>) {
                (self$(.$range)?.from, self$(.$range)?.to)
            }
            fn days_mut(&mut self) -> (&mut Option<NaiveDate>, &mut Option<NaiveDate>) {
                (&mut self$(.$range)?.from, &mut self$(.$range)?.to)
            }
        }
    };
}

dated_filter!(InvoiceFilter);
dated_filter!(OfferFilter);
dated_filter!(PurchaseFilter, date);

/// The filter bar's date range: "from" (`#filter-from`) and "to" (`#filter-to`)
/// [`DateFilter`]s over `filter`'s days; a changed day goes to `on_change` (back on page
/// 1, [`change_filter`]).
#[component]
pub fn DateRangeFilter<F: DatedFilter>(
    /// The filter in effect.
    #[prop(into)]
    filter: Signal<F>,
    /// Called with the changed filter.
    on_change: Callback<F>,
) -> impl IntoView {
    let pick = move |last: bool| {
        Callback::new(move |day| {
            change_filter(filter, on_change, |f: &mut F| {
                let (from, to) = f.days_mut();
                *(if last { to } else { from }) = day;
            })
        })
    };
    view! {
        <DateFilter id="filter-from" label=t().list().date_from value=Signal::derive(move || filter.with(|f| f.days().0)) on_pick=pick(false) />
        <DateFilter id="filter-to" label=t().list().date_to value=Signal::derive(move || filter.with(|f| f.days().1)) on_pick=pick(true) />
    }
}

/// The filter bar's company (customer or supplier, searched as you type with "All …"
/// first): `on_pick` gets the picked company's id, `None` for all.
#[component]
pub fn CompanyFilter(
    /// The picker's id (`filter-customer`).
    id: &'static str,
    /// The label text.
    label: &'static str,
    /// Customers or suppliers.
    kind: CompanyType,
    /// The company in effect.
    #[prop(into)]
    value: Signal<Option<i64>>,
    /// Called with the picked company's id.
    on_pick: Callback<Option<i64>>,
) -> impl IntoView {
    let pick = Callback::new(move |c: Option<CompanyRef>| on_pick.run(c.map(|c| c.id)));
    view! {
        <div class="field field-inline field-company">
            <label for=id>{label}</label>
            <CompanyPicker id=id kind=kind filter=true value=value on_pick=pick />
        </div>
    }
}

/// "Clear filters" at the end of a filter bar, shown while `shown` is true.
#[component]
pub fn ClearFilters(
    /// Whether any filter is set.
    #[prop(into)]
    shown: Signal<bool>,
    /// Called on a click.
    on_clear: Callback<()>,
) -> impl IntoView {
    view! {
        <Show when=move || shown.get()>
            <button type="button" class="btn btn-quiet filters-clear" on:click=move |_| on_clear.run(())>
                {t().list().clear_filters}
            </button>
        </Show>
    }
}
