//! Changing the account's own data (issue 9, the Settings page): `PUT /account` (partial),
//! the logo (`PUT` / `DELETE /account/logo`) and the test e-mail
//! (`POST /account/test_email`). Reading is [`super::session::get_account`].
//!
//! The Settings page saves one section at a time, so [`update_account`] takes the model's
//! partial [`AccountUpdate`] (the type the server reads): fields that are `None` are not
//! sent and stay as they are.

use super::client::send_json;
use super::upload::{send_with_progress, UploadBody};
use super::ApiError;
use crate::i18n::t;
use gloo_net::http::Method;
use kontor_model::account::{Account, AccountUpdate};
use leptos::prelude::RwSignal;
use serde::{Deserialize, Serialize};

/// PUT /account with `update` (only the fields to change; `smtp: Some(None)` removes the
/// SMTP settings); answers the account after the change. A bad value is a 422 naming the
/// field (`iban`, `document_texts.de.invoice_footer`, `smtp.port`…); a read-only key gets
/// 403.
pub async fn update_account(update: &AccountUpdate) -> Result<Account, ApiError> {
    send_json(Method::PUT, "/account", update).await
}

/// PUT /account/logo with `file` as multipart part `file` (PNG or SVG, ≤ 1 MiB);
/// `progress` follows the upload from 0 to 100 (percent). A file that is not a PNG or SVG
/// is a 422 on `file`; a larger one a 413 or 422. Answers the account with the new logo.
pub async fn store_account_logo(
    file: &web_sys::File,
    progress: RwSignal<u8>,
) -> Result<Account, ApiError> {
    let failed = |_| ApiError::local(t().api_errors().upload_not_started);
    let form = web_sys::FormData::new().map_err(failed)?;
    form.append_with_blob_and_filename("file", file, &file.name())
        .map_err(failed)?;
    send_with_progress("PUT", "/account/logo", UploadBody::Form(form), progress).await
}

/// DELETE /account/logo (204).
pub async fn delete_account_logo() -> Result<(), ApiError> {
    super::client::delete_empty("/account/logo").await
}

/// The body of POST /account/test_email.
#[derive(Clone, Debug, Serialize)]
struct TestEmail<'a> {
    /// The address the test message goes to.
    to: &'a str,
}

/// The answer of POST /account/test_email: the recipients actually used.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct TestEmailSent {
    /// Recipients, `;`-separated.
    pub emails_to: String,
}

/// POST /account/test_email `{"to"}`: sends a short message through the stored SMTP
/// settings. 422 on a bad address (`to`), 502 when the mail server refuses or cannot be
/// reached (the message says why).
pub async fn send_test_email(to: &str) -> Result<TestEmailSent, ApiError> {
    send_json(Method::POST, "/account/test_email", &TestEmail { to }).await
}
