//! Reading invoices: rows → [`Invoice`] representations (list and detail forms).

use crate::db::{date_text, json_list, json_map, Dec, Ts, Word};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use chrono::NaiveDate;
use kontor_model::dunning::effective_status;
use kontor_model::invoice::{Invoice, InvoiceItem, PaymentMeans, Vat};
use kontor_model::party::{IdName, UserRef};
use kontor_model::position::PositionType;
use kontor_model::position_vat::{TaxBreakdown, TaxCategory};
use kontor_model::status::InvoiceStatus;
use kontor_model::vat::VatChoice;

/// SQL: invoice `i`'s `open_amount` in thousandths of a currency unit, the rule of
/// [`kontor_model::dashboard::open_amount`]: gross − payments, never below 0, for a
/// collectible invoice (not reversed; created, sent, partially paid, paid or overdue —
/// [`kontor_model::dashboard::is_collectible`]), else 0. Used by `sort=open_amount`, the
/// summaries and the dashboard; `tests::collectible_statuses_match_the_model` and the API
/// tests hold it to the rule.
pub const OPEN_AMOUNT_SQL: &str = concat!(
    "(CASE WHEN i.reversed = FALSE AND i.status IN ('created', 'sent', 'partially_paid', 'paid', 'overdue') THEN MAX(",
    crate::summary::milli!("i.gross_total"),
    " - ",
    crate::summary::paid_milli!(),
    ", 0) ELSE 0 END)"
);

/// Columns of an invoice row joined with its user (`u_*`) and its customer's name, and
/// the sum of its payments in thousandths (`paid_milli`).
pub const COLUMNS: &str = concat!(
    "i.*, u.firstname AS u_firstname, u.lastname AS u_lastname, cu.name AS customer_name, ",
    crate::summary::paid_milli!(),
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

/// [`InvoiceRow`] as SQLite writes it for the list ([`crate::listing::fetch_document_page_json`]):
/// one `json_object` with the row's columns (not the salutation and footer, which the
/// list form leaves out) and [`COLUMNS`]' joined names and payment sum. A server test
/// holds every list record equal to the detail's fields.
pub const LIST_OBJECT: &str = concat!(
    "json_object('id', i.id, 'customer_id', i.customer_id, 'project_id', i.project_id, ",
    "'user_id', i.user_id, 'identifier', i.identifier, 'date', i.date, 'due_date', i.due_date, ",
    "'service_period_from', i.service_period_from, 'service_period_to', i.service_period_to, ",
    "'status', i.status, 'reversed', i.reversed, 'reversal_invoice_id', i.reversal_invoice_id, ",
    "'reversal', i.reversal, 'reversed_invoice_id', i.reversed_invoice_id, 'offer_id', i.offer_id, ",
    "'title', i.title, 'recipient_address', i.recipient_address, 'currency', i.currency, ",
    "'net_total', i.net_total, 'tax', i.tax, 'reverse_charge', i.reverse_charge, ",
    "'intra_eu', i.intra_eu, 'gross_total', i.gross_total, 'discount', i.discount, ",
    "'cash_discount', i.cash_discount, 'cash_discount_days', i.cash_discount_days, ",
    "'locked', i.locked, 'activity_hours_modified', i.activity_hours_modified, ",
    "'custom_properties', i.custom_properties, 'tags', i.tags, 'tax_breakdown', i.tax_breakdown, ",
    "'buyer_reference', i.buyer_reference, 'payment_means', i.payment_means, ",
    "'created_at', i.created_at, 'updated_at', i.updated_at, 'u_firstname', u.firstname, ",
    "'u_lastname', u.lastname, 'customer_name', cu.name, 'paid_milli', ",
    crate::summary::paid_milli!(),
    ")"
);

/// One `invoices` row with its user's names, read by sqlx ([`COLUMNS`]) or from its JSON
/// form ([`LIST_OBJECT`]); every field must be present (a missing one is a decode error,
/// not a default), except the salutation and footer of the list form.
#[derive(sqlx::FromRow, serde::Deserialize, Debug)]
#[serde(deny_unknown_fields)]
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
    #[serde(deserialize_with = "crate::db::int_bool")]
    reversed: bool,
    reversal_invoice_id: Option<i64>,
    #[serde(deserialize_with = "crate::db::int_bool")]
    reversal: bool,
    reversed_invoice_id: Option<i64>,
    offer_id: Option<i64>,
    title: String,
    recipient_address: String,
    currency: String,
    net_total: Dec,
    tax: Dec,
    #[serde(deserialize_with = "crate::db::int_bool")]
    reverse_charge: bool,
    #[serde(deserialize_with = "crate::db::int_bool")]
    intra_eu: bool,
    gross_total: Dec,
    discount: Dec,
    cash_discount: Dec,
    cash_discount_days: i64,
    #[serde(deserialize_with = "crate::db::int_bool")]
    locked: bool,
    #[serde(deserialize_with = "crate::db::int_bool")]
    activity_hours_modified: bool,
    #[serde(default)]
    salutation: String,
    #[serde(default)]
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
    /// The list representation (no salutation, footer, items, payments, reminders), with
    /// the status the API shows on `today` ([`effective_status`]: a created or sent
    /// invoice past its due date with something open is `overdue`, issue 14).
    pub fn into_invoice(self, today: NaiveDate) -> Invoice {
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
        let open_amount = crate::summary::open_from_milli(
            self.status.0,
            self.reversed,
            self.gross_total.0,
            self.paid_milli,
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
            status: effective_status(
                self.status.0,
                self.reversed,
                self.due_date,
                today,
                open_amount,
            ),
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

/// One `invoice_items` row in its JSON form ([`ITEMS_JSON`]).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
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
pub async fn load_row(pool: &crate::sql::Db, id: i64) -> ApiResult<InvoiceRow> {
    crate::sql::query_as::<InvoiceRow>(&format!(
        "SELECT {COLUMNS} {FROM} WHERE i.id = ? AND i.deleted_at IS NULL"
    ))
    .bind(id)
    .fetch_optional(pool)
    .await?
    .ok_or_else(|| ApiError::not_found(format!("invoice {id}")))
}

/// An invoice's positions (`i` the invoice's alias) as SQLite writes them in one value: a
/// JSON array of [`ItemRow`] objects in position order.
const ITEMS_JSON: &str = "(SELECT json_group_array(json_object('id', it.id, 'kind', it.kind, \
     'title', it.title, 'description', it.description, 'quantity', it.quantity, 'unit', it.unit, \
     'unit_price', it.unit_price, 'net_total', it.net_total, 'tax', it.tax, \
     'tax_category', it.tax_category, 'tax_exemption_reason', it.tax_exemption_reason) \
     ORDER BY it.position) FROM invoice_items it WHERE it.invoice_id = i.id)";

/// Everything of the full representation, read in one statement ([`load`]).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct DetailParts {
    row: InvoiceRow,
    items: Vec<ItemRow>,
    /// `[item id, 1 activity / 0 expense, record id]`.
    billed: Vec<(i64, i64, i64)>,
    payments: Vec<crate::invoice_payments::PaymentRow>,
    reminders: Vec<crate::reminder_rows::ReminderRow>,
}

/// Loads the full representation of a live invoice: user, items (with the activities and
/// expenses each bills), payments, reminders — in one statement, whose result SQLite
/// writes as one JSON value ([`LIST_OBJECT`] with the salutation and footer, and the
/// parts' arrays): each statement is a round trip to the database's thread, and these
/// round trips bounded GET /invoices/{id} (issue 13's profile in `docs/benchmarks.md`).
/// Errors: 404 when it does not exist or was deleted; 500 for a corrupt stored value.
pub async fn load(pool: &crate::sql::Db, id: i64) -> ApiResult<Invoice> {
    let sql = format!(
        "SELECT json_object('row', json_set({LIST_OBJECT}, '$.salutation', i.salutation, '$.footer', i.footer), \
         'items', json({ITEMS_JSON}), 'billed', json({billed}), 'payments', json({payments}), \
         'reminders', json({reminders})) {FROM} WHERE i.id = ? AND i.deleted_at IS NULL",
        billed = crate::billing::BILLED_JSON,
        payments = crate::invoice_payments::PAYMENTS_JSON,
        reminders = crate::reminder_rows::REMINDERS_JSON,
    );
    let text: String = crate::sql::query_scalar(&sql)
        .bind(id)
        .fetch_optional(pool)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("invoice {id}")))?;
    let parts: DetailParts = serde_json::from_str(&text)
        .map_err(|e| ApiError::Internal(format!("stored invoice {id}: {e}")))?;
    let (salutation, footer) = (parts.row.salutation.clone(), parts.row.footer.clone());
    let mut invoice = parts.row.into_invoice(crate::summary::today());
    invoice.salutation = Some(salutation);
    invoice.footer = Some(footer);
    let billed = parts.billed;
    let ids_of = |item: i64, activity: bool| {
        billed
            .iter()
            .filter(|(i, a, _)| *i == item && (*a == 1) == activity)
            .map(|(_, _, id)| *id)
            .collect()
    };
    invoice.items = Some(
        parts
            .items
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
    invoice.payments = Some(parts.payments.into_iter().map(Into::into).collect());
    invoice.reminders = Some(parts.reminders.into_iter().map(Into::into).collect());
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
