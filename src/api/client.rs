//! The client core: server address and API key in `localStorage`, the generic request
//! function, [`ApiError`] and [`Page`].

use crate::i18n::{fill, t};
use gloo_net::http::{Headers, Method, Request, RequestBuilder};
use kontor_model::error::{ErrorBody, FieldErrors};
use leptos::prelude::{on_cleanup, window, GetUntracked, Owner};
use send_wrapper::SendWrapper;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

/// `localStorage` key of the server address (`https://kontor.example.com`).
pub const SERVER_STORAGE_KEY: &str = "kontor.server";
/// `localStorage` key of the API key.
pub const KEY_STORAGE_KEY: &str = "kontor.key";

/// A failed call: the HTTP status (0 when the server could not be reached), the server's
/// message and, on 422, the field errors keyed like `items[2].unit_price`.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiError {
    /// HTTP status; 0 for network failures and unreadable answers.
    pub status: u16,
    /// A sentence to show to people.
    pub message: String,
    /// Field path → messages (422 only; empty otherwise).
    pub errors: FieldErrors,
}

impl ApiError {
    /// An error that did not come from the server's answer.
    pub fn local(message: impl Into<String>) -> Self {
        ApiError {
            status: 0,
            message: message.into(),
            errors: FieldErrors::new(),
        }
    }

    /// True for a 422 answer (validation or a state rule).
    pub fn is_unprocessable(&self) -> bool {
        self.status == 422
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ApiError {}

/// One page of a list, with the counts from the `X-Page`, `X-Per-Page` and `X-Total`
/// headers.
#[derive(Clone, Debug, PartialEq)]
pub struct Page<T> {
    /// The records of this page.
    pub items: Vec<T>,
    /// Page number, from 1.
    pub page: u32,
    /// Page size.
    pub per_page: u32,
    /// Number of records over all pages.
    pub total: u64,
}

impl<T> Page<T> {
    /// Number of pages (at least 1).
    pub fn page_count(&self) -> u32 {
        let per_page = u64::from(self.per_page.max(1));
        (self.total.div_ceil(per_page)).max(1) as u32
    }
}

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// The stored server address without a trailing slash, if any.
pub fn stored_server() -> Option<String> {
    storage()?
        .get_item(SERVER_STORAGE_KEY)
        .ok()
        .flatten()
        .filter(|s| !s.is_empty())
}

/// The stored API key, if any.
pub fn stored_key() -> Option<String> {
    storage()?
        .get_item(KEY_STORAGE_KEY)
        .ok()
        .flatten()
        .filter(|s| !s.is_empty())
}

/// True when an API key is stored (the user is signed in).
pub fn has_key() -> bool {
    stored_key().is_some()
}

/// The server address to use: the stored one, else this page's origin.
pub fn server_or_origin() -> String {
    stored_server().unwrap_or_else(|| window().location().origin().unwrap_or_default())
}

/// Normalizes a typed server address: trims spaces and trailing slashes.
pub fn normalize_server(server: &str) -> String {
    server.trim().trim_end_matches('/').to_string()
}

/// Stores the server address and key after a successful sign-in.
pub fn store_credentials(server: &str, key: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(SERVER_STORAGE_KEY, &normalize_server(server));
        let _ = s.set_item(KEY_STORAGE_KEY, key.trim());
    }
}

/// Forgets the API key (sign-out, an ended session) and every API answer the service
/// worker stored for offline reading ([`crate::api::offline::wipe_stored_answers`]); the
/// server address stays for the next sign-in.
pub fn clear_key() {
    if let Some(s) = storage() {
        let _ = s.remove_item(KEY_STORAGE_KEY);
    }
    crate::api::offline::wipe_stored_answers();
}

thread_local! {
    static ON_UNAUTHORIZED: RefCell<Option<Rc<dyn Fn()>>> = const { RefCell::new(None) };
}

/// Sets what happens after a 401 (the app navigates to the sign-in page). The key is
/// cleared before `handler` runs.
pub fn set_unauthorized_handler(handler: impl Fn() + 'static) {
    ON_UNAUTHORIZED.with(|h| *h.borrow_mut() = Some(Rc::new(handler)));
}

fn unauthorized() {
    clear_key();
    let handler = ON_UNAUTHORIZED.with(|h| h.borrow().clone());
    match handler {
        Some(h) => h(),
        None => {
            let _ = window()
                .location()
                .set_href(&crate::paths::href("/sign-in"));
        }
    }
}

/// Where a request goes and with which key.
pub(crate) struct Target {
    /// Server address without trailing slash.
    pub server: String,
    /// API key.
    pub key: String,
    /// Whether a 401 clears the key and leaves for the sign-in page.
    pub redirect_on_401: bool,
}

impl Target {
    /// The stored server and key; an error when no key is stored.
    pub fn stored() -> Result<Self, ApiError> {
        let key = stored_key().ok_or_else(|| {
            unauthorized();
            ApiError {
                status: 401,
                message: t().api_errors().sign_in.into(),
                errors: FieldErrors::new(),
            }
        })?;
        Ok(Target {
            server: server_or_origin(),
            key,
            redirect_on_401: true,
        })
    }
}

/// An unauthenticated request (sign-in, first run, invitation) to `server`: `method path`
/// with an optional JSON body. Answers the body text of a 2xx; on failure the
/// [`ApiError`] and the `Retry-After` header in seconds (429 lockouts), if any. A 401 here
/// is an answer: nothing is cleared and nobody is redirected.
pub(crate) async fn request_open(
    server: &str,
    method: Method,
    path: &str,
    body: Option<String>,
) -> Result<String, (ApiError, Option<u64>)> {
    let server = normalize_server(server);
    let url = format!("{server}/api/v1{path}");
    let builder = RequestBuilder::new(&url)
        .method(method)
        .header("Accept", "application/json")
        .header("Accept-Language", crate::i18n::language().code());
    let request = with_json_body(builder, body).map_err(|e| (e, None))?;
    let response = request
        .send()
        .await
        .map_err(|e| (network_error(&server, e), None))?;
    let status = response.status();
    let retry_after = response
        .headers()
        .get("retry-after")
        .and_then(|v| v.trim().parse::<u64>().ok());
    let text = response
        .text()
        .await
        .map_err(|e| (network_error(&server, e), None))?;
    if (200..300).contains(&status) {
        Ok(text)
    } else {
        Err((error_from_body(status, &text), retry_after))
    }
}

/// A successful answer: its headers and body text.
pub(crate) struct Answer {
    headers: Headers,
    text: String,
}

impl Answer {
    fn header_number(&self, name: &str) -> Option<u64> {
        self.headers.get(name)?.trim().parse().ok()
    }

    pub(crate) fn parse<T: DeserializeOwned>(&self) -> Result<T, ApiError> {
        serde_json::from_str(&self.text).map_err(|e| {
            ApiError::local(fill(
                t().api_errors().unreadable,
                &[("error", &e.to_string())],
            ))
        })
    }
}

/// Aborts the request when the current reactive owner is cleaned up (page left, resource
/// reloaded). Returns the signal to pass to fetch.
fn abort_with_owner() -> Option<web_sys::AbortSignal> {
    let _owner = Owner::current()?;
    let controller = web_sys::AbortController::new().ok()?;
    let signal = controller.signal();
    let controller = SendWrapper::new(controller);
    on_cleanup(move || controller.abort());
    Some(signal)
}

/// Sends `method path?query` with the key, `accept`, an optional JSON body (already
/// serialized) and an optional `Idempotency-Key`; answers the raw response of a 2xx and
/// turns every failure into an [`ApiError`]. With `abortable` the request is aborted when
/// the current reactive owner is cleaned up.
#[allow(clippy::too_many_arguments)]
async fn send(
    target: &Target,
    method: Method,
    path: &str,
    query: &[(String, String)],
    body: Option<String>,
    accept: &str,
    abortable: bool,
    idempotency_key: Option<&str>,
) -> Result<gloo_net::http::Response, ApiError> {
    let url = format!("{}/api/v1{}", target.server, path);
    let method_is_get = method == Method::GET;
    let signal = if abortable { abort_with_owner() } else { None };
    let builder = RequestBuilder::new(&url)
        .method(method)
        .header("Authorization", &format!("Token token={}", target.key))
        .header("Accept", accept)
        // The server answers 422 field messages in this language (issue 12).
        .header("Accept-Language", crate::i18n::language().code())
        .query(query.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .abort_signal(signal.as_ref());
    let builder = match idempotency_key {
        Some(k) => builder.header("Idempotency-Key", k),
        None => builder,
    };
    let request = with_json_body(builder, body)?;
    let response = request.send().await.map_err(|e| {
        if method_is_get {
            network_error(&target.server, e)
        } else {
            write_network_error(&target.server, e)
        }
    })?;
    let status = response.status();
    if (200..300).contains(&status) {
        if method_is_get {
            crate::api::offline::note_answer(
                response
                    .headers()
                    .get(crate::api::offline::STORED_AT_HEADER),
            );
        }
        return Ok(response);
    }
    let text = response
        .text()
        .await
        .map_err(|e| network_error(&target.server, e))?;
    if status == 401 && target.redirect_on_401 {
        unauthorized();
    }
    Err(error_from_body(status, &text))
}

/// The one JSON request function: [`send`], then read the answer's text. GET requests are
/// aborted when the current reactive owner is cleaned up.
pub(crate) async fn request(
    target: &Target,
    method: Method,
    path: &str,
    query: &[(String, String)],
    body: Option<String>,
) -> Result<Answer, ApiError> {
    request_keyed(target, method, path, query, body, None).await
}

/// [`request`] with an `Idempotency-Key` when `key` is given (`docs/decisions.md`
/// § Idempotency-Key: a `POST` repeated with the same key and body is answered the first
/// request's record, never a second one; used by the outbox, [`crate::api::outbox`]).
pub(crate) async fn request_keyed(
    target: &Target,
    method: Method,
    path: &str,
    query: &[(String, String)],
    body: Option<String>,
    key: Option<&str>,
) -> Result<Answer, ApiError> {
    let is_get = method == Method::GET;
    let response = send(
        target,
        method,
        path,
        query,
        body,
        "application/json",
        is_get,
        key,
    )
    .await?;
    let headers = response.headers();
    let text = response.text().await.map_err(|e| {
        if is_get {
            network_error(&target.server, e)
        } else {
            write_network_error(&target.server, e)
        }
    })?;
    Ok(Answer { headers, text })
}

/// Fetches a PDF (`GET ….pdf`, or `POST /invoices/preview.pdf` with `body`) as a `Blob`.
/// Always aborted when the current reactive owner is cleaned up: rendering changes nothing.
pub(crate) async fn request_pdf(
    method: Method,
    path: &str,
    query: &[(String, String)],
    body: Option<String>,
) -> Result<web_sys::Blob, ApiError> {
    request_blob(method, path, query, body, "application/pdf").await
}

/// Fetches a document of type `accept` (a PDF, an XRechnung XML, an HTML view) as a
/// `Blob`, with the key. Aborted when the current reactive owner is cleaned up.
pub(crate) async fn request_blob(
    method: Method,
    path: &str,
    query: &[(String, String)],
    body: Option<String>,
    accept: &str,
) -> Result<web_sys::Blob, ApiError> {
    let target = Target::stored()?;
    let response = send(&target, method, path, query, body, accept, true, None).await?;
    let raw: web_sys::Response = response.into();
    let unreadable = |e: wasm_bindgen::JsValue| {
        if js_sys::Error::from(e).name() == "AbortError" {
            ApiError::local(t().api_errors().cancelled)
        } else {
            ApiError::local(t().api_errors().document_unreadable)
        }
    };
    let promise = raw.blob().map_err(unreadable)?;
    let blob = wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(unreadable)?;
    Ok(wasm_bindgen::JsCast::unchecked_into(blob))
}

fn network_error(server: &str, error: gloo_net::Error) -> ApiError {
    let text = error.to_string();
    if text.contains("AbortError") || text.contains("aborted") {
        return ApiError::local(t().api_errors().cancelled);
    }
    ApiError::local(fill(t().api_errors().unreachable, &[("server", server)]))
}

/// A write that got no answer: while the browser knows it is offline, or the pages read
/// from the service worker's store ("Offline — as of …"), the sentence says the action
/// needs the server (issue 37: finalizing, sending, payments and deletions are never
/// queued); otherwise the address could not be reached ([`network_error`]).
fn write_network_error(server: &str, error: gloo_net::Error) -> ApiError {
    let reading_stored = crate::api::offline::stored_at().get_untracked().is_some();
    if is_offline() || reading_stored {
        return ApiError::local(t().offline().needs_server);
    }
    network_error(server, error)
}

/// True while the browser reports no network (`navigator.onLine` false).
pub fn is_offline() -> bool {
    !window().navigator().on_line()
}

/// Builds an [`ApiError`] from an error answer (`{"message", "errors"}`), or a generic
/// sentence when the body is not that. The field messages are taken as the server wrote
/// them: every request asks in the user's language (`Accept-Language`), and the server
/// writes them in it from their codes (`docs/decisions.md` § Message codes), so the main
/// module carries no message catalogue (issue 35: the first visit's bytes).
pub fn error_from_body(status: u16, text: &str) -> ApiError {
    match serde_json::from_str::<ErrorBody>(text) {
        Ok(body) => ApiError {
            status,
            message: body.message,
            errors: body.errors.unwrap_or_default(),
        },
        Err(_) => ApiError {
            status,
            message: generic_message(status).into(),
            errors: FieldErrors::new(),
        },
    }
}

/// The app's own sentence for an error answer without the server's JSON message, in the
/// user's language.
pub fn generic_message(status: u16) -> &'static str {
    let texts = t().api_errors();
    match status {
        401 => texts.key_refused,
        403 => texts.read_only,
        404 => texts.not_found,
        429 => texts.too_many,
        500..=599 => texts.server_problem,
        _ => texts.failed,
    }
}

/// Writes `body` as JSON text (amounts stay exact: no `f64` on the way).
pub(crate) fn to_json<B: Serialize>(body: &B) -> Result<String, ApiError> {
    serde_json::to_string(body).map_err(|e| {
        ApiError::local(fill(
            t().api_errors().not_written,
            &[("error", &e.to_string())],
        ))
    })
}

/// GET one record.
pub(crate) async fn get_one<T: DeserializeOwned>(
    path: &str,
    query: &[(String, String)],
) -> Result<T, ApiError> {
    request(&Target::stored()?, Method::GET, path, query, None)
        .await?
        .parse()
}

/// GET one page of a list.
pub(crate) async fn get_page<T: DeserializeOwned>(
    path: &str,
    query: &[(String, String)],
) -> Result<Page<T>, ApiError> {
    let answer = request(&Target::stored()?, Method::GET, path, query, None).await?;
    let items: Vec<T> = answer.parse()?;
    let count = items.len() as u64;
    Ok(Page {
        page: answer.header_number("x-page").unwrap_or(1) as u32,
        per_page: answer.header_number("x-per-page").unwrap_or(count.max(1)) as u32,
        total: answer.header_number("x-total").unwrap_or(count),
        items,
    })
}

/// GET every page of a list (pages of 100, following `X-Total`), for the short lists the
/// app needs whole (a project's expenses, an offer's attachments).
pub(crate) async fn get_all_pages<T: DeserializeOwned>(path: &str) -> Result<Vec<T>, ApiError> {
    let mut all = Vec::new();
    let mut page = 1u32;
    loop {
        let query = [
            ("per_page".to_string(), "100".to_string()),
            ("page".to_string(), page.to_string()),
        ];
        let got: Page<T> = get_page(path, &query).await?;
        let last = got.page_count();
        all.extend(got.items);
        if page >= last {
            return Ok(all);
        }
        page += 1;
    }
}

/// Sends `body` with `method` and reads the record answered.
pub(crate) async fn send_json<B: Serialize, T: DeserializeOwned>(
    method: Method,
    path: &str,
    body: &B,
) -> Result<T, ApiError> {
    let json = to_json(body)?;
    request(&Target::stored()?, method, path, &[], Some(json))
        .await?
        .parse()
}

/// DELETE `path` without a body; expects an empty answer (204).
pub(crate) async fn delete_empty(path: &str) -> Result<(), ApiError> {
    request(&Target::stored()?, Method::DELETE, path, &[], None)
        .await
        .map(|_| ())
}

/// Sends `body` with `method` and expects an empty answer (204).
pub(crate) async fn send_no_content<B: Serialize>(
    method: Method,
    path: &str,
    body: &B,
) -> Result<(), ApiError> {
    let json = to_json(body)?;
    request(&Target::stored()?, method, path, &[], Some(json))
        .await
        .map(|_| ())
}

/// The request of `builder` with the JSON `body` and its content type when given.
/// Errors: a request the browser cannot build, as a local [`ApiError`]
/// (`api_errors.not_built`).
fn with_json_body(builder: RequestBuilder, body: Option<String>) -> Result<Request, ApiError> {
    let sent = match body {
        Some(json) => builder
            .header("Content-Type", "application/json")
            .body(json),
        None => builder.build(),
    };
    sent.map_err(|e| {
        ApiError::local(fill(
            t().api_errors().not_built,
            &[("error", &e.to_string())],
        ))
    })
}
