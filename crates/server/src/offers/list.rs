//! GET /offers: sort, status, from, to, identifier, deal_id and project_id (single or
//! comma-separated), plus the global filters, pagination and `sort_by`.

use super::repo::{sign, OfferRow, COLUMNS, FROM, LIST_TABLE};
use crate::http::error::ApiResult;
use crate::http::pagination::PageOf;
use crate::lists::summary::{milli, SummarySql};
use crate::lists::{push_global, push_term, DocumentListing, ListQuery};
use crate::state::AppState;
use crate::store::files::BaseUrl;
use axum::extract::State;
use axum::Json;
use kontor_model::offer::Offer;
use kontor_model::query::{GlobalFilter, ListSummary, OfferFilter};

const SORTS: &[(&str, &str)] = &[
    ("date", "o.date"),
    ("due_date", "o.due_date"),
    ("identifier", "o.identifier"),
    ("title", "kontor_fold(o.title)"),
    ("status", "o.status"),
    ("net_total", "CAST(o.net_total AS REAL)"),
    ("gross_total", "CAST(o.gross_total AS REAL)"),
    ("created_at", "o.created_at"),
    ("updated_at", "o.updated_at"),
];

fn push_ids(qb: &mut crate::sql::Builder<'_>, column: &str, ids: &[i64]) {
    if ids.is_empty() {
        return;
    }
    qb.push(format!(" AND {column} IN ("));
    let mut sep = qb.separated(", ");
    for id in ids {
        sep.push_bind(*id);
    }
    qb.push(")");
}

/// The `sort` keys (interface.md's and issue 11's) and their SQL.
const SORT_KEYS: &[(&str, &str)] = &[
    ("date", "o.date"),
    ("created_at", "o.created_at"),
    ("title", "kontor_fold(o.title)"),
    ("identifier", "o.identifier"),
    (
        "company",
        "kontor_fold((SELECT sc.name FROM companies sc WHERE sc.id = o.company_id))",
    ),
    ("gross_total", "CAST(o.gross_total AS REAL)"),
];

/// The offer list's columns, table and sortings.
const LISTING: DocumentListing = DocumentListing {
    columns: COLUMNS,
    table: &LIST_TABLE,
    sort_keys: SORT_KEYS,
    sorts: SORTS,
    default_order: "o.date DESC, o.id DESC",
    id: "o.id",
    keyset_sorts: KEYSET_SORTS,
};

/// The sort expressions of [`SORTS`] and [`SORT_KEYS`] that are never NULL: an order by
/// one of them is read by cursor (issue 35, `lists::keyset_of`); the company's name is
/// paged by number only.
const KEYSET_SORTS: &[&str] = &[
    "o.date",
    "o.due_date",
    "o.identifier",
    "kontor_fold(o.title)",
    "o.status",
    "CAST(o.net_total AS REAL)",
    "CAST(o.gross_total AS REAL)",
    "o.created_at",
    "o.updated_at",
];

/// Appends the offer list's conditions (`WHERE ...`) for `f` and the global filters; the
/// list and its summary share them.
fn push_where(qb: &mut crate::sql::Builder<'_>, f: &OfferFilter, global: &GlobalFilter) {
    qb.push(" WHERE TRUE");
    if !f.status.is_empty() {
        qb.push(" AND o.status IN (");
        let mut sep = qb.separated(", ");
        for s in &f.status {
            sep.push_bind(s.as_str());
        }
        qb.push(")");
    }
    if let Some(d) = f.from {
        qb.push(" AND o.date >= ").push_bind(d);
    }
    if let Some(d) = f.to {
        qb.push(" AND o.date <= ").push_bind(d);
    }
    if let Some(d) = f.due_date_from {
        qb.push(" AND o.due_date >= ").push_bind(d);
    }
    if let Some(d) = f.due_date_to {
        qb.push(" AND o.due_date <= ").push_bind(d);
    }
    if let Some(i) = &f.identifier {
        qb.push(" AND o.identifier = ").push_bind(i.clone());
    }
    if let Some(c) = f.company_id {
        qb.push(" AND o.company_id = ").push_bind(c);
    }
    if let Some(term) = &f.term {
        push_term(
            qb,
            term,
            &[
                "o.title",
                "o.identifier",
                "o.recipient_address",
                "(SELECT sc.name FROM companies sc WHERE sc.id = o.company_id)",
            ],
        );
    }
    push_ids(qb, "o.deal_id", &f.deal_ids);
    push_ids(qb, "o.project_id", &f.project_ids);
    push_global(qb, global, "o", true);
}

/// List offers.
///
/// GET /offers → one page of offers (without salutation, footer, items).
/// Errors: 400 for a malformed filter.
#[utoipa::path(get, path = "/offers", operation_id = "offers_list", tag = "offers",
    params(kontor_model::query::ListParams, OfferFilter),
    responses((status = 200, description = "One page of offers (without salutation, footer and items).", body = Vec<Offer>)))]
pub async fn list(
    State(state): State<AppState>,
    BaseUrl(base): BaseUrl,
    list: ListQuery<OfferFilter>,
) -> ApiResult<PageOf<Offer>> {
    let page = list
        .fetch_documents::<OfferRow>(&state.pool, &LISTING, |qb| {
            push_where(qb, &list.filter, &list.global)
        })
        .await?;
    let mut items: Vec<Offer> = page
        .rows
        .into_iter()
        .map(|row| {
            let mut offer = row.into_list_offer();
            sign(&state, &base, &mut offer);
            offer
        })
        .collect();
    let origin = state.links.for_email(None).unwrap_or_else(|| base.clone());
    crate::approvals::staff::fill_summaries(&state.pool, &origin, &mut items).await?;
    let next_cursor = page.by_cursor.then(|| items.last().map(|o| o.id)).flatten();
    Ok(list.page(items, page.total).with_next_cursor(next_cursor))
}

/// The [`ListSummary`] of every offer `filter` (with `global`) selects, summed
/// exactly in SQL over the list's own conditions. Errors: 500 when a sum overflows.
pub async fn summary_of(
    pool: &crate::sql::Db,
    filter: &OfferFilter,
    global: &GlobalFilter,
) -> ApiResult<ListSummary> {
    let sql = SummarySql {
        from: FROM,
        alias: "o",
        net: milli!("o.net_total"),
        gross: milli!("o.gross_total"),
        open: None,
    };
    crate::lists::summary::run(pool, &sql, |qb| push_where(qb, filter, global)).await
}

/// Totals of the offers a filter selects.
///
/// GET /offers/summary?<the list's filters> → [`ListSummary`]: per currency the count, net
/// and gross totals of every offer the filter selects (the conditions of GET /offers,
/// paging and sorting ignored); `open_amount` is `null` (offers are not paid). Errors: 400
/// naming a malformed filter; 500 when a sum overflows.
#[utoipa::path(get, path = "/offers/summary", operation_id = "offers_summary", tag = "offers",
    params(kontor_model::query::ListParams, OfferFilter),
    responses((status = 200, description = "Per currency the count, net and gross totals of the offers the filters select (paging and sorting ignored; `open_amount` is null).", body = ListSummary)))]
pub async fn summary(
    State(state): State<AppState>,
    list: ListQuery<OfferFilter>,
) -> ApiResult<Json<ListSummary>> {
    summary_of(&state.pool, &list.filter, &list.global)
        .await
        .map(Json)
}
