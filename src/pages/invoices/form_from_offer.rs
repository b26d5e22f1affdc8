//! "Create invoice" from an offer (`/invoices/new?from_offer=<id>`): the invoice form
//! starts with the offer's customer, project, recipient address, title, currency, tax,
//! discount and its positions except the optional ones.

use crate::api::offers::get_offer;
use crate::api::ApiError;
use crate::components::invoice_form_state::InvoiceFormState;
use crate::components::locale::format_input;
use crate::components::position_editor::PositionRow;
use kontor_model::offer::Offer;
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
