//! Rendering a document's data to PDF bytes off the async threads (used by the invoice and
//! offer handlers). A leaf: it knows no handler.
//!
//! Invoices may be Factur-X / ZUGFeRD 2.x PDFs (issue 10 § Issuing): [`invoice_pdf`] with
//! the invoice's EN 16931 CII XML renders PDF/A-3b with the XML attached as
//! `factur-x.xml` and adds the Factur-X XMP extension ([`factur_x`]).

use crate::http::error::{ApiError, ApiResult};
use kontor_einvoice::facturx::{add_xmp_extension, CONFORMANCE_EN16931};
use kontor_pdf::document::DocumentData;
use kontor_pdf::{Attachment, PdfEngine};

/// Renders `data` (and its logo) with the document template on a blocking thread: the
/// plain PDF (offers, reminders, time sheets, invoices without an e-invoice). A logo
/// Typst cannot draw (a stored image it fails to decode) is logged and left out: the
/// document is printed without it rather than not at all.
/// Errors: 500 (a template defect or a failed task, logged).
pub async fn render(data: DocumentData) -> ApiResult<Vec<u8>> {
    invoice_pdf(data, None).await
}

/// An invoice's PDF, on a blocking thread: with `e_invoice_xml` (the invoice's EN 16931
/// CII XML, Factur-X profile EN 16931 — `None` when the invoice lacks what EN 16931 needs
/// or the account switched Factur-X off) a Factur-X PDF ([`factur_x`]), else the plain PDF
/// of [`render`]. A Factur-X render that fails (a PDF/A rule the document breaks, e.g. a
/// logo SVG with text the font cannot draw, after retrying without the logo) is logged
/// and the plain PDF is served instead: the customer always gets a readable invoice.
/// At most `crate::work::cpu_work::permits()` renders run at once; the memory a render used
/// is given back to the system afterwards ([`crate::work::cpu_work::return_memory`]).
/// Errors: 503 when too many renders run or wait, 500 (a template defect or a failed
/// task, logged).
pub async fn invoice_pdf(data: DocumentData, e_invoice_xml: Option<Vec<u8>>) -> ApiResult<Vec<u8>> {
    let too_slow = || ApiError::Busy("rendering documents");
    crate::work::cpu_work::run(
        crate::work::cpu_work::Kind::Document,
        BUDGET,
        too_slow,
        move || {
            let started = std::time::Instant::now();
            let pdf = render_blocking(data, e_invoice_xml);
            if started.elapsed() > std::time::Duration::from_millis(100) {
                // A large document: give the pages its render used back to the system.
                crate::work::cpu_work::return_memory();
            }
            pdf
        },
    )
    .await?
    .map_err(ApiError::Internal)
}

/// Time budget of one render (1,000 positions take about 0.4 s; 5,000 about 3 s).
const BUDGET: std::time::Duration = std::time::Duration::from_secs(120);

/// [`invoice_pdf`]'s work, on the calling thread.
fn render_blocking(data: DocumentData, e_invoice_xml: Option<Vec<u8>>) -> Result<Vec<u8>, String> {
    if let Some(xml) = e_invoice_xml {
        match without_logo_on_error(data.clone(), |d| factur_x(d, &xml)) {
            Ok(pdf) => return Ok(pdf),
            Err(e) => tracing::warn!(error = %e, "Factur-X PDF failed; serving the plain PDF"),
        }
    }
    without_logo_on_error(data, |d| {
        PdfEngine::shared()
            .render_document(d)
            .map_err(|e| e.to_string())
    })
}

/// A Factur-X / ZUGFeRD 2.x PDF of `data` (synchronous, CPU-bound; ≈ 10 ms for a 1-page
/// invoice, see docs/benchmarks.md): the document rendered as PDF/A-3b with `cii_xml`
/// attached as `factur-x.xml` (`text/xml`, `/AFRelationship /Alternative`, listed in the
/// catalog's `/AF`), then the Factur-X XMP extension (DocumentType INVOICE,
/// DocumentFileName factur-x.xml, Version 1.0, ConformanceLevel EN 16931) added in one
/// incremental update. `cii_xml` is embedded as given (the caller writes and validates
/// it).
/// Errors: the render's or the XMP update's message (a template defect, or a PDF/A-3b
/// rule the document breaks).
pub fn factur_x(data: &DocumentData, cii_xml: &[u8]) -> Result<Vec<u8>, String> {
    let attachment = Attachment::factur_x(cii_xml.to_vec());
    let pdf = PdfEngine::shared()
        .render_document_pdfa3(data, &attachment)
        .map_err(|e| e.to_string())?;
    add_xmp_extension(&pdf, &attachment.file_name, CONFORMANCE_EN16931).map_err(|e| e.to_string())
}

/// `render(data)`, and when that fails for a document with a logo, `render` once more
/// without the logo (logged).
fn without_logo_on_error(
    data: DocumentData,
    render: impl Fn(&DocumentData) -> Result<Vec<u8>, String>,
) -> Result<Vec<u8>, String> {
    match render(&data) {
        Err(e) if data.letterhead.logo.is_some() => {
            tracing::warn!(error = %e, "the account logo cannot be drawn; printing without it");
            let mut without = data;
            without.letterhead.logo = None;
            render(&without)
        }
        result => result,
    }
}
