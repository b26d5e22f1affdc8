//! GET /session: the key's identity, used at sign-in (`decisions.md` § Authentication and
//! keys). `GET /account` lives in [`crate::account`].

use crate::auth::Caller;
use crate::state::AppState;
use axum::routing::get;
use axum::{Extension, Json, Router};
use kontor_model::account::Session;

/// Routes `/session`.
pub fn router() -> Router<AppState> {
    Router::new().route("/session", get(get_session))
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
