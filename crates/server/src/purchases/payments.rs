//! `/purchases/payments`: payments made for purchases (`purchase_id`, `date`, `total`),
//! which make the delete rule and the `unpaid` filter real.

use super::repo;
use crate::db::{date_text, now, ts};
use crate::error::{ApiError, ApiResult};
use crate::extract::{IdPath, JsonBody, QueryPairs};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::money::{minor_units, round_money};
use kontor_model::purchase::{NewPurchasePayment, PurchasePayment};
use kontor_model::query::parse_id;
use rust_decimal::Decimal;

/// GET /purchases/payments?purchase_id= → payments, oldest first. Errors: 400.
pub async fn list(
    State(state): State<AppState>,
    query: QueryPairs,
) -> ApiResult<Json<Vec<PurchasePayment>>> {
    match query.get("purchase_id").filter(|v| !v.is_empty()) {
        Some(v) => repo::payments_of(&state.pool, parse_id("purchase_id", v)?)
            .await
            .map(Json),
        None => {
            let ids: Vec<i64> = sqlx::query_scalar(
                "SELECT id FROM purchase_payments ORDER BY date DESC, id DESC LIMIT 100",
            )
            .fetch_all(&state.pool)
            .await?;
            let mut out = Vec::with_capacity(ids.len());
            for id in ids {
                out.push(repo::payment(&state.pool, id).await?);
            }
            Ok(Json(out))
        }
    }
}

/// GET /purchases/payments/{id}. Errors: 404.
pub async fn get_one(
    State(state): State<AppState>,
    IdPath(id): IdPath,
) -> ApiResult<Json<PurchasePayment>> {
    repo::payment(&state.pool, id).await.map(Json)
}

/// POST /purchases/payments → 200 with the payment. Errors: 422 (purchase, date, total > 0
/// with at most the currency's places).
pub async fn create(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<NewPurchasePayment>,
) -> ApiResult<Json<PurchasePayment>> {
    let mut e = FieldErrors::new();
    let currency: Option<String> = match body.purchase_id {
        None => {
            push_error(&mut e, "purchase_id", "is required");
            None
        }
        Some(p) => {
            let c = sqlx::query_scalar("SELECT currency FROM purchases WHERE id = ?")
                .bind(p)
                .fetch_optional(&state.pool)
                .await?;
            if c.is_none() {
                push_error(&mut e, "purchase_id", "does not exist");
            }
            c
        }
    };
    if body.date.is_none() {
        push_error(&mut e, "date", "is required");
    }
    match (body.total, &currency) {
        (None, _) => push_error(&mut e, "total", "is required"),
        (Some(t), _) if t <= Decimal::ZERO => push_error(&mut e, "total", "must be greater than 0"),
        (Some(t), Some(c)) if t.normalize().scale() > minor_units(c) => push_error(
            &mut e,
            "total",
            format!("must have at most {} decimal places in {c}", minor_units(c)),
        ),
        _ => {}
    }
    ApiError::check(e)?;
    let currency = currency.unwrap_or_default();
    let _guard = state.write_lock.lock().await;
    let t = ts(now());
    let id: i64 = sqlx::query_scalar("INSERT INTO purchase_payments (purchase_id, date, total, created_at, updated_at) VALUES (?, ?, ?, ?, ?) RETURNING id")
        .bind(body.purchase_id)
        .bind(body.date.map(date_text))
        .bind(round_money(body.total.unwrap_or_default(), &currency).to_string())
        .bind(&t)
        .bind(&t)
        .fetch_one(&state.pool)
        .await?;
    repo::payment(&state.pool, id).await.map(Json)
}

/// DELETE /purchases/payments/{id} → 204. Errors: 404.
pub async fn delete(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<StatusCode> {
    let _guard = state.write_lock.lock().await;
    repo::payment(&state.pool, id).await?;
    sqlx::query("DELETE FROM purchase_payments WHERE id = ?")
        .bind(id)
        .execute(&state.pool)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
