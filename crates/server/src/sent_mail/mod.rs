//! The sent-mail record (issue 33 § Sent mail; `docs/decisions.md` § Sent mail): every
//! message Kontor sends or puts in the outbox — invoices, offers, reminders, order
//! confirmations, invitations, password links, the test e-mail — is one row of `emails`,
//! written by [`crate::work::mail::send_with_id`] after the hand-over, also when it failed.
//! `GET /emails` lists them (filters `state`, `document_type` with `document_id`),
//! `POST /emails/{id}/resend` sends a kept message again through today's settings.

use crate::access::auth::Caller;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::IdPath;
use crate::http::pagination::PageOf;
use crate::lists::{ListQuery, Listing};
use crate::state::AppState;
use crate::store::db::{now, ts, Ts};
use crate::store::storage::Area;
use crate::work::mail::Recipients;
use record::{write_record, Message, Record};

pub mod record;
use axum::extract::State;
use axum::{Extension, Json};
use kontor_model::email::{EmailRecord, MailDocument, MailDocumentType, MailState, MailTransport};
use kontor_model::query::one;
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes `/emails`, `/emails/{id}` and `/emails/{id}/resend`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(get_one))
        .routes(routes!(resend))
}

/// The document's number: the invoice's (invoice, reminder) or the offer's (offer, order
/// confirmation).
const COLUMNS: &str = "e.id, e.at, e.to_addresses, e.cc_addresses, e.subject, e.document_type, \
     e.document_id, e.transport, e.state, e.error, e.message_key, e.resent_email_id, \
     CASE WHEN e.document_type IN ('invoice', 'reminder') THEN \
       (SELECT i.identifier FROM invoices i WHERE i.id = e.document_id) \
     WHEN e.document_type IN ('offer', 'order_confirmation') THEN \
       (SELECT o.identifier FROM offers o WHERE o.id = e.document_id) END AS document_identifier";
const FROM: &str = "FROM emails e";

#[derive(sqlx_macros::FromRow)]
struct EmailRow {
    id: i64,
    at: Ts,
    to_addresses: String,
    cc_addresses: String,
    subject: String,
    document_type: Option<String>,
    document_id: Option<i64>,
    transport: String,
    state: String,
    error: Option<String>,
    message_key: Option<String>,
    resent_email_id: Option<i64>,
    document_identifier: Option<String>,
}

impl From<EmailRow> for EmailRecord {
    fn from(r: EmailRow) -> Self {
        let list = |text: &str| serde_json::from_str::<Vec<String>>(text).unwrap_or_default();
        EmailRecord {
            id: r.id,
            at: r.at.0,
            to: list(&r.to_addresses),
            cc: list(&r.cc_addresses),
            subject: r.subject,
            document: match (
                r.document_type.as_deref().and_then(MailDocumentType::parse),
                r.document_id,
            ) {
                (Some(kind), Some(id)) => Some(MailDocument {
                    kind,
                    id,
                    identifier: r.document_identifier,
                }),
                _ => None,
            },
            transport: MailTransport::parse(&r.transport).unwrap_or(MailTransport::Outbox),
            state: MailState::parse(&r.state).unwrap_or(MailState::Failed),
            error: r.error,
            resendable: r.message_key.is_some(),
            resent_email_id: r.resent_email_id,
        }
    }
}

/// `GET /emails` filters.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
struct EmailQuery {
    /// `sent`, `queued` or `failed`; else 400.
    #[serde(deserialize_with = "one")]
    state: Option<MailState>,
    /// `invoice`, `offer`, `reminder`, `order_confirmation`; else 400.
    #[serde(deserialize_with = "one")]
    document_type: Option<MailDocumentType>,
    /// With `document_type`: the invoice's or offer's id. `document_type=invoice` also
    /// lists the invoice's reminders, `offer` its order confirmations.
    #[serde(deserialize_with = "one")]
    document_id: Option<i64>,
    /// `true`: only failed messages not sent again since (the dashboard's to-do).
    #[serde(deserialize_with = "one")]
    open: Option<bool>,
}

/// The document types `document_type=kind` lists: an invoice's page shows its reminders,
/// an offer's its order confirmations.
fn listed_types(kind: MailDocumentType) -> &'static [&'static str] {
    match kind {
        MailDocumentType::Invoice => &["invoice", "reminder"],
        MailDocumentType::Reminder => &["reminder"],
        MailDocumentType::Offer => &["offer", "order_confirmation"],
        MailDocumentType::OrderConfirmation => &["order_confirmation"],
    }
}

/// GET /emails → one page of the sent-mail record, newest first. Errors: 400 for a
/// malformed filter.
#[utoipa::path(get, path = "/emails", operation_id = "emails_list", tag = "emails",
    params(kontor_model::query::ListParams, EmailQuery),
    responses((status = 200, description = "One page of sent mail", body = Vec<EmailRecord>)))]
async fn list(
    State(state): State<AppState>,
    list: ListQuery<EmailQuery>,
) -> ApiResult<PageOf<EmailRecord>> {
    let filter = &list.filter;
    let (mail_state, kind, document, open) = (
        filter.state,
        filter.document_type,
        filter.document_id,
        filter.open,
    );
    let listing = Listing {
        columns: COLUMNS,
        from: FROM,
        alias: "e",
        custom_properties: false,
        sorts: &[("at", "e.at"), ("updated_at", "e.updated_at")],
        default_order: "e.at DESC, e.id DESC",
        id: "e.id",
    };
    list.fetch::<EmailRow, EmailRecord>(&state.pool, &listing, |qb| {
        qb.push(" WHERE TRUE");
        if let Some(s) = mail_state {
            qb.push(" AND e.state = ").push_bind(s.as_str());
        }
        if let Some(k) = kind {
            qb.push(" AND e.document_type IN (");
            let mut sep = qb.separated(", ");
            for t in listed_types(k) {
                sep.push_bind(*t);
            }
            qb.push(")");
        }
        if let Some(id) = document {
            qb.push(" AND e.document_id = ").push_bind(id);
        }
        if open == Some(true) {
            qb.push(" AND e.state = 'failed' AND e.resent_email_id IS NULL");
        }
    })
    .await
}

async fn load(pool: &crate::sql::Db, id: i64) -> ApiResult<(EmailRecord, LoadedRow)> {
    type Kept = (String, String, String, String, Option<String>, String);
    let row: Option<Kept> = crate::sql::query_as(
        "SELECT sender, to_addresses, cc_addresses, bcc_addresses, message_key, message_id \
         FROM emails WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await?;
    let Some((sender, to, cc, bcc, key, message_id)) = row else {
        return Err(ApiError::not_found(format!("e-mail {id}")));
    };
    let record: EmailRow =
        crate::sql::query_as(&format!("SELECT {COLUMNS} {FROM} WHERE e.id = $1"))
            .bind(id)
            .fetch_one(pool)
            .await?;
    let list = |text: &str| serde_json::from_str::<Vec<String>>(text).unwrap_or_default();
    Ok((
        record.into(),
        LoadedRow {
            sender,
            recipients: Recipients {
                to: list(&to),
                cc: list(&cc),
                bcc: list(&bcc),
            },
            key,
            message_id,
        },
    ))
}

/// What resending needs beyond the wire record.
struct LoadedRow {
    sender: String,
    recipients: Recipients,
    key: Option<String>,
    message_id: String,
}

/// GET /emails/{id} → one record. Errors: 404.
#[utoipa::path(get, path = "/emails/{id}", operation_id = "emails_get", tag = "emails",
    params(IdPath),
    responses((status = 200, description = "The record", body = EmailRecord)))]
async fn get_one(
    State(state): State<AppState>,
    IdPath(id): IdPath,
) -> ApiResult<Json<EmailRecord>> {
    Ok(Json(load(&state.pool, id).await?.0))
}

/// POST /emails/{id}/resend → the record of the message sent again: the kept message,
/// byte for byte, to the same recipients through today's settings (SMTP, else the
/// outbox); the old record names it (`resent_email_id`). A document's first delivery
/// marks it as sending it would (an invoice: `sent`). Errors: 404; 422 when the message
/// was not kept (mail with a password link; records older than the record); 502 when the
/// mail server refuses (recorded as failed too).
#[utoipa::path(post, path = "/emails/{id}/resend", operation_id = "emails_resend", tag = "emails",
    params(IdPath),
    responses((status = 200, description = "The new record", body = EmailRecord)))]
async fn resend(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
    IdPath(id): IdPath,
) -> ApiResult<Json<EmailRecord>> {
    let (old, row) = load(&state.pool, id).await?;
    let Some(key) = row.key.clone() else {
        return Err(ApiError::Refused(
            kontor_model::error::messages::EMAIL_NOT_RESENDABLE.into(),
        ));
    };
    // Claimed first: two resends at once (two tabs, two processes) send it once. A
    // claim older than two minutes (a process that stopped mid-send) is stale.
    let started = now();
    let claimed = crate::sql::query(
        "UPDATE emails SET resending_at = $1 WHERE id = $2 AND (resending_at IS NULL OR resending_at < $3)",
    )
    .bind(ts(started))
    .bind(id)
    .bind(ts(started - chrono::Duration::minutes(2)))
    .execute(&state.pool)
    .await?;
    if claimed.rows_affected() != 1 {
        return Err(ApiError::Refused(
            kontor_model::error::messages::EMAIL_RESEND_RUNNING.into(),
        ));
    }
    let sent = resend_claimed(&state, &caller, id, old, row, key).await;
    crate::sql::query("UPDATE emails SET resending_at = NULL WHERE id = $1")
        .bind(id)
        .execute(&state.pool)
        .await?;
    sent
}

/// [`resend`] once the message `id` is claimed.
async fn resend_claimed(
    state: &AppState,
    caller: &Caller,
    id: i64,
    old: EmailRecord,
    row: LoadedRow,
    key: String,
) -> ApiResult<Json<EmailRecord>> {
    let raw = state.files.read(Area::SentMail, &key).await?;
    let settings = crate::account::repo::load(&state.pool).await?;
    let envelope = envelope(&row.sender, &row.recipients)?;
    let outcome = crate::work::mail::deliver(&settings, &state.data_dir, &envelope, &raw).await;
    let how = Record {
        document: old.document.as_ref().map(|d| (d.kind, d.id)),
        keep: true,
        user_id: Some(caller.user_id),
    };
    let message = Message {
        sender: &row.sender,
        to: &row.recipients.to,
        cc: &row.recipients.cc,
        bcc: &row.recipients.bcc,
        subject: &old.subject,
        message_id: &row.message_id,
        raw: &raw,
    };
    let new_id = write_record(state, &how, &message, &outcome, Some(key)).await?;
    crate::sql::query("UPDATE emails SET resent_email_id = $1, updated_at = $2 WHERE id = $3")
        .bind(new_id)
        .bind(ts(now()))
        .bind(id)
        .execute(&state.pool)
        .await?;
    outcome?;
    if let Some(MailDocument {
        kind: MailDocumentType::Invoice,
        id: invoice,
        ..
    }) = &old.document
    {
        let data = kontor_model::event::SentData {
            to: row.recipients.to.clone(),
            cc: row.recipients.cc.clone(),
            subject: old.subject.clone(),
            message_id: message.message_id.to_string(),
        };
        crate::invoices::mark_sent(state, *invoice, Some(caller.user_id), &data).await?;
    }
    Ok(Json(load(&state.pool, new_id).await?.0))
}

/// The envelope of a kept message: from `sender` to every recipient (Bcc included).
fn envelope(sender: &str, r: &Recipients) -> ApiResult<lettre::address::Envelope> {
    let parse = |a: &str| {
        a.parse::<lettre::Address>()
            .map_err(|e| ApiError::Internal(format!("stored address {a:?}: {e}")))
    };
    let to =
        r.to.iter()
            .chain(&r.cc)
            .chain(&r.bcc)
            .map(|a| parse(a))
            .collect::<ApiResult<Vec<_>>>()?;
    lettre::address::Envelope::new(Some(parse(sender)?), to)
        .map_err(|e| ApiError::Internal(format!("envelope: {e}")))
}

/// How many failed messages were not sent again since (the dashboard's `emails_failed`).
/// Errors: 500 on database failure.
pub async fn count_failed(pool: &crate::sql::Db) -> ApiResult<i64> {
    Ok(crate::sql::query_scalar(
        "SELECT COUNT(*) FROM emails WHERE state = 'failed' AND resent_email_id IS NULL",
    )
    .fetch_one(pool)
    .await?)
}
