//! The read-only sections of the invoice detail page.

use crate::components::date::format_date;
use crate::components::down_payment_fields::kind_label;
use crate::components::locale::format_input;
use crate::components::money::format_money;
use crate::components::position_editor::{vat_note, StoredTaxLines};
use crate::i18n::{fill, t};
use kontor_model::invoice::{Invoice, InvoiceItem};
use kontor_model::position::PositionType;
use kontor_model::Decimal;
use leptos::prelude::*;

/// `19 %`, `7,5 %` in German: the rate as the user writes numbers.
fn percent(d: Decimal) -> String {
    fill(
        t().invoice_detail_facts().percent,
        &[("value", &format_input(d.normalize()))],
    )
}

fn yes_no(b: bool) -> &'static str {
    if b {
        t().invoice_detail_facts().yes
    } else {
        t().invoice_detail_facts().no
    }
}

/// Dates, address, currency, tax, discounts, tags and custom properties.
#[component]
pub fn InvoiceFacts(
    /// The invoice shown.
    invoice: Invoice,
) -> impl IntoView {
    let texts = t().invoice_detail_facts();
    let none = t().common().none;
    let service = match (invoice.service_period_from, invoice.service_period_to) {
        (Some(from), Some(to)) => fill(
            texts.service_period_range,
            &[("from", &format_date(from)), ("to", &format_date(to))],
        ),
        _ => none.into(),
    };
    let cash = if invoice.cash_discount.is_zero() {
        none.to_string()
    } else {
        let template = if invoice.cash_discount_days == 1 {
            texts.cash_discount_terms_one
        } else {
            texts.cash_discount_terms
        };
        fill(
            template,
            &[
                ("percent", &percent(invoice.cash_discount)),
                ("days", &invoice.cash_discount_days.to_string()),
            ],
        )
    };
    let tax = if invoice.vat.reverse_charge {
        texts.reverse_charge.to_string()
    } else {
        percent(invoice.tax)
    };
    let contact = invoice
        .user
        .as_ref()
        .map(|u| format!("{} {}", u.firstname, u.lastname))
        .unwrap_or_else(|| none.into());
    let facts: Vec<(&str, String)> = vec![
        (texts.kind, kind_label(invoice.kind).to_string()),
        (texts.invoice_date, format_date(invoice.date)),
        (texts.due_date, format_date(invoice.due_date)),
        // Issue 32: what the customer quotes with the transfer (drafts have none yet).
        (
            texts.payment_reference,
            invoice
                .payment_reference
                .as_deref()
                .map(kontor_model::payment_reference::printed)
                .unwrap_or_else(|| none.into()),
        ),
        (texts.service_period, service),
        (texts.currency, invoice.currency.clone()),
        (texts.vat, tax),
        (texts.intra_eu, yes_no(invoice.vat.intra_eu).into()),
        (texts.discount, percent(invoice.discount)),
        (texts.cash_discount, cash),
        (texts.internal_contact, contact),
        // Issue 34: "Festgeschrieben" (GoBD) means finalized; what the lock adds (sent or
        // paid: only a reversal corrects it) has its own words.
        (
            texts.finalized,
            if invoice.status == kontor_model::status::InvoiceStatus::Draft {
                texts.finalized_draft.into()
            } else {
                texts.finalized_yes.into()
            },
        ),
        (
            texts.locked,
            if invoice.locked {
                texts.locked_yes.into()
            } else {
                texts.no.into()
            },
        ),
    ];
    view! {
        <section class="section detail-grid" aria-label=texts.details>
            <div class="detail-address">
                <h2 class="section-title">{texts.recipient}</h2>
                <address>{invoice.recipient_address.clone()}</address>
            </div>
            <dl class="facts">
                {facts.into_iter().map(|(k, v)| view! { <div><dt>{k}</dt><dd>{v}</dd></div> }).collect_view()}
                <div>
                    <dt>{texts.tags}</dt>
                    <dd>
                        {if invoice.tags.is_empty() {
                            none.into_any()
                        } else {
                            invoice.tags.iter().map(|t| view! { <span class="tag">{t.clone()}</span> }).collect_view().into_any()
                        }}
                    </dd>
                </div>
                // Issue 33: a deducted down payment names its final invoice.
                {invoice.final_invoice_id.map(|id| view! {
                    <div><dt>{texts.deducted_by}</dt><dd>
                        <a href=crate::paths::href(&format!("/invoices/{id}")) id="deducted-by">
                            {fill(texts.deducted_by_link, &[("id", &id.to_string())])}
                        </a>
                    </dd></div>
                })}
                {invoice
                    .custom_properties
                    .iter()
                    .map(|(k, v)| view! { <div><dt>{k.clone()}</dt><dd>{v.clone()}</dd></div> })
                    .collect_view()}
            </dl>
        </section>
    }
}

fn position_row(item: &InvoiceItem, currency: &str) -> AnyView {
    let money = |d: Decimal| format_money(d, currency);
    let opt_num = |d: Option<Decimal>| d.map(|d| format_input(d.normalize())).unwrap_or_default();
    let description = item.description.clone().filter(|d| !d.trim().is_empty());
    match item.kind {
        PositionType::Title => view! { <tr class="pos-title"><td colspan="5">{item.title.clone()}</td></tr> }.into_any(),
        PositionType::Description => view! {
            <tr class="pos-description">
                <td colspan="5">
                    <strong>{item.title.clone()}</strong>
                    {description.map(|d| view! { <div class="rich" inner_html=d></div> })}
                </td>
            </tr>
        }
        .into_any(),
        PositionType::Item => view! {
            <tr class="pos-item">
                <td>
                    {item.title.clone()}
                    {vat_note(item.tax, item.tax_category, item.tax_exemption_reason.as_deref()).map(|n| view! { " " <span class="tag pos-vat">{n}</span> })}
                    {description.map(|d| view! { <div class="rich muted" inner_html=d></div> })}
                </td>
                <td class="num">{opt_num(item.quantity)}</td>
                <td>{item.unit.clone().unwrap_or_default()}</td>
                <td class="num money">{item.unit_price.map(money).unwrap_or_default()}</td>
                <td class="num money">{money(item.net_total)}</td>
            </tr>
        }
        .into_any(),
        PositionType::Subtotal => view! {
            <tr class="pos-subtotal">
                <td colspan="4">{if item.title.is_empty() { t().invoice_detail_facts().subtotal.to_string() } else { item.title.clone() }}</td>
                <td class="num money">{money(item.net_total)}</td>
            </tr>
        }
        .into_any(),
        PositionType::PageBreak => view! { <tr class="pos-rule"><td colspan="5"><span class="pe-rule-label">{t().invoice_detail_facts().page_break}</span></td></tr> }.into_any(),
        PositionType::Separator => view! { <tr class="pos-rule"><td colspan="5"><span class="pe-rule-line"></span></td></tr> }.into_any(),
    }
}

/// The positions, honouring their types, and the totals.
#[component]
pub fn PositionsSection(
    /// The invoice shown.
    invoice: Invoice,
) -> impl IntoView {
    let items = invoice.items.clone().unwrap_or_default();
    let currency = invoice.currency.clone();
    let texts = t().invoice_detail_facts();
    let tax_label = if invoice.vat.reverse_charge {
        texts.vat_reverse_charge.to_string()
    } else {
        fill(texts.vat_rate, &[("percent", &percent(invoice.tax))])
    };
    let tax_amount = invoice.gross_total - invoice.net_total;
    view! {
        <section class="section" aria-labelledby="positions-title">
            <h2 class="section-title" id="positions-title">{texts.positions}</h2>
            {if items.is_empty() {
                view! { <p class="muted">{texts.no_positions}</p> }.into_any()
            } else {
                view! {
                    <table class="table positions-table">
                        <thead>
                            <tr>
                                <th scope="col">{texts.title_description}</th>
                                <th scope="col" class="num">{texts.quantity}</th>
                                <th scope="col">{texts.unit}</th>
                                <th scope="col" class="num">{texts.unit_price}</th>
                                <th scope="col" class="num">{texts.net_total}</th>
                            </tr>
                        </thead>
                        <tbody>{items.iter().map(|i| position_row(i, &currency)).collect_view()}</tbody>
                    </table>
                }
                .into_any()
            }}
            <dl class="totals-box totals-static">
                <div class="totals-line"><dt>{fill(texts.net_total_discount, &[("percent", &percent(invoice.discount))])}</dt><dd class="money">{format_money(invoice.net_total, &currency)}</dd></div>
                <StoredTaxLines breakdown=invoice.tax_breakdown.clone() tax_total=tax_amount currency=currency.clone() single_label=tax_label />
                <div class="totals-line totals-gross"><dt>{texts.gross_total}</dt><dd class="money">{format_money(invoice.gross_total, &currency)}</dd></div>
                // Issue 33: a final invoice deducts its down payments (gross, with their VAT)
                // and asks for the rest.
                {(!invoice.deducted_down_payments.is_empty()).then(|| {
                    let lines = invoice.deducted_down_payments.iter().map(|d| {
                        let label = fill(texts.deduction, &[
                            ("number", &d.identifier),
                            ("tax", &format_money(d.tax_total, &currency)),
                        ]);
                        view! {
                            <div class="totals-line totals-deduction">
                                <dt><a href=crate::paths::href(&format!("/invoices/{}", d.invoice_id))>{label}</a></dt>
                                <dd class="money">{format_money(-d.gross_total, &currency)}</dd>
                            </div>
                        }
                    }).collect_view();
                    view! {
                        {lines}
                        <div class="totals-line totals-gross" id="amount-due"><dt>{texts.amount_due}</dt><dd class="money">{format_money(invoice.amount_due, &currency)}</dd></div>
                    }
                })}
            </dl>
        </section>
    }
}

/// Salutation and footer (HTML sanitized by the server).
#[component]
pub fn InvoiceTexts(
    /// The invoice shown.
    invoice: Invoice,
) -> impl IntoView {
    let block = |title: &'static str, html: Option<String>| {
        html.filter(|h| !h.trim().is_empty()).map(|h| {
            view! {
                <div class="text-block">
                    <h3>{title}</h3>
                    <div class="rich" inner_html=h></div>
                </div>
            }
        })
    };
    let texts = t().invoice_detail_facts();
    let salutation = block(texts.salutation, invoice.salutation.clone());
    let footer = block(texts.footer, invoice.footer.clone());
    let any = salutation.is_some() || footer.is_some();
    any.then(|| {
        view! {
            <section class="section" aria-label=texts.texts>
                {salutation}
                {footer}
            </section>
        }
    })
}
