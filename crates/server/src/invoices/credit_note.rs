//! POST /invoices/{id}/credit_note (issue 33; `docs/decisions.md` § Credit notes): a
//! credit note (Rechnungskorrektur) crediting some positions of a finalized invoice, in
//! full or in part, or free amounts. It is a finalized invoice of its own number series
//! (`credit_note_number_format`, default `G{YY}{MM}-{NNN}`) with negative positions,
//! `credit_note: true` and `credited_invoice_id`; the invoice's open amount drops by the
//! credited gross. The rules are `kontor_model::credit_note`.

use super::create::create_credit_note;
use super::repo;
use super::reverse::correction_body;
use crate::http::error::{ApiError, ApiResult};
use crate::http::write_request::WriteTo;
use crate::store::db::now;
use crate::store::files::BaseUrl;
use axum::Json;
use kontor_model::credit_note::{
    credit_note_positions, credit_note_salutation, credit_note_title, credit_refusal, NewCreditNote,
};
use kontor_model::invoice::Invoice;
use kontor_model::invoice_input::NewInvoice;
use kontor_model::party::Language;
use rust_decimal::Decimal;

/// The creation body of a credit note for `original` with `items` (already negated),
/// dated `today`, its title and salutation in the customer's `language`: a correction
/// ([`correction_body`]) without cash discount (nothing is paid on a credit).
fn credit_note_body(
    original: &Invoice,
    items: Vec<kontor_model::invoice_input::NewInvoiceItem>,
    today: chrono::NaiveDate,
    language: Language,
) -> NewInvoice {
    let number = original.identifier.clone().unwrap_or_default();
    NewInvoice {
        cash_discount: Some(Decimal::ZERO),
        cash_discount_days: Some(0),
        ..correction_body(
            original,
            items,
            today,
            credit_note_title(language, &number),
            credit_note_salutation(language, &number, original.date),
        )
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
