//! The purchase list: filters and sort in the URL query, the table with sortable headers,
//! totals per currency for the filter (`GET /purchases/summary`, the shared
//! [`ListTotalsLoad`]), the result count and pagination. Every filter, sort and page change
//! pushes a history entry.

use super::list_filters::PurchaseFilters;
use super::list_table::{headings, PurchaseTable};
use crate::api::purchases::{get_purchase_summary, list_purchase_categories, list_purchases};
use crate::components::einvoice_import::EInvoiceImport;
use crate::components::empty_list::EmptyList;
use crate::components::error_panel::ErrorPanel;
use crate::components::list_totals::ListTotalsLoad;
use crate::components::list_url::ListUrl;
use crate::components::page_head::PageHeadNew;
use crate::components::pager::Pager;
use crate::components::skeleton::SkeletonTable;
use crate::i18n::t;
use crate::paths::href;
use kontor_model::query::{PurchaseFilter, SortedFilter};
use leptos::prelude::*;

/// Rows per page unless the URL says otherwise.
const PER_PAGE: u32 = 50;

/// The purchase list page (`/purchases?status=..&date=from:to&unpaid=true&page=..`).
#[component]
pub fn PurchaseList() -> impl IntoView {
    let list = ListUrl::<PurchaseFilter>::new("/purchases");
    let (filter, set_filter) = (list.filter, list.set_filter);
    let purchases = LocalResource::new(move || {
        let filter = list.requested(PER_PAGE);
        async move { list_purchases(&filter?).await }
    });
    let totals = LocalResource::new(move || {
        let f = list.unpaged.get();
        async move { get_purchase_summary(&f).await.map(|s| s.totals) }
    });
    let categories = LocalResource::new(|| async {
        list_purchase_categories()
            .await
            .map(|p| p.items)
            .unwrap_or_default()
    });
    let clear = Callback::new(move |_: ()| set_filter.run(filter.get_untracked().cleared()));
    let (loading, set_loading) = signal(false);
    view! {
        <PageHeadNew title=t().nav().purchases new_href=href("/purchases/new") new_label=t().purchases().new_purchase />
        <EInvoiceImport id="import-einvoice" whole_page=true />
        <PurchaseFilters
            filter=filter
            categories=Signal::derive(move || categories.get().unwrap_or_default())
            on_change=set_filter
        />
        <div class="progress" class:is-active=loading role="progressbar" aria-hidden=move || (!loading.get()).to_string()></div>
        <Transition fallback=|| view! { <SkeletonTable headings=headings() /> } set_pending=set_loading>
            {move || Suspend::new(async move {
                match purchases.await {
                    Err(error) => view! { <ErrorPanel error=error on_retry=Callback::new(move |_| purchases.refetch()) /> }.into_any(),
                    Ok(page) if page.items.is_empty() => view! {
                        <EmptyList filtered=filter.get_untracked().has_filters()
                            none_match=t().purchases().none_match none_yet=t().purchases().none_yet
                            new_href=href("/purchases/new") new_label=t().purchases().new_purchase on_clear=clear />
                    }
                    .into_any(),
                    Ok(page) => {
                        let (current, pages, total) = (page.page, page.page_count(), page.total);
                        view! {
                            <PurchaseTable purchases=page.items sort=list.sort on_sort=list.set_sort />
                            <ListTotalsLoad totals=Signal::derive(move || totals.get()) show_open=true noun="purchases" />
                            <Pager page=current pages=pages total=total on_page=list.go_to_page />
                        }.into_any()
                    }
                }
            })}
        </Transition>
    }
}
