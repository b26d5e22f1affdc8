//! The offer detail page (`/offers/:id`): header with number, status badge, company and
//! totals; the status control (any of the six states), "Send by e-mail" and, for accepted
//! or partially billed offers, "Create invoice"; then the positions (optional ones marked
//! and not counted), the PDF preview on a chosen letter paper, and the attachments.

use super::attachments::AttachmentsSection;
use super::detail_email::OfferEmailAction;
use super::OfferBadge;
use crate::api::invoice_documents::Paper;
use crate::api::offers::{get_offer, get_offer_pdf, update_offer_status};
use crate::api::ApiError;
use crate::components::date::format_date;
use crate::components::error_panel::ErrorPanel;
use crate::components::money::format_money;
use crate::components::pdf_preview::{PdfDoc, PdfDownload, PdfFrame};
use crate::components::skeleton::SkeletonBlock;
use crate::components::task::Task;
use crate::components::toast::Toasts;
use crate::pages::invoices::detail_document::PaperSelect;
use crate::paths::href;
use kontor_model::offer::{Offer, OfferItem, OfferStatus};
use kontor_model::position::PositionType;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

/// The offer detail page.
#[component]
pub fn OfferDetail() -> impl IntoView {
    let params = use_params_map();
    let id =
        Memo::new(move |_| params.with(|p| p.get_str("id").and_then(|id| id.parse::<i64>().ok())));
    let offer = LocalResource::new(move || {
        let id = id.get();
        async move {
            match id {
                Some(id) => get_offer(id).await,
                None => Err(ApiError {
                    status: 404,
                    ..ApiError::local("This offer address is not valid.")
                }),
            }
        }
    });
    let reload = Callback::new(move |_: ()| offer.refetch());
    view! {
        <p class="breadcrumb"><a href=href("/offers")>"← Offers"</a></p>
        <Transition fallback=|| view! { <SkeletonBlock lines=10 /> }>
            {move || Suspend::new(async move {
                match offer.await {
                    Ok(offer) => view! { <OfferView offer=offer on_changed=reload /> }.into_any(),
                    Err(error) => view! { <ErrorPanel error=error on_retry=reload /> }.into_any(),
                }
            })}
        </Transition>
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
        ("Deal", offer.deal.as_ref().map(|d| d.name.clone())),
        ("Project", offer.project.as_ref().map(|p| p.name.clone())),
        ("Contact", offer.contact.as_ref().map(|c| c.name.clone())),
        ("Date", Some(format_date(offer.date))),
        ("Valid until", Some(format_date(offer.due_date))),
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
                <span class="muted">"Gross total"</span>
                <strong class="money" id="offer-gross">{format_money(offer.gross_total, &cur)}</strong>
                <span class="muted money">{format!("net {}", format_money(offer.net_total, &cur))}</span>
            </div>
            <div class="page-actions">
                <StatusControl offer_id=offer.id status=offer.status on_changed=on_changed />
                <OfferEmailAction offer=offer.clone() on_changed=on_changed />
                {offer.status.can_invoice().then(|| view! {
                    <a class="btn btn-primary" id="create-invoice" href=href(&format!("/invoices/new?from_offer={}", offer.id))>"Create invoice"</a>
                })}
            </div>
        </header>
        <dl class="facts">
            {facts.into_iter().filter_map(|(k, v)| v.map(|v| view! { <div><dt>{k}</dt><dd>{v}</dd></div> })).collect_view()}
        </dl>
        <OfferPositions offer=offer.clone() />
        <section class="section" aria-labelledby="document-title">
            <h2 class="section-title" id="document-title">"Document"</h2>
            <OfferDocument offer_id=offer.id identifier=offer.identifier.clone() />
        </section>
        <AttachmentsSection offer_id=offer.id />
    }
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
                toasts.success(format!(
                    "Offer {} is now {}.",
                    o.identifier,
                    o.status.label().to_lowercase()
                ));
                on_changed.run(());
            }
            Err(e) => toasts.error(format!("Status not changed: {}", e.message)),
        });
    };
    view! {
        <label class="visually-hidden" for="offer-status">"Status"</label>
        <select id="offer-status" on:change=change disabled=move || task.pending.get()>
            {OfferStatus::ALL.into_iter().map(|s| view! { <option value=s.as_str() selected=s == status>{s.label()}</option> }).collect_view()}
        </select>
    }
}

/// The positions; optional ones carry an "Optional" mark and are not in the totals.
#[component]
fn OfferPositions(
    /// The offer shown.
    offer: Offer,
) -> impl IntoView {
    let cur = offer.currency.clone();
    let row = move |i: &OfferItem| {
        let num = |d: Option<kontor_model::Decimal>| {
            d.map(|d| d.normalize().to_string()).unwrap_or_default()
        };
        let title = i.title.clone().unwrap_or_default();
        match i.kind {
            PositionType::Item => view! {
                <tr class:is-optional=i.optional>
                    <td>{title} {i.optional.then(|| view! { " " <span class="badge badge-archived">"Optional"</span> })}
                        <div class="muted">{i.description.clone().unwrap_or_default()}</div></td>
                    <td class="num">{num(i.quantity)}</td><td>{i.unit.clone().unwrap_or_default()}</td>
                    <td class="num money">{i.unit_price.map(|p| format_money(p, &cur)).unwrap_or_default()}</td>
                    <td class="num money">{if i.optional { format!("({})", format_money(i.net_total, &cur)) } else { format_money(i.net_total, &cur) }}</td>
                </tr>
            }.into_any(),
            PositionType::Subtotal => view! { <tr><td colspan="4"><em>{title}</em></td><td class="num money">{format_money(i.net_total, &cur)}</td></tr> }.into_any(),
            PositionType::Title => view! { <tr><td colspan="5"><strong>{title}</strong></td></tr> }.into_any(),
            PositionType::Description => view! { <tr><td colspan="5">{i.description.clone().unwrap_or(title)}</td></tr> }.into_any(),
            _ => view! { <tr class="row-break"><td colspan="5"><hr /></td></tr> }.into_any(),
        }
    };
    let items = offer.items.clone().unwrap_or_default();
    view! {
        <section class="section" aria-labelledby="positions-title">
            <h2 class="section-title" id="positions-title">"Positions"</h2>
            <table class="table positions-table" id="offer-positions">
                <thead><tr><th scope="col">"Title / description"</th><th scope="col" class="num">"Quantity"</th><th scope="col">"Unit"</th><th scope="col" class="num">"Unit price"</th><th scope="col" class="num">"Net total"</th></tr></thead>
                <tbody>{items.iter().map(row).collect_view()}</tbody>
            </table>
            <p class="muted">"Optional positions are shown in brackets and not counted."</p>
            <dl class="totals-box totals-static">
                <div class="totals-line"><dt>{format!("Net total (discount {} %)", offer.discount.normalize())}</dt><dd class="money">{format_money(offer.net_total, &offer.currency)}</dd></div>
                <div class="totals-line"><dt>{format!("Tax {} %", offer.tax.normalize())}</dt><dd class="money">{format_money(offer.gross_total - offer.net_total, &offer.currency)}</dd></div>
                <div class="totals-line totals-gross"><dt>"Gross total"</dt><dd class="money">{format_money(offer.gross_total, &offer.currency)}</dd></div>
            </dl>
        </section>
    }
}

/// The offer PDF through an object URL (the invoice's [`PdfDoc`]): fetched again, old URL
/// revoked, when the paper changes; revoked when the page goes away.
#[component]
fn OfferDocument(
    /// The offer id.
    offer_id: i64,
    /// The offer number.
    identifier: String,
) -> impl IntoView {
    let paper = RwSignal::new(Paper::Default);
    let doc = PdfDoc::new();
    Effect::new(move |_| {
        let chosen = paper.get();
        doc.load(Box::pin(get_offer_pdf(offer_id, chosen)));
    });
    view! {
        <div class="doc-toolbar">
            <label for="doc-paper">"Letter paper"</label>
            <PaperSelect id="doc-paper" paper=paper without_blank=true />
            <PdfDownload doc=doc file_name=format!("{identifier}.pdf") />
        </div>
        <PdfFrame doc=doc title=format!("Offer {identifier}") />
    }
}
