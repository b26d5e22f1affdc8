//! [`Write`] and [`WriteTo`]: what a handler that writes for the caller takes from every
//! request — the state, the authenticated [`Caller`], for [`WriteTo`] the record's `{id}`,
//! and the JSON body — as one extractor instead of three or four.

use crate::access::auth::Caller;
use crate::http::extract::{IdPath, JsonBody};
use crate::state::AppState;
use axum::extract::{FromRef, FromRequest, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use axum::Extension;
use serde::de::DeserializeOwned;

/// The state, the caller and the JSON body `T` of one request, extracted in that order
/// (`State<AppState>`, `Extension<Caller>`, [`JsonBody<T>`]); destructure it in the
/// handler's parameters: `Write(state, caller, body): Write<NewThing>`. Rejection: the
/// rejection of the first part that fails, unchanged (the body's: 415, 413, 400 or 422 as
/// [`JsonBody`] says).
pub struct Write<T>(
    /// The application state.
    pub AppState,
    /// The authenticated caller ([`crate::access::auth::require_key`]).
    pub Caller,
    /// The JSON body.
    pub T,
);

/// Like [`Write`], with the numeric `{id}` path segment ([`IdPath`]: anything else is a
/// 404) read after the caller and before the body:
/// `WriteTo(state, caller, id, body): WriteTo<Change>`.
pub struct WriteTo<T>(
    /// The application state.
    pub AppState,
    /// The authenticated caller.
    pub Caller,
    /// The record's id from the path.
    pub i64,
    /// The JSON body.
    pub T,
);

/// The state and the caller from the request's `parts`, as `State` and `Extension` read
/// them.
async fn state_and_caller<S>(parts: &mut Parts, state: &S) -> Result<(AppState, Caller), Response>
where
    S: Send + Sync,
    AppState: FromRef<S>,
{
    let State(app) = State::<AppState>::from_request_parts(parts, state)
        .await
        .map_err(IntoResponse::into_response)?;
    let Extension(caller) = Extension::<Caller>::from_request_parts(parts, state)
        .await
        .map_err(IntoResponse::into_response)?;
    Ok((app, caller))
}

/// The JSON body of the request made of `parts` and `body` again.
async fn json_body<S, T>(parts: Parts, body: axum::body::Body, state: &S) -> Result<T, Response>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    let JsonBody(value) = JsonBody::<T>::from_request(Request::from_parts(parts, body), state)
        .await
        .map_err(IntoResponse::into_response)?;
    Ok(value)
}

impl<S, T> FromRequest<S> for Write<T>
where
    S: Send + Sync,
    AppState: FromRef<S>,
    T: DeserializeOwned,
{
    type Rejection = Response;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let (mut parts, body) = req.into_parts();
        let (app, caller) = state_and_caller(&mut parts, state).await?;
        let value = json_body(parts, body, state).await?;
        Ok(Write(app, caller, value))
    }
}

impl<S, T> FromRequest<S> for WriteTo<T>
where
    S: Send + Sync,
    AppState: FromRef<S>,
    T: DeserializeOwned,
{
    type Rejection = Response;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let (mut parts, body) = req.into_parts();
        let (app, caller) = state_and_caller(&mut parts, state).await?;
        let IdPath(id) = IdPath::from_request_parts(&mut parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let value = json_body(parts, body, state).await?;
        Ok(WriteTo(app, caller, id, value))
    }
}
