//! The sections of the offer detail page: the positions (optional ones marked and not
//! counted) and the PDF preview through an object URL on a chosen letter paper.

use crate::api::invoice_documents::Paper;
use crate::api::offers::get_offer_pdf;
use crate::components::locale::format_input;
use crate::components::money::format_money;
use crate::components::paper_select::PaperSelect;
use crate::components::pdf_preview::{PdfDoc, PdfDownload, PdfFrame};
use crate::components::position_editor::{vat_note, StoredTaxLines};
use crate::i18n::{fill, t};
use kontor_model::offer::{Offer, OfferItem};
use kontor_model::position::PositionType;
use leptos::prelude::*;

/// The positions; optional ones carry an "Optional" mark and are not in the totals.
#[component]
pub fn OfferPositions(
    /// The offer shown.
    offer: Offer,
) -> impl IntoView {
    let cur = offer.currency.clone();
    let row = move |i: &OfferItem| {
        let num = |d: Option<kontor_model::Decimal>| {
            d.map(|d| format_input(d.normalize())).unwrap_or_default()
        };
        let title = i.title.clone().unwrap_or_default();
        match i.kind {
            PositionType::Item => view! {
                <tr class:is-optional=i.optional>
                    <td>{title} {i.optional.then(|| view! { " " <span class="badge badge-archived">{t().offer_detail().optional}</span> })}
                        {vat_note(i.tax, i.tax_category, i.tax_exemption_reason.as_deref()).map(|n| view! { " " <span class="tag pos-vat">{n}</span> })}
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
            <h2 class="section-title" id="positions-title">{t().offer_detail().positions}</h2>
            <table class="table positions-table" id="offer-positions">
                <thead><tr><th scope="col">{t().offer_detail().col_title}</th><th scope="col" class="num">{t().offer_detail().col_quantity}</th><th scope="col">{t().offer_detail().col_unit}</th><th scope="col" class="num">{t().offer_detail().col_unit_price}</th><th scope="col" class="num">{t().offer_detail().col_net_total}</th></tr></thead>
                <tbody>{items.iter().map(row).collect_view()}</tbody>
            </table>
            <p class="muted">{t().offer_detail().optional_note}</p>
            <dl class="totals-box totals-static">
                <div class="totals-line"><dt>{fill(t().offer_detail().net_with_discount, &[("discount", &format_input(offer.discount.normalize()))])}</dt><dd class="money">{format_money(offer.net_total, &offer.currency)}</dd></div>
                <StoredTaxLines breakdown=offer.tax_breakdown.clone() tax_total=offer.gross_total - offer.net_total
                    currency=offer.currency.clone() single_label=fill(t().offer_detail().vat_rate, &[("rate", &format_input(offer.tax.normalize()))]) />
                <div class="totals-line totals-gross"><dt>{t().offer_detail().gross_total}</dt><dd class="money">{format_money(offer.gross_total, &offer.currency)}</dd></div>
            </dl>
        </section>
    }
}

/// The offer PDF through an object URL (the invoice's [`PdfDoc`]): fetched again, old URL
/// revoked, when the paper changes; revoked when the page goes away.
#[component]
pub fn OfferDocument(
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
            <label for="doc-paper">{t().offer_detail().letter_paper}</label>
            <PaperSelect id="doc-paper" paper=paper without_blank=true />
            <PdfDownload doc=doc file_name=format!("{identifier}.pdf") />
        </div>
        <PdfFrame doc=doc title=fill(t().offer_detail().pdf_title, &[("identifier", &identifier)]) />
    }
}
