//! GET /purchases: category_id, term, company_id (0 = without supplier), status, tags,
//! date range `from:to`, unpaid, payment_method; global filters; pagination; `sort_by`.

use super::repo::{present, PurchaseRow, COLUMNS, FROM, LIST_TABLE};
use crate::http::error::{ApiError, ApiResult};
use crate::http::pagination::PageOf;
use crate::lists::summary::{milli, SummarySql};
use crate::lists::{push_global, push_term, DocumentListing, ListQuery};
use crate::state::AppState;
use crate::store::files::BaseUrl;
use axum::extract::State;
use axum::Json;
use kontor_model::purchase::{totals_per_currency, Purchase, PurchaseTotal};
use kontor_model::query::{GlobalFilter, ListSummary, PurchaseFilter};

const SORTS: &[(&str, &str)] = &[
    ("date", "p.date"),
    ("due_date", "p.due_date"),
    ("identifier", "p.identifier"),
    ("title", "kontor_fold(p.title)"),
    ("status", "p.status"),
    ("net_total", "CAST(p.net_total AS REAL)"),
    ("gross_total", "CAST(p.gross_total AS REAL)"),
    ("created_at", "p.created_at"),
    ("updated_at", "p.updated_at"),
];

/// The `sort` keys (issue 11) and their SQL.
const SORT_KEYS: &[(&str, &str)] = &[
    ("identifier", "p.identifier"),
    ("date", "p.date"),
    (
        "supplier",
        "kontor_fold((SELECT sc.name FROM companies sc WHERE sc.id = p.company_id))",
    ),
    ("gross_total", "CAST(p.gross_total AS REAL)"),
];

/// The purchase list's columns, table and sortings.
const LISTING: DocumentListing = DocumentListing {
    columns: COLUMNS,
    table: &LIST_TABLE,
    sort_keys: SORT_KEYS,
    sorts: SORTS,
    default_order: "p.date DESC, p.id DESC",
    id: "p.id",
    keyset_sorts: KEYSET_SORTS,
};

/// The sort expressions of [`SORTS`] and [`SORT_KEYS`] that are never NULL: an order by
/// one of them is read by cursor (issue 35, `lists::keyset_of`); the due date (empty on
/// some), the supplier's name and the open amount are paged by number only.
const KEYSET_SORTS: &[&str] = &[
    "p.date",
    "p.identifier",
    "kontor_fold(p.title)",
    "p.status",
    "CAST(p.net_total AS REAL)",
    "CAST(p.gross_total AS REAL)",
    "p.created_at",
    "p.updated_at",
];

/// Appends the filter's conditions (`WHERE ...`).
pub fn push_where(qb: &mut crate::sql::Builder<'_>, f: &PurchaseFilter, global: &GlobalFilter) {
    qb.push(" WHERE TRUE");
    if let Some(c) = f.category_id {
        qb.push(" AND (p.category_id = ").push_bind(c).push(" OR EXISTS (SELECT 1 FROM purchase_items i WHERE i.purchase_id = p.id AND i.category_id = ").push_bind(c).push("))");
    }
    if let Some(t) = &f.term {
        push_term(
            qb,
            t,
            &[
                "p.identifier",
                "p.receipt_identifier",
                "p.title",
                "(SELECT sc.name FROM companies sc WHERE sc.id = p.company_id)",
                "(SELECT string_agg(pi.title, '\n') FROM purchase_items pi WHERE pi.purchase_id = p.id)",
            ],
        );
    }
    match f.company_id {
        Some(0) => {
            qb.push(" AND p.company_id IS NULL");
        }
        Some(c) => {
            qb.push(" AND p.company_id = ").push_bind(c);
        }
        None => {}
    }
    if !f.status.is_empty() {
        qb.push(" AND p.status IN (");
        let mut sep = qb.separated(", ");
        for s in &f.status {
            sep.push_bind(s.as_str());
        }
        qb.push(")");
    }
    for tag in &f.tags {
        qb.push(" AND EXISTS (SELECT 1 FROM json_each(p.tags) WHERE value = ")
            .push_bind(tag.clone())
            .push(")");
    }
    if let Some(d) = f.date.from {
        qb.push(" AND p.date >= ").push_bind(d);
    }
    if let Some(d) = f.date.to {
        qb.push(" AND p.date <= ").push_bind(d);
    }
    match f.unpaid {
        Some(true) => {
            qb.push(
                " AND NOT EXISTS (SELECT 1 FROM purchase_payments pp WHERE pp.purchase_id = p.id)",
            );
        }
        Some(false) => {
            qb.push(" AND EXISTS (SELECT 1 FROM purchase_payments pp WHERE pp.purchase_id = p.id)");
        }
        None => {}
    }
    if let Some(m) = f.payment_method {
        qb.push(" AND p.payment_method = ").push_bind(m.as_str());
    }
    push_global(qb, global, "p", true);
}

/// List purchases.
///
/// GET /purchases → one page of purchases. Errors: 400 for a malformed filter.
#[utoipa::path(get, path = "/purchases", operation_id = "purchases_list", tag = "purchases",
    params(kontor_model::query::ListParams, PurchaseFilter),
    responses((status = 200, description = "One page of purchases.", body = Vec<Purchase>)))]
pub async fn list(
    State(state): State<AppState>,
    BaseUrl(base): BaseUrl,
    list: ListQuery<PurchaseFilter>,
) -> ApiResult<PageOf<Purchase>> {
    let page = list
        .fetch_documents::<PurchaseRow>(&state.pool, &LISTING, |qb| {
            push_where(qb, &list.filter, &list.global)
        })
        .await?;
    let items = present(&state, &base, page.rows).await?;
    let next_cursor = page.by_cursor.then(|| items.last().map(|p| p.id)).flatten();
    Ok(list.page(items, page.total).with_next_cursor(next_cursor))
}

/// Totals per currency of the purchases a filter selects.
///
/// GET /purchases/totals?<the list's filters> → `[{currency, net_total, gross_total,
/// count}]` over every purchase the filter matches (paging ignored), by currency code.
/// Errors: 400 naming a malformed filter; 500 when a stored amount is unreadable or a sum
/// leaves the decimal range.
#[utoipa::path(get, path = "/purchases/totals", operation_id = "purchases_totals", tag = "purchases",
    params(kontor_model::query::ListParams, PurchaseFilter),
    responses((status = 200, description = "Net and gross totals and counts of the purchases the filters select, per currency (by currency code; paging ignored).", body = Vec<PurchaseTotal>)))]
pub async fn totals(
    State(state): State<AppState>,
    list: ListQuery<PurchaseFilter>,
) -> ApiResult<Json<Vec<PurchaseTotal>>> {
    let mut qb =
        crate::sql::Builder::new("SELECT p.currency, p.net_total, p.gross_total FROM purchases p");
    push_where(&mut qb, &list.filter, &list.global);
    let rows: Vec<(String, crate::store::db::Dec, crate::store::db::Dec)> =
        qb.build_query_as().fetch_all(&state.pool).await?;
    totals_per_currency(
        rows.into_iter()
            .map(|(currency, net, gross)| (currency, net.0, gross.0)),
    )
    .map(Json)
    .ok_or_else(|| ApiError::Internal("purchase totals overflow".into()))
}

/// SQL: purchase `p`'s open amount in thousandths of a currency unit — gross − payments,
/// never below 0 ([`kontor_model::payment_rules::unpaid_amount`]; issue 11 contract
/// § Summaries).
pub(crate) const OPEN_SQL: &str = concat!(
    "GREATEST(",
    milli!("p.gross_total"),
    " - COALESCE((SELECT CAST(SUM(",
    milli!("pp.total"),
    ") AS BIGINT) FROM purchase_payments pp WHERE pp.purchase_id = p.id), 0), 0)"
);

/// The [`ListSummary`] of every purchase `filter` (with `global`) selects, summed
/// exactly in SQL over the list's own conditions. Errors: 500 when a sum overflows.
pub async fn summary_of(
    pool: &crate::sql::Db,
    filter: &PurchaseFilter,
    global: &GlobalFilter,
) -> ApiResult<ListSummary> {
    let sql = SummarySql {
        from: FROM,
        alias: "p",
        net: milli!("p.net_total"),
        gross: milli!("p.gross_total"),
        open: Some(OPEN_SQL),
    };
    crate::lists::summary::run(pool, &sql, |qb| push_where(qb, filter, global)).await
}

/// Totals of the purchases a filter selects.
///
/// GET /purchases/summary?<the list's filters> → [`ListSummary`]: per currency the count,
/// net, gross and open totals (gross − payments per purchase, never below 0) of every
/// purchase the filter selects (the conditions of GET /purchases, paging and sorting
/// ignored). Errors: 400 naming a malformed filter; 500 when a sum overflows.
#[utoipa::path(get, path = "/purchases/summary", operation_id = "purchases_summary", tag = "purchases",
    params(kontor_model::query::ListParams, PurchaseFilter),
    responses((status = 200, description = "Per currency the count, net, gross and open totals of the purchases the filters select (paging and sorting ignored).", body = ListSummary)))]
pub async fn summary(
    State(state): State<AppState>,
    list: ListQuery<PurchaseFilter>,
) -> ApiResult<Json<ListSummary>> {
    summary_of(&state.pool, &list.filter, &list.global)
        .await
        .map(Json)
}
