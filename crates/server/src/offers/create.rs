//! POST /offers (interface.md § POST /offers; `decisions.md` § Representations): at least
//! one of company, deal and project; the company is the project's (else the deal's, else
//! `company_id`); the currency is taken from project, deal, company or the account when
//! absent and must match the project's and the deal's when given. Optional positions are
//! shown but not counted. Everything is written in one transaction.

use super::repo;
use crate::access::auth::Caller;
use crate::events::{self, Subject};
use crate::http::caller_context::CallerContext;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::JsonBody;
use crate::input::sanitize;
use crate::numbering::{next_number, OFFERS};
use crate::sql::Arg;
use crate::state::AppState;
use crate::store::db::Word;
use crate::store::db::{now, ts};
use axum::Json;
use chrono::NaiveDate;
use kontor_model::account::DocumentKind;
use kontor_model::edit::offer_edit_refusal;
use kontor_model::error::messages;
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::event::{to_data, CopiedData, CreatedData, EventKind};
use kontor_model::offer::{NewOffer, Offer, OfferStatus};
use kontor_model::party::Company;
use kontor_model::position::PositionType;
use kontor_model::validation::{position_input_totals, validate_new_offer, validate_position_vat};
use kontor_model::vat::{resolve_vat, VatChoice};
use serde_json::json;

/// The company and currency an offer body resolves to.
struct Resolved {
    company: Company,
    currency: String,
}

async fn resolve(
    state: &AppState,
    body: &NewOffer,
    e: &mut FieldErrors,
) -> ApiResult<Option<Resolved>> {
    let pool = &state.pool;
    let project = match body.project_id {
        Some(id) => {
            let p = crate::master_data::projects::find(pool, id).await?;
            if p.is_none() {
                push_error(e, "project_id", messages::DOES_NOT_EXIST);
            }
            p
        }
        None => None,
    };
    let deal = match body.deal_id {
        Some(id) => {
            let d = crate::master_data::deals::find(pool, id).await?;
            if d.is_none() {
                push_error(e, "deal_id", messages::DOES_NOT_EXIST);
            }
            d
        }
        None => None,
    };
    let company_id = project
        .as_ref()
        .and_then(|p| p.customer.as_ref().map(|c| c.id))
        .or(body.company_id)
        .or_else(|| deal.as_ref().and_then(|d| d.company.as_ref().map(|c| c.id)));
    let company = match company_id {
        Some(id) => crate::master_data::companies::find(pool, id).await?,
        None => None,
    };
    if company.is_none() && body.company_id.is_some() && project.is_none() {
        push_error(e, "company_id", messages::DOES_NOT_EXIST);
    }
    if let Some(given) = &body.currency {
        for (field, theirs) in [
            ("project", project.as_ref().and_then(|p| p.currency.clone())),
            ("deal", deal.as_ref().and_then(|d| d.currency.clone())),
        ] {
            if let Some(theirs) = theirs.filter(|t| t != given) {
                push_error(
                    e,
                    "currency",
                    messages::MUST_MATCH_N_S_CURRENCY_N
                        .with([field.to_string(), theirs.to_string()]),
                );
            }
        }
    }
    if let Some(id) = body.contact_id {
        if crate::master_data::contacts::find(pool, id)
            .await?
            .is_none()
        {
            push_error(e, "contact_id", messages::DOES_NOT_EXIST);
        }
    }
    if let Some(id) = body.internal_contact_id {
        if crate::users::load(pool, id).await.is_err() {
            push_error(e, "internal_contact_id", messages::DOES_NOT_EXIST);
        }
    }
    let Some(company) = company else {
        return Ok(None);
    };
    let account_currencies = crate::account::currencies(&state.pool).await?;
    let currency = body
        .currency
        .clone()
        .or_else(|| project.as_ref().and_then(|p| p.currency.clone()))
        .or_else(|| deal.as_ref().and_then(|d| d.currency.clone()))
        .or_else(|| company.currency.clone())
        .unwrap_or_else(|| account_currencies.first().cloned().unwrap_or_default());
    if !account_currencies.contains(&currency) {
        push_error(e, "currency", messages::MUST_BE_ACCOUNT_CURRENCY);
    }
    Ok(Some(Resolved { company, currency }))
}

/// 422 when an offer in `status` may not be edited (`docs/decisions.md` § Edit, delete,
/// copy (issue 11)).
fn check_editable(status: &OfferStatus) -> ApiResult<()> {
    match offer_edit_refusal(*status) {
        Some(why) => Err(ApiError::Refused(why.into())),
        None => Ok(()),
    }
}

/// What [`save_offer`] writes into an `offers` row besides its number, user, status and
/// times: the same values for a new offer and for one written over.
struct OfferColumns<'a> {
    body: &'a NewOffer,
    company_id: i64,
    date: NaiveDate,
    currency: &'a str,
    totals: &'a kontor_model::totals::DocumentTotals,
    vat: &'a VatChoice,
    /// The account's default, for a body without `print_detail_columns`.
    print_detail_columns: bool,
}

impl<'a> OfferColumns<'a> {
    /// The values of the columns `company_id, project_id, deal_id, contact_id, user_id,
    /// date, due_date, title, recipient_address, currency, net_total, gross_total, tax,
    /// reverse_charge, intra_eu, discount, salutation, footer, print_detail_columns,
    /// custom_properties, tags, tax_breakdown`, in that order (22 placeholders); `user_id`
    /// is bound as given. Absent texts are empty, absent lists `[]`.
    fn args(&self, user_id: Option<i64>) -> Vec<Arg<'a>> {
        let body = self.body;
        vec![
            self.company_id.into(),
            body.project_id.into(),
            body.deal_id.into(),
            body.contact_id.into(),
            user_id.into(),
            self.date.into(),
            body.due_date.into(),
            body.title.as_deref().unwrap_or("").trim().into(),
            body.recipient_address.as_deref().unwrap_or("").into(),
            self.currency.into(),
            self.totals.net_total.into(),
            self.totals.gross_total.into(),
            self.vat.tax.into(),
            self.vat.reverse_charge.into(),
            self.vat.intra_eu.into(),
            body.discount.unwrap_or_default().into(),
            body.salutation.as_deref().unwrap_or("").into(),
            body.footer.as_deref().unwrap_or("").into(),
            body.print_detail_columns
                .unwrap_or(self.print_detail_columns)
                .into(),
            serde_json::to_string(&body.custom_properties.clone().unwrap_or_default())
                .unwrap_or_default()
                .into(),
            serde_json::to_string(&body.tags.clone().unwrap_or_default())
                .unwrap_or_default()
                .into(),
            serde_json::to_string(&self.totals.tax_breakdown())
                .unwrap_or_default()
                .into(),
        ]
    }
}

/// Create an offer.
///
/// POST /offers → 200 with the created offer. Errors: 415, 400, 422 naming fields.
#[utoipa::path(post, path = "/offers", operation_id = "offers_create", tag = "offers",
    request_body = NewOffer,
    responses((status = 200, description = "The created offer.", body = Offer)))]
pub async fn create(
    CallerContext(state, caller, base): CallerContext,
    JsonBody(body): JsonBody<NewOffer>,
) -> ApiResult<Json<Offer>> {
    let id = create_offer(&state, &caller, body).await?;
    repo::load_signed(&state, &base, id).await.map(Json)
}

/// Creates an offer from `body` on behalf of `caller`; returns its id.
/// Errors: 422 naming invalid fields or unknown references.
pub async fn create_offer(state: &AppState, caller: &Caller, body: NewOffer) -> ApiResult<i64> {
    save_offer(state, caller, body, None, CreatedData::default()).await
}

/// [`create_offer`] with `origin` on the `created` event; with `copy_of` the source gets
/// its `copied` event in the same transaction. Errors: as [`create_offer`].
pub async fn create_offer_from(
    state: &AppState,
    caller: &Caller,
    body: NewOffer,
    origin: CreatedData,
) -> ApiResult<i64> {
    save_offer(state, caller, body, None, origin).await
}

/// Writes `body` as a new offer, or with `existing` over that offer (PUT /offers/{id}:
/// same validation, totals and default texts; number, status and creator kept; positions
/// replaced), in one transaction. Errors: 404 for an unknown `existing`; 422 naming
/// invalid fields, or refusing the offer's state ([`offer_edit_refusal`]). Records
/// `updated`, or `created` with `origin` (and `copied` on a copy's source), in the same
/// transaction.
pub(super) async fn save_offer(
    state: &AppState,
    caller: &Caller,
    mut body: NewOffer,
    existing: Option<i64>,
    origin: CreatedData,
) -> ApiResult<i64> {
    let state = state.clone();
    if let Some(id) = existing {
        check_editable(&repo::load(&state.pool, id).await?.status)?;
    }
    let mut e = validate_new_offer(&body, &crate::account::currencies(&state.pool).await?);
    let resolved = resolve(&state, &body, &mut e).await?;
    ApiError::check(e)?;
    let Resolved { company, currency } = resolved
        .ok_or_else(|| ApiError::field("company_id", messages::GIVE_COMPANY_DEAL_OR_PROJECT))?;

    let document = resolve_vat(body.tax, body.vat.as_ref(), Some(&company.customer_vat));
    // The body was checked against its own VAT flags; the company's may derive other
    // position categories (reverse charge, intra-EU).
    ApiError::check(validate_position_vat(body.items.as_ref(), &document))?;
    if body.salutation.is_none() || body.footer.is_none() {
        // Absent texts take the account's defaults in the company's language
        // (`docs/decisions.md` § Default document texts (issue 9)); `""` stays empty.
        let settings = crate::account::repo::load(&state.pool).await?;
        let (salutation, footer) = settings
            .account
            .document_texts
            .defaults_for(company.language, DocumentKind::Offer);
        body.salutation.get_or_insert(salutation);
        body.footer.get_or_insert(footer);
    }
    body.salutation = sanitize::html_opt(body.salutation.as_deref());
    body.footer = sanitize::html_opt(body.footer.as_deref());
    let items = body.items.clone().unwrap_or_default();
    let totals = position_input_totals(&items, body.discount, &document, &currency)?;
    let date = body.date.unwrap_or_else(|| now().date_naive());

    let _guard = state.write_lock.lock().await;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let t = ts(now());
    let columns = OfferColumns {
        body: &body,
        company_id: company.id,
        date,
        currency: &currency,
        totals: &totals,
        vat: &document,
        print_detail_columns: state.account.print_detail_columns,
    };
    let id: i64 = match existing {
        Some(id) => {
            let status: Word<OfferStatus> =
                crate::sql::query_scalar("SELECT status FROM offers WHERE id = $1")
                    .bind(id)
                    .fetch_one(&mut tx)
                    .await?;
            check_editable(&status.0)?;
            crate::sql::query("UPDATE offers SET company_id = $1, project_id = $2, deal_id = $3, contact_id = $4, user_id = COALESCE($5, user_id), date = $6, due_date = $7, title = $8, recipient_address = $9, currency = $10,
                net_total = $11, gross_total = $12, tax = $13, reverse_charge = $14, intra_eu = $15, discount = $16, salutation = $17, footer = $18, print_detail_columns = $19, custom_properties = $20, tags = $21, tax_breakdown = $22, updated_at = $23 WHERE id = $24")
                .bind_all(columns.args(body.internal_contact_id))
                .bind(t)
                .bind(id)
                .execute(&mut tx)
                .await?;
            crate::sql::query("DELETE FROM offer_items WHERE offer_id = $1")
                .bind(id)
                .execute(&mut tx)
                .await?;
            id
        }
        None => {
            let identifier = next_number(&mut tx, OFFERS, date).await?;
            crate::sql::query_scalar(
        "INSERT INTO offers (identifier, company_id, project_id, deal_id, contact_id, user_id, date, due_date, title, recipient_address, currency,
            net_total, gross_total, tax, reverse_charge, intra_eu, discount, salutation, footer, print_detail_columns, custom_properties, tags, tax_breakdown, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25) RETURNING id",
            )
            .bind(&identifier)
            .bind_all(columns.args(body.internal_contact_id.or(Some(caller.user_id))))
            .bind(t)
            .bind(t)
            .fetch_one(&mut tx)
            .await?
        }
    };
    for (n, (item, net)) in items.iter().zip(&totals.positions).enumerate() {
        let kind = item.kind.unwrap_or(PositionType::Item);
        let is_item = kind == PositionType::Item;
        crate::sql::query("INSERT INTO offer_items (offer_id, position, kind, title, description, quantity, unit, unit_price, net_total, optional, tax, tax_category, tax_exemption_reason) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)")
            .bind(id)
            .bind(n as i64)
            .bind(kind.as_str())
            .bind(item.title.as_deref().map(str::trim).filter(|t| !t.is_empty()))
            .bind(sanitize::html_opt(item.description.as_deref()))
            .bind(if is_item { item.quantity } else { None })
            .bind(item.unit.as_deref().filter(|u| !u.trim().is_empty()))
            .bind(if is_item { item.unit_price } else { None })
            .bind(net)
            .bind(is_item && item.optional.unwrap_or(false))
            .bind(if is_item { item.tax } else { None })
            .bind(if is_item { item.tax_category.map(|c| c.as_str()) } else { None })
            .bind(if is_item { item.tax_exemption_reason.as_deref().map(str::trim).filter(|r| !r.is_empty()) } else { None })
            .execute(&mut tx)
            .await?;
    }
    if body.change_address.as_deref() == Some("customer") {
        let address = body.recipient_address.as_deref().unwrap_or("");
        let rest = address
            .strip_prefix(company.name.as_str())
            .map(|r| r.trim_start_matches('\n'))
            .unwrap_or(address);
        crate::sql::query("UPDATE companies SET address = $1, updated_at = $2 WHERE id = $3")
            .bind(rest)
            .bind(t)
            .bind(company.id)
            .execute(&mut tx)
            .await?;
    }
    let user = Some(caller.user_id);
    match existing {
        Some(_) => {
            events::record_as(
                &mut tx,
                user,
                Subject::Offer(id),
                EventKind::Updated,
                json!({}),
            )
            .await?;
        }
        None => {
            let copy_of = origin.copy_of;
            let data = to_data(&origin);
            events::record_as(&mut tx, user, Subject::Offer(id), EventKind::Created, data).await?;
            if let Some(source) = copy_of {
                let data = to_data(&CopiedData { copy_id: id });
                events::record_as(
                    &mut tx,
                    user,
                    Subject::Offer(source),
                    EventKind::Copied,
                    data,
                )
                .await?;
            }
        }
    }
    tx.commit().await?;
    Ok(id)
}
