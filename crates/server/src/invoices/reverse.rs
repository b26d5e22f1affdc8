//! POST /invoices/{id}/reverse (`decisions.md` § State rules): the reversal (cancelation)
//! invoice repeats the original with every position negated, `reversal: true` and
//! `reversed_invoice_id`; the original becomes `reversed: true` with
//! `reversal_invoice_id`. Both links are written in one transaction.

use super::create::create_linked;
use super::repo;
use crate::access::auth::Caller;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::IdPath;
use crate::state::AppState;
use crate::store::db::now;
use crate::store::files::BaseUrl;
use axum::extract::State;
use axum::{Extension, Json};
use kontor_model::invoice::Invoice;
use kontor_model::invoice_input::{NewInvoice, NewInvoiceItem, VatInput};
use kontor_model::party::Language;
use kontor_model::position::PositionType;
use kontor_model::reversal::{reversal_salutation, reversal_title};
use kontor_model::status::{reverse_refusal, InvoiceStatus};

/// The creation body of a correction of `original` (a reversal or a credit note) with
/// `items`, dated and due `today`, titled `title` with `salutation`: the original's
/// customer, address, project, VAT treatment, discount, service period, texts, terms
/// (not the customer's defaults of today), contact, properties and references carry over;
/// never its offer (a correction bills nothing).
pub(super) fn correction_body(
    original: &Invoice,
    items: Vec<NewInvoiceItem>,
    today: chrono::NaiveDate,
    title: String,
    salutation: String,
) -> NewInvoice {
    NewInvoice {
        customer_id: Some(original.customer_id),
        project_id: original.project_id,
        recipient_address: Some(original.recipient_address.clone()),
        date: Some(today),
        due_date: Some(today),
        title: Some(title),
        tax: Some(original.tax),
        currency: Some(original.currency.clone()),
        items: Some(items),
        service_period_from: original.service_period_from,
        service_period_to: original.service_period_to,
        status: Some(InvoiceStatus::Created),
        salutation: Some(salutation),
        footer: original.footer.clone(),
        discount: Some(original.discount),
        cash_discount: Some(original.cash_discount),
        cash_discount_days: Some(original.cash_discount_days),
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

/// The creation body of the reversal of `original`, dated `today`, its title and
/// salutation in the customer's `language` (`kontor_model::reversal`): every position
/// negated.
fn reversal_body(original: &Invoice, today: chrono::NaiveDate, language: Language) -> NewInvoice {
    let number = original.identifier.clone().unwrap_or_default();
    let items = original.items.iter().flatten().map(|i| {
        let lump = i.quantity.is_none() && i.unit_price.is_none();
        NewInvoiceItem {
            kind: Some(i.kind),
            title: Some(i.title.clone()),
            description: i.description.clone(),
            quantity: i.quantity.map(|q| -q),
            unit: i.unit.clone(),
            unit_price: i.unit_price,
            net_total: (lump && i.kind == PositionType::Item).then_some(-i.net_total),
            tax: i.tax,
            tax_category: i.tax_category,
            tax_exemption_reason: i.tax_exemption_reason.clone(),
            ..Default::default()
        }
    });
    correction_body(
        original,
        items.collect(),
        today,
        reversal_title(language, &number, &original.title),
        reversal_salutation(language, &number, original.date),
    )
}

/// POST /invoices/{id}/reverse → 200 with the reversal invoice.
/// Errors: 404; 422 for drafts, reversal invoices and invoices already reversed.
#[utoipa::path(post, path = "/invoices/{id}/reverse", operation_id = "invoices_reverse", tag = "invoices",
    params(IdPath),
    responses((status = 200, description = "The reversal invoice", body = Invoice)))]
pub async fn reverse(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
    BaseUrl(base): BaseUrl,
    IdPath(id): IdPath,
) -> ApiResult<Json<Invoice>> {
    let original = repo::load(&state.pool, id).await?;
    if let Some(message) = reverse_refusal(original.status, original.reversal, original.reversed) {
        return Err(ApiError::Refused(message.into()));
    }
    // Issue 33: a credit note is not reversed, and an invoice with credit notes is
    // corrected by crediting the rest (a reversal would credit twice).
    if original.credit_note {
        return Err(ApiError::Refused(
            kontor_model::error::messages::CREDIT_NOTE_NOT_REVERSIBLE.into(),
        ));
    }
    if original
        .credit_notes
        .as_ref()
        .is_some_and(|c| !c.is_empty())
    {
        return Err(ApiError::Refused(
            kontor_model::error::messages::CREDITED_NOT_REVERSIBLE.into(),
        ));
    }
    let language = crate::master_data::companies::find(&state.pool, original.customer_id)
        .await?
        .map(|c| c.language)
        .unwrap_or_default();
    let mut reversal = create_linked(
        &state,
        &caller,
        reversal_body(&original, now().date_naive(), language),
        Some(id),
        kontor_model::event::CreatedData::default(),
    )
    .await?;
    repo::sign(&state, &base, &mut reversal);
    Ok(Json(reversal))
}
