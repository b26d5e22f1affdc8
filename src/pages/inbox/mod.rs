//! The Inbox page `/inbox` (issue 36 § The inbox): every message Kontor read from the
//! supplier mailbox — when, from whom, the subject, what became of it (imported, to
//! review with the reason, no documents, failed) and links to the purchases made — with a
//! state filter and "Check mailbox now" (`POST /inbox/poll`, its counts in a toast); beside
//! each purchase the check result of its e-invoice and the rules it breaks.

use crate::api::inbox::{list_inbox_messages, poll_inbox};
use crate::components::field::localized_sentence;
use crate::components::status_badge::Badge;
use crate::components::timeline::format_time;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use crate::paths::href;
use kontor_model::einvoice_check::DefectClass;
use kontor_model::inbox::{InboxMessage, InboxMessageState, REASON_SEPARATOR};
use leptos::prelude::*;

/// The badge tone and label of a message's state.
fn state_badge(state: InboxMessageState) -> (&'static str, &'static str) {
    let texts = t().inbox();
    match state {
        InboxMessageState::Imported => ("paid", texts.state_imported),
        InboxMessageState::NeedsReview => ("pending", texts.state_needs_review),
        InboxMessageState::Ignored => ("ignored", texts.state_ignored),
        InboxMessageState::Failed => ("overdue", texts.state_failed),
    }
}

/// The badge tone and label of an e-invoice's check class (issue 36).
fn check_badge(class: Option<DefectClass>) -> (&'static str, &'static str) {
    let texts = t().einvoice_check();
    match class {
        None => ("paid", texts.valid_short),
        Some(DefectClass::Formal) => ("overdue", texts.formal_defect),
        Some(DefectClass::Content) => ("overdue", texts.content_defect),
        Some(DefectClass::Other) => ("pending", texts.other_defect),
    }
}

/// A message's reason in the user's language, sentence by sentence.
fn localized_reason(reason: &str) -> String {
    reason
        .split(REASON_SEPARATOR)
        .map(localized_sentence)
        .collect::<Vec<_>>()
        .join(REASON_SEPARATOR)
}

/// One row.
#[component]
fn InboxRow(message: InboxMessage) -> impl IntoView {
    let texts = t().inbox();
    let (tone, label) = state_badge(message.state);
    let purchases = message
        .purchase_ids
        .iter()
        .map(|id| {
            let text = fill(texts.purchase, &[("id", &id.to_string())]);
            // Issue 36: the check result of each e-invoice beside its purchase.
            let check = message.checks.iter().find(|c| c.purchase_id == *id).map(|c| {
                let (tone, label) = check_badge(c.class);
                let rules = c.rules.join(", ");
                let ids = c
                    .rules
                    .iter()
                    .enumerate()
                    .map(|(i, r)| view! { {(i > 0).then_some(", ")}<span class="rule-id">{r.clone()}</span> })
                    .collect_view();
                view! {
                    " " <span class=format!("badge badge-{tone}") data-check=c.class.map(|k| k.as_str()).unwrap_or("valid")
                        title=rules.clone()>{label}</span>
                    {(!rules.is_empty()).then(|| view! { " " <span class="muted">{ids}</span> })}
                }
            });
            view! { <a href=href(&format!("/purchases/{id}"))>{text}</a>{check}<br /> }
        })
        .collect_view();
    view! {
        <tr data-inbox-message=message.id.to_string() data-state=message.state.as_str()>
            <td class="cell-date">{format_time(message.received_at)}</td>
            <td>{message.from.clone()}</td>
            <td>{message.subject.clone()}</td>
            <td>
                <Badge tone=tone.to_string() label=label.to_string() />
                {message.reason.clone().map(|r| view! { <p class="mail-error">{localized_reason(&r)}</p> })}
            </td>
            <td>{purchases}</td>
        </tr>
    }
}

/// The page.
#[component]
pub fn InboxPage() -> impl IntoView {
    let texts = t().inbox();
    let toasts = Toasts::use_context();
    let choice = RwSignal::new(String::new());
    let version = RwSignal::new(0u32);
    let page = LocalResource::new(move || {
        version.track();
        let state = InboxMessageState::parse(&choice.get());
        async move { list_inbox_messages(state, 1).await }
    });
    let busy = RwSignal::new(false);
    let poll = move |_| {
        busy.set(true);
        leptos::task::spawn_local(async move {
            match poll_inbox().await {
                Ok(p) => toasts.success(fill(
                    texts.polled,
                    &[
                        ("messages", &p.messages.to_string()),
                        ("imported", &p.imported.to_string()),
                        ("needs_review", &p.needs_review.to_string()),
                        ("ignored", &p.ignored.to_string()),
                        ("failed", &p.failed.to_string()),
                    ],
                )),
                Err(e) if e.status == 422 => toasts.error(texts.not_set_up.to_string()),
                Err(e) => toasts.error(fill(
                    texts.poll_failed,
                    &[("message", &localized_sentence(&e.message))],
                )),
            }
            busy.set(false);
            version.update(|v| *v += 1);
        });
    };
    let choices = [
        ("", texts.filter_all),
        ("imported", texts.state_imported),
        ("needs_review", texts.state_needs_review),
        ("ignored", texts.state_ignored),
        ("failed", texts.state_failed),
    ];
    view! {
        <header class="page-head">
            <h1>{t().nav().inbox}</h1>
            <div class="page-actions">
                <button type="button" class="btn btn-primary" id="inbox-poll"
                    disabled=move || busy.get() on:click=poll>
                    {move || if busy.get() { texts.polling } else { texts.poll }}
                </button>
            </div>
        </header>
        <p class="muted">{texts.intro}</p>
        <div class="filters">
            <label for="inbox-filter">{texts.filter_label}</label>
            <select id="inbox-filter" prop:value=move || choice.get()
                on:change=move |ev| choice.set(event_target_value(&ev))>
                {choices.into_iter().map(|(value, label)| view! { <option value=value>{label}</option> }).collect_view()}
            </select>
        </div>
        <Suspense fallback=|| view! { <p class="muted">"…"</p> }>
            {move || page.get().map(|answer| match answer {
                Ok(p) if p.items.is_empty() => view! { <p class="empty-state" id="inbox-empty">{texts.empty}</p> }.into_any(),
                Ok(p) => view! {
                    <div class="table-wrap">
                        <table class="table mail-table" id="inbox-table">
                            <thead>
                                <tr>
                                    <th scope="col">{texts.col_received}</th>
                                    <th scope="col">{texts.col_from}</th>
                                    <th scope="col">{texts.col_subject}</th>
                                    <th scope="col">{texts.col_state}</th>
                                    <th scope="col">{texts.col_purchases}</th>
                                </tr>
                            </thead>
                            <tbody>
                                {p.items.into_iter().map(|m| view! { <InboxRow message=m /> }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                    {(p.total > u64::from(p.per_page)).then(|| view! {
                        <p class="muted">{fill(texts.more, &[("shown", &p.per_page.to_string()), ("total", &p.total.to_string())])}</p>
                    })}
                }.into_any(),
                Err(e) => view! { <p class="field-error" role="alert">{e.message}</p> }.into_any(),
            })}
        </Suspense>
    }
}
