//! Writing invoices (the repository side of create, draft edit, finalize and reversal):
//! one INSERT of the complete row, one UPDATE of a draft's row, and [`number`], the one
//! function that draws invoice numbers. Everything runs inside the caller's transaction,
//! which holds the write lock, so a failure anywhere rolls the number back.

use crate::http::error::ApiResult;
use crate::numbering::{next_number, CREDIT_NOTES, INVOICES};
use crate::store::db::{now, ts};
use chrono::NaiveDate;
use kontor_model::down_payment::{DeductedDownPayment, InvoiceKind};
use kontor_model::invoice_input::NewInvoice;
use kontor_model::position::PositionType;
use kontor_model::position_vat::TaxBreakdown;
use kontor_model::status::InvoiceStatus;
use rust_decimal::Decimal;

/// A creation body checked and resolved into what is stored (built by
/// `create::prepare`; amounts in currency units, `tax` in percent).
pub(super) struct Prepared {
    /// The sanitized body (positions, texts, references).
    pub body: NewInvoice,
    /// Whether the invoice stays a draft (no number).
    pub draft: bool,
    /// The internal contact.
    pub user_id: i64,
    /// Invoice date.
    pub date: NaiveDate,
    /// Due date.
    pub due_date: NaiveDate,
    /// The address block as printed.
    pub recipient_address: String,
    /// ISO currency code.
    pub currency: String,
    /// VAT rate in percent (0 under reverse charge).
    pub tax: Decimal,
    /// Reverse charge applies.
    pub reverse_charge: bool,
    /// Intra-EU supply.
    pub intra_eu: bool,
    /// Net total after discount.
    pub net_total: Decimal,
    /// Gross total.
    pub gross_total: Decimal,
    /// Each position's net total, in body order.
    pub item_totals: Vec<Decimal>,
    /// The totals per VAT category and rate (issue 10), stored as JSON.
    pub tax_breakdown: Vec<TaxBreakdown>,
    /// `standard`, `down_payment` or `final` (issue 33).
    pub kind: InvoiceKind,
    /// A final invoice's deducted down payments as written (negated on its reversal).
    pub deductions: Vec<DeductedDownPayment>,
}

impl Prepared {
    /// The gross sum of the deductions, currency units (`deducted_total`).
    fn deducted_total(&self) -> Decimal {
        kontor_model::down_payment::deducted_total(&self.deductions).unwrap_or_default()
    }
}

impl Prepared {
    /// The status the row gets: `draft`, or `created` for a final invoice.
    pub fn status(&self) -> InvoiceStatus {
        if self.draft {
            InvoiceStatus::Draft
        } else {
            InvoiceStatus::Created
        }
    }
}

/// The invoice number for a row entering `status` on `date`: `None` for a draft, else the
/// next number of the month (`R<YYMM>-<NNN>`). The only place invoice numbers are drawn
/// (create, draft edit with `status: created`, update_status `created`, reversal).
pub(super) async fn number(
    tx: &mut crate::sql::Tx,
    status: InvoiceStatus,
    date: NaiveDate,
) -> ApiResult<Option<String>> {
    if status == InvoiceStatus::Draft {
        return Ok(None);
    }
    Ok(Some(next_number(tx, INVOICES, date).await?))
}

/// The header columns both [`insert`] and [`replace_draft`] write, in [`bind_header`]'s
/// order; the list form reads them too (`super::repo::list_object`).
pub(super) const HEADER_COLUMNS: [&str; 31] = [
    "customer_id",
    "project_id",
    "user_id",
    "identifier",
    "date",
    "due_date",
    "service_period_from",
    "service_period_to",
    "status",
    "title",
    "recipient_address",
    "currency",
    "net_total",
    "tax",
    "reverse_charge",
    "intra_eu",
    "gross_total",
    "discount",
    "cash_discount",
    "cash_discount_days",
    "salutation",
    "footer",
    "custom_properties",
    "tags",
    "tax_breakdown",
    "buyer_reference",
    "payment_means",
    "kind",
    "deducted_down_payments",
    "deducted_total",
    "updated_at",
];

fn json_text<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Binds the values of [`HEADER_COLUMNS`] from `p`.
fn bind_header<'q>(
    query: crate::sql::Query<'q>,
    p: &'q Prepared,
    identifier: Option<String>,
    status: InvoiceStatus,
    time: &'q crate::store::db::Ts,
) -> crate::sql::Query<'q> {
    query
        .bind(p.body.customer_id)
        .bind(p.body.project_id)
        .bind(p.user_id)
        .bind(identifier)
        .bind(p.date)
        .bind(p.due_date)
        .bind(p.body.service_period_from)
        .bind(p.body.service_period_to)
        .bind(status.as_str())
        .bind(p.body.title.as_deref().unwrap_or("").trim())
        .bind(&p.recipient_address)
        .bind(&p.currency)
        .bind(p.net_total)
        .bind(p.tax)
        .bind(p.reverse_charge)
        .bind(p.intra_eu)
        .bind(p.gross_total)
        .bind(p.body.discount.unwrap_or_default())
        .bind(p.body.cash_discount.unwrap_or_default())
        .bind(p.body.cash_discount_days.unwrap_or(0))
        .bind(p.body.salutation.as_deref().unwrap_or(""))
        .bind(p.body.footer.as_deref().unwrap_or(""))
        .bind(json_text(
            &p.body.custom_properties.clone().unwrap_or_default(),
        ))
        .bind(json_text(&p.body.tags.clone().unwrap_or_default()))
        .bind(json_text(&p.tax_breakdown))
        .bind(
            p.body
                .buyer_reference
                .as_deref()
                .and_then(kontor_model::account::clean),
        )
        .bind(p.body.payment_means.map(|m| m.as_str()))
        .bind(p.kind.as_str())
        .bind(json_text(&p.deductions))
        .bind(p.deducted_total())
        .bind(time)
}

/// What a new invoice corrects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Link {
    /// Nothing: a plain invoice.
    None,
    /// It is the reversal of this invoice.
    ReversalOf(i64),
    /// It is a credit note for this invoice (issue 33), numbered in the credit note series.
    CreditNoteFor(i64),
}

/// Inserts the complete invoice row of `p` (numbered unless a draft; linked to the offer
/// it bills; the reversal of an invoice with both links written, or a credit note naming
/// the invoice it credits, as `link` says), its positions, the billed entries and the
/// address propagation. Returns the new id and the number it got (`None`: a draft).
/// Errors: 500 on database failure.
pub(super) async fn insert(
    tx: &mut crate::sql::Tx,
    p: &Prepared,
    link: Link,
) -> ApiResult<(i64, Option<String>)> {
    let status = p.status();
    let (reversal_of, credited) = match link {
        Link::None => (None, None),
        Link::ReversalOf(id) => (Some(id), None),
        Link::CreditNoteFor(id) => (None, Some(id)),
    };
    let identifier = match credited {
        Some(_) => Some(next_number(tx, CREDIT_NOTES, p.date).await?),
        None => number(tx, status, p.date).await?,
    };
    let t = ts(now());
    let n = HEADER_COLUMNS.len();
    let sql = format!(
        "INSERT INTO invoices ({}, offer_id, reversal, reversed_invoice_id, credit_note, \
         credited_invoice_id, created_at) VALUES ({}) RETURNING id",
        HEADER_COLUMNS.join(", "),
        crate::sql::placeholders(1, n + 6)
    );
    let id: i64 = bind_header(crate::sql::query(&sql), p, identifier.clone(), status, &t)
        .bind(p.body.offer_id)
        .bind(reversal_of.is_some())
        .bind(reversal_of)
        .bind(credited.is_some())
        .bind(credited)
        .bind(t)
        .fetch_one(&mut *tx)
        .await
        .and_then(|row| row.try_get(0))?;
    if let Some(original) = reversal_of {
        crate::sql::query(
            "UPDATE invoices SET reversed = TRUE, reversal_invoice_id = $1, updated_at = $2 WHERE id = $3",
        )
        .bind(id)
        .bind(t)
        .bind(original)
        .execute(&mut *tx)
        .await?;
    }
    write_positions(tx, id, p, false).await?;
    Ok((id, identifier))
}

/// Replaces draft `id` with `p`: every header column (numbered when `p` finalizes it), the
/// positions, the billed entries and the address propagation. The caller has checked, in
/// the same transaction, that `id` is a draft. Errors: 500 on database failure.
pub(super) async fn replace_draft(tx: &mut crate::sql::Tx, id: i64, p: &Prepared) -> ApiResult<()> {
    let status = p.status();
    let identifier = number(tx, status, p.date).await?;
    let t = ts(now());
    let sql = format!(
        "UPDATE invoices SET {} WHERE id = ${}",
        HEADER_COLUMNS
            .iter()
            .enumerate()
            .map(|(k, c)| format!("{c} = ${}", k + 1))
            .collect::<Vec<_>>()
            .join(", "),
        HEADER_COLUMNS.len() + 1
    );
    bind_header(crate::sql::query(&sql), p, identifier, status, &t)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    // Release first: the old positions the entries point to are replaced.
    crate::billable::billing::release(tx, id).await?;
    write_positions(tx, id, p, true).await
}

/// Writes the positions of `p` (replacing the old ones when `replacing`), claims what they
/// bill and propagates the address.
async fn write_positions(
    tx: &mut crate::sql::Tx,
    invoice_id: i64,
    p: &Prepared,
    replacing: bool,
) -> ApiResult<()> {
    let item_ids = write_items(tx, invoice_id, p, replacing).await?;
    crate::billable::billing::claim(tx, &p.body, invoice_id, &item_ids).await?;
    propagate_address(tx, p).await
}

/// Positions per INSERT statement: 12 values each stays far below SQLite's 32,766 bound
/// parameters.
const ITEMS_PER_INSERT: usize = 500;

/// Writes the positions of `p` for invoice `invoice_id` (replacing its old ones when
/// `replacing`), a few hundred rows per INSERT statement: each statement is a round trip
/// to the database's thread inside the write lock (issue 13's profile). Returns the new
/// positions' ids in position order. Errors: 500 on database failure.
async fn write_items(
    tx: &mut crate::sql::Tx,
    invoice_id: i64,
    p: &Prepared,
    replacing: bool,
) -> ApiResult<Vec<i64>> {
    if replacing {
        crate::sql::query("DELETE FROM invoice_items WHERE invoice_id = $1")
            .bind(invoice_id)
            .execute(&mut *tx)
            .await?;
    }
    let rows: Vec<_> = p
        .body
        .items
        .iter()
        .flatten()
        .zip(&p.item_totals)
        .enumerate()
        .collect();
    let mut ids = Vec::with_capacity(rows.len());
    for chunk in rows.chunks(ITEMS_PER_INSERT) {
        let mut qb = crate::sql::Builder::new(
            "INSERT INTO invoice_items (invoice_id, position, kind, title, description, quantity, unit, unit_price, net_total, tax, tax_category, tax_exemption_reason) ",
        );
        qb.push_values(chunk, |mut row, (n, (item, net))| {
            let kind = item.kind.unwrap_or(PositionType::Item);
            let is_item = kind == PositionType::Item;
            row.push_bind(invoice_id)
                .push_bind(*n as i64)
                .push_bind(kind.as_str())
                .push_bind(item.title.as_deref().unwrap_or("").trim().to_string())
                .push_bind(item.description.clone())
                .push_bind(if is_item { item.quantity } else { None })
                .push_bind(item.unit.clone().filter(|u| !u.trim().is_empty()))
                .push_bind(if is_item { item.unit_price } else { None })
                .push_bind(*net)
                .push_bind(if is_item { item.tax } else { None })
                .push_bind(if is_item {
                    item.tax_category.map(|c| c.as_str())
                } else {
                    None
                })
                .push_bind(if is_item {
                    item.tax_exemption_reason
                        .as_deref()
                        .map(str::trim)
                        .filter(|r| !r.is_empty())
                        .map(str::to_string)
                } else {
                    None
                });
        });
        // RETURNING's row order is not defined: the position says which id is whose.
        qb.push(" RETURNING position, id");
        let mut written: Vec<(i64, i64)> = qb.build_query_as().fetch_all(&mut *tx).await?;
        written.sort_unstable();
        ids.extend(written.into_iter().map(|(_, id)| id));
    }
    Ok(ids)
}

/// Propagates the recipient address to the customer or the project (`change_address`).
async fn propagate_address(tx: &mut crate::sql::Tx, p: &Prepared) -> ApiResult<()> {
    let t = ts(now());
    match p.body.change_address.as_deref() {
        Some("customer") => {
            // The address block starts with the company name; the company stores the rest.
            let name: String = crate::sql::query_scalar("SELECT name FROM companies WHERE id = $1")
                .bind(p.body.customer_id)
                .fetch_one(&mut *tx)
                .await?;
            let mut lines = p.recipient_address.lines();
            let rest = match lines.clone().next() {
                Some(first) if first.trim() == name.trim() => {
                    lines.next();
                    lines.collect::<Vec<_>>().join("\n")
                }
                _ => p.recipient_address.clone(),
            };
            crate::sql::query("UPDATE companies SET address = $1, updated_at = $2 WHERE id = $3")
                .bind(rest)
                .bind(t)
                .bind(p.body.customer_id)
                .execute(&mut *tx)
                .await?;
        }
        Some("project") => {
            if let Some(project_id) = p.body.project_id {
                crate::sql::query(
                    "UPDATE projects SET billing_address = $1, updated_at = $2 WHERE id = $3",
                )
                .bind(&p.recipient_address)
                .bind(t)
                .bind(project_id)
                .execute(&mut *tx)
                .await?;
            }
        }
        _ => {}
    }
    Ok(())
}
