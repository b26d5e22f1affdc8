//! `/invoice_reminders`: payment reminders (dunning) of an invoice (`decisions.md`
//! § Supporting resources). List filtered by `invoice_id`.

use crate::auth::Caller;
use crate::db::{date_text, now, ts, Dec, Ts};
use crate::error::{ApiError, ApiResult};
use crate::events::{self, Subject};
use crate::extract::{IdPath, JsonBody};
use crate::listing::{fetch_page, order_by, push_global, ListQuery};
use crate::pagination::PageOf;
use crate::state::AppState;
use axum::extract::State;
use axum::routing::get;
use axum::{Extension, Json, Router};
use chrono::NaiveDate;
use kontor_model::event::{to_data, EventKind, ReminderData};
use kontor_model::payment::{NewReminder, Reminder};
use kontor_model::payment_rules::{reminder_refusal, validate_reminder};
use kontor_model::query::one;
use kontor_model::status::InvoiceStatus;
use serde::Deserialize;
use sqlx::{QueryBuilder, Sqlite, SqlitePool};

/// Routes `/invoice_reminders` and `/invoice_reminders/{id}`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/invoice_reminders", get(list).post(create))
        .route("/invoice_reminders/{id}", get(get_one))
}

/// An invoice's reminders (`i` the invoice's alias) as SQLite writes them in one value: a
/// JSON array of [`ReminderRow`] objects, oldest first ([`of_invoice`]'s order); for
/// reading an invoice in one statement ([`crate::invoices::repo::load`]).
pub const REMINDERS_JSON: &str = "(SELECT json_group_array(json_object('id', r.id, 'invoice_id', r.invoice_id, \
     'date', r.date, 'due_date', r.due_date, 'fee', r.fee, 'text', r.text, \
     'created_at', r.created_at, 'updated_at', r.updated_at) ORDER BY r.date, r.id) \
     FROM invoice_reminders r WHERE r.invoice_id = i.id)";

/// One `invoice_reminders` row, read by sqlx or from its JSON form ([`REMINDERS_JSON`]).
#[derive(sqlx::FromRow, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReminderRow {
    id: i64,
    invoice_id: i64,
    date: NaiveDate,
    due_date: NaiveDate,
    fee: Dec,
    text: String,
    created_at: Ts,
    updated_at: Ts,
}

impl From<ReminderRow> for Reminder {
    fn from(r: ReminderRow) -> Self {
        Reminder {
            id: r.id,
            invoice_id: r.invoice_id,
            date: r.date,
            due_date: r.due_date,
            fee: r.fee.0,
            text: r.text,
            created_on: r.created_at.0.date_naive(),
            updated_on: r.updated_at.0.date_naive(),
        }
    }
}

async fn load(pool: &SqlitePool, id: i64) -> ApiResult<Reminder> {
    sqlx::query_as::<_, ReminderRow>("SELECT r.* FROM invoice_reminders r JOIN invoices i ON i.id = r.invoice_id WHERE r.id = ? AND i.deleted_at IS NULL")
        .bind(id)
        .fetch_optional(pool)
        .await?
        .map(Reminder::from)
        .ok_or_else(|| ApiError::not_found(format!("reminder {id}")))
}

/// `GET /invoice_reminders` filters: `invoice_id`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ReminderQuery {
    #[serde(deserialize_with = "one")]
    invoice_id: Option<i64>,
}

async fn list(
    State(state): State<AppState>,
    list: ListQuery<ReminderQuery>,
) -> ApiResult<PageOf<Reminder>> {
    let ListQuery {
        filter,
        paging,
        global,
        url,
    } = list;
    let invoice_id = filter.invoice_id;
    let order = order_by(
        paging.sort_by.as_deref(),
        &[
            ("date", "r.date"),
            ("due_date", "r.due_date"),
            ("created_at", "r.created_at"),
        ],
        "r.date DESC, r.id DESC",
        "r.id",
    )?;
    let push_where = |qb: &mut QueryBuilder<'_, Sqlite>| {
        qb.push(" FROM invoice_reminders r JOIN invoices i ON i.id = r.invoice_id WHERE i.deleted_at IS NULL");
        if let Some(id) = invoice_id {
            qb.push(" AND r.invoice_id = ").push_bind(id);
        }
        push_global(qb, &global, "r", false);
    };
    let (items, total) =
        fetch_page::<ReminderRow, Reminder>(&state.pool, "r.*", "", push_where, &order, &paging)
            .await?;
    Ok(PageOf {
        items,
        page: paging.page(),
        per_page: paging.per_page(),
        total,
        url,
    })
}

async fn get_one(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<Json<Reminder>> {
    load(&state.pool, id).await.map(Json)
}

/// POST /invoice_reminders → 200 with the reminder (a reminder changes neither status nor
/// lock, [`kontor_model::effects::after_reminder`]). Errors: 422 naming `invoice_id`
/// (missing, unknown, a draft, paid, reversed or a reversal: the model's
/// [`reminder_refusal`]), `date`, `due_date` (missing or before the date) or `fee`
/// (negative or more places than the currency's minor unit).
async fn create(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
    JsonBody(body): JsonBody<NewReminder>,
) -> ApiResult<Json<Reminder>> {
    let invoice_id = body
        .invoice_id
        .ok_or_else(|| ApiError::field("invoice_id", "is required"))?;
    let row: Option<(String, String, bool, bool)> = sqlx::query_as(
        "SELECT status, currency, reversed, reversal FROM invoices WHERE id = ? AND deleted_at IS NULL",
    )
    .bind(invoice_id)
    .fetch_optional(&state.pool)
    .await?;
    let Some((status, currency, reversed, reversal)) = row else {
        return Err(ApiError::field("invoice_id", "does not exist"));
    };
    let status = InvoiceStatus::parse(&status)
        .ok_or_else(|| ApiError::Internal(format!("unknown stored status {status}")))?;
    if let Some(message) = reminder_refusal(status, reversed, reversal) {
        return Err(ApiError::field("invoice_id", message));
    }
    ApiError::check(validate_reminder(
        body.date,
        body.due_date,
        body.fee,
        &currency,
    ))?;
    let _guard = state.write_lock.lock().await;
    let t = ts(now());
    let mut tx = crate::db::begin_write(&state.pool).await?;
    let id: i64 = sqlx::query_scalar("INSERT INTO invoice_reminders (invoice_id, date, due_date, fee, text, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id")
        .bind(invoice_id)
        .bind(body.date.map(date_text))
        .bind(body.due_date.map(date_text))
        .bind(body.fee.unwrap_or_default().to_string())
        .bind(crate::sanitize::html(body.text.as_deref().unwrap_or("")))
        .bind(&t)
        .bind(&t)
        .fetch_one(&mut *tx)
        .await?;
    let data = ReminderData {
        reminder_id: id,
        fee: body.fee.unwrap_or_default(),
    };
    let subject = Subject::Invoice(invoice_id);
    let user = Some(caller.user_id);
    events::record_as(&mut tx, user, subject, EventKind::Reminder, to_data(&data)).await?;
    tx.commit().await?;
    load(&state.pool, id).await.map(Json)
}
