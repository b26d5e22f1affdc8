//! E-invoices of an invoice (issue 10; `docs/einvoice.md`):
//! GET /invoices/{id}.xml?syntax=cii|ubl — XRechnung 3.0 in CII (default) or UBL;
//! GET /invoices/{id}/e_invoice — whether it can be written, and what is missing where;
//! and the CII that a Factur-X PDF embeds.

use super::repo;
use crate::account::repo as account_repo;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{IdPath, QueryPairs};
use crate::state::AppState;
use crate::store::files::file_response;
use axum::extract::State;
use axum::response::Response;
use axum::Json;
use kontor_einvoice::kontor::{check, to_semantic, Sources};
use kontor_einvoice::semantic::{PrecedingInvoice, Specification};
use kontor_model::account::Account;
use kontor_model::einvoice::{Level, MissingField};
use kontor_model::error::messages;
use kontor_model::invoice::Invoice;
use kontor_model::party::{Company, EinvoiceFormat};
use serde::Serialize;

/// The records an e-invoice is made of.
pub struct Records {
    /// The invoice with its items.
    pub invoice: Invoice,
    /// The account settings as the API shows them.
    pub account: Account,
    /// The customer company.
    pub customer: Company,
    /// For a reversal: the reversed invoice's number and date.
    pub reversed: Option<PrecedingInvoice>,
}

/// Loads invoice `id` and what its e-invoice needs. Errors: 404 for an unknown invoice or
/// a customer that no longer exists (422 on `customer_id`).
pub async fn records(state: &AppState, id: i64) -> ApiResult<Records> {
    let invoice = repo::load(&state.pool, id).await?;
    records_of(state, invoice).await
}

/// The records of an already loaded `invoice`.
/// Errors: 422 on `customer_id` when its customer no longer exists.
pub async fn records_of(state: &AppState, invoice: Invoice) -> ApiResult<Records> {
    let account = account_repo::load(&state.pool).await?.with_smtp();
    let customer = crate::master_data::companies::find(&state.pool, invoice.customer_id)
        .await?
        .ok_or_else(|| ApiError::field("customer_id", messages::INVOICE_CUSTOMER_GONE))?;
    // A reversal names the reversed invoice, a credit note the credited one (BG-3).
    let reversed = match invoice.reversed_invoice_id.or(invoice.credited_invoice_id) {
        Some(original) => {
            let o = repo::load(&state.pool, original).await?;
            o.identifier.map(|number| PrecedingInvoice {
                number,
                issue_date: Some(o.date),
            })
        }
        None => None,
    };
    Ok(Records {
        invoice,
        account,
        customer,
        reversed,
    })
}

fn contact_name(invoice: &Invoice) -> Option<String> {
    invoice
        .user
        .as_ref()
        .map(|u| {
            format!("{} {}", u.firstname.trim(), u.lastname.trim())
                .trim()
                .to_string()
        })
        .filter(|n| !n.is_empty())
}

/// Runs `f` with the mapping's [`Sources`] of `records`.
fn with_sources<T>(records: &Records, f: impl FnOnce(&Sources) -> T) -> T {
    let contact = contact_name(&records.invoice);
    let plain = |html: &str| kontor_pdf::rich_text::plain_text(html);
    let sources = Sources {
        invoice: &records.invoice,
        account: &records.account,
        customer: &records.customer,
        reversed: records.reversed.clone(),
        contact_name: contact.as_deref(),
        plain_text: &plain,
    };
    f(&sources)
}

/// The XML syntax of `?syntax=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// UN/CEFACT Cross Industry Invoice (the default).
    Cii,
    /// OASIS UBL 2.1.
    Ubl,
}

/// The e-invoice XML of `records` in `syntax` and `specification`, or the missing fields.
/// Errors: [`MissingField`]s (see `kontor_model::einvoice::missing`); a writer error is a 500.
pub fn xml(
    records: &Records,
    syntax: Syntax,
    specification: Specification,
) -> Result<ApiResult<Vec<u8>>, Vec<MissingField>> {
    let document = with_sources(records, |s| to_semantic(s, specification))?;
    let written = match syntax {
        Syntax::Cii => kontor_einvoice::cii::write(&document),
        Syntax::Ubl => kontor_einvoice::ubl::write(&document),
    };
    Ok(written.map_err(|e| ApiError::Internal(format!("writing the e-invoice: {e}"))))
}

/// Whether the account wants Factur-X PDFs (`factur_x`, default true).
fn factur_x_enabled(account: &Account) -> bool {
    account.factur_x
}

/// The CII of a Factur-X PDF (profile EN 16931) when the account wants Factur-X PDFs and
/// the invoice has what EN 16931 needs; `None` otherwise (the PDF stays a plain PDF).
pub fn factur_x_xml(records: &Records) -> Option<Vec<u8>> {
    if !factur_x_enabled(&records.account) {
        return None;
    }
    match xml(records, Syntax::Cii, Specification::En16931) {
        Ok(Ok(bytes)) => Some(bytes),
        _ => None,
    }
}

/// The 422 of an invoice that cannot be written: every missing field named under its path.
pub fn refusal(missing: &[MissingField]) -> ApiError {
    let mut errors = kontor_model::error::FieldErrors::new();
    for m in missing {
        errors
            .entry(m.field.clone())
            .or_default()
            .push(kontor_model::error::Message::verbatim(m.message.clone()));
    }
    match ApiError::check(errors) {
        Err(e) => e,
        Ok(()) => ApiError::Refused(kontor_model::error::messages::INVOICE_NOT_E_INVOICE.into()),
    }
}

/// GET /invoices/{id}.xml?syntax=cii|ubl → 200 `application/xml` named `<identifier>.xml`.
/// Errors: 404; 400 for another `syntax`; 422 naming each missing field (a draft: on
/// `invoice.identifier`).
pub async fn invoice_xml(state: &AppState, id: i64, query: &QueryPairs) -> ApiResult<Response> {
    let syntax = match query.get("syntax").unwrap_or("cii") {
        "cii" | "" => Syntax::Cii,
        "ubl" => Syntax::Ubl,
        _ => {
            return Err(ApiError::BadRequest(
                "Query parameter syntax must be cii or ubl.".into(),
            ))
        }
    };
    let records = records(state, id).await?;
    let bytes = xml(&records, syntax, Specification::XRechnung).map_err(|m| refusal(&m))??;
    let name = format!(
        "{}.xml",
        records.invoice.identifier.as_deref().unwrap_or("draft")
    );
    let mut response = file_response(bytes, "application/xml", &name);
    if let Ok(v) = axum::http::HeaderValue::from_str(&format!(
        "attachment; filename=\"{}\"",
        name.replace(['"', '\\'], "")
    )) {
        response
            .headers_mut()
            .insert(axum::http::header::CONTENT_DISPOSITION, v);
    }
    Ok(response)
}

/// [`finalize_gate`] for a creation or draft body about to be stored: nothing for a draft,
/// a body without a customer or a customer who gets PDFs (most: one read of the customer,
/// not the body's whole representation, issue 35); otherwise the body as it will be stored
/// ([`super::unsaved::unsaved_invoice`] with `terms`) must be writable as XRechnung. A body
/// whose totals do not compute passes here and gets its field errors from the write path.
/// Errors: as [`finalize_gate`]; 500 on database failure.
pub async fn finalize_gate_of_body(
    state: &AppState,
    body: &kontor_model::invoice_input::NewInvoice,
    terms: super::unsaved::CustomerTerms,
) -> ApiResult<()> {
    if body.status == Some(kontor_model::status::InvoiceStatus::Draft) {
        return Ok(());
    }
    let Some(customer_id) = body.customer_id else {
        return Ok(());
    };
    if !gets_xrechnung(state, customer_id).await? {
        return Ok(());
    }
    match super::unsaved::unsaved_invoice(state, &mut body.clone(), terms).await {
        Ok(unsaved) => refuse_unwritable(state, unsaved).await,
        Err(_) => Ok(()),
    }
}

/// Refuses to finalize `invoice` (a draft about to get its number, or a creation body as
/// [`super::pdf::unsaved`] represents it) for a customer whose `einvoice_format` is
/// XRechnung while the XRechnung still lacks data: the customer gets nothing but the XML,
/// so it must be writable before the number is drawn (issue 10: "before the invoice is
/// sent, not after"). Other customers are not refused; the app warns them.
/// Errors: 422 naming every missing field (`account.*`, `customer.*`, `invoice.*`).
pub async fn finalize_gate(state: &AppState, invoice: Invoice) -> ApiResult<()> {
    if gets_xrechnung(state, invoice.customer_id).await? {
        refuse_unwritable(state, invoice).await
    } else {
        Ok(())
    }
}

/// Whether customer `customer_id` gets XRechnung instead of PDFs; `false` for an unknown
/// customer (the validation refuses it with its own 422). Errors: 500 on database failure.
async fn gets_xrechnung(state: &AppState, customer_id: i64) -> ApiResult<bool> {
    Ok(
        crate::master_data::companies::find(&state.pool, customer_id)
            .await?
            .is_some_and(|c| c.einvoice_format != EinvoiceFormat::Pdf),
    )
}

/// The refusal of [`finalize_gate`] for `invoice`, whose customer gets XRechnung: 422
/// naming every missing field, or nothing when the XML can be written.
async fn refuse_unwritable(state: &AppState, mut invoice: Invoice) -> ApiResult<()> {
    // The number is drawn in the same transaction; readiness is about everything else.
    invoice.identifier.get_or_insert_with(|| "-".to_string());
    let records = records_of(state, invoice).await?;
    let missing = with_sources(&records, |s| check(s, Level::XRechnung));
    if missing.is_empty() {
        Ok(())
    } else {
        Err(refusal(&missing))
    }
}

/// GET /invoices/{id}/e_invoice: `ready` (the XRechnung XML can be written), `factur_x`
/// (the PDF carries the EN 16931 XML), `missing` (what XRechnung still needs, with where
/// it is set).
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = EInvoiceReadiness)]
pub struct Readiness {
    /// Whether `GET /invoices/{id}.xml` answers 200.
    pub ready: bool,
    /// Whether `GET /invoices/{id}.pdf` is a Factur-X PDF.
    pub factur_x: bool,
    /// What XRechnung still needs.
    pub missing: Vec<MissingField>,
}

/// The readiness of `records`.
pub fn readiness(records: &Records) -> Readiness {
    let missing = with_sources(records, |s| check(s, Level::XRechnung));
    let en16931 = with_sources(records, |s| check(s, Level::En16931)).is_empty();
    Readiness {
        ready: missing.is_empty(),
        factur_x: en16931 && factur_x_enabled(&records.account),
        missing,
    }
}

/// GET /invoices/{id}/e_invoice → 200 [`Readiness`]. Errors: 404.
#[utoipa::path(get, path = "/invoices/{id}/e_invoice", operation_id = "invoices_e_invoice", tag = "invoices",
    params(IdPath),
    responses((status = 200, description = "Whether the e-invoice can be written and what is missing", body = Readiness)))]
pub async fn e_invoice(
    State(state): State<AppState>,
    IdPath(id): IdPath,
) -> ApiResult<Json<Readiness>> {
    let records = records(&state, id).await?;
    Ok(Json(readiness(&records)))
}
