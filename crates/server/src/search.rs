//! `GET /search?term=` (issue 33 § One search): the first few invoices, offers, purchases,
//! companies and contact people a term finds, each group through its own list (the same
//! `term` rule, order and shape as `GET /invoices?term=…` and so on), and the invoices
//! whose gross total is the amount the term reads as (`kontor_model::search`).

use crate::http::error::{ApiError, ApiResult};
use crate::lists::ListQuery;
use crate::state::AppState;
use crate::store::files::BaseUrl;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::Json;
use kontor_model::error::messages;
use kontor_model::query::{
    CompanyFilter, GlobalFilter, InvoiceFilter, OfferFilter, Paging, PurchaseFilter,
};
use kontor_model::search::{search_amount, SearchResults, MAX_TERM_CHARS, PER_GROUP};
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Route `/search`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(search))
}

/// `GET /search` parameters.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    /// What to look for: part of a number, title, name or e-mail address, or an amount as
    /// typed (`1.190,00`). 1–200 characters.
    pub term: Option<String>,
}

/// A list request of `filter` for the first [`PER_GROUP`] records (`global` narrows it).
fn first<F>(filter: F, global: GlobalFilter) -> ListQuery<F> {
    ListQuery {
        filter,
        paging: Paging {
            page: None,
            per_page: Some(PER_GROUP),
            sort_by: None,
            cursor: None,
        },
        global,
        url: String::new(),
    }
}

/// GET /search?term= → [`SearchResults`]: at most 5 per group. Errors: 422 naming `term`
/// when it is missing, blank or longer than 200 characters.
#[utoipa::path(get, path = "/search", operation_id = "search", tag = "search",
    params(SearchQuery),
    responses((status = 200, description = "At most five invoices, offers, purchases, companies and contact people each", body = SearchResults),
        (status = 422, description = "`term` missing, blank or too long", body = kontor_model::error::ErrorBody)))]
pub async fn search(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<SearchQuery>,
) -> ApiResult<Json<SearchResults>> {
    let term = query.term.as_deref().map(str::trim).unwrap_or("");
    if term.is_empty() {
        return Err(ApiError::field("term", messages::IS_REQUIRED));
    }
    if term.chars().count() > MAX_TERM_CHARS {
        return Err(ApiError::field(
            "term",
            messages::MUST_BE_AT_MOST_N_CHARACTERS.with([MAX_TERM_CHARS]),
        ));
    }
    let term = Some(term.to_string());
    let base = BaseUrl(
        crate::http::pagination::absolute_url(&headers, &"/".parse().expect("valid uri"))
            .trim_end_matches('/')
            .to_string(),
    );
    let invoices = InvoiceFilter {
        term: term.clone(),
        ..Default::default()
    };
    let mut found = crate::invoices::list::list(
        State(state.clone()),
        headers.clone(),
        first(invoices, GlobalFilter::default()),
    )
    .await?
    .items;
    // The amount as typed: invoices of exactly that gross total, after the term's hits.
    if let Some(amount) = term.as_deref().and_then(search_amount) {
        if found.len() < PER_GROUP as usize {
            let milli = amount
                .checked_mul(rust_decimal::Decimal::ONE_THOUSAND)
                .and_then(|m| i64::try_from(m.trunc()).ok());
            if let Some(milli) = milli {
                let ids: Vec<i64> = crate::sql::query_scalar(
                    "SELECT i.id FROM invoices i WHERE i.deleted_at IS NULL \
                     AND kontor_milli(i.gross_total) = $1 ORDER BY i.date DESC, i.id DESC LIMIT $2",
                )
                .bind(milli)
                .bind(i64::from(PER_GROUP))
                .fetch_all(&state.pool)
                .await?;
                let ids: Vec<i64> = ids
                    .into_iter()
                    .filter(|id| found.iter().all(|i| i.id != *id))
                    .collect();
                if !ids.is_empty() {
                    let global = GlobalFilter {
                        ids: Some(ids),
                        ..Default::default()
                    };
                    let by_amount = crate::invoices::list::list(
                        State(state.clone()),
                        headers.clone(),
                        first(InvoiceFilter::default(), global),
                    )
                    .await?
                    .items;
                    found.extend(by_amount);
                    found.truncate(PER_GROUP as usize);
                }
            }
        }
    }
    let offers = crate::offers::list::list(
        State(state.clone()),
        BaseUrl(base.0.clone()),
        first(
            OfferFilter {
                term: term.clone(),
                ..Default::default()
            },
            GlobalFilter::default(),
        ),
    )
    .await?
    .items;
    let purchases = crate::purchases::list::list(
        State(state.clone()),
        BaseUrl(base.0.clone()),
        first(
            PurchaseFilter {
                term: term.clone(),
                ..Default::default()
            },
            GlobalFilter::default(),
        ),
    )
    .await?
    .items;
    let companies = crate::master_data::companies::list(
        State(state.clone()),
        first(
            CompanyFilter {
                term: term.clone(),
                ..Default::default()
            },
            GlobalFilter::default(),
        ),
    )
    .await?
    .items;
    let contacts = crate::master_data::contacts::list(
        State(state.clone()),
        first(
            crate::master_data::contacts::PersonQuery {
                company_id: None,
                term,
            },
            GlobalFilter::default(),
        ),
    )
    .await?
    .items;
    Ok(Json(SearchResults {
        invoices: found,
        offers,
        purchases,
        companies,
        contacts,
    }))
}
