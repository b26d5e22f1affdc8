//! The offer list (`/offers?status=..&from=..&company_id=..&deal_id=..&sort=..&page=..`):
//! filters and sort in the URL query, a table whose rows open the offer and whose headers
//! sort it, totals per currency for the filter (`GET /offers/summary`), the result count and
//! pagination. Every filter, sort and page change pushes a history entry.

use super::list_filters::{cleared, OfferFilters};
use super::OfferBadge;
use crate::api::deals::list_deals;
use crate::api::offers::{get_offer_summary, list_offers};
use crate::api::projects::list_projects;
use crate::components::date::format_date;
use crate::components::empty_list::EmptyList;
use crate::components::error_panel::ErrorPanel;
use crate::components::list_totals::ListTotalsLoad;
use crate::components::list_url::ListUrl;
use crate::components::money::format_money;
use crate::components::page_head::PageHeadNew;
use crate::components::pager::Pager;
use crate::components::skeleton::SkeletonTable;
use crate::components::sort_header::{Column, ListHead, ListSort};
use crate::components::task::load_once;
use crate::i18n::t;
use crate::paths::href;
use kontor_model::offer::Offer;
use kontor_model::query::{OfferFilter, SortedFilter};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

const PER_PAGE: u32 = 50;
/// The columns; the sortable ones carry their key of `kontor_model::query::OFFER_SORTS`.
fn columns() -> Vec<Column> {
    let l = t().list();
    vec![
        Column::sorted(l.number, "identifier", "col-number"),
        Column::sorted(l.company, "company", "col-party"),
        Column::sorted(l.title, "title", "col-title"),
        Column::sorted(l.date, "date", "col-date"),
        Column::plain(l.valid_until, "col-date"),
        Column::plain(l.status, "col-status"),
        Column::amount(l.gross_total, "gross_total", "col-amount"),
    ]
}

fn headings() -> Vec<&'static str> {
    columns().into_iter().map(|c| c.label).collect()
}

/// The offer list page.
#[component]
pub fn OfferList() -> impl IntoView {
    let list = ListUrl::<OfferFilter>::new("/offers");
    let (filter, set_filter) = (list.filter, list.set_filter);
    let offers = LocalResource::new(move || {
        let filter = list.requested(PER_PAGE);
        async move { list_offers(&filter?).await }
    });
    let deals = load_once(async { list_deals(None).await.map(|p| p.items) });
    let projects = load_once(async { list_projects(None).await.map(|p| p.items) });
    let totals = LocalResource::new(move || {
        let f = list.unpaged.get();
        async move { get_offer_summary(&f).await.map(|s| s.totals) }
    });
    let clear = Callback::new(move |_: ()| set_filter.run(cleared(&filter.get_untracked())));
    let (loading, set_loading) = signal(false);
    view! {
        <PageHeadNew title=t().nav().offers new_href=href("/offers/new") new_label=t().offers().new_offer />
        <OfferFilters
            filter=filter
            deals=Signal::derive(move || deals.get().and_then(Result::ok).unwrap_or_default())
            projects=Signal::derive(move || projects.get().and_then(Result::ok).unwrap_or_default())
            on_change=set_filter
        />
        <div class="progress" class:is-active=loading role="progressbar" aria-hidden=move || (!loading.get()).to_string()></div>
        <Transition fallback=|| view! { <SkeletonTable headings=headings() /> } set_pending=set_loading>
            {move || Suspend::new(async move {
                match offers.await {
                    Err(error) => view! { <ErrorPanel error=error on_retry=Callback::new(move |_| offers.refetch()) /> }.into_any(),
                    Ok(page) if page.items.is_empty() => view! {
                        <EmptyList filtered=filter.get_untracked().has_filters()
                            none_match=t().offers().none_match none_yet=t().offers().none_yet
                            new_href=href("/offers/new") new_label=t().offers().new_offer on_clear=clear />
                    }
                    .into_any(),
                    Ok(page) => {
                        let (current, pages, total) = (page.page, page.page_count(), page.total);
                        view! {
                            <OfferTable offers=page.items sort=list.sort on_sort=list.set_sort />
                            <ListTotalsLoad totals=Signal::derive(move || totals.get()) noun="offers" />
                            <Pager page=current pages=pages total=total on_page=list.go_to_page />
                        }.into_any()
                    }
                }
            })}
        </Transition>
    }
}

/// The table: the whole row opens the offer; the number is a real link for the keyboard.
#[component]
fn OfferTable(
    /// The offers of this page.
    offers: Vec<Offer>,
    /// The sort in effect (from the URL).
    #[prop(into)]
    sort: Signal<Option<ListSort>>,
    /// Called with the sort a header click asks for.
    on_sort: Callback<ListSort>,
) -> impl IntoView {
    let navigate = use_navigate();
    view! {
        <div class="table-wrap">
            <table class="table table-links list-table offers-table" id="offer-table">
                <ListHead columns=columns() current=sort on_sort=on_sort />
                <tbody>
                    {offers.into_iter().map(|o| {
                        let path = format!("/offers/{}", o.id);
                        let navigate = navigate.clone();
                        let target = path.clone();
                        let company = o.company.as_ref().map(|c| c.name.clone()).unwrap_or_default();
                        view! {
                            <tr on:click=move |_| navigate(&target, Default::default()) data-id=o.id.to_string()>
                                <td class="cell-number"><a href=href(&path)>{o.identifier.clone()}</a></td>
                                <td class="cell-customer" title=company.clone()>
                                    <span class="cell-main">{company.clone()}</span>
                                    <span class="cell-sub">{o.title.clone()}</span>
                                </td>
                                <td class="cell-title" title=o.title.clone()>{o.title.clone()}</td>
                                <td class="cell-date">{format_date(o.date)}</td>
                                <td class="cell-date">{format_date(o.due_date)}</td>
                                <td><OfferBadge status=o.status /></td>
                                <td class="num money" data-cell="gross">{format_money(o.gross_total, &o.currency)}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}
