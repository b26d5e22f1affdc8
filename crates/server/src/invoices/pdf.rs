//! The invoice as a PDF: GET /invoices/{id}.pdf (`blank`, `letter_paper_id`),
//! GET /invoices/{id}/timesheet.pdf (404 without hours) and POST /invoices/preview.pdf
//! (an unsaved creation body; nothing is stored). Rendering runs on a blocking thread.

use super::repo;
use crate::documents::{context, invoice_document, timesheet_document};
use crate::error::{ApiError, ApiResult};
use crate::extract::{IdPath, JsonBody, QueryPairs};
use crate::files::pdf_response;
use crate::pdf_render::render;
use crate::state::AppState;
use axum::extract::State;
use axum::response::Response;
use kontor_model::invoice::{Invoice, InvoiceItem, Vat};
use kontor_model::invoice_input::NewInvoice;
use kontor_model::party::CustomerVat;
use kontor_model::status::InvoiceStatus;
use kontor_model::totals::compute_document_totals;
use kontor_model::vat::{resolve_vat, VatChoice};

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
    let document = invoice_document(invoice, &account, paper, &customer)?;
    let e_invoice_xml = factur_x_xml(state, invoice).await?;
    crate::pdf_render::invoice_pdf(document, e_invoice_xml).await
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
#[utoipa::path(
    get,
    path = "/invoices/{id}/timesheet.pdf",
    operation_id = "invoices_timesheet_pdf",
    tag = "invoices",
    params(
        ("id" = i64, Path, description = "Invoice id"),
        ("blank" = Option<bool>, Query,
            description = "Print without letter paper (any value but `false` or `0`)"),
        ("letter_paper_id" = Option<i64>, Query,
            description = "The configured letter paper to print on (absent: the default)")
    ),
    responses(
        (status = 200, description = "The timesheet of the hours the invoice billed", content_type = "application/pdf",
            headers(("Content-Disposition" = String, description = "`inline; filename=\"<number>-timesheet.pdf\"`")))
    )
)]
pub async fn timesheet_pdf(
    State(state): State<AppState>,
    IdPath(id): IdPath,
    query: QueryPairs,
) -> ApiResult<Response> {
    let paper = crate::documents::query_paper(&state, &query)?;
    let invoice = repo::load(&state.pool, id).await?;
    let activities = crate::activities::of_invoice(&state.pool, id).await?;
    if activities.iter().all(|a| a.hours.is_zero()) {
        return Err(ApiError::not_found(format!("hours billed by invoice {id}")));
    }
    let (account, customer) = context(&state, Some(invoice.customer_id)).await?;
    let bytes = render(timesheet_document(
        &invoice,
        &activities,
        &account,
        paper,
        &customer,
    )?)
    .await?;
    Ok(pdf_response(
        bytes,
        &format!(
            "{}-timesheet.pdf",
            invoice.identifier.as_deref().unwrap_or("draft")
        ),
    ))
}

/// The representation an unsaved creation body would get (for the preview and the
/// e-invoice finalize check); VAT flags the body leaves out come from the customer
/// (`customer_vat`), as on creation.
pub(super) fn unsaved(
    body: NewInvoice,
    default_currency: String,
    customer_vat: Option<&CustomerVat>,
) -> ApiResult<Invoice> {
    let currency = body.currency.clone().unwrap_or(default_currency);
    let document = resolve_vat(body.tax, body.vat.as_ref(), customer_vat);
    let VatChoice {
        tax,
        reverse_charge,
        intra_eu,
    } = document;
    let items = body.items.clone().unwrap_or_default();
    let amounts: Vec<_> = items.iter().map(|i| i.amounts()).collect();
    let totals = compute_document_totals(
        &amounts,
        body.discount.unwrap_or_default(),
        &document,
        &currency,
    )?;
    let today = crate::db::now();
    let date = body.date.unwrap_or(today.date_naive());
    Ok(Invoice {
        id: 0,
        customer_id: body.customer_id.unwrap_or_default(),
        customer: None,
        project_id: body.project_id,
        identifier: None,
        date,
        due_date: body.due_date.unwrap_or(date),
        service_period: None,
        service_period_from: body.service_period_from,
        service_period_to: body.service_period_to,
        status: InvoiceStatus::Draft,
        reversed: false,
        reversal_invoice_id: None,
        reversal: false,
        reversed_invoice_id: None,
        offer_id: body.offer_id,
        title: body.title.unwrap_or_default(),
        recipient_address: body.recipient_address.unwrap_or_default(),
        currency,
        net_total: totals.net_total,
        tax,
        vat: Vat {
            tax,
            reverse_charge,
            intra_eu,
        },
        tax_breakdown: totals.tax_breakdown(),
        gross_total: totals.gross_total,
        open_amount: kontor_model::Decimal::ZERO,
        discount: body.discount.unwrap_or_default(),
        cash_discount: body.cash_discount.unwrap_or_default(),
        cash_discount_days: body.cash_discount_days.unwrap_or_default(),
        debit_number: None,
        credit_number: None,
        locked: false,
        activity_hours_modified: false,
        salutation: body.salutation.map(|s| crate::sanitize::html(&s)),
        footer: body.footer.map(|s| crate::sanitize::html(&s)),
        custom_properties: Default::default(),
        tags: Vec::new(),
        buyer_reference: body
            .buyer_reference
            .as_deref()
            .and_then(kontor_model::account::clean),
        payment_means: body.payment_means,
        file_url: None,
        user: None,
        items: Some(
            items
                .into_iter()
                .zip(totals.positions)
                .map(|(i, net)| InvoiceItem {
                    id: 0,
                    tax: i.tax,
                    tax_category: i.tax_category,
                    tax_exemption_reason: i.tax_exemption_reason,
                    kind: i.kind.unwrap_or(kontor_model::position::PositionType::Item),
                    title: i.title.unwrap_or_default(),
                    description: i.description.map(|d| crate::sanitize::html(&d)),
                    quantity: i.quantity,
                    unit: i.unit,
                    unit_price: i.unit_price,
                    net_total: net,
                    activity_ids: i.activity_ids.unwrap_or_default(),
                    expense_ids: i.expense_ids.unwrap_or_default(),
                })
                .collect(),
        ),
        payments: None,
        reminders: None,
        created_at: today,
        updated_at: today,
    })
}

/// The representation of creation body `body` (customer VAT and default currency applied),
/// for checks that need the invoice before it is stored. Errors: 422 when totals overflow.
pub(super) async fn unsaved_invoice(state: &AppState, body: &NewInvoice) -> ApiResult<Invoice> {
    let customer = match body.customer_id {
        Some(id) => crate::companies::find(&state.pool, id).await?,
        None => None,
    };
    let default_currency = crate::account::default_currency(&state.pool).await?;
    unsaved(
        body.clone(),
        default_currency,
        customer.as_ref().map(|c| &c.customer_vat),
    )
}

/// POST /invoices/preview.pdf with a (possibly incomplete) creation body → the PDF it
/// would print; nothing is stored. Errors: 400/415/422 for malformed bodies only.
#[utoipa::path(
    post,
    path = "/invoices/preview.pdf",
    operation_id = "invoices_preview_pdf",
    tag = "invoices",
    params(
        ("blank" = Option<bool>, Query,
            description = "Print without letter paper (any value but `false` or `0`)"),
        ("letter_paper_id" = Option<i64>, Query,
            description = "The configured letter paper to print on (absent: the default)")
    ),
    request_body(content = NewInvoice, description = "A (possibly incomplete) creation body"),
    responses(
        (status = 200, description = "The PDF the body would print", content_type = "application/pdf",
            headers(("Content-Disposition" = String, description = "`inline; filename=\"preview.pdf\"`")))
    )
)]
pub async fn preview_pdf(
    State(state): State<AppState>,
    query: QueryPairs,
    JsonBody(mut body): JsonBody<NewInvoice>,
) -> ApiResult<Response> {
    let paper = crate::documents::query_paper(&state, &query)?;
    let body_customer = body.customer_id;
    let customer = match body.customer_id {
        Some(id) => crate::companies::find(&state.pool, id).await?,
        None => None,
    };
    if let Some(c) = &customer {
        super::create::fill_default_texts(&state, &mut body, c.language).await?;
    }
    let default_currency = crate::account::default_currency(&state.pool).await?;
    let invoice = unsaved(
        body,
        default_currency,
        customer.as_ref().map(|c| &c.customer_vat),
    )?;
    let (account, customer) = context(&state, body_customer).await?;
    let bytes = render(invoice_document(&invoice, &account, paper, &customer)?).await?;
    Ok(pdf_response(bytes, "preview.pdf"))
}
