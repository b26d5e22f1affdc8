//! `/invoices/payments` (`decisions.md` § State rules): payments drive an invoice to
//! `partially_paid` / `paid` and back to the status it held before the first payment;
//! a payment locks the invoice.

use crate::db::{dec, now, parse_ts, ts};
use crate::error::{ApiError, ApiResult};
use crate::extract::{IdPath, JsonBody, QueryPairs};
use crate::listing::{fetch_page, order_by, push_global};
use crate::pagination::{absolute_url, PageOf};
use crate::state::AppState;
use axum::extract::{OriginalUri, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::get;
use axum::{Json, Router};
use chrono::NaiveDate;
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::payment::{NewPayment, Payment};
use kontor_model::query::{parse_date, parse_id, GlobalFilter, Paging};
use kontor_model::status::{status_after_payments, InvoiceStatus};
use rust_decimal::Decimal;
use sqlx::{QueryBuilder, Sqlite, SqlitePool, Transaction};

/// Routes `/invoices/payments` and `/invoices/payments/{id}`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/invoices/payments", get(list).post(create))
        .route(
            "/invoices/payments/{id}",
            get(get_one).put(update).delete(delete),
        )
}

/// One `invoice_payments` row.
#[derive(sqlx::FromRow)]
pub struct PaymentRow {
    id: i64,
    invoice_id: i64,
    date: NaiveDate,
    paid_total: String,
    currency: String,
    created_at: String,
    updated_at: String,
}

impl From<PaymentRow> for Payment {
    fn from(p: PaymentRow) -> Self {
        Payment {
            id: p.id,
            invoice_id: p.invoice_id,
            date: p.date,
            paid_total: dec(&p.paid_total),
            currency: p.currency,
            created_on: parse_ts(&p.created_at).date_naive(),
            updated_on: parse_ts(&p.updated_at).date_naive(),
        }
    }
}

/// The payments of invoice `invoice_id`, oldest first.
pub async fn of_invoice(pool: &SqlitePool, invoice_id: i64) -> ApiResult<Vec<Payment>> {
    let rows: Vec<PaymentRow> =
        sqlx::query_as("SELECT * FROM invoice_payments WHERE invoice_id = ? ORDER BY date, id")
            .bind(invoice_id)
            .fetch_all(pool)
            .await?;
    Ok(rows.into_iter().map(Payment::from).collect())
}

async fn load(pool: &SqlitePool, id: i64) -> ApiResult<Payment> {
    sqlx::query_as::<_, PaymentRow>("SELECT p.* FROM invoice_payments p JOIN invoices i ON i.id = p.invoice_id WHERE p.id = ? AND i.deleted_at IS NULL")
        .bind(id)
        .fetch_optional(pool)
        .await?
        .map(Payment::from)
        .ok_or_else(|| ApiError::not_found(format!("payment {id}")))
}

/// Recomputes status and lock of `invoice_id` from its payments (inside `tx`).
pub async fn apply_payments(tx: &mut Transaction<'_, Sqlite>, invoice_id: i64) -> ApiResult<()> {
    let (gross, status, before, ever_sent): (String, String, Option<String>, bool) =
        sqlx::query_as("SELECT gross_total, status, status_before_payments, ever_sent FROM invoices WHERE id = ?").bind(invoice_id).fetch_one(&mut **tx).await?;
    let paid: Vec<String> =
        sqlx::query_scalar("SELECT paid_total FROM invoice_payments WHERE invoice_id = ?")
            .bind(invoice_id)
            .fetch_all(&mut **tx)
            .await?;
    let sum: Decimal = paid.iter().map(|p| dec(p)).sum();
    let current = InvoiceStatus::parse(&status).unwrap_or(InvoiceStatus::Created);
    let before = match before.as_deref().and_then(InvoiceStatus::parse) {
        Some(b) => b,
        None if !matches!(current, InvoiceStatus::Paid | InvoiceStatus::PartiallyPaid) => current,
        None => InvoiceStatus::Created,
    };
    let next = status_after_payments(sum, dec(&gross), before);
    let keep_before = (!paid.is_empty()).then_some(before.as_str());
    sqlx::query("UPDATE invoices SET status = ?, status_before_payments = ?, locked = ?, updated_at = ? WHERE id = ?")
        .bind(next.as_str())
        .bind(keep_before)
        .bind(ever_sent || !paid.is_empty())
        .bind(ts(now()))
        .bind(invoice_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

fn validate(body: &NewPayment, creating: bool) -> FieldErrors {
    let mut e = FieldErrors::new();
    if creating && body.invoice_id.is_none() {
        push_error(&mut e, "invoice_id", "is required");
    }
    if body.date.is_none() {
        push_error(&mut e, "date", "is required");
    }
    match body.paid_total {
        None => push_error(&mut e, "paid_total", "is required"),
        Some(v) if v <= Decimal::ZERO => push_error(&mut e, "paid_total", "must be greater than 0"),
        _ => {}
    }
    e
}

/// The amount at the currency's scale (`197.5` → `197.50`). Errors: 422 when it has more
/// decimal places than the currency's minor unit.
fn amount_in(currency: &str, value: Option<Decimal>) -> ApiResult<String> {
    let value = value.unwrap_or_default();
    let places = kontor_model::money::minor_units(currency);
    if value.normalize().scale() > places {
        return Err(ApiError::field(
            "paid_total",
            format!("must have at most {places} decimal places in {currency}"),
        ));
    }
    Ok(kontor_model::money::round_money(value, currency).to_string())
}

/// Checks the invoice can take a payment in `currency`; returns its currency.
async fn payable_invoice(
    pool: &SqlitePool,
    invoice_id: i64,
    currency: Option<&str>,
) -> ApiResult<String> {
    let row: Option<(String, String)> =
        sqlx::query_as("SELECT status, currency FROM invoices WHERE id = ? AND deleted_at IS NULL")
            .bind(invoice_id)
            .fetch_optional(pool)
            .await?;
    let Some((status, invoice_currency)) = row else {
        return Err(ApiError::field("invoice_id", "does not exist"));
    };
    if status == InvoiceStatus::Draft.as_str() {
        return Err(ApiError::field(
            "invoice_id",
            "is a draft; finalize it before recording payments",
        ));
    }
    if currency.is_some_and(|c| c != invoice_currency) {
        return Err(ApiError::field(
            "currency",
            format!("must be the invoice's currency ({invoice_currency})"),
        ));
    }
    Ok(invoice_currency)
}

async fn list(
    State(state): State<AppState>,
    headers: HeaderMap,
    OriginalUri(uri): OriginalUri,
    query: QueryPairs,
) -> ApiResult<PageOf<Payment>> {
    let mut paging = Paging::default();
    let mut global = GlobalFilter::default();
    let (mut invoice_id, mut from, mut to) = (None, None, None);
    for (k, v) in query.iter() {
        if paging.accept(k, v)? || global.accept(k, v)? || v.is_empty() {
            continue;
        }
        match k {
            "invoice_id" => invoice_id = Some(parse_id(k, v)?),
            "from" | "date_from" => from = Some(parse_date(k, v)?),
            "to" | "date_to" => to = Some(parse_date(k, v)?),
            _ => {}
        }
    }
    let order = order_by(
        paging.sort_by.as_deref(),
        &[
            ("date", "p.date"),
            ("paid_total", "CAST(p.paid_total AS REAL)"),
            ("created_at", "p.created_at"),
        ],
        "p.date DESC, p.id DESC",
        "p.id",
    )?;
    let push_where = |qb: &mut QueryBuilder<'_, Sqlite>| {
        qb.push(" FROM invoice_payments p JOIN invoices i ON i.id = p.invoice_id WHERE i.deleted_at IS NULL");
        if let Some(id) = invoice_id {
            qb.push(" AND p.invoice_id = ").push_bind(id);
        }
        if let Some(d) = from {
            qb.push(" AND p.date >= ")
                .push_bind(crate::db::date_text(d));
        }
        if let Some(d) = to {
            qb.push(" AND p.date <= ")
                .push_bind(crate::db::date_text(d));
        }
        push_global(qb, &global, "p", false);
    };
    let (items, total) =
        fetch_page::<PaymentRow, Payment>(&state.pool, "p.*", "", push_where, &order, &paging)
            .await?;
    Ok(PageOf {
        items,
        page: paging.page(),
        per_page: paging.per_page(),
        total,
        url: absolute_url(&headers, &uri),
    })
}

async fn get_one(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<Json<Payment>> {
    load(&state.pool, id).await.map(Json)
}

/// POST /invoices/payments → 200 with the payment. Errors: 422 (missing fields, unknown
/// or draft invoice, other currency).
async fn create(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<NewPayment>,
) -> ApiResult<Json<Payment>> {
    ApiError::check(validate(&body, true))?;
    let invoice_id = body.invoice_id.unwrap_or_default();
    let _guard = state.write_lock.lock().await;
    let currency = payable_invoice(&state.pool, invoice_id, body.currency.as_deref()).await?;
    let amount = amount_in(&currency, body.paid_total)?;
    let t = ts(now());
    let mut tx = state.pool.begin().await?;
    let id: i64 = sqlx::query_scalar("INSERT INTO invoice_payments (invoice_id, date, paid_total, currency, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id")
        .bind(invoice_id)
        .bind(body.date.map(crate::db::date_text))
        .bind(amount)
        .bind(currency)
        .bind(&t)
        .bind(&t)
        .fetch_one(&mut *tx)
        .await?;
    apply_payments(&mut tx, invoice_id).await?;
    tx.commit().await?;
    load(&state.pool, id).await.map(Json)
}

/// PUT /invoices/payments/{id} `{date, paid_total}` → 200 with the payment.
async fn update(
    State(state): State<AppState>,
    IdPath(id): IdPath,
    JsonBody(body): JsonBody<NewPayment>,
) -> ApiResult<Json<Payment>> {
    ApiError::check(validate(&body, false))?;
    let _guard = state.write_lock.lock().await;
    let payment = load(&state.pool, id).await?;
    let currency =
        payable_invoice(&state.pool, payment.invoice_id, body.currency.as_deref()).await?;
    let amount = amount_in(&currency, body.paid_total)?;
    let mut tx = state.pool.begin().await?;
    sqlx::query(
        "UPDATE invoice_payments SET date = ?, paid_total = ?, updated_at = ? WHERE id = ?",
    )
    .bind(body.date.map(crate::db::date_text))
    .bind(amount)
    .bind(ts(now()))
    .bind(id)
    .execute(&mut *tx)
    .await?;
    apply_payments(&mut tx, payment.invoice_id).await?;
    tx.commit().await?;
    load(&state.pool, id).await.map(Json)
}

/// DELETE /invoices/payments/{id} → 204; the invoice's status follows.
async fn delete(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<StatusCode> {
    let _guard = state.write_lock.lock().await;
    let payment = load(&state.pool, id).await?;
    let mut tx = state.pool.begin().await?;
    sqlx::query("DELETE FROM invoice_payments WHERE id = ?")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    apply_payments(&mut tx, payment.invoice_id).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}
