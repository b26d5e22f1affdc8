//! Requests whose upload progress the page shows (UI.md: uploads with a progress bar):
//! `fetch` reports no upload progress, so these go through `XMLHttpRequest`. Used for
//! purchase documents (multipart) and offer attachments (JSON with base64).

use super::client::{error_from_body, server_or_origin, stored_key};
use super::ApiError;
use crate::i18n::{fill, t};
use futures::channel::oneshot;
use leptos::prelude::{RwSignal, Set};
use send_wrapper::SendWrapper;
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::JsCast;

/// What an upload carries.
pub enum UploadBody {
    /// `multipart/form-data` (the browser sets the boundary).
    Form(web_sys::FormData),
    /// A JSON text (`Content-Type: application/json`).
    Json(String),
}

/// Sends `body` with `method` to `/api/v1<path>` with the stored key; `progress` follows
/// the upload from 0 to 100 (percent). Answers the JSON record of a 2xx.
pub async fn send_with_progress<T: DeserializeOwned>(
    method: &str,
    path: &str,
    body: UploadBody,
    progress: RwSignal<u8>,
) -> Result<T, ApiError> {
    let (status, text) = send_raw_with_progress(method, path, body, progress).await?;
    match status {
        200..=299 => serde_json::from_str(&text).map_err(|e| {
            ApiError::local(fill(
                t().api_errors().unreadable,
                &[("error", &e.to_string())],
            ))
        }),
        _ => Err(error_from_body(status, &text)),
    }
}

/// [`send_with_progress`] without reading the answer: the status and body text of any
/// answer the server gave (callers that need more than the error body, e.g. the 409 of an
/// import with the existing record's id). Errors only when the server was not reached.
pub async fn send_raw_with_progress(
    method: &str,
    path: &str,
    body: UploadBody,
    progress: RwSignal<u8>,
) -> Result<(u16, String), ApiError> {
    let key = stored_key().ok_or_else(|| ApiError::local(t().api_errors().sign_in))?;
    let url = format!("{}/api/v1{path}", server_or_origin());
    let failed = |_| ApiError::local(t().api_errors().upload_not_started);
    let xhr = web_sys::XmlHttpRequest::new().map_err(failed)?;
    xhr.open(method, &url).map_err(failed)?;
    xhr.set_request_header("Authorization", &format!("Token token={key}"))
        .map_err(failed)?;
    xhr.set_request_header("Accept", "application/json")
        .map_err(failed)?;
    xhr.set_request_header("Accept-Language", crate::i18n::language().code())
        .map_err(failed)?;
    let on_progress =
        Closure::<dyn Fn(web_sys::ProgressEvent)>::new(move |ev: web_sys::ProgressEvent| {
            if ev.length_computable() && ev.total() > 0.0 {
                progress.set((ev.loaded() / ev.total() * 100.0).round().clamp(0.0, 100.0) as u8);
            }
        });
    xhr.upload()
        .map_err(failed)?
        .set_onprogress(Some(on_progress.as_ref().unchecked_ref()));
    let (done_tx, done_rx) = oneshot::channel::<()>();
    let done_tx = SendWrapper::new(std::cell::RefCell::new(Some(done_tx)));
    let on_end = Closure::<dyn Fn()>::new(move || {
        if let Some(tx) = done_tx.borrow_mut().take() {
            let _ = tx.send(());
        }
    });
    xhr.set_onloadend(Some(on_end.as_ref().unchecked_ref()));
    progress.set(0);
    match body {
        UploadBody::Form(form) => xhr.send_with_opt_form_data(Some(&form)),
        UploadBody::Json(json) => {
            xhr.set_request_header("Content-Type", "application/json")
                .map_err(failed)?;
            xhr.send_with_opt_str(Some(&json))
        }
    }
    .map_err(failed)?;
    let _ = done_rx.await;
    drop((on_progress, on_end));
    let status = xhr.status().unwrap_or(0);
    let text = xhr.response_text().ok().flatten().unwrap_or_default();
    if status == 0 {
        return Err(ApiError::local(fill(
            t().api_errors().unreachable_short,
            &[("server", &server_or_origin())],
        )));
    }
    Ok((status, text))
}
