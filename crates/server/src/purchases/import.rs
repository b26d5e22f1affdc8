//! POST /purchases/import: an incoming e-invoice (XRechnung UBL/CII XML, or a Factur-X /
//! ZUGFeRD PDF) becomes a pending purchase (issue 10 § Receiving; `docs/decisions.md`
//! § E-invoice import (issue 10)). GET /purchases/{id}/e_invoice.html shows the stored
//! document readably.
//!
//! Order of work: read the upload, judge it by its bytes (`%PDF-` → the embedded XML),
//! read and check the invoice — all before anything is written. Then, under the write
//! lock in one transaction: match the supplier (VAT ID, IBAN, exact name), refuse a
//! duplicate (409 with the existing id), create the supplier when none matched, store the
//! original file, write purchase and positions. A failure after the file was stored
//! removes it again, so a refused import leaves neither a row nor a file.

use super::document::{HTML_CSP, MAX_DOCUMENT};
use super::import_repo::{self, NewImport};
use super::repo;
use crate::http::caller_context::CallerContext;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{file_part, JsonBody, UPLOAD_LIMIT};
use crate::input::uploads::clean_file_name;
use crate::state::AppState;
use crate::store::storage::Area;
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use base64::Engine;
use kontor_einvoice::booking::purchase_positions;
use kontor_einvoice::pdf_read::embedded_xml;
use kontor_einvoice::read::read_with_syntax;
use kontor_einvoice::semantic::{Invoice, Specification};
use kontor_model::error::messages;
use kontor_model::offer::FileUpload;
use serde::Deserialize;

/// The JSON form of the request: `{"file": {"filename", "base64"}}`.
#[derive(Deserialize, utoipa::ToSchema)]
#[schema(as = PurchaseImportJson)]
struct ImportBody {
    /// Required: the e-invoice, base64-encoded (at most 10 MiB decoded).
    #[serde(default)]
    file: Option<FileUpload>,
}

/// The multipart form of POST /purchases/import, for the API description only (the
/// handler reads the part itself).
#[derive(utoipa::ToSchema)]
#[schema(as = PurchaseImportForm)]
#[allow(dead_code)]
struct ImportForm {
    /// The e-invoice: XRechnung (UBL or CII XML) or a Factur-X / ZUGFeRD PDF, at most
    /// 10 MiB; the last part named `file` counts.
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
}

/// An upload as received: its cleaned name and bytes.
struct Upload {
    filename: String,
    bytes: Vec<u8>,
}

fn too_large() -> ApiError {
    ApiError::field(
        "file",
        kontor_model::error::messages::IS_LARGER_THAN_N_MIB.with([MAX_DOCUMENT / (1024 * 1024)]),
    )
}

async fn from_multipart(req: Request) -> ApiResult<Upload> {
    let mut multipart = Multipart::from_request(req, &()).await.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::PayloadTooLarge(UPLOAD_LIMIT)
        } else {
            ApiError::BadRequest(format!(
                "The request is not valid multipart/form-data: {e}."
            ))
        }
    })?;
    let (filename, bytes) =
        file_part(&mut multipart, || ApiError::PayloadTooLarge(UPLOAD_LIMIT)).await?;
    Ok(Upload { filename, bytes })
}

fn from_json(body: ImportBody) -> ApiResult<Upload> {
    let file = body
        .file
        .ok_or_else(|| ApiError::field("file", messages::IS_REQUIRED))?;
    let encoded = file
        .base64
        .as_deref()
        .filter(|b| !b.is_empty())
        .ok_or_else(|| ApiError::field("file", messages::IS_EMPTY))?;
    let encoded = encoded
        .split_once(";base64,")
        .map(|(_, b)| b)
        .unwrap_or(encoded);
    let cleaned: String = encoded.chars().filter(|c| !c.is_whitespace()).collect();
    if cleaned.len() / 4 * 3 > MAX_DOCUMENT + 3 {
        return Err(too_large());
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(cleaned.as_bytes())
        .map_err(|_| ApiError::field("file", messages::IS_NOT_VALID_BASE64))?;
    Ok(Upload {
        filename: file.filename.unwrap_or_default(),
        bytes,
    })
}

/// A read document: the invoice, its syntax and format, the stored file's type and
/// Kontor's EN 16931 check of it (issue 36).
struct Read {
    invoice: Invoice,
    syntax: &'static str,
    format: &'static str,
    pdf: bool,
    check: kontor_model::einvoice_check::EinvoiceCheck,
}

/// The rules a document breaks, for the reason of a 422 (`" (BR-CL-18, BR-S-08)"`), empty
/// when it breaks none.
fn broken_rules(check: &kontor_model::einvoice_check::EinvoiceCheck) -> String {
    if check.findings.is_empty() {
        return String::new();
    }
    format!(" ({})", check.rules().join(", "))
}

/// Reads an e-invoice from `bytes`, judged by content (never by name). Errors: 422 on
/// `file` saying why it is not one.
fn read_document(bytes: &[u8]) -> ApiResult<Read> {
    let not_invoice = |why: kontor_einvoice::Error| {
        let why = match why {
            kontor_einvoice::Error::NotAnInvoice(w)
            | kontor_einvoice::Error::Pdf(w)
            | kontor_einvoice::Error::Write(w) => w,
        };
        ApiError::field(
            "file",
            kontor_model::error::messages::NOT_AN_E_INVOICE_N.with([why]),
        )
    };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::field("file", messages::IS_EMPTY));
    }
    if bytes.len() > MAX_DOCUMENT {
        return Err(too_large());
    }
    let pdf = bytes.starts_with(b"%PDF-");
    let embedded;
    let xml: &[u8] = if pdf {
        embedded = embedded_xml(bytes).map_err(not_invoice)?;
        &embedded
    } else {
        bytes
    };
    let check = kontor_einvoice::conformance::check(xml);
    let (invoice, syntax) = read_with_syntax(xml).map_err(|e| match e {
        kontor_einvoice::Error::NotAnInvoice(why) => not_invoice(
            kontor_einvoice::Error::NotAnInvoice(format!("{why}{}", broken_rules(&check))),
        ),
        other => not_invoice(other),
    })?;
    let format = if pdf {
        "factur-x"
    } else if invoice.specification == Specification::XRechnung {
        "xrechnung"
    } else {
        "en16931"
    };
    Ok(Read {
        invoice,
        syntax: syntax.as_str(),
        format,
        pdf,
        check,
    })
}

/// Time budget of reading one document (a 10 MiB e-invoice takes well under a second).
const READ_BUDGET: std::time::Duration = std::time::Duration::from_secs(10);

/// [`read_document`] as bounded CPU work (issue 29): on a blocking thread, at most
/// `crate::work::cpu_work::permits()` at once, within [`READ_BUDGET`]. Errors: as
/// [`read_document`]; 422 on `file` past the budget; 503 when too many documents are read
/// at once.
async fn read_bounded(bytes: std::sync::Arc<Vec<u8>>) -> ApiResult<Read> {
    crate::work::cpu_work::run(
        crate::work::cpu_work::Kind::Import,
        READ_BUDGET,
        || ApiError::field("file", messages::TAKES_TOO_LONG_TO_IMPORT),
        move || read_document(&bytes),
    )
    .await?
}

/// Import an e-invoice as a pending purchase.
///
/// POST /purchases/import (multipart part `file`, or JSON `{"file": {"filename",
/// "base64"}}`) → 201 with the pending purchase.
/// Errors: 409 `{"message", "errors": {"file": [...]}, "id", "identifier"}` when the supplier already has
/// a purchase with this receipt identifier (BT-1); 413 over 16 MiB; 415 for other bodies;
/// 422 on `file` (missing, empty, over 10 MiB, not base64, not an e-invoice — with the
/// reason); 403 for read-only keys (like every write).
#[utoipa::path(post, path = "/purchases/import", operation_id = "purchases_import", tag = "purchases",
    request_body(description = "The e-invoice as multipart part `file` or as JSON `{\"file\": {\"filename\", \"base64\"}}` (the body at most 16 MiB).", content((ImportForm = "multipart/form-data"), (ImportBody = "application/json"))),
    responses((status = 201, description = "The pending purchase created from the e-invoice.", body = kontor_model::purchase::Purchase),
        (status = 409, description = "The supplier already has a purchase with this receipt identifier (BT-1): `errors.file` names it, `id` and `identifier` are the existing purchase's; nothing is written.", body = kontor_model::error::ErrorBody)))]
pub async fn import(
    CallerContext(state, caller, base): CallerContext,
    req: Request,
) -> ApiResult<Response> {
    let content_type = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    let upload = if content_type.starts_with("multipart/form-data") {
        from_multipart(req).await?
    } else if content_type.starts_with("application/json") {
        let JsonBody(body) = JsonBody::<ImportBody, UPLOAD_LIMIT>::from_request(req, &()).await?;
        from_json(body)?
    } else {
        return Err(ApiError::UnsupportedMediaType(
            "multipart/form-data or application/json",
        ));
    };
    let upload_bytes = std::sync::Arc::new(upload.bytes);
    match import_bytes(&state, &upload.filename, upload_bytes, caller.user_id, None).await? {
        Imported::Created(id, _) => {
            let purchase = repo::load(&state, &base, id).await?;
            Ok((StatusCode::CREATED, Json(purchase)).into_response())
        }
        Imported::Duplicate(id, identifier) => {
            // The 409 of the one duplicate rule, on `file` (the import has no receipt field).
            let message = kontor_model::error::messages::WAS_IMPORTED_BEFORE_N.with([&identifier]);
            Err(super::duplicates::conflict("file", message, id, identifier))
        }
    }
}

/// What [`import_bytes`] did.
#[derive(Debug)]
pub enum Imported {
    /// A pending purchase with this id was made; the document's EN 16931 check.
    Created(i64, Box<kontor_model::einvoice_check::EinvoiceCheck>),
    /// The supplier has a purchase with this receipt identifier (BT-1) already: its id and
    /// Kontor number; nothing was written.
    Duplicate(i64, String),
}

/// Imports the e-invoice `bytes` (uploaded as `filename`, which may be empty) as a pending
/// purchase of user `user_id` — the one import of `POST /purchases/import` and the inbox
/// (issue 36; `sender` is the inbox message's From address, where a request for a
/// corrected invoice goes when the document names no seller e-mail). The purchase carries
/// Kontor's EN 16931 check of the document (`einvoice_check`). Errors: 422 on `file` when it is no e-invoice (with the reason), too large,
/// takes too long or has amounts too large; 503 when too many documents are read at once;
/// the database's and the file store's.
pub async fn import_bytes(
    state: &AppState,
    filename: &str,
    bytes: std::sync::Arc<Vec<u8>>,
    user_id: i64,
    sender: Option<&str>,
) -> ApiResult<Imported> {
    let read = read_bounded(bytes.clone()).await?;
    let (positions, sum) = purchase_positions(&read.invoice)
        .ok_or_else(|| ApiError::field("file", messages::E_INVOICE_AMOUNTS_TOO_LARGE))?;
    let extension = if read.pdf { "pdf" } else { "xml" };
    let filename = match clean_file_name(filename) {
        f if f.is_empty() => format!("{}.{extension}", clean_file_name(&read.invoice.number)),
        f => f,
    };
    let new = NewImport {
        invoice: &read.invoice,
        positions: &positions,
        sum,
        syntax: read.syntax,
        format: read.format,
        content_type: if read.pdf {
            "application/pdf"
        } else {
            "application/xml"
        },
        extension,
        filename: &filename,
        bytes: &bytes,
        user_id,
        check: &read.check,
        reply_to: reply_to(&read.invoice).or_else(|| {
            sender
                .map(str::trim)
                .filter(|s| kontor_model::email::is_address(s))
                .map(str::to_string)
        }),
    };
    Ok(match import_repo::create(state, &new).await? {
        import_repo::Outcome::Created(id) => Imported::Created(id, Box::new(read.check)),
        import_repo::Outcome::Duplicate(id, identifier) => Imported::Duplicate(id, identifier),
    })
}

/// Where a request for a corrected invoice goes: the seller's contact e-mail (BT-43), else
/// its electronic address when that is an e-mail (`EM`, BT-34); `None` when the document
/// names neither or the text is no e-mail address.
fn reply_to(invoice: &Invoice) -> Option<String> {
    let seller = &invoice.seller;
    seller
        .contact
        .as_ref()
        .and_then(|c| c.email.clone())
        .into_iter()
        .chain(
            seller
                .electronic_address
                .as_ref()
                .filter(|a| a.scheme.eq_ignore_ascii_case("EM"))
                .map(|a| a.value.clone()),
        )
        .map(|e| e.trim().to_string())
        .find(|e| kontor_model::email::is_address(e))
}

/// A purchase's e-invoice as HTML.
///
/// GET /purchases/{id}/e_invoice.html → the stored e-invoice as a self-contained HTML page
/// (`text/html`; every text escaped; CSP `default-src 'none'` with inline styles only and
/// `sandbox`, so nothing runs and nothing loads), in German for `Accept-Language: de`
/// (labels, `1.234,50`, `24.11.2026`, units and VAT categories in words; issue 34).
/// Errors: 404 when the purchase does not exist, has no e-invoice, or its file is gone.
#[utoipa::path(get, path = "/purchases/{id}/e_invoice.html", operation_id = "purchases_e_invoice_html", tag = "purchases",
    params(crate::http::extract::IdPath),
    responses((status = 200, description = "The stored e-invoice as a self-contained HTML page (every text escaped; nothing runs or loads).", content_type = "text/html", headers(("Content-Security-Policy" = String, description = "`default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; sandbox`")))))]
pub async fn e_invoice_html(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    crate::http::extract::IdPath(id): crate::http::extract::IdPath,
) -> ApiResult<Response> {
    // Issue 34: labels, amounts and dates in the caller's language.
    let language = match headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .map(kontor_model::error_text::language)
    {
        Some("de") => kontor_einvoice::html::ViewLanguage::De,
        _ => kontor_einvoice::html::ViewLanguage::En,
    };
    let row = repo::load_row(&state.pool, id).await?;
    let (Some(_), Some(key)) = (row.einvoice_syntax.as_ref(), row.document_key.as_ref()) else {
        return Err(ApiError::not_found(format!("e-invoice of purchase {id}")));
    };
    let bytes = state
        .files
        .get(Area::PurchaseDocuments, key)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("e-invoice file of purchase {id}")))?;
    let html = crate::work::cpu_work::run(
        crate::work::cpu_work::Kind::Import,
        READ_BUDGET,
        || ApiError::Busy("reading e-invoices"),
        move || {
            read_document(&bytes)
                .map(|read| kontor_einvoice::html::render_html_in(&read.invoice, language))
        },
    )
    .await?
    .map_err(|_| ApiError::Internal(format!("stored e-invoice of purchase {id} unreadable")))?;
    let mut response = html.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(HTML_CSP),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    Ok(response)
}
