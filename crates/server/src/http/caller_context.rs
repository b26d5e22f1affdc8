//! [`CallerContext`]: what a handler that acts for the caller and answers with signed
//! links takes from every request — the state, the authenticated [`Caller`] and the
//! request's base URL — as one extractor instead of three.

use crate::access::auth::Caller;
use crate::state::AppState;
use crate::store::files::BaseUrl;
use axum::extract::{FromRef, FromRequestParts, State};
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use axum::Extension;

/// The state, the caller and the base URL of one request, extracted in that order
/// (`State<AppState>`, `Extension<Caller>`, [`BaseUrl`]); destructure it in the handler's
/// parameters: `CallerContext(state, caller, base): CallerContext` (`_` for a part the
/// handler does not use; the base URL never fails and costs a string). Rejection: the
/// rejection of the first part that fails, unchanged (a request without a [`Caller`] —
/// a route outside the key check — is the 500 of a missing extension).
pub struct CallerContext(
    /// The application state.
    pub AppState,
    /// The authenticated caller ([`crate::access::auth::require_key`]).
    pub Caller,
    /// The request's absolute base URL, for signed file links ([`BaseUrl`]).
    pub String,
);

impl<S> FromRequestParts<S> for CallerContext
where
    S: Send + Sync,
    AppState: FromRef<S>,
{
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let State(app) = State::<AppState>::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let Extension(caller) = Extension::<Caller>::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let BaseUrl(base) = BaseUrl::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        Ok(CallerContext(app, caller, base))
    }
}
