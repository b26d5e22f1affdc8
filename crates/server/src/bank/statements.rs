//! `/bank_statements` (issue 32 § Statements in): import a statement file (camt.052/053/054,
//! MT940 or a ZIP of them) — every new entry stored once, matched, booked or suggested, in
//! one transaction — list, read and delete imports.

use super::booking::{candidates, decide, record, StoredTransaction};
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{file_part, IdPath, JsonBody, UPLOAD_LIMIT};
use crate::http::pagination::PageOf;
use crate::input::uploads::clean_file_name;
use crate::lists::{ListQuery, Listing};
use crate::sql::json_rows::{JsonRows, Kind};
use crate::state::AppState;
use crate::store::db::{now, ts, Dec, Ts};
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use base64::Engine;
use chrono::NaiveDate;
use kontor_model::bank::{BankStatement, TransactionState};
use kontor_model::bank_matching::{Target, TransactionFacts};
use kontor_model::error::{messages, push_error, FieldErrors};
use kontor_model::offer::FileUpload;
use serde::Deserialize;
use sha2::{Digest, Sha256};

/// The JSON form: `{"filename", "base64"}` or, as `POST /purchases/import` takes it,
/// `{"file": {"filename", "base64"}}`.
#[derive(Deserialize, utoipa::ToSchema)]
#[schema(as = BankStatementJson)]
pub(super) struct StatementBody {
    /// The file's name.
    #[serde(default)]
    filename: Option<String>,
    /// The file, base64-encoded (at most 16 MiB decoded).
    #[serde(default)]
    base64: Option<String>,
    /// The same two fields nested.
    #[serde(default)]
    file: Option<FileUpload>,
}

/// The multipart form, for the API description only.
#[derive(utoipa::ToSchema)]
#[schema(as = BankStatementForm)]
#[allow(dead_code)]
pub(super) struct StatementForm {
    /// The statement: camt.052/053/054 XML, MT940, or a ZIP of such files; at most 16 MiB.
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
}

fn file_error(message: impl Into<kontor_model::error::Message>) -> ApiError {
    ApiError::field("file", message)
}

fn too_large(why: String) -> ApiError {
    let mut e = FieldErrors::new();
    push_error(
        &mut e,
        "file",
        messages::STATEMENT_TOO_LARGE_N.with([why.clone()]),
    );
    ApiError::FileTooLarge(format!("file is too large: {why}"), e)
}

/// The upload: multipart part `file` or the JSON forms. Errors: 413 over 16 MiB, 415 for
/// other bodies, 422 on `file` (missing, empty, not base64).
async fn upload(req: Request) -> ApiResult<(String, Vec<u8>)> {
    let content_type = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    let limit = || too_large(format!("more than {} MiB", UPLOAD_LIMIT / (1024 * 1024)));
    if content_type.starts_with("multipart/form-data") {
        let mut multipart = Multipart::from_request(req, &()).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                limit()
            } else {
                ApiError::BadRequest(format!(
                    "The request is not valid multipart/form-data: {e}."
                ))
            }
        })?;
        return file_part(&mut multipart, limit).await;
    }
    if !content_type.starts_with("application/json") {
        return Err(ApiError::UnsupportedMediaType(
            "multipart/form-data or application/json",
        ));
    }
    // base64 is 4/3 of the file: room for a 16 MiB file.
    let JsonBody(body) =
        JsonBody::<StatementBody, { UPLOAD_LIMIT / 3 * 4 + 4096 }>::from_request(req, &()).await?;
    let (filename, encoded) = match body.file {
        Some(f) => (f.filename, f.base64),
        None => (body.filename, body.base64),
    };
    let encoded = encoded
        .filter(|b| !b.trim().is_empty())
        .ok_or_else(|| file_error(messages::IS_REQUIRED))?;
    let encoded = encoded
        .split_once(";base64,")
        .map(|(_, b)| b.to_string())
        .unwrap_or(encoded);
    let cleaned: String = encoded.chars().filter(|c| !c.is_whitespace()).collect();
    if cleaned.len() / 4 * 3 > kontor_bank::MAX_STATEMENT_BYTES + 3 {
        return Err(limit());
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(cleaned.as_bytes())
        .map_err(|_| file_error(messages::IS_NOT_VALID_BASE64))?;
    Ok((filename.unwrap_or_default(), bytes))
}

/// Time budget of reading one upload (a 16 MiB camt takes well under a second).
const READ_BUDGET: std::time::Duration = std::time::Duration::from_secs(10);

/// Reads the statements of `bytes` off the async runtime, bounded like every import.
/// Errors: 413 on `file` for a ZIP that expands too far or a statement over 16 MiB; 422 on
/// `file` for anything that is not a statement (with why); 503 when busy.
async fn read(filename: String, bytes: Vec<u8>) -> ApiResult<Vec<kontor_bank::Statement>> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(file_error(messages::IS_EMPTY));
    }
    let result = crate::work::cpu_work::run(
        crate::work::cpu_work::Kind::Import,
        READ_BUDGET,
        || file_error(messages::TAKES_TOO_LONG_TO_IMPORT),
        move || kontor_bank::read(&filename, &bytes),
    )
    .await?;
    match result {
        Ok(statements)
            if statements.iter().all(|s| s.entries.is_empty()) && statements.is_empty() =>
        {
            Err(file_error(
                messages::NOT_A_BANK_STATEMENT_N.with(["no statement found".to_string()]),
            ))
        }
        Ok(statements) => Ok(statements),
        Err(kontor_bank::ReadError::TooLarge(why)) => Err(too_large(why)),
        Err(e) => Err(file_error(
            messages::NOT_A_BANK_STATEMENT_N.with([e.to_string()]),
        )),
    }
}

/// A short hash of `parts` (hex SHA-256), the duplicate keys of an entry.
fn key(parts: &[&str]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update([0x1f]);
    }
    hex::encode(h.finalize())
}

/// An entry's two duplicate keys on `account`: the bank's reference (if any), and its
/// facts — date, amount, counterparty and remittance text, structured reference included
/// (issue 32: "same bank reference, or the same date, amount, counterparty and remittance
/// text on the same account").
fn keys(account: &str, t: &kontor_bank::Transaction) -> (Option<String>, String) {
    let reference = t
        .bank_reference
        .as_deref()
        .filter(|r| !r.trim().is_empty() && !r.eq_ignore_ascii_case("NONREF"))
        .map(|r| key(&["ref", account, r.trim()]));
    let facts = key(&[
        "facts",
        account,
        &t.booking_date.to_string(),
        &t.amount.normalize().to_string(),
        &t.currency,
        t.counterparty_name.as_deref().unwrap_or(""),
        t.counterparty_iban.as_deref().unwrap_or(""),
        t.remittance_information.as_deref().unwrap_or(""),
        // The structured reference is remittance information too (camt `RmtInf/Strd`):
        // two transfers quoting different references are two payments.
        t.creditor_reference.as_deref().unwrap_or(""),
    ]);
    (reference, facts)
}

/// Keys looked up per statement by [`known_keys`].
const KEY_CHUNK: usize = 100;

/// The statement of [`known_keys`]: `KEY_CHUNK` keys compared with both key columns (the
/// same text on both engines; built once).
fn known_keys_statement() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        let list: Vec<String> = (1..=KEY_CHUNK).map(|i| format!("${i}")).collect();
        let list = list.join(", ");
        format!(
            "SELECT facts_key, reference_key FROM bank_transactions \
             WHERE facts_key IN ({list}) OR reference_key IN ({list})"
        )
    })
}

/// Which of `wanted` (duplicate keys, [`keys`]) are stored already, as facts or reference
/// keys — [`KEY_CHUNK`] per query instead of one query per entry. Errors: the database's.
async fn known_keys(
    tx: &mut crate::sql::Tx,
    wanted: &[&str],
) -> ApiResult<std::collections::HashSet<String>> {
    let mut known = std::collections::HashSet::new();
    for chunk in wanted.chunks(KEY_CHUNK) {
        let mut query = crate::sql::query_as::<(String, Option<String>)>(known_keys_statement());
        for n in 0..KEY_CHUNK {
            // A short last chunk is padded with a key no entry has (keys are hex).
            query = query.bind(chunk.get(n).copied().unwrap_or("-"));
        }
        let wanted_here: std::collections::HashSet<&str> = chunk.iter().copied().collect();
        for (facts, reference) in query.fetch_all(&mut *tx).await? {
            for k in std::iter::once(facts).chain(reference) {
                if wanted_here.contains(k.as_str()) {
                    known.insert(k);
                }
            }
        }
    }
    Ok(known)
}

/// One `bank_statements` row.
#[derive(sqlx_macros::FromRow)]
pub(super) struct StatementRow {
    id: i64,
    format: String,
    filename: String,
    account_iban: Option<String>,
    currency: Option<String>,
    from_date: Option<NaiveDate>,
    to_date: Option<NaiveDate>,
    opening_balance: Option<Dec>,
    closing_balance: Option<Dec>,
    entries: i64,
    duplicates: i64,
    matched: i64,
    suggested: i64,
    created_at: Ts,
}

impl From<StatementRow> for BankStatement {
    fn from(r: StatementRow) -> Self {
        BankStatement {
            id: r.id,
            format: r.format,
            filename: r.filename,
            account_iban: r.account_iban,
            currency: r.currency,
            from_date: r.from_date,
            to_date: r.to_date,
            opening_balance: r.opening_balance.map(|d| d.0),
            closing_balance: r.closing_balance.map(|d| d.0),
            entries: r.entries,
            duplicates: r.duplicates,
            matched: r.matched,
            suggested: r.suggested,
            created_at: r.created_at.0,
        }
    }
}

async fn load(pool: &crate::sql::Db, id: i64) -> ApiResult<BankStatement> {
    crate::sql::query_as::<StatementRow>("SELECT * FROM bank_statements WHERE id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await?
        .map(BankStatement::from)
        .ok_or_else(|| ApiError::not_found(format!("bank statement {id}")))
}

/// Import a bank statement.
///
/// POST /bank_statements (multipart part `file`, or JSON `{filename, base64}`) → 201 with
/// the import's counts. Entries already imported are skipped (`duplicates`); what is
/// certain is booked (`matched`), the rest gets suggestions (`suggested`).
/// Errors: 413 on `file` (over 16 MiB, a ZIP expanding past 64 MiB or 100× its size); 415;
/// 422 on `file` (missing, empty, not base64, not a statement — with why); 403 for
/// read-only keys.
#[utoipa::path(post, path = "/bank_statements", operation_id = "bank_statements_create", tag = "bank",
    request_body(description = "The statement as multipart part `file` or as JSON `{\"filename\", \"base64\"}`.", content((StatementForm = "multipart/form-data"), (StatementBody = "application/json"))),
    responses((status = 201, description = "The import and its counts", body = BankStatement),
        (status = 413, description = "The file, or what a ZIP expands to, is too large; `errors.file` says why.", body = kontor_model::error::ErrorBody)))]
pub(super) async fn create(State(state): State<AppState>, req: Request) -> ApiResult<Response> {
    let (filename, bytes) = upload(req).await?;
    let filename = clean_file_name(&filename);
    let started = std::time::Instant::now();
    let statements = read(filename.clone(), bytes).await?;
    let read_took = started.elapsed();
    let _guard = state.write_lock.lock().await;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    // The import's pages stay in memory until the commit (~90 MB of pages for 10,000
    // entries): with the connection's usual 2 MB cache SQLite spilled and rewrote them
    // ~400 MB in all (docs/benchmarks.md § Bank statement import).
    let cache = crate::store::db::widen_cache(&mut tx).await?;
    let written = import_into(&mut tx, &state, &filename, &statements, started).await;
    crate::store::db::restore_cache(&mut tx, cache).await?;
    let done = written?;
    tx.commit().await?;
    // The wide cache's pages were freed on the connection's thread; its allocator arena
    // would keep them resident.
    crate::work::cpu_work::return_memory();
    let ms = |d: std::time::Duration| d.as_millis() as u64;
    tracing::info!(
        statement = done.id,
        entries = done.entries,
        duplicates = done.duplicates,
        matched = done.matched,
        suggested = done.suggested,
        read_ms = ms(read_took),
        stored_ms = ms(done.store_took),
        candidates_ms = ms(done.candidates_took),
        decided_ms = ms(done.decided_took),
        transactions_ms = ms(done.transactions_took),
        matched_ms = ms(done.match_took),
        sealed = done.sealed,
        sealed_ms = ms(done.seal_took),
        total_ms = ms(started.elapsed()),
        "bank statement imported (elapsed times since the request's body was read)"
    );
    let statement = load(&state.pool, done.id).await?;
    Ok((StatusCode::CREATED, Json(statement)).into_response())
}

/// What [`import_into`] wrote, with the elapsed times of its phases since the body was read.
struct Imported {
    id: i64,
    entries: i64,
    duplicates: i64,
    matched: i64,
    suggested: i64,
    store_took: std::time::Duration,
    candidates_took: std::time::Duration,
    decided_took: std::time::Duration,
    transactions_took: std::time::Duration,
    match_took: std::time::Duration,
    sealed: usize,
    seal_took: std::time::Duration,
}

/// Writes the import of `statements` (read from `filename`) inside `tx`: the statement
/// row, the transactions that are not duplicates with what matching decided, the
/// bookings, and the audit events sealed. Errors: the database's; 422 on `paid_total`
/// when an invoice cannot take its payments.
async fn import_into(
    tx: &mut crate::sql::Tx,
    state: &AppState,
    filename: &str,
    statements: &[kontor_bank::Statement],
    started: std::time::Instant,
) -> ApiResult<Imported> {
    let first = &statements[0];
    let from_date = statements.iter().filter_map(|s| s.from_date).min();
    let to_date = statements.iter().filter_map(|s| s.to_date).max();
    let t = ts(now());
    let id: i64 = crate::sql::query_scalar(
        "INSERT INTO bank_statements (format, filename, account_iban, currency, from_date, to_date, \
         opening_balance, closing_balance, entries, duplicates, matched, suggested, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, 0, 0, 0, $9, $10) RETURNING id",
    )
    .bind(first.format.as_str())
    .bind(filename)
    .bind(&first.account_iban)
    .bind(&first.currency)
    .bind(from_date)
    .bind(to_date)
    .bind(first.opening_balance)
    .bind(statements.last().and_then(|s| s.closing_balance))
    .bind(t)
    .bind(t)
    .fetch_one(&mut *tx)
    .await?;
    // Duplicates: every key of the file looked up KEY_CHUNK at a time, then each entry
    // checked against those and the entries before it in the file.
    let mut fresh = Vec::new();
    let mut duplicates = 0i64;
    {
        let mut all = Vec::new();
        for s in statements {
            let account = s.account_iban.clone().unwrap_or_default();
            for e in &s.entries {
                all.push((e, keys(&account, e)));
            }
        }
        let wanted: Vec<&str> = all
            .iter()
            .flat_map(|(_, (r, f))| r.as_deref().into_iter().chain([f.as_str()]))
            .collect();
        let known = known_keys(&mut *tx, &wanted).await?;
        let mut seen = std::collections::HashSet::new();
        for (e, (reference_key, facts_key)) in all {
            let stored_before = known.contains(&facts_key)
                || reference_key.as_ref().is_some_and(|r| known.contains(r));
            let first_in_file = seen.insert(facts_key.clone())
                && reference_key
                    .as_ref()
                    .is_none_or(|r| seen.insert(r.clone()));
            if stored_before || !first_in_file {
                duplicates += 1;
            } else {
                fresh.push((e, reference_key, facts_key));
            }
        }
    }
    let entries = fresh.len() as i64;
    let store_took = started.elapsed();
    // Matched in booking order (file order within a day) and stored with the outcome: a
    // booking lowers the invoice's open amount in the index, so one invoice is never paid
    // twice by two transfers of the same import.
    fresh.sort_by_key(|(e, _, _)| e.booking_date);
    let (mut matched, mut suggested) = (0i64, 0i64);
    let mut open = candidates(&mut *tx).await?;
    let candidates_took = started.elapsed();
    // First every decision (a booking lowers the open amount in the index at once), then
    // the transactions stored as JSON rows (`sql::json_rows`), then the bookings.
    let mut decided = Vec::with_capacity(fresh.len());
    for (e, reference_key, facts_key) in fresh {
        let facts = TransactionFacts {
            amount: e.amount,
            currency: e.currency.clone(),
            booking_date: Some(e.booking_date),
            counterparty_name: e.counterparty_name.clone(),
            counterparty_iban: e.counterparty_iban.clone(),
            remittance_information: e.remittance_information.clone(),
            creditor_reference: e.creditor_reference.clone(),
        };
        let outcome = decide(&mut *tx, &facts, &open).await?;
        if let Some((target, amount)) = outcome.booking {
            open.booked(target, amount);
        }
        match outcome.state {
            TransactionState::Matched => matched += 1,
            TransactionState::Suggested => suggested += 1,
            _ => {}
        }
        let suggestions = serde_json::to_string(&outcome.suggestions)
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        decided.push(Decided {
            entry: e,
            reference_key,
            facts_key,
            facts,
            state: outcome.state,
            suggestions,
            booking: outcome.booking,
        });
    }
    let decided_took = started.elapsed();
    let ids = store_transactions(&mut *tx, id, &decided, t).await?;
    let transactions_took = started.elapsed();
    let mut invoice_bookings = Vec::new();
    for (d, tid) in decided.iter().zip(&ids) {
        match d.booking {
            Some((Target::Invoice(invoice_id), amount)) => {
                invoice_bookings.push(crate::invoices::payments::Booking {
                    invoice_id,
                    date: d.entry.booking_date,
                    amount,
                    currency: &d.facts.currency,
                    bank_transaction_id: Some(*tid),
                })
            }
            Some((target, amount)) => {
                let stored = StoredTransaction {
                    id: *tid,
                    booking_date: d.entry.booking_date,
                    facts: d.facts.clone(),
                };
                record(&mut *tx, &stored, target, amount, None).await?;
            }
            None => {}
        }
    }
    crate::invoices::payments::book_many(&mut *tx, &invoice_bookings, None).await?;
    crate::sql::query("UPDATE bank_statements SET entries = $1, duplicates = $2, matched = $3, suggested = $4 WHERE id = $5")
        .bind(entries)
        .bind(duplicates)
        .bind(matched)
        .bind(suggested)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    let match_took = started.elapsed();
    // Sealed before the commit: the events are written once, with their hashes.
    let sealed = crate::store::db::seal_in(&state.pool, &mut *tx).await?;
    let seal_took = started.elapsed();
    Ok(Imported {
        id,
        entries,
        duplicates,
        matched,
        suggested,
        store_took,
        candidates_took,
        decided_took,
        transactions_took,
        match_took,
        sealed,
        seal_took,
    })
}

/// One entry of an import with what matching decided, before it is stored.
struct Decided<'a> {
    entry: &'a kontor_bank::Transaction,
    reference_key: Option<String>,
    facts_key: String,
    facts: TransactionFacts,
    state: TransactionState,
    suggestions: String,
    booking: Option<(Target, rust_decimal::Decimal)>,
}

/// The columns of a stored transaction, in [`transaction_row`]'s order, with their types.
const TRANSACTION_COLUMNS: [(&str, Kind); 17] = [
    ("bank_statement_id", Kind::Int),
    ("booking_date", Kind::Date),
    ("value_date", Kind::Date),
    ("amount", Kind::Decimal),
    ("currency", Kind::Text),
    ("counterparty_name", Kind::Text),
    ("counterparty_iban", Kind::Text),
    ("remittance_information", Kind::Text),
    ("end_to_end_id", Kind::Text),
    ("creditor_reference", Kind::Text),
    ("bank_reference", Kind::Text),
    ("reference_key", Kind::Text),
    ("facts_key", Kind::Text),
    ("state", Kind::Text),
    ("suggestions", Kind::Text),
    ("created_at", Kind::Timestamp),
    ("updated_at", Kind::Timestamp),
];

/// The statement of [`store_transactions`] on `engine`: the transactions of one JSON
/// parameter, answering each id with its facts key.
static INSERT_TRANSACTIONS: crate::sql::dialect::PerEngine =
    crate::sql::dialect::PerEngine::new(|engine| {
        format!(
            "{} RETURNING id, facts_key",
            crate::sql::json_rows::insert(engine, "bank_transactions", &TRANSACTION_COLUMNS)
        )
    });

/// The values of decided transaction `d` of statement `statement`, in
/// [`TRANSACTION_COLUMNS`]' order.
fn transaction_row<'q>(
    statement: i64,
    d: &'q Decided<'_>,
    t: crate::store::db::Ts,
) -> [crate::sql::Arg<'q>; 17] {
    use crate::sql::Arg;
    let e = d.entry;
    [
        Arg::from(statement),
        Arg::from(e.booking_date),
        Arg::from(e.value_date),
        Arg::from(e.amount),
        Arg::from(&e.currency),
        Arg::from(&e.counterparty_name),
        Arg::from(&e.counterparty_iban),
        Arg::from(&e.remittance_information),
        Arg::from(&e.end_to_end_id),
        Arg::from(&e.creditor_reference),
        Arg::from(&e.bank_reference),
        Arg::from(&d.reference_key),
        Arg::from(&d.facts_key),
        Arg::from(d.state.as_str()),
        Arg::from(&d.suggestions),
        Arg::from(t),
        Arg::from(t),
    ]
}

/// Stores the `decided` transactions of statement `statement` inside `tx`,
/// `json_rows::ROWS_PER_STATEMENT` per statement, and answers their ids in `decided`'s order (each
/// facts key is unique within an import). Errors: the database's.
async fn store_transactions(
    tx: &mut crate::sql::Tx,
    statement: i64,
    decided: &[Decided<'_>],
    t: crate::store::db::Ts,
) -> ApiResult<Vec<i64>> {
    let insert = INSERT_TRANSACTIONS.get(tx.engine());
    let mut by_key = std::collections::HashMap::with_capacity(decided.len());
    for chunk in decided.chunks(crate::sql::json_rows::ROWS_PER_STATEMENT) {
        let mut rows = JsonRows::new();
        for d in chunk {
            rows.push(&transaction_row(statement, d, t))?;
        }
        let stored: Vec<(i64, String)> = crate::sql::query_as(insert)
            .bind(rows.into_text())
            .fetch_all(&mut *tx)
            .await?;
        by_key.extend(stored.into_iter().map(|(id, key)| (key, id)));
    }
    decided
        .iter()
        .map(|d| {
            by_key
                .get(&d.facts_key)
                .copied()
                .ok_or_else(|| ApiError::Internal("a bank transaction was not stored".into()))
        })
        .collect()
}

/// GET /bank_statements → one page of imports, newest first.
#[utoipa::path(get, path = "/bank_statements", operation_id = "bank_statements_list", tag = "bank",
    params(kontor_model::query::ListParams),
    responses((status = 200, description = "One page of imports", body = Vec<BankStatement>)))]
pub(super) async fn list(
    State(state): State<AppState>,
    list: ListQuery<NoFilter>,
) -> ApiResult<PageOf<BankStatement>> {
    let listing = Listing {
        columns: "s.*",
        from: "",
        alias: "s",
        custom_properties: false,
        sorts: &[("created_at", "s.created_at"), ("from_date", "s.from_date")],
        default_order: "s.id DESC",
        id: "s.id",
    };
    list.fetch::<StatementRow, BankStatement>(&state.pool, &listing, |qb| {
        qb.push(" FROM bank_statements s WHERE 1 = 1");
    })
    .await
}

/// No filters.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
pub(super) struct NoFilter {}

/// GET /bank_statements/{id} → the import. Errors: 404.
#[utoipa::path(get, path = "/bank_statements/{id}", operation_id = "bank_statements_get", tag = "bank",
    params(IdPath),
    responses((status = 200, description = "The import", body = BankStatement)))]
pub(super) async fn get_one(
    State(state): State<AppState>,
    IdPath(id): IdPath,
) -> ApiResult<Json<BankStatement>> {
    load(&state.pool, id).await.map(Json)
}

/// DELETE /bank_statements/{id} → 204 with its transactions, while none is matched.
/// Errors: 404; 422 when a transaction of it is matched (undo the matches first).
#[utoipa::path(delete, path = "/bank_statements/{id}", operation_id = "bank_statements_delete", tag = "bank",
    params(IdPath),
    responses((status = 204, description = "Deleted with its transactions")))]
pub(super) async fn delete(
    State(state): State<AppState>,
    IdPath(id): IdPath,
) -> ApiResult<StatusCode> {
    let _guard = state.write_lock.lock().await;
    load(&state.pool, id).await?;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let booked: i64 = crate::sql::query_scalar(
        "SELECT COUNT(*) FROM bank_transactions t WHERE t.bank_statement_id = $1 AND (t.state = 'matched' \
         OR EXISTS (SELECT 1 FROM invoice_payments p WHERE p.bank_transaction_id = t.id) \
         OR EXISTS (SELECT 1 FROM purchase_payments p WHERE p.bank_transaction_id = t.id))",
    )
    .bind(id)
    .fetch_one(&mut tx)
    .await?;
    if booked > 0 {
        return Err(ApiError::Refused(messages::BANK_STATEMENT_MATCHED.into()));
    }
    crate::sql::query("DELETE FROM bank_transactions WHERE bank_statement_id = $1")
        .bind(id)
        .execute(&mut tx)
        .await?;
    crate::sql::query("DELETE FROM bank_statements WHERE id = $1")
        .bind(id)
        .execute(&mut tx)
        .await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}
