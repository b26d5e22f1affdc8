//! The Dunning page: the overdue invoices with open amount, days overdue and levels; a
//! checkbox per row (and one for all); "Remind selected" first shows what will be created
//! and sent (each invoice's next level, open amount and fee) and asks; then it creates
//! each selected invoice's next reminder (optionally with default interest) and sends it
//! by e-mail, one invoice after the other, with progress and a result per invoice; a
//! created reminder's letter opens in a dialog.

use crate::api::dunning::create_invoice_reminder;
use crate::api::dunning::{
    get_dunning_levels, get_reminder_pdf, list_overdue_invoices, send_reminder_email,
};
use crate::api::ApiError;
use crate::components::date::{format_date, format_opt_date, today};
use crate::components::dialog::Dialog;
use crate::components::error_panel::ErrorPanel;
use crate::components::money::format_money;
use crate::components::pager::{page_in_query, Pager};
use crate::components::pdf_preview::{PdfDialog, PdfDoc};
use crate::components::skeleton::SkeletonTable;
use crate::i18n::{fill, language, t, Lang};
use crate::paths::href;
use kontor_model::dunning::NewReminder;
use kontor_model::dunning::{DunningLevel, OverdueInvoice};
use kontor_model::email::SendEmail;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_navigate;
use std::collections::BTreeSet;

/// Rows per page (the most one request may ask for).
const PER_PAGE: u32 = 100;

/// Column headings in the user's language (also used by the loading skeleton).
fn headings() -> Vec<&'static str> {
    let (l, d) = (t().list(), t().dunning());
    vec![
        "",
        l.number,
        l.customer,
        l.due,
        d.days_overdue,
        l.open,
        d.last_level,
        d.next_level,
        d.next_due,
    ]
}

/// What happened to one selected invoice.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The reminder was created and e-mailed to `to`.
    Sent {
        /// The reminder's id.
        reminder_id: i64,
        /// Its level's name.
        level: String,
        /// The recipients, `;`-separated.
        to: String,
    },
    /// The reminder was created (sending was not asked for).
    Created {
        /// The reminder's id.
        reminder_id: i64,
        /// Its level's name.
        level: String,
    },
    /// The reminder was created but the e-mail failed with `message`.
    NotSent {
        /// The reminder's id.
        reminder_id: i64,
        /// Its level's name.
        level: String,
        /// The server's message.
        message: String,
    },
    /// No reminder was created: the server's `message`.
    Refused {
        /// The server's message.
        message: String,
    },
}

impl Outcome {
    /// The reminder created, if any.
    pub fn reminder_id(&self) -> Option<i64> {
        match self {
            Outcome::Sent { reminder_id, .. }
            | Outcome::Created { reminder_id, .. }
            | Outcome::NotSent { reminder_id, .. } => Some(*reminder_id),
            Outcome::Refused { .. } => None,
        }
    }
}

/// The sentence shown for `outcome` in the user's language.
pub fn outcome_text(outcome: &Outcome) -> String {
    let d = t().dunning();
    match outcome {
        Outcome::Sent { level, to, .. } => fill(d.result_sent, &[("level", level), ("to", to)]),
        Outcome::Created { level, .. } => fill(d.result_created, &[("level", level)]),
        Outcome::NotSent { level, message, .. } => fill(
            d.result_send_failed,
            &[("level", level), ("message", message)],
        ),
        Outcome::Refused { message } => fill(d.result_refused, &[("message", message)]),
    }
}

/// The name of level `n` in the user's language from the account's `levels`
/// ("Level n" when it is not one of them).
fn level_name(levels: &[DunningLevel], n: u8) -> String {
    levels
        .iter()
        .find(|l| l.level == n)
        .map(|l| match language() {
            Lang::De => l.name.de.clone(),
            Lang::En => l.name.en.clone(),
        })
        .unwrap_or_else(|| fill(t().dunning().level_n, &[("level", &n.to_string())]))
}

/// One result row: the invoice reminded and what happened.
#[derive(Clone, Debug)]
struct RowResult {
    invoice_id: i64,
    number: String,
    outcome: Outcome,
}

/// Creates invoice `invoice`'s next reminder dated today (with default interest when
/// `interest`) and, when `send`, e-mails it with the server's defaults.
async fn remind(
    invoice: &OverdueInvoice,
    interest: bool,
    send: bool,
    levels: &[DunningLevel],
) -> Outcome {
    let body = NewReminder {
        invoice_id: Some(invoice.id),
        date: Some(today()),
        charge_interest: interest.then_some(true),
        ..Default::default()
    };
    let reminder = match create_invoice_reminder(&body).await {
        Ok(r) => r,
        Err(e) => {
            return Outcome::Refused {
                message: message_of(e),
            }
        }
    };
    let level = level_name(levels, reminder.dunning_level);
    if !send {
        return Outcome::Created {
            reminder_id: reminder.id,
            level,
        };
    }
    match send_reminder_email(reminder.id, &SendEmail::default()).await {
        Ok(sent) => Outcome::Sent {
            reminder_id: reminder.id,
            level,
            to: sent.emails_to,
        },
        Err(e) => Outcome::NotSent {
            reminder_id: reminder.id,
            level,
            message: message_of(e),
        },
    }
}

/// The server's message with its first field error, for one result line.
fn message_of(e: ApiError) -> String {
    match e.errors.values().flatten().next() {
        Some(first) if !e.message.contains(first.english()) => format!("{} ({first})", e.message),
        _ => e.message,
    }
}

/// The page.
#[component]
pub fn DunningPage() -> impl IntoView {
    let navigate = use_navigate();
    let page = page_in_query();
    let list = LocalResource::new(move || {
        let page = page.get();
        async move { list_overdue_invoices(page, PER_PAGE).await }
    });
    let levels = LocalResource::new(|| async {
        get_dunning_levels()
            .await
            .map(|l| l.levels)
            .unwrap_or_default()
    });
    let go_to_page = Callback::new(move |p: u32| {
        navigate(&format!("/dunning?page={p}"), Default::default());
    });
    let selected = RwSignal::new(BTreeSet::<i64>::new());
    let interest = RwSignal::new(false);
    let send = RwSignal::new(true);
    let running = RwSignal::new(false);
    let progress = RwSignal::new((0usize, 0usize));
    let results = RwSignal::new(Vec::<RowResult>::new());
    let shown = RwSignal::new(Vec::<OverdueInvoice>::new());
    let pdf_open = RwSignal::new(false);
    let pdf_title = RwSignal::new(String::new());
    let doc = PdfDoc::new();
    let open_pdf = move |reminder_id: i64, number: String| {
        pdf_title.set(fill(t().dunning().pdf_title, &[("number", &number)]));
        doc.load(Box::pin(get_reminder_pdf(reminder_id)));
        pdf_open.set(true);
    };

    // What "Remind selected" will do, shown first and confirmed (issue 29): nothing is
    // created or e-mailed before the user says so.
    let confirm_open = RwSignal::new(false);
    let chosen = move || -> Vec<OverdueInvoice> {
        shown
            .get_untracked()
            .into_iter()
            .filter(|i| selected.with_untracked(|s| s.contains(&i.id)))
            .collect()
    };
    let ask = move |_| {
        if !chosen().is_empty() && !running.get_untracked() {
            confirm_open.set(true);
        }
    };
    let start = move |_| {
        confirm_open.set(false);
        let chosen = chosen();
        if chosen.is_empty() || running.get_untracked() {
            return;
        }
        let (with_interest, by_mail) = (interest.get_untracked(), send.get_untracked());
        running.set(true);
        results.set(Vec::new());
        progress.set((0, chosen.len()));
        spawn_local(async move {
            let known = levels.await;
            for (done, invoice) in chosen.iter().enumerate() {
                let outcome = remind(invoice, with_interest, by_mail, &known).await;
                results.update(|r| {
                    r.push(RowResult {
                        invoice_id: invoice.id,
                        number: invoice.identifier.clone().unwrap_or_default(),
                        outcome,
                    })
                });
                progress.set((done + 1, chosen.len()));
            }
            selected.set(BTreeSet::new());
            running.set(false);
            list.refetch();
        });
    };

    let (loading, set_loading) = signal(false);
    let d = t().dunning();
    view! {
        <div class="page-head">
            <h1 id="dunning-title">{d.title}</h1>
        </div>
        <p class="muted">{d.intro}</p>
        <div class="progress" class:is-active=loading role="progressbar" aria-hidden=move || (!loading.get()).to_string()></div>
        <Transition fallback=|| view! { <SkeletonTable headings=headings() /> } set_pending=set_loading>
            {move || Suspend::new(async move {
                let known = levels.await;
                match list.await {
                    Err(error) => view! { <ErrorPanel error=error on_retry=Callback::new(move |_| list.refetch()) /> }.into_any(),
                    Ok(p) if p.items.is_empty() && p.page <= 1 => {
                        shown.set(Vec::new());
                        view! { <div class="empty-state"><p>{t().dunning().none}</p></div> }.into_any()
                    }
                    Ok(p) => {
                        shown.set(p.items.clone());
                        let (current, pages, total) = (p.page, p.page_count(), p.total);
                        view! {
                            <OverdueTable items=p.items levels=known selected=selected />
                            <Pager page=current pages=pages total=total on_page=go_to_page />
                        }
                        .into_any()
                    }
                }
            })}
        </Transition>
        <Show when=move || shown.with(|s| !s.is_empty()) || running.get()>
        <div class="dunning-actions">
            <label class="check"><input type="checkbox" id="dunning-interest" bind:checked=interest />" "{d.charge_interest}</label>
            <label class="check"><input type="checkbox" id="dunning-send" bind:checked=send />" "{d.send_email}</label>
            <button type="button" class="btn btn-primary" id="dunning-remind"
                disabled=move || running.get() || selected.with(|s| s.is_empty())
                on:click=ask>
                {move || fill(t().dunning().remind, &[("count", &selected.with(|s| s.len()).to_string())])}
            </button>
            <Show when=move || { progress.get().1 > 0 }>
                <span class="muted" id="dunning-progress" role="status">
                    {move || { let (done, all) = progress.get(); fill(t().dunning().progress, &[("done", &done.to_string()), ("total", &all.to_string())]) }}
                </span>
            </Show>
        </div>
        </Show>
        <Show when=move || results.with(|r| !r.is_empty())>
            <section class="section" aria-labelledby="dunning-results-title">
                <h2 class="section-title" id="dunning-results-title">{t().dunning().results}</h2>
                <ul class="dunning-results" id="dunning-results">
                    <For each=move || results.get() key=|r| r.invoice_id let:r>
                        {
                            let text = outcome_text(&r.outcome);
                            let failed = matches!(r.outcome, super::Outcome::Refused { .. } | super::Outcome::NotSent { .. });
                            let reminder = r.outcome.reminder_id();
                            let number = r.number.clone();
                            view! {
                                <li data-invoice-id=r.invoice_id.to_string() data-reminder-id=reminder.map(|id| id.to_string()).unwrap_or_default() class:is-error=failed>
                                    <a href=href(&format!("/invoices/{}", r.invoice_id))>{r.number.clone()}</a>
                                    ": "{text}
                                    {reminder.map(|id| view! {
                                        " "<button type="button" class="btn btn-small" on:click=move |_| open_pdf(id, number.clone())>{t().dunning().open_pdf}</button>
                                    })}
                                </li>
                            }
                        }
                    </For>
                </ul>
            </section>
        </Show>
        <PdfDialog open=pdf_open title=pdf_title doc=doc />
        <Dialog open=confirm_open class="dialog-wide" title=Signal::derive(move || {
            let count = selected.with(|s| s.len()).to_string();
            let d = t().dunning();
            fill(if send.get() { d.confirm_send_title } else { d.confirm_create_title }, &[("count", &count)])
        })>
            {move || {
                let d = t().dunning();
                let known = levels.get().unwrap_or_default();
                let rows = chosen();
                view! {
                    <p>{if send.get_untracked() { d.confirm_send_intro } else { d.confirm_create_intro }}</p>
                    <table class="table" id="dunning-preview">
                        <thead><tr>
                            <th scope="col">{t().list().number}</th>
                            <th scope="col">{t().list().customer}</th>
                            <th scope="col">{d.next_level}</th>
                            <th scope="col" class="num">{t().list().open}</th>
                            <th scope="col" class="num">{d.fee}</th>
                        </tr></thead>
                        <tbody>
                            {rows.into_iter().map(|i| {
                                let level = i.next_dunning_level;
                                let fee = level
                                    .and_then(|n| known.iter().find(|l| l.level == n))
                                    .map(|l| format_money(l.fee, &i.currency))
                                    .unwrap_or_else(|| "—".into());
                                let name = level
                                    .map(|n| level_name(&known, n))
                                    .unwrap_or_else(|| d.all_levels_sent.to_string());
                                view! {
                                    <tr data-invoice-id=i.id.to_string()>
                                        <td>{i.identifier.clone().unwrap_or_default()}</td>
                                        <td>{i.customer.name.clone()}</td>
                                        <td>{name}</td>
                                        <td class="num money">{format_money(i.open_amount, &i.currency)}</td>
                                        <td class="num money">{fee}</td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                    {interest.get_untracked().then(|| view! { <p class="muted">{d.confirm_interest}</p> })}
                    <div class="dialog-actions">
                        <button type="button" class="btn" on:click=move |_| confirm_open.set(false)>{t().common().cancel}</button>
                        <button type="button" class="btn btn-primary" id="dunning-confirm" autofocus on:click=start>
                            {fill(if send.get_untracked() { d.confirm_send } else { d.confirm_create }, &[("count", &selected.with_untracked(|s| s.len()).to_string())])}
                        </button>
                    </div>
                }
            }}
        </Dialog>
    }
}

/// The overdue invoices with a checkbox each and one for all of this page.
#[component]
fn OverdueTable(
    /// The invoices of this page.
    items: Vec<OverdueInvoice>,
    /// The account's dunning levels (for their names).
    levels: Vec<DunningLevel>,
    /// The ids selected.
    selected: RwSignal<BTreeSet<i64>>,
) -> impl IntoView {
    let ids: Vec<i64> = items.iter().map(|i| i.id).collect();
    let all_ids = ids.clone();
    let all_selected =
        move || !all_ids.is_empty() && selected.with(|s| all_ids.iter().all(|id| s.contains(id)));
    let toggle_all = move |_| {
        let every = selected.with_untracked(|s| ids.iter().all(|id| s.contains(id)));
        selected.update(|s| {
            for id in &ids {
                if every {
                    s.remove(id);
                } else {
                    s.insert(*id);
                }
            }
        });
    };
    let d = t().dunning();
    view! {
        <div class="table-wrap">
            <table class="table dunning-table" id="dunning-table">
                <thead>
                    <tr>
                        <th scope="col"><input type="checkbox" id="dunning-all" aria-label=d.select_all prop:checked=all_selected on:change=toggle_all /></th>
                        {headings().into_iter().enumerate().skip(1).map(|(i, h)| {
                            // Days overdue and the open amount are numbers: right-aligned.
                            let class = if matches!(i, 4 | 5) { "num" } else { "" };
                            view! { <th scope="col" class=class>{h}</th> }
                        }).collect_view()}
                    </tr>
                </thead>
                <tbody>
                    {items.into_iter().map(|i| {
                        let id = i.id;
                        let number = i.identifier.clone().unwrap_or_default();
                        let label = fill(d.select_invoice, &[("number", &number)]);
                        let last = if i.last_dunning_level == 0 { "–".to_string() } else { level_name(&levels, i.last_dunning_level) };
                        let next = match i.next_dunning_level {
                            Some(n) => level_name(&levels, n),
                            None => d.all_levels_sent.to_string(),
                        };
                        view! {
                            <tr data-invoice-id=id.to_string()>
                                <td><input type="checkbox" aria-label=label
                                    prop:checked=move || selected.with(|s| s.contains(&id))
                                    on:change=move |_| selected.update(|s| { if !s.remove(&id) { s.insert(id); } }) /></td>
                                <td class="cell-number"><a href=href(&format!("/invoices/{id}"))>{number}</a></td>
                                <td class="cell-customer" title=i.customer.name.clone()>{i.customer.name.clone()}</td>
                                <td class="cell-date">{format_date(i.due_date)}</td>
                                <td class="num">{i.days_overdue}</td>
                                <td class="num money">{format_money(i.open_amount, &i.currency)}</td>
                                <td>{last}</td>
                                <td>{next}</td>
                                <td class="cell-date">{format_opt_date(i.next_dunning_on)}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}
