//! `/invoices/payments` (`decisions.md` § State rules): payments drive an invoice to
//! `partially_paid` / `paid` and back to the status it held before the first payment;
//! a payment locks the invoice.

use crate::access::auth::Caller;
use crate::events::{self, Subject};
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{IdPath, JsonBody};
use crate::http::pagination::PageOf;
use crate::http::write_request::Write;
use crate::lists::{ListQuery, Listing};
use crate::sql::dialect::PerEngine;
use crate::sql::json_rows::{JsonRows, Kind};
use crate::sql::Arg;
use crate::state::AppState;
use crate::store::db::{now, ts, Dec, Ts, Word};
use axum::extract::State;
use axum::http::StatusCode;
use axum::{Extension, Json};
use chrono::NaiveDate;
use kontor_model::dunning::cash_discount_taken;
use kontor_model::effects::after_payments_and_credit;
use kontor_model::error::messages;
use kontor_model::event::{to_data, EventKind, PaymentData};
use kontor_model::money::round_money;
use kontor_model::payment::{NewPayment, Payment};
use kontor_model::payment_rules::{check_payment_currency, payment_refusal, validate_payment};
use kontor_model::query::one;
use kontor_model::status::InvoiceStatus;
use rust_decimal::Decimal;
use serde::Deserialize;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes `/invoices/payments` and `/invoices/payments/{id}`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(get_one, update, delete))
}

/// An invoice's payments (`i` the invoice's alias) as one JSON value of `engine`
/// (`crate::sql::dialect`): an array of [`PaymentRow`] objects, oldest first ([`of_invoice`]'s
/// order); for reading an invoice in one statement (the invoice repository's `load`).
pub fn payments_json(engine: crate::sql::Engine) -> String {
    use crate::sql::dialect::{json_array_agg, json_object_of, json_subquery};
    let row = json_object_of(
        engine,
        "p",
        &[
            "id",
            "invoice_id",
            "date",
            "paid_total",
            "cash_discount",
            "currency",
            "bank_transaction_id",
            "created_at",
            "updated_at",
        ],
    );
    json_subquery(
        engine,
        &format!(
            "(SELECT {} FROM invoice_payments p WHERE p.invoice_id = i.id)",
            json_array_agg(engine, &row, "p.date, p.id")
        ),
    )
}

/// One `invoice_payments` row, read by sqlx or from its JSON form ([`payments_json`]).
#[derive(sqlx_macros::FromRow, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaymentRow {
    id: i64,
    invoice_id: i64,
    date: NaiveDate,
    paid_total: Dec,
    cash_discount: Dec,
    currency: String,
    #[serde(default)]
    bank_transaction_id: Option<i64>,
    created_at: Ts,
    updated_at: Ts,
}

impl From<PaymentRow> for Payment {
    fn from(p: PaymentRow) -> Self {
        Payment {
            id: p.id,
            invoice_id: p.invoice_id,
            date: p.date,
            paid_total: p.paid_total.0,
            cash_discount: round_money(p.cash_discount.0, &p.currency),
            currency: p.currency,
            bank_transaction_id: p.bank_transaction_id,
            created_on: p.created_at.0.date_naive(),
            updated_on: p.updated_at.0.date_naive(),
        }
    }
}

async fn load(pool: &crate::sql::Db, id: i64) -> ApiResult<Payment> {
    crate::sql::query_as::<PaymentRow>("SELECT p.* FROM invoice_payments p JOIN invoices i ON i.id = p.invoice_id WHERE p.id = $1 AND i.deleted_at IS NULL")
        .bind(id)
        .fetch_optional(pool)
        .await?
        .map(Payment::from)
        .ok_or_else(|| ApiError::not_found(format!("payment {id}")))
}

/// The columns of an invoice that its payments' effect depends on, in [`InvoiceTerms`]'s
/// order.
const TERMS_COLUMNS: &str = "id, gross_total, status, status_before_payments, ever_sent, date, \
    cash_discount, cash_discount_days, currency, credited_total, deducted_total";

/// An invoice as [`plan_payments`] reads it (the row of [`TERMS_COLUMNS`]).
type InvoiceTerms = (
    i64,
    Dec,
    Word<InvoiceStatus>,
    Option<Word<InvoiceStatus>>,
    bool,
    NaiveDate,
    Dec,
    i64,
    String,
    Dec,
    Dec,
);

/// One stored payment of an invoice: id, day, amount, the cash discount recorded on it.
type PaymentFacts = (i64, NaiveDate, Dec, Dec);

/// What an invoice's payments decide ([`plan_payments`]): the cash discount to record on
/// the last payment (0 on the others) and the invoice's new status and lock.
struct PaymentPlan {
    invoice_id: i64,
    /// Some payment carries a cash discount that is not to stay where it is.
    reset_discounts: bool,
    /// The cash discount taken, recorded on this payment.
    discount: Option<(i64, Decimal)>,
    effect: kontor_model::effects::PaymentEffect,
}

/// Decides from an invoice's terms and its payments (in `date, id` order) the cash discount
/// taken ([`cash_discount_taken`]) and what [`after_payments_and_credit`] makes of the
/// amounts plus the discount and the gross its credit notes credited (issue 33). Errors:
/// 422 on `paid_total` when the payments are more than the invoice asks.
fn plan_payments(terms: InvoiceTerms, rows: &[PaymentFacts]) -> ApiResult<PaymentPlan> {
    let (
        invoice_id,
        Dec(gross),
        Word(current),
        before,
        ever_sent,
        date,
        Dec(percent),
        days,
        currency,
        Dec(credited),
        Dec(deducted),
    ) = terms;
    // A final invoice asks for its amount due: the gross minus the deducted down
    // payments (issue 33); payments, Skonto and "paid" start from it.
    let gross = gross
        .checked_sub(deducted)
        .ok_or_else(|| ApiError::field("paid_total", messages::IS_OUT_OF_RANGE))?;
    let received: Vec<(NaiveDate, Decimal)> = rows.iter().map(|(_, d, a, _)| (*d, a.0)).collect();
    let taken = cash_discount_taken(gross, percent, days, date, &received, &currency);
    let discount = match (taken, rows.last()) {
        (Some(d), Some((last, _, _, _))) => Some((*last, d)),
        _ => None,
    };
    let reset_discounts = rows.iter().any(|(id, _, _, Dec(c))| {
        !c.is_zero() && discount.is_none_or(|(last, d)| *id != last || *c != d)
    });
    let mut paid: Vec<Decimal> = received.iter().map(|(_, amount)| *amount).collect();
    if let Some((_, d)) = discount {
        paid.push(d);
    }
    let effect = after_payments_and_credit(
        current,
        before.map(|w| w.0),
        ever_sent,
        &paid,
        credited,
        gross,
    )
    .ok_or_else(|| ApiError::field("paid_total", messages::INVOICE_PAYMENTS_TOO_LARGE))?;
    Ok(PaymentPlan {
        invoice_id,
        reset_discounts,
        discount,
        effect,
    })
}

/// Writes `plan` inside `tx`: the cash discounts, then status, lock and `updated_at`.
async fn write_plan(tx: &mut crate::sql::Tx, plan: &PaymentPlan) -> ApiResult<()> {
    if plan.reset_discounts {
        crate::sql::query("UPDATE invoice_payments SET cash_discount = '0' WHERE invoice_id = $1 AND cash_discount <> '0'")
            .bind(plan.invoice_id)
            .execute(&mut *tx)
            .await?;
    }
    if let Some((last, discount)) = plan.discount {
        crate::sql::query("UPDATE invoice_payments SET cash_discount = $1 WHERE id = $2")
            .bind(discount)
            .bind(last)
            .execute(&mut *tx)
            .await?;
    }
    crate::sql::query(&batch_statements()[3])
        .bind(plan.effect.status.as_str())
        .bind(
            plan.effect
                .status_before_payments
                .map(InvoiceStatus::as_str),
        )
        .bind(plan.effect.locked)
        .bind(ts(now()))
        .bind(plan.invoice_id)
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// Recomputes status and lock of `invoice_id` from its payments (inside `tx`): records the
/// cash discount the payments took on the last of them ([`cash_discount_taken`], 0 on the
/// others) and writes what [`after_payments_and_credit`] decides from the amounts plus the discount
/// and the gross its credit notes credited (issue 33).
pub async fn apply_payments(tx: &mut crate::sql::Tx, invoice_id: i64) -> ApiResult<()> {
    let terms: InvoiceTerms = crate::sql::query_as(&format!(
        "SELECT {TERMS_COLUMNS} FROM invoices WHERE id = $1"
    ))
    .bind(invoice_id)
    .fetch_one(&mut *tx)
    .await?;
    let rows: Vec<PaymentFacts> = crate::sql::query_as(
        "SELECT id, date, paid_total, cash_discount FROM invoice_payments WHERE invoice_id = $1 ORDER BY date, id",
    )
    .bind(invoice_id)
    .fetch_all(&mut *tx)
    .await?;
    write_plan(tx, &plan_payments(terms, &rows)?).await
}

/// Invoices read per statement by [`apply_payments_many`], and payment rows and events
/// written per statement by [`book_many`] (at most 7 parameters each: under 300 per
/// statement, since sqlx finds each SQLite parameter by a walk over all of them).
const BATCH: usize = 40;

/// The statements of [`apply_payments_many`] for [`BATCH`] invoice ids (a short batch is
/// padded with id 0, which no invoice has): their terms, their payments, and one status
/// update per (status, status before payments, lock) for them; last the same status
/// update for one invoice ([`write_plan`]).
fn batch_statements() -> &'static [String; 4] {
    static TEXT: std::sync::OnceLock<[String; 4]> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        let ids = crate::sql::placeholders(1, BATCH);
        let status_update = |count| {
            format!(
                "UPDATE invoices SET status = $1, status_before_payments = $2, locked = $3, \
                 updated_at = $4 WHERE id IN ({})",
                crate::sql::placeholders(5, count)
            )
        };
        [
            format!("SELECT {TERMS_COLUMNS} FROM invoices WHERE id IN ({ids})"),
            format!(
                "SELECT invoice_id, id, date, paid_total, cash_discount FROM invoice_payments \
                 WHERE invoice_id IN ({ids}) ORDER BY invoice_id, date, id"
            ),
            status_update(BATCH),
            status_update(1),
        ]
    })
}

/// [`apply_payments`] for many invoices at once (a bank statement's bookings, issue 32):
/// the same rule ([`plan_payments`]) on terms and payments read [`BATCH`] invoices per
/// query, the status written once per outcome and batch. Errors: as [`apply_payments`].
pub async fn apply_payments_many(tx: &mut crate::sql::Tx, invoice_ids: &[i64]) -> ApiResult<()> {
    let [terms_sql, payments_sql, update_sql, _] = batch_statements();
    let mut ids: Vec<i64> = invoice_ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    for chunk in ids.chunks(BATCH) {
        let padded = |n: usize| chunk.get(n).copied().unwrap_or(0);
        let mut terms_query = crate::sql::query_as::<InvoiceTerms>(terms_sql);
        let mut payments_query =
            crate::sql::query_as::<(i64, i64, NaiveDate, Dec, Dec)>(payments_sql);
        for n in 0..BATCH {
            terms_query = terms_query.bind(padded(n));
            payments_query = payments_query.bind(padded(n));
        }
        let all_terms = terms_query.fetch_all(&mut *tx).await?;
        let mut payments: std::collections::HashMap<i64, Vec<PaymentFacts>> =
            std::collections::HashMap::new();
        for (invoice, id, date, amount, discount) in payments_query.fetch_all(&mut *tx).await? {
            payments
                .entry(invoice)
                .or_default()
                .push((id, date, amount, discount));
        }
        // Invoices with the same outcome are updated together.
        let mut by_effect: std::collections::BTreeMap<
            (&'static str, Option<&'static str>, bool),
            Vec<i64>,
        > = std::collections::BTreeMap::new();
        for terms in all_terms {
            let id = terms.0;
            let plan = plan_payments(terms, payments.get(&id).map(Vec::as_slice).unwrap_or(&[]))?;
            if plan.reset_discounts || plan.discount.is_some() {
                write_plan(tx, &plan).await?;
                continue;
            }
            by_effect
                .entry((
                    plan.effect.status.as_str(),
                    plan.effect
                        .status_before_payments
                        .map(InvoiceStatus::as_str),
                    plan.effect.locked,
                ))
                .or_default()
                .push(id);
        }
        let t = ts(now());
        for ((status, before, locked), same) in by_effect {
            for part in same.chunks(BATCH) {
                let mut update = crate::sql::query(update_sql)
                    .bind(status)
                    .bind(before)
                    .bind(locked)
                    .bind(t);
                for n in 0..BATCH {
                    update = update.bind(part.get(n).copied().unwrap_or(0));
                }
                update.execute(&mut *tx).await?;
            }
        }
    }
    Ok(())
}

/// Checks a payment body against the invoice it pays (`decisions.md` § State rules, the
/// model's [`validate_payment`]) and returns the amount at the currency's scale
/// (`197.5` → `197.50`). Errors: 422 naming `invoice_id` (unknown or draft),
/// `currency` (not the invoice's), `date` or `paid_total`.
async fn checked_amount(
    pool: &crate::sql::Db,
    invoice_id: i64,
    body: &NewPayment,
) -> ApiResult<(Decimal, String)> {
    let row: Option<(String, String)> = crate::sql::query_as(
        "SELECT status, currency FROM invoices WHERE id = $1 AND deleted_at IS NULL",
    )
    .bind(invoice_id)
    .fetch_optional(pool)
    .await?;
    let Some((status, currency)) = row else {
        return Err(ApiError::field("invoice_id", messages::DOES_NOT_EXIST));
    };
    let status = InvoiceStatus::parse(&status)
        .ok_or_else(|| ApiError::Internal(format!("unknown stored status {status}")))?;
    if let Some(message) = payment_refusal(status) {
        return Err(ApiError::field("invoice_id", message));
    }
    check_payment_currency(body.currency.as_deref(), &currency)
        .map_err(|m| ApiError::field("currency", m))?;
    ApiError::check(validate_payment(
        body.date,
        body.paid_total,
        "paid_total",
        &currency,
    ))?;
    let amount = round_money(body.paid_total.unwrap_or_default(), &currency);
    Ok((amount, currency))
}

/// `GET /invoices/payments` filters: `invoice_id`, `from` (or `date_from`), `to` (or
/// `date_to`).
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
struct PaymentQuery {
    /// Only the payments of this invoice.
    #[serde(deserialize_with = "one")]
    invoice_id: Option<i64>,
    /// Paid on or after this day, `YYYY-MM-DD` (alias `date_from`).
    #[serde(alias = "date_from", deserialize_with = "one")]
    from: Option<chrono::NaiveDate>,
    /// Paid on or before this day, `YYYY-MM-DD` (alias `date_to`).
    #[serde(alias = "date_to", deserialize_with = "one")]
    to: Option<chrono::NaiveDate>,
}

/// GET /invoices/payments → one page of payments, newest first unless `sort_by` names
/// `date`, `paid_total` or `created_at`. Errors: 400 for a malformed filter.
#[utoipa::path(
    get,
    path = "/invoices/payments",
    operation_id = "invoice_payments_list",
    tag = "invoice_payments",
    params(
        kontor_model::query::ListParams,
        PaymentQuery,
    ),
    responses(
        (status = 200, description = "One page of payments", body = Vec<Payment>)
    )
)]
async fn list(
    State(state): State<AppState>,
    list: ListQuery<PaymentQuery>,
) -> ApiResult<PageOf<Payment>> {
    let (invoice_id, from, to) = (list.filter.invoice_id, list.filter.from, list.filter.to);
    let listing = Listing {
        columns: "p.*",
        from: "",
        alias: "p",
        custom_properties: false,
        sorts: &[
            ("date", "p.date"),
            ("paid_total", "CAST(p.paid_total AS REAL)"),
            ("created_at", "p.created_at"),
        ],
        default_order: "p.date DESC, p.id DESC",
        id: "p.id",
    };
    list.fetch::<PaymentRow, Payment>(&state.pool, &listing, |qb| {
        qb.push(" FROM invoice_payments p JOIN invoices i ON i.id = p.invoice_id WHERE i.deleted_at IS NULL");
        if let Some(id) = invoice_id {
            qb.push(" AND p.invoice_id = ").push_bind(id);
        }
        if let Some(d) = from {
            qb.push(" AND p.date >= ").push_bind(d);
        }
        if let Some(d) = to {
            qb.push(" AND p.date <= ").push_bind(d);
        }
    })
    .await
}

/// GET /invoices/payments/{id} → the payment. Errors: 404.
#[utoipa::path(get, path = "/invoices/payments/{id}", operation_id = "invoice_payments_get", tag = "invoice_payments",
    params(IdPath),
    responses((status = 200, description = "The payment", body = Payment)))]
async fn get_one(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<Json<Payment>> {
    load(&state.pool, id).await.map(Json)
}

/// POST /invoices/payments → 200 with the payment. Errors: 422 (missing fields, unknown
/// or draft invoice, other currency).
#[utoipa::path(post, path = "/invoices/payments", operation_id = "invoice_payments_create", tag = "invoice_payments",
    request_body = NewPayment,
    responses((status = 200, description = "The payment; the invoice's status follows", body = Payment)))]
async fn create(Write(state, caller, body): Write<NewPayment>) -> ApiResult<Json<Payment>> {
    let invoice_id = body
        .invoice_id
        .ok_or_else(|| ApiError::field("invoice_id", messages::IS_REQUIRED))?;
    let _guard = state.write_lock.lock().await;
    let (amount, currency) = checked_amount(&state.pool, invoice_id, &body).await?;
    let date = body
        .date
        .ok_or_else(|| ApiError::field("date", messages::IS_REQUIRED))?;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let booked = Booking {
        invoice_id,
        date,
        amount,
        currency: &currency,
        bank_transaction_id: None,
    };
    let id = book(&mut tx, &booked, Some(caller.user_id)).await?;
    tx.commit().await?;
    load(&state.pool, id).await.map(Json)
}

/// A payment to record: `amount` (currency units, > 0, at the currency's scale) received
/// on `date` for `invoice_id`, from bank transaction `bank_transaction_id` if any.
pub struct Booking<'a> {
    /// The invoice paid.
    pub invoice_id: i64,
    /// The day received.
    pub date: NaiveDate,
    /// Amount, currency units.
    pub amount: Decimal,
    /// The invoice's currency.
    pub currency: &'a str,
    /// The bank transaction it came from (issue 32).
    pub bank_transaction_id: Option<i64>,
}

/// Records `payment` inside `tx` on behalf of `user`: the row, the invoice's status and
/// cash discount ([`apply_payments`]) and the `payment` event (naming the bank transaction
/// when it came from one). Answers the payment's id. Errors: 422 on `paid_total` when the
/// payments would exceed what the invoice can take.
pub async fn book(
    tx: &mut crate::sql::Tx,
    payment: &Booking<'_>,
    user: Option<i64>,
) -> ApiResult<i64> {
    let t = ts(now());
    let id: i64 = crate::sql::query_scalar("INSERT INTO invoice_payments (invoice_id, date, paid_total, currency, bank_transaction_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id")
        .bind(payment.invoice_id)
        .bind(payment.date)
        .bind(payment.amount)
        .bind(payment.currency)
        .bind(payment.bank_transaction_id)
        .bind(t)
        .bind(t)
        .fetch_one(&mut *tx)
        .await?;
    apply_payments(tx, payment.invoice_id).await?;
    let data = PaymentData {
        payment_id: id,
        amount: payment.amount,
        date: Some(payment.date),
        currency: Some(payment.currency.to_string()),
        bank_transaction_id: payment.bank_transaction_id,
    };
    let subject = Subject::Invoice(payment.invoice_id);
    events::record_as(tx, user, subject, EventKind::Payment, to_data(&data)).await?;
    Ok(id)
}

/// The columns of a booked payment, in [`book_many`]'s order.
const PAYMENT_COLUMNS: [(&str, Kind); 7] = [
    ("invoice_id", Kind::Int),
    ("date", Kind::Date),
    ("paid_total", Kind::Decimal),
    ("currency", Kind::Text),
    ("bank_transaction_id", Kind::Int),
    ("created_at", Kind::Timestamp),
    ("updated_at", Kind::Timestamp),
];

/// The columns of a booked payment's `payment` event.
const EVENT_COLUMNS: [(&str, Kind); 6] = [
    ("subject_type", Kind::Text),
    ("subject_id", Kind::Int),
    ("kind", Kind::Text),
    ("at", Kind::Timestamp),
    ("user_id", Kind::Int),
    ("data", Kind::Text),
];

/// The payments of [`book_many`], answering each id with its bank transaction.
static INSERT_PAYMENTS: PerEngine = PerEngine::new(|engine| {
    format!(
        "{} RETURNING id, bank_transaction_id",
        crate::sql::json_rows::insert(engine, "invoice_payments", &PAYMENT_COLUMNS)
    )
});

/// The `payment` events of [`book_many`].
static INSERT_EVENTS: PerEngine =
    PerEngine::new(|engine| crate::sql::json_rows::insert(engine, "events", &EVENT_COLUMNS));

/// Records the bank `bookings` of one statement import inside `tx` on behalf of `user`
/// (issue 32): what [`book`] does for each — the row, the invoice's status and cash
/// discount, the `payment` event naming the transaction — with the rows and events written
/// `json_rows::ROWS_PER_STATEMENT` per statement (one JSON parameter each) and the invoices recomputed
/// together ([`apply_payments_many`]). Each booking names a different bank transaction
/// (one payment per transaction in an import); a booking without one goes through
/// [`book`]. The kept invoice totals follow the booked invoices once, not per row
/// ([`crate::schema::derived::pause_totals`]). Errors: the database's; 422 on
/// `paid_total` when an invoice cannot take its payments.
pub async fn book_many(
    tx: &mut crate::sql::Tx,
    bookings: &[Booking<'_>],
    user: Option<i64>,
) -> ApiResult<()> {
    let booked: Vec<i64> = bookings.iter().map(|b| b.invoice_id).collect();
    crate::schema::derived::pause_totals(tx, &booked).await?;
    book_paused(tx, bookings, user).await?;
    crate::schema::derived::resume_totals(tx).await?;
    Ok(())
}

/// [`book_many`] while the booked invoices' totals are paused.
async fn book_paused(
    tx: &mut crate::sql::Tx,
    bookings: &[Booking<'_>],
    user: Option<i64>,
) -> ApiResult<()> {
    let engine = tx.engine();
    let (batched, single): (Vec<&Booking>, Vec<&Booking>) = bookings
        .iter()
        .partition(|b| b.bank_transaction_id.is_some());
    let t = ts(now());
    for chunk in batched.chunks(crate::sql::json_rows::ROWS_PER_STATEMENT) {
        let mut rows = JsonRows::new();
        for b in chunk {
            rows.push(&[
                Arg::from(b.invoice_id),
                Arg::from(b.date),
                Arg::from(b.amount),
                Arg::from(b.currency),
                Arg::from(b.bank_transaction_id),
                Arg::from(t),
                Arg::from(t),
            ])?;
        }
        let ids: std::collections::HashMap<Option<i64>, i64> =
            crate::sql::query_as::<(i64, Option<i64>)>(INSERT_PAYMENTS.get(engine))
                .bind(rows.into_text())
                .fetch_all(&mut *tx)
                .await?
                .into_iter()
                .map(|(id, transaction)| (transaction, id))
                .collect();
        let mut events = JsonRows::new();
        for b in chunk {
            let payment_id = *ids
                .get(&b.bank_transaction_id)
                .ok_or_else(|| ApiError::Internal("a batched payment was not stored".into()))?;
            let data = PaymentData {
                payment_id,
                amount: b.amount,
                date: Some(b.date),
                currency: Some(b.currency.to_string()),
                bank_transaction_id: b.bank_transaction_id,
            };
            let (subject_type, subject_id) = Subject::Invoice(b.invoice_id).parts();
            events.push(&[
                Arg::from(subject_type.as_str()),
                Arg::from(subject_id),
                Arg::from(EventKind::Payment.as_str()),
                Arg::from(t),
                Arg::from(user),
                Arg::from(to_data(&data).to_string()),
            ])?;
        }
        crate::sql::query(INSERT_EVENTS.get(engine))
            .bind(events.into_text())
            .execute(&mut *tx)
            .await?;
    }
    let invoices: Vec<i64> = batched.iter().map(|b| b.invoice_id).collect();
    apply_payments_many(tx, &invoices).await?;
    for b in &single {
        book(tx, b, user).await?;
    }
    Ok(())
}

/// PUT /invoices/payments/{id} `{date, paid_total}` → 200 with the payment.
#[utoipa::path(put, path = "/invoices/payments/{id}", operation_id = "invoice_payments_update", tag = "invoice_payments",
    params(IdPath), request_body = NewPayment,
    responses((status = 200, description = "The payment; the invoice's status follows", body = Payment)))]
async fn update(
    State(state): State<AppState>,
    IdPath(id): IdPath,
    JsonBody(body): JsonBody<NewPayment>,
) -> ApiResult<Json<Payment>> {
    let _guard = state.write_lock.lock().await;
    let payment = load(&state.pool, id).await?;
    let (amount, _) = checked_amount(&state.pool, payment.invoice_id, &body).await?;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    crate::sql::query(
        "UPDATE invoice_payments SET date = $1, paid_total = $2, updated_at = $3 WHERE id = $4",
    )
    .bind(body.date)
    .bind(amount)
    .bind(ts(now()))
    .bind(id)
    .execute(&mut tx)
    .await?;
    apply_payments(&mut tx, payment.invoice_id).await?;
    tx.commit().await?;
    load(&state.pool, id).await.map(Json)
}

/// DELETE /invoices/payments/{id} → 204; the invoice's status follows.
#[utoipa::path(delete, path = "/invoices/payments/{id}", operation_id = "invoice_payments_delete", tag = "invoice_payments",
    params(IdPath),
    responses((status = 204, description = "Deleted; the invoice's status follows")))]
async fn delete(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
    IdPath(id): IdPath,
) -> ApiResult<StatusCode> {
    let _guard = state.write_lock.lock().await;
    load(&state.pool, id).await?;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    remove(&mut tx, id, Some(caller.user_id)).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Deletes payment `id` inside `tx` on behalf of `user`: the invoice's status follows, a
/// transaction it was booked from is open again when nothing of it is left booked (issue
/// 32), and the `payment_deleted` event is recorded. Errors: 404.
pub async fn remove(tx: &mut crate::sql::Tx, id: i64, user: Option<i64>) -> ApiResult<()> {
    type Row = (i64, NaiveDate, Dec, String);
    let row: Option<Row> = crate::sql::query_as(
        "SELECT invoice_id, date, paid_total, currency FROM invoice_payments WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let (invoice_id, date, Dec(paid_total), currency) =
        row.ok_or_else(|| ApiError::not_found(format!("payment {id}")))?;
    let bank_transaction_id: Option<i64> = crate::sql::query_scalar(
        "DELETE FROM invoice_payments WHERE id = $1 RETURNING bank_transaction_id",
    )
    .bind(id)
    .fetch_one(&mut *tx)
    .await?;
    apply_payments(tx, invoice_id).await?;
    if let Some(bank) = bank_transaction_id {
        crate::bank::reopen::reopen_if_unbooked(tx, bank).await?;
    }
    let data = PaymentData {
        payment_id: id,
        amount: paid_total,
        date: Some(date),
        currency: Some(currency),
        bank_transaction_id,
    };
    events::record_as(
        tx,
        user,
        Subject::Invoice(invoice_id),
        EventKind::PaymentDeleted,
        to_data(&data),
    )
    .await?;
    Ok(())
}
