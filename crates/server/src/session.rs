//! GET /session (the key's identity, used at sign-in) and GET /account
//! (`decisions.md` § Authentication and keys, § Account).

use crate::auth::Caller;
use crate::state::AppState;
use axum::extract::State;
use axum::routing::get;
use axum::{Extension, Json, Router};
use kontor_model::account::{Account, LetterPaper, Session};

/// Routes `/session` and `/account`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/session", get(get_session))
        .route("/account", get(get_account))
}

/// GET /session → `{id, uuid, name, read_only}` of the calling key.
async fn get_session(Extension(caller): Extension<Caller>) -> Json<Session> {
    Json(Session {
        id: caller.user_id,
        uuid: caller.uuid,
        name: caller.name,
        read_only: caller.read_only,
    })
}

/// GET /account → name, address, currencies (first = default) and letter papers.
async fn get_account(State(state): State<AppState>) -> Json<Account> {
    let a = &state.account;
    Json(Account {
        name: a.name.clone(),
        address: a.address.clone(),
        currencies: a.currencies.clone(),
        default_currency: a.default_currency().to_string(),
        letter_papers: a
            .letter_papers
            .iter()
            .map(|p| LetterPaper {
                id: p.id,
                name: p.name.clone(),
                default: p.default,
            })
            .collect(),
    })
}
