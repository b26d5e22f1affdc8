//! The recurring invoice tables (`0012_recurring_invoices.sql`): schedules with their
//! stored creation body, and their runs, turned into `kontor_model::recurring` types.

use crate::http::error::{ApiError, ApiResult};
use crate::store::db::{now, ts, StoredWord, Ts, Word};
use chrono::{Datelike, NaiveDate};
use kontor_model::invoice_input::NewInvoice;
use kontor_model::party::IdName;
use kontor_model::recurring::{is_active, Interval, RecurringInvoice, RecurringMode, RecurringRun};
use kontor_model::status::InvoiceStatus;

impl StoredWord for Interval {
    const WHAT: &'static str = "recurring interval";
    fn from_word(text: &str) -> Option<Self> {
        Interval::parse(text)
    }
}

impl StoredWord for RecurringMode {
    const WHAT: &'static str = "recurring mode";
    fn from_word(text: &str) -> Option<Self> {
        RecurringMode::parse(text)
    }
}

/// A stored schedule as the job reads it.
#[derive(Clone, Debug)]
pub struct Schedule {
    /// Schedule id.
    pub id: i64,
    /// The template's customer.
    pub customer_id: i64,
    /// The user whose key created or last changed the schedule (the invoices' internal
    /// contact unless the template names one).
    pub user_id: Option<i64>,
    /// The creation body each run starts from.
    pub template: NewInvoice,
    /// How often it bills.
    pub interval: Interval,
    /// The next run's invoice date.
    pub next_date: NaiveDate,
    /// Day of month (1–31) the run dates keep.
    pub anchor_day: u32,
    /// Last possible run date.
    pub end_date: Option<NaiveDate>,
    /// What runs do.
    pub mode: RecurringMode,
}

/// What a POST or PUT stores (checked by the handler).
pub struct Fields {
    /// The creation body, without the fields each run sets.
    pub template: NewInvoice,
    /// Interval.
    pub interval: Interval,
    /// Next run date (its day is the anchor).
    pub next_date: NaiveDate,
    /// Optional end.
    pub end_date: Option<NaiveDate>,
    /// Mode.
    pub mode: RecurringMode,
}

#[derive(sqlx_macros::FromRow)]
struct ScheduleRow {
    id: i64,
    customer_id: i64,
    customer_name: Option<String>,
    user_id: Option<i64>,
    template: String,
    repeat_interval: Word<Interval>,
    next_date: NaiveDate,
    anchor_day: i64,
    end_date: Option<NaiveDate>,
    mode: Word<RecurringMode>,
    last_run_date: Option<NaiveDate>,
    created_at: Ts,
    updated_at: Ts,
}

const COLUMNS: &str = "s.id, s.customer_id, c.name AS customer_name, s.user_id, s.template, \
    s.repeat_interval, s.next_date, s.anchor_day, s.end_date, s.mode, \
    (SELECT MAX(r.invoice_date) FROM recurring_invoice_runs r WHERE r.recurring_invoice_id = s.id) AS last_run_date, \
    s.created_at, s.updated_at";
const FROM: &str = "FROM recurring_invoices s LEFT JOIN companies c ON c.id = s.customer_id";

impl ScheduleRow {
    fn template(&self) -> ApiResult<NewInvoice> {
        serde_json::from_str(&self.template).map_err(|e| {
            ApiError::Internal(format!(
                "recurring_invoices.template of {} is corrupt: {e}",
                self.id
            ))
        })
    }

    fn schedule(&self) -> ApiResult<Schedule> {
        Ok(Schedule {
            id: self.id,
            customer_id: self.customer_id,
            user_id: self.user_id,
            template: self.template()?,
            interval: self.repeat_interval.0,
            next_date: self.next_date,
            anchor_day: u32::try_from(self.anchor_day)
                .ok()
                .filter(|d| (1..=31).contains(d))
                .ok_or_else(|| ApiError::Internal(format!("corrupt anchor_day of {}", self.id)))?,
            end_date: self.end_date,
            mode: self.mode.0,
        })
    }

    fn representation(&self, runs: Vec<RecurringRun>) -> ApiResult<RecurringInvoice> {
        let template = self.template()?;
        Ok(RecurringInvoice {
            id: self.id,
            customer: IdName {
                id: self.customer_id,
                name: self.customer_name.clone().unwrap_or_default(),
            },
            title: template.title.clone().unwrap_or_default(),
            template,
            interval: self.repeat_interval.0,
            next_date: self.next_date,
            end_date: self.end_date,
            mode: self.mode.0,
            active: is_active(self.next_date, self.end_date),
            last_run_date: self.last_run_date,
            runs,
            created_at: self.created_at.0,
            updated_at: self.updated_at.0,
        })
    }
}

#[derive(sqlx_macros::FromRow)]
struct RunRow {
    id: i64,
    period_start: NaiveDate,
    period_end: NaiveDate,
    invoice_date: NaiveDate,
    invoice_id: Option<i64>,
    invoice_identifier: Option<String>,
    status: Option<Word<InvoiceStatus>>,
    error: Option<String>,
    created_at: Ts,
}

/// The runs of schedule `id`, newest first; at most `limit` (all when `None`).
async fn runs(pool: &crate::sql::Db, id: i64, limit: Option<i64>) -> ApiResult<Vec<RecurringRun>> {
    let rows: Vec<RunRow> = crate::sql::query_as(
        "SELECT r.id, r.period_start, r.period_end, r.invoice_date, r.invoice_id, \
         i.identifier AS invoice_identifier, i.status AS status, r.error, r.created_at \
         FROM recurring_invoice_runs r \
         LEFT JOIN invoices i ON i.id = r.invoice_id AND i.deleted_at IS NULL \
         WHERE r.recurring_invoice_id = $1 ORDER BY r.invoice_date DESC, r.id DESC LIMIT $2",
    )
    .bind(id)
    .bind(limit.unwrap_or(i64::MAX))
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| RecurringRun {
            id: r.id,
            period_start: r.period_start,
            period_end: r.period_end,
            invoice_date: r.invoice_date,
            invoice_id: r.invoice_id,
            invoice_identifier: r.invoice_identifier,
            status: r.status.map(|s| s.0),
            error: r.error,
            created_at: r.created_at.0,
        })
        .collect())
}

async fn row(pool: &crate::sql::Db, id: i64) -> ApiResult<ScheduleRow> {
    crate::sql::query_as(&format!("SELECT {COLUMNS} {FROM} WHERE s.id = $1"))
        .bind(id)
        .fetch_optional(pool)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("recurring invoice {id}")))
}

/// Schedule `id` as the job reads it. Errors: 404; 500 when the row is corrupt.
pub async fn schedule(pool: &crate::sql::Db, id: i64) -> ApiResult<Schedule> {
    row(pool, id).await?.schedule()
}

/// The ids of every schedule whose next date is `today` or earlier.
pub async fn due_ids(pool: &crate::sql::Db, today: NaiveDate) -> ApiResult<Vec<i64>> {
    Ok(crate::sql::query_scalar(
        "SELECT id FROM recurring_invoices WHERE next_date <= $1 \
         AND (end_date IS NULL OR next_date <= end_date) ORDER BY id",
    )
    .bind(today)
    .fetch_all(pool)
    .await?)
}

/// Schedule `id` with all its runs. Errors: 404; 500 when the row is corrupt.
pub async fn load(pool: &crate::sql::Db, id: i64) -> ApiResult<RecurringInvoice> {
    let row = row(pool, id).await?;
    let runs = runs(pool, id, None).await?;
    row.representation(runs)
}

/// The `sort_by` fields of the list (wire name → SQL), for [`page`].
pub const SORTABLE: [(&str, &str); 4] = [
    ("next_date", "s.next_date"),
    ("created_at", "s.created_at"),
    ("updated_at", "s.updated_at"),
    ("customer", "kontor_fold(c.name)"),
];

/// Page `page` (1-based) of `per_page` schedules in `order` (an `ORDER BY` body built from
/// [`SORTABLE`]), each with its latest three runs, and the number of all schedules.
/// Errors: 400 for a page beyond counting.
pub async fn page(
    pool: &crate::sql::Db,
    page: u32,
    per_page: u32,
    order: &str,
) -> ApiResult<(Vec<RecurringInvoice>, i64)> {
    let total: i64 = crate::sql::query_scalar("SELECT COUNT(*) FROM recurring_invoices")
        .fetch_one(pool)
        .await?;
    let offset = i64::from(page.max(1) - 1)
        .checked_mul(i64::from(per_page))
        .ok_or_else(|| ApiError::BadRequest("Query parameter page is too large.".into()))?;
    let rows: Vec<ScheduleRow> = crate::sql::query_as(&format!(
        "SELECT {COLUMNS} {FROM} ORDER BY {order} LIMIT $1 OFFSET $2"
    ))
    .bind(i64::from(per_page))
    .bind(offset)
    .fetch_all(pool)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let runs = runs(pool, row.id, Some(3)).await?;
        out.push(row.representation(runs)?);
    }
    Ok((out, total))
}

fn template_text(template: &NewInvoice) -> ApiResult<String> {
    serde_json::to_string(template)
        .map_err(|e| ApiError::Internal(format!("template cannot be stored: {e}")))
}

/// Binds the eight stored columns of a schedule (customer_id, user_id, template,
/// repeat_interval, next_date, anchor_day, end_date, mode) from `Fields` onto `$query`, in
/// that order — shared by [`insert`] and [`update`]. `?` on the template's JSON text.
macro_rules! bind_fields {
    ($query:expr, $user_id:expr, $f:expr) => {
        $query
            .bind($f.template.customer_id)
            .bind($user_id)
            .bind(template_text(&$f.template)?)
            .bind($f.interval.as_str())
            .bind($f.next_date)
            .bind(i64::from($f.next_date.day()))
            .bind($f.end_date)
            .bind($f.mode.as_str())
    };
}

/// Stores a new schedule of `fields` for `user_id`; returns its id.
pub async fn insert(conn: &mut crate::sql::Tx, user_id: i64, f: &Fields) -> ApiResult<i64> {
    let t = ts(now());
    let query = crate::sql::query_scalar(
        "INSERT INTO recurring_invoices (customer_id, user_id, template, repeat_interval, next_date, \
         anchor_day, end_date, mode, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
    );
    Ok(bind_fields!(query, user_id, f)
        .bind(t)
        .bind(t)
        .fetch_one(conn)
        .await?)
}

/// Replaces schedule `id` with `fields` (the anchor becomes the new next date's day; the
/// runs stay). Errors: 404 when it does not exist.
pub async fn update(conn: &mut crate::sql::Tx, id: i64, user_id: i64, f: &Fields) -> ApiResult<()> {
    let query = crate::sql::query(
        "UPDATE recurring_invoices SET customer_id = $1, user_id = $2, template = $3, repeat_interval = $4, \
         next_date = $5, anchor_day = $6, end_date = $7, mode = $8, updated_at = $9 WHERE id = $10",
    );
    let done = bind_fields!(query, user_id, f)
        .bind(ts(now()))
        .bind(id)
        .execute(conn)
        .await?;
    if done.rows_affected() == 0 {
        return Err(ApiError::not_found(format!("recurring invoice {id}")));
    }
    Ok(())
}

/// Deletes schedule `id` and its runs (the invoices stay). Errors: 404.
pub async fn delete(pool: &crate::sql::Db, id: i64) -> ApiResult<()> {
    let mut tx = crate::store::db::begin_write(pool).await?;
    let done = crate::sql::query("DELETE FROM recurring_invoices WHERE id = $1")
        .bind(id)
        .execute(&mut tx)
        .await?;
    tx.commit().await?;
    if done.rows_affected() == 0 {
        return Err(ApiError::not_found(format!("recurring invoice {id}")));
    }
    Ok(())
}

/// Moves schedule `id` from `from` to `to` if its next date is still `from` (the first
/// write of a run's transaction: it takes the database's write lock, and a schedule
/// changed or run meanwhile is left alone). Returns whether it moved.
pub async fn advance(
    conn: &mut crate::sql::Tx,
    id: i64,
    from: NaiveDate,
    to: NaiveDate,
) -> ApiResult<bool> {
    let done = crate::sql::query(
        "UPDATE recurring_invoices SET next_date = $1 WHERE id = $2 AND next_date = $3",
    )
    .bind(to)
    .bind(id)
    .bind(from)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A run to claim: the period and invoice date, and why no invoice was made (if so).
pub struct NewRun<'a> {
    /// Schedule id.
    pub schedule_id: i64,
    /// Period start (the UNIQUE key with the schedule).
    pub period_start: NaiveDate,
    /// Period end.
    pub period_end: NaiveDate,
    /// Invoice date.
    pub invoice_date: NaiveDate,
    /// Why no invoice was created.
    pub error: Option<&'a str>,
}

/// Claims the run of `run`'s period: inserts its row unless the period already has one
/// (another process, or an earlier run before the schedule was moved back). Returns the new
/// run's id, `None` when the period was taken.
pub async fn claim(conn: &mut crate::sql::Tx, run: &NewRun<'_>) -> ApiResult<Option<i64>> {
    Ok(crate::sql::query_scalar(
        "INSERT INTO recurring_invoice_runs (recurring_invoice_id, period_start, period_end, \
         invoice_date, error, created_at) VALUES ($1, $2, $3, $4, $5, $6) \
         ON CONFLICT (recurring_invoice_id, period_start) DO NOTHING RETURNING id",
    )
    .bind(run.schedule_id)
    .bind(run.period_start)
    .bind(run.period_end)
    .bind(run.invoice_date)
    .bind(run.error)
    .bind(ts(now()))
    .fetch_optional(conn)
    .await?)
}

/// Links run `run_id` to the invoice it created.
pub async fn set_invoice(conn: &mut crate::sql::Tx, run_id: i64, invoice_id: i64) -> ApiResult<()> {
    crate::sql::query("UPDATE recurring_invoice_runs SET invoice_id = $1 WHERE id = $2")
        .bind(invoice_id)
        .bind(run_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Writes why run `run_id`'s e-mail failed.
pub async fn set_error(pool: &crate::sql::Db, run_id: i64, error: &str) -> ApiResult<()> {
    crate::sql::query("UPDATE recurring_invoice_runs SET error = $1 WHERE id = $2")
        .bind(error)
        .bind(run_id)
        .execute(pool)
        .await?;
    Ok(())
}
