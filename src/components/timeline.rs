//! The timeline of an invoice, offer or purchase (issue 11 § Timeline): the record's
//! events newest first, each as a readable sentence in the user's language ("Sent to
//! a@b.de — “Invoice R2611-004”", German "An a@b.de gesendet – „Rechnung R2611-004“";
//! "Payment 119.00 EUR received on 21 Nov 2026", "Zahlung über 119,00 € am 21.11.2026
//! eingegangen") with who and when; the sentences are whole catalogue texts
//! (`invoice_detail_timeline`) with placeholders, a link taking its placeholder's place. [`TimelineSection`] loads the events; [`Timeline`] draws a loaded list;
//! [`event_sentence`] is the wording (component-tested).

use super::date::format_date;
use super::error_panel::ErrorPanel;
use super::money::format_money;
use super::skeleton::SkeletonBlock;
use crate::api::events::{get_invoice_events, get_offer_events, get_purchase_events};
use crate::i18n::{self, fill, t};
use crate::paths::href;
use kontor_model::event::{
    ApprovalData, CopiedData, CreatedData, CreditedData, DocumentUploadedData, Event, EventKind,
    FinalizedData, PaymentData, ReminderData, ReversedData, SentData, StatusChangedData,
    SubjectType,
};
use kontor_model::offer::OfferStatus;
use kontor_model::purchase::PurchaseStatus;
use kontor_model::status::InvoiceStatus;
use kontor_model::Decimal;
use leptos::prelude::*;
use wasm_bindgen::JsValue;

/// A link an event points to (the copy, the source, the reversal, the offer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventLink {
    /// App path (`/invoices/40`).
    pub path: String,
    /// Link text (`invoice #40`, German `Rechnung #40`).
    pub label: String,
}

/// What one timeline entry says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventLine {
    /// The sentence, or with a link its part before the link (`"Finalized as R2611-004"`,
    /// `"Copied to"`).
    pub text: String,
    /// A second, quieter line (the Message-ID of a sent e-mail).
    pub detail: Option<String>,
    /// The record the event refers to, linked after [`EventLine::text`].
    pub link: Option<EventLink>,
    /// With a link: the sentence's rest after it (empty in English; a language may put
    /// the verb last).
    pub after: String,
}

/// A catalogue sentence with a `{name}` placeholder split into the text before and after
/// it, so a link can take the placeholder's place in a whole sentence (`"Created from
/// {offer}"` → `("Created from ", "")`). Without the placeholder: the whole text, `""`.
pub fn split_at_placeholder(template: &str, name: &str) -> (String, String) {
    let mark = format!("{{{name}}}");
    match template.split_once(&mark) {
        Some((before, after)) => (before.to_string(), after.to_string()),
        None => (template.to_string(), String::new()),
    }
}

fn path_of(subject: SubjectType, id: i64) -> String {
    match subject {
        SubjectType::Invoice => format!("/invoices/{id}"),
        SubjectType::Offer => format!("/offers/{id}"),
        SubjectType::Purchase => format!("/purchases/{id}"),
    }
}

fn link_label(subject: SubjectType, id: i64) -> String {
    let tl = t().invoice_detail_timeline();
    let template = match subject {
        SubjectType::Invoice => tl.invoice_id,
        SubjectType::Offer => tl.offer_id,
        SubjectType::Purchase => tl.purchase_id,
    };
    fill(template, &[("id", &id.to_string())])
}

/// A line with `link` in place of `{link}` in `template`.
fn linked(template: &str, link: EventLink) -> EventLine {
    let (before, after) = split_at_placeholder(template, "link");
    EventLine {
        text: before.trim_end().to_string(),
        detail: None,
        link: Some(link),
        after,
    }
}

fn link(subject: SubjectType, id: i64) -> EventLink {
    EventLink {
        path: path_of(subject, id),
        label: link_label(subject, id),
    }
}

/// A status word of `subject`'s status enum as its label in the current language
/// (`"partially_paid"` → `"Partially paid"`, German `"Teilweise bezahlt"`); the word
/// itself when unknown.
fn status_label(subject: SubjectType, word: &str) -> String {
    let known = match subject {
        SubjectType::Invoice => InvoiceStatus::parse(word).is_some(),
        SubjectType::Offer => OfferStatus::parse(word).is_some(),
        SubjectType::Purchase => PurchaseStatus::parse(word).is_some(),
    };
    if known {
        i18n::status_label(word)
    } else {
        word.to_string()
    }
}

/// The name of an e-invoice import format (`"xrechnung"` → `"XRechnung"`).
fn format_name(format: &str) -> String {
    match format {
        "xrechnung" => "XRechnung".into(),
        "factur-x" => "Factur-X".into(),
        "zugferd" => "ZUGFeRD".into(),
        "en16931" => "EN 16931".into(),
        other => other.to_string(),
    }
}

fn money(amount: Decimal, currency: Option<&str>, fallback: &str) -> String {
    format_money(
        amount,
        currency.filter(|c| !c.is_empty()).unwrap_or(fallback),
    )
}

fn addresses(list: &[String]) -> String {
    list.join(", ")
}

/// The sentence for `event` of a `subject` record whose amounts are in `currency` (used
/// when the event's data names none), in the current language.
pub fn event_sentence(subject: SubjectType, event: &Event, currency: &str) -> EventLine {
    let tl = t().invoice_detail_timeline();
    let plain = |text: String| EventLine {
        text,
        detail: None,
        link: None,
        after: String::new(),
    };
    match event.kind {
        EventKind::Created => {
            let d: CreatedData = event.data_as();
            if let Some(source) = d.copy_of {
                linked(tl.created_copy_of, link(subject, source))
            } else if let Some(original) = d.reversal_of {
                linked(tl.created_reversal_of, link(SubjectType::Invoice, original))
            } else if let Some(offer) = d.offer_id {
                linked(tl.created_from, link(SubjectType::Offer, offer))
            } else if let Some(recurring) = d.recurring_invoice_id {
                linked(
                    tl.created_by,
                    EventLink {
                        path: format!("/recurring_invoices/{recurring}"),
                        label: fill(tl.recurring_id, &[("id", &recurring.to_string())]),
                    },
                )
            } else if let Some(format) = d.import {
                plain(fill(tl.imported, &[("format", &format_name(&format))]))
            } else {
                plain(tl.created.into())
            }
        }
        EventKind::Updated => plain(tl.edited.into()),
        EventKind::Finalized => {
            let d: FinalizedData = event.data_as();
            if d.identifier.is_empty() {
                plain(tl.finalized.into())
            } else {
                plain(fill(tl.finalized_as, &[("number", &d.identifier)]))
            }
        }
        EventKind::Sent => {
            let d: SentData = event.data_as();
            let template = match (d.cc.is_empty(), d.subject.is_empty()) {
                (true, true) => tl.sent,
                (false, true) => tl.sent_cc,
                (true, false) => tl.sent_subject,
                (false, false) => tl.sent_cc_subject,
            };
            let text = fill(
                template,
                &[
                    ("to", &addresses(&d.to)),
                    ("cc", &addresses(&d.cc)),
                    ("subject", &d.subject),
                ],
            );
            EventLine {
                text,
                detail: (!d.message_id.is_empty())
                    .then(|| fill(tl.message_id, &[("id", &d.message_id)])),
                link: None,
                after: String::new(),
            }
        }
        EventKind::Payment | EventKind::PaymentDeleted => {
            let d: PaymentData = event.data_as();
            let amount = money(d.amount, d.currency.as_deref(), currency);
            let date = d.date.map(format_date);
            let template = match (event.kind, subject, &date) {
                (EventKind::PaymentDeleted, _, _) => tl.payment_deleted,
                (_, SubjectType::Purchase, Some(_)) => tl.payment_paid_on,
                (_, SubjectType::Purchase, None) => tl.payment_paid,
                (_, _, Some(_)) => tl.payment_received_on,
                (_, _, None) => tl.payment_received,
            };
            let mut line = plain(fill(
                template,
                &[("amount", &amount), ("date", &date.unwrap_or_default())],
            ));
            // Issue 32: a payment booked from a bank transaction says so.
            line.detail = d
                .bank_transaction_id
                .map(|id| fill(tl.payment_from_bank, &[("id", &id.to_string())]));
            line
        }
        EventKind::Reminder => {
            let d: ReminderData = event.data_as();
            if d.fee.is_zero() {
                plain(tl.reminder.into())
            } else {
                plain(fill(
                    tl.reminder_fee,
                    &[("fee", &money(d.fee, None, currency))],
                ))
            }
        }
        EventKind::StatusChanged => {
            let d: StatusChangedData = event.data_as();
            plain(fill(
                tl.status_changed,
                &[
                    ("from", &status_label(subject, &d.from)),
                    ("to", &status_label(subject, &d.to)),
                ],
            ))
        }
        EventKind::AcceptedOnline => {
            let d: ApprovalData = event.data_as();
            plain(fill(tl.accepted_online, &[("name", &d.customer_full_name)]))
        }
        EventKind::DeclinedOnline => {
            let d: ApprovalData = event.data_as();
            let reason = d.reason.unwrap_or_default();
            plain(if reason.is_empty() {
                fill(tl.declined_online, &[("name", &d.customer_full_name)])
            } else {
                fill(
                    tl.declined_online_reason,
                    &[("name", &d.customer_full_name), ("reason", &reason)],
                )
            })
        }
        EventKind::Copied => {
            let d: CopiedData = event.data_as();
            linked(tl.copied_to, link(subject, d.copy_id))
        }
        EventKind::Reversed => {
            let d: ReversedData = event.data_as();
            linked(
                tl.reversed_by,
                link(SubjectType::Invoice, d.reversal_invoice_id),
            )
        }
        EventKind::Credited => {
            let d: CreditedData = event.data_as();
            linked(tl.credited_by, link(SubjectType::Invoice, d.credit_note_id))
        }
        EventKind::Approved => plain(tl.approved.into()),
        EventKind::DocumentUploaded => {
            let d: DocumentUploadedData = event.data_as();
            match d.file_name {
                Some(name) => plain(fill(tl.receipt_uploaded_name, &[("name", &name)])),
                None => plain(tl.receipt_uploaded.into()),
            }
        }
    }
}

/// `at` in the browser's time zone and the user's language (`"23 Nov 2026, 10:00"`,
/// German `"23.11.2026, 10:00"`).
pub fn format_time(at: chrono::DateTime<chrono::Utc>) -> String {
    let js = js_sys::Date::new(&JsValue::from_f64(at.timestamp_millis() as f64));
    let lang = crate::components::locale::display_lang().intl_locale();
    let options = js_sys::Object::new();
    for (key, value) in [("dateStyle", "medium"), ("timeStyle", "short")] {
        let _ = js_sys::Reflect::set(&options, &key.into(), &value.into());
    }
    let text: String = js.to_locale_string(lang, &options).into();
    if text.is_empty() {
        format_date(at.date_naive())
    } else {
        text
    }
}

/// A loaded timeline, newest first; "Nothing has happened yet." when empty.
#[component]
pub fn Timeline(
    /// The events, oldest first (as the server answers).
    events: Vec<Event>,
    /// What the events belong to.
    subject: SubjectType,
    /// The record's currency, for amounts whose event names none.
    #[prop(into)]
    currency: String,
) -> impl IntoView {
    if events.is_empty() {
        return view! { <p class="muted timeline-empty">{t().invoice_detail_timeline().empty}</p> }
            .into_any();
    }
    let items = events
        .into_iter()
        .rev()
        .map(|event| {
            let line = event_sentence(subject, &event, &currency);
            let who = event
                .user
                .as_ref()
                .map(|u| u.name.clone())
                .filter(|n| !n.is_empty())
                .unwrap_or_else(|| "Kontor".into());
            let iso = kontor_model::timestamp::format(&event.at);
            let when = format_time(event.at);
            view! {
                <li class="timeline-item" data-event-kind=event.kind.as_str()>
                    <span class="timeline-dot" aria-hidden="true"></span>
                    <div class="timeline-body">
                        <p class="timeline-text">
                            {line.text.clone()}
                            {line.link.map(|l| {
                                let space = (!line.text.is_empty()).then_some(" ");
                                view! { {space} <a href=href(&l.path)>{l.label}</a> }
                            })}
                            {(!line.after.is_empty()).then(|| line.after.clone())}
                        </p>
                        {line.detail.map(|d| view! { <p class="timeline-detail muted">{d}</p> })}
                        <p class="timeline-meta muted">
                            <span class="timeline-user">{who}</span>
                            <span aria-hidden="true">" · "</span>
                            <time datetime=iso>{when}</time>
                        </p>
                    </div>
                </li>
            }
        })
        .collect_view();
    view! { <ol class="timeline">{items}</ol> }.into_any()
}

/// Loads and shows the timeline of `subject` record `id` (a skeleton while loading, the
/// error panel on failure).
#[component]
pub fn TimelineSection(
    /// What the record is.
    subject: SubjectType,
    /// Its id.
    id: i64,
    /// Its currency.
    #[prop(into)]
    currency: String,
) -> impl IntoView {
    let events = LocalResource::new(move || async move {
        match subject {
            SubjectType::Invoice => get_invoice_events(id).await,
            SubjectType::Offer => get_offer_events(id).await,
            SubjectType::Purchase => get_purchase_events(id).await,
        }
    });
    let retry = Callback::new(move |_: ()| events.refetch());
    let currency = StoredValue::new(currency);
    view! {
        <Transition fallback=|| view! { <SkeletonBlock lines=3 /> }>
            {move || Suspend::new(async move {
                match events.await {
                    Ok(list) => view! { <Timeline events=list subject=subject currency=currency.get_value() /> }.into_any(),
                    Err(error) => view! { <ErrorPanel error=error on_retry=retry /> }.into_any(),
                }
            })}
        </Transition>
    }
}
