//! Route chunks (issue 13 § Split the wasm by route, `docs/decisions.md` § Route chunks):
//! pages that live in their own wasm file, loaded on first use. A chunk that fails to load
//! (network, a missing file after a release) shows an error with "Try again" (in place)
//! and "Reload page" — never a blank page.
//!
//! In a release build (`cfg(kontor_split)`, set by `build.rs`) each route's view is a
//! `wasm_split` split point that `scripts/post_build.sh` moves into a chunk file; in debug
//! builds and tests the same routes are plain async functions in the one module.

use crate::i18n::t;
use leptos::prelude::*;
use std::future::Future;

/// A chunk could not be loaded (network, 404, wrong MIME type); details are in the
/// browser console.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkError;

#[cfg(kontor_split)]
impl From<leptos::wasm_split::SplitLoaderError> for ChunkError {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        ChunkError
    }
}

/// `lazy_route!(Route, chunk = kontor_x, fn = x_chunk, view! { <Page /> })` declares
/// `Route: LazyRoute` whose view (and everything only it reaches) lives in the chunk
/// `kontor_x`; routes naming the same chunk share one file. `fn` names the split symbols
/// and must be unique per route.
macro_rules! lazy_route {
    ($route:ident, chunk = $chunk:ident, fn = $load:ident, $body:expr) => {
        #[doc = concat!("A lazy route (its view lives in the wasm chunk `", stringify!($chunk), "`).")]
        pub struct $route;
        const _: () = {
            use ::leptos::prelude::{AnyView, IntoAny};
            use $crate::lazy::ChunkError;

            #[cfg(kontor_split)]
            #[::leptos::wasm_split::wasm_split($chunk, fallible, wasm_split_path = ::leptos::wasm_split)]
            fn $load() -> Result<AnyView, ChunkError> {
                Ok(IntoAny::into_any($body))
            }

            #[cfg(not(kontor_split))]
            async fn $load() -> Result<AnyView, ChunkError> {
                Ok(IntoAny::into_any($body))
            }

            impl ::leptos_router::LazyRoute for $route {
                fn data() -> Self {
                    $route
                }

                async fn view(_this: Self) -> AnyView {
                    $crate::lazy::load_or_retry(|| ::send_wrapper::SendWrapper::new($load()))
                        .await
                }
            }
        };
    };
}
pub(crate) use lazy_route;

/// The view of the first attempt, awaited by the router (the old page stays until the
/// chunk is there); on failure an error panel that retries in place.
pub async fn load_or_retry<F, Fut>(load: F) -> AnyView
where
    F: Fn() -> Fut + Copy + Send + Sync + 'static,
    Fut: Future<Output = Result<AnyView, ChunkError>> + Send + 'static,
{
    match load().await {
        Ok(view) => view,
        Err(ChunkError) => retry_view(load),
    }
}

/// The error panel of a chunk that failed to load: "Try again" loads it again in place,
/// "Reload page" reloads the app.
fn retry_view<F, Fut>(load: F) -> AnyView
where
    F: Fn() -> Fut + Copy + Send + Sync + 'static,
    Fut: Future<Output = Result<AnyView, ChunkError>> + Send + 'static,
{
    let attempt = RwSignal::new(0u32);
    view! {
        <Suspense fallback=|| view! { <p class="chunk-loading muted">{t().common.loading}</p> }>
            {move || {
                let n = attempt.get();
                Suspend::new(async move {
                    let result = if n == 0 { Err(ChunkError) } else { load().await };
                    match result {
                        Ok(view) => view,
                        Err(ChunkError) => view! {
                            <div class="error-panel chunk-error" role="alert">
                                <p class="error-panel-title">{t().error.chunk_failed}</p>
                                <div class="error-panel-actions">
                                    <button type="button" class="btn" id="chunk-retry"
                                        on:click=move |_| attempt.update(|n| *n += 1)>
                                        {t().common.retry}
                                    </button>
                                    <button type="button" class="btn btn-quiet" id="chunk-reload"
                                        on:click=|_| { let _ = window().location().reload(); }>
                                        {t().error.reload}
                                    </button>
                                </div>
                            </div>
                        }
                        .into_any(),
                    }
                })
            }}
        </Suspense>
    }
    .into_any()
}
