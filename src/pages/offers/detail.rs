//! The offer detail page (`/offers/:id`): header with number, status badge, company and
//! totals; the status control (any of the six states), "Send by e-mail" and, for accepted
//! or partially billed offers, "Create invoice"; "Edit", "Copy" and "Delete"
//! (`detail_actions`); then the positions (optional ones marked
//! and not counted), the PDF preview on a chosen letter paper, online approval and the
//! order confirmation (`detail_approval`, issue 31), and the attachments.

use super::attachments::AttachmentsSection;
use super::detail_actions::OfferEditActions;
use super::detail_approval::ApprovalSection;
use super::detail_down_payment::CreateDownPaymentAction;
use super::detail_email::OfferEmailAction;
use super::detail_sections::{OfferDocument, OfferPositions};
use super::OfferBadge;
use crate::api::offers::{get_offer, update_offer_status};
use crate::components::audit_history::AuditHistory;
use crate::components::confirm_dialog::ConfirmDialog;
use crate::components::date::format_date;
use crate::components::error_panel::loaded_view;
use crate::components::money::format_money;
use crate::components::route_record::{route_record, use_route_id};
use crate::components::task::Task;
use crate::components::timeline::TimelineSection;
use crate::components::toast::Toasts;
use crate::i18n::{fill, status_label, t};
use crate::paths::href;
use kontor_model::event::SubjectType;
use kontor_model::offer::{Offer, OfferStatus};
use leptos::prelude::*;

/// The offer detail page.
#[component]
pub fn OfferDetail() -> impl IntoView {
    let id = use_route_id();
    let offer = route_record(id, || t().offer_detail().bad_address, get_offer);
    let reload = Callback::new(move |_: ()| offer.refetch());
    view! {
        <p class="breadcrumb"><a href=href("/offers")>{t().offer_detail().back_to_list}</a></p>
        {loaded_view(offer, 10, move |offer| view! { <OfferView offer=offer on_changed=reload /> })}
    }
}

/// One loaded offer.
#[component]
fn OfferView(
    /// The offer with items.
    offer: Offer,
    /// Called after a change so the page reloads the offer.
    on_changed: Callback<()>,
) -> impl IntoView {
    let company = offer
        .company
        .as_ref()
        .map(|c| c.name.clone())
        .unwrap_or_default();
    let cur = offer.currency.clone();
    let facts = [
        (t().list().deal, offer.deal.as_ref().map(|d| d.name.clone())),
        (
            t().list().project,
            offer.project.as_ref().map(|p| p.name.clone()),
        ),
        (
            t().offer_detail().contact,
            offer.contact.as_ref().map(|c| c.name.clone()),
        ),
        (t().offer_detail().date, Some(format_date(offer.date))),
        (t().list().valid_until, Some(format_date(offer.due_date))),
    ];
    view! {
        <header class="page-head detail-head">
            <div class="detail-title">
                <h1>{offer.identifier.clone()} " " <OfferBadge status=offer.status /></h1>
                <p class="detail-facts">
                    <span class="detail-customer">{company}</span>
                    <span class="detail-sep" aria-hidden="true">"·"</span>
                    <span>{offer.title.clone()}</span>
                </p>
            </div>
            <div class="detail-total">
                <span class="muted">{t().offer_detail().gross_total}</span>
                <strong class="money" id="offer-gross">{format_money(offer.gross_total, &cur)}</strong>
                <span class="muted money">{fill(t().offer_detail().net_amount, &[("amount", &format_money(offer.net_total, &cur))])}</span>
            </div>
            <div class="page-actions">
                <StatusControl offer_id=offer.id status=offer.status on_changed=on_changed />
                <OfferEditActions offer=offer.clone() />
                <OfferEmailAction offer=offer.clone() on_changed=on_changed />
                {offer.status.can_invoice().then(|| view! {
                    <CreateDownPaymentAction offer=offer.clone() />
                    <CreateInvoiceAction offer_id=offer.id bills_again=offer.status.bills_again() />
                })}
            </div>
        </header>
        <dl class="facts">
            {facts.into_iter().filter_map(|(k, v)| v.map(|v| view! { <div><dt>{k}</dt><dd>{v}</dd></div> })).collect_view()}
            {(!offer.invoices.is_empty()).then(|| view! {
                <div class="offer-invoices"><dt>{t().offer_detail().invoices}</dt><dd>
                    {offer.invoices.iter().enumerate().map(|(n, i)| {
                        let mut label = i.identifier.clone().unwrap_or_else(|| fill(t().offer_detail().draft_number, &[("id", &i.id.to_string())]));
                        // Issue 33: down payments and the final invoice say what they are.
                        if i.kind != kontor_model::down_payment::InvoiceKind::Standard {
                            label = format!("{label} ({})", crate::components::down_payment_fields::kind_label(i.kind));
                        }
                        view! {
                            {(n > 0).then_some(", ")}
                            <a href=href(&format!("/invoices/{}", i.id)) data-invoice-link=i.id.to_string()>{label}</a>
                        }
                    }).collect_view()}
                </dd></div>
            })}
        </dl>
        <OfferPositions offer=offer.clone() />
        <section class="section" aria-labelledby="document-title">
            <h2 class="section-title" id="document-title">{t().offer_detail().document}</h2>
            <OfferDocument offer_id=offer.id identifier=offer.identifier.clone() />
        </section>
        <ApprovalSection offer=offer.clone() on_changed=on_changed />
        <AttachmentsSection offer_id=offer.id />
        // The e-mails that carried it and its order confirmations (issue 33).
        <section class="section" aria-labelledby="mail-title">
            <h2 class="section-title" id="mail-title">{t().mail().tab}</h2>
            <crate::components::mail_list::MailList filter=crate::api::emails::EmailFilter {
                document: Some((kontor_model::email::MailDocumentType::Offer, offer.id)),
                ..Default::default()
            } />
        </section>
        <section class="section" aria-labelledby="history-title">
            <h2 class="section-title" id="history-title">{t().offer_detail().history}</h2>
            <TimelineSection subject=SubjectType::Offer id=offer.id currency=cur.clone() />
        </section>
        <AuditHistory record_type="offer" record_id=offer.id />
    }
}

/// "Create invoice": opens the invoice form from this offer; on a billed offer it first
/// asks whether to bill it again.
#[component]
fn CreateInvoiceAction(
    /// The offer id.
    offer_id: i64,
    /// The offer is billed already: ask before billing it again.
    bills_again: bool,
) -> impl IntoView {
    let target = href(&format!("/invoices/new?from_offer={offer_id}"));
    if !bills_again {
        return view! {
            <a class="btn btn-primary" id="create-invoice" href=target>{t().offer_detail().create_invoice}</a>
        }
        .into_any();
    }
    let open = RwSignal::new(false);
    let navigate = leptos_router::hooks::use_navigate();
    let go = StoredValue::new(format!("/invoices/new?from_offer={offer_id}"));
    view! {
        <button type="button" class="btn btn-primary" id="create-invoice" on:click=move |_| open.set(true)>
            {t().offer_detail().create_invoice}
        </button>
        <ConfirmDialog open=open title=t().offer_detail().bill_again_title.to_string()
            text=t().offer_detail().bill_again_text.to_string()
            confirm_label=t().offer_detail().bill_again_confirm.to_string() confirm_id="create-invoice-confirm"
            on_confirm=Callback::new(move |_| {
                open.set(false);
                go.with_value(|t| navigate(t, Default::default()));
            }) />
    }
    .into_any()
}

/// The status `<select>`: any of the six states.
#[component]
fn StatusControl(
    /// The offer id.
    offer_id: i64,
    /// The current status.
    status: OfferStatus,
    /// Called after the change.
    on_changed: Callback<()>,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let task = Task::new();
    let change = move |ev: leptos::ev::Event| {
        let Some(next) = OfferStatus::parse(&event_target_value(&ev)) else {
            return;
        };
        task.run(update_offer_status(offer_id, next), move |r| match r {
            Ok(o) => {
                toasts.success(fill(
                    t().offer_detail().status_changed,
                    &[
                        ("identifier", &o.identifier),
                        ("status", &status_label(o.status.as_str()).to_lowercase()),
                    ],
                ));
                on_changed.run(());
            }
            Err(e) => toasts.error(fill(
                t().offer_detail().status_not_changed,
                &[("message", &e.message)],
            )),
        });
    };
    view! {
        <label class="visually-hidden" for="offer-status">{t().offer_detail().status}</label>
        <select id="offer-status" on:change=change disabled=move || task.pending.get()>
            {OfferStatus::ALL.into_iter().map(|s| view! { <option value=s.as_str() selected=s == status>{status_label(s.as_str())}</option> }).collect_view()}
        </select>
    }
}
