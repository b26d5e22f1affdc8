//! `/companies`: customers, suppliers and organizations (`decisions.md` § Supporting
//! resources). List filters: `type`, `term` (name), plus the global filters.

use crate::db::{json_list, now, ts, Dec, Ts, Word};
use crate::error::{ApiError, ApiResult};
use crate::extract::{IdPath, JsonBody};
use crate::listing::{fetch_page, like_pattern, order_by, push_global, ListQuery};
use crate::pagination::PageOf;
use crate::state::AppState;
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use kontor_model::error::{push_error, require_text, FieldErrors};
use kontor_model::party::{Company, CompanyType, CustomerVat, NewCompany};
use kontor_model::query::one;
use rust_decimal::Decimal;
use serde::Deserialize;
use sqlx::{QueryBuilder, Sqlite, SqlitePool};

/// Routes `/companies` and `/companies/{id}`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/companies", get(list).post(create))
        .route("/companies/{id}", get(get_one))
}

#[derive(sqlx::FromRow)]
struct CompanyRow {
    id: i64,
    kind: Word<CompanyType>,
    name: String,
    address: String,
    email: Option<String>,
    billing_email_cc: Option<String>,
    currency: Option<String>,
    payment_term_days: Option<i64>,
    iban: Option<String>,
    tags: String,
    vat_tax: Option<Dec>,
    reverse_charge: bool,
    intra_eu: bool,
    created_at: Ts,
    updated_at: Ts,
}

impl From<CompanyRow> for Company {
    fn from(r: CompanyRow) -> Self {
        Company {
            id: r.id,
            kind: r.kind.0,
            name: r.name,
            address: r.address,
            email: r.email,
            billing_email_cc: r.billing_email_cc,
            currency: r.currency,
            payment_term_days: r.payment_term_days,
            iban: r.iban,
            tags: json_list(&r.tags),
            customer_vat: CustomerVat {
                tax: r.vat_tax.map(|d| d.0),
                reverse_charge: r.reverse_charge,
                intra_eu: r.intra_eu,
            },
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
        }
    }
}

/// Loads company `id`. Errors: 404.
pub async fn load(pool: &SqlitePool, id: i64) -> ApiResult<Company> {
    find(pool, id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("company {id}")))
}

/// Loads company `id` if it exists.
pub async fn find(pool: &SqlitePool, id: i64) -> ApiResult<Option<Company>> {
    Ok(
        sqlx::query_as::<_, CompanyRow>("SELECT * FROM companies WHERE id = ?")
            .bind(id)
            .fetch_optional(pool)
            .await?
            .map(Company::from),
    )
}

/// `GET /companies` filters: `type`, `term` (or `name`, wildcard search in the name).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct CompanyQuery {
    #[serde(rename = "type", deserialize_with = "one")]
    kind: Option<CompanyType>,
    #[serde(alias = "name", deserialize_with = "one")]
    term: Option<String>,
}

async fn list(
    State(state): State<AppState>,
    list: ListQuery<CompanyQuery>,
) -> ApiResult<PageOf<Company>> {
    let ListQuery {
        filter,
        paging,
        global,
        url,
    } = list;
    let kind = filter.kind;
    let term = filter.term.as_deref().map(like_pattern);
    let order = order_by(
        paging.sort_by.as_deref(),
        &[
            ("name", "c.name"),
            ("created_at", "c.created_at"),
            ("updated_at", "c.updated_at"),
        ],
        "c.name COLLATE NOCASE ASC, c.id ASC",
        "c.id",
    )?;
    let push_where = |qb: &mut QueryBuilder<'_, Sqlite>| {
        qb.push(" WHERE 1");
        if let Some(k) = kind {
            qb.push(" AND c.kind = ").push_bind(k.as_str());
        }
        if let Some(t) = &term {
            qb.push(" AND c.name LIKE ")
                .push_bind(t.clone())
                .push(" ESCAPE '\\'");
        }
        push_global(qb, &global, "c", false);
    };
    let (items, total) = fetch_page::<CompanyRow, Company>(
        &state.pool,
        "c.*",
        "FROM companies c",
        push_where,
        &order,
        &paging,
    )
    .await?;
    Ok(PageOf {
        items,
        page: paging.page(),
        per_page: paging.per_page(),
        total,
        url,
    })
}

async fn get_one(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<Json<Company>> {
    load(&state.pool, id).await.map(Json)
}

/// Checks a company body; `currencies` are the account's.
pub fn validate(body: &NewCompany, currencies: &[String]) -> FieldErrors {
    let mut e = FieldErrors::new();
    require_text(&mut e, "name", body.name.as_ref());
    if let Some(c) = &body.currency {
        if !currencies.contains(c) {
            push_error(
                &mut e,
                "currency",
                "must be one of the account's currencies",
            );
        }
    }
    if body
        .payment_term_days
        .is_some_and(|d| !(0..=365).contains(&d))
    {
        push_error(&mut e, "payment_term_days", "must be between 0 and 365");
    }
    if let Some(tax) = body.customer_vat.as_ref().and_then(|v| v.tax) {
        if tax < Decimal::ZERO || tax > Decimal::ONE_HUNDRED {
            push_error(&mut e, "customer_vat.tax", "must be between 0 and 100");
        }
    }
    e
}

async fn create(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<NewCompany>,
) -> ApiResult<Json<Company>> {
    ApiError::check(validate(&body, &state.account.currencies))?;
    let _guard = state.write_lock.lock().await;
    let id = insert(&state.pool, &body).await?;
    load(&state.pool, id).await.map(Json)
}

/// Inserts a validated company; returns its id.
pub async fn insert(pool: &SqlitePool, body: &NewCompany) -> ApiResult<i64> {
    let t = ts(now());
    let vat = body.customer_vat.clone().unwrap_or_default();
    let id = sqlx::query_scalar(
        "INSERT INTO companies (kind, name, address, email, billing_email_cc, currency, payment_term_days, iban, tags, vat_tax, reverse_charge, intra_eu, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
    )
    .bind(body.kind.unwrap_or(CompanyType::Customer).as_str())
    .bind(body.name.as_deref().map(str::trim))
    .bind(body.address.as_deref().unwrap_or("").trim())
    .bind(body.email.as_deref())
    .bind(body.billing_email_cc.as_deref())
    .bind(body.currency.as_deref())
    .bind(body.payment_term_days)
    .bind(body.iban.as_deref())
    .bind(serde_json::to_string(&body.tags.clone().unwrap_or_default()).unwrap_or_else(|_| "[]".into()))
    .bind(vat.tax.map(|d| d.to_string()))
    .bind(vat.reverse_charge)
    .bind(vat.intra_eu)
    .bind(&t)
    .bind(&t)
    .fetch_one(pool)
    .await?;
    Ok(id)
}
