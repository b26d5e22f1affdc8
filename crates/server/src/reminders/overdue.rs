//! GET /invoices/overdue (issue 14 § API): the invoices due for dunning — live, collectible,
//! not reversed, past their due date (the server's date) with something open — oldest due
//! first, each with its open amount, days overdue, last and next dunning level and when
//! the next level is due (`docs/decisions.md` § Dunning). Paged like every list; filters
//! `company_id` (alias `customer_id`) and `level` (the next level).

use crate::http::error::ApiResult;
use crate::http::pagination::PageOf;
use crate::lists::ListQuery;
use crate::state::AppState;
use crate::store::db::{Dec, Word};
use axum::extract::State;
use chrono::NaiveDate;
use kontor_model::dunning::{level_due_on, next_level, OverdueFilter, OverdueInvoice};
use kontor_model::party::IdName;
use kontor_model::status::InvoiceStatus;

/// One overdue invoice as read: id, number, customer, title, dates, currency, gross, its
/// status and reversal (for the open-amount rule), payments in thousandths, last level
/// and last reminder date.
#[derive(sqlx_macros::FromRow)]
struct OverdueRow {
    id: i64,
    identifier: Option<String>,
    customer_id: i64,
    customer_name: Option<String>,
    title: String,
    date: NaiveDate,
    due_date: NaiveDate,
    currency: String,
    gross_total: Dec,
    status: Word<InvoiceStatus>,
    reversed: bool,
    paid_milli: i64,
    last_level: i64,
    last_reminder_on: Option<NaiveDate>,
}

/// ` WHERE …` of the overdue invoices on `today`, with `filter`'s conditions (`levels`: how
/// many levels the account has); the last level is [`LAST_LEVEL_SQL`].
fn push_where(
    qb: &mut crate::sql::Builder<'_>,
    filter: &OverdueFilter,
    today: NaiveDate,
    levels: usize,
) {
    qb.push(" WHERE i.deleted_at IS NULL AND i.reversed = FALSE AND i.reversal = FALSE AND ");
    crate::sql::rules::push_overdue(qb, today);
    if let Some(company) = filter.company_id {
        qb.push(" AND i.customer_id = ").push_bind(company);
    }
    if let Some(level) = filter.level {
        // Past the account's last level an invoice has no next level to match.
        if usize::try_from(level).map_or(true, |l| l > levels) {
            qb.push(" AND FALSE");
        }
        qb.push(" AND ")
            .push(LAST_LEVEL_SQL)
            .push(" + 1 = ")
            .push_bind(i64::from(level));
    }
}

/// SQL: the highest dunning level among invoice `i`'s reminders, 0 without any.
const LAST_LEVEL_SQL: &str =
    "COALESCE((SELECT MAX(r.dunning_level) FROM invoice_reminders r WHERE r.invoice_id = i.id), 0)";

/// How many overdue invoices have their next dunning level due on `today` or earlier (the
/// dashboard's "invoices to remind", issue 33): the rows of GET /invoices/overdue whose
/// `next_dunning_on` is not after `today`. Errors: the database's; 500 when the stored
/// dunning levels are corrupt.
pub async fn count_due(pool: &crate::sql::Db, today: NaiveDate) -> ApiResult<i64> {
    let levels = {
        let mut conn = pool.acquire().await?;
        crate::reminders::levels::load(&mut conn).await?
    };
    let mut select = crate::sql::Builder::new(format!(
        "SELECT i.due_date, {LAST_LEVEL_SQL} AS last_level, \
         (SELECT MAX(r.date) FROM invoice_reminders r WHERE r.invoice_id = i.id) AS last_reminder_on \
         FROM invoices i",
    ));
    push_where(&mut select, &OverdueFilter::default(), today, levels.len());
    let rows: Vec<(NaiveDate, i64, Option<NaiveDate>)> =
        select.build_query_as().fetch_all(pool).await?;
    let due = rows
        .into_iter()
        .filter(|(due_date, last, reminded)| {
            let last = u8::try_from(*last).unwrap_or(u8::MAX);
            next_level(last, &levels)
                .and_then(|n| level_due_on(n, &levels, *due_date, *reminded))
                .is_some_and(|on| on <= today)
        })
        .count();
    Ok(i64::try_from(due).unwrap_or(i64::MAX))
}

/// GET /invoices/overdue → one page of [`OverdueInvoice`]s, oldest due date first.
/// Errors: 400 for a malformed filter or paging parameter; 500 when the stored dunning
/// levels are corrupt.
#[utoipa::path(
    get,
    path = "/invoices/overdue",
    operation_id = "invoices_overdue",
    tag = "invoices",
    params(kontor_model::query::ListParams, OverdueFilter, kontor_model::query::CustomerIdAlias),
    responses(
        (status = 200, description = "One page of overdue invoices, oldest due date first", body = Vec<OverdueInvoice>)
    )
)]
pub async fn overdue(
    State(state): State<AppState>,
    list: ListQuery<OverdueFilter>,
) -> ApiResult<PageOf<OverdueInvoice>> {
    let today = crate::lists::summary::today();
    let levels = {
        let mut conn = state.pool.acquire().await?;
        crate::reminders::levels::load(&mut conn).await?
    };
    let mut count = crate::sql::Builder::new("SELECT COUNT(*) FROM invoices i");
    push_where(&mut count, &list.filter, today, levels.len());
    let total: i64 = count.build_query_scalar().fetch_one(&state.pool).await?;
    let mut select = crate::sql::Builder::new(format!(
        "SELECT i.id, i.identifier, i.customer_id, \
         (SELECT c.name FROM companies c WHERE c.id = i.customer_id) AS customer_name, \
         i.title, i.date, i.due_date, i.currency, i.gross_total, i.status, i.reversed, \
         {paid} AS paid_milli, {LAST_LEVEL_SQL} AS last_level, \
         (SELECT MAX(r.date) FROM invoice_reminders r WHERE r.invoice_id = i.id) AS last_reminder_on \
         FROM invoices i",
        paid = crate::sql::rules::paid_milli(),
    ));
    push_where(&mut select, &list.filter, today, levels.len());
    select
        .push(" ORDER BY i.due_date ASC, i.id ASC LIMIT ")
        .push_bind(i64::from(list.paging.per_page()))
        .push(" OFFSET ")
        .push_bind(i64::try_from(list.paging.offset()).unwrap_or(i64::MAX));
    let rows: Vec<OverdueRow> = select.build_query_as().fetch_all(&state.pool).await?;
    let items = rows
        .into_iter()
        .map(|r| {
            let open_amount = crate::lists::summary::open_from_milli(
                r.status.0,
                r.reversed,
                r.gross_total.0,
                r.paid_milli,
                &r.currency,
            );
            let last = u8::try_from(r.last_level).unwrap_or(u8::MAX);
            let next = next_level(last, &levels);
            OverdueInvoice {
                id: r.id,
                identifier: r.identifier,
                customer: IdName {
                    id: r.customer_id,
                    name: r.customer_name.unwrap_or_default(),
                },
                title: r.title,
                date: r.date,
                due_date: r.due_date,
                currency: r.currency,
                gross_total: r.gross_total.0,
                open_amount,
                days_overdue: (today - r.due_date).num_days(),
                last_dunning_level: last,
                last_reminder_on: r.last_reminder_on,
                next_dunning_level: next,
                next_dunning_on: next
                    .and_then(|n| level_due_on(n, &levels, r.due_date, r.last_reminder_on)),
            }
        })
        .collect();
    Ok(list.page(items, total))
}
