//! The invoice list: filters and sort in the URL query, a table with sortable headers,
//! totals per currency for the filter (from `GET /invoices/summary`), the result count and
//! pagination. Every filter, sort and page change pushes a history entry, so Back returns
//! to the previous view of the list.

use super::list_chart::InvoiceChart;
use super::list_filters::InvoiceFilters;
use super::list_table::{headings, InvoiceTable};
use crate::api::invoices::{get_invoice_summary, list_invoices};
use crate::components::empty_list::EmptyList;
use crate::components::error_panel::ErrorPanel;
use crate::components::list_totals::ListTotalsLoad;
use crate::components::list_url::ListUrl;
use crate::components::page_head::PageHeadNew;
use crate::components::pager::Pager;
use crate::components::skeleton::SkeletonTable;
use crate::i18n::t;
use crate::paths::href;
use kontor_model::query::{InvoiceFilter, SortedFilter};
use leptos::prelude::*;

/// Rows per page unless the URL says otherwise.
const PER_PAGE: u32 = 50;

/// The invoice list page (`/invoices?status=..&date_from=..&term=..&company_id=..&tags=..&sort=..&order=..&page=..`).
#[component]
pub fn InvoiceList() -> impl IntoView {
    let list = ListUrl::<InvoiceFilter>::new("/invoices");
    let (filter, set_filter) = (list.filter, list.set_filter);
    let invoices = LocalResource::new(move || {
        let filter = list.requested(PER_PAGE);
        async move { list_invoices(&filter?).await }
    });
    let totals = LocalResource::new(move || {
        let f = list.unpaged.get();
        async move { get_invoice_summary(&f).await.map(|s| s.totals) }
    });
    let clear = Callback::new(move |_: ()| set_filter.run(filter.get_untracked().cleared()));
    let (loading, set_loading) = signal(false);
    view! {
        <PageHeadNew title=t().nav().invoices new_href=href("/invoices/new") new_label=t().invoices().new_invoice />
        <InvoiceFilters filter=filter on_change=set_filter />
        <InvoiceChart filter=list.unpaged />
        <div class="progress" class:is-active=loading role="progressbar" aria-hidden=move || (!loading.get()).to_string()></div>
        <Transition fallback=|| view! { <SkeletonTable headings=headings() /> } set_pending=set_loading>
            {move || Suspend::new(async move {
                match invoices.await {
                    Err(error) => {
                        view! { <ErrorPanel error=error on_retry=Callback::new(move |_| invoices.refetch()) /> }.into_any()
                    }
                    Ok(page) if page.items.is_empty() => view! {
                        <EmptyList filtered=filter.get_untracked().has_filters()
                            none_match=t().invoices().none_match none_yet=t().invoices().none_yet
                            new_href=href("/invoices/new") new_label=t().invoices().new_invoice on_clear=clear />
                    }
                    .into_any(),
                    Ok(page) => {
                        let (current, pages, total) = (page.page, page.page_count(), page.total);
                        view! {
                            <InvoiceTable invoices=page.items sort=list.sort on_sort=list.set_sort />
                            <ListTotalsLoad totals=Signal::derive(move || totals.get()) show_open=true noun="invoices" />
                            <Pager page=current pages=pages total=total on_page=list.go_to_page />
                        }
                        .into_any()
                    }
                }
            })}
        </Transition>
    }
}
