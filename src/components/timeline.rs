//! The timeline of an invoice, offer or purchase (issue 11 § Timeline): the record's
//! events newest first, each as a readable sentence ("Sent to a@b.de — “Invoice
//! R2611-004”", "Payment 119.00 EUR received on 11/21/2026", "Finalized as R2611-004") with
//! who and when. [`TimelineSection`] loads the events; [`Timeline`] draws a loaded list;
//! [`event_sentence`] is the wording (component-tested).

use super::date::format_date;
use super::error_panel::ErrorPanel;
use super::money::format_money;
use super::skeleton::SkeletonBlock;
use crate::api::events::{get_invoice_events, get_offer_events, get_purchase_events};
use crate::paths::href;
use kontor_model::event::{
    CopiedData, CreatedData, DocumentUploadedData, Event, EventKind, FinalizedData, PaymentData,
    ReminderData, ReversedData, SentData, StatusChangedData, SubjectType,
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
    /// Link text (`invoice #40`).
    pub label: String,
}

/// What one timeline entry says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventLine {
    /// The sentence (`"Finalized as R2611-004"`).
    pub text: String,
    /// A second, quieter line (the Message-ID of a sent e-mail).
    pub detail: Option<String>,
    /// The record the event refers to, linked after the sentence.
    pub link: Option<EventLink>,
}

fn noun(subject: SubjectType) -> &'static str {
    match subject {
        SubjectType::Invoice => "invoice",
        SubjectType::Offer => "offer",
        SubjectType::Purchase => "purchase",
    }
}

fn path_of(subject: SubjectType, id: i64) -> String {
    match subject {
        SubjectType::Invoice => format!("/invoices/{id}"),
        SubjectType::Offer => format!("/offers/{id}"),
        SubjectType::Purchase => format!("/purchases/{id}"),
    }
}

fn link(subject: SubjectType, id: i64) -> Option<EventLink> {
    Some(EventLink {
        path: path_of(subject, id),
        label: format!("{} #{id}", noun(subject)),
    })
}

/// A status word of `subject`'s status enum as its label (`"partially_paid"` →
/// `"Partially paid"`); the word itself when unknown.
fn status_label(subject: SubjectType, word: &str) -> String {
    let label = match subject {
        SubjectType::Invoice => InvoiceStatus::parse(word).map(|s| s.label()),
        SubjectType::Offer => OfferStatus::parse(word).map(|s| s.label()),
        SubjectType::Purchase => PurchaseStatus::parse(word).map(|s| s.label()),
    };
    label
        .map(str::to_string)
        .unwrap_or_else(|| word.to_string())
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
/// when the event's data names none).
pub fn event_sentence(subject: SubjectType, event: &Event, currency: &str) -> EventLine {
    let plain = |text: String| EventLine {
        text,
        detail: None,
        link: None,
    };
    match event.kind {
        EventKind::Created => {
            let d: CreatedData = event.data_as();
            if let Some(source) = d.copy_of {
                EventLine {
                    text: "Created as a copy of".into(),
                    detail: None,
                    link: link(subject, source),
                }
            } else if let Some(original) = d.reversal_of {
                EventLine {
                    text: "Created as the reversal of".into(),
                    detail: None,
                    link: link(SubjectType::Invoice, original),
                }
            } else if let Some(offer) = d.offer_id {
                EventLine {
                    text: "Created from".into(),
                    detail: None,
                    link: link(SubjectType::Offer, offer),
                }
            } else if let Some(recurring) = d.recurring_invoice_id {
                EventLine {
                    text: "Created by".into(),
                    detail: None,
                    link: Some(EventLink {
                        path: format!("/recurring_invoices/{recurring}"),
                        label: format!("recurring invoice #{recurring}"),
                    }),
                }
            } else if let Some(format) = d.import {
                plain(format!(
                    "Imported from an e-invoice ({})",
                    format_name(&format)
                ))
            } else {
                plain("Created".into())
            }
        }
        EventKind::Updated => plain("Edited".into()),
        EventKind::Finalized => {
            let d: FinalizedData = event.data_as();
            if d.identifier.is_empty() {
                plain("Finalized".into())
            } else {
                plain(format!("Finalized as {}", d.identifier))
            }
        }
        EventKind::Sent => {
            let d: SentData = event.data_as();
            let mut text = format!("Sent to {}", addresses(&d.to));
            if !d.cc.is_empty() {
                text.push_str(&format!(" (cc {})", addresses(&d.cc)));
            }
            if !d.subject.is_empty() {
                text.push_str(&format!(" — “{}”", d.subject));
            }
            EventLine {
                text,
                detail: (!d.message_id.is_empty()).then(|| format!("Message-ID {}", d.message_id)),
                link: None,
            }
        }
        EventKind::Payment | EventKind::PaymentDeleted => {
            let d: PaymentData = event.data_as();
            let amount = money(d.amount, d.currency.as_deref(), currency);
            let verb = match (event.kind, subject) {
                (EventKind::PaymentDeleted, _) => "deleted",
                (_, SubjectType::Purchase) => "paid",
                _ => "received",
            };
            let mut text = format!("Payment {amount} {verb}");
            if let (EventKind::Payment, Some(date)) = (event.kind, d.date) {
                text.push_str(&format!(" on {}", format_date(date)));
            }
            plain(text)
        }
        EventKind::Reminder => {
            let d: ReminderData = event.data_as();
            if d.fee.is_zero() {
                plain("Payment reminder created".into())
            } else {
                plain(format!(
                    "Payment reminder created with a fee of {}",
                    money(d.fee, None, currency)
                ))
            }
        }
        EventKind::StatusChanged => {
            let d: StatusChangedData = event.data_as();
            plain(format!(
                "Status changed from {} to {}",
                status_label(subject, &d.from),
                status_label(subject, &d.to)
            ))
        }
        EventKind::Copied => {
            let d: CopiedData = event.data_as();
            EventLine {
                text: "Copied to".into(),
                detail: None,
                link: link(subject, d.copy_id),
            }
        }
        EventKind::Reversed => {
            let d: ReversedData = event.data_as();
            EventLine {
                text: "Reversed by".into(),
                detail: None,
                link: link(SubjectType::Invoice, d.reversal_invoice_id),
            }
        }
        EventKind::Approved => plain("Approved".into()),
        EventKind::DocumentUploaded => {
            let d: DocumentUploadedData = event.data_as();
            match d.file_name {
                Some(name) => plain(format!("Receipt uploaded: {name}")),
                None => plain("Receipt uploaded".into()),
            }
        }
    }
}

/// `at` in the browser's time zone and the user's language (`"23 Nov 2026, 10:00"`,
/// German `"23.11.2026, 10:00"`).
fn format_time(at: chrono::DateTime<chrono::Utc>) -> String {
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
        return view! { <p class="muted timeline-empty">"Nothing has happened yet."</p> }
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
                            {line.text}
                            {line.link.map(|l| view! { " " <a href=href(&l.path)>{l.label}</a> })}
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
