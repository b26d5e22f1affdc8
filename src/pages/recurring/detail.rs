//! The recurring invoice detail (`/recurring_invoices/:id`): the schedule, the invoice it
//! repeats, and its history — one row per run with the period, the invoice (linked), its
//! status and the error of a failed send — with "Edit" and "Delete".

use super::list::ActiveBadge;
use super::schedule_fields::{interval_label, mode_label};
use crate::api::companies::get_company;
use crate::api::recurring::{
    delete_recurring_invoice, get_recurring_invoice, RecurringInvoice, RecurringRun,
};
use crate::components::audit_history::AuditHistory;
use crate::components::confirm_dialog::ConfirmDialog;
use crate::components::date::{format_date, format_opt_date};
use crate::components::error_panel::loaded_view;
use crate::components::locale::format_input;
use crate::components::route_record::{route_record, use_route_id};
use crate::components::status_badge::StatusBadge;
use crate::components::task::load_once;
use crate::components::task::Task;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use crate::paths::href;
use kontor_model::party::Language;
use kontor_model::recurring::{fill_placeholders, period_of, Interval, Period};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// The route's `:id` as a number.
pub fn use_recurring_id() -> Memo<Option<i64>> {
    use_route_id()
}

/// The detail page.
#[component]
pub fn RecurringDetail() -> impl IntoView {
    let id = use_recurring_id();
    let record = route_record(
        id,
        || t().recurring_detail().bad_address,
        get_recurring_invoice,
    );
    view! {
        <p class="breadcrumb">
            <a href=href("/recurring_invoices")>{t().recurring_detail().back_to_list}</a>
        </p>
        {loaded_view(record, 10, |r| view! { <RecurringView record=r /> })}
    }
}

/// One loaded schedule.
#[component]
fn RecurringView(
    /// The schedule with all runs.
    record: RecurringInvoice,
) -> impl IntoView {
    let title = if record.title.trim().is_empty() {
        t().recurring_detail().no_title.to_string()
    } else {
        record.title.clone()
    };
    let tr = t().recurring_detail();
    let template = &record.template;
    let positions = template.items.as_ref().map(Vec::len).unwrap_or(0);
    let tax = match (&template.vat, template.tax) {
        (Some(v), _) if v.reverse_charge == Some(true) => tr.reverse_charge.to_string(),
        (_, Some(tax)) => fill(tr.percent, &[("rate", &format_input(tax.normalize()))]),
        _ => "–".into(),
    };
    let schedule: Vec<(&str, String)> = vec![
        (tr.repeats, interval_label(record.interval).to_string()),
        (
            tr.next_date,
            if record.active {
                format_date(record.next_date)
            } else {
                tr.ended.into()
            },
        ),
        (tr.ends_on, format_opt_date(record.end_date)),
        (tr.what_happens, mode_label(record.mode).to_string()),
        (tr.last_run, format_opt_date(record.last_run_date)),
    ];
    let invoice: Vec<(&str, String)> = vec![
        (
            tr.currency,
            template.currency.clone().unwrap_or_else(|| "–".into()),
        ),
        (tr.vat, tax),
        (
            tr.positions,
            if positions == 1 {
                tr.positions_one.into()
            } else {
                fill(tr.positions_other, &[("n", &positions.to_string())])
            },
        ),
        (
            tr.tags,
            template
                .tags
                .as_ref()
                .filter(|t| !t.is_empty())
                .map(|t| t.join(", "))
                .unwrap_or_else(|| "–".into()),
        ),
    ];
    let facts = |list: Vec<(&str, String)>| {
        list.into_iter()
            .map(|(k, v)| view! { <div><dt>{k.to_string()}</dt><dd>{v}</dd></div> })
            .collect_view()
    };
    let customer_id = record.customer.id;
    view! {
        <header class="page-head detail-head">
            <div class="detail-title">
                <h1>{title} " " <ActiveBadge active=record.active /></h1>
                <p class="detail-facts">
                    <a class="detail-customer" href=href(&format!("/customers/{customer_id}"))>{record.customer.name.clone()}</a>
                    <span class="detail-sep" aria-hidden="true">"·"</span>
                    <span>{interval_label(record.interval)}</span>
                </p>
                {record.active.then(|| view! { <NextInvoice record=record.clone() /> })}
            </div>
            <div class="page-actions">
                <RecurringActions id=record.id title=record.title.clone() />
            </div>
        </header>
        <section class="section detail-grid" aria-label=tr.schedule>
            <div class="detail-address">
                <h2 class="section-title">{tr.recipient}</h2>
                <address>{template.recipient_address.clone().unwrap_or_default()}</address>
            </div>
            <dl class="facts" id="recurring-schedule">{facts(schedule)}{facts(invoice)}</dl>
        </section>
        <History runs=record.runs.clone() interval=record.interval />
        <AuditHistory record_type="recurring_invoice" record_id=record.id />
    }
}

/// "Next invoice: “Hosting Dezember 2026” on 1.12.2026" — the title as the job will fill it
/// in, in the customer's language.
#[component]
fn NextInvoice(
    /// An active schedule.
    record: RecurringInvoice,
) -> impl IntoView {
    let customer = load_once(get_company(record.customer.id));
    let (title, interval, next) = (record.title.clone(), record.interval, record.next_date);
    let text = move || {
        let language = match customer.get() {
            Some(Ok(c)) => c.language,
            Some(Err(_)) => Language::default(),
            None => return String::new(),
        };
        let filled = period_of(interval, next)
            .map(|p| fill_placeholders(&title, p, interval, language))
            .unwrap_or_else(|| title.clone());
        fill(
            t().recurring_detail().next_invoice,
            &[("title", &filled), ("date", &format_date(next))],
        )
    };
    view! { <p class="next-invoice" id="recurring-next">{text}</p> }
}

/// The history: one row per run, newest first.
#[component]
pub fn History(
    /// The runs, newest first.
    runs: Vec<RecurringRun>,
    /// The schedule's interval (to name periods).
    interval: Interval,
) -> impl IntoView {
    let body = if runs.is_empty() {
        view! {
            <p class="empty-state" id="recurring-history-empty">
                {t().recurring_detail().history_empty}
            </p>
        }
        .into_any()
    } else {
        view! {
            <div class="table-wrap">
                <table class="table" id="recurring-history">
                    <thead>
                        <tr>
                            <th scope="col">{t().recurring_detail().col_period}</th>
                            <th scope="col">{t().recurring_detail().col_invoice_date}</th>
                            <th scope="col">{t().recurring_detail().col_invoice}</th>
                            <th scope="col">{t().recurring_detail().col_status}</th>
                            <th scope="col">{t().recurring_detail().col_problem}</th>
                        </tr>
                    </thead>
                    <tbody>
                        {runs.into_iter().map(|run| run_row(run, interval)).collect_view()}
                    </tbody>
                </table>
            </div>
        }
        .into_any()
    };
    view! {
        <section class="section" aria-labelledby="sec-history">
            <h2 class="section-title" id="sec-history">{t().recurring_detail().history}</h2>
            {body}
        </section>
    }
}

fn run_row(run: RecurringRun, interval: Interval) -> impl IntoView {
    let period = Period {
        start: run.period_start,
        end: run.period_end,
    };
    let name = fill_placeholders("{period}", period, interval, Language::En);
    let span = format!(
        "{} – {}",
        format_date(run.period_start),
        format_date(run.period_end)
    );
    let invoice = match run.invoice_id {
        Some(id) => {
            let label = run.invoice_identifier.clone().unwrap_or_else(|| {
                fill(
                    t().recurring_detail().draft_number,
                    &[("id", &id.to_string())],
                )
            });
            view! { <a href=href(&format!("/invoices/{id}")) data-invoice-id=id.to_string()>{label}</a> }
                .into_any()
        }
        None => view! { <span class="muted">{t().recurring_detail().no_invoice}</span> }.into_any(),
    };
    view! {
        <tr data-run-id=run.id.to_string()>
            <td title=span>{name}</td>
            <td class="cell-date">{format_date(run.invoice_date)}</td>
            <td class="cell-number">{invoice}</td>
            <td>{run.status.map(|s| view! { <StatusBadge status=s /> })}</td>
            <td class="run-error">{run.error.unwrap_or_default()}</td>
        </tr>
    }
}

/// "Edit" and "Delete" (after a confirmation, back to the list).
#[component]
fn RecurringActions(
    /// The schedule's id.
    id: i64,
    /// Its title (named in the question).
    title: String,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let navigate = use_navigate();
    let open = RwSignal::new(false);
    let deleting = Task::new();
    let delete = Callback::new(move |_: ()| {
        let navigate = navigate.clone();
        deleting.run(delete_recurring_invoice(id), move |r| match r {
            Ok(()) => {
                open.set(false);
                toasts.success(t().recurring_detail().deleted);
                navigate("/recurring_invoices", Default::default());
            }
            Err(e) => {
                open.set(false);
                toasts.error(fill(
                    t().recurring_detail().delete_failed,
                    &[("message", &e.message)],
                ));
            }
        });
    });
    let question = if title.trim().is_empty() {
        t().recurring_detail().delete_question.to_string()
    } else {
        fill(
            t().recurring_detail().delete_question_named,
            &[("title", &title)],
        )
    };
    view! {
        <a class="btn" id="recurring-edit" href=href(&format!("/recurring_invoices/{id}/edit"))>{t().common().edit}</a>
        <button type="button" class="btn btn-danger-quiet" id="recurring-delete" on:click=move |_| open.set(true)>
            {t().common().delete}
        </button>
        <ConfirmDialog open=open title=question
            text=t().recurring_detail().delete_text.to_string()
            confirm_label=t().recurring_detail().delete_confirm.to_string() pending=deleting.pending confirm_id="recurring-delete-confirm"
            on_confirm=delete />
    }
}
