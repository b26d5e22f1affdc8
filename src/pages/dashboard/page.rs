//! The dashboard page (`/dashboard`, the landing page after sign-in): loads
//! `GET /dashboard` and lays out the cards and the revenue chart.

use super::cards::{Figure, FigureCard, OldestInvoices};
use super::chart::RevenueChart;
use super::links;
use crate::api::dashboard::get_dashboard;
use crate::components::date::format_date;
use crate::components::error_panel::ErrorPanel;
use crate::components::page_head::PageHeadNew;
use crate::components::skeleton::SkeletonBlock;
use crate::i18n::{fill, t};
use crate::paths::href;
use kontor_model::dashboard::{CurrencyAmount, Dashboard, TodoItem, TodoKind};
use leptos::prelude::*;

fn figures(amounts: &[CurrencyAmount]) -> Vec<Figure> {
    amounts
        .iter()
        .map(|a| Figure {
            currency: a.currency.clone(),
            count: a.count,
            amount: a.amount,
        })
        .collect()
}

/// The loaded dashboard.
#[component]
pub fn DashboardView(
    /// The server's figures.
    dashboard: Dashboard,
) -> impl IntoView {
    let Dashboard {
        today,
        receivables,
        revenue,
        purchases_awaiting_approval,
        offers_awaiting_answer,
        todo,
    } = dashboard;
    let nothing_yet = receivables.open.is_empty()
        && revenue.months.iter().all(|m| m.net_total.is_zero())
        && purchases_awaiting_approval.is_empty()
        && offers_awaiting_answer.is_empty();
    let purchases = purchases_awaiting_approval
        .into_iter()
        .map(|p| Figure {
            currency: p.currency,
            count: p.count,
            amount: p.gross_total,
        })
        .collect();
    let offers = offers_awaiting_answer
        .into_iter()
        .map(|o| Figure {
            currency: o.currency,
            count: o.count,
            amount: o.net_total,
        })
        .collect();
    let texts = t().dashboard_page();
    let no_revenue = revenue.months.iter().all(|m| m.net_total.is_zero());
    let chart = if no_revenue {
        view! {
            <p class="dash-empty">{texts.no_revenue}</p>
        }
        .into_any()
    } else {
        view! { <RevenueChart months=revenue.months currency=revenue.currency.clone() /> }
            .into_any()
    };
    view! {
        <p class="dash-today">{fill(texts.as_of, &[("date", &format_date(today))])}</p>
        <TodoList items=todo />
        {nothing_yet.then(|| view! {
            <div class="empty-state dash-welcome">
                <p>{texts.welcome}</p>
                <a class="btn btn-primary" href=href("/invoices/new")>{texts.create_invoice}</a>
                " "
                <a class="btn" href=href("/purchases/new")>{texts.record_purchase}</a>
            </div>
        })}
        <div class="dash-grid">
            <FigureCard
                title=texts.open_title
                name="open"
                figures=figures(&receivables.open)
                noun="invoices"
                list=links::open_invoices()
                empty=texts.open_empty
            />
            <FigureCard
                title=texts.overdue_title
                name="overdue"
                figures=figures(&receivables.overdue)
                noun="invoices"
                list=links::overdue_invoices()
                empty=texts.overdue_empty
                warn=true
            />
            <FigureCard
                title=texts.purchases_title
                name="purchases"
                figures=purchases
                noun="purchases"
                list=links::pending_purchases()
                empty=texts.purchases_empty
            />
            <FigureCard
                title=texts.offers_title
                name="offers"
                figures=offers
                noun="offers"
                list=links::sent_offers()
                empty=texts.offers_empty
            />
            <OldestInvoices invoices=receivables.oldest />
            <section class="section dash-card dash-wide" data-card="revenue" aria-labelledby="dash-revenue">
                <h2 class="section-title" id="dash-revenue">
                    {fill(texts.revenue_title, &[("currency", &revenue.currency)])}
                </h2>
                {chart}
            </section>
        </div>
    }
}

/// The sentence of one to-do line (`count` filled in).
fn todo_text(item: &TodoItem) -> String {
    let texts = t().dashboard_page();
    let template = match item.kind {
        TodoKind::InvoicesToRemind => texts.todo_invoices_to_remind,
        TodoKind::OldDrafts => texts.todo_old_drafts,
        TodoKind::OffersExpiring => texts.todo_offers_expiring,
        TodoKind::PurchasesToApprove => texts.todo_purchases_to_approve,
        TodoKind::RecurringFailed => texts.todo_recurring_failed,
        TodoKind::BankTransactionsToReview => t().bank_page().review,
        TodoKind::EmailsFailed => texts.todo_emails_failed,
        TodoKind::SmtpNotSetUp => texts.todo_smtp_not_set_up,
    };
    fill(template, &[("count", &item.count.to_string())])
}

/// The to-do list (issue 33): each kind with something to do as a link to the exact list
/// (the server's `href`), or "Nothing to do today."
#[component]
fn TodoList(
    /// The dashboard's `todo`.
    items: Vec<TodoItem>,
) -> impl IntoView {
    let texts = t().dashboard_page();
    let open: Vec<TodoItem> = items.into_iter().filter(|i| i.count > 0).collect();
    view! {
        <section class="section dash-todo" aria-labelledby="dash-todo-title">
            <h2 class="section-title" id="dash-todo-title">{texts.todo_title}</h2>
            {if open.is_empty() {
                view! { <p class="muted" id="dash-todo-none">{texts.todo_none}</p> }.into_any()
            } else {
                view! {
                    <ul class="dash-todo-list">
                        {open.into_iter().map(|item| {
                            let kind = item.kind.as_str();
                            // The bank line keeps its id from issue 32.
                            let id = if item.kind == TodoKind::BankTransactionsToReview {
                                "dash-bank-review".to_string()
                            } else {
                                format!("dash-todo-{kind}")
                            };
                            view! {
                                <li data-todo=kind>
                                    <a id=id href=href(&item.href)>{todo_text(&item)}</a>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                }.into_any()
            }}
        </section>
    }
}

/// `/dashboard`.
#[component]
pub fn DashboardPage() -> impl IntoView {
    let dashboard = LocalResource::new(get_dashboard);
    view! {
        <PageHeadNew title=t().nav().dashboard new_href=href("/invoices/new") new_label=t().invoices().new_invoice />
        <Transition fallback=|| view! { <SkeletonBlock lines=8 /> }>
            {move || Suspend::new(async move {
                match dashboard.await {
                    Ok(d) => view! { <DashboardView dashboard=d /> }.into_any(),
                    Err(error) => {
                        view! { <ErrorPanel error=error on_retry=Callback::new(move |_| dashboard.refetch()) /> }
                            .into_any()
                    }
                }
            })}
        </Transition>
    }
}
