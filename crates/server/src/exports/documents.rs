//! GET /exports/documents.zip (`from`, `to`): every finalized invoice's PDF
//! (`invoices/<number>_<date>.pdf`, rendered as `GET /invoices/{id}.pdf` renders it, on the
//! account's default letter paper) and every purchase's stored document
//! (`purchases/<number>_<date>.<ext>`) of the period, deflated. The ZIP is built in memory:
//! at most [`MAX_DOCUMENTS`] documents and [`MAX_BYTES`] of content, else 422 naming `to`.

use super::load;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::QueryPairs;
use crate::state::AppState;
use axum::extract::State;
use axum::response::Response;
use kontor_model::export::{entry_name, extension, file_name};
use std::io::Write;

/// Most documents one ZIP holds (each invoice PDF is rendered for it).
pub const MAX_DOCUMENTS: usize = 500;
/// Most bytes of documents one ZIP holds (256 MiB).
pub const MAX_BYTES: usize = 256 * 1024 * 1024;

fn too_many(what: String) -> ApiError {
    ApiError::field(
        "to",
        kontor_model::error::messages::MORE_THAN_ONE_ZIP_N.with([what]),
    )
}

/// Documents of a period as ZIP.
///
/// GET /exports/documents.zip → 200 `application/zip`, attachment
/// `documents_<from>_<to>.zip`. A purchase whose stored file is missing is left out (and
/// logged). Errors: 422 naming `from`/`to`, or `to` when the period holds more than
/// [`MAX_DOCUMENTS`] documents or [`MAX_BYTES`]; 500 when a PDF cannot be rendered.
#[utoipa::path(
    get,
    path = "/exports/documents.zip",
    operation_id = "exports_documents_zip",
    tag = "exports",
    params(
        super::Period,
    ),
    responses(
        (status = 200, description = "Every finalized invoice's PDF and every purchase's stored document of the period (at most 500 documents, 256 MiB), deflated; attachment `documents_<from>_<to>.zip`.", content_type = "application/zip",
            headers(("Content-Disposition" = String, description = "`attachment; filename=\"documents_<from>_<to>.zip\"`"))),
    )
)]
pub async fn documents_zip(
    State(state): State<AppState>,
    query: QueryPairs,
) -> ApiResult<Response> {
    let period = load::period(&query)?;
    let invoices = load::invoices(&state.pool, &period).await?;
    let stored = load::purchase_documents(&state.pool, &period).await?;
    let count = invoices.len() + stored.len();
    if count > MAX_DOCUMENTS {
        return Err(too_many(format!(
            "the period holds {count} documents, at most {MAX_DOCUMENTS}"
        )));
    }
    let mut files: Vec<(String, Vec<u8>)> = Vec::with_capacity(count);
    let mut total = 0usize;
    let mut add = |name: String, bytes: Vec<u8>| -> ApiResult<()> {
        total = total.saturating_add(bytes.len());
        if total > MAX_BYTES {
            return Err(too_many(format!(
                "the documents of the period exceed {} MiB",
                MAX_BYTES / 1024 / 1024
            )));
        }
        files.push((name, bytes));
        Ok(())
    };
    let paper = state.account.letter_paper(None);
    for summary in invoices {
        let invoice = crate::invoices::repo::load(&state.pool, summary.id).await?;
        let number = invoice.identifier.clone().unwrap_or_default();
        let bytes = crate::invoices::invoice_pdf_bytes(&state, &invoice, paper).await?;
        add(entry_name("invoices", &number, invoice.date, "pdf"), bytes)?;
    }
    for doc in stored {
        let area = crate::store::storage::Area::PurchaseDocuments;
        match state.files.get(area, &doc.document_key).await? {
            Some(bytes) => add(
                entry_name(
                    "purchases",
                    &doc.identifier,
                    doc.date,
                    extension(&doc.document_type),
                ),
                bytes,
            )?,
            None => tracing::warn!(purchase = %doc.identifier, "document file missing"),
        }
    }
    let bytes = tokio::task::spawn_blocking(move || zip(files))
        .await
        .map_err(|e| ApiError::Internal(format!("zip task: {e}")))??;
    Ok(load::download(
        bytes,
        "application/zip",
        &file_name("documents", &period, "zip"),
    ))
}

/// The ZIP of `files` (name, bytes), deflated. Errors: 500 when writing fails.
fn zip(files: Vec<(String, Vec<u8>)>) -> ApiResult<Vec<u8>> {
    let fail = |e: zip::result::ZipError| ApiError::Internal(format!("zip: {e}"));
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in files {
        writer.start_file(name, options).map_err(fail)?;
        writer
            .write_all(&bytes)
            .map_err(|e| ApiError::Internal(format!("zip: {e}")))?;
    }
    Ok(writer.finish().map_err(fail)?.into_inner())
}
