//! Bank statements and transactions (issue 32): import a statement file with progress,
//! list transactions by state, match (one or several documents), undo, ignore.

use super::client::{get_one, get_page, request, send_json, Target};
use super::upload::{send_with_progress, UploadBody};
use super::{ApiError, Page};
use gloo_net::http::Method;
use kontor_model::bank::{
    Allocation, BankStatement, BankTransaction, MatchTransaction, TransactionState,
};
use leptos::prelude::RwSignal;

/// POST /bank_statements (multipart part `file`): the import's counts; 413/422 name `file`.
pub async fn import_statement(
    file: &web_sys::File,
    progress: RwSignal<u8>,
) -> Result<BankStatement, ApiError> {
    let form = web_sys::FormData::new().map_err(|_| ApiError::local("FormData"))?;
    form.append_with_blob_and_filename("file", file, &file.name())
        .map_err(|_| ApiError::local("FormData"))?;
    send_with_progress("POST", "/bank_statements", UploadBody::Form(form), progress).await
}

/// GET /bank_transactions with `state` (all states when `None`), `term` and `page` (50 a
/// page, newest booking first).
pub async fn list_transactions(
    state: Option<TransactionState>,
    term: &str,
    page: u32,
) -> Result<Page<BankTransaction>, ApiError> {
    let mut query = vec![
        ("per_page".to_string(), "50".to_string()),
        ("page".to_string(), page.to_string()),
    ];
    if let Some(s) = state {
        query.push(("state".into(), s.as_str().into()));
    }
    if !term.trim().is_empty() {
        query.push(("term".into(), term.trim().into()));
    }
    get_page("/bank_transactions", &query).await
}

/// How many transactions are in `state` (the `X-Total` of a one-item page).
pub async fn count_transactions(state: TransactionState) -> Result<u64, ApiError> {
    let query = [
        ("per_page".to_string(), "1".to_string()),
        ("state".to_string(), state.as_str().to_string()),
    ];
    let page: Page<BankTransaction> = get_page("/bank_transactions", &query).await?;
    Ok(page.total)
}

/// GET /bank_transactions/{id}.
pub async fn get_transaction(id: i64) -> Result<BankTransaction, ApiError> {
    get_one(&format!("/bank_transactions/{id}"), &[]).await
}

/// POST /bank_transactions/{id}/match with one invoice (the whole transfer).
pub async fn match_invoice(id: i64, invoice_id: i64) -> Result<BankTransaction, ApiError> {
    let body = MatchTransaction {
        invoice_id: Some(invoice_id),
        ..Default::default()
    };
    send_json(
        Method::POST,
        &format!("/bank_transactions/{id}/match"),
        &body,
    )
    .await
}

/// POST /bank_transactions/{id}/match with one purchase (the whole transfer).
pub async fn match_purchase(id: i64, purchase_id: i64) -> Result<BankTransaction, ApiError> {
    let body = MatchTransaction {
        purchase_id: Some(purchase_id),
        ..Default::default()
    };
    send_json(
        Method::POST,
        &format!("/bank_transactions/{id}/match"),
        &body,
    )
    .await
}

/// POST /bank_transactions/{id}/match with several parts (their sum at most the transfer).
pub async fn match_allocations(
    id: i64,
    allocations: Vec<Allocation>,
) -> Result<BankTransaction, ApiError> {
    let body = MatchTransaction {
        allocations: Some(allocations),
        ..Default::default()
    };
    send_json(
        Method::POST,
        &format!("/bank_transactions/{id}/match"),
        &body,
    )
    .await
}

/// DELETE /bank_transactions/{id}/match: removes exactly the payments booked from it.
pub async fn unmatch(id: i64) -> Result<BankTransaction, ApiError> {
    delete_answering(&format!("/bank_transactions/{id}/match")).await
}

/// POST /bank_transactions/{id}/ignore.
pub async fn ignore(id: i64) -> Result<BankTransaction, ApiError> {
    send_json(
        Method::POST,
        &format!("/bank_transactions/{id}/ignore"),
        &serde_json::json!({}),
    )
    .await
}

/// DELETE /bank_transactions/{id}/ignore: matched again against what is open now.
pub async fn unignore(id: i64) -> Result<BankTransaction, ApiError> {
    delete_answering(&format!("/bank_transactions/{id}/ignore")).await
}

/// DELETE `path` (with the key), reading the transaction the server answers.
async fn delete_answering(path: &str) -> Result<BankTransaction, ApiError> {
    request(&Target::stored()?, Method::DELETE, path, &[], None)
        .await?
        .parse()
}
