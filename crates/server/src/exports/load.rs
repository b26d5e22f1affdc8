//! What an export holds, read from the database: the finalized invoices and all purchases
//! of a period (by document date, inclusive), the companies' names, DATEV numbers and VAT
//! identifiers, the purchases' stored documents, and the answer as a download. A
//! repository: it knows no handler.

use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::QueryPairs;
use crate::invoices::repo::{columns as invoice_columns, InvoiceRow, FROM as INVOICE_FROM};
use crate::purchases::repo::{PurchaseRow, COLUMNS as PURCHASE_COLUMNS, FROM as PURCHASE_FROM};
use crate::state::AppState;
use axum::http::{header, HeaderValue};
use axum::response::Response;
use chrono::NaiveDate;
use kontor_model::export::{parse_period, Party, Period};
use kontor_model::invoice::Invoice;
use kontor_model::purchase::Purchase;
use std::collections::HashMap;

/// `from`, `to` and `locale` of the query. Errors: 422 naming `from`, `to` or `locale`
/// (missing, not a date, from after to).
pub fn period(query: &QueryPairs) -> ApiResult<Period> {
    match parse_period(query.get("from"), query.get("to"), query.get("locale")) {
        Ok(period) => Ok(period),
        Err(errors) => ApiError::check(errors)
            .and_then(|_| Err(ApiError::Internal("period refused without errors".into()))),
    }
}

/// The finalized invoices dated `from`–`to`: every status but `draft`, reversals and
/// reversed invoices included, deleted ones left out; by date, then number.
pub async fn invoices(pool: &crate::sql::Db, period: &Period) -> ApiResult<Vec<Invoice>> {
    let rows: Vec<InvoiceRow> = crate::sql::query_as(&format!(
        "SELECT {} {INVOICE_FROM} WHERE i.deleted_at IS NULL AND {} \
         AND i.date BETWEEN $1 AND $2 ORDER BY i.date, i.identifier, i.id",
        invoice_columns(),
        crate::sql::rules::issued()
    ))
    .bind(period.from)
    .bind(period.to)
    .fetch_all(pool)
    .await?;
    let today = crate::lists::summary::today();
    Ok(rows
        .into_iter()
        .map(|row| row.into_invoice(today))
        .collect())
}

/// Every purchase dated `from`–`to` (pending and approved), with positions and
/// categories; by date, then number.
pub async fn purchases(state: &AppState, period: &Period) -> ApiResult<Vec<Purchase>> {
    let rows: Vec<PurchaseRow> = crate::sql::query_as(&format!(
        "SELECT {PURCHASE_COLUMNS} {PURCHASE_FROM} WHERE p.date BETWEEN $1 AND $2 \
         ORDER BY p.date, p.identifier, p.id"
    ))
    .bind(period.from)
    .bind(period.to)
    .fetch_all(&state.pool)
    .await?;
    crate::purchases::repo::present(state, "", rows).await
}

/// A company as the exports name it.
#[derive(sqlx_macros::FromRow)]
struct CompanyRow {
    id: i64,
    name: String,
    debit_number: Option<i64>,
    credit_number: Option<i64>,
    vat_identifier: Option<String>,
}

/// The companies by id: name, DATEV numbers, VAT identifier.
pub struct Companies(HashMap<i64, CompanyRow>);

impl Companies {
    /// Reads every company (the exports name customers and suppliers).
    pub async fn load(pool: &crate::sql::Db) -> ApiResult<Self> {
        let rows: Vec<CompanyRow> = crate::sql::query_as(
            "SELECT id, name, debtor_number AS debit_number, creditor_number AS credit_number, \
             vat_identifier FROM companies",
        )
        .fetch_all(pool)
        .await?;
        Ok(Companies(rows.into_iter().map(|r| (r.id, r)).collect()))
    }

    fn party(&self, id: Option<i64>, creditor: bool) -> Party {
        match id.and_then(|id| self.0.get(&id)) {
            Some(c) => Party {
                id: c.id,
                name: c.name.clone(),
                number: if creditor {
                    c.credit_number
                } else {
                    c.debit_number
                },
                vat_identifier: c.vat_identifier.clone(),
            },
            None => Party::default(),
        }
    }

    /// The customer of `invoice` with its debtor number.
    pub fn customer(&self, invoice: &Invoice) -> Party {
        self.party(Some(invoice.customer_id), false)
    }

    /// The supplier of `purchase` with its creditor number (an empty party without one).
    pub fn supplier(&self, purchase: &Purchase) -> Party {
        self.party(purchase.company.as_ref().map(|c| c.id), true)
    }
}

/// A stored purchase document of the period.
#[derive(sqlx_macros::FromRow)]
pub struct StoredDocument {
    /// Purchase number.
    pub identifier: String,
    /// Purchase date.
    pub date: NaiveDate,
    /// File name in the storage folder.
    pub document_key: String,
    /// Its content type.
    pub document_type: String,
}

/// The stored documents of the purchases dated `from`–`to`.
pub async fn purchase_documents(
    pool: &crate::sql::Db,
    period: &Period,
) -> ApiResult<Vec<StoredDocument>> {
    Ok(crate::sql::query_as(
        "SELECT identifier, date, document_key, coalesce(document_type, 'application/octet-stream') AS document_type \
         FROM purchases WHERE date BETWEEN $1 AND $2 AND document_key IS NOT NULL ORDER BY date, identifier, id",
    )
    .bind(period.from)
    .bind(period.to)
    .fetch_all(pool)
    .await?)
}

/// A download: `bytes` with `content_type`, `Content-Disposition: attachment` named
/// `filename`, `nosniff`, not cached.
pub fn download(bytes: Vec<u8>, content_type: &str, filename: &str) -> Response {
    let mut response = crate::store::files::file_response(bytes, content_type, filename);
    let headers = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{filename}\"")) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
