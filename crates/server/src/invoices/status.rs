//! PUT /invoices/{id}/update_status (`decisions.md` § State rules): `draft` → `created`
//! finalizes (the draft must then be complete; it gets its number); among `created`,
//! `sent`, `overdue`, `ignored` any move; `partially_paid` and `paid` refuse. Moving to
//! `sent` locks the invoice.

use super::repo;
use crate::events::{self, Subject};
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::IdPath;
use crate::http::write_request::WriteTo;
use crate::store::db::{now, ts};
use crate::store::files::BaseUrl;
use axum::Json;
use kontor_model::effects::locked_after_status_change;
use kontor_model::event::{to_data, EventKind, StatusChangedData};
use kontor_model::invoice::Invoice;
use kontor_model::invoice_input::{NewInvoice, NewInvoiceItem, StatusChange};
use kontor_model::status::InvoiceStatus;
use kontor_model::validation::validate_new_invoice;

/// The creation body an existing invoice corresponds to (to validate a draft on finalize).
fn as_creation_body(invoice: &Invoice) -> NewInvoice {
    NewInvoice {
        customer_id: Some(invoice.customer_id),
        recipient_address: Some(invoice.recipient_address.clone()),
        date: Some(invoice.date),
        due_date: Some(invoice.due_date),
        title: Some(invoice.title.clone()),
        tax: Some(invoice.tax),
        currency: Some(invoice.currency.clone()),
        items: invoice.items.as_ref().map(|items| {
            items
                .iter()
                .map(|i| NewInvoiceItem {
                    kind: Some(i.kind),
                    title: Some(i.title.clone()),
                    quantity: i.quantity,
                    unit_price: i.unit_price,
                    net_total: (i.quantity.is_none() && i.unit_price.is_none())
                        .then_some(i.net_total),
                    tax: i.tax,
                    tax_category: i.tax_category,
                    tax_exemption_reason: i.tax_exemption_reason.clone(),
                    ..Default::default()
                })
                .collect()
        }),
        status: Some(InvoiceStatus::Created),
        buyer_reference: invoice.buyer_reference.clone(),
        payment_means: invoice.payment_means,
        kind: Some(invoice.kind),
        down_payment_invoice_ids: Some(
            invoice
                .deducted_down_payments
                .iter()
                .map(|d| d.invoice_id)
                .collect(),
        ),
        ..Default::default()
    }
}

/// PUT /invoices/{id}/update_status `{status}` → 200 with the invoice after the change.
/// Errors: 404; 422 for an unknown status, a move the rules do not permit, or an
/// incomplete draft (fields named).
#[utoipa::path(put, path = "/invoices/{id}/update_status", operation_id = "invoices_update_status", tag = "invoices",
    params(IdPath), request_body = StatusChange,
    responses((status = 200, description = "The invoice after the change", body = Invoice)))]
pub async fn update_status(
    BaseUrl(base): BaseUrl,
    WriteTo(state, caller, id, body): WriteTo<StatusChange>,
) -> ApiResult<Json<Invoice>> {
    let target = InvoiceStatus::parse(&body.status)
        .filter(|s| {
            matches!(
                s,
                InvoiceStatus::Created
                    | InvoiceStatus::Sent
                    | InvoiceStatus::Overdue
                    | InvoiceStatus::Ignored
            )
        })
        .ok_or_else(|| {
            ApiError::field(
                "status",
                kontor_model::error::messages::MUST_BE_ONE_OF_N
                    .with(["created, sent, overdue, ignored"]),
            )
        })?;
    let _guard = state.write_lock.lock().await;
    let current = repo::load(&state.pool, id).await?;
    if !current.status.can_move_to(target) {
        let message = kontor_model::error::messages::INVOICE_CANNOT_MOVE_N_N.with([
            current.status.label().to_lowercase(),
            target.label().to_lowercase(),
        ]);
        return Err(ApiError::Invalid(
            message.english().to_string(),
            [("status".to_string(), vec![message])]
                .into_iter()
                .collect(),
        ));
    }
    if current.status == InvoiceStatus::Draft {
        super::einvoice::finalize_gate(&state, current.clone()).await?;
    }
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let user = Some(caller.user_id);
    if current.status == InvoiceStatus::Draft {
        let currencies = crate::account::currencies(&mut tx).await?;
        ApiError::check(validate_new_invoice(
            &as_creation_body(&current),
            &currencies,
        ))?;
        let number = super::write::number(&mut tx, target, current.date).await?;
        crate::sql::query("UPDATE invoices SET identifier = $1 WHERE id = $2")
            .bind(&number)
            .bind(id)
            .execute(&mut tx)
            .await?;
        events::record_finalized(&mut tx, user, id, number.unwrap_or_default()).await?;
    } else if current.status != target {
        let data = to_data(&StatusChangedData {
            from: current.status.as_str().into(),
            to: target.as_str().into(),
        });
        events::record_as(
            &mut tx,
            user,
            Subject::Invoice(id),
            EventKind::StatusChanged,
            data,
        )
        .await?;
    }
    crate::sql::query("UPDATE invoices SET status = $1, locked = $2, ever_sent = (ever_sent OR $3), updated_at = $4 WHERE id = $5")
        .bind(target.as_str())
        .bind(locked_after_status_change(target, current.locked))
        .bind(target == InvoiceStatus::Sent)
        .bind(ts(now()))
        .bind(id)
        .execute(&mut tx)
        .await?;
    tx.commit().await?;
    let mut invoice = repo::load(&state.pool, id).await?;
    repo::sign(&state, &base, &mut invoice);
    Ok(Json(invoice))
}
