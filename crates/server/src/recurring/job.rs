//! The recurring invoice job (issue 11 contract § Recurring invoices; `docs/decisions.md`
//! § Recurring invoices (issue 11)): at server start ([`run_due`] from `crate::bind`),
//! every hour ([`spawn_hourly`] from `crate::run`) and right after a schedule is created or
//! changed with a next date today or earlier, it creates every due run — each missed
//! period once.
//!
//! Exactly once per period, also with two processes on one database file: a run's
//! transaction first moves the schedule's `next_date` on only if it still is the run's
//! date (that write takes SQLite's write lock; a second process waits and then finds the
//! date moved), then claims the `(schedule, period_start)` row (UNIQUE) and inserts the
//! invoice through the invoice creation path ([`crate::invoices::insert_prepared`]) — all
//! committed together or not at all. E-mails (`mode: send`) go out after the commit; a
//! failed send keeps the invoice and writes the run's `error`.

use super::repo::{self, NewRun, Schedule};
use crate::access::auth::Caller;
use crate::http::error::{ApiError, ApiResult};
use crate::invoices::{self, PreparedInvoice};
use crate::state::AppState;
use chrono::NaiveDate;
use kontor_model::edit::copy_due_date;
use kontor_model::email::SendEmail;
use kontor_model::error::messages;
use kontor_model::event::CreatedData;
use kontor_model::recurring::{
    advance, due_dates, email_subject, email_text, invoice_body, period_of, Period, RecurringMode,
};
use std::time::Duration;

/// At most this many runs per schedule and pass (a schedule dated decades back catches up
/// over several passes).
pub const RUNS_PER_PASS: usize = 120;

/// How often the job runs besides start and schedule changes.
pub const EVERY: Duration = Duration::from_secs(3600);

/// Today in the server's local time zone (the job's time source).
pub fn today() -> NaiveDate {
    chrono::Local::now().date_naive()
}

/// Runs every schedule due today; failures are logged per schedule (a database failure
/// leaves the period unclaimed for the next pass).
pub async fn run_due(state: &AppState) {
    let today = today();
    let ids = match repo::due_ids(&state.pool, today).await {
        Ok(ids) => ids,
        Err(e) => {
            tracing::warn!(error = ?e, "recurring invoices: cannot read the due schedules");
            return;
        }
    };
    for id in ids {
        if let Err(e) = run_schedule(state, id, today).await {
            tracing::warn!(error = ?e, schedule = id, "recurring invoice run failed");
        }
    }
}

/// The hourly job; dropping it stops it (the server's run loop holds it).
pub struct Hourly(tokio::task::JoinHandle<()>);

impl Drop for Hourly {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Starts [`run_due`] every [`EVERY`], the first time one interval from now (the start's
/// pass ran in `crate::bind`).
pub fn spawn_hourly(state: AppState) -> Hourly {
    Hourly(tokio::spawn(async move {
        let start = tokio::time::Instant::now() + EVERY;
        let mut ticker = tokio::time::interval_at(start, EVERY);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticker.tick().await;
            run_due(&state).await;
        }
    }))
}

/// Whether `e` is about the schedule's content (recorded on the run, the period is
/// skipped) rather than a passing failure (the period stays due for the next pass).
fn is_permanent(e: &ApiError) -> bool {
    matches!(
        e,
        ApiError::Invalid(..)
            | ApiError::Refused(_)
            | ApiError::NotFound(_)
            | ApiError::BadRequest(_)
    )
}

/// The sentence a run's `error` holds for `e`.
fn describe(e: &ApiError) -> String {
    match e {
        ApiError::Invalid(message, fields) => {
            let named: Vec<String> = fields
                .iter()
                .map(|(f, m)| {
                    let texts: Vec<&str> = m.iter().map(|m| m.english()).collect();
                    format!("{f}: {}", texts.join(", "))
                })
                .collect();
            if named.is_empty() {
                message.clone()
            } else {
                format!("The invoice could not be created: {}.", named.join("; "))
            }
        }
        ApiError::Refused(m) | ApiError::Forbidden(m) => m.to_string(),
        ApiError::NotFound(m) | ApiError::BadRequest(m) | ApiError::BadGateway(m) => m.clone(),
        _ => "An internal error occurred; see the server log.".into(),
    }
}

/// The invoice of `s`'s run on `date` for `period`, checked and resolved by the invoice
/// creation path (due after the customer's payment term, else the account's default;
/// placeholders in the customer's language).
async fn prepare(
    state: &AppState,
    s: &Schedule,
    date: NaiveDate,
    period: Period,
) -> ApiResult<PreparedInvoice> {
    let customer = crate::master_data::companies::find(&state.pool, s.customer_id).await?;
    let settings = crate::account::repo::load(&state.pool).await?;
    let due = copy_due_date(
        date,
        customer.as_ref().and_then(|c| c.payment_term_days),
        settings.account.default_invoice_due_days,
    )
    .ok_or_else(|| ApiError::field("due_date", messages::DOES_NOT_FIT))?;
    let language = customer.map(|c| c.language).unwrap_or_default();
    let body = invoice_body(&s.template, date, due, period, s.interval, s.mode, language);
    let caller = Caller {
        key_id: 0,
        user_id: s.user_id.unwrap_or(1),
        uuid: String::new(),
        name: "recurring invoices".into(),
        read_only: false,
    };
    invoices::prepare_invoice(state, &caller, body).await
}

/// E-mails invoice `invoice_id` of run `run_id` to its default recipients in the
/// customer's language; a failure is written on the run.
async fn send(state: &AppState, run_id: i64, invoice_id: i64) {
    let result = async {
        let invoice = invoices::repo::load(&state.pool, invoice_id).await?;
        let language = crate::master_data::companies::find(&state.pool, invoice.customer_id)
            .await?
            .map(|c| c.language)
            .unwrap_or_default();
        let settings = crate::account::repo::load(&state.pool).await?;
        let identifier = invoice.identifier.clone().unwrap_or_default();
        let body = SendEmail {
            subject: Some(email_subject(&identifier, language)),
            text: Some(email_text(
                &identifier,
                invoice.date,
                invoice.due_date,
                &settings.account.name,
                language,
            )),
            ..Default::default()
        };
        invoices::send_invoice(state, invoice_id, &body, None).await
    }
    .await;
    if let Err(e) = result {
        tracing::warn!(error = ?e, run = run_id, "recurring invoice e-mail failed");
        if let Err(e) = repo::set_error(&state.pool, run_id, &describe(&e)).await {
            tracing::warn!(error = ?e, run = run_id, "cannot record the e-mail failure");
        }
    }
}

/// Creates every run of schedule `id` due on `today` (see the module docs); returns how
/// many invoices this call created. A schedule that no longer exists has nothing due.
/// Errors: database failures (the current period stays due).
pub async fn run_schedule(state: &AppState, id: i64, today: NaiveDate) -> ApiResult<usize> {
    let mut made = 0;
    for _ in 0..RUNS_PER_PASS {
        let s = match repo::schedule(&state.pool, id).await {
            Err(ApiError::NotFound(_)) => break,
            other => other?,
        };
        let Some(&date) =
            due_dates(s.next_date, s.interval, s.anchor_day, s.end_date, today, 1).first()
        else {
            break;
        };
        let period = period_of(s.interval, date)
            .ok_or_else(|| ApiError::Internal(format!("no period for {date}")))?;
        let next = advance(date, s.interval, s.anchor_day)
            .ok_or_else(|| ApiError::Internal(format!("no run date after {date}")))?;
        let (prepared, error) = match prepare(state, &s, date, period).await {
            Ok(p) => (Some(p), None),
            Err(e) if is_permanent(&e) => (None, Some(describe(&e))),
            Err(e) => return Err(e),
        };
        let created = {
            let _guard = state.write_lock.lock().await;
            let mut tx = crate::store::db::begin_write(&state.pool).await?;
            if !repo::advance(&mut tx, id, date, next).await? {
                // Changed or run meanwhile (here or in another process): read it again.
                continue;
            }
            let run = NewRun {
                schedule_id: id,
                period_start: period.start,
                period_end: period.end,
                invoice_date: date,
                error: error.as_deref(),
            };
            let mut created = None;
            if let Some(run_id) = repo::claim(&mut tx, &run).await? {
                if let Some(p) = &prepared {
                    let origin = CreatedData {
                        recurring_invoice_id: Some(id),
                        ..Default::default()
                    };
                    let invoice_id = invoices::insert_prepared(&mut tx, None, p, origin).await?;
                    repo::set_invoice(&mut tx, run_id, invoice_id).await?;
                    created = Some((run_id, invoice_id));
                }
            }
            tx.commit().await?;
            created
        };
        if let Some((run_id, invoice_id)) = created {
            made += 1;
            if s.mode == RecurringMode::Send {
                send(state, run_id, invoice_id).await;
            }
        }
    }
    Ok(made)
}
