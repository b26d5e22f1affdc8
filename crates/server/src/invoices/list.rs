//! GET /invoices and GET /invoices/locked: filters of interface.md plus the global
//! filters, pagination headers and `sort_by` (`decisions.md` § Lists).

use super::repo::{columns, list_columns, list_object, InvoiceRow, FROM, LIST_TABLE};
use crate::http::error::{ApiError, ApiResult};
use crate::http::pagination::PageOf;
use crate::lists::summary::{milli, SummarySql};
use crate::lists::{fetch_document_page, push_global, push_term, sort_order, ListQuery, PageForm};
use crate::sql::rules::{invoice_status_in, open_milli, push_effective_status, push_overdue};
use crate::state::AppState;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use kontor_model::dunning::may_show_as;
use kontor_model::invoice::Invoice;
use kontor_model::query::{
    invoice_months, GlobalFilter, InvoiceFilter, InvoiceMonths, ListSummary,
};
use rust_decimal::Decimal;

const SORTS: &[(&str, &str)] = &[
    ("date", "i.date"),
    ("due_date", "i.due_date"),
    ("identifier", "i.identifier"),
    ("title", "kontor_fold(i.title)"),
    ("status", "i.status"),
    ("net_total", "CAST(i.net_total AS REAL)"),
    ("gross_total", "CAST(i.gross_total AS REAL)"),
    ("created_at", "i.created_at"),
    ("updated_at", "i.updated_at"),
];

/// The `sort` keys (issue 11) and their SQL. `open_amount` is the exact rule of
/// [`kontor_model::dashboard::open_amount`] in thousandths ([`open_milli`]).
fn sort_keys() -> &'static [(&'static str, &'static str)] {
    static KEYS: std::sync::LazyLock<[(&str, &str); 6]> = std::sync::LazyLock::new(|| {
        [
            ("identifier", "i.identifier"),
            ("date", "i.date"),
            ("due_date", "i.due_date"),
            (
                "customer",
                "kontor_fold((SELECT sc.name FROM companies sc WHERE sc.id = i.customer_id))",
            ),
            ("gross_total", "CAST(i.gross_total AS REAL)"),
            ("open_amount", open_milli()),
        ]
    });
    &*KEYS
}

fn push_where(
    qb: &mut crate::sql::Builder<'_>,
    f: &InvoiceFilter,
    global: &GlobalFilter,
    locked_only: bool,
) {
    qb.push(" WHERE i.deleted_at IS NULL");
    if locked_only {
        qb.push(" AND i.locked = TRUE");
    }
    if !f.status.is_empty() {
        // The stored statuses that may show as the requested ones (an index of the stored
        // status serves this), then the status the API shows (`dunning::effective_status`).
        qb.push(format!(
            " AND {}",
            invoice_status_in("i.status", |stored| f
                .status
                .iter()
                .any(|shown| may_show_as(stored, *shown)))
        ));
        qb.push(" AND ");
        push_effective_status(qb, crate::lists::summary::today());
        qb.push(" IN (");
        let mut sep = qb.separated(", ");
        for s in &f.status {
            sep.push_bind(s.as_str());
        }
        qb.push(")");
    }
    let ranges = [
        ("i.date >= ", f.from),
        ("i.date <= ", f.to),
        ("i.service_period_from >= ", f.service_period_from),
        ("i.service_period_to <= ", f.service_period_to),
    ];
    for (cond, value) in ranges {
        if let Some(d) = value {
            qb.push(" AND ").push(cond).push_bind(d);
        }
    }
    for tag in &f.tags {
        qb.push(" AND EXISTS (SELECT 1 FROM json_each(i.tags) WHERE value = ")
            .push_bind(tag.clone())
            .push(")");
    }
    if let Some(id) = &f.identifier {
        qb.push(" AND i.identifier = ").push_bind(id.clone());
    }
    if let Some(term) = &f.term {
        push_term(
            qb,
            term,
            &[
                "i.title",
                "i.identifier",
                "i.recipient_address",
                "(SELECT sc.name FROM companies sc WHERE sc.id = i.customer_id)",
            ],
        );
    }
    if let Some(c) = f.company_id {
        qb.push(" AND i.customer_id = ").push_bind(c);
    }
    if let Some(p) = f.project_id {
        qb.push(" AND i.project_id = ").push_bind(p);
    }
    if let Some(open) = f.open {
        qb.push(format!(
            " AND {}({} > 0)",
            if open { "" } else { "NOT " },
            open_milli()
        ));
    }
    if let Some(overdue) = f.overdue {
        // dashboard::is_overdue on the server's date.
        qb.push(if overdue { " AND " } else { " AND NOT " });
        push_overdue(qb, crate::lists::summary::today());
    }
    push_global(qb, global, "i", true);
}

async fn run(
    state: &AppState,
    headers: &HeaderMap,
    list: ListQuery<InvoiceFilter>,
    locked_only: bool,
) -> ApiResult<PageOf<Invoice>> {
    let base = crate::http::pagination::absolute_url(headers, &"/".parse().expect("valid uri"));
    let base = base.trim_end_matches('/');
    let order = match sort_order(
        list.filter.sort.as_deref(),
        list.filter.order,
        sort_keys(),
        "i.id",
    ) {
        Some(order) if list.paging.sort_by.is_none() => order,
        _ => list.order(SORTS, "i.date DESC, i.id DESC", "i.id")?,
    };
    let keyset = crate::lists::keyset_of(&order, keyset_sorts(), "i.id");
    let (rows, total) = fetch_document_page::<InvoiceRow>(
        &state.pool,
        PageForm {
            object: list_object(state.pool.engine()),
            columns: list_columns(),
        },
        &LIST_TABLE,
        |qb| push_where(qb, &list.filter, &list.global, locked_only),
        (&order, keyset),
        &list.paging,
    )
    .await?;
    let today = crate::lists::summary::today();
    let items: Vec<Invoice> = rows
        .into_iter()
        .map(|row| {
            let mut invoice = row.into_invoice(today);
            super::repo::sign(state, base, &mut invoice);
            invoice
        })
        .collect();
    let next_cursor = keyset.and_then(|_| items.last().map(|i| i.id));
    Ok(list.page(items, total).with_next_cursor(next_cursor))
}

/// The sort expressions of [`SORTS`] and [`sort_keys`] that are never NULL: an order by
/// one of them is read by cursor when the request carries one (issue 35, keyset paging:
/// `lists::keyset_of`). The number (empty on drafts) and the customer's name are paged by
/// number only.
fn keyset_sorts() -> &'static [&'static str] {
    static EXPRS: std::sync::LazyLock<[&str; 9]> = std::sync::LazyLock::new(|| {
        [
            "i.date",
            "i.due_date",
            "kontor_fold(i.title)",
            "i.status",
            "CAST(i.net_total AS REAL)",
            "CAST(i.gross_total AS REAL)",
            "i.created_at",
            "i.updated_at",
            open_milli(),
        ]
    });
    &*EXPRS
}

/// GET /invoices → one page of invoices (list form). Errors: 400 for a malformed filter.
#[utoipa::path(
    get,
    path = "/invoices",
    operation_id = "invoices_list",
    tag = "invoices",
    params(kontor_model::query::ListParams, InvoiceFilter, kontor_model::query::CustomerIdAlias),
    responses(
        (status = 200, description = "One page of invoices", body = Vec<Invoice>)
    )
)]
pub async fn list(
    State(state): State<AppState>,
    headers: HeaderMap,
    list: ListQuery<InvoiceFilter>,
) -> ApiResult<PageOf<Invoice>> {
    run(&state, &headers, list, false).await
}

/// GET /invoices/locked → locked invoices only (status, date_from, date_to, identifier).
#[utoipa::path(
    get,
    path = "/invoices/locked",
    operation_id = "invoices_locked",
    tag = "invoices",
    params(kontor_model::query::ListParams, InvoiceFilter, kontor_model::query::CustomerIdAlias),
    responses(
        (status = 200, description = "One page of locked invoices", body = Vec<Invoice>)
    )
)]
pub async fn locked(
    State(state): State<AppState>,
    headers: HeaderMap,
    list: ListQuery<InvoiceFilter>,
) -> ApiResult<PageOf<Invoice>> {
    run(&state, &headers, list, true).await
}

/// The [`ListSummary`] of every invoice `filter` (with `global`) selects: per currency
/// the count, net, gross and open totals, summed exactly in SQL over the list's own
/// conditions — for the unfiltered list read from the `invoice_totals` rows the write
/// path keeps (migration 0019), so its cost does not grow with the stored invoices.
/// Errors: 500 when a sum overflows.
pub async fn summary_of(
    pool: &crate::sql::Db,
    filter: &InvoiceFilter,
    global: &GlobalFilter,
) -> ApiResult<ListSummary> {
    let mut conditions = crate::sql::Builder::new("");
    push_where(&mut conditions, filter, global, false);
    if conditions.sql() == LIST_TABLE.counter.1 {
        return crate::lists::summary::maintained_invoice_totals(pool).await;
    }
    computed_summary(pool, filter, global).await
}

/// [`summary_of`] summed over the selected rows (what the `invoice_totals` rows must
/// always equal for the unfiltered list; the server tests compare both).
pub async fn computed_summary(
    pool: &crate::sql::Db,
    filter: &InvoiceFilter,
    global: &GlobalFilter,
) -> ApiResult<ListSummary> {
    let sql = SummarySql {
        from: FROM,
        alias: "i",
        net: milli!("i.net_total"),
        gross: milli!("i.gross_total"),
        open: Some(open_milli()),
    };
    crate::lists::summary::run(pool, &sql, |qb| push_where(qb, filter, global, false)).await
}

/// GET /invoices/summary?<the list's filters> → [`ListSummary`]: per currency the count,
/// net, gross and open totals (`open_amount` as on every invoice) of every invoice the
/// filter selects — the same conditions as GET /invoices, paging and sorting ignored
/// (issue 11 § Find and see). Errors: 400 naming a malformed filter; 500 when a sum
/// overflows.
#[utoipa::path(
    get,
    path = "/invoices/summary",
    operation_id = "invoices_summary",
    tag = "invoices",
    params(kontor_model::query::ListParams, InvoiceFilter, kontor_model::query::CustomerIdAlias),
    responses(
        (status = 200, description = "Per currency the count, net, gross and open totals", body = ListSummary)
    )
)]
pub async fn summary(
    State(state): State<AppState>,
    list: ListQuery<InvoiceFilter>,
) -> ApiResult<Json<ListSummary>> {
    summary_of(&state.pool, &list.filter, &list.global)
        .await
        .map(Json)
}

/// GET /invoices/monthly?<the list's filters> → [`InvoiceMonths`] (issue 14 § App, the
/// list's chart): per currency the open and overdue totals of every invoice the filter
/// selects, and for the last twelve months (by invoice date) the paid, open-not-due and
/// overdue amounts of the month's collectible invoices (reversal invoices left out), summed
/// exactly in SQL with the list's own conditions; paging and sorting ignored. Overdue is
/// due before the server's date with something open (`dunning::effective_status`).
/// Errors: 400 naming a malformed filter; 500 when a sum overflows.
#[utoipa::path(
    get,
    path = "/invoices/monthly",
    operation_id = "invoices_monthly",
    tag = "invoices",
    params(kontor_model::query::ListParams, InvoiceFilter, kontor_model::query::CustomerIdAlias),
    responses(
        (status = 200, description = "Per currency the open and overdue totals and the last twelve months", body = InvoiceMonths)
    )
)]
pub async fn monthly(
    State(state): State<AppState>,
    list: ListQuery<InvoiceFilter>,
) -> ApiResult<Json<InvoiceMonths>> {
    let today = crate::lists::summary::today();
    let gross = milli!("i.gross_total");
    let open = open_milli();
    let collectible = crate::sql::rules::collectible();
    let mut qb = crate::sql::Builder::new(format!(
        "SELECT i.currency, substr(CAST(i.date AS TEXT), 1, 7), \
         CAST(SUM(CASE WHEN i.reversal = FALSE AND {collectible} THEN {gross} - {open} ELSE 0 END) AS BIGINT), \
         CAST(SUM(CASE WHEN i.reversal = FALSE AND i.due_date >= "
    ));
    qb.push_bind(today)
        .push(format!(
            " THEN {open} ELSE 0 END) AS BIGINT), CAST(SUM(CASE WHEN i.reversal = FALSE AND i.due_date < "
        ))
        .push_bind(today)
        .push(format!(" THEN {open} ELSE 0 END) AS BIGINT) FROM invoices i"));
    push_where(&mut qb, &list.filter, &list.global, false);
    qb.push(" GROUP BY 1, 2");
    let sums: Vec<(String, String, i64, i64, i64)> =
        qb.build_query_as().fetch_all(&state.pool).await?;
    let rows = sums
        .into_iter()
        .filter_map(|(currency, month, paid, open, overdue)| {
            let month = month.parse().ok()?;
            let units = |milli: i64| Decimal::new(milli, 3);
            Some((currency, month, units(paid), units(open), units(overdue)))
        })
        .collect::<Vec<_>>();
    invoice_months(today, &rows)
        .map(Json)
        .ok_or_else(|| ApiError::Internal("the invoices' sums overflow".into()))
}

/// The invoices `filter` selects (at most `limit`, by `order`, an `ORDER BY` body over
/// the list's columns), in list form with their `open_amount` (no signed links); for the
/// dashboard's receivables.
pub async fn select(
    pool: &crate::sql::Db,
    filter: &InvoiceFilter,
    order: &str,
    limit: i64,
) -> ApiResult<Vec<Invoice>> {
    let mut qb = crate::sql::Builder::new(format!("SELECT {} {FROM}", columns()));
    push_where(&mut qb, filter, &GlobalFilter::default(), false);
    qb.push(format!(" ORDER BY {order} LIMIT "))
        .push_bind(limit);
    let rows: Vec<InvoiceRow> = qb.build_query_as().fetch_all(pool).await?;
    let today = crate::lists::summary::today();
    Ok(rows
        .into_iter()
        .map(|row| row.into_invoice(today))
        .collect())
}
