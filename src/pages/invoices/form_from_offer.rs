//! "Create invoice" from an offer (`/invoices/new?from_offer=<id>`): the invoice form
//! starts with the offer's customer, project, recipient address, title, currency, tax,
//! discount and its positions except the optional ones. With a share
//! (`&down_payment_percent=30` or `&down_payment_net=1000`) it is a down-payment invoice
//! of that share; without one, an offer that has down payments is billed by a final
//! invoice deducting them (issue 33).

use crate::api::offers::get_offer;
use crate::api::ApiError;
use crate::components::invoice_form_state::InvoiceFormState;
use crate::components::locale::format_input;
use crate::components::position_editor::PositionRow;
use kontor_model::down_payment::InvoiceKind;
use kontor_model::down_payment_share::{down_payment_positions, down_payment_title, Share};
use kontor_model::offer::Offer;
use kontor_model::party::Language;
use leptos::prelude::*;

/// The offer named by `from_offer`, when the query has one.
pub async fn load_offer(from_offer: Option<i64>) -> Result<Option<Offer>, ApiError> {
    match from_offer {
        Some(id) => get_offer(id).await.map(Some),
        None => Ok(None),
    }
}

/// Fills `state` from `offer` and links the invoice to it (`offer_id`); optional positions
/// are left out.
pub fn apply_offer(state: &InvoiceFormState, offer: &Offer) {
    state.offer_id.set(Some(offer.id));
    state.customer_id.set(offer.company.as_ref().map(|c| c.id));
    state.project_id.set(offer.project.as_ref().map(|p| p.id));
    state.recipient_address.set(offer.recipient_address.clone());
    state.title.set(offer.title.clone());
    state.currency.set(offer.currency.clone());
    state.tax.set(format_input(offer.tax.normalize()));
    state.reverse_charge.set(offer.vat.reverse_charge);
    if !offer.discount.is_zero() {
        state.discount.set(format_input(offer.discount.normalize()));
    }
    let rows = offer
        .items
        .iter()
        .flatten()
        .filter(|i| !i.optional)
        .map(PositionRow::from_offer_item)
        .collect();
    state.rows.set(rows);
}

/// A down payment of `share` of `offer` (issue 33): the kind, the title and one lump sum
/// per VAT rate of the offer (`kontor_model::down_payment_share::down_payment_positions`, in
/// the customer's `language`, numbered after the offer's down payments so far). Without a
/// share, an offer with finalized down payments becomes a final invoice deducting them.
/// A share the offer cannot give leaves the offer's positions (the form shows them).
pub fn apply_down_payment(
    state: &InvoiceFormState,
    offer: &Offer,
    share: Option<Share>,
    language: Language,
) {
    let earlier: Vec<_> = offer
        .invoices
        .iter()
        .filter(|i| i.kind == InvoiceKind::DownPayment)
        .collect();
    let Some(share) = share else {
        let finalized: Vec<i64> = earlier
            .iter()
            .filter(|i| i.identifier.is_some())
            .map(|i| i.id)
            .collect();
        if !finalized.is_empty() {
            state.kind.set(InvoiceKind::Final);
            state.down_payment_ids.set(finalized);
        }
        return;
    };
    let n = earlier.len() + 1;
    if let Ok(items) = down_payment_positions(
        &offer.tax_breakdown,
        share,
        &offer.currency,
        language,
        n,
        &offer.identifier,
    ) {
        state.kind.set(InvoiceKind::DownPayment);
        state
            .title
            .set(down_payment_title(language, n, &offer.identifier));
        // The positions carry the offer's net after its discount.
        state.discount.set(String::new());
        state
            .rows
            .set(items.iter().map(PositionRow::from_new_item).collect());
    }
}
