//! The record a detail or edit page's route names (`/invoices/:id`, issue 30: one place
//! for what every such page did alike): the route's id and the record loaded by it.

use crate::api::ApiError;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;
use std::future::Future;

/// The route's `:id` as a record id; `None` when it is not a number.
pub fn use_route_id() -> Memo<Option<i64>> {
    let params = use_params_map();
    Memo::new(move |_| params.with(|p| p.get_str("id").and_then(|id| id.parse().ok())))
}

/// The record with the route's id `id`, loaded by `load` (again whenever the id changes);
/// an id that is not a number answers a 404 [`ApiError`] with the text `bad_address()`.
pub fn route_record<T, Fut>(
    id: Memo<Option<i64>>,
    bad_address: fn() -> &'static str,
    load: impl Fn(i64) -> Fut + 'static,
) -> LocalResource<Result<T, ApiError>>
where
    T: 'static,
    Fut: Future<Output = Result<T, ApiError>> + 'static,
{
    LocalResource::new(move || {
        let request = id.get().map(&load);
        async move {
            match request {
                Some(request) => request.await,
                None => Err(ApiError {
                    status: 404,
                    ..ApiError::local(bad_address())
                }),
            }
        }
    })
}
