//! Reading invoices: rows → [`Invoice`] representations (list and detail forms).

use crate::http::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::store::db::{date_text, json_list, json_map, Dec, Ts, Word};
use chrono::NaiveDate;
use kontor_model::down_payment::InvoiceKind;
use kontor_model::dunning::effective_status;
use kontor_model::invoice::{Invoice, InvoiceItem, PaymentMeans, Vat};
use kontor_model::party::{IdName, UserRef};
use kontor_model::position::PositionType;
use kontor_model::position_vat::{TaxBreakdown, TaxCategory};
use kontor_model::status::InvoiceStatus;
use kontor_model::vat::VatChoice;

/// Columns of an invoice row joined with its user (`u_*`) and its customer's name and
/// debtor number (`customer_debit_number`, issue 31), and
/// the sum of its payments in thousandths (`paid_milli`, [`crate::sql::rules::paid_milli`]).
pub fn columns() -> &'static str {
    static SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        format!(
            "i.*, u.firstname AS u_firstname, u.lastname AS u_lastname, cu.name AS customer_name, \
             cu.debtor_number AS customer_debit_number, \
             {} AS paid_milli",
            crate::sql::rules::paid_milli()
        )
    });
    &SQL
}
/// The joins of [`COLUMNS`] (after the `invoices i` table).
macro_rules! invoice_joins {
    () => {
        " LEFT JOIN users u ON u.id = i.user_id LEFT JOIN companies cu ON cu.id = i.customer_id"
    };
}

/// The table and joins of [`COLUMNS`].
pub const FROM: &str = concat!("FROM invoices i", invoice_joins!());

/// The invoice list's table for [`crate::lists::fetch_page`] (`Rows::Table`): the unfiltered
/// list (live invoices) is counted by the `invoices` counter.
pub const LIST_TABLE: crate::lists::ListTable = crate::lists::ListTable {
    table: "invoices i",
    id: "i.id",
    joins: invoice_joins!(),
    counter: ("invoices", " WHERE i.deleted_at IS NULL"),
};

/// The columns of [`InvoiceRow`]'s JSON form beyond the header columns
/// ([`super::write::HEADER_COLUMNS`]): the id, the reversal links, the lock and the
/// creation time.
const LIST_ONLY_FIELDS: [&str; 12] = [
    "id",
    "reversed",
    "reversal_invoice_id",
    "reversal",
    "reversed_invoice_id",
    "credit_note",
    "credited_invoice_id",
    "final_invoice_id",
    "offer_id",
    "locked",
    "activity_hours_modified",
    "created_at",
];

/// The header columns the list form leaves out (the detail adds them, [`load`]).
const DETAIL_ONLY_FIELDS: [&str; 2] = ["salutation", "footer"];

/// The columns of [`InvoiceRow`]'s JSON form (each named as its column): the row's columns
/// but the salutation and footer, which the list form leaves out; [`list_object`] adds
/// [`columns`]' joined names and payment sum. A server test holds every list record equal
/// to the detail's fields.
fn list_fields() -> impl Iterator<Item = &'static str> {
    let header = super::write::HEADER_COLUMNS
        .into_iter()
        .filter(|c| !DETAIL_ONLY_FIELDS.contains(c));
    LIST_ONLY_FIELDS.into_iter().chain(header)
}

/// [`InvoiceRow`] as one JSON object expression of `engine` (`crate::sql::dialect`), for
/// the list ([`crate::lists::fetch_document_page`]) and, with the salutation and
/// footer, the detail ([`load`]).
pub fn list_object(engine: crate::sql::Engine) -> &'static str {
    static SQL: crate::sql::dialect::PerEngine = crate::sql::dialect::PerEngine::new(|engine| {
        let columns: Vec<String> = list_fields().map(|c| format!("i.{c}")).collect();
        let mut fields: Vec<(&str, &str)> = list_fields()
            .zip(&columns)
            .map(|(name, column)| (name, column.as_str()))
            .collect();
        fields.extend(joined_fields());
        crate::sql::dialect::json_object(engine, &fields)
    });
    SQL.get(engine)
}

/// The fields of [`InvoiceRow`] that are not columns of `invoices`: the user's and the
/// customer's names and numbers from the joins, and the payment sum (thousandths), each
/// with its SQL.
fn joined_fields() -> [(&'static str, &'static str); 5] {
    [
        ("u_firstname", "u.firstname"),
        ("u_lastname", "u.lastname"),
        ("customer_name", "cu.name"),
        ("customer_debit_number", "cu.debtor_number"),
        ("paid_milli", crate::sql::rules::paid_milli()),
    ]
}

/// The fields of [`list_object`] as a column list (`i.id, …, {sql} AS paid_milli`), for
/// reading the list form as rows ([`crate::lists::PageForm`]: PostgreSQL's way, issue 35).
pub fn list_columns() -> &'static str {
    static SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        list_fields()
            .map(|c| format!("i.{c}"))
            .chain(
                joined_fields()
                    .into_iter()
                    .map(|(name, sql)| format!("{sql} AS {name}")),
            )
            .collect::<Vec<_>>()
            .join(", ")
    });
    &SQL
}

/// One `invoices` row with its user's names, read by sqlx ([`columns`]) or from its JSON
/// form ([`list_object`]); every field must be present (a missing one is a decode error,
/// not a default), except the salutation and footer of the list form.
#[derive(sqlx_macros::FromRow, serde::Deserialize, Debug)]
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
    #[serde(deserialize_with = "crate::store::db::int_bool")]
    reversed: bool,
    reversal_invoice_id: Option<i64>,
    #[serde(deserialize_with = "crate::store::db::int_bool")]
    reversal: bool,
    reversed_invoice_id: Option<i64>,
    #[serde(deserialize_with = "crate::store::db::int_bool")]
    credit_note: bool,
    credited_invoice_id: Option<i64>,
    offer_id: Option<i64>,
    title: String,
    recipient_address: String,
    currency: String,
    net_total: Dec,
    tax: Dec,
    #[serde(deserialize_with = "crate::store::db::int_bool")]
    reverse_charge: bool,
    #[serde(deserialize_with = "crate::store::db::int_bool")]
    intra_eu: bool,
    gross_total: Dec,
    discount: Dec,
    cash_discount: Dec,
    cash_discount_days: i64,
    #[serde(deserialize_with = "crate::store::db::int_bool")]
    locked: bool,
    #[serde(deserialize_with = "crate::store::db::int_bool")]
    activity_hours_modified: bool,
    #[serde(default)]
    #[sqlx(default)]
    salutation: String,
    #[serde(default)]
    #[sqlx(default)]
    footer: String,
    custom_properties: String,
    tags: String,
    tax_breakdown: Option<String>,
    buyer_reference: Option<String>,
    payment_means: Option<Word<PaymentMeans>>,
    kind: Word<InvoiceKind>,
    deducted_down_payments: String,
    deducted_total: Dec,
    final_invoice_id: Option<i64>,
    created_at: Ts,
    updated_at: Ts,
    u_firstname: Option<String>,
    u_lastname: Option<String>,
    customer_name: Option<String>,
    customer_debit_number: Option<i64>,
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
        let open_amount = crate::lists::summary::open_from_milli(
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
            payment_reference: self
                .identifier
                .as_deref()
                .filter(|_| !self.reversal && !self.credit_note)
                .and_then(kontor_model::payment_reference::payment_reference),
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
            credit_note: self.credit_note,
            credited_invoice_id: self.credited_invoice_id,
            credit_notes: None,
            kind: self.kind.0,
            deducted_down_payments: serde_json::from_str(&self.deducted_down_payments)
                .unwrap_or_default(),
            amount_due: self.gross_total.0 - self.deducted_total.0,
            final_invoice_id: self.final_invoice_id,
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
            // The customer's debtor number (issue 31); an invoice has no creditor account.
            debit_number: self.customer_debit_number,
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
        "SELECT {} {FROM} WHERE i.id = $1 AND i.deleted_at IS NULL",
        columns()
    ))
    .bind(id)
    .fetch_optional(pool)
    .await?
    .ok_or_else(|| ApiError::not_found(format!("invoice {id}")))
}

/// An invoice's positions (`i` the invoice's alias) as one JSON value of `engine`: an array
/// of [`ItemRow`] objects in position order.
fn items_json(engine: crate::sql::Engine) -> String {
    use crate::sql::dialect::{json_array_agg, json_object_of, json_subquery};
    let item = json_object_of(
        engine,
        "it",
        &[
            "id",
            "kind",
            "title",
            "description",
            "quantity",
            "unit",
            "unit_price",
            "net_total",
            "tax",
            "tax_category",
            "tax_exemption_reason",
        ],
    );
    json_subquery(
        engine,
        &format!(
            "(SELECT {} FROM invoice_items it WHERE it.invoice_id = i.id)",
            json_array_agg(engine, &item, "it.position")
        ),
    )
}

/// Everything of the full representation, read in one statement ([`load`]).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct DetailParts {
    row: InvoiceRow,
    items: Vec<ItemRow>,
    /// `[item id, 1 activity / 0 expense, record id]`.
    billed: Vec<(i64, i64, i64)>,
    payments: Vec<crate::invoices::payments::PaymentRow>,
    reminders: Vec<crate::reminders::rows::ReminderRow>,
    credit_notes: Vec<CreditNoteRow>,
}

/// One credit note of an invoice in its JSON form ([`credit_notes_json`]).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CreditNoteRow {
    id: i64,
    identifier: Option<String>,
    date: NaiveDate,
    gross_total: Dec,
}

/// The credit notes of invoice `i` (issue 33), oldest first, as one JSON array of
/// `engine`.
fn credit_notes_json(engine: crate::sql::Engine) -> String {
    use crate::sql::dialect::{json_array_agg, json_object_of, json_subquery};
    let row = json_object_of(engine, "c", &["id", "identifier", "date", "gross_total"]);
    json_subquery(
        engine,
        &format!(
            "(SELECT {} FROM invoices c WHERE c.credited_invoice_id = i.id AND c.deleted_at IS NULL)",
            json_array_agg(engine, &row, "c.id")
        ),
    )
}

/// Loads the full representation of a live invoice: user, items (with the activities and
/// expenses each bills), payments, reminders — in one statement, whose result SQLite
/// writes as one JSON value ([`list_object`] with the salutation and footer, and the
/// parts' arrays): each statement is a round trip to the database's thread, and these
/// round trips bounded GET /invoices/{id} (issue 13's profile in `docs/benchmarks.md`).
/// Errors: 404 when it does not exist or was deleted; 500 for a corrupt stored value.
pub async fn load(pool: &crate::sql::Db, id: i64) -> ApiResult<Invoice> {
    static SQL: crate::sql::dialect::PerEngine = crate::sql::dialect::PerEngine::new(|engine| {
        use crate::sql::dialect::{json_object, json_text, json_with};
        let row = json_with(
            engine,
            list_object(engine),
            &[("salutation", "i.salutation"), ("footer", "i.footer")],
        );
        let (items, billed, payments, reminders, credit_notes) = (
            items_json(engine),
            crate::billable::billing::billed_json(engine),
            crate::invoices::payments::payments_json(engine),
            crate::reminders::rows::reminders_json(engine),
            credit_notes_json(engine),
        );
        let parts = json_object(
            engine,
            &[
                ("row", &row),
                ("items", &items),
                ("billed", &billed),
                ("payments", &payments),
                ("reminders", &reminders),
                ("credit_notes", &credit_notes),
            ],
        );
        format!(
            "SELECT {} {FROM} WHERE i.id = $1 AND i.deleted_at IS NULL",
            json_text(engine, &parts)
        )
    });
    let sql = SQL.get(pool.engine());
    let text: String = crate::sql::query_scalar(sql)
        .bind(id)
        .fetch_optional(pool)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("invoice {id}")))?;
    let parts: DetailParts = serde_json::from_str(&text)
        .map_err(|e| ApiError::Internal(format!("stored invoice {id}: {e}")))?;
    let (salutation, footer) = (parts.row.salutation.clone(), parts.row.footer.clone());
    let mut invoice = parts.row.into_invoice(crate::lists::summary::today());
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
    invoice.credit_notes = Some(
        parts
            .credit_notes
            .into_iter()
            .map(|c| kontor_model::invoice::CreditNoteRef {
                id: c.id,
                identifier: c.identifier.unwrap_or_default(),
                date: c.date,
                gross_total: c.gross_total.0,
            })
            .collect(),
    );
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
