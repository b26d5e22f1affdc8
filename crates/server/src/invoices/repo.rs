//! Reading invoices: rows → [`Invoice`] representations (list and detail forms).

use crate::db::{date_text, json_list, json_map, Dec, Ts, Word};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use chrono::NaiveDate;
use kontor_model::invoice::{Invoice, InvoiceItem, PaymentMeans, Vat};
use kontor_model::party::{IdName, UserRef};
use kontor_model::position::PositionType;
use kontor_model::position_vat::{TaxBreakdown, TaxCategory};
use kontor_model::status::InvoiceStatus;
use kontor_model::vat::VatChoice;
use sqlx::SqlitePool;

/// SQL: the sum of the payments of invoice `i` in thousandths of a currency unit
/// (exact, [`crate::summary::milli!`]); 0 without payments.
macro_rules! paid_milli {
    () => {
        concat!(
            "COALESCE((SELECT SUM(",
            crate::summary::milli!("ip.paid_total"),
            ") FROM invoice_payments ip WHERE ip.invoice_id = i.id), 0)"
        )
    };
}

/// SQL: invoice `i`'s `open_amount` in thousandths of a currency unit, the rule of
/// [`kontor_model::dashboard::open_amount`]: gross − payments, never below 0, for a
/// collectible invoice (not reversed; created, sent, partially paid, paid or overdue —
/// [`kontor_model::dashboard::is_collectible`]), else 0. Used by `sort=open_amount`, the
/// summaries and the dashboard; `tests::collectible_statuses_match_the_model` and the API
/// tests hold it to the rule.
pub const OPEN_AMOUNT_SQL: &str = concat!(
    "(CASE WHEN i.reversed = 0 AND i.status IN ('created', 'sent', 'partially_paid', 'paid', 'overdue') THEN MAX(",
    crate::summary::milli!("i.gross_total"),
    " - ",
    paid_milli!(),
    ", 0) ELSE 0 END)"
);

/// Columns of an invoice row joined with its user (`u_*`) and its customer's name, and
/// the sum of its payments in thousandths (`paid_milli`).
pub const COLUMNS: &str = concat!(
    "i.*, u.firstname AS u_firstname, u.lastname AS u_lastname, cu.name AS customer_name, ",
    paid_milli!(),
    " AS paid_milli"
);
/// The joins of [`COLUMNS`] (after the `invoices i` table).
macro_rules! invoice_joins {
    () => {
        " LEFT JOIN users u ON u.id = i.user_id LEFT JOIN companies cu ON cu.id = i.customer_id"
    };
}

/// The table and joins of [`COLUMNS`].
pub const FROM: &str = concat!("FROM invoices i", invoice_joins!());

/// The invoice list's table for [`crate::listing::fetch_document_page`]: the unfiltered
/// list (live invoices) is counted by the `invoices` counter.
pub const LIST_TABLE: crate::listing::ListTable = crate::listing::ListTable {
    table: "invoices i",
    id: "i.id",
    joins: invoice_joins!(),
    counter: ("invoices", " WHERE i.deleted_at IS NULL"),
};

/// One `invoices` row with its user's names.
#[derive(sqlx::FromRow, Debug)]
pub struct InvoiceRow {
    id: i64,
    customer_id: i64,
    project_id: Option<i64>,
    user_id: Option<i64>,
    identifier: Option<String>,
    date: NaiveDate,
    due_date: NaiveDate,
    service_period_from: Option<NaiveDate>,
    service_period_to: Option<NaiveDate>,
    status: Word<InvoiceStatus>,
    reversed: bool,
    reversal_invoice_id: Option<i64>,
    reversal: bool,
    reversed_invoice_id: Option<i64>,
    offer_id: Option<i64>,
    title: String,
    recipient_address: String,
    currency: String,
    net_total: Dec,
    tax: Dec,
    reverse_charge: bool,
    intra_eu: bool,
    gross_total: Dec,
    discount: Dec,
    cash_discount: Dec,
    cash_discount_days: i64,
    locked: bool,
    activity_hours_modified: bool,
    salutation: String,
    footer: String,
    custom_properties: String,
    tags: String,
    tax_breakdown: Option<String>,
    buyer_reference: Option<String>,
    payment_means: Option<Word<PaymentMeans>>,
    created_at: Ts,
    updated_at: Ts,
    u_firstname: Option<String>,
    u_lastname: Option<String>,
    customer_name: Option<String>,
    paid_milli: i64,
}

impl InvoiceRow {
    /// The list representation (no salutation, footer, items, payments, reminders).
    pub fn into_invoice(self) -> Invoice {
        let tax = self.tax.0;
        let vat = Vat {
            tax,
            reverse_charge: self.reverse_charge,
            intra_eu: self.intra_eu,
        };
        let tax_breakdown = TaxBreakdown::from_stored(
            self.tax_breakdown.as_deref(),
            &VatChoice {
                tax,
                reverse_charge: vat.reverse_charge,
                intra_eu: vat.intra_eu,
            },
            self.net_total.0,
            self.gross_total.0,
        );
        let open_amount = kontor_model::dashboard::open_amount(
            self.status.0,
            self.reversed,
            self.gross_total.0,
            crate::summary::from_milli(self.paid_milli, &self.currency),
            &self.currency,
        );
        Invoice {
            id: self.id,
            customer_id: self.customer_id,
            customer: self.customer_name.map(|name| IdName {
                id: self.customer_id,
                name,
            }),
            project_id: self.project_id,
            identifier: self.identifier,
            date: self.date,
            due_date: self.due_date,
            service_period: self
                .service_period_from
                .map(|d| d.format("%m/%Y").to_string()),
            service_period_from: self.service_period_from,
            service_period_to: self.service_period_to,
            status: self.status.0,
            reversed: self.reversed,
            reversal_invoice_id: self.reversal_invoice_id,
            reversal: self.reversal,
            reversed_invoice_id: self.reversed_invoice_id,
            offer_id: self.offer_id,
            title: self.title,
            recipient_address: self.recipient_address,
            currency: self.currency,
            net_total: self.net_total.0,
            tax,
            vat,
            tax_breakdown,
            gross_total: self.gross_total.0,
            open_amount,
            discount: self.discount.0,
            cash_discount: self.cash_discount.0,
            cash_discount_days: self.cash_discount_days,
            debit_number: None,
            credit_number: None,
            locked: self.locked,
            activity_hours_modified: self.activity_hours_modified,
            salutation: None,
            footer: None,
            custom_properties: json_map(&self.custom_properties),
            tags: json_list(&self.tags),
            buyer_reference: self.buyer_reference,
            payment_means: self.payment_means.map(|m| m.0),
            file_url: None,
            user: match (self.user_id, self.u_firstname, self.u_lastname) {
                (Some(id), Some(firstname), Some(lastname)) => Some(UserRef {
                    id,
                    firstname,
                    lastname,
                }),
                _ => None,
            },
            items: None,
            payments: None,
            reminders: None,
            created_at: self.created_at.0,
            updated_at: self.updated_at.0,
        }
    }
}

#[derive(sqlx::FromRow)]
struct ItemRow {
    id: i64,
    kind: Word<PositionType>,
    title: String,
    description: Option<String>,
    quantity: Option<Dec>,
    unit: Option<String>,
    unit_price: Option<Dec>,
    net_total: Dec,
    tax: Option<Dec>,
    tax_category: Option<Word<TaxCategory>>,
    tax_exemption_reason: Option<String>,
}

/// Loads a live (not deleted) invoice row. Errors: 404.
pub async fn load_row(pool: &SqlitePool, id: i64) -> ApiResult<InvoiceRow> {
    sqlx::query_as::<_, InvoiceRow>(&format!(
        "SELECT {COLUMNS} {FROM} WHERE i.id = ? AND i.deleted_at IS NULL"
    ))
    .bind(id)
    .fetch_optional(pool)
    .await?
    .ok_or_else(|| ApiError::not_found(format!("invoice {id}")))
}

/// Loads the full representation of a live invoice: user, items, payments, reminders.
/// Errors: 404 when it does not exist or was deleted.
pub async fn load(pool: &SqlitePool, id: i64) -> ApiResult<Invoice> {
    let row = load_row(pool, id).await?;
    let (salutation, footer) = (row.salutation.clone(), row.footer.clone());
    let mut invoice = row.into_invoice();
    invoice.salutation = Some(salutation);
    invoice.footer = Some(footer);
    let items: Vec<ItemRow> = sqlx::query_as("SELECT id, kind, title, description, quantity, unit, unit_price, net_total, tax, tax_category, tax_exemption_reason FROM invoice_items WHERE invoice_id = ? ORDER BY position")
        .bind(id)
        .fetch_all(pool)
        .await?;
    let billed = crate::billing::billed_by_items(pool, id).await?;
    let ids_of = |item: i64, activity: bool| {
        billed
            .iter()
            .filter(|(i, a, _)| *i == item && *a == activity)
            .map(|(_, _, id)| *id)
            .collect()
    };
    invoice.items = Some(
        items
            .into_iter()
            .map(|r| InvoiceItem {
                activity_ids: ids_of(r.id, true),
                expense_ids: ids_of(r.id, false),
                id: r.id,
                kind: r.kind.0,
                title: r.title,
                description: r.description,
                quantity: r.quantity.map(|d| d.0),
                unit: r.unit,
                unit_price: r.unit_price.map(|d| d.0),
                net_total: r.net_total.0,
                tax: r.tax.map(|d| d.0),
                tax_category: r.tax_category.map(|c| c.0),
                tax_exemption_reason: r.tax_exemption_reason,
            })
            .collect(),
    );
    invoice.payments = Some(crate::invoice_payments::of_invoice(pool, id).await?);
    invoice.reminders = Some(crate::reminders::of_invoice(pool, id).await?);
    Ok(invoice)
}

/// Sets `file_url` to a fresh signed link (15 minutes) to the invoice's PDF.
pub fn sign(state: &AppState, base: &str, invoice: &mut Invoice) {
    invoice.file_url = Some(
        state
            .signer
            .link(base, &format!("/files/invoices/{}.pdf", invoice.id)),
    );
}

/// `YYYY-MM-DD` text of an optional date column value.
pub fn opt_date(date: Option<NaiveDate>) -> Option<String> {
    date.map(date_text)
}

#[cfg(test)]
mod tests {
    use kontor_model::dashboard::is_collectible;
    use kontor_model::status::InvoiceStatus;

    #[test]
    fn collectible_statuses_match_the_model() {
        let listed: Vec<&str> = InvoiceStatus::ALL
            .into_iter()
            .filter(|s| is_collectible(*s, false))
            .map(InvoiceStatus::as_str)
            .collect();
        let sql = format!(
            "i.status IN ({})",
            listed
                .iter()
                .map(|s| format!("'{s}'"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        assert!(super::OPEN_AMOUNT_SQL.contains(&sql), "{sql}");
        assert!(!InvoiceStatus::ALL
            .into_iter()
            .any(|s| is_collectible(s, true)));
    }
}
