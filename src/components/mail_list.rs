//! The sent-mail record as a table (issue 33 § Sent mail): when, to whom, the subject, the
//! document (a link to its invoice or offer), what became of it (sent, in the outbox,
//! failed with the reason) and "Send again" for kept messages. The Mail page shows all of
//! it, an invoice's Mail tab its own messages.

use crate::api::emails::{list_emails, resend_email, EmailFilter};
use crate::components::field::localized_sentence;
use crate::components::status_badge::Badge;
use crate::components::timeline::format_time;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use crate::paths::href;
use kontor_model::email::{EmailRecord, MailDocumentType, MailState};
use leptos::prelude::*;

/// The badge tone and label of a message's state.
fn state_badge(state: MailState) -> (&'static str, &'static str) {
    let texts = t().mail();
    match state {
        MailState::Sent => ("paid", texts.state_sent),
        MailState::Queued => ("pending", texts.state_queued),
        MailState::Failed => ("overdue", texts.state_failed),
    }
}

/// The name of a document type.
fn document_label(kind: MailDocumentType) -> &'static str {
    let texts = t().mail();
    match kind {
        MailDocumentType::Invoice => texts.document_invoice,
        MailDocumentType::Offer => texts.document_offer,
        MailDocumentType::Reminder => texts.document_reminder,
        MailDocumentType::OrderConfirmation => texts.document_confirmation,
    }
}

/// One row.
#[component]
fn MailRow(email: EmailRecord, on_changed: Callback<()>) -> impl IntoView {
    let texts = t().mail();
    let toasts = Toasts::use_context();
    let (tone, label) = state_badge(email.state);
    let id = email.id;
    let busy = RwSignal::new(false);
    let resend = move |_| {
        busy.set(true);
        leptos::task::spawn_local(async move {
            match resend_email(id).await {
                Ok(r) if r.state == MailState::Queued => {
                    toasts.success(texts.resent_outbox.to_string())
                }
                Ok(_) => toasts.success(texts.resent.to_string()),
                Err(e) => toasts.error(fill(
                    texts.resend_failed,
                    &[("message", &localized_sentence(&e.message))],
                )),
            }
            busy.set(false);
            on_changed.run(());
        });
    };
    let document = email.document.clone().map(|d| {
        let text = match &d.identifier {
            Some(n) => format!("{} {n}", document_label(d.kind)),
            None => format!("{} #{}", document_label(d.kind), d.id),
        };
        view! { <a href=href(&d.kind.app_path(d.id))>{text}</a> }
    });
    let to = email.to.join(", ");
    let cc = (!email.cc.is_empty()).then(|| fill(texts.cc, &[("list", &email.cc.join(", "))]));
    let resent = email.resent_email_id.is_some();
    view! {
        <tr data-email-id=id.to_string() data-state=email.state.as_str()>
            <td class="cell-date">{format_time(email.at)}</td>
            <td class="cell-to">{to}{cc.map(|c| view! { <br /><span class="muted">{c}</span> })}</td>
            <td>{email.subject.clone()}</td>
            <td>{document}</td>
            <td>
                <Badge tone=tone.to_string() label=label.to_string() />
                {email.error.clone().map(|e| view! { <p class="mail-error">{localized_sentence(&e)}</p> })}
                {resent.then(|| view! { <p class="muted">{texts.was_resent}</p> })}
            </td>
            <td class="cell-actions">
                {(email.resendable && !resent).then(|| view! {
                    <button type="button" class="btn btn-quiet" data-resend=id.to_string()
                        disabled=move || busy.get() on:click=resend>
                        {texts.resend}
                    </button>
                })}
            </td>
        </tr>
    }
}

/// The record's messages that `filter` selects, newest first (the first 50), with an
/// empty state.
#[component]
pub fn MailList(
    /// Which messages.
    #[prop(into)]
    filter: Signal<EmailFilter>,
) -> impl IntoView {
    let texts = t().mail();
    let version = RwSignal::new(0u32);
    let page = LocalResource::new(move || {
        version.track();
        let f = filter.get();
        async move { list_emails(f, 1).await }
    });
    let changed = Callback::new(move |_| version.update(|v| *v += 1));
    view! {
        <Suspense fallback=|| view! { <p class="muted">"…"</p> }>
            {move || page.get().map(|answer| match answer {
                Ok(p) if p.items.is_empty() => view! { <p class="empty-state" id="mail-empty">{texts.empty}</p> }.into_any(),
                Ok(p) => view! {
                    <div class="table-wrap">
                        <table class="table mail-table" id="mail-table">
                            <thead>
                                <tr>
                                    <th scope="col">{texts.col_at}</th>
                                    <th scope="col">{texts.col_to}</th>
                                    <th scope="col">{texts.col_subject}</th>
                                    <th scope="col">{texts.col_document}</th>
                                    <th scope="col">{texts.col_state}</th>
                                    <th scope="col"><span class="visually-hidden">{texts.col_actions}</span></th>
                                </tr>
                            </thead>
                            <tbody>
                                {p.items.into_iter().map(|e| view! { <MailRow email=e on_changed=changed /> }).collect_view()}
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
