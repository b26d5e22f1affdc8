//! Timeline events (issue 11 § Timeline, `docs/decisions.md` § Timeline (issue 11)):
//! [`record`] / [`record_as`] write one event inside the caller's transaction, so an event
//! exists exactly when its change was committed; `GET /{invoices,offers,purchases}/{id}/events`
//! answers a record's events oldest first (`kontor_model::event::Event`).

use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::IdPath;
use crate::state::AppState;
use crate::store::db::{now, ts, Ts};
use axum::extract::State;
use axum::Json;
use kontor_model::event::{Event, EventKind, SentData, SubjectType};
use kontor_model::party::IdName;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The record an event belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// An invoice by id.
    Invoice(i64),
    /// An offer by id.
    Offer(i64),
    /// A purchase by id.
    Purchase(i64),
}

impl Subject {
    /// The stored type word and the id.
    pub fn parts(self) -> (SubjectType, i64) {
        match self {
            Subject::Invoice(id) => (SubjectType::Invoice, id),
            Subject::Offer(id) => (SubjectType::Offer, id),
            Subject::Purchase(id) => (SubjectType::Purchase, id),
        }
    }
}

/// Records `kind` with `data` (a JSON object; `null` is stored as `{}`) on `subject`, by
/// no user (the server's own jobs), on `conn` — pass `&mut tx` to record inside the
/// transaction of the change. Errors: the insert fails (the caller's transaction then
/// fails with it).
pub async fn record(
    conn: &mut crate::sql::Tx,
    subject: Subject,
    kind: EventKind,
    data: serde_json::Value,
) -> ApiResult<i64> {
    record_as(conn, None, subject, kind, data).await
}

/// [`record_as`] of the `sent` event: `subject` was e-mailed on behalf of `user_id`, `data`
/// names the recipients, subject and Message-ID. Errors: 500 on database failure.
pub async fn record_sent(
    conn: &mut crate::sql::Tx,
    user_id: Option<i64>,
    subject: Subject,
    data: &SentData,
) -> ApiResult<i64> {
    let data = kontor_model::event::to_data(data);
    record_as(conn, user_id, subject, EventKind::Sent, data).await
}

/// [`record`] on behalf of `user_id` (the caller's user).
pub async fn record_as(
    conn: &mut crate::sql::Tx,
    user_id: Option<i64>,
    subject: Subject,
    kind: EventKind,
    data: serde_json::Value,
) -> ApiResult<i64> {
    let (subject_type, subject_id) = subject.parts();
    let id: i64 = crate::sql::query_scalar(
        "INSERT INTO events (subject_type, subject_id, kind, at, user_id, data) \
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
    )
    .bind(subject_type.as_str())
    .bind(subject_id)
    .bind(kind.as_str())
    .bind(ts(now()))
    .bind(user_id)
    .bind(stored_data(&data))
    .fetch_one(&mut *conn)
    .await?;
    Ok(id)
}

/// [`record_as`] of several events at once, in one INSERT (a creation's `created` and
/// `finalized`, issue 35: one statement fewer inside the write's turn). `events` are
/// `(subject, kind, data)`, stored in this order (their ids grow in it, so the timeline
/// reads them so); `data` `null` is stored as `{}`. Nothing is written for an empty
/// slice. Errors: the insert fails (the caller's transaction then fails with it).
pub async fn record_all_as(
    conn: &mut crate::sql::Tx,
    user_id: Option<i64>,
    events: &[(Subject, EventKind, serde_json::Value)],
) -> ApiResult<()> {
    if events.is_empty() {
        return Ok(());
    }
    let at = ts(now());
    let mut qb = crate::sql::Builder::new(
        "INSERT INTO events (subject_type, subject_id, kind, at, user_id, data) ",
    );
    qb.push_values(events, |mut row, (subject, kind, data)| {
        let (subject_type, subject_id) = subject.parts();
        row.push_bind(subject_type.as_str())
            .push_bind(subject_id)
            .push_bind(kind.as_str())
            .push_bind(at)
            .push_bind(user_id)
            .push_bind(stored_data(data));
    });
    qb.build().execute(&mut *conn).await?;
    Ok(())
}

/// An event's `data` as stored: its JSON text, `null` as `{}`.
fn stored_data(data: &serde_json::Value) -> String {
    if data.is_null() {
        "{}".to_string()
    } else {
        data.to_string()
    }
}

/// Records that invoice `invoice_id` was finalized under number `identifier`
/// ([`EventKind::Finalized`], data `kontor_model::event::FinalizedData`), on behalf of
/// `user_id` (`None`: the server's own jobs), inside the caller's transaction.
pub async fn record_finalized(
    conn: &mut crate::sql::Tx,
    user_id: Option<i64>,
    invoice_id: i64,
    identifier: String,
) -> ApiResult<i64> {
    let data = kontor_model::event::to_data(&kontor_model::event::FinalizedData { identifier });
    record_as(
        conn,
        user_id,
        Subject::Invoice(invoice_id),
        EventKind::Finalized,
        data,
    )
    .await
}

/// Deletes every event of `subject` (a record that is deleted for good, so that a later
/// record with the same id starts with an empty timeline). Errors: database failures.
pub async fn forget(conn: &mut crate::sql::Tx, subject: Subject) -> ApiResult<()> {
    let (subject_type, subject_id) = subject.parts();
    crate::sql::query("DELETE FROM events WHERE subject_type = $1 AND subject_id = $2")
        .bind(subject_type.as_str())
        .bind(subject_id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

#[derive(sqlx_macros::FromRow)]
struct EventRow {
    id: i64,
    kind: String,
    at: Ts,
    data: String,
    user_id: Option<i64>,
    firstname: Option<String>,
    lastname: Option<String>,
}

impl EventRow {
    fn into_event(self) -> ApiResult<Event> {
        let kind = EventKind::parse(&self.kind)
            .ok_or_else(|| ApiError::Internal(format!("corrupt event kind {:?}", self.kind)))?;
        let data = serde_json::from_str(&self.data)
            .map_err(|e| ApiError::Internal(format!("corrupt event data {}: {e}", self.id)))?;
        let user = self.user_id.map(|id| IdName {
            id,
            name: format!(
                "{} {}",
                self.firstname.unwrap_or_default(),
                self.lastname.unwrap_or_default()
            )
            .trim()
            .to_string(),
        });
        Ok(Event {
            id: self.id,
            kind,
            at: self.at.0,
            user,
            data,
        })
    }
}

/// The events of `subject`, oldest first. Errors: database failures, corrupt rows (500).
pub async fn list(pool: &crate::sql::Db, subject: Subject) -> ApiResult<Vec<Event>> {
    let (subject_type, subject_id) = subject.parts();
    let rows: Vec<EventRow> = crate::sql::query_as(
        "SELECT e.id, e.kind, e.at, e.data, e.user_id, u.firstname, u.lastname \
         FROM events e LEFT JOIN users u ON u.id = e.user_id \
         WHERE e.subject_type = $1 AND e.subject_id = $2 ORDER BY e.id",
    )
    .bind(subject_type.as_str())
    .bind(subject_id)
    .fetch_all(pool)
    .await?;
    rows.into_iter().map(EventRow::into_event).collect()
}

/// Whether `subject` exists (and, for invoices, is not deleted).
async fn exists(pool: &crate::sql::Db, subject: Subject) -> ApiResult<bool> {
    let sql = match subject {
        Subject::Invoice(_) => "SELECT 1 FROM invoices WHERE id = $1 AND deleted_at IS NULL",
        Subject::Offer(_) => "SELECT 1 FROM offers WHERE id = $1",
        Subject::Purchase(_) => "SELECT 1 FROM purchases WHERE id = $1",
    };
    let found: Option<i32> = crate::sql::query_scalar(sql)
        .bind(subject.parts().1)
        .fetch_optional(pool)
        .await?;
    Ok(found.is_some())
}

/// The answer of `GET /{invoices,offers,purchases}/{id}/events`.
type Timeline = ApiResult<Json<Vec<Event>>>;

async fn answer(pool: &crate::sql::Db, subject: Subject) -> Timeline {
    if !exists(pool, subject).await? {
        let (kind, id) = subject.parts();
        return Err(ApiError::not_found(format!("{} {id}", kind.as_str())));
    }
    Ok(Json(list(pool, subject).await?))
}

/// Defines the handler `$name` of `GET $path`: 200 with the events of the record the
/// path's id names (`Subject::$subject`), oldest first; 404 when there is none. `$doc` is
/// its description, `$answer` the 200 answer's.
macro_rules! events_route {
    ($name:ident, $subject:ident, $path:literal, $operation:literal, $answer:literal, $doc:literal) => {
        #[doc = $doc]
        #[utoipa::path(get, path = $path, operation_id = $operation, tag = "events", params(IdPath), responses((status = 200, description = $answer, body = Vec<Event>)))]
        pub async fn $name(State(state): State<AppState>, IdPath(id): IdPath) -> Timeline {
            answer(&state.pool, Subject::$subject(id)).await
        }
    };
}

events_route! {
    invoice_events, Invoice, "/invoices/{id}/events", "invoices_events",
    "The invoice's events, oldest first",
    " GET /invoices/{id}/events → 200 with the invoice's events, oldest first. Errors: 404."
}
events_route! {
    offer_events, Offer, "/offers/{id}/events", "offers_events",
    "The offer's events, oldest first",
    " GET /offers/{id}/events → 200 with the offer's events, oldest first. Errors: 404."
}
events_route! {
    purchase_events, Purchase, "/purchases/{id}/events", "purchases_events",
    "The purchase's events, oldest first",
    " GET /purchases/{id}/events → 200 with the purchase's events, oldest first. Errors: 404."
}

/// Routes `/invoices/{id}/events`, `/offers/{id}/events`, `/purchases/{id}/events`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(invoice_events))
        .routes(routes!(offer_events))
        .routes(routes!(purchase_events))
}
