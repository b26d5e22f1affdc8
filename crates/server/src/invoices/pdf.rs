//! The invoice as a PDF: GET /invoices/{id}.pdf (`blank`, `letter_paper_id`),
//! GET /invoices/{id}/timesheet.pdf (404 without hours) and POST /invoices/preview.pdf
//! (an unsaved creation body; nothing is stored). Rendering runs on a blocking thread.

use super::repo;
use crate::documents::{context, invoice_document, timesheet_document, Letter};
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{IdPath, JsonBody, QueryPairs};
use crate::state::AppState;
use crate::store::files::pdf_response;
use crate::work::pdf_render::render;
use axum::extract::State;
use axum::response::Response;
use kontor_model::invoice::Invoice;
use kontor_model::invoice_input::NewInvoice;
use kontor_model::status::InvoiceStatus;

/// Renders invoice `id` on `paper` (`None` = blank), named `<identifier>.pdf`.
/// Errors: 404 for an unknown invoice.
pub async fn render_pdf(
    state: &AppState,
    id: i64,
    paper: Option<&crate::config::LetterPaperConfig>,
) -> ApiResult<Response> {
    let invoice = repo::load(&state.pool, id).await?;
    let bytes = invoice_pdf_bytes(state, &invoice, paper).await?;
    Ok(pdf_response(
        bytes,
        &format!("{}.pdf", invoice.identifier.as_deref().unwrap_or("draft")),
    ))
}

/// The PDF of `invoice` on `paper` (`None` = blank): a Factur-X PDF (PDF/A-3b with the
/// EN 16931 CII embedded as `factur-x.xml`) when the account's `factur_x` is on and the
/// invoice has what EN 16931 needs, else the plain PDF. Used by GET /invoices/{id}.pdf and
/// by sending the invoice by e-mail, so both carry the same document.
/// Errors: 500 when rendering fails.
pub async fn invoice_pdf_bytes(
    state: &AppState,
    invoice: &Invoice,
    paper: Option<&crate::config::LetterPaperConfig>,
) -> ApiResult<Vec<u8>> {
    let (account, customer) = context(state, Some(invoice.customer_id)).await?;
    let document = invoice_document(invoice, &Letter::new(&account, paper, &customer))?;
    let e_invoice_xml = factur_x_xml(state, invoice).await?;
    crate::work::pdf_render::invoice_pdf(document, e_invoice_xml).await
}

/// The EN 16931 CII that `invoice`'s PDF embeds (`super::einvoice::factur_x_xml`); `None`
/// for drafts, invoices whose customer is gone, and what EN 16931 cannot describe yet.
/// Errors: database errors while loading the records.
async fn factur_x_xml(state: &AppState, invoice: &Invoice) -> ApiResult<Option<Vec<u8>>> {
    if invoice.status == InvoiceStatus::Draft {
        return Ok(None);
    }
    match super::einvoice::records_of(state, invoice.clone()).await {
        Ok(records) => Ok(super::einvoice::factur_x_xml(&records)),
        Err(ApiError::Invalid(..)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// GET /invoices/{id}.pdf. Errors: 404 (invoice, letter paper).
pub async fn invoice_pdf(state: &AppState, id: i64, query: &QueryPairs) -> ApiResult<Response> {
    render_pdf(state, id, crate::documents::query_paper(state, query)?).await
}

/// GET /invoices/{id}/timesheet.pdf. Errors: 404 when the invoice billed no hours.
#[utoipa::path(get, path = "/invoices/{id}/timesheet.pdf", operation_id = "invoices_timesheet_pdf", tag = "invoices",
    params(IdPath, crate::documents::PrintParams),
    responses((status = 200, description = "The timesheet of the hours the invoice billed", content_type = "application/pdf", headers(("Content-Disposition" = String, description = "`inline; filename=\"<number>-timesheet.pdf\"`")))))]
pub async fn timesheet_pdf(
    State(state): State<AppState>,
    IdPath(id): IdPath,
    query: QueryPairs,
) -> ApiResult<Response> {
    let paper = crate::documents::query_paper(&state, &query)?;
    let invoice = repo::load(&state.pool, id).await?;
    let activities = crate::billable::activities::of_invoice(&state.pool, id).await?;
    if activities.iter().all(|a| a.hours.is_zero()) {
        return Err(ApiError::not_found(format!("hours billed by invoice {id}")));
    }
    let (account, customer) = context(&state, Some(invoice.customer_id)).await?;
    let letter = Letter::new(&account, paper, &customer);
    let bytes = render(timesheet_document(&invoice, &activities, &letter)?).await?;
    Ok(pdf_response(
        bytes,
        &format!(
            "{}-timesheet.pdf",
            invoice.identifier.as_deref().unwrap_or("draft")
        ),
    ))
}

/// POST /invoices/preview.pdf with a (possibly incomplete) creation body → the PDF it
/// would print; nothing is stored. Errors: 400/415/422 for malformed bodies only.
#[utoipa::path(post, path = "/invoices/preview.pdf", operation_id = "invoices_preview_pdf", tag = "invoices",
    params(crate::documents::PrintParams), request_body(content = NewInvoice, description = "A (possibly incomplete) creation body"),
    responses((status = 200, description = "The PDF the body would print", content_type = "application/pdf", headers(("Content-Disposition" = String, description = "`inline; filename=\"preview.pdf\"`")))))]
pub async fn preview_pdf(
    State(state): State<AppState>,
    query: QueryPairs,
    JsonBody(mut body): JsonBody<NewInvoice>,
) -> ApiResult<Response> {
    let paper = crate::documents::query_paper(&state, &query)?;
    let body_customer = body.customer_id;
    let invoice =
        super::unsaved::unsaved_invoice(&state, &mut body, super::unsaved::CustomerTerms::Apply)
            .await?;
    let (account, customer) = context(&state, body_customer).await?;
    let bytes = render(invoice_document(
        &invoice,
        &Letter::new(&account, paper, &customer),
    )?)
    .await?;
    Ok(pdf_response(bytes, "preview.pdf"))
}
