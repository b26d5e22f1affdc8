//! The company's documents with what is still open: a customer's invoices (the server's
//! `open_amount`; drafts show none, reversed and settled invoices nothing open) and offers, a supplier's
//! purchases (open = gross less payments). The newest 20 of each, linking to the lists
//! filtered by the company for the rest.

use crate::api::invoices::list_invoices;
use crate::api::offers::list_offers;
use crate::api::purchases::list_purchases;
use crate::api::ApiError;
use crate::components::date::format_date;
use crate::components::money::format_money;
use crate::components::status_badge::{Badge, StatusBadge};
use crate::i18n::{fill, status_label, t};
use crate::paths::href;
use kontor_model::invoice::Invoice;
use kontor_model::party::CompanyType;
use kontor_model::payment_rules::unpaid_amount;
use kontor_model::query::{InvoiceFilter, OfferFilter, Paging, PurchaseFilter};
use kontor_model::status::InvoiceStatus;
use leptos::prelude::*;
use rust_decimal::Decimal;

/// How many of each kind are shown.
const SHOWN: u32 = 20;

/// The first page of `SHOWN` (the lists' default order is newest first).
fn newest() -> Paging {
    Paging {
        per_page: Some(SHOWN),
        ..Default::default()
    }
}

/// What is open on `invoice` as the server figured it (`open_amount`: reversed, ignored
/// and paid invoices have nothing open; issue 30 — the app never re-derives it); `None`
/// for drafts.
pub fn invoice_open(invoice: &Invoice) -> Option<Decimal> {
    (invoice.status != InvoiceStatus::Draft).then_some(invoice.open_amount)
}

async fn load_invoices(
    company_id: i64,
) -> Result<(Vec<(Invoice, Option<Decimal>)>, u64), ApiError> {
    let filter = InvoiceFilter {
        company_id: Some(company_id),
        paging: newest(),
        ..Default::default()
    };
    let page = list_invoices(&filter).await?;
    let total = page.total;
    Ok((
        page.items
            .into_iter()
            .map(|i| {
                let open = invoice_open(&i);
                (i, open)
            })
            .collect(),
        total,
    ))
}

/// The documents section.
#[component]
pub fn DocumentsSection(
    /// Customers (invoices and offers) or suppliers (purchases).
    kind: CompanyType,
    /// The company whose documents are shown.
    company_id: i64,
) -> impl IntoView {
    if kind == CompanyType::Supplier {
        view! { <PurchasesOf company_id=company_id /> }.into_any()
    } else {
        view! { <InvoicesOf company_id=company_id /> <OffersOf company_id=company_id /> }.into_any()
    }
}

fn more_link(total: u64, path: String) -> impl IntoView {
    (total > u64::from(SHOWN)).then(|| {
        let text = fill(
            t().company_documents().all,
            &[("total", &total.to_string())],
        );
        view! { <p class="section-more"><a href=href(&path)>{text}</a></p> }
    })
}

/// The table head: number, title, date, status, gross total and, `with_open`, the open
/// amount.
fn heads(with_open: bool) -> impl IntoView {
    let l = t().list();
    view! {
        <thead><tr>
            <th scope="col">{l.number}</th><th scope="col">{l.title}</th><th scope="col">{l.date}</th>
            <th scope="col">{l.status}</th><th scope="col" class="num">{l.gross_total}</th>
            {with_open.then(|| view! { <th scope="col" class="num">{l.open}</th> })}
        </tr></thead>
    }
}

#[component]
fn InvoicesOf(company_id: i64) -> impl IntoView {
    let invoices = LocalResource::new(move || load_invoices(company_id));
    let body = move || {
        match invoices.get() {
        None => view! { <p class="muted">{t().company_documents().loading_invoices}</p> }.into_any(),
        Some(Err(e)) => view! { <p class="field-error">{e.message}</p> }.into_any(),
        Some(Ok((list, _))) if list.is_empty() => view! { <p class="muted">{t().company_documents().no_invoices}</p> }.into_any(),
        Some(Ok((list, total))) => view! {
            <table class="table table-docs">
                {heads(true)}
                <tbody>
                    {list.into_iter().map(|(i, open)| view! {
                        <tr>
                            <td class="cell-number"><a href=href(&format!("/invoices/{}", i.id))>{i.identifier.clone().unwrap_or_else(|| t().status().draft.into())}</a></td>
                            <td class="cell-title">{i.title.clone()}</td>
                            <td class="cell-date">{format_date(i.date)}</td>
                            <td><StatusBadge status=i.status reversed=i.reversed /></td>
                            <td class="num money">{format_money(i.gross_total, &i.currency)}</td>
                            <td class="num money">{open.map(|o| format_money(o, &i.currency)).unwrap_or_else(|| "—".into())}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            {more_link(total, format!("/invoices?company_id={company_id}"))}
        }.into_any(),
    }
    };
    view! {
        <section class="section" aria-labelledby="sec-invoices">
            <div class="section-head">
                <h2 class="section-title" id="sec-invoices">{t().nav().invoices}</h2>
                <a class="btn btn-small" href=href(&format!("/invoices/new?customer_id={company_id}"))>{t().invoices().new_invoice}</a>
            </div>
            {body}
        </section>
    }
}

#[component]
fn OffersOf(company_id: i64) -> impl IntoView {
    let offers = LocalResource::new(move || async move {
        let filter = OfferFilter {
            company_id: Some(company_id),
            paging: newest(),
            ..Default::default()
        };
        list_offers(&filter).await
    });
    let body = move || {
        match offers.get() {
        None => view! { <p class="muted">{t().company_documents().loading_offers}</p> }.into_any(),
        Some(Err(e)) => view! { <p class="field-error">{e.message}</p> }.into_any(),
        Some(Ok(page)) if page.items.is_empty() => view! { <p class="muted">{t().company_documents().no_offers}</p> }.into_any(),
        Some(Ok(page)) => view! {
            <table class="table table-docs">
                {heads(false)}
                <tbody>
                    {page.items.into_iter().map(|o| view! {
                        <tr>
                            <td class="cell-number"><a href=href(&format!("/offers/{}", o.id))>{o.identifier.clone()}</a></td>
                            <td class="cell-title">{o.title.clone()}</td>
                            <td class="cell-date">{format_date(o.date)}</td>
                            <td><Badge tone=o.status.as_str().to_string() label=status_label(o.status.as_str()) /></td>
                            <td class="num money">{format_money(o.gross_total, &o.currency)}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        }.into_any(),
    }
    };
    view! {
        <section class="section" aria-labelledby="sec-offers">
            <h2 class="section-title" id="sec-offers">{t().nav().offers}</h2>
            {body}
        </section>
    }
}

#[component]
fn PurchasesOf(company_id: i64) -> impl IntoView {
    let purchases = LocalResource::new(move || async move {
        let filter = PurchaseFilter {
            company_id: Some(company_id),
            paging: newest(),
            ..Default::default()
        };
        list_purchases(&filter).await
    });
    let body = move || match purchases.get() {
        None => {
            view! { <p class="muted">{t().company_documents().loading_purchases}</p> }.into_any()
        }
        Some(Err(e)) => view! { <p class="field-error">{e.message}</p> }.into_any(),
        Some(Ok(page)) if page.items.is_empty() => {
            view! { <p class="muted">{t().company_documents().no_purchases}</p> }.into_any()
        }
        Some(Ok(page)) => {
            let total = page.total;
            view! {
                <table class="table table-docs">
                    {heads(true)}
                    <tbody>
                        {page.items.into_iter().map(|p| {
                            let paid: Vec<Decimal> = p.payments.iter().map(|x| x.total).collect();
                            let open = unpaid_amount(p.gross_total, &paid, &p.currency);
                            view! {
                                <tr>
                                    <td class="cell-number"><a href=href(&format!("/purchases/{}", p.id))>{p.identifier.clone()}</a></td>
                                    <td class="cell-title">{p.title.clone()}</td>
                                    <td class="cell-date">{format_date(p.date)}</td>
                                    <td><Badge tone=p.status.as_str().to_string() label=status_label(p.status.as_str()) /></td>
                                    <td class="num money">{format_money(p.gross_total, &p.currency)}</td>
                                    <td class="num money">{format_money(open, &p.currency)}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
                {more_link(total, format!("/purchases?company_id={company_id}"))}
            }.into_any()
        }
    };
    view! {
        <section class="section" aria-labelledby="sec-purchases">
            <div class="section-head">
                <h2 class="section-title" id="sec-purchases">{t().nav().purchases}</h2>
                <a class="btn btn-small" href=href("/purchases/new")>{t().purchases().new_purchase}</a>
            </div>
            {body}
        </section>
    }
}
