//! Light async helpers for the detail page's tabs and dialogs: [`load_once`] for data a
//! panel shows, [`Task`] for a request a button starts. Both run under the owner that
//! created them, so a page that goes away aborts its requests and drops their answers.
//!
//! They do what a `LocalResource` or an `Action` plus an `Effect` would, with far less
//! generic code per use (the bundle budget is tight).

use crate::api::ApiError;
use leptos::prelude::*;
use leptos::task::spawn_local_scoped_with_cancellation;
use std::future::Future;

/// What [`load_once`] holds: `None` while loading, then the answer.
pub type Loaded<T> = RwSignal<Option<Result<T, ApiError>>>;

/// Starts `fetch` now under the current owner and answers the signal it fills.
pub fn load_once<T: Send + Sync + 'static>(
    fetch: impl Future<Output = Result<T, ApiError>> + 'static,
) -> Loaded<T> {
    let loaded = RwSignal::new(None);
    spawn_local_scoped_with_cancellation(async move {
        let result = fetch.await;
        loaded.set(Some(result));
    });
    loaded
}

/// A request started by a button: `pending` while it runs, its answer handed to a
/// closure. Copy: handles.
#[derive(Clone, Copy)]
pub struct Task {
    /// True while a request runs (disable the button, say "Saving…").
    pub pending: RwSignal<bool>,
    owner: StoredValue<Option<Owner>>,
}

impl Task {
    /// A task tied to the current owner.
    pub fn new() -> Self {
        Task {
            pending: RwSignal::new(false),
            owner: StoredValue::new(Owner::current()),
        }
    }

    /// Runs `request`, then `done` with its answer (unless the owner went away first).
    pub fn run<T: 'static>(
        &self,
        request: impl Future<Output = T> + 'static,
        done: impl FnOnce(T) + 'static,
    ) {
        let pending = self.pending;
        pending.set(true);
        let start = move || {
            spawn_local_scoped_with_cancellation(async move {
                let answer = request.await;
                pending.set(false);
                done(answer);
            })
        };
        match self.owner.get_value() {
            Some(owner) => owner.with(start),
            None => start(),
        }
    }
}

impl Default for Task {
    fn default() -> Self {
        Self::new()
    }
}
