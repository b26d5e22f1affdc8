//! The invoice detail page: header with number, status, customer, totals and the link to
//! a reversal; the actions the rules allow right now; then tabs for the overview (fields,
//! positions, texts), the document (PDF), payments and reminders, time sheet, expenses
//! and the history (timeline). The tab is the URL's last segment (`/invoices/:id/:tab?`,
//! see [`DetailTab::path`]); choosing a tab navigates, pushing a history entry.

use super::detail_actions::InvoiceActions;
use super::detail_billed::{ExpensesTab, TimeSheetTab};
use super::detail_credit_note::CreditNoteLinks;
use super::detail_document::DocumentTab;
use super::detail_einvoice::EInvoiceBar;
use super::detail_payments::PaymentsTab;
use super::detail_reverse::ReversalLink;
use super::detail_sections::{InvoiceFacts, InvoiceTexts, PositionsSection};
use super::detail_tabs::{DetailTab, TabBar};
use crate::api::companies::get_company;
use crate::api::einvoices::get_invoice_readiness;
use crate::api::invoices::get_invoice;
use crate::api::offers::get_offer;
use crate::api::ApiError;
use crate::components::audit_history::AuditHistory;
use crate::components::error_panel::ErrorPanel;
use crate::components::money::format_money;
use crate::components::route_record::{route_record, use_route_id};
use crate::components::skeleton::SkeletonBlock;
use crate::components::status_badge::StatusBadge;
use crate::components::task::load_once;
use crate::components::timeline::{split_at_placeholder, TimelineSection};
use crate::i18n::{fill, t};
use crate::paths::href;
use kontor_model::event::SubjectType;
use kontor_model::invoice::Invoice;
use kontor_model::status::InvoiceStatus;
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_params_map};
use leptos_router::NavigateOptions;

/// The route's `:id` as a number.
pub fn use_invoice_id() -> Memo<Option<i64>> {
    use_route_id()
}

/// The route's `:tab` segment as a tab: the overview without one, `None` for an unknown
/// segment.
pub fn use_detail_tab() -> Memo<Option<DetailTab>> {
    let params = use_params_map();
    Memo::new(move |_| params.with(|p| DetailTab::from_segment(p.get_str("tab"))))
}

/// The invoice detail page (`/invoices/:id` and `/invoices/:id/:tab`).
#[component]
pub fn InvoiceDetail() -> impl IntoView {
    let id = use_invoice_id();
    let route_tab = use_detail_tab();
    let invoice = route_record(id, || t().invoice_detail().bad_address, get_invoice);
    let reload = Callback::new(move |_: ()| invoice.refetch());
    let tab = Signal::derive(move || route_tab.get().unwrap_or(DetailTab::Overview));
    let navigate = use_navigate();
    let select = Callback::new(move |t: DetailTab| {
        if let Some(id) = id.get_untracked() {
            let options = NavigateOptions {
                scroll: false,
                ..Default::default()
            };
            navigate(&t.path(id), options);
        }
    });
    let unknown_tab = move || route_tab.get().is_none();
    view! {
        <p class="breadcrumb">
            <a href=href("/invoices")>{t().invoice_detail().back_to_list}</a>
        </p>
        <Transition fallback=|| view! { <SkeletonBlock lines=10 /> }>
            {move || Suspend::new(async move {
                match invoice.await {
                    Ok(_) if unknown_tab() => {
                        let error = ApiError {
                            status: 404,
                            ..ApiError::local(t().invoice_detail().no_such_page)
                        };
                        view! { <ErrorPanel error=error /> }.into_any()
                    }
                    Ok(invoice) => view! { <InvoiceView invoice=invoice on_changed=reload tab=tab on_select=select /> }.into_any(),
                    Err(error) => view! { <ErrorPanel error=error on_retry=reload /> }.into_any(),
                }
            })}
        </Transition>
    }
}

/// One loaded invoice.
#[component]
fn InvoiceView(
    /// The invoice with items, payments and reminders.
    invoice: Invoice,
    /// Called after a change (status) so the page reloads the invoice.
    on_changed: Callback<()>,
    /// The tab shown (the URL's; kept across reloads).
    tab: Signal<DetailTab>,
    /// Called with the tab the user chose.
    on_select: Callback<DetailTab>,
) -> impl IntoView {
    let customer_id = invoice.customer_id;
    let customer = LocalResource::new(move || async move { get_company(customer_id).await });
    let customer_name = move || match customer.get() {
        Some(Ok(c)) => c.name,
        Some(Err(_)) => fill(
            t().invoice_detail().customer_id,
            &[("id", &customer_id.to_string())],
        ),
        None => "…".into(),
    };
    let number = invoice
        .identifier
        .clone()
        .unwrap_or_else(|| t().invoice_detail().draft_invoice.into());
    let status = invoice.status;
    let reversed = invoice.reversed;
    let stored = StoredValue::new(invoice.clone());
    let invoice_id = invoice.id;
    let readiness = LocalResource::new(move || get_invoice_readiness(invoice_id));
    let xrechnung_customer =
        Signal::derive(move || matches!(customer.get(), Some(Ok(c)) if xrechnung(&c)));
    view! {
        <header class="page-head detail-head">
            <div class="detail-title">
                <h1>
                    {number} " " <StatusBadge status=status reversed=reversed />
                </h1>
                <p class="detail-facts">
                    <span class="detail-customer">{customer_name}</span>
                    <span class="detail-sep" aria-hidden="true">"·"</span>
                    <span>{invoice.title.clone()}</span>
                </p>
                <ReversalLink invoice=invoice.clone() />
                <CreditNoteLinks invoice=invoice.clone() />
                {invoice.offer_id.map(|offer| view! { <OfferLink offer_id=offer /> })}
            </div>
            <div class="detail-total">
                <span class="muted">{t().invoice_detail().gross_total}</span>
                <strong class="money">{format_money(invoice.gross_total, &invoice.currency)}</strong>
                <span class="muted money">{fill(t().invoice_detail().net_amount, &[("amount", &format_money(invoice.net_total, &invoice.currency))])}</span>
                {(invoice.status != InvoiceStatus::Draft).then(|| view! {
                    <span class="money detail-open" id="detail-open">{fill(t().invoice_detail().open_amount, &[("amount", &format_money(invoice.open_amount, &invoice.currency))])}</span>
                })}
            </div>
            <InvoiceActions invoice=invoice.clone() on_changed=on_changed xrechnung_customer=xrechnung_customer />
        </header>
        <EInvoiceBar invoice_id=invoice_id customer_id=customer_id identifier=invoice.identifier.clone() readiness=readiness />
        <TabBar tab=tab on_select=on_select />
        <div
            class="tab-panel"
            role="tabpanel"
            id=move || format!("panel-{}", tab.get().slug())
            aria-labelledby=move || format!("tab-{}", tab.get().slug())
        >
            {move || tab_panel(tab.get(), stored.get_value(), on_changed)}
        </div>
    }
}

fn tab_panel(tab: DetailTab, invoice: Invoice, on_changed: Callback<()>) -> AnyView {
    let (id, identifier) = (invoice.id, invoice.identifier.clone());
    match tab {
        DetailTab::Overview => view! {
            <InvoiceFacts invoice=invoice.clone() />
            <PositionsSection invoice=invoice.clone() />
            <InvoiceTexts invoice=invoice />
        }
        .into_any(),
        DetailTab::Document => view! {
            <section class="section" aria-label=DetailTab::Document.label()>
                <DocumentTab invoice_id=id identifier=identifier />
            </section>
        }
        .into_any(),
        DetailTab::Payments => {
            view! { <PaymentsTab invoice=invoice on_changed=on_changed /> }.into_any()
        }
        DetailTab::TimeSheet => view! {
            <section class="section" aria-label=DetailTab::TimeSheet.label()>
                <TimeSheetTab invoice_id=id currency=invoice.currency identifier=identifier />
            </section>
        }
        .into_any(),
        DetailTab::Expenses => view! {
            <section class="section" aria-label=DetailTab::Expenses.label()>
                <ExpensesTab invoice_id=id />
            </section>
        }
        .into_any(),
        DetailTab::Mail => view! {
            <section class="section" aria-label=DetailTab::Mail.label()>
                <crate::components::mail_list::MailList filter=crate::api::emails::EmailFilter {
                    document: Some((kontor_model::email::MailDocumentType::Invoice, id)),
                    ..Default::default()
                } />
            </section>
        }
        .into_any(),
        DetailTab::History => view! {
            <section class="section" aria-label=DetailTab::History.label()>
                <TimelineSection subject=SubjectType::Invoice id=id currency=invoice.currency />
            </section>
            <AuditHistory record_type="invoice" record_id=id />
        }
        .into_any(),
    }
}

/// "Created from offer …" with a link to the offer the invoice bills.
#[component]
fn OfferLink(
    /// The offer's id.
    offer_id: i64,
) -> impl IntoView {
    let offer = load_once(get_offer(offer_id));
    let label = move || match offer.get() {
        Some(Ok(o)) => fill(
            t().invoice_detail().offer_number,
            &[("number", &o.identifier)],
        ),
        _ => fill(
            t().invoice_detail().offer_id,
            &[("id", &offer_id.to_string())],
        ),
    };
    let (before, after) = split_at_placeholder(t().invoice_detail().created_from_offer, "offer");
    view! {
        <p class="offer-link" data-offer-link=offer_id.to_string()>
            {before} <a href=href(&format!("/offers/{offer_id}"))>{label}</a> {after}
        </p>
    }
}

/// Whether `customer` receives XRechnung e-invoices (`einvoice_format` `xrechnung_cii` or
/// `xrechnung_ubl`).
fn xrechnung(customer: &kontor_model::party::Company) -> bool {
    customer.einvoice_format.is_xrechnung()
}
