//! `GET /audit_events` (admin only, issue 15 § 4): the audit trail of [`crate::proof::audit`],
//! newest first, paged like every list, filtered by [`AuditFilter`] — `record_type` with
//! `record_id` (a record's own events and, for an invoice, offer or purchase, those of
//! its positions, payments, reminders and attachments), `user_id`, `from`/`to` (days,
//! inclusive, UTC). Errors: 400 naming a malformed parameter, 422 on `record_type` for an
//! unknown type or on `to` before `from`, 401/403.

use crate::http::error::{ApiError, ApiResult};
use crate::http::pagination::PageOf;
use crate::lists::{fetch_page, ListQuery};
use crate::state::AppState;
use axum::extract::State;
use kontor_model::audit::{AuditChange, AuditEvent, AuditFilter, RECORD_TYPES};
use kontor_model::error::messages;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes `/audit_events`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list))
}

#[derive(sqlx_macros::FromRow)]
struct Row {
    id: i64,
    at: crate::store::db::Ts,
    user_id: Option<i64>,
    user_name: Option<String>,
    key_id: Option<i64>,
    action: String,
    record_type: String,
    record_id: i64,
    parent_type: Option<String>,
    parent_id: Option<i64>,
    changes: String,
    hash: Option<String>,
}

impl From<Row> for AuditEvent {
    fn from(r: Row) -> Self {
        AuditEvent {
            id: r.id,
            at: r.at.to_string(),
            user_id: r.user_id,
            user_name: r.user_name,
            key_id: r.key_id,
            action: r.action,
            record_type: r.record_type,
            record_id: r.record_id,
            parent_type: r.parent_type,
            parent_id: r.parent_id,
            // Written by the triggers as a JSON array; never edited.
            changes: serde_json::from_str::<Vec<AuditChange>>(&r.changes).unwrap_or_default(),
            hash: r.hash,
        }
    }
}

const COLUMNS: &str =
    "a.id, a.at, a.user_id, COALESCE(NULLIF(trim(u.firstname || ' ' || u.lastname), ''), u.email) AS user_name, \
    a.key_id, a.action, a.record_type, a.record_id, a.parent_type, a.parent_id, a.changes, a.hash";
const FROM: &str = "FROM audit_events a LEFT JOIN users u ON u.id = a.user_id";

/// The audit trail, newest first (admins only).
///
/// A record's events (with `record_type` and `record_id`: also those of its positions,
/// payments, reminders and attachments), a user's, or a period's.
#[utoipa::path(
    get,
    path = "/audit_events",
    operation_id = "audit_events_list",
    tag = "audit_events",
    params(kontor_model::query::ListParams, AuditFilter),
    responses(
        (status = 200, description = "One page of audit events, newest first", body = Vec<AuditEvent>)
    )
)]
async fn list(
    State(state): State<AppState>,
    list: ListQuery<AuditFilter>,
) -> ApiResult<PageOf<AuditEvent>> {
    let (filter, paging) = (&list.filter, &list.paging);
    let mut errors = kontor_model::error::FieldErrors::new();
    if let Some(t) = &filter.record_type {
        if !RECORD_TYPES.contains(&t.as_str()) {
            kontor_model::error::push_error(
                &mut errors,
                "record_type",
                messages::MUST_BE_ONE_OF_N.with([RECORD_TYPES.join(", ")]),
            );
        }
    }
    if let (Some(from), Some(to)) = (filter.from, filter.to) {
        if to < from {
            kontor_model::error::push_error(&mut errors, "to", messages::MUST_NOT_BE_BEFORE_FROM);
        }
    }
    ApiError::check(errors)?;
    let push_where = |qb: &mut crate::sql::Builder<'_>| {
        qb.push(" WHERE TRUE");
        match (&filter.record_type, filter.record_id) {
            (Some(t), Some(id)) => {
                qb.push(" AND ((a.record_type = ")
                    .push_bind(t.clone())
                    .push(" AND a.record_id = ")
                    .push_bind(id)
                    .push(") OR (a.parent_type = ")
                    .push_bind(t.clone())
                    .push(" AND a.parent_id = ")
                    .push_bind(id)
                    .push("))");
            }
            (Some(t), None) => {
                qb.push(" AND a.record_type = ").push_bind(t.clone());
            }
            (None, Some(id)) => {
                qb.push(" AND a.record_id = ").push_bind(id);
            }
            (None, None) => {}
        }
        if let Some(user) = filter.user_id {
            qb.push(" AND a.user_id = ").push_bind(user);
        }
        if let Some(from) = filter.from {
            qb.push(" AND a.at >= ").push_bind(crate::store::db::Ts(
                from.and_time(chrono::NaiveTime::MIN).and_utc(),
            ));
        }
        if let Some(to) = filter.to {
            qb.push(" AND a.at <= ").push_bind(crate::store::db::Ts(
                to.and_hms_opt(23, 59, 59).expect("a valid time").and_utc(),
            ));
        }
    };
    let (items, total) = fetch_page::<Row, AuditEvent>(
        &state.pool,
        COLUMNS,
        FROM,
        push_where,
        ("a.id DESC", None),
        paging,
    )
    .await?;
    Ok(list.page(items, total))
}
