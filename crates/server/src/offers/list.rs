//! GET /offers: sort, status, from, to, identifier, deal_id and project_id (single or
//! comma-separated), plus the global filters, pagination and `sort_by`.

use super::repo::{sign, OfferRow, COLUMNS, FROM};
use crate::error::ApiResult;
use crate::files::BaseUrl;
use crate::listing::{fetch_page, push_global, push_term, sort_order, ListQuery};
use crate::pagination::PageOf;
use crate::state::AppState;
use axum::extract::State;
use kontor_model::offer::Offer;
use kontor_model::query::OfferFilter;
use sqlx::{QueryBuilder, Sqlite};

const SORTS: &[(&str, &str)] = &[
    ("date", "o.date"),
    ("due_date", "o.due_date"),
    ("identifier", "o.identifier"),
    ("title", "o.title COLLATE NOCASE"),
    ("status", "o.status"),
    ("net_total", "CAST(o.net_total AS REAL)"),
    ("gross_total", "CAST(o.gross_total AS REAL)"),
    ("created_at", "o.created_at"),
    ("updated_at", "o.updated_at"),
];

fn push_ids(qb: &mut QueryBuilder<'_, Sqlite>, column: &str, ids: &[i64]) {
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
    ("title", "o.title COLLATE NOCASE"),
    ("identifier", "o.identifier"),
    (
        "company",
        "(SELECT sc.name FROM companies sc WHERE sc.id = o.company_id) COLLATE NOCASE",
    ),
    ("gross_total", "CAST(o.gross_total AS REAL)"),
];

/// The `ORDER BY` of `sort`/`order` (without `order`: dates newest first, the rest
/// ascending) or of `sort_by` (which wins when both are given).
fn order(list: &ListQuery<OfferFilter>) -> ApiResult<String> {
    if list.paging.sort_by.is_none() {
        if let Some(order) = sort_order(
            list.filter.sort.as_deref(),
            list.filter.order,
            SORT_KEYS,
            "o.id",
        ) {
            return Ok(order);
        }
    }
    list.order(SORTS, "o.date DESC, o.id DESC", "o.id")
}

/// GET /offers → one page of offers (without salutation, footer, items).
/// Errors: 400 for a malformed filter.
pub async fn list(
    State(state): State<AppState>,
    BaseUrl(base): BaseUrl,
    list: ListQuery<OfferFilter>,
) -> ApiResult<PageOf<Offer>> {
    let order = order(&list)?;
    let f = &list.filter;
    let push_where = |qb: &mut QueryBuilder<'_, Sqlite>| {
        qb.push(" WHERE 1");
        if !f.status.is_empty() {
            qb.push(" AND o.status IN (");
            let mut sep = qb.separated(", ");
            for s in &f.status {
                sep.push_bind(s.as_str());
            }
            qb.push(")");
        }
        if let Some(d) = f.from {
            qb.push(" AND o.date >= ")
                .push_bind(crate::db::date_text(d));
        }
        if let Some(d) = f.to {
            qb.push(" AND o.date <= ")
                .push_bind(crate::db::date_text(d));
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
        push_global(qb, &list.global, "o", true);
    };
    let (rows, total) = fetch_page::<OfferRow, OfferRow>(
        &state.pool,
        COLUMNS,
        FROM,
        push_where,
        &order,
        &list.paging,
    )
    .await?;
    let items = rows
        .into_iter()
        .map(|row| {
            let mut offer = row.into_list_offer();
            sign(&state, &base, &mut offer);
            offer
        })
        .collect();
    Ok(list.page(items, total))
}
