//! GET /account (`decisions.md` § Account; issue 9): the settings row as the API shows
//! it — letter papers from the account file, the logo as a signed link, SMTP without its
//! password.

use super::repo::{self, Settings};
use crate::http::error::ApiResult;
use crate::state::AppState;
use crate::store::files::BaseUrl;
use axum::extract::State;
use axum::Json;
use kontor_model::account::{Account, LetterPaper, Logo};

/// The signed-link path of a stored logo.
pub fn logo_path(key: &str) -> String {
    format!("/files/account_logo/{key}")
}

/// The representation of `settings`: letter papers from the account file, `logo` with a
/// fresh signed link under `base`, `smtp` with `password_set` only.
pub fn view(state: &AppState, base: &str, settings: &Settings) -> Account {
    let mut account = settings.with_smtp();
    account.letter_papers = state
        .account
        .letter_papers
        .iter()
        .map(|p| LetterPaper {
            id: p.id,
            name: p.name.clone(),
            default: p.default,
        })
        .collect();
    account.logo = settings.logo.as_ref().map(|l| Logo {
        content_type: l.content_type.clone(),
        file_url: state.signer.link(base, &logo_path(&l.key)),
    });
    account
}

/// GET /account → 200 [`Account`]. Errors: 500 when the settings row is corrupt.
#[utoipa::path(get, path = "/account", operation_id = "account_get", tag = "account",
    responses((status = 200, description = "The account's own data and settings", body = Account)))]
pub async fn get_account(
    State(state): State<AppState>,
    BaseUrl(base): BaseUrl,
) -> ApiResult<Json<Account>> {
    let settings = repo::load(&state.pool).await?;
    Ok(Json(view(&state, &base, &settings)))
}
