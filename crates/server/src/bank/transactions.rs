//! `/bank_transactions` (issue 32): the list with its filters, one transaction with its
//! matches and suggestions, matching by hand (one document or several), undoing a match,
//! ignoring and un-ignoring.

use super::booking::{book, set_state, stored};
use super::reopen::reopen_if_unbooked;
use crate::access::auth::Caller;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{IdPath, JsonBody};
use crate::http::pagination::PageOf;
use crate::lists::{ListQuery, Listing};
use crate::state::AppState;
use crate::store::db::Dec;
use axum::extract::State;
use axum::{Extension, Json};
use chrono::NaiveDate;
use kontor_model::bank::{
    BankMatch, BankSuggestion, BankTransaction, BankTransactionFilter, MatchTransaction,
    TransactionState,
};
use kontor_model::bank_matching::{remainder, Target};
use kontor_model::error::messages;
use kontor_model::money::round_money;
use rust_decimal::Decimal;

/// One `bank_transactions` row.
#[derive(sqlx_macros::FromRow)]
pub(super) struct TransactionRow {
    id: i64,
    bank_statement_id: i64,
    booking_date: NaiveDate,
    value_date: Option<NaiveDate>,
    amount: Dec,
    currency: String,
    counterparty_name: Option<String>,
    counterparty_iban: Option<String>,
    remittance_information: Option<String>,
    end_to_end_id: Option<String>,
    creditor_reference: Option<String>,
    state: String,
    suggestions: String,
}

impl From<TransactionRow> for BankTransaction {
    fn from(r: TransactionRow) -> Self {
        let state = TransactionState::parse(&r.state).unwrap_or(TransactionState::Unmatched);
        BankTransaction {
            id: r.id,
            bank_statement_id: r.bank_statement_id,
            booking_date: r.booking_date,
            value_date: r.value_date,
            amount: r.amount.0,
            currency: r.currency,
            counterparty_name: r.counterparty_name,
            counterparty_iban: r.counterparty_iban,
            remittance_information: r.remittance_information,
            end_to_end_id: r.end_to_end_id,
            creditor_reference: r.creditor_reference,
            state,
            matches: Vec::new(),
            suggestions: serde_json::from_str::<Vec<BankSuggestion>>(&r.suggestions)
                .unwrap_or_default(),
        }
    }
}

/// The payments booked from each of `transactions`, filled in (one query per kind).
async fn fill_matches(
    pool: &crate::sql::Db,
    transactions: &mut [BankTransaction],
) -> ApiResult<()> {
    if transactions.is_empty() {
        return Ok(());
    }
    let ids: Vec<String> = transactions.iter().map(|t| t.id.to_string()).collect();
    let list = ids.join(", ");
    let invoices: Vec<(i64, i64, i64, Dec)> = crate::sql::query_as(&format!(
        "SELECT bank_transaction_id, invoice_id, id, paid_total FROM invoice_payments WHERE bank_transaction_id IN ({list}) ORDER BY id"
    ))
    .fetch_all(pool)
    .await?;
    let purchases: Vec<(i64, i64, i64, Dec)> = crate::sql::query_as(&format!(
        "SELECT bank_transaction_id, purchase_id, id, total FROM purchase_payments WHERE bank_transaction_id IN ({list}) ORDER BY id"
    ))
    .fetch_all(pool)
    .await?;
    for t in transactions.iter_mut() {
        for (tid, invoice_id, payment_id, amount) in &invoices {
            if *tid == t.id {
                t.matches.push(BankMatch {
                    invoice_id: Some(*invoice_id),
                    purchase_id: None,
                    amount: amount.0,
                    payment_id: *payment_id,
                });
            }
        }
        for (tid, purchase_id, payment_id, amount) in &purchases {
            if *tid == t.id {
                t.matches.push(BankMatch {
                    invoice_id: None,
                    purchase_id: Some(*purchase_id),
                    amount: amount.0,
                    payment_id: *payment_id,
                });
            }
        }
    }
    Ok(())
}

async fn load(pool: &crate::sql::Db, id: i64) -> ApiResult<BankTransaction> {
    let row =
        crate::sql::query_as::<TransactionRow>("SELECT * FROM bank_transactions WHERE id = $1")
            .bind(id)
            .fetch_optional(pool)
            .await?
            .ok_or_else(|| ApiError::not_found(format!("bank transaction {id}")))?;
    let mut list = [BankTransaction::from(row)];
    fill_matches(pool, &mut list).await?;
    let [t] = list;
    Ok(t)
}

/// GET /bank_transactions → one page, newest booking first; filters `state`,
/// `bank_statement_id`, `date_from`, `date_to`, `term`. Errors: 400 for a malformed filter,
/// 422 on `state` for an unknown state.
#[utoipa::path(get, path = "/bank_transactions", operation_id = "bank_transactions_list", tag = "bank",
    params(kontor_model::query::ListParams, BankTransactionFilter),
    responses((status = 200, description = "One page of transactions", body = Vec<BankTransaction>)))]
pub(super) async fn list(
    State(state): State<AppState>,
    list: ListQuery<BankTransactionFilter>,
) -> ApiResult<PageOf<BankTransaction>> {
    let f = list.filter.clone();
    let wanted = match f.state.as_deref() {
        None | Some("") => None,
        Some(s) => Some(
            TransactionState::parse(s)
                .ok_or_else(|| ApiError::field("state", messages::IS_NOT_TRANSACTION_STATE))?,
        ),
    };
    let listing = Listing {
        columns: "t.*",
        from: "",
        alias: "t",
        custom_properties: false,
        sorts: &[
            ("booking_date", "t.booking_date"),
            ("amount", "CAST(t.amount AS REAL)"),
        ],
        default_order: "t.booking_date DESC, t.id DESC",
        id: "t.id",
    };
    let term = f
        .term
        .clone()
        .map(|t| format!("%{}%", t.trim().to_lowercase()))
        .filter(|t| t != "%%");
    let mut page = list
        .fetch::<TransactionRow, BankTransaction>(&state.pool, &listing, |qb| {
            qb.push(" FROM bank_transactions t WHERE 1 = 1");
            if let Some(s) = wanted {
                qb.push(" AND t.state = ").push_bind(s.as_str());
            }
            if let Some(id) = f.bank_statement_id {
                qb.push(" AND t.bank_statement_id = ").push_bind(id);
            }
            if let Some(d) = f.date_from {
                qb.push(" AND t.booking_date >= ").push_bind(d);
            }
            if let Some(d) = f.date_to {
                qb.push(" AND t.booking_date <= ").push_bind(d);
            }
            if let Some(t) = &term {
                qb.push(" AND (LOWER(COALESCE(t.counterparty_name, '')) LIKE ")
                    .push_bind(t.clone())
                    .push(" OR LOWER(COALESCE(t.remittance_information, '')) LIKE ")
                    .push_bind(t.clone())
                    .push(" OR LOWER(COALESCE(t.creditor_reference, '')) LIKE ")
                    .push_bind(t.clone())
                    .push(")");
            }
        })
        .await?;
    fill_matches(&state.pool, &mut page.items).await?;
    Ok(page)
}

/// GET /bank_transactions/{id} → the transaction with its matches and suggestions.
#[utoipa::path(get, path = "/bank_transactions/{id}", operation_id = "bank_transactions_get", tag = "bank",
    params(IdPath),
    responses((status = 200, description = "The transaction", body = BankTransaction)))]
pub(super) async fn get_one(
    State(state): State<AppState>,
    IdPath(id): IdPath,
) -> ApiResult<Json<BankTransaction>> {
    load(&state.pool, id).await.map(Json)
}

/// POST /bank_transactions/{id}/match with `{invoice_id}`, `{purchase_id}` or
/// `{allocations: [{invoice_id|purchase_id, amount}]}` → the transaction, matched: the
/// payments are booked at its booking date. One document takes the whole transfer (at most
/// what is open). Errors: 404; 422 when it is matched or ignored already, on
/// `invoice_id`/`purchase_id`/`allocations` when a document cannot take it or the parts
/// add up to more than the transfer.
#[utoipa::path(post, path = "/bank_transactions/{id}/match", operation_id = "bank_transactions_match", tag = "bank",
    params(IdPath), request_body = MatchTransaction,
    responses((status = 200, description = "The transaction with its payments", body = BankTransaction)))]
pub(super) async fn match_one(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
    IdPath(id): IdPath,
    JsonBody(body): JsonBody<MatchTransaction>,
) -> ApiResult<Json<BankTransaction>> {
    let _guard = state.write_lock.lock().await;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let (t, current) = stored(&mut tx, id).await?;
    if matches!(
        current,
        TransactionState::Matched | TransactionState::Ignored
    ) {
        return Err(ApiError::Refused(messages::BANK_TRANSACTION_DONE.into()));
    }
    let whole = t.facts.amount.abs();
    let parts: Vec<(Target, Option<Decimal>, &'static str)> =
        match (&body.allocations, body.invoice_id, body.purchase_id) {
            (Some(list), None, None) => list
                .iter()
                .map(|a| match (a.invoice_id, a.purchase_id) {
                    (Some(i), None) => Ok((Target::Invoice(i), a.amount, "allocations")),
                    (None, Some(p)) => Ok((Target::Purchase(p), a.amount, "allocations")),
                    _ => Err(ApiError::field("allocations", messages::NAMES_NO_DOCUMENT)),
                })
                .collect::<ApiResult<_>>()?,
            (None, Some(i), None) => vec![(Target::Invoice(i), None, "invoice_id")],
            (None, None, Some(p)) => vec![(Target::Purchase(p), None, "purchase_id")],
            _ => return Err(ApiError::field("invoice_id", messages::NAMES_NO_DOCUMENT)),
        };
    // A single document without an amount takes the transfer, capped at what is open.
    let mut amounts = Vec::with_capacity(parts.len());
    for (target, amount, field) in &parts {
        let amount = match amount {
            Some(a) => round_money(*a, &t.facts.currency),
            None => whole.min(
                open_of(&mut tx, *target)
                    .await
                    .map_err(|e| rename(e, field))?,
            ),
        };
        amounts.push(amount);
    }
    remainder(whole, &amounts)
        .map_err(|f| ApiError::field(f, messages::BANK_MORE_THAN_TRANSFER))?;
    for ((target, _, field), amount) in parts.iter().zip(&amounts) {
        book(&mut tx, &t, *target, *amount, Some(caller.user_id))
            .await
            .map_err(|e| rename(e, field))?;
    }
    set_state(&mut tx, id, TransactionState::Matched, &[]).await?;
    tx.commit().await?;
    load(&state.pool, id).await.map(Json)
}

/// A booking refusal (named `allocations`) renamed to the field the body used.
fn rename(e: ApiError, field: &'static str) -> ApiError {
    match e {
        ApiError::Invalid(m, errors) if field != "allocations" => {
            let errors = errors
                .into_iter()
                .map(|(k, v)| {
                    (
                        if k == "allocations" {
                            field.to_string()
                        } else {
                            k
                        },
                        v,
                    )
                })
                .collect();
            ApiError::Invalid(m, errors)
        }
        other => other,
    }
}

/// What `target` still has open (currency units). Errors: 422 when it does not exist.
async fn open_of(tx: &mut crate::sql::Tx, target: Target) -> ApiResult<Decimal> {
    let sql = match target {
        Target::Invoice(_) => format!(
            "SELECT {} FROM invoices i WHERE i.id = $1 AND i.deleted_at IS NULL",
            crate::sql::rules::open_milli()
        ),
        Target::Purchase(_) => format!(
            "SELECT {} FROM purchases p WHERE p.id = $1",
            crate::purchases::list::OPEN_SQL
        ),
    };
    let id = match target {
        Target::Invoice(i) | Target::Purchase(i) => i,
    };
    let milli: Option<i64> = crate::sql::query_scalar(&sql)
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
    milli
        .map(|m| Decimal::new(m, 3))
        .ok_or_else(|| ApiError::field("allocations", messages::DOES_NOT_EXIST))
}

/// DELETE /bank_transactions/{id}/match → the transaction, unmatched: exactly the payments
/// booked from it are removed (the documents' states follow). Errors: 404.
#[utoipa::path(delete, path = "/bank_transactions/{id}/match", operation_id = "bank_transactions_unmatch", tag = "bank",
    params(IdPath),
    responses((status = 200, description = "The transaction, unmatched", body = BankTransaction)))]
pub(super) async fn unmatch(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
    IdPath(id): IdPath,
) -> ApiResult<Json<BankTransaction>> {
    let _guard = state.write_lock.lock().await;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    stored(&mut tx, id).await?;
    let invoice_payments: Vec<i64> =
        crate::sql::query_scalar("SELECT id FROM invoice_payments WHERE bank_transaction_id = $1")
            .bind(id)
            .fetch_all(&mut tx)
            .await?;
    let purchase_payments: Vec<i64> =
        crate::sql::query_scalar("SELECT id FROM purchase_payments WHERE bank_transaction_id = $1")
            .bind(id)
            .fetch_all(&mut tx)
            .await?;
    for payment in invoice_payments {
        crate::invoices::payments::remove(&mut tx, payment, Some(caller.user_id)).await?;
    }
    for payment in purchase_payments {
        crate::purchases::payments::remove(&mut tx, payment, Some(caller.user_id)).await?;
    }
    reopen_if_unbooked(&mut tx, id).await?;
    tx.commit().await?;
    load(&state.pool, id).await.map(Json)
}

/// POST /bank_transactions/{id}/ignore → the transaction, `ignored` (fees, private
/// transfers). Errors: 404; 422 when it is matched.
#[utoipa::path(post, path = "/bank_transactions/{id}/ignore", operation_id = "bank_transactions_ignore", tag = "bank",
    params(IdPath),
    responses((status = 200, description = "The transaction, ignored", body = BankTransaction)))]
pub(super) async fn ignore(
    State(state): State<AppState>,
    IdPath(id): IdPath,
) -> ApiResult<Json<BankTransaction>> {
    let _guard = state.write_lock.lock().await;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let (_, current) = stored(&mut tx, id).await?;
    if current == TransactionState::Matched {
        return Err(ApiError::Refused(messages::BANK_TRANSACTION_DONE.into()));
    }
    set_state(&mut tx, id, TransactionState::Ignored, &[]).await?;
    tx.commit().await?;
    load(&state.pool, id).await.map(Json)
}

/// DELETE /bank_transactions/{id}/ignore → the transaction, matched again against what is
/// open now (booked, suggested or unmatched). Errors: 404; 422 when it is not ignored.
#[utoipa::path(delete, path = "/bank_transactions/{id}/ignore", operation_id = "bank_transactions_unignore", tag = "bank",
    params(IdPath),
    responses((status = 200, description = "The transaction, matched again", body = BankTransaction)))]
pub(super) async fn unignore(
    State(state): State<AppState>,
    IdPath(id): IdPath,
) -> ApiResult<Json<BankTransaction>> {
    let _guard = state.write_lock.lock().await;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let (t, current) = stored(&mut tx, id).await?;
    if current != TransactionState::Ignored {
        return Err(ApiError::Refused(messages::BANK_TRANSACTION_DONE.into()));
    }
    let mut open = super::booking::candidates(&mut tx).await?;
    super::booking::apply_decision(&mut tx, &t, &mut open).await?;
    tx.commit().await?;
    load(&state.pool, id).await.map(Json)
}
