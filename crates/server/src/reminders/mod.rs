//! `/invoice_reminders`: payment reminders (dunning) of an invoice (`decisions.md`
//! § Supporting resources). List filtered by `invoice_id`.

pub mod levels;
pub mod overdue;
pub mod rows;

use crate::documents::{context, level_name, money, print_date, reminder_document, RecordFile};
use crate::events::{self, Subject};
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::IdPath;
use crate::http::extract::QueryPairs;
use crate::http::pagination::PageOf;
use crate::http::write_request::{Write, WriteTo};
use crate::lists::{ListQuery, Listing};
use crate::reminders::rows::{load, ReminderRow};
use crate::state::AppState;
use crate::store::db::{now, ts, Dec};
use crate::store::files::pdf_response;
use crate::work::mail::{self, MailAttachment};
use crate::work::pdf_render::render;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::NaiveDate;
use kontor_model::dunning::amount_due;
use kontor_model::dunning::{reminder_claim, ClaimRequest};
use kontor_model::dunning::{reminder_refusal, validate_reminder};
use kontor_model::dunning::{
    BulkReminderResult, BulkReminders, BulkRemindersResult, NewReminder, Reminder,
    MAX_BULK_REMINDERS,
};
use kontor_model::email::{SendEmail, SentEmail};
use kontor_model::error::messages;
use kontor_model::event::{to_data, EventKind, ReminderData};
use kontor_model::invoice::Invoice;
use kontor_model::query::one;
use kontor_model::status::InvoiceStatus;
use kontor_pdf::words::{fill, Language};
use serde::Deserialize;

/// Routes `/invoice_reminders` and `/invoice_reminders/{id}`.
pub fn router() -> utoipa_axum::router::OpenApiRouter<AppState> {
    use utoipa_axum::routes;
    utoipa_axum::router::OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(bulk))
        .routes(routes!(get_one, delete))
        .routes(routes!(send_email))
}

/// `GET /invoice_reminders` filters: `invoice_id`.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
struct ReminderQuery {
    /// Only the reminders of this invoice.
    #[serde(deserialize_with = "one")]
    invoice_id: Option<i64>,
}

/// GET /invoice_reminders → one page of reminders. Errors: 400 for a malformed filter
/// or paging parameter.
#[utoipa::path(
    get,
    path = "/invoice_reminders",
    operation_id = "invoice_reminders_list",
    tag = "invoice_reminders",
    params(
        kontor_model::query::ListParams,
        ReminderQuery,
    ),
    responses(
        (status = 200, description = "One page of reminders", body = Vec<Reminder>)
    )
)]
async fn list(
    State(state): State<AppState>,
    list: ListQuery<ReminderQuery>,
) -> ApiResult<PageOf<Reminder>> {
    let invoice_id = list.filter.invoice_id;
    let listing = Listing {
        columns: "r.*",
        from: "",
        alias: "r",
        custom_properties: false,
        sorts: &[
            ("date", "r.date"),
            ("due_date", "r.due_date"),
            ("created_at", "r.created_at"),
        ],
        default_order: "r.date DESC, r.id DESC",
        id: "r.id",
    };
    list.fetch::<ReminderRow, Reminder>(&state.pool, &listing, |qb| {
        qb.push(" FROM invoice_reminders r JOIN invoices i ON i.id = r.invoice_id WHERE i.deleted_at IS NULL");
        if let Some(id) = invoice_id {
            qb.push(" AND r.invoice_id = ").push_bind(id);
        }
    })
    .await
}

/// GET /invoice_reminders/{id} → the reminder; GET /invoice_reminders/{id}.pdf → its
/// letter ([`letter`]; `blank`, `letter_paper_id` as for invoices). Errors: 404 for an
/// unknown reminder or letter paper.
#[utoipa::path(get, path = "/invoice_reminders/{id}", operation_id = "invoice_reminders_get", tag = "invoice_reminders",
    params(("id" = String, Path, pattern = r"^[0-9]+(\.pdf)?$", description = "Reminder id; `7.pdf` answers the reminder letter"), crate::documents::PrintParams),
    responses((status = 200, description = "The reminder (JSON) or its letter (`{id}.pdf`)", content((Reminder = "application/json"), ("application/pdf")), headers(("Content-Disposition" = String, description = "PDF: `inline; filename=\"Mahnung-<level>-<number>.pdf\"` (`Reminder-…` for English customers)")))))]
async fn get_one(
    State(state): State<AppState>,
    Path(raw): Path<String>,
    query: QueryPairs,
) -> ApiResult<Response> {
    let not_found = || ApiError::not_found(format!("reminder {raw}"));
    let file = RecordFile::parse(&raw, false, not_found)?;
    if let RecordFile::Pdf(id) = file {
        let paper = crate::documents::query_paper(&state, &query)?;
        let letter = letter(&state, id, paper).await?;
        return Ok(pdf_response(letter.pdf, &letter.filename));
    }
    Ok(Json(load(&state.pool, file.id()).await?).into_response())
}

/// A rendered reminder letter with what sending it needs.
struct Letter {
    /// The reminder.
    reminder: Reminder,
    /// Its invoice (full representation).
    invoice: Invoice,
    /// The letter's heading ("Mahnung zu Rechnung R2611-001"), the e-mail's default
    /// subject.
    heading: String,
    /// The customer's language.
    language: Language,
    /// The dunning level's name in that language.
    level_name: String,
    /// The account's name (the e-mail's signature).
    sender: String,
    /// The PDF.
    pdf: Vec<u8>,
    /// `Mahnung-<level>-<invoice number>.pdf` / `Reminder-<level>-…` in the customer's
    /// language (`kontor_model::salutation::reminder_file_name`).
    filename: String,
}

/// Renders the letter of reminder `id` on `paper` (`None` = blank) in the customer's
/// language ([`crate::documents::reminder_document`]). Errors: 404 for an unknown
/// reminder; 500 when rendering fails.
async fn letter(
    state: &AppState,
    id: i64,
    paper: Option<&crate::config::LetterPaperConfig>,
) -> ApiResult<Letter> {
    let reminder = load(&state.pool, id).await?;
    let invoice = crate::invoices::repo::load(&state.pool, reminder.invoice_id).await?;
    let levels = {
        let mut conn = state.pool.acquire().await?;
        crate::reminders::levels::load(&mut conn).await?
    };
    let level = levels.iter().find(|l| l.level == reminder.dunning_level);
    let (account, customer) = context(state, Some(invoice.customer_id)).await?;
    let level_name = level_name(level, customer.language);
    // The customer's billing contact, whom the letter addresses (issue 34).
    let contact = match crate::master_data::companies::find(&state.pool, invoice.customer_id)
        .await?
        .and_then(|c| c.billing_contact)
    {
        Some(b) => crate::master_data::contacts::find(&state.pool, b.id).await?,
        None => None,
    };
    let addressee = contact
        .as_ref()
        .map(kontor_model::salutation::Addressee::from);
    let document = reminder_document(
        &reminder,
        &invoice,
        level,
        addressee,
        &crate::documents::Letter::new(&account, paper, &customer),
    )?;
    let heading = document.heading.clone();
    let pdf = render(document).await?;
    let filename = kontor_model::salutation::reminder_file_name(
        kontor_model::party::Language::parse(customer.language.code()).unwrap_or_default(),
        i64::from(reminder.dunning_level),
        invoice.identifier.as_deref().unwrap_or("invoice"),
    );
    Ok(Letter {
        reminder,
        invoice,
        heading,
        language: customer.language,
        level_name,
        sender: account.name,
        pdf,
        filename,
    })
}

/// POST /invoice_reminders/{id}/send_email → 200 `{subject, text, emails_to, …}`: the
/// reminder letter by e-mail with the invoice's PDF attached, to the given or the
/// invoice's default recipients (the project's billing addresses, else the customer's —
/// the rules of invoices). `subject` defaults to the letter's heading and `text` to a
/// short cover note in the customer's language. Marks the reminder sent (`sent_on`; from
/// then on it cannot be deleted) and records a `sent` event on the invoice.
/// Errors: 404; 422 (no resolvable `emails_to`, an invalid address, an unknown letter
/// paper); 502 when the mail server refuses (nothing marked sent).
#[utoipa::path(post, path = "/invoice_reminders/{id}/send_email", operation_id = "invoice_reminders_send_email", tag = "invoice_reminders",
    params(IdPath), request_body = SendEmail,
    responses((status = 200, description = "The message as sent and the recipients used", body = SentEmail),
        (status = 502, description = "The mail server refused the message or could not be reached; nothing was marked sent", body = kontor_model::error::ErrorBody)))]
async fn send_email(
    WriteTo(state, caller, id, mut body): WriteTo<SendEmail>,
) -> ApiResult<Json<SentEmail>> {
    let paper = crate::invoices::mail_paper(&state, &body)?;
    let letter = letter(&state, id, Some(paper)).await?;
    let invoice = &letter.invoice;
    let number = invoice.identifier.clone().unwrap_or_default();
    let blank = |v: &Option<String>| v.as_deref().is_none_or(|t| t.trim().is_empty());
    if blank(&body.subject) {
        body.subject = Some(letter.heading.clone());
    }
    if blank(&body.text) {
        let due = amount_due(
            letter.reminder.open_amount.unwrap_or(invoice.open_amount),
            letter.reminder.fee,
            letter.reminder.flat_fee,
            letter.reminder.interest,
        )
        .ok_or_else(|| ApiError::Internal("stored reminder amounts overflow".into()))?;
        body.text = Some(fill(
            letter.language.words().reminder_mail,
            &[
                ("level", &letter.level_name),
                ("number", &number),
                ("amount", &money(due, &invoice.currency, letter.language)),
                (
                    "date",
                    &print_date(letter.reminder.due_date, letter.language),
                ),
                ("sender", &letter.sender),
            ],
        ));
    }
    let (recipients, _) = crate::invoices::recipients_of(&state, invoice, &body).await?;
    let invoice_pdf = crate::invoices::invoice_pdf_bytes(&state, invoice, Some(paper)).await?;
    let attachments = vec![
        MailAttachment {
            filename: letter.filename.clone(),
            content_type: "application/pdf".into(),
            bytes: letter.pdf,
        },
        MailAttachment {
            filename: format!("{number}.pdf"),
            content_type: "application/pdf".into(),
            bytes: invoice_pdf,
        },
    ];
    let delivered = mail::send_with_id(
        &state,
        &body,
        &recipients,
        attachments,
        crate::sent_mail::record::Record::document(
            kontor_model::email::MailDocumentType::Reminder,
            invoice.id,
            None,
        ),
    )
    .await?;

    let _guard = state.write_lock.lock().await;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let t = ts(now());
    crate::sql::query(
        "UPDATE invoice_reminders SET sent_at = COALESCE(sent_at, $1), updated_at = $2 WHERE id = $3",
    )
    .bind(t)
    .bind(t)
    .bind(id)
    .execute(&mut tx)
    .await?;
    let data = delivered.event_data(&recipients);
    let user = Some(caller.user_id);
    events::record_sent(&mut tx, user, Subject::Invoice(invoice.id), &data).await?;
    tx.commit().await?;
    Ok(Json(delivered.sent))
}

/// The invoice facts a reminder needs: status, currency, reversed, reversal, gross, paid
/// (thousandths), due date, whether the customer is a consumer, the highest earlier level.
type InvoiceFacts = (String, String, bool, bool, Dec, i64, NaiveDate, bool, i64);

/// POST /invoice_reminders → 200 with the reminder (a reminder changes neither status nor
/// lock, [`kontor_model::effects::after_reminder`]). It records what it claims (issue 14
/// § API, [`reminder_claim`]): the level (default the next after the invoice's last), the
/// fee (default the level's), the open amount, the days overdue, the § 288 (5) flat fee
/// and, with `charge_interest`, the interest at `interest_rate` (default from the base-rate
/// table and the customer's kind). Errors: 422 naming `invoice_id` (missing, unknown, a
/// draft, paid, reversed or a reversal: the model's [`reminder_refusal`]; nothing open),
/// `date` (missing), `due_date` (before the date; default the date + the next level's
/// days, 14 after the last level), `fee` (negative or more places than the
/// currency's minor unit), `dunning_level` (not a level, or none left) or `interest_rate`
/// (outside 0–30 %).
#[utoipa::path(post, path = "/invoice_reminders", operation_id = "invoice_reminders_create", tag = "invoice_reminders",
    request_body = NewReminder,
    responses((status = 200, description = "The reminder with what it claims", body = Reminder)))]
async fn create(Write(state, caller, body): Write<NewReminder>) -> ApiResult<Json<Reminder>> {
    let invoice_id = body
        .invoice_id
        .ok_or_else(|| ApiError::field("invoice_id", messages::IS_REQUIRED))?;
    let _guard = state.write_lock.lock().await;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let id = insert(&mut tx, caller.user_id, invoice_id, &body).await?;
    tx.commit().await?;
    load(&state.pool, id).await.map(Json)
}

/// Creates the reminder `body` for invoice `invoice_id` in `tx` (which holds the write
/// lock) with its `reminder` timeline event; returns its id. Errors: as [`create`].
pub async fn insert(
    tx: &mut crate::sql::Tx,
    user_id: i64,
    invoice_id: i64,
    body: &NewReminder,
) -> ApiResult<i64> {
    let facts: Option<InvoiceFacts> = crate::sql::query_as(&format!(
        "SELECT i.status, i.currency, i.reversed, i.reversal, i.gross_total, {paid}, i.due_date, \
         COALESCE((SELECT c.consumer FROM companies c WHERE c.id = i.customer_id), FALSE), \
         COALESCE((SELECT MAX(r.dunning_level) FROM invoice_reminders r WHERE r.invoice_id = i.id), 0) \
         FROM invoices i WHERE i.id = $1 AND i.deleted_at IS NULL",
        paid = crate::sql::rules::paid_milli(),
    ))
    .bind(invoice_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((status, currency, reversed, reversal, gross, paid, due_date, consumer, last)) = facts
    else {
        return Err(ApiError::field("invoice_id", messages::DOES_NOT_EXIST));
    };
    let status = InvoiceStatus::parse(&status)
        .ok_or_else(|| ApiError::Internal(format!("unknown stored status {status}")))?;
    if let Some(message) = reminder_refusal(status, reversed, reversal) {
        return Err(ApiError::field("invoice_id", message));
    }
    let open = crate::lists::summary::open_from_milli(status, reversed, gross.0, paid, &currency);
    let date = body.date;
    // Without a due date the claim's default applies (the date + the next level's days).
    ApiError::check(validate_reminder(
        date,
        body.due_date.or(date),
        body.fee,
        &currency,
    ))?;
    let date = date.ok_or_else(|| ApiError::field("date", messages::IS_REQUIRED))?;
    let levels = crate::reminders::levels::load(&mut *tx).await?;
    let base_rates = crate::reminders::levels::load_base_rates(&mut *tx).await?;
    let claim = reminder_claim(&ClaimRequest {
        levels: &levels,
        base_rates: &base_rates,
        last_level: u8::try_from(last).unwrap_or(u8::MAX),
        dunning_level: body.dunning_level,
        fee: body.fee,
        charge_interest: body.charge_interest.unwrap_or(false),
        interest_rate: body.interest_rate,
        date,
        due_date: body.due_date,
        invoice_due_date: due_date,
        open_amount: open,
        currency: &currency,
        consumer,
    });
    let claim = match claim {
        Ok(claim) => claim,
        Err(errors) => {
            ApiError::check(errors)?;
            return Err(ApiError::Internal("a refused claim without errors".into()));
        }
    };
    let t = ts(now());
    let id: i64 = crate::sql::query_scalar(
        "INSERT INTO invoice_reminders (invoice_id, date, due_date, fee, text, dunning_level, open_amount, \
         days_overdue, interest_rate, interest, flat_fee, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id",
    )
    .bind(invoice_id)
    .bind(date)
    .bind(claim.due_date)
    .bind(claim.fee)
    .bind(crate::input::sanitize::html(body.text.as_deref().unwrap_or("")))
    .bind(i64::from(claim.dunning_level))
    .bind(open)
    .bind(claim.days_overdue)
    .bind(claim.interest_rate)
    .bind(claim.interest)
    .bind(claim.flat_fee)
    .bind(t)
    .bind(t)
    .fetch_one(&mut *tx)
    .await?;
    let data = ReminderData {
        reminder_id: id,
        fee: claim.fee,
    };
    let subject = Subject::Invoice(invoice_id);
    events::record_as(
        tx,
        Some(user_id),
        subject,
        EventKind::Reminder,
        to_data(&data),
    )
    .await?;
    Ok(id)
}

/// POST /invoice_reminders/bulk with [`BulkReminders`] → 200 [`BulkRemindersResult`]: for
/// each invoice, in order, a reminder at its next level dated `date` (default today), in
/// its own transaction — or the error body that invoice's single POST would have had (an
/// invoice past the last level, paid, unknown…). Errors: 422 naming `invoice_ids` when
/// empty, longer than 100 or repeating an id.
#[utoipa::path(post, path = "/invoice_reminders/bulk", operation_id = "invoice_reminders_bulk", tag = "invoice_reminders",
    request_body = BulkReminders,
    responses((status = 200, description = "Per invoice, in order, the reminder or the error body of its single POST", body = BulkRemindersResult)))]
async fn bulk(
    Write(state, caller, body): Write<BulkReminders>,
) -> ApiResult<Json<BulkRemindersResult>> {
    let ids = &body.invoice_ids;
    let mut seen = std::collections::BTreeSet::new();
    if ids.is_empty() || ids.len() > MAX_BULK_REMINDERS || !ids.iter().all(|id| seen.insert(*id)) {
        return Err(ApiError::field(
            "invoice_ids",
            kontor_model::error::messages::MUST_NAME_1_TO_N_INVOICES.with([MAX_BULK_REMINDERS]),
        ));
    }
    let date = body.date.unwrap_or_else(crate::lists::summary::today);
    let mut results = Vec::with_capacity(ids.len());
    for &invoice_id in ids {
        let single = NewReminder {
            invoice_id: Some(invoice_id),
            date: Some(date),
            charge_interest: body.charge_interest,
            ..Default::default()
        };
        let created = async {
            let _guard = state.write_lock.lock().await;
            let mut tx = crate::store::db::begin_write(&state.pool).await?;
            let id = insert(&mut tx, caller.user_id, invoice_id, &single).await?;
            tx.commit().await?;
            load(&state.pool, id).await
        }
        .await;
        results.push(match created {
            Ok(reminder) => BulkReminderResult {
                invoice_id,
                reminder: Some(reminder),
                error: None,
            },
            Err(error) => {
                if let ApiError::Internal(cause) = &error {
                    tracing::error!(%cause, invoice_id, "bulk reminder");
                }
                BulkReminderResult {
                    invoice_id,
                    reminder: None,
                    error: serde_json::from_value(error.into_response_body()).ok(),
                }
            }
        });
    }
    Ok(Json(BulkRemindersResult { results }))
}

/// DELETE /invoice_reminders/{id} → 204: removes a reminder that was not sent (a sent one
/// is part of the record of what the customer was told). Errors: 404 for an unknown
/// reminder (or one of a deleted invoice); 422 once it was sent.
#[utoipa::path(delete, path = "/invoice_reminders/{id}", operation_id = "invoice_reminders_delete", tag = "invoice_reminders",
    params(IdPath),
    responses((status = 204, description = "Deleted")))]
async fn delete(
    State(state): State<AppState>,
    IdPath(id): IdPath,
) -> ApiResult<axum::http::StatusCode> {
    let _guard = state.write_lock.lock().await;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let sent: Option<Option<crate::store::db::Ts>> = crate::sql::query_scalar(
        "SELECT r.sent_at FROM invoice_reminders r JOIN invoices i ON i.id = r.invoice_id \
         WHERE r.id = $1 AND i.deleted_at IS NULL",
    )
    .bind(id)
    .fetch_optional(&mut tx)
    .await?;
    match sent {
        None => Err(ApiError::not_found(format!("reminder {id}"))),
        Some(Some(_)) => Err(ApiError::Refused(
            kontor_model::error::messages::REMINDER_SENT_STAYS.into(),
        )),
        Some(None) => {
            crate::sql::query("DELETE FROM invoice_reminders WHERE id = $1")
                .bind(id)
                .execute(&mut tx)
                .await?;
            tx.commit().await?;
            Ok(axum::http::StatusCode::NO_CONTENT)
        }
    }
}
