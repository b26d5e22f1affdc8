//! `/purchases/payments`: payments made for purchases (`purchase_id`, `date`, `total`),
//! which make the delete rule and the `unpaid` filter real.

use super::repo;
use crate::events::{self, Subject};
use crate::http::caller_context::CallerContext;
use crate::http::error::{on_foreign_key, ApiError, ApiResult};
use crate::http::extract::{IdPath, JsonBody};
use crate::http::pagination::PageOf;
use crate::lists::ListQuery;
use crate::state::AppState;
use crate::store::db::{now, ts};
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use kontor_model::error::messages;
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::event::{to_data, EventKind, PaymentData};
use kontor_model::money::round_money;
use kontor_model::payment_rules::validate_payment;
use kontor_model::purchase::{NewPurchasePayment, PurchasePayment};
use kontor_model::query::one;
use serde::Deserialize;

/// `GET /purchases/payments` filter: `purchase_id`.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(default)]
pub struct PaymentQuery {
    /// Only this purchase's payments, oldest first; absent: every payment, newest first.
    #[serde(deserialize_with = "one")]
    purchase_id: Option<i64>,
}

/// List purchase payments.
///
/// GET /purchases/payments?purchase_id= → one page of a purchase's payments, oldest
/// first; without `purchase_id` every payment, newest first (the first page is the
/// latest 100). Paging headers as every list. Errors: 400 naming a malformed parameter.
#[utoipa::path(get, path = "/purchases/payments", operation_id = "purchase_payments_list", tag = "purchases",
    params(kontor_model::query::ListParams, PaymentQuery),
    responses((status = 200, description = "One page of purchase payments.", body = Vec<PurchasePayment>)))]
pub async fn list(
    State(state): State<AppState>,
    list: ListQuery<PaymentQuery>,
) -> ApiResult<PageOf<PurchasePayment>> {
    let all = match list.filter.purchase_id {
        Some(id) => repo::payments_of(&state.pool, id).await?,
        None => repo::all_payments(&state.pool).await?,
    };
    Ok(list.slice(all))
}

/// Get a purchase payment.
///
/// GET /purchases/payments/{id}. Errors: 404.
#[utoipa::path(get, path = "/purchases/payments/{id}", operation_id = "purchase_payments_get", tag = "purchases",
    params(IdPath),
    responses((status = 200, description = "The purchase payment.", body = PurchasePayment)))]
pub async fn get_one(
    State(state): State<AppState>,
    IdPath(id): IdPath,
) -> ApiResult<Json<PurchasePayment>> {
    repo::payment(&state.pool, id).await.map(Json)
}

/// Record a purchase payment.
///
/// POST /purchases/payments → 200 with the payment. Errors: 422 (purchase, date, total > 0
/// with at most the currency's places).
#[utoipa::path(post, path = "/purchases/payments", operation_id = "purchase_payments_create", tag = "purchases",
    request_body = NewPurchasePayment,
    responses((status = 200, description = "The recorded payment.", body = PurchasePayment)))]
pub async fn create(
    CallerContext(state, caller, _): CallerContext,
    JsonBody(body): JsonBody<NewPurchasePayment>,
) -> ApiResult<Json<PurchasePayment>> {
    let mut e = FieldErrors::new();
    let currency: Option<String> = match body.purchase_id {
        None => {
            push_error(&mut e, "purchase_id", messages::IS_REQUIRED);
            None
        }
        Some(p) => {
            let c = crate::sql::query_scalar("SELECT currency FROM purchases WHERE id = $1")
                .bind(p)
                .fetch_optional(&state.pool)
                .await?;
            if c.is_none() {
                push_error(&mut e, "purchase_id", messages::DOES_NOT_EXIST);
            }
            c
        }
    };
    // Without a known purchase the amount is checked with the default places (2), so
    // every missing or wrong field is named at once.
    let rules = validate_payment(
        body.date,
        body.total,
        "total",
        currency.as_deref().unwrap_or_default(),
    );
    for (field, messages) in rules {
        e.entry(field).or_default().extend(messages);
    }
    ApiError::check(e)?;
    let currency = currency.unwrap_or_default();
    let _guard = state.write_lock.lock().await;
    let amount = round_money(body.total.unwrap_or_default(), &currency);
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    // The purchase may have been deleted since the check above (`decisions.md` § Server
    // hardening): the foreign key refuses the row, and that is a 422 on `purchase_id`.
    let (Some(purchase_id), Some(date)) = (body.purchase_id, body.date) else {
        return Err(ApiError::field("purchase_id", messages::IS_REQUIRED));
    };
    let booking = Booking {
        purchase_id,
        date,
        amount,
        currency: &currency,
        bank_transaction_id: None,
    };
    let id = book(&mut tx, &booking, Some(caller.user_id)).await?;
    tx.commit().await?;
    repo::payment(&state.pool, id).await.map(Json)
}

/// A purchase payment to record: `amount` (currency units, > 0) paid on `date` for
/// `purchase_id`, from bank transaction `bank_transaction_id` if any (issue 32).
pub struct Booking<'a> {
    /// The purchase paid.
    pub purchase_id: i64,
    /// The day paid.
    pub date: chrono::NaiveDate,
    /// Amount, currency units.
    pub amount: rust_decimal::Decimal,
    /// The purchase's currency.
    pub currency: &'a str,
    /// The bank transaction it came from.
    pub bank_transaction_id: Option<i64>,
}

/// Records `payment` inside `tx` on behalf of `user` (the row and the `payment` event,
/// naming the bank transaction when it came from one); answers its id. Errors: 422 on
/// `purchase_id` when the purchase is gone.
pub async fn book(
    tx: &mut crate::sql::Tx,
    payment: &Booking<'_>,
    user: Option<i64>,
) -> ApiResult<i64> {
    let t = ts(now());
    let id: i64 = crate::sql::query_scalar("INSERT INTO purchase_payments (purchase_id, date, total, bank_transaction_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id")
        .bind(payment.purchase_id)
        .bind(payment.date)
        .bind(payment.amount)
        .bind(payment.bank_transaction_id)
        .bind(t)
        .bind(t)
        .fetch_one(&mut *tx)
        .await
        .map_err(on_foreign_key(ApiError::field("purchase_id", messages::DOES_NOT_EXIST)))?;
    let data = to_data(&PaymentData {
        payment_id: id,
        amount: payment.amount,
        date: Some(payment.date),
        currency: Some(payment.currency.to_string()),
        bank_transaction_id: payment.bank_transaction_id,
    });
    let subject = Subject::Purchase(payment.purchase_id);
    events::record_as(tx, user, subject, EventKind::Payment, data).await?;
    Ok(id)
}

/// Delete a purchase payment.
///
/// DELETE /purchases/payments/{id} → 204. Errors: 404.
#[utoipa::path(delete, path = "/purchases/payments/{id}", operation_id = "purchase_payments_delete", tag = "purchases",
    params(IdPath),
    responses((status = 204, description = "Deleted.")))]
pub async fn delete(
    CallerContext(state, caller, _): CallerContext,
    IdPath(id): IdPath,
) -> ApiResult<StatusCode> {
    let _guard = state.write_lock.lock().await;
    repo::payment(&state.pool, id).await?;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    remove(&mut tx, id, Some(caller.user_id)).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Deletes purchase payment `id` inside `tx` on behalf of `user`: a transaction it was
/// booked from is open again when nothing of it is left booked (issue 32), and the
/// `payment_deleted` event is recorded. Errors: 404.
pub async fn remove(tx: &mut crate::sql::Tx, id: i64, user: Option<i64>) -> ApiResult<()> {
    type Row = (i64, chrono::NaiveDate, crate::store::db::Dec, String);
    let row: Option<Row> = crate::sql::query_as(
        "SELECT pp.purchase_id, pp.date, pp.total, p.currency FROM purchase_payments pp JOIN purchases p ON p.id = pp.purchase_id WHERE pp.id = $1",
    )
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let (purchase_id, date, total, currency) =
        row.ok_or_else(|| ApiError::not_found(format!("purchase payment {id}")))?;
    let bank_transaction_id: Option<i64> = crate::sql::query_scalar(
        "DELETE FROM purchase_payments WHERE id = $1 RETURNING bank_transaction_id",
    )
    .bind(id)
    .fetch_one(&mut *tx)
    .await?;
    if let Some(bank) = bank_transaction_id {
        crate::bank::reopen::reopen_if_unbooked(tx, bank).await?;
    }
    let data = to_data(&PaymentData {
        payment_id: id,
        amount: total.0,
        date: Some(date),
        currency: Some(currency),
        bank_transaction_id,
    });
    events::record_as(
        tx,
        user,
        Subject::Purchase(purchase_id),
        EventKind::PaymentDeleted,
        data,
    )
    .await?;
    Ok(())
}
