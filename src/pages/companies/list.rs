//! The Customers / Suppliers list: search (the top bar's field, `components::top_search`),
//! active / archived and tags in the URL, a table whose rows open the company, the result
//! count and pagination. Every change pushes a history entry.

use super::list_filter::{CompanyListFilter, Shown};
use super::{base_path, plural};
use crate::api::companies::list_companies;
use crate::components::empty_list::EmptyList;
use crate::components::error_panel::ErrorPanel;
use crate::components::filter_fields::{ClearFilters, TagsFilter};
use crate::components::page_head::PageHeadNew;
use crate::components::pager::Pager;
use crate::components::row_link::open_row;
use crate::components::skeleton::SkeletonTable;
use crate::i18n::t;
use crate::paths::href;
use kontor_model::party::{Company, CompanyType};

use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;

/// Rows per page.
const PER_PAGE: u32 = 50;

/// Column headings (also the loading skeleton's).
/// The column headings in the user's language.
fn headings() -> Vec<&'static str> {
    let c = t().companies();
    vec![
        c.name,
        c.country,
        c.email,
        c.vat_id,
        t().list().tags,
        t().list().status,
    ]
}

/// The list's texts for `kind`: new, filter label, none matching, none yet.
fn kind_texts(kind: CompanyType) -> [&'static str; 4] {
    let c = t().companies();
    match kind {
        CompanyType::Supplier => [
            c.new_supplier,
            c.filter_suppliers,
            c.no_suppliers_match,
            c.no_suppliers_yet,
        ],
        _ => [
            c.new_customer,
            c.filter_customers,
            c.no_customers_match,
            c.no_customers_yet,
        ],
    }
}

/// `/customers` or `/suppliers`.
#[component]
pub fn CompanyList(
    /// Customers or suppliers.
    kind: CompanyType,
) -> impl IntoView {
    let query = use_query_map();
    let navigate = use_navigate();
    let filter = Memo::new(move |_| query.with(CompanyListFilter::from_params));
    let companies = LocalResource::new(move || {
        let request = filter.get().query(kind, PER_PAGE);
        async move { list_companies(&request).await }
    });
    let base = base_path(kind);
    let set_filter = Callback::new(move |f: CompanyListFilter| {
        let options = NavigateOptions {
            replace: false,
            scroll: false,
            ..Default::default()
        };
        navigate(&format!("{base}{}", f.query_string()), options);
    });
    let change = move |edit: Box<dyn FnOnce(&mut CompanyListFilter)>| {
        let mut f = filter.get_untracked();
        edit(&mut f);
        f.page = 1;
        set_filter.run(f);
    };
    let go_to_page = Callback::new(move |page: u32| {
        let mut f = filter.get_untracked();
        f.page = page;
        set_filter.run(f);
    });
    let clear = Callback::new(move |_: ()| set_filter.run(CompanyListFilter::default()));
    let (loading, set_loading) = signal(false);
    let [new_label, filter_label, none_match, none_yet] = kind_texts(kind);
    let new_label = new_label.to_string();
    let new_href = href(&format!("{base}/new"));
    let shown_value = move || filter.with(|f| f.shown.param().unwrap_or("true"));
    view! {
        <PageHeadNew title=plural(kind) new_href=new_href.clone() new_label=new_label.clone() />
        <form class="filters" role="search" aria-label=filter_label on:submit=|ev| ev.prevent_default()>
            <div class="field field-inline">
                <label for="filter-active">{t().companies().show}</label>
                <select id="filter-active" prop:value=shown_value on:change=move |ev| {
                    let shown = Shown::parse(Some(event_target_value(&ev).as_str()));
                    change(Box::new(move |f| f.shown = shown));
                }>
                    <option value="true" selected=move || shown_value() == "true">{t().companies().active}</option>
                    <option value="false" selected=move || shown_value() == "false">{t().status().archived}</option>
                    <option value="all" selected=move || shown_value() == "all">{t().common().all}</option>
                </select>
            </div>
            <TagsFilter label=t().list().tags placeholder=t().list().tags_placeholder
                value=Signal::derive(move || filter.with(|f| f.tags.clone()))
                on_pick=Callback::new(move |tags| change(Box::new(move |f| f.tags = tags))) />
            <ClearFilters
                shown=Signal::derive(move || filter.with(CompanyListFilter::is_filtered))
                on_clear=clear />
        </form>
        <div class="progress" class:is-active=loading role="progressbar" aria-hidden=move || (!loading.get()).to_string()></div>
        <Transition fallback=|| view! { <SkeletonTable headings=headings() /> } set_pending=set_loading>
            {move || {
                let (new_href, new_label) = (new_href.clone(), new_label.clone());
                Suspend::new(async move {
                    match companies.await {
                        Err(error) => view! { <ErrorPanel error=error on_retry=Callback::new(move |_| companies.refetch()) /> }.into_any(),
                        Ok(page) if page.items.is_empty() => view! {
                            <EmptyList filtered=filter.with_untracked(CompanyListFilter::is_filtered)
                                none_match=none_match none_yet=none_yet
                                new_href=new_href new_label=new_label on_clear=clear />
                        }
                        .into_any(),
                        Ok(page) => {
                            let (current, pages, total) = (page.page, page.page_count(), page.total);
                            view! {
                                <CompanyTable kind=kind companies=page.items />
                                <Pager page=current pages=pages total=total on_page=go_to_page />
                            }.into_any()
                        }
                    }
                })
            }}
        </Transition>
    }
}

/// The table; a click anywhere on a row opens the company, the name is a real link.
#[component]
fn CompanyTable(kind: CompanyType, companies: Vec<Company>) -> impl IntoView {
    let navigate = use_navigate();
    let base = base_path(kind);
    view! {
        <div class="table-wrap">
            <table class="table table-links table-companies">
                <thead>
                    <tr>{headings().into_iter().map(|h| view! { <th scope="col">{h}</th> }).collect_view()}</tr>
                </thead>
                <tbody>
                    {companies.into_iter().map(|c| {
                        let path = format!("{base}/{}", c.id);
                        let link = href(&path);
                        let open = open_row(navigate.clone(), path);
                        let country = c.country_code.as_deref().map(super::country_label).unwrap_or_default();
                        view! {
                            <tr on:click=open>
                                <td class="cell-name"><a href=link>{c.name.clone()}</a></td>
                                <td>{country}</td>
                                <td class="cell-email" title=c.email.clone().unwrap_or_default()>{c.email.clone().unwrap_or_default()}</td>
                                <td class="cell-vat">{c.vat_identifier.clone().unwrap_or_default()}</td>
                                <td>{c.tags.iter().map(|t| view! { <span class="tag">{t.clone()}</span> }).collect_view()}</td>
                                <td>{active_badge(c.active)}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// "Active" or "Archived" as a badge (text, not colour alone).
pub fn active_badge(active: bool) -> impl IntoView {
    let (tone, label) = if active {
        ("approved", t().companies().active)
    } else {
        ("archived", t().status().archived)
    };
    view! { <span class=format!("badge badge-{tone}")>{label}</span> }
}
