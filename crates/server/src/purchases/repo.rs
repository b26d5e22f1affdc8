//! Reading purchases: rows → [`Purchase`] with positions, categories and payments.

use crate::http::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::store::db::{json_list, json_map, Dec, Ts, Word};
use chrono::NaiveDate;
use kontor_model::purchase::{
    PaymentMethod, Purchase, PurchaseCategory, PurchaseEInvoice, PurchaseItem, PurchasePayment,
    PurchaseStatus, PurchaseUser, PurchaseVat, Supplier,
};
use std::collections::HashMap;

/// Columns of a purchase row with supplier and user.
pub const COLUMNS: &str = "p.*, c.name AS company_name, c.iban AS company_iban, c.creditor_number AS company_credit_number, u.firstname AS u_firstname, u.lastname AS u_lastname";
/// The joins of the purchase columns (after the `purchases p` table).
macro_rules! purchase_joins {
    () => {
        " LEFT JOIN companies c ON c.id = p.company_id LEFT JOIN users u ON u.id = p.user_id"
    };
}

/// The table and joins of the columns.
pub const FROM: &str = concat!("FROM purchases p", purchase_joins!());

/// The purchase list's table for [`crate::lists::fetch_page`]; the unfiltered
/// list is counted by the `purchases` counter.
pub const LIST_TABLE: crate::lists::ListTable = crate::lists::ListTable {
    table: "purchases p",
    id: "p.id",
    joins: purchase_joins!(),
    counter: ("purchases", " WHERE TRUE"),
};

/// One `purchases` row with its supplier and user.
#[derive(sqlx_macros::FromRow)]
pub struct PurchaseRow {
    id: i64,
    identifier: String,
    receipt_identifier: String,
    title: String,
    info: Option<String>,
    iban: String,
    reference: Option<String>,
    date: NaiveDate,
    due_date: Option<NaiveDate>,
    service_period_from: Option<NaiveDate>,
    service_period_to: Option<NaiveDate>,
    status: Word<PurchaseStatus>,
    payment_method: Word<PaymentMethod>,
    net_total: Dec,
    gross_total: Dec,
    currency: String,
    company_id: Option<i64>,
    user_id: Option<i64>,
    /// The stored document's name in the storage folder, if any.
    pub document_key: Option<String>,
    document_type: Option<String>,
    /// The uploaded document's cleaned file name (`receipt.pdf`).
    document_name: Option<String>,
    /// `cii` / `ubl` for a purchase imported from an e-invoice (migration 0011).
    pub einvoice_syntax: Option<String>,
    /// `xrechnung` / `factur-x` / `en16931` for an imported e-invoice.
    pub einvoice_format: Option<String>,
    /// The seller's name (BT-27) as the imported e-invoice writes it (schema 37).
    einvoice_seller_name: Option<String>,
    /// The e-invoice check as JSON (schema 43), `None` without one.
    pub einvoice_check: Option<String>,
    /// Where a request for a corrected invoice goes (schema 43).
    pub einvoice_reply_to: Option<String>,
    custom_properties: String,
    tags: String,
    created_at: Ts,
    updated_at: Ts,
    company_name: Option<String>,
    company_iban: Option<String>,
    company_credit_number: Option<i64>,
    u_firstname: Option<String>,
    u_lastname: Option<String>,
}

#[derive(sqlx_macros::FromRow)]
struct ItemRow {
    id: i64,
    purchase_id: i64,
    title: String,
    net_total: Dec,
    tax_total: Dec,
    gross_total: Dec,
    tax: Dec,
    tax_included: bool,
    category_id: Option<i64>,
}

#[derive(sqlx_macros::FromRow)]
struct PaymentRow {
    id: i64,
    purchase_id: i64,
    date: NaiveDate,
    total: Dec,
    created_at: Ts,
    updated_at: Ts,
}

impl From<PaymentRow> for PurchasePayment {
    fn from(r: PaymentRow) -> Self {
        PurchasePayment {
            id: r.id,
            purchase_id: r.purchase_id,
            date: r.date,
            total: r.total.0,
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
        }
    }
}

#[derive(sqlx_macros::FromRow)]
struct CategoryRow {
    id: i64,
    name: String,
    credit_account: String,
    created_at: Ts,
    updated_at: Ts,
}

impl From<CategoryRow> for PurchaseCategory {
    fn from(r: CategoryRow) -> Self {
        PurchaseCategory {
            id: r.id,
            name: r.name,
            credit_account: r.credit_account,
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
        }
    }
}

/// Purchase categories by name (all, or the one with `id`).
pub async fn categories(
    pool: &crate::sql::Db,
    id: Option<i64>,
) -> ApiResult<Vec<PurchaseCategory>> {
    let rows: Vec<CategoryRow> = crate::sql::query_as(
        "SELECT id, name, credit_account, created_at, updated_at FROM purchase_categories
         WHERE $1 IS NULL OR id = $1 ORDER BY kontor_fold(name), id",
    )
    .bind(id)
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(PurchaseCategory::from).collect())
}

/// The payments of `purchase_id`, oldest first.
pub async fn payments_of(
    pool: &crate::sql::Db,
    purchase_id: i64,
) -> ApiResult<Vec<PurchasePayment>> {
    let rows: Vec<PaymentRow> = crate::sql::query_as(
        "SELECT * FROM purchase_payments WHERE purchase_id = $1 ORDER BY date, id",
    )
    .bind(purchase_id)
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(PurchasePayment::from).collect())
}

/// Every purchase payment, newest first (one query).
pub async fn all_payments(pool: &crate::sql::Db) -> ApiResult<Vec<PurchasePayment>> {
    let rows: Vec<PaymentRow> =
        crate::sql::query_as("SELECT * FROM purchase_payments ORDER BY date DESC, id DESC")
            .fetch_all(pool)
            .await?;
    Ok(rows.into_iter().map(PurchasePayment::from).collect())
}

/// Loads payment `id`. Errors: 404.
pub async fn payment(pool: &crate::sql::Db, id: i64) -> ApiResult<PurchasePayment> {
    let row: Option<PaymentRow> =
        crate::sql::query_as("SELECT * FROM purchase_payments WHERE id = $1")
            .bind(id)
            .fetch_optional(pool)
            .await?;
    row.map(PurchasePayment::from)
        .ok_or_else(|| ApiError::not_found(format!("purchase payment {id}")))
}

/// Turns rows into representations, loading all their positions, categories and payments
/// with three queries (not one per purchase).
pub async fn present(
    state: &AppState,
    base: &str,
    rows: Vec<PurchaseRow>,
) -> ApiResult<Vec<Purchase>> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<String> = rows.iter().map(|r| r.id.to_string()).collect();
    let list = ids.join(",");
    let items: Vec<ItemRow> = crate::sql::query_as(&format!("SELECT id, purchase_id, title, net_total, tax_total, gross_total, tax, tax_included, category_id FROM purchase_items WHERE purchase_id IN ({list}) ORDER BY purchase_id, position")).fetch_all(&state.pool).await?;
    let payments: Vec<PaymentRow> = crate::sql::query_as(&format!(
        "SELECT * FROM purchase_payments WHERE purchase_id IN ({list}) ORDER BY date, id"
    ))
    .fetch_all(&state.pool)
    .await?;
    let categories: HashMap<i64, PurchaseCategory> = categories(&state.pool, None)
        .await?
        .into_iter()
        .map(|c| (c.id, c))
        .collect();
    // Each item answers its supplier's creditor number (issue 31).
    let credit_numbers: HashMap<i64, Option<i64>> = rows
        .iter()
        .map(|r| (r.id, r.company_credit_number))
        .collect();
    let mut items_by: HashMap<i64, Vec<PurchaseItem>> = HashMap::new();
    for i in items {
        let tax = i.tax.0;
        items_by
            .entry(i.purchase_id)
            .or_default()
            .push(PurchaseItem {
                id: i.id,
                title: i.title,
                net_total: i.net_total.0,
                tax_total: i.tax_total.0,
                tax,
                vat: PurchaseVat {
                    tax,
                    reverse_charge: false,
                    intra_eu: false,
                    active: !tax.is_zero(),
                },
                tax_included: i.tax_included,
                gross_total: i.gross_total.0,
                category: i.category_id.and_then(|c| categories.get(&c).cloned()),
                supplier_credit_number: credit_numbers.get(&i.purchase_id).copied().flatten(),
                expense: None,
            });
    }
    let mut payments_by: HashMap<i64, Vec<PurchasePayment>> = HashMap::new();
    for p in payments {
        payments_by.entry(p.purchase_id).or_default().push(p.into());
    }
    Ok(rows
        .into_iter()
        .map(|r| Purchase {
            id: r.id,
            identifier: r.identifier,
            receipt_identifier: r.receipt_identifier,
            title: r.title,
            info: r.info,
            iban: r.iban,
            reference: r.reference,
            date: r.date,
            due_date: r.due_date,
            service_period_from: r.service_period_from,
            service_period_to: r.service_period_to,
            status: r.status.0,
            payment_method: r.payment_method.0,
            net_total: r.net_total.0,
            gross_total: r.gross_total.0,
            currency: r.currency,
            file_url: r.document_key.as_ref().map(|k| {
                state
                    .signer
                    .link(base, &format!("/files/purchase_documents/{k}"))
            }),
            file_content_type: r.document_type,
            file_name: r.document_key.as_ref().and(r.document_name),
            custom_properties: json_map(&r.custom_properties),
            tags: json_list(&r.tags),
            company: match (r.company_id, r.company_name) {
                (Some(id), Some(name)) => Some(Supplier {
                    id,
                    name,
                    iban: r.company_iban,
                }),
                _ => None,
            },
            payments: payments_by.remove(&r.id).unwrap_or_default(),
            user: match (r.user_id, r.u_firstname, r.u_lastname) {
                (Some(id), Some(firstname), Some(name)) => Some(PurchaseUser {
                    id,
                    firstname,
                    name,
                }),
                _ => None,
            },
            items: items_by.remove(&r.id).unwrap_or_default(),
            e_invoice: match (r.einvoice_syntax, r.einvoice_format) {
                (Some(syntax), Some(format)) => Some(PurchaseEInvoice {
                    syntax,
                    format,
                    seller_name: r.einvoice_seller_name,
                }),
                _ => None,
            },
            einvoice_check: r
                .einvoice_check
                .as_deref()
                .and_then(|c| serde_json::from_str(c).ok()),
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
        })
        .collect())
}

/// Loads the row of purchase `id`. Errors: 404.
pub async fn load_row(pool: &crate::sql::Db, id: i64) -> ApiResult<PurchaseRow> {
    crate::sql::query_as(&format!("SELECT {COLUMNS} {FROM} WHERE p.id = $1"))
        .bind(id)
        .fetch_optional(pool)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("purchase {id}")))
}

/// Loads the representation of purchase `id` with a fresh signed `file_url`. Errors: 404.
pub async fn load(state: &AppState, base: &str, id: i64) -> ApiResult<Purchase> {
    let row = load_row(&state.pool, id).await?;
    present(state, base, vec![row])
        .await?
        .pop()
        .ok_or_else(|| ApiError::not_found(format!("purchase {id}")))
}
