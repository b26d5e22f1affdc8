//! E-invoices (issue 10): an invoice's readiness (`GET /invoices/{id}/e_invoice`), its
//! XRechnung XML (`GET /invoices/{id}.xml?syntax=cii|ubl`), importing a supplier's
//! e-invoice into purchases (`POST /purchases/import`) and the readable view of an
//! imported one (`GET /purchases/{id}/e_invoice.html`).

use super::client::{error_from_body, get_one, request_blob};
use super::upload::{send_raw_with_progress, UploadBody};
use super::ApiError;
use crate::i18n::{fill, t};
use gloo_net::http::Method;
use kontor_model::einvoice::{MissingField, Place};
use kontor_model::purchase::Purchase;
use leptos::prelude::RwSignal;
use serde::Deserialize;
use web_sys::Blob;

/// The answer of `GET /invoices/{id}/e_invoice`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Readiness {
    /// Whether the XRechnung XML can be written (`GET /invoices/{id}.xml` answers 200).
    pub ready: bool,
    /// Whether the invoice PDF is a Factur-X PDF (EN 16931).
    pub factur_x: bool,
    /// What XRechnung still needs, with where it is set.
    #[serde(default)]
    pub missing: Vec<MissingField>,
}

impl Readiness {
    /// The missing fields that finalizing does not supply itself: everything but the
    /// invoice number (`invoice.identifier`), which a draft gets when it is finalized.
    pub fn missing_before_finalizing(&self) -> Vec<MissingField> {
        self.missing
            .iter()
            .filter(|m| m.field != "invoice.identifier")
            .cloned()
            .collect()
    }
}

/// The syntax of an XRechnung XML (the model's, shared with the server).
pub use kontor_model::einvoice::Syntax;

/// A short name of a missing field's path in the user's language
/// (`account.vat_identifier` → "VAT ID", German "USt-IdNr."); an unknown field's own name
/// with spaces.
pub fn field_label(field: &str) -> String {
    let name = field.rsplit('.').next().unwrap_or(field);
    t().api_errors_einvoice()
        .get(name)
        .filter(|_| name != "place_invoice")
        .map(str::to_string)
        .unwrap_or_else(|| name.replace('_', " "))
}

/// Where a missing field is set, as a link target and a label: the settings page, the
/// customer's edit form, or the invoice's edit form (drafts).
pub fn place_link(place: Place, customer_id: i64, invoice_id: i64) -> (String, &'static str) {
    match place {
        Place::Settings => ("/settings".into(), t().nav().settings),
        Place::Customer => (
            format!("/customers/{customer_id}/edit"),
            t().common().customer,
        ),
        Place::Invoice => (
            format!("/invoices/{invoice_id}/edit"),
            t().api_errors_einvoice().place_invoice,
        ),
    }
}

/// GET /invoices/{id}/e_invoice: whether the invoice is a valid e-invoice and what is
/// missing where.
pub async fn get_invoice_readiness(id: i64) -> Result<Readiness, ApiError> {
    get_one(&format!("/invoices/{id}/e_invoice"), &[]).await
}

/// GET /invoices/{id}.xml?syntax=: the XRechnung XML as a `Blob`. 422 with `errors`
/// naming the missing fields when the invoice is not ready (drafts: `identifier`).
pub async fn get_invoice_xml(id: i64, syntax: Syntax) -> Result<Blob, ApiError> {
    request_blob(
        Method::GET,
        &format!("/invoices/{id}.xml"),
        &[("syntax".into(), syntax.as_str().into())],
        None,
        "application/xml",
    )
    .await
}

/// GET /purchases/{id}/e_invoice.html: the readable view of an imported e-invoice
/// (sanitized HTML without scripts) as a `Blob`.
pub async fn get_purchase_einvoice_html(id: i64) -> Result<Blob, ApiError> {
    request_blob(
        Method::GET,
        &format!("/purchases/{id}/e_invoice.html"),
        &[],
        None,
        "text/html",
    )
    .await
}

/// Why an import failed: the server's error, and on 409 the id of the purchase that
/// already holds this document.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportError {
    /// The error (status, message, `errors.file`).
    pub error: ApiError,
    /// 409: the existing purchase (same supplier and receipt number).
    pub existing: Option<i64>,
}

#[derive(Deserialize)]
struct Conflict {
    id: Option<i64>,
}

/// Reads the answer of `POST /purchases/import`: 201 → the purchase; 409 → the error
/// with the existing purchase's id; anything else → the error.
pub fn read_import_answer(status: u16, text: &str) -> Result<Purchase, ImportError> {
    match status {
        200..=299 => serde_json::from_str(text).map_err(|e| ImportError {
            error: ApiError::local(fill(
                t().api_errors().unreadable,
                &[("error", &e.to_string())],
            )),
            existing: None,
        }),
        _ => Err(ImportError {
            error: error_from_body(status, text),
            existing: (status == 409)
                .then(|| serde_json::from_str::<Conflict>(text).ok()?.id)
                .flatten(),
        }),
    }
}

/// POST /purchases/import with `file` as multipart part `file` (an XRechnung UBL/CII XML
/// or a Factur-X/ZUGFeRD PDF): creates a pending purchase. `progress` follows the upload
/// (percent).
pub async fn import_purchase(
    file: &web_sys::File,
    progress: RwSignal<u8>,
) -> Result<Purchase, ImportError> {
    let local = |e: ApiError| ImportError {
        error: e,
        existing: None,
    };
    let failed = |_| local(ApiError::local(t().api_errors().upload_not_started));
    let form = web_sys::FormData::new().map_err(failed)?;
    form.append_with_blob_and_filename("file", file, &file.name())
        .map_err(failed)?;
    let (status, text) = send_raw_with_progress(
        "POST",
        "/purchases/import",
        UploadBody::Form(form),
        progress,
    )
    .await
    .map_err(local)?;
    read_import_answer(status, &text)
}
