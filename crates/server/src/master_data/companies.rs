//! `/companies`: customers, suppliers and organizations (`decisions.md` § Supporting
//! resources; issue 9 contract § Company). List filters ([`CompanyFilter`]): `type`,
//! `term`, `tags`, `active`, plus the global filters; `PUT` is a partial update with the
//! creation rules ([`kontor_model::master_data`]); `DELETE` only when nothing references
//! the company (its contact people go with it).

use super::account_numbers;
use super::patch::{check_patch_types, merged_body};
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{IdPath, JsonBody};
use crate::http::pagination::PageOf;
use crate::lists::{like_pattern, ListQuery, Listing};
use crate::state::AppState;
use crate::store::db::{json_list, json_map, now, ts, Dec, Ts, Word};
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use kontor_model::error::messages;
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::master_data::{
    errors_of_patch, normalize_company, validate_company, COMPANY_KEEP_ON_NULL,
};
use kontor_model::party::{
    rename_legacy_account_fields, BillingContact, Company, CompanyType, CustomerVat,
    EinvoiceFormat, Language, NewCompany,
};
use kontor_model::query::CompanyFilter;
use serde_json::Value;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes `/companies` and `/companies/{id}`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(get_one, update, delete))
}

const COLUMNS: &str = "c.*, bc.id AS billing_contact_id, \
     trim(bc.firstname || ' ' || bc.lastname) AS billing_contact_name, \
     bc.email AS billing_contact_email";
const FROM: &str =
    "FROM companies c LEFT JOIN people bc ON bc.company_id = c.id AND bc.billing_contact = TRUE";

#[derive(sqlx_macros::FromRow)]
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
    active: bool,
    country_code: Option<String>,
    phone: Option<String>,
    website: Option<String>,
    vat_identifier: Option<String>,
    tax_number: Option<String>,
    bic: Option<String>,
    info: Option<String>,
    default_discount: Option<Dec>,
    default_cash_discount: Option<Dec>,
    default_cash_discount_days: Option<i64>,
    language: Word<Language>,
    custom_properties: String,
    buyer_reference: Option<String>,
    electronic_address: Option<String>,
    einvoice_format: Word<EinvoiceFormat>,
    sepa_mandate_reference: Option<String>,
    debtor_number: Option<i64>,
    creditor_number: Option<i64>,
    consumer: bool,
    billing_contact_id: Option<i64>,
    billing_contact_name: Option<String>,
    billing_contact_email: Option<String>,
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
            active: r.active,
            country_code: r.country_code,
            phone: r.phone,
            website: r.website,
            vat_identifier: r.vat_identifier,
            tax_number: r.tax_number,
            bic: r.bic,
            info: r.info,
            default_invoice_due_days: r.payment_term_days,
            default_discount: r.default_discount.map(|d| d.0),
            default_cash_discount: r.default_cash_discount.map(|d| d.0),
            default_cash_discount_days: r.default_cash_discount_days,
            language: r.language.0,
            custom_properties: json_map(&r.custom_properties),
            buyer_reference: r.buyer_reference,
            electronic_address: r.electronic_address,
            einvoice_format: r.einvoice_format.0,
            sepa_mandate_reference: r.sepa_mandate_reference,
            debit_number: r.debtor_number,
            credit_number: r.creditor_number,
            debtor_number: r.debtor_number,
            creditor_number: r.creditor_number,
            consumer: r.consumer,
            billing_contact: r.billing_contact_id.map(|id| BillingContact {
                id,
                name: r.billing_contact_name.unwrap_or_default(),
                email: r.billing_contact_email,
            }),
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
        }
    }
}

/// Loads company `id`. Errors: 404.
pub async fn load(pool: &crate::sql::Db, id: i64) -> ApiResult<Company> {
    find(pool, id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("company {id}")))
}

/// Loads company `id` if it exists.
pub async fn find(pool: &crate::sql::Db, id: i64) -> ApiResult<Option<Company>> {
    let sql = format!("SELECT {COLUMNS} {FROM} WHERE c.id = $1");
    Ok(crate::sql::find_by_id::<CompanyRow, _>(pool, &sql, id).await?)
}

/// Adds "does not exist" under `field` to `errors` when `id` (`None`: nothing to check)
/// names no company. Errors: database errors (500).
pub async fn check_exists(
    pool: &crate::sql::Db,
    errors: &mut FieldErrors,
    field: &str,
    id: Option<i64>,
) -> ApiResult<()> {
    if let Some(id) = id {
        if find(pool, id).await?.is_none() {
            push_error(errors, field, messages::DOES_NOT_EXIST);
        }
    }
    Ok(())
}

/// GET /companies → one page of companies. Errors: 400 for a malformed filter.
#[utoipa::path(get, path = "/companies", operation_id = "companies_list", tag = "companies",
    params(kontor_model::query::ListParams, CompanyFilter, kontor_model::query::NameAlias),
    responses((status = 200, description = "One page of companies", body = Vec<Company>)))]
pub(crate) async fn list(
    State(state): State<AppState>,
    list: ListQuery<CompanyFilter>,
) -> ApiResult<PageOf<Company>> {
    let filter = &list.filter;
    let term = filter.term.as_deref().map(like_pattern);
    let listing = Listing {
        columns: COLUMNS,
        from: FROM,
        alias: "c",
        custom_properties: true,
        sorts: &[
            ("name", "kontor_fold(c.name)"),
            ("created_at", "c.created_at"),
            ("updated_at", "c.updated_at"),
        ],
        default_order: "kontor_fold(c.name) ASC, c.id ASC",
        id: "c.id",
    };
    list.fetch::<CompanyRow, Company>(&state.pool, &listing, |qb| {
        qb.push(" WHERE TRUE");
        if !filter.kinds.is_empty() {
            qb.push(" AND c.kind IN (");
            let mut sep = qb.separated(", ");
            for k in &filter.kinds {
                sep.push_bind(k.as_str());
            }
            qb.push(")");
        }
        if let Some(t) = &term {
            qb.push(
                " AND kontor_fold(c.name || ' ' || c.address || ' ' || coalesce(c.email, '') || ' ' \
                 || coalesce(c.phone, '') || ' ' || coalesce(c.vat_identifier, '') || ' ' || c.tags) LIKE kontor_fold(",
            )
            .push_bind(t.clone())
            .push(crate::sql::functions::LIKE_END);
        }
        for tag in &filter.tags {
            qb.push(" AND EXISTS (SELECT 1 FROM json_each(c.tags) WHERE value = ")
                .push_bind(tag.clone())
                .push(")");
        }
        if let Some(a) = filter.active {
            qb.push(" AND c.active = ").push_bind(a);
        }
    })
    .await
}

/// GET /companies/{id} → the company. Errors: 404.
#[utoipa::path(get, path = "/companies/{id}", operation_id = "companies_get", tag = "companies",
    params(IdPath),
    responses((status = 200, description = "The company", body = Company)))]
async fn get_one(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<Json<Company>> {
    load(&state.pool, id).await.map(Json)
}

/// Checks a company body against the model's rules and the account's `currencies`.
pub fn validate(body: &NewCompany, currencies: &[String]) -> FieldErrors {
    let mut e = validate_company(body);
    if let Some(c) = body
        .currency
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
    {
        crate::account::check_currency(&mut e, currencies, c);
    }
    e
}

/// POST /companies → 200 with the company; a customer or supplier without a
/// `debit_number` / `credit_number` is given the next one when the account numbers them
/// (issue 31, [`account_numbers::assign`]). Errors: 422 naming each bad field, and
/// `debit_number` / `credit_number` when another company has the number.
#[utoipa::path(post, path = "/companies", operation_id = "companies_create", tag = "companies",
    request_body = NewCompany,
    responses((status = 200, description = "The created company", body = Company)))]
async fn create(
    State(state): State<AppState>,
    JsonBody(mut body): JsonBody<NewCompany>,
) -> ApiResult<Json<Company>> {
    ApiError::check(validate(
        &body,
        &crate::account::currencies(&state.pool).await?,
    ))?;
    normalize_company(&mut body);
    let _guard = state.write_lock.lock().await;
    let mut taken = FieldErrors::new();
    account_numbers::check_free(&state.pool, None, &body, &mut taken).await?;
    ApiError::check(taken)?;
    account_numbers::assign(&state.pool, &mut body).await?;
    let id = insert(&state.pool, &body).await?;
    load(&state.pool, id).await.map(Json)
}

/// PUT /companies/{id}: the body's fields replace the stored ones (absent: unchanged;
/// `null`: cleared, except for fields that cannot be empty), checked by the creation
/// rules; `{"active": false}` archives, `{"active": true}` restores. → 200 with the
/// company. No number is assigned here (issue 31: only new companies are numbered).
/// Errors: 404; 422 naming each bad field the body sends (nothing stored), and
/// `debit_number` / `credit_number` when another company has the number.
#[utoipa::path(put, path = "/companies/{id}", operation_id = "companies_update", tag = "companies",
    params(IdPath), request_body(content = NewCompany, description = "The fields to change (absent: unchanged; `null`: cleared)"),
    responses((status = 200, description = "The updated company", body = Company)))]
async fn update(
    State(state): State<AppState>,
    IdPath(id): IdPath,
    JsonBody(mut patch): JsonBody<Value>,
) -> ApiResult<Json<Company>> {
    // Issue 11's `debtor_number` / `creditor_number` are issue 31's `debit_number` /
    // `credit_number`.
    rename_legacy_account_fields(&mut patch);
    // Read the patch itself first so that a value of the wrong type is named.
    check_patch_types::<NewCompany>(&patch)?;
    let _guard = state.write_lock.lock().await;
    let stored = load(&state.pool, id).await?;
    let mut body = merged_body(&NewCompany::from(&stored), &patch, COMPANY_KEEP_ON_NULL)?;
    let mut errors = validate(&body, &crate::account::currencies(&state.pool).await?);
    account_numbers::check_free(&state.pool, Some(id), &body, &mut errors).await?;
    ApiError::check(errors_of_patch(errors, &patch))?;
    normalize_company(&mut body);
    write(&state.pool, Some(id), &body).await?;
    load(&state.pool, id).await.map(Json)
}

/// Inserts a validated, normalized company; returns its id.
pub async fn insert(pool: &crate::sql::Db, body: &NewCompany) -> ApiResult<i64> {
    write(pool, None, body).await
}

/// Inserts (`id` `None`) or overwrites company `id` with every field of `body`.
async fn write(pool: &crate::sql::Db, id: Option<i64>, body: &NewCompany) -> ApiResult<i64> {
    let t = ts(now());
    let vat = body.customer_vat.clone().unwrap_or_default();
    let tags = serde_json::to_string(&body.tags.clone().unwrap_or_default())
        .map_err(|e| ApiError::Internal(format!("tags: {e}")))?;
    let props = serde_json::to_string(&body.custom_properties.clone().unwrap_or_default())
        .map_err(|e| ApiError::Internal(format!("custom_properties: {e}")))?;
    let mut qb: crate::sql::Builder<'_> = match id {
        None => crate::sql::Builder::new(
            "INSERT INTO companies (kind, name, address, email, billing_email_cc, currency, payment_term_days, iban, tags, vat_tax, reverse_charge, intra_eu, \
             active, country_code, phone, website, vat_identifier, tax_number, bic, info, default_discount, default_cash_discount, default_cash_discount_days, \
             language, custom_properties, buyer_reference, electronic_address, einvoice_format, sepa_mandate_reference, debtor_number, creditor_number, consumer, updated_at, created_at) VALUES (",
        ),
        Some(_) => crate::sql::Builder::new(
            "UPDATE companies SET (kind, name, address, email, billing_email_cc, currency, payment_term_days, iban, tags, vat_tax, reverse_charge, intra_eu, \
             active, country_code, phone, website, vat_identifier, tax_number, bic, info, default_discount, default_cash_discount, default_cash_discount_days, \
             language, custom_properties, buyer_reference, electronic_address, einvoice_format, sepa_mandate_reference, debtor_number, creditor_number, consumer, updated_at) = (",
        ),
    };
    {
        let mut sep = qb.separated(", ");
        sep.push_bind(body.kind.unwrap_or(CompanyType::Customer).as_str())
            .push_bind(body.name.clone().unwrap_or_default())
            .push_bind(body.address.clone().unwrap_or_default())
            .push_bind(body.email.clone())
            .push_bind(body.billing_email_cc.clone())
            .push_bind(body.currency.clone())
            .push_bind(body.due_days())
            .push_bind(body.iban.clone())
            .push_bind(tags)
            .push_bind(vat.tax)
            .push_bind(vat.reverse_charge)
            .push_bind(vat.intra_eu)
            .push_bind(body.active.unwrap_or(true))
            .push_bind(body.country_code.clone())
            .push_bind(body.phone.clone())
            .push_bind(body.website.clone())
            .push_bind(body.vat_identifier.clone())
            .push_bind(body.tax_number.clone())
            .push_bind(body.bic.clone())
            .push_bind(body.info.clone())
            .push_bind(body.default_discount)
            .push_bind(body.default_cash_discount)
            .push_bind(body.default_cash_discount_days)
            .push_bind(body.language.unwrap_or_default().as_str())
            .push_bind(props)
            .push_bind(body.buyer_reference.clone())
            .push_bind(body.electronic_address.clone())
            .push_bind(body.einvoice_format.unwrap_or_default().as_str())
            .push_bind(body.sepa_mandate_reference.clone())
            .push_bind(body.debit_number)
            .push_bind(body.credit_number)
            .push_bind(body.consumer.unwrap_or(false))
            .push_bind(t);
        if id.is_none() {
            sep.push_bind(t);
        }
    }
    // A write transaction: the audit trail names who wrote (`crate::proof::audit`).
    let mut tx = crate::store::db::begin_write(pool).await?;
    let id = match id {
        None => {
            qb.push(") RETURNING id");
            qb.build_query_scalar()
                .fetch_one(&mut tx)
                .await
                .map_err(account_numbers::on_taken)?
        }
        Some(id) => {
            qb.push(") WHERE id = ").push_bind(id);
            qb.build()
                .execute(&mut tx)
                .await
                .map_err(account_numbers::on_taken)?;
            id
        }
    };
    tx.commit().await?;
    Ok(id)
}

/// What still references company `id`, as `(count, singular, plural)`.
async fn references(
    pool: &crate::sql::Db,
    id: i64,
) -> ApiResult<Vec<(i64, &'static str, &'static str)>> {
    let mut out = Vec::new();
    for (sql, one, many) in [
        (
            "SELECT COUNT(*) FROM invoices WHERE customer_id = $1",
            "invoice",
            "invoices",
        ),
        (
            "SELECT COUNT(*) FROM offers WHERE company_id = $1 \
             OR contact_id IN (SELECT id FROM people WHERE company_id = $1)",
            "offer",
            "offers",
        ),
        (
            "SELECT COUNT(*) FROM purchases WHERE company_id = $1",
            "purchase",
            "purchases",
        ),
        (
            "SELECT COUNT(*) FROM projects WHERE customer_id = $1",
            "project",
            "projects",
        ),
        (
            "SELECT COUNT(*) FROM deals WHERE company_id = $1",
            "deal",
            "deals",
        ),
    ] {
        let n: i64 = crate::sql::query_scalar(sql)
            .bind(id)
            .fetch_one(pool)
            .await?;
        if n > 0 {
            out.push((n, one, many));
        }
    }
    Ok(out)
}

/// DELETE /companies/{id} → 204; the company's contact people are deleted with it.
/// Errors: 404; 422 when invoices, offers (also offers naming one of its people),
/// purchases, projects or deals reference it: "Hafen GmbH has 3 invoices, 1 project;
/// archive it instead".
#[utoipa::path(delete, path = "/companies/{id}", operation_id = "companies_delete", tag = "companies",
    params(IdPath),
    responses((status = 204, description = "Deleted with its contact people")))]
async fn delete(State(state): State<AppState>, IdPath(id): IdPath) -> ApiResult<StatusCode> {
    let _guard = state.write_lock.lock().await;
    let company = load(&state.pool, id).await?;
    let refs = references(&state.pool, id).await?;
    if !refs.is_empty() {
        let what: Vec<String> = refs
            .iter()
            .map(|(n, one, many)| format!("{n} {}", if *n == 1 { one } else { many }))
            .collect();
        return Err(ApiError::Refused(
            kontor_model::error::messages::COMPANY_HAS_N_ARCHIVE_INSTEAD
                .with([company.name, what.join(", ")]),
        ));
    }
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    crate::sql::query("DELETE FROM people WHERE company_id = $1")
        .bind(id)
        .execute(&mut tx)
        .await?;
    crate::sql::query("DELETE FROM companies WHERE id = $1")
        .bind(id)
        .execute(&mut tx)
        .await
        .map_err(crate::http::error::on_foreign_key(ApiError::Refused(
            kontor_model::error::messages::COMPANY_STILL_REFERENCED.with([&company.name]),
        )))?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}
