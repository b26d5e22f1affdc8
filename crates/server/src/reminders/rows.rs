//! The reminders' rows (repository layer): how an `invoice_reminders` row is read, alone
//! or as part of an invoice (`invoices::repo::load`), and turned into the wire
//! [`Reminder`]. The handlers (`reminders`) and the invoice repository both read through
//! here, so neither imports the other.

use crate::http::error::{ApiError, ApiResult};
use crate::store::db::{Dec, Ts};
use chrono::NaiveDate;
use kontor_model::dunning::Reminder;

/// An invoice's reminders (`i` the invoice's alias) as one JSON value of `engine`
/// (`crate::sql::dialect`): an array of [`ReminderRow`] objects, oldest first
/// ([`of_invoice`]'s order); for reading an invoice in one statement (the invoice
/// repository's `load`).
pub fn reminders_json(engine: crate::sql::Engine) -> String {
    use crate::sql::dialect::{json_array_agg, json_object_of, json_subquery};
    let row = json_object_of(
        engine,
        "r",
        &[
            "id",
            "invoice_id",
            "date",
            "due_date",
            "fee",
            "text",
            "dunning_level",
            "open_amount",
            "days_overdue",
            "interest_rate",
            "interest",
            "flat_fee",
            "sent_at",
            "created_at",
            "updated_at",
        ],
    );
    json_subquery(
        engine,
        &format!(
            "(SELECT {} FROM invoice_reminders r WHERE r.invoice_id = i.id)",
            json_array_agg(engine, &row, "r.date, r.id")
        ),
    )
}

/// One `invoice_reminders` row, read by sqlx or from its JSON form ([`reminders_json`]).
#[derive(sqlx_macros::FromRow, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReminderRow {
    id: i64,
    invoice_id: i64,
    date: NaiveDate,
    due_date: NaiveDate,
    fee: Dec,
    text: String,
    dunning_level: i64,
    open_amount: Option<Dec>,
    days_overdue: i64,
    interest_rate: Option<Dec>,
    interest: Dec,
    flat_fee: Dec,
    sent_at: Option<Ts>,
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
            // Levels are 1–9 (`dunning::MAX_LEVELS`); migration 0020 numbered older ones.
            dunning_level: u8::try_from(r.dunning_level).unwrap_or(u8::MAX),
            open_amount: r.open_amount.map(|d| d.0),
            days_overdue: r.days_overdue,
            interest_rate: r.interest_rate.map(|d| d.0),
            interest: r.interest.0,
            flat_fee: r.flat_fee.0,
            sent_on: r.sent_at.map(|t| t.0.date_naive()),
            created_on: r.created_at.0.date_naive(),
            updated_on: r.updated_at.0.date_naive(),
        }
    }
}

/// Reminder `id` of a live invoice. Errors: 404 for an unknown reminder or one of a
/// deleted invoice.
pub async fn load(pool: &crate::sql::Db, id: i64) -> ApiResult<Reminder> {
    crate::sql::query_as::<ReminderRow>("SELECT r.* FROM invoice_reminders r JOIN invoices i ON i.id = r.invoice_id WHERE r.id = $1 AND i.deleted_at IS NULL")
        .bind(id)
        .fetch_optional(pool)
        .await?
        .map(Reminder::from)
        .ok_or_else(|| ApiError::not_found(format!("reminder {id}")))
}
