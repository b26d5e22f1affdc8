//! The list of recurring invoices (`/recurring_invoices?page=`): customer, title,
//! interval, mode, next and end date, whether the schedule is active, and its last run.

use super::schedule_fields::{interval_label, mode_short};
use crate::api::recurring::{list_recurring_invoices, RecurringInvoice};
use crate::components::date::{format_date, format_opt_date};
use crate::components::error_panel::ErrorPanel;
use crate::components::pager::{page_in_query, Pager};
use crate::components::row_link::open_row;
use crate::components::skeleton::SkeletonTable;
use crate::components::status_badge::Badge;
use crate::i18n::t;
use crate::paths::href;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// Rows per page.
const PER_PAGE: u32 = 50;

/// Column headings in the user's language (also used by the loading skeleton).
pub fn headings() -> Vec<&'static str> {
    let r = t().recurring();
    let l = t().list();
    vec![
        l.customer,
        l.title,
        r.repeats,
        r.creates,
        r.next_invoice,
        r.ends_on,
        l.status,
        r.last_run,
    ]
}

/// The list page.
#[component]
pub fn RecurringList() -> impl IntoView {
    let navigate = use_navigate();
    let page = page_in_query();
    let list = LocalResource::new(move || {
        let page = page.get();
        async move { list_recurring_invoices(page, PER_PAGE).await }
    });
    let go_to_page = Callback::new(move |p: u32| {
        navigate(&format!("/recurring_invoices?page={p}"), Default::default());
    });
    let (loading, set_loading) = signal(false);
    view! {
        <div class="page-head">
            <h1>{t().nav().recurring}</h1>
            <div class="page-actions">
                <a class="btn btn-primary" href=href("/recurring_invoices/new") data-shortcut="new" aria-keyshortcuts="n">{t().recurring().new_recurring}</a>
            </div>
        </div>
        <div class="progress" class:is-active=loading role="progressbar" aria-hidden=move || (!loading.get()).to_string()></div>
        <Transition fallback=|| view! { <SkeletonTable headings=headings() /> } set_pending=set_loading>
            {move || Suspend::new(async move {
                match list.await {
                    Err(error) => view! { <ErrorPanel error=error on_retry=Callback::new(move |_| list.refetch()) /> }.into_any(),
                    Ok(p) if p.items.is_empty() && p.page <= 1 => view! {
                        <div class="empty-state">
                            <p>{t().recurring().none_yet}</p>
                            <a class="btn btn-primary" href=href("/recurring_invoices/new")>{t().recurring().new_recurring}</a>
                        </div>
                    }
                    .into_any(),
                    Ok(p) => {
                        let (current, pages, total) = (p.page, p.page_count(), p.total);
                        view! {
                            <RecurringTable items=p.items />
                            <Pager page=current pages=pages total=total on_page=go_to_page />
                        }
                        .into_any()
                    }
                }
            })}
        </Transition>
    }
}

/// The "Active" / "Ended" badge of a schedule.
#[component]
pub fn ActiveBadge(
    /// Whether the schedule still runs.
    active: bool,
) -> impl IntoView {
    let (tone, label) = if active {
        ("approved", t().recurring().active)
    } else {
        ("archived", t().recurring().ended)
    };
    view! { <Badge tone=tone.to_string() label=label.to_string() /> }
}

/// The table; each whole row opens the schedule, the title cell is a real link.
#[component]
fn RecurringTable(
    /// The schedules of this page.
    items: Vec<RecurringInvoice>,
) -> impl IntoView {
    let navigate = use_navigate();
    view! {
        <div class="table-wrap">
            <table class="table table-links recurring-table" id="recurring-table">
                <thead>
                    <tr>{headings().into_iter().map(|h| view! { <th scope="col">{h}</th> }).collect_view()}</tr>
                </thead>
                <tbody>
                    {items.into_iter().map(|r| {
                        let path = format!("/recurring_invoices/{}", r.id);
                        let open = open_row(navigate.clone(), path.clone());
                        let customer = r.customer.name.clone();
                        let title = if r.title.trim().is_empty() { crate::i18n::t().recurring_detail().no_title.to_string() } else { r.title.clone() };
                        view! {
                            <tr on:click=open data-recurring-id=r.id.to_string()>
                                <td class="cell-customer" title=customer.clone()>{customer.clone()}</td>
                                <td class="cell-title" title=title.clone()>
                                    <a href=href(&path)>{title.clone()}</a>
                                </td>
                                <td>{interval_label(r.interval)}</td>
                                <td>{mode_short(r.mode)}</td>
                                <td class="cell-date">{if r.active { format_date(r.next_date) } else { "–".into() }}</td>
                                <td class="cell-date">{format_opt_date(r.end_date)}</td>
                                <td><ActiveBadge active=r.active /></td>
                                <td class="cell-date">{format_opt_date(r.last_run_date)}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}
