//! The purchase detail page: header with number, status, supplier and totals; the actions
//! the rules allow (approve, back to pending, delete when pending without payments); the
//! facts, positions, payments and the receipt document.

use super::detail_actions::PurchaseActions;
use super::detail_check::EinvoiceCheckSection;
use super::detail_document::DocumentSection;
use super::detail_einvoice::{format_label, EInvoiceSection};
use super::detail_payments::PaymentsSection;
use super::detail_supplier_name::SupplierNameNotice;
use super::list_table::PurchaseBadge;
use crate::api::purchases::get_purchase;
use crate::components::audit_history::AuditHistory;
use crate::components::date::{format_date, format_opt_date};
use crate::components::error_panel::loaded_view;
use crate::components::locale::format_input;
use crate::components::money::format_money;
use crate::components::route_record::{route_record, use_route_id};
use crate::components::timeline::TimelineSection;
use crate::i18n::{fill, t};
use crate::paths::href;
use kontor_model::event::SubjectType;
use kontor_model::purchase::Purchase;
use leptos::prelude::*;

/// The purchase detail page (`/purchases/:id`).
#[component]
pub fn PurchaseDetail() -> impl IntoView {
    let id = use_route_id();
    let purchase = route_record(id, || t().purchase_detail().invalid_address, get_purchase);
    let reload = Callback::new(move |_: ()| purchase.refetch());
    view! {
        <p class="breadcrumb"><a href=href("/purchases")>{t().purchase_detail().breadcrumb}</a></p>
        {loaded_view(purchase, 10, move |p| view! { <PurchaseView purchase=p on_changed=reload /> })}
    }
}

/// One loaded purchase.
#[component]
fn PurchaseView(
    /// The purchase with items and payments.
    purchase: Purchase,
    /// Called after a change so the page reloads the purchase.
    on_changed: Callback<()>,
) -> impl IntoView {
    let tx = t().purchase_detail();
    let p = purchase.clone();
    let supplier = p
        .company
        .as_ref()
        .map(|c| c.name.clone())
        .unwrap_or_else(|| t().purchase_detail().without_supplier.into());
    let fact =
        |term: &'static str, value: String| view! { <div><dt>{term}</dt><dd>{value}</dd></div> };
    let period = match (p.service_period_from, p.service_period_to) {
        (None, None) => "–".to_string(),
        (a, b) => format!("{} – {}", format_opt_date(a), format_opt_date(b)),
    };
    view! {
        <header class="page-head detail-head">
            <div class="detail-title">
                <h1>{p.identifier.clone()} " " <PurchaseBadge status=p.status /></h1>
                <p class="detail-facts">
                    <span class="detail-customer">{supplier}</span>
                    <span class="detail-sep" aria-hidden="true">"·"</span>
                    <span>{p.title.clone()}</span>
                </p>
            </div>
            <div class="detail-total">
                <span class="muted">{tx.gross_total}</span>
                <strong class="money">{format_money(p.gross_total, &p.currency)}</strong>
                <span class="muted money">{fill(tx.net_amount, &[("amount", &format_money(p.net_total, &p.currency))])}</span>
            </div>
            <PurchaseActions purchase=purchase.clone() on_changed=on_changed />
        </header>
        <SupplierNameNotice purchase=purchase.clone() on_changed=on_changed />
        <section class="section" aria-label=tx.facts>
            <dl class="facts">
                {fact(tx.receipt_no, p.receipt_identifier.clone())}
                {fact(tx.date, format_date(p.date))}
                {fact(tx.due, format_opt_date(p.due_date))}
                {fact(tx.service_period, period)}
                {fact(tx.payment_method, t().payment_method().get(p.payment_method.as_str()).unwrap_or(p.payment_method.label()).into())}
                {fact(tx.iban, if p.iban.is_empty() { "–".into() } else { p.iban.clone() })}
                {fact(tx.reference, p.reference.clone().unwrap_or_else(|| "–".into()))}
                {fact(tx.tags, if p.tags.is_empty() { "–".into() } else { p.tags.join(", ") })}
            </dl>
        </section>
        {p.einvoice_check.clone().map(|check| view! {
            <EinvoiceCheckSection purchase_id=p.id check=check />
        })}
        <PositionsTable purchase=purchase.clone() />
        <PaymentsSection purchase=purchase.clone() on_changed=on_changed />
        {p.e_invoice.as_ref().map(|e| {
            let xml = p.file_content_type.as_deref().is_some_and(|t| t.contains("xml"));
            let file_name = p.file_name.clone().unwrap_or_else(|| {
                format!("{}.{}", p.receipt_identifier, if xml { "xml" } else { "pdf" })
            });
            view! {
                <EInvoiceSection purchase_id=p.id label=format_label(&e.format, &e.syntax)
                    file_url=p.file_url.clone() file_name=file_name />
            }
        })}
        <DocumentSection purchase=purchase on_changed=on_changed />
        <section class="section" aria-labelledby="history-title">
            <h2 class="section-title" id="history-title">{tx.history}</h2>
            <TimelineSection subject=SubjectType::Purchase id=p.id currency=p.currency.clone() />
        </section>
        <AuditHistory record_type="purchase" record_id=p.id />
    }
}

/// The positions: title, category, tax rate, net, tax, gross and an "incl. tax" marker.
#[component]
fn PositionsTable(
    /// The purchase whose positions are shown.
    purchase: Purchase,
) -> impl IntoView {
    let tx = t().purchase_detail();
    let cur = purchase.currency.clone();
    let rows = purchase
        .items
        .iter()
        .map(|i| {
            view! {
                <tr>
                    <td>{i.title.clone()} {i.tax_included.then(|| view! { " " <span class="tag-incl" title=tx.incl_tax_title>{tx.incl_tax}</span> })}</td>
                    <td>{i.category.as_ref().map(|c| c.name.clone()).unwrap_or_else(|| "–".into())}</td>
                    <td class="num">{format!("{} %", format_input(i.tax.normalize()))}</td>
                    <td class="num money">{format_money(i.net_total, &cur)}</td>
                    <td class="num money">{format_money(i.tax_total, &cur)}</td>
                    <td class="num money">{format_money(i.gross_total, &cur)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="section" aria-labelledby="positions-title">
            <h2 class="section-title" id="positions-title">{tx.positions}</h2>
            <table class="table purchase-items">
                <thead><tr>
                    <th scope="col">{tx.col_title}</th><th scope="col">{tx.col_category}</th><th scope="col" class="num">{tx.col_vat_rate}</th>
                    <th scope="col" class="num">{tx.col_net}</th><th scope="col" class="num">{tx.col_vat}</th><th scope="col" class="num">{tx.col_gross}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
                <tfoot><tr>
                    <th scope="row" colspan="3">{tx.total}</th>
                    <td class="num money">{format_money(purchase.net_total, &cur)}</td>
                    <td class="num money">{format_money(purchase.gross_total - purchase.net_total, &cur)}</td>
                    <td class="num money"><strong>{format_money(purchase.gross_total, &cur)}</strong></td>
                </tr></tfoot>
            </table>
        </section>
    }
}
