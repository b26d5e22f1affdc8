//! POST /invoices/{id}/credit_note (issue 33; `docs/decisions.md` § Credit notes): a
//! credit note (Rechnungskorrektur) crediting some positions of a finalized invoice, in
//! full or in part, or free amounts. It is a finalized invoice of its own number series
//! (`credit_note_number_format`, default `G{YY}{MM}-{NNN}`) with negative positions,
//! `credit_note: true` and `credited_invoice_id`; the invoice's open amount drops by the
//! credited gross. The rules are `kontor_model::credit_note`.

use super::create::create_credit_note;
use super::repo;
use crate::access::auth::Caller;
use crate::http::error::{ApiError, ApiResult};
use crate::http::write_request::WriteTo;
use crate::store::db::now;
use crate::store::files::BaseUrl;
use axum::Json;
use kontor_model::credit_note::{
    credit_note_positions, credit_note_salutation, credit_note_title, credit_refusal, NewCreditNote,
};
use kontor_model::invoice::Invoice;
use kontor_model::invoice_input::{NewInvoice, VatInput};
use kontor_model::party::Language;
use kontor_model::status::InvoiceStatus;
use rust_decimal::Decimal;

/// The creation body of a credit note for `original` with `items` (already negated),
/// dated `today`, its title and salutation in the customer's `language`. The original's
/// VAT treatment, discount, service period and references carry over; no cash discount
/// and no offer (a credit note bills nothing).
fn credit_note_body(
    original: &Invoice,
    items: Vec<kontor_model::invoice_input::NewInvoiceItem>,
    today: chrono::NaiveDate,
    language: Language,
) -> NewInvoice {
    let number = original.identifier.clone().unwrap_or_default();
    NewInvoice {
        customer_id: Some(original.customer_id),
        project_id: original.project_id,
        recipient_address: Some(original.recipient_address.clone()),
        date: Some(today),
        due_date: Some(today),
        title: Some(credit_note_title(language, &number)),
        tax: Some(original.tax),
        currency: Some(original.currency.clone()),
        items: Some(items),
        service_period_from: original.service_period_from,
        service_period_to: original.service_period_to,
        status: Some(InvoiceStatus::Created),
        salutation: Some(credit_note_salutation(language, &number, original.date)),
        footer: original.footer.clone(),
        discount: Some(original.discount),
        cash_discount: Some(Decimal::ZERO),
        cash_discount_days: Some(0),
        internal_contact_id: original.user.as_ref().map(|u| u.id),
        custom_properties: Some(original.custom_properties.clone()),
        tags: Some(original.tags.clone()),
        vat: Some(VatInput {
            reverse_charge: Some(original.vat.reverse_charge),
            intra_eu: Some(original.vat.intra_eu),
        }),
        buyer_reference: original.buyer_reference.clone(),
        payment_means: original.payment_means,
        ..Default::default()
    }
}

/// POST /invoices/{id}/credit_note → 200 with the credit note (a finalized invoice with
/// `credit_note: true`). Errors: 404; 422 when the invoice is a draft, a reversal, a
/// credit note or reversed, or naming `items` / `items[i].…` (see
/// `kontor_model::credit_note::credit_note_positions`; more than is left to credit).
#[utoipa::path(post, path = "/invoices/{id}/credit_note", operation_id = "invoices_credit_note", tag = "invoices",
    params(crate::http::extract::IdPath), request_body = NewCreditNote,
    responses((status = 200, description = "The credit note", body = Invoice)))]
pub async fn credit_note(
    BaseUrl(base): BaseUrl,
    WriteTo(state, caller, id, body): WriteTo<NewCreditNote>,
) -> ApiResult<Json<Invoice>> {
    let caller: Caller = caller;
    let original = repo::load(&state.pool, id).await?;
    if let Some(message) = credit_refusal(
        original.status,
        original.reversal,
        original.reversed,
        original.credit_note,
    ) {
        return Err(ApiError::Refused(message.into()));
    }
    let items = credit_note_positions(original.items.as_deref().unwrap_or_default(), &body)
        .map_err(ApiError::invalid)?;
    let language = crate::master_data::companies::find(&state.pool, original.customer_id)
        .await?
        .map(|c| c.language)
        .unwrap_or_default();
    let body = credit_note_body(&original, items, now().date_naive(), language);
    let mut note = create_credit_note(&state, &caller, body, id).await?;
    repo::sign(&state, &base, &mut note);
    Ok(Json(note))
}
