//! What an invoice can bill besides its own positions: tracked time (`activities`),
//! expenses, and which of them an invoice's positions bill (`billing`).

pub mod activities;
pub mod billing;
pub mod expenses;

use crate::http::error::ApiResult;

/// What invoice `invoice_id` bills of one kind (activities, expenses): the rows `select`
/// reads (its columns and joins) where `{alias}.invoice_id` is the invoice, by date and
/// id, each read as `R`. Errors: the database's (500).
async fn billed_by<R: crate::sql::Record>(
    pool: &crate::sql::Db,
    select: &str,
    alias: &str,
    invoice_id: i64,
) -> ApiResult<Vec<R>> {
    let sql = format!("{select} WHERE {alias}.invoice_id = $1 ORDER BY {alias}.date, {alias}.id");
    Ok(crate::sql::query_as(&sql)
        .bind(invoice_id)
        .fetch_all(pool)
        .await?)
}
