//! Debtor and creditor numbers of companies (issue 31, `docs/decisions.md` § Debtor and
//! creditor numbers): the counter that numbers a new customer or supplier
//! ([`assign`], the rule [`next_account_number`]) and the check that no other company has
//! a number ([`check_free`], held by the schema's unique indexes `companies_debit_number`
//! and `companies_credit_number`). The columns keep issue 11's names `debtor_number` and
//! `creditor_number`; the wire says `debit_number` and `credit_number`.

use crate::http::error::{ApiError, ApiResult};
use kontor_model::error::messages;
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::party::{next_account_number, AccountKind, CompanyType, NewCompany};

/// The column of `kind` in `companies`.
fn column(kind: AccountKind) -> &'static str {
    match kind {
        AccountKind::Debit => "debtor_number",
        AccountKind::Credit => "creditor_number",
    }
}

/// The number of `kind` `body` carries.
fn number(body: &mut NewCompany, kind: AccountKind) -> &mut Option<i64> {
    match kind {
        AccountKind::Debit => &mut body.debit_number,
        AccountKind::Credit => &mut body.credit_number,
    }
}

/// Gives a new company `body` the next free number of its kind (a customer a debtor
/// number, a supplier a creditor number, an organization none) when the account's
/// `datev.assign_account_numbers` is on and the body has none: one above the highest
/// stored number from the kind's start number (`datev.debit_number_start`,
/// `datev.credit_number_start`) to the range's end, else the start number; none when the
/// range is used up. Run under the write lock (two creations do not draw the same
/// number). Errors: database errors (500).
pub async fn assign(pool: &crate::sql::Db, body: &mut NewCompany) -> ApiResult<()> {
    let datev = crate::account::repo::load(pool).await?.account.datev;
    if !datev.assign_account_numbers {
        return Ok(());
    }
    let Some(kind) = AccountKind::assigned_to(body.kind.unwrap_or(CompanyType::Customer)) else {
        return Ok(());
    };
    if number(body, kind).is_some() {
        return Ok(());
    }
    let start = match kind {
        AccountKind::Debit => datev.debit_number_start,
        AccountKind::Credit => datev.credit_number_start,
    };
    let highest = highest(pool, kind, start).await?;
    *number(body, kind) = next_account_number(kind, start, highest);
    Ok(())
}

/// The highest number of `kind` stored from `start` to the range's end.
async fn highest<'e>(
    db: impl crate::sql::Executor<'e>,
    kind: AccountKind,
    start: i64,
) -> ApiResult<Option<i64>> {
    let sql = format!(
        "SELECT MAX({c}) FROM companies WHERE {c} BETWEEN $1 AND $2",
        c = column(kind)
    );
    Ok(crate::sql::query_scalar(&sql)
        .bind(start)
        .bind(*kind.range().end())
        .fetch_one(db)
        .await?)
}

/// The creditor number of a supplier created inside the write transaction `tx` (the
/// e-invoice import's new supplier), by the rule of [`assign`]: `None` when the counter
/// is off or the range is used up. Errors: database errors (500).
pub async fn new_supplier_number(tx: &mut crate::sql::Tx) -> ApiResult<Option<i64>> {
    let datev = crate::account::repo::load(&mut *tx).await?.account.datev;
    if !datev.assign_account_numbers {
        return Ok(None);
    }
    let kind = AccountKind::Credit;
    let start = datev.credit_number_start;
    let highest = highest(&mut *tx, kind, start).await?;
    Ok(next_account_number(kind, start, highest))
}

/// Adds "is already the number of <company>" under `debit_number` / `credit_number` for
/// each number of `body` another company than `id` (`None`: a new company) has.
/// Errors: database errors (500).
pub async fn check_free(
    pool: &crate::sql::Db,
    id: Option<i64>,
    body: &NewCompany,
    errors: &mut FieldErrors,
) -> ApiResult<()> {
    for (kind, value) in [
        (AccountKind::Debit, body.debit_number),
        (AccountKind::Credit, body.credit_number),
    ] {
        let Some(value) = value else { continue };
        let sql = format!(
            "SELECT name FROM companies WHERE {} = $1 AND id <> $2 ORDER BY id LIMIT 1",
            column(kind)
        );
        let other: Option<String> = crate::sql::query_scalar(&sql)
            .bind(value)
            .bind(id.unwrap_or(0))
            .fetch_optional(pool)
            .await?;
        if let Some(name) = other {
            push_error(
                errors,
                kind.field(),
                messages::ACCOUNT_NUMBER_TAKEN_BY_N.with([name]),
            );
        }
    }
    Ok(())
}

/// A mapper for the company write's `.map_err`: a unique-index violation (another
/// process wrote the same number between [`check_free`] and the write) becomes the 422 of
/// the number's field; every other database error stays what it is.
pub fn on_taken(e: sqlx::Error) -> ApiError {
    if let sqlx::Error::Database(d) = &e {
        if d.kind() == sqlx::error::ErrorKind::UniqueViolation {
            let text = format!("{} {}", d.message(), d.constraint().unwrap_or(""));
            let kind = if text.contains("creditor_number") || text.contains("credit_number") {
                AccountKind::Credit
            } else {
                AccountKind::Debit
            };
            return ApiError::field(kind.field(), messages::ACCOUNT_NUMBER_TAKEN);
        }
    }
    ApiError::from(e)
}
