//! Rendering a document's data to PDF bytes off the async threads (used by the invoice and
//! offer handlers). A leaf: it knows no handler.

use crate::error::{ApiError, ApiResult};
use kontor_pdf::document::DocumentData;
use kontor_pdf::PdfEngine;

/// Renders `data` (and its logo) with the document template on a blocking thread. A logo
/// Typst cannot draw (a stored image it fails to decode) is logged and left out: the
/// document is printed without it rather than not at all.
/// Errors: 500 (a template defect or a failed task, logged).
pub async fn render(data: DocumentData) -> ApiResult<Vec<u8>> {
    tokio::task::spawn_blocking(move || {
        let engine = PdfEngine::shared();
        match engine.render_document(&data) {
            Err(e) if data.letterhead.logo.is_some() => {
                tracing::warn!(error = %e, "the account logo cannot be drawn; printing without it");
                let mut without = data;
                without.letterhead.logo = None;
                engine.render_document(&without)
            }
            result => result,
        }
    })
    .await
    .map_err(|e| ApiError::Internal(format!("render task: {e}")))?
    .map_err(|e| ApiError::Internal(e.to_string()))
}
