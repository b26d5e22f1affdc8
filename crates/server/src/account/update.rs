//! PUT /account (issue 9): a partial update of the account's own data. Every given field
//! is checked by the model's rules first (422 naming each bad field, nothing stored);
//! then the row is written in one transaction under the write lock, so a change of a
//! number format applies to the next number drawn and never renumbers. Read-only keys
//! never get here (403 in `auth::require_key`).

use super::get::view;
use super::repo;
use crate::config::SmtpConfig;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::JsonBody;
use crate::state::AppState;
use crate::store::files::BaseUrl;
use axum::extract::State;
use axum::Json;
use kontor_model::account::{
    apply_account_update, clean, validate_account_update, Account, AccountUpdate, SmtpUpdate,
};

/// Merges a checked `smtp` object into the stored settings: given fields change, the
/// password only when given (`""` removes it; it is never trimmed).
fn merge_smtp(stored: Option<SmtpConfig>, update: &SmtpUpdate) -> SmtpConfig {
    let mut smtp = stored.unwrap_or_default();
    if let Some(host) = &update.host {
        smtp.host = host.trim().to_string();
    }
    if let Some(port) = update.port {
        smtp.port = Some(port);
    }
    if let Some(security) = update.security {
        smtp.security = security;
    }
    if let Some(user) = &update.user {
        smtp.user = clean(user);
    }
    if let Some(password) = &update.password {
        smtp.password = (!password.is_empty()).then(|| password.clone());
    }
    smtp
}

/// PUT /account with an [`AccountUpdate`] → 200 the [`Account`] after the change.
/// Errors: 403 (read-only key), 415/400/413 for a body that is not JSON, 422 naming every
/// bad field (`iban`, `vat_identifier`, `invoice_number_format`, `smtp.host`…).
#[utoipa::path(put, path = "/account", operation_id = "account_update", tag = "account",
    request_body(content = AccountUpdate, description = "The fields to change (absent: unchanged)"),
    responses((status = 200, description = "The account after the change", body = Account)))]
pub async fn update_account(
    State(state): State<AppState>,
    BaseUrl(base): BaseUrl,
    JsonBody(body): JsonBody<AccountUpdate>,
) -> ApiResult<Json<Account>> {
    let _guard = state.write_lock.lock().await;
    let (settings, ()) = repo::update_settings(&state.pool, |settings| {
        ApiError::check(validate_account_update(&body, &settings.with_smtp()))?;
        apply_account_update(&body, &mut settings.account);
        match &body.smtp {
            None => {}
            Some(None) => settings.smtp = None,
            Some(Some(update)) => settings.smtp = Some(merge_smtp(settings.smtp.take(), update)),
        }
        Ok(())
    })
    .await?;
    Ok(Json(view(&state, &base, &settings)))
}
