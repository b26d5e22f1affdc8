//! Rendering a document's data to PDF bytes off the async threads (used by the invoice and
//! offer handlers). A leaf: it knows no handler.

use crate::error::{ApiError, ApiResult};
use kontor_pdf::document::DocumentData;
use kontor_pdf::{PdfEngine, Template};

/// Renders `data` with the document template on a blocking thread.
/// Errors: 500 (a template defect or a failed task, logged).
pub async fn render(data: DocumentData) -> ApiResult<Vec<u8>> {
    tokio::task::spawn_blocking(move || PdfEngine::shared().render(Template::Document, &data))
        .await
        .map_err(|e| ApiError::Internal(format!("render task: {e}")))?
        .map_err(|e| ApiError::Internal(e.to_string()))
}
