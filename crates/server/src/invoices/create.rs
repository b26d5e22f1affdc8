//! POST /invoices (create, or create a draft) and PUT /invoices/{id} (edit a draft):
//! validation with the shared model, references checked, rich text sanitized, totals
//! computed with `kontor_model::totals`, and everything written in one transaction.

use super::repo;
use crate::auth::Caller;
use crate::db::{date_text, now, ts};
use crate::error::{ApiError, ApiResult};
use crate::extract::{IdPath, JsonBody};
use crate::files::BaseUrl;
use crate::numbering::{next_number, INVOICES};
use crate::sanitize;
use crate::state::AppState;
use axum::extract::State;
use axum::{Extension, Json};
use chrono::NaiveDate;
use kontor_model::error::push_error;
use kontor_model::invoice::Invoice;
use kontor_model::invoice_input::NewInvoice;
use kontor_model::position::PositionType;
use kontor_model::status::InvoiceStatus;
use kontor_model::totals::compute_totals;
use kontor_model::validation::validate_new_invoice;
use rust_decimal::Decimal;
use sqlx::{Sqlite, Transaction};

/// A creation body checked and resolved into what is stored.
struct Prepared {
    body: NewInvoice,
    draft: bool,
    user_id: i64,
    date: NaiveDate,
    due_date: NaiveDate,
    recipient_address: String,
    currency: String,
    tax: Decimal,
    reverse_charge: bool,
    intra_eu: bool,
    net_total: Decimal,
    gross_total: Decimal,
    item_totals: Vec<Decimal>,
}

async fn prepare(
    state: &AppState,
    caller: &Caller,
    mut body: NewInvoice,
    editing: Option<i64>,
) -> ApiResult<Prepared> {
    let mut errors = validate_new_invoice(&body, &state.account.currencies);
    let customer = match body.customer_id {
        Some(id) => crate::companies::find(&state.pool, id).await?,
        None => None,
    };
    if body.customer_id.is_some() && customer.is_none() {
        push_error(&mut errors, "customer_id", "does not exist");
    }
    if let Some(project_id) = body.project_id {
        match crate::projects::find(&state.pool, project_id).await? {
            None => push_error(&mut errors, "project_id", "does not exist"),
            Some(p)
                if body.customer_id.is_some()
                    && p.customer.as_ref().map(|c| c.id) != body.customer_id =>
            {
                push_error(&mut errors, "project_id", "belongs to another customer")
            }
            _ => {}
        }
    }
    if let Some(user_id) = body.internal_contact_id {
        if crate::users::load(&state.pool, user_id).await.is_err() {
            push_error(&mut errors, "internal_contact_id", "does not exist");
        }
    }
    if let Some(customer_id) = body.customer_id.filter(|_| customer.is_some()) {
        crate::billing::check(&state.pool, &body, customer_id, editing, &mut errors).await?;
    }
    ApiError::check(errors)?;
    let customer = customer.ok_or_else(|| ApiError::Internal("customer vanished".into()))?;

    let draft = body.status == Some(InvoiceStatus::Draft);
    let reverse_charge = body
        .vat
        .as_ref()
        .and_then(|v| v.reverse_charge)
        .unwrap_or(customer.customer_vat.reverse_charge);
    let intra_eu = body
        .vat
        .as_ref()
        .and_then(|v| v.intra_eu)
        .unwrap_or(customer.customer_vat.intra_eu);
    let tax = if reverse_charge {
        Decimal::ZERO
    } else {
        body.tax.unwrap_or_default()
    };
    let currency = body
        .currency
        .clone()
        .unwrap_or_else(|| state.account.default_currency().to_string());
    let date = body.date.unwrap_or_else(|| now().date_naive());
    let due_date = body.due_date.unwrap_or(date);
    let recipient_address = body
        .recipient_address
        .clone()
        .unwrap_or_else(|| customer.recipient_address());

    body.salutation = sanitize::html_opt(body.salutation.as_deref());
    body.footer = sanitize::html_opt(body.footer.as_deref());
    for item in body.items.iter_mut().flatten() {
        item.description = sanitize::html_opt(item.description.as_deref());
    }
    let amounts: Vec<_> = body.items.iter().flatten().map(|i| i.amounts()).collect();
    let totals = compute_totals(
        &amounts,
        body.discount.unwrap_or_default(),
        tax,
        reverse_charge,
        &currency,
    );
    Ok(Prepared {
        draft,
        user_id: body.internal_contact_id.unwrap_or(caller.user_id),
        date,
        due_date,
        recipient_address,
        currency,
        tax,
        reverse_charge,
        intra_eu,
        net_total: totals.net_total,
        gross_total: totals.gross_total,
        item_totals: totals.positions,
        body,
    })
}

/// Replaces the positions of invoice `invoice_id` with those of `p`.
async fn write_items(
    tx: &mut Transaction<'_, Sqlite>,
    invoice_id: i64,
    p: &Prepared,
) -> ApiResult<Vec<i64>> {
    let mut ids = Vec::new();
    sqlx::query("DELETE FROM invoice_items WHERE invoice_id = ?")
        .bind(invoice_id)
        .execute(&mut **tx)
        .await?;
    for (n, (item, net)) in p
        .body
        .items
        .iter()
        .flatten()
        .zip(&p.item_totals)
        .enumerate()
    {
        let kind = item.kind.unwrap_or(PositionType::Item);
        let is_item = kind == PositionType::Item;
        let id: i64 = sqlx::query_scalar("INSERT INTO invoice_items (invoice_id, position, kind, title, description, quantity, unit, unit_price, net_total) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id")
            .bind(invoice_id)
            .bind(n as i64)
            .bind(kind.as_str())
            .bind(item.title.as_deref().unwrap_or("").trim())
            .bind(item.description.as_deref())
            .bind(if is_item { item.quantity.map(|d| d.to_string()) } else { None })
            .bind(item.unit.as_deref().filter(|u| !u.trim().is_empty()))
            .bind(if is_item { item.unit_price.map(|d| d.to_string()) } else { None })
            .bind(net.to_string())
            .fetch_one(&mut **tx)
            .await?;
        ids.push(id);
    }
    Ok(ids)
}

/// Propagates the recipient address to the customer or the project (`change_address`).
async fn propagate_address(tx: &mut Transaction<'_, Sqlite>, p: &Prepared) -> ApiResult<()> {
    let t = ts(now());
    match p.body.change_address.as_deref() {
        Some("customer") => {
            // The address block starts with the company name; the company stores the rest.
            let name: String = sqlx::query_scalar("SELECT name FROM companies WHERE id = ?")
                .bind(p.body.customer_id)
                .fetch_one(&mut **tx)
                .await?;
            let mut lines = p.recipient_address.lines();
            let rest = match lines.clone().next() {
                Some(first) if first.trim() == name.trim() => {
                    lines.next();
                    lines.collect::<Vec<_>>().join("\n")
                }
                _ => p.recipient_address.clone(),
            };
            sqlx::query("UPDATE companies SET address = ?, updated_at = ? WHERE id = ?")
                .bind(rest)
                .bind(&t)
                .bind(p.body.customer_id)
                .execute(&mut **tx)
                .await?;
        }
        Some("project") => {
            if let Some(project_id) = p.body.project_id {
                sqlx::query("UPDATE projects SET billing_address = ?, updated_at = ? WHERE id = ?")
                    .bind(&p.recipient_address)
                    .bind(&t)
                    .bind(project_id)
                    .execute(&mut **tx)
                    .await?;
            }
        }
        _ => {}
    }
    Ok(())
}

fn json_text<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Writes every header column of invoice `id` from `p` (used by create and draft edit).
async fn write_header(
    tx: &mut Transaction<'_, Sqlite>,
    id: i64,
    p: &Prepared,
    identifier: Option<String>,
    status: InvoiceStatus,
) -> ApiResult<()> {
    sqlx::query(
        "UPDATE invoices SET customer_id = ?, project_id = ?, user_id = ?, identifier = ?, date = ?, due_date = ?, service_period_from = ?,
            service_period_to = ?, status = ?, title = ?, recipient_address = ?, currency = ?, net_total = ?, tax = ?, reverse_charge = ?,
            intra_eu = ?, gross_total = ?, discount = ?, cash_discount = ?, cash_discount_days = ?, salutation = ?, footer = ?,
            custom_properties = ?, tags = ?, updated_at = ? WHERE id = ?",
    )
    .bind(p.body.customer_id)
    .bind(p.body.project_id)
    .bind(p.user_id)
    .bind(identifier)
    .bind(date_text(p.date))
    .bind(date_text(p.due_date))
    .bind(repo::opt_date(p.body.service_period_from))
    .bind(repo::opt_date(p.body.service_period_to))
    .bind(status.as_str())
    .bind(p.body.title.as_deref().unwrap_or("").trim())
    .bind(&p.recipient_address)
    .bind(&p.currency)
    .bind(p.net_total.to_string())
    .bind(p.tax.to_string())
    .bind(p.reverse_charge)
    .bind(p.intra_eu)
    .bind(p.gross_total.to_string())
    .bind(p.body.discount.unwrap_or_default().to_string())
    .bind(p.body.cash_discount.unwrap_or_default().to_string())
    .bind(p.body.cash_discount_days.unwrap_or(0))
    .bind(p.body.salutation.as_deref().unwrap_or(""))
    .bind(p.body.footer.as_deref().unwrap_or(""))
    .bind(json_text(&p.body.custom_properties.clone().unwrap_or_default()))
    .bind(json_text(&p.body.tags.clone().unwrap_or_default()))
    .bind(ts(now()))
    .bind(id)
    .execute(&mut **tx)
    .await?;
    // Release first: the old positions the entries point to are replaced.
    crate::billing::release(tx, id).await?;
    let item_ids = write_items(tx, id, p).await?;
    crate::billing::claim(tx, &p.body, id, &item_ids).await?;
    propagate_address(tx, p).await
}

/// Creates an invoice (or a draft) from `body` on behalf of `caller`.
/// Errors: 422 naming invalid fields or unknown references.
pub async fn create_invoice(
    state: &AppState,
    caller: &Caller,
    body: NewInvoice,
) -> ApiResult<Invoice> {
    create_linked(state, caller, body, None).await
}

/// Creates an invoice; with `reversal_of` it is the reversal of that invoice, and both are
/// linked in the same transaction. The caller holds no lock.
pub(super) async fn create_linked(
    state: &AppState,
    caller: &Caller,
    body: NewInvoice,
    reversal_of: Option<i64>,
) -> ApiResult<Invoice> {
    let p = prepare(state, caller, body, None).await?;
    let _guard = state.write_lock.lock().await;
    let mut tx = state.pool.begin().await?;
    if let Some(original) = reversal_of {
        let already: Option<bool> =
            sqlx::query_scalar("SELECT reversed FROM invoices WHERE id = ? AND deleted_at IS NULL")
                .bind(original)
                .fetch_optional(&mut *tx)
                .await?;
        if already != Some(false) {
            return Err(ApiError::Refused(
                "This invoice has already been reversed.".into(),
            ));
        }
    }
    let identifier = if p.draft {
        None
    } else {
        Some(next_number(&mut tx, INVOICES, p.date).await?)
    };
    let status = if p.draft {
        InvoiceStatus::Draft
    } else {
        InvoiceStatus::Created
    };
    let t = ts(now());
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO invoices (customer_id, date, due_date, status, title, recipient_address, currency, net_total, tax, gross_total, created_at, updated_at)
         VALUES (?, '', '', 'draft', '', '', '', '0', '0', '0', ?, ?) RETURNING id",
    )
    .bind(p.body.customer_id)
    .bind(&t)
    .bind(&t)
    .fetch_one(&mut *tx)
    .await?;
    write_header(&mut tx, id, &p, identifier, status).await?;
    if let Some(original) = reversal_of {
        sqlx::query("UPDATE invoices SET reversal = 1, reversed_invoice_id = ? WHERE id = ?")
            .bind(original)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("UPDATE invoices SET reversed = 1, reversal_invoice_id = ?, updated_at = ? WHERE id = ?").bind(id).bind(&t).bind(original).execute(&mut *tx).await?;
    }
    tx.commit().await?;
    repo::load(&state.pool, id).await
}

/// POST /invoices → 200 with the created invoice. Errors: 415, 400, 422 naming fields.
pub async fn create(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
    BaseUrl(base): BaseUrl,
    JsonBody(body): JsonBody<NewInvoice>,
) -> ApiResult<Json<Invoice>> {
    let mut invoice = create_invoice(&state, &caller, body).await?;
    repo::sign(&state, &base, &mut invoice);
    Ok(Json(invoice))
}

/// PUT /invoices/{id} → replaces a draft with the creation body (`status: created`
/// finalizes it and assigns the number). Errors: 404; 422 when the invoice is not a draft
/// or a field is invalid.
pub async fn update_draft(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
    BaseUrl(base): BaseUrl,
    IdPath(id): IdPath,
    JsonBody(mut body): JsonBody<NewInvoice>,
) -> ApiResult<Json<Invoice>> {
    let refused =
        || ApiError::Refused("Only draft invoices can be edited; this one is final.".into());
    if repo::load_row(&state.pool, id).await?.into_invoice().status != InvoiceStatus::Draft {
        return Err(refused());
    }
    body.status = Some(body.status.unwrap_or(InvoiceStatus::Draft));
    let p = prepare(&state, &caller, body, Some(id)).await?;
    let _guard = state.write_lock.lock().await;
    let mut tx = state.pool.begin().await?;
    let status: String = sqlx::query_scalar("SELECT status FROM invoices WHERE id = ?")
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
    if status != InvoiceStatus::Draft.as_str() {
        return Err(refused());
    }
    let identifier = if p.draft {
        None
    } else {
        Some(next_number(&mut tx, INVOICES, p.date).await?)
    };
    let new_status = if p.draft {
        InvoiceStatus::Draft
    } else {
        InvoiceStatus::Created
    };
    write_header(&mut tx, id, &p, identifier, new_status).await?;
    tx.commit().await?;
    let mut invoice = repo::load(&state.pool, id).await?;
    repo::sign(&state, &base, &mut invoice);
    Ok(Json(invoice))
}
