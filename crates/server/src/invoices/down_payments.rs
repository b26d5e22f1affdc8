//! Down payments deducted by final invoices (issue 33; `docs/decisions.md`
//! § Down-payment and final invoices): reading the down payments a final invoice names
//! ([`resolve`]), claiming them for it inside its transaction ([`claim`], so each is
//! deducted once, also when two final invoices are written at once) and freeing them when
//! the final invoice is reversed or deleted ([`release`]). The rules are
//! `kontor_model::down_payment`'s.

use crate::http::error::{ApiError, ApiResult};
use crate::store::db::{Dec, Word};
use chrono::NaiveDate;
use kontor_model::down_payment::{
    deduction, deduction_refusal, Candidate, DeductedDownPayment, InvoiceKind,
};
use kontor_model::error::{messages, push_error, FieldErrors};
use kontor_model::position_vat::TaxBreakdown;
use kontor_model::status::InvoiceStatus;
use kontor_model::vat::VatChoice;

/// The stored columns of a named down payment.
type CandidateRow = (
    Word<InvoiceKind>,
    Word<InvoiceStatus>,
    bool,
    bool,
    i64,
    String,
    Option<i64>,
    Option<String>,
    NaiveDate,
    Dec,
    Dec,
    Option<String>,
    Dec,
    bool,
    bool,
);

/// The field a refusal of entry `i` of `down_payment_invoice_ids` is reported under.
pub fn field(i: usize) -> String {
    format!("down_payment_invoice_ids[{i}]")
}

/// The deductions of the down payments `ids` for the final invoice `final_id` (`None`
/// while it is being created) of `customer_id` in `currency`, in the order named: each
/// down payment's own net, VAT per rate and gross. Errors: 422 naming
/// `down_payment_invoice_ids[i]` — no such invoice, or a refusal of
/// [`deduction_refusal`] (not a finalized live down payment of that customer and
/// currency, or deducted by another final invoice); 500 on database failure.
pub async fn resolve(
    pool: &crate::sql::Db,
    ids: &[i64],
    customer_id: i64,
    currency: &str,
    final_id: Option<i64>,
) -> ApiResult<Vec<DeductedDownPayment>> {
    let mut errors = FieldErrors::new();
    let mut out = Vec::with_capacity(ids.len());
    for (i, id) in ids.iter().enumerate() {
        let row: Option<CandidateRow> = crate::sql::query_as(
            "SELECT kind, status, reversal OR credit_note, reversed, customer_id, currency, \
             final_invoice_id, identifier, date, net_total, gross_total, tax_breakdown, tax, \
             reverse_charge, intra_eu FROM invoices WHERE id = $1 AND deleted_at IS NULL",
        )
        .bind(id)
        .fetch_optional(pool)
        .await?;
        let Some(row) = row else {
            push_error(&mut errors, field(i), messages::DOES_NOT_EXIST);
            continue;
        };
        let (
            Word(kind),
            Word(status),
            correction,
            reversed,
            customer,
            row_currency,
            deducted_by,
            identifier,
            date,
            Dec(net),
            Dec(gross),
            breakdown,
            Dec(tax),
            reverse_charge,
            intra_eu,
        ) = row;
        let candidate = Candidate {
            kind,
            status,
            correction,
            reversed,
            customer_id: customer,
            currency: row_currency,
            final_invoice_id: deducted_by,
        };
        if let Some(refusal) = deduction_refusal(&candidate, customer_id, currency, final_id) {
            push_error(&mut errors, field(i), refusal);
            continue;
        }
        let vat = VatChoice {
            tax,
            reverse_charge,
            intra_eu,
        };
        let groups = TaxBreakdown::from_stored(breakdown.as_deref(), &vat, net, gross);
        match deduction(
            *id,
            identifier.as_deref().unwrap_or_default(),
            date,
            net,
            gross,
            groups,
        ) {
            Some(d) => out.push(d),
            None => push_error(&mut errors, field(i), messages::IS_OUT_OF_RANGE),
        }
    }
    ApiError::check(errors)?;
    Ok(out)
}

/// The 422 of deductions that exceed the final invoice at one VAT group, or `Ok` when
/// they fit (`kontor_model::down_payment::excess`). Errors: 422 naming `items`.
pub fn check_fits(full: &[TaxBreakdown], deductions: &[DeductedDownPayment]) -> ApiResult<()> {
    match kontor_model::down_payment::excess(full, deductions) {
        None => Ok(()),
        Some((category, rate)) => {
            let group = format!("{rate} % ({})", category.as_str());
            Err(ApiError::field(
                "items",
                messages::DEDUCTIONS_TOO_LARGE.with([group]),
            ))
        }
    }
}

/// Claims `deductions` for final invoice `final_id` in `tx` (which holds the write lock):
/// each down payment gets `final_invoice_id`, only while it is live, not reversed and not
/// claimed by another final invoice — checked by the statement itself, so two final
/// invoices written at once never deduct the same down payment. Errors: 422 naming
/// `down_payment_invoice_ids[i]` when one was taken meanwhile; 500 on database failure.
pub async fn claim(
    tx: &mut crate::sql::Tx,
    final_id: i64,
    deductions: &[DeductedDownPayment],
) -> ApiResult<()> {
    for (i, d) in deductions.iter().enumerate() {
        let done = crate::sql::query(
            "UPDATE invoices SET final_invoice_id = $1 WHERE id = $2 AND kind = 'down_payment' \
             AND deleted_at IS NULL AND reversed = FALSE \
             AND (final_invoice_id IS NULL OR final_invoice_id = $1)",
        )
        .bind(final_id)
        .bind(d.invoice_id)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(ApiError::field(
                field(i),
                messages::DOWN_PAYMENT_ALREADY_DEDUCTED,
            ));
        }
    }
    Ok(())
}

/// Frees the down payments final invoice `final_id` deducts (its reversal, its deletion,
/// a draft edit naming others). Errors: 500 on database failure.
pub async fn release(tx: &mut crate::sql::Tx, final_id: i64) -> ApiResult<()> {
    crate::sql::query("UPDATE invoices SET final_invoice_id = NULL WHERE final_invoice_id = $1")
        .bind(final_id)
        .execute(&mut *tx)
        .await?;
    Ok(())
}
