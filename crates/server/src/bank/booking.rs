//! Matching bank transactions and booking their payments (issue 32 § Matching): the open
//! invoices and purchases as the model's [`Candidates`], the decisions applied inside the
//! import's transaction, manual matches, undo and ignore. Every payment booked here is
//! dated at the transaction's booking date and names the transaction
//! (`bank_transaction_id`), so undoing a match removes exactly those payments.

use crate::http::error::{ApiError, ApiResult};
use crate::sql::rules::open_milli;
use crate::store::db::{now, ts, Dec};
use chrono::{Duration, NaiveDate};
use kontor_model::bank::{BankSuggestion, TransactionState};
use kontor_model::bank_matching::{
    Candidates, Decision, OpenInvoice, OpenPurchase, Target, TransactionFacts,
};
use kontor_model::error::messages;
use kontor_model::money::{minor_units, round_money};
use kontor_model::payment_reference::payment_reference;
use rust_decimal::Decimal;

/// Thousandths of a currency unit as currency units.
fn from_milli(milli: i64) -> Decimal {
    Decimal::new(milli, 3)
}

/// The invoices that can still receive money and the purchases still to pay, read inside
/// `tx` (so a booking earlier in the same import is seen).
pub async fn candidates(tx: &mut crate::sql::Tx) -> ApiResult<Candidates> {
    /// One open invoice as [`open_invoices_statement`] answers it.
    type InvoiceRow = (
        i64,
        String,
        String,
        i64,
        Dec,
        NaiveDate,
        Dec,
        i64,
        Option<String>,
        Option<String>,
    );
    let started = std::time::Instant::now();
    let page: String = crate::sql::query_scalar(open_invoices_statement(tx.engine()))
        .fetch_one(&mut *tx)
        .await?;
    let rows: Vec<InvoiceRow> = serde_json::from_str(&page)
        .map_err(|e| ApiError::Internal(format!("a stored open invoice: {e}")))?;
    drop(page);
    let read = started.elapsed();
    let invoices: Vec<OpenInvoice> = rows
        .into_iter()
        .map(
            |(id, identifier, currency, open, Dec(gross), date, Dec(percent), days, name, iban)| {
                let open_amount = round_money(from_milli(open), &currency);
                // Gross minus the cash discount, while nothing has been paid yet.
                let discounted = (!percent.is_zero() && days > 0 && open_amount == gross)
                    .then(|| {
                        let off = kontor_model::arith::mul_round(
                            gross,
                            percent / Decimal::ONE_HUNDRED,
                            minor_units(&currency),
                        )?;
                        gross.checked_sub(off)
                    })
                    .flatten();
                OpenInvoice {
                    id,
                    payment_reference: payment_reference(&identifier),
                    identifier,
                    open_amount,
                    discounted_amount: discounted,
                    discount_until: discounted
                        .and_then(|_| date.checked_add_signed(Duration::days(days))),
                    date,
                    customer_name: name.unwrap_or_default(),
                    customer_iban: iban.filter(|i| !i.trim().is_empty()),
                    currency,
                }
            },
        )
        .collect();
    type PurchaseRow = (
        i64,
        String,
        String,
        i64,
        String,
        Option<String>,
        Option<String>,
    );
    let purchases: Vec<PurchaseRow> = crate::sql::query_as(&format!(
        "SELECT p.id, p.receipt_identifier, p.currency, {open} AS open_milli, p.iban, c.iban, c.name \
         FROM purchases p LEFT JOIN companies c ON c.id = p.company_id WHERE {open} > 0",
        open = crate::purchases::list::OPEN_SQL
    ))
    .fetch_all(&mut *tx)
    .await?;
    let purchases = purchases
        .into_iter()
        .map(
            |(id, receipt, currency, open, own_iban, supplier_iban, name)| OpenPurchase {
                id,
                receipt_identifier: Some(receipt).filter(|r| !r.trim().is_empty()),
                open_amount: round_money(from_milli(open), &currency),
                supplier_name: name.unwrap_or_default(),
                iban: Some(own_iban)
                    .filter(|i| !i.trim().is_empty())
                    .or(supplier_iban.filter(|i| !i.trim().is_empty())),
                currency,
            },
        )
        .collect();
    let built = started.elapsed();
    let candidates = Candidates::new(invoices, purchases);
    tracing::debug!(
        read_ms = read.as_millis() as u64,
        built_ms = built.as_millis() as u64,
        indexed_ms = started.elapsed().as_millis() as u64,
        "open invoices and purchases read"
    );
    Ok(candidates)
}

/// The statement of [`candidates`] for `engine`: every invoice that can still receive
/// money (finalized, live, no reversal, open amount above 0 by the model's rule,
/// [`open_milli`]) as one JSON array of `[id, identifier, currency, open amount in
/// thousandths, gross_total, date, cash_discount, cash_discount_days, customer name,
/// customer IBAN]`, by id — one value crosses from the database's thread instead of a
/// row per invoice (100,000 open invoices: 0.55 → 0.30 s, `docs/benchmarks.md`).
fn open_invoices_statement(engine: crate::sql::Engine) -> &'static str {
    static SQL: crate::sql::dialect::PerEngine = crate::sql::dialect::PerEngine::new(|engine| {
        let row = crate::sql::dialect::json_array(
            engine,
            &[
                "i.id",
                "i.identifier",
                "i.currency",
                open_milli(),
                "i.gross_total",
                "i.date",
                "i.cash_discount",
                "i.cash_discount_days",
                "c.name",
                "c.iban",
            ],
        );
        let all = crate::sql::dialect::json_array_agg(engine, &row, "i.id");
        format!(
            "SELECT {} FROM invoices i LEFT JOIN companies c ON c.id = i.customer_id \
             WHERE i.deleted_at IS NULL AND i.identifier IS NOT NULL AND i.reversal = FALSE AND {} > 0",
            crate::sql::dialect::json_text(engine, &all),
            open_milli()
        )
    });
    SQL.get(engine)
}

/// A stored transaction as matching and booking read it.
pub struct StoredTransaction {
    /// Record id.
    pub id: i64,
    /// The matching facts.
    pub facts: TransactionFacts,
    /// Booking date.
    pub booking_date: NaiveDate,
}

/// Reads transaction `id` inside `tx`, with its state. Errors: 404.
pub async fn stored(
    tx: &mut crate::sql::Tx,
    id: i64,
) -> ApiResult<(StoredTransaction, TransactionState)> {
    type Row = (
        i64,
        NaiveDate,
        Dec,
        String,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        String,
    );
    let row: Option<Row> = crate::sql::query_as(
        "SELECT id, booking_date, amount, currency, counterparty_name, counterparty_iban, \
         remittance_information, creditor_reference, state FROM bank_transactions WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let (id, booking_date, Dec(amount), currency, name, iban, text, reference, state) =
        row.ok_or_else(|| ApiError::not_found(format!("bank transaction {id}")))?;
    let state = TransactionState::parse(&state)
        .ok_or_else(|| ApiError::Internal(format!("unknown transaction state {state}")))?;
    Ok((
        StoredTransaction {
            id,
            booking_date,
            facts: TransactionFacts {
                amount,
                currency,
                booking_date: Some(booking_date),
                counterparty_name: name,
                counterparty_iban: iban,
                remittance_information: text,
                creditor_reference: reference,
            },
        },
        state,
    ))
}

/// Books `amount` of transaction `t` against `target` inside `tx` (a payment dated at the
/// booking date, naming the transaction). Errors: 422 on `allocations` when the document
/// cannot take it (gone, a draft, another currency, more than is open).
pub async fn book(
    tx: &mut crate::sql::Tx,
    t: &StoredTransaction,
    target: Target,
    amount: Decimal,
    user: Option<i64>,
) -> ApiResult<i64> {
    let currency = &t.facts.currency;
    let refused = |m| ApiError::field("allocations", m);
    match target {
        Target::Invoice(invoice_id) => {
            if t.facts.amount <= Decimal::ZERO {
                return Err(refused(messages::BANK_CREDIT_PAYS_INVOICES));
            }
            let row: Option<(String, i64)> = crate::sql::query_as(&format!(
                "SELECT i.currency, {} FROM invoices i WHERE i.id = $1 AND i.deleted_at IS NULL AND i.identifier IS NOT NULL",
                open_milli()
            ))
            .bind(invoice_id)
            .fetch_optional(&mut *tx)
            .await?;
            let Some((invoice_currency, open)) = row else {
                return Err(refused(messages::DOES_NOT_EXIST));
            };
            if &invoice_currency != currency {
                return Err(refused(messages::BANK_OTHER_CURRENCY));
            }
            if amount > from_milli(open) {
                return Err(refused(messages::BANK_MORE_THAN_OPEN));
            }
            record(tx, t, target, amount, user).await
        }
        Target::Purchase(purchase_id) => {
            if t.facts.amount >= Decimal::ZERO {
                return Err(refused(messages::BANK_DEBIT_PAYS_PURCHASES));
            }
            let row: Option<(String, i64)> = crate::sql::query_as(&format!(
                "SELECT p.currency, {} FROM purchases p WHERE p.id = $1",
                crate::purchases::list::OPEN_SQL
            ))
            .bind(purchase_id)
            .fetch_optional(&mut *tx)
            .await?;
            let Some((purchase_currency, open)) = row else {
                return Err(refused(messages::DOES_NOT_EXIST));
            };
            if &purchase_currency != currency {
                return Err(refused(messages::BANK_OTHER_CURRENCY));
            }
            if amount > from_milli(open) {
                return Err(refused(messages::BANK_MORE_THAN_OPEN));
            }
            record(tx, t, target, amount, user).await
        }
    }
}

/// Records the payment of `amount` from transaction `t` to `target` inside `tx` without
/// checking it again — for the import, whose [`Candidates`] index was read in the same
/// write transaction and lowered by every booking before ([`Candidates::booked`]), so
/// the document is open, in the transaction's currency, and takes the amount. Everything
/// else goes through [`book`]. Errors: 422 on `paid_total` when the document cannot take
/// it after all; the database's.
pub async fn record(
    tx: &mut crate::sql::Tx,
    t: &StoredTransaction,
    target: Target,
    amount: Decimal,
    user: Option<i64>,
) -> ApiResult<i64> {
    let currency = &t.facts.currency;
    match target {
        Target::Invoice(invoice_id) => {
            let booking = crate::invoices::payments::Booking {
                invoice_id,
                date: t.booking_date,
                amount,
                currency,
                bank_transaction_id: Some(t.id),
            };
            crate::invoices::payments::book(tx, &booking, user).await
        }
        Target::Purchase(purchase_id) => {
            let booking = crate::purchases::payments::Booking {
                purchase_id,
                date: t.booking_date,
                amount,
                currency,
                bank_transaction_id: Some(t.id),
            };
            crate::purchases::payments::book(tx, &booking, user).await
        }
    }
}

/// Sets transaction `id`'s state and suggestions inside `tx`.
pub async fn set_state(
    tx: &mut crate::sql::Tx,
    id: i64,
    state: TransactionState,
    suggestions: &[BankSuggestion],
) -> ApiResult<()> {
    let json = serde_json::to_string(suggestions).map_err(|e| ApiError::Internal(e.to_string()))?;
    crate::sql::query(
        "UPDATE bank_transactions SET state = $1, suggestions = $2, updated_at = $3 WHERE id = $4",
    )
    .bind(state.as_str())
    .bind(json)
    .bind(ts(now()))
    .bind(id)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// The wire form of the model's suggestions, with each document's number for display
/// (an invoice's from `candidates` when it is one).
pub async fn wire_suggestions(
    tx: &mut crate::sql::Tx,
    candidates: &Candidates,
    list: Vec<kontor_model::bank_matching::Suggestion>,
) -> ApiResult<Vec<BankSuggestion>> {
    let mut out = Vec::with_capacity(list.len());
    for s in list {
        let (invoice_id, purchase_id, identifier) = match s.target {
            Target::Invoice(id) => {
                let number = match candidates.invoice_identifier(id) {
                    Some(number) => Some(number.to_string()),
                    None => {
                        crate::sql::query_scalar("SELECT identifier FROM invoices WHERE id = $1")
                            .bind(id)
                            .fetch_optional(&mut *tx)
                            .await?
                            .flatten()
                    }
                };
                (Some(id), None, number)
            }
            Target::Purchase(id) => {
                let number: Option<String> = crate::sql::query_scalar(
                    "SELECT CASE WHEN receipt_identifier <> '' THEN receipt_identifier ELSE identifier END FROM purchases WHERE id = $1",
                )
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
                (None, Some(id), number)
            }
        };
        out.push(BankSuggestion {
            invoice_id,
            purchase_id,
            identifier,
            amount: s.amount,
            score: s.score,
            reasons: s.reasons,
        });
    }
    Ok(out)
}

/// What matching decided for one transaction, ready to store: its state, its suggestions
/// (wire form), and the payment to book.
pub struct Outcome {
    /// `matched`, `suggested` or `unmatched`.
    pub state: TransactionState,
    /// The suggestions to store (empty unless `suggested`).
    pub suggestions: Vec<BankSuggestion>,
    /// The payment to book: the document and the amount.
    pub booking: Option<(Target, Decimal)>,
}

/// Matches `facts` with `candidates`: books nothing yet, but says what to store and book
/// ([`Outcome`]). Errors: the database's (a suggested purchase's number).
pub async fn decide(
    tx: &mut crate::sql::Tx,
    facts: &TransactionFacts,
    candidates: &Candidates,
) -> ApiResult<Outcome> {
    Ok(match candidates.decide(facts) {
        Decision::Book(allocation, _) => Outcome {
            state: TransactionState::Matched,
            suggestions: Vec::new(),
            booking: Some((allocation.target, allocation.amount)),
        },
        Decision::Suggest(list) => Outcome {
            state: if list.is_empty() {
                TransactionState::Unmatched
            } else {
                TransactionState::Suggested
            },
            suggestions: wire_suggestions(tx, candidates, list).await?,
            booking: None,
        },
    })
}

/// Matches transaction `t` (stored) with `candidates` and applies the decision inside
/// `tx`: books what is certain (state `matched`), else stores the suggestions
/// (`suggested`, or `unmatched` without any). Answers the state. A booking lowers the
/// candidate's open amount in `candidates`. Errors: the database's; 422 when a booking
/// is refused.
pub async fn apply_decision(
    tx: &mut crate::sql::Tx,
    t: &StoredTransaction,
    candidates: &mut Candidates,
) -> ApiResult<TransactionState> {
    let outcome = decide(tx, &t.facts, candidates).await?;
    if let Some((target, amount)) = outcome.booking {
        book(tx, t, target, amount, None).await?;
        candidates.booked(target, amount);
    }
    set_state(tx, t.id, outcome.state, &outcome.suggestions).await?;
    Ok(outcome.state)
}
