//! Route chunks (issue 13 § Split the wasm by route, `docs/decisions.md` § Route chunks):
//! the frame, pages ([`lazy_route!`]) and widgets ([`lazy_widget!`]) that live in their
//! own wasm file, loaded on first use or fetched ahead ([`Preloads`]). A chunk that fails
//! to load (network, a missing file after a release) shows an error with "Try again" (in
//! place) and "Reload page" — never a blank page.
//!
//! In a release build (`cfg(kontor_split)`, set by `build.rs`) each view is a `wasm_split`
//! split point that `scripts/post_build.sh` moves into a chunk file; in debug builds and
//! tests the same views come from plain async functions in the one module.

use crate::i18n::t;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use std::future::Future;
use std::pin::Pin;

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

/// The chunks fetched ahead of need (provided by `App`, issue 13): `signing_in` when the
/// sign-in form is sent (the frame and the dashboard come next), `frame_shown` when the
/// browser is idle after the frame first showed (the invoice list and the dashboard).
/// Fetching is all they do: nothing is shown, and a failure is left to the route, which
/// shows it with "Try again" when visited.
#[derive(Clone, Copy)]
pub struct Preloads {
    /// Called when the sign-in form is sent.
    pub signing_in: Callback<()>,
    /// Called once the frame has shown and the browser is idle.
    pub frame_shown: Callback<()>,
}

impl Preloads {
    /// The app's preloads; `None` outside `App` (component tests).
    pub fn use_context() -> Option<Self> {
        use_context::<Preloads>()
    }
}

/// What a chunk's split point answers: the page's view, or [`ChunkError`].
pub type ChunkFuture = Pin<Box<dyn Future<Output = Result<AnyView, ChunkError>>>>;

/// The view function of a lazy route (`<Route view=InvoiceDetailRoute />`). Every lazy
/// route has this one type, so the router's view-choosing code exists once in the main
/// module rather than once per route.
pub type RouteView = fn() -> AnyView;

/// `lazy_route!(Route, chunk = kontor_x, fn = x_chunk, view! { <Page /> })` declares the
/// [`RouteView`] `Route` whose view (and everything only it reaches) lives in the chunk
/// `kontor_x`; routes naming the same chunk share one file. `fn` names the split symbols
/// and must be unique per route. With `preload = x_preload` it also declares
/// `async fn x_preload()`, which fetches the chunk without showing anything (errors are
/// ignored: the route shows them when it is visited).
macro_rules! lazy_route {
    ($route:ident, chunk = $chunk:ident, fn = $load:ident, preload = $preload:ident, $body:expr) => {
        $crate::lazy::lazy_route!(@impl $route, $chunk, $load, [$preload], $body);
    };
    ($route:ident, chunk = $chunk:ident, fn = $load:ident, $body:expr) => {
        $crate::lazy::lazy_route!(@impl $route, $chunk, $load, [], $body);
    };
    (@impl $route:ident, $chunk:ident, $load:ident, [$($preload:ident)?], $body:expr) => {
        #[cfg(kontor_split)]
        #[::leptos::wasm_split::wasm_split($chunk, fallible, $(preload($preload),)? wasm_split_path = ::leptos::wasm_split)]
        fn $load() -> Result<::leptos::prelude::AnyView, $crate::lazy::ChunkError> {
            Ok(::leptos::prelude::IntoAny::into_any($body))
        }

        #[cfg(not(kontor_split))]
        async fn $load() -> Result<::leptos::prelude::AnyView, $crate::lazy::ChunkError> {
            Ok(::leptos::prelude::IntoAny::into_any($body))
        }

        $(
            #[cfg(not(kontor_split))]
            async fn $preload() -> Result<(), $crate::lazy::ChunkError> {
                Ok(())
            }
        )?

        #[doc = concat!("A lazy route (its view lives in the wasm chunk `", stringify!($chunk), "`).")]
        pub const $route: $crate::lazy::RouteView = {
            fn view() -> ::leptos::prelude::AnyView {
                $crate::lazy::chunk_view(|| ::std::boxed::Box::pin($load()))
            }
            view
        };
    };
}
pub(crate) use lazy_route;

/// The view of a chunk: a quiet "Loading…" line until the chunk is there (on first use
/// only; later visits find it loaded), then the page; when the chunk cannot be loaded
/// (tried twice in a row) an error panel whose "Try again" loads it again in place and
/// whose "Reload page" reloads the app.
pub fn chunk_view(load: fn() -> ChunkFuture) -> AnyView {
    let attempt = RwSignal::new(0u32);
    view! {
        <Suspense fallback=|| view! { <p class="chunk-loading muted">{t().common().loading}</p> }>
            {move || {
                attempt.track();
                Suspend::new(async move {
                    // One quiet second try before the panel: a fetch that failed on a
                    // connection closed at that moment (an idle keep-alive the server
                    // ended, a network blip) mostly succeeds at once.
                    let mut loaded = SendWrapper::new(load()).await;
                    if loaded.is_err() {
                        loaded = SendWrapper::new(load()).await;
                    }
                    match loaded {
                        Ok(view) => view,
                        Err(ChunkError) => chunk_error(attempt),
                    }
                })
            }}
        </Suspense>
    }
    .into_any()
}

/// The error panel of a chunk that could not be loaded; "Try again" bumps `attempt`.
fn chunk_error(attempt: RwSignal<u32>) -> AnyView {
    view! {
        <div class="error-panel chunk-error" role="alert">
            <p class="error-panel-title">{t().error().chunk_failed}</p>
            <div class="error-panel-actions">
                <button type="button" class="btn" id="chunk-retry"
                    on:click=move |_| attempt.update(|n| *n += 1)>
                    {t().common().retry}
                </button>
                <button type="button" class="btn btn-quiet" id="chunk-reload"
                    on:click=|_| { let _ = window().location().reload(); }>
                    {t().error().reload}
                </button>
            </div>
        </div>
    }
    .into_any()
}

/// What a widget chunk's split point answers: the widget's view function.
pub type WidgetFuture<A> = Pin<Box<dyn Future<Output = Result<fn(A) -> AnyView, ChunkError>>>>;

/// `lazy_widget!(pub fn name(arg: Args), chunk = kontor_x, fn = x_chunk, view! { … })`
/// declares `name(arg) -> AnyView`, a widget (a dialog, a menu) whose code lives in the
/// chunk `kontor_x` and is loaded the first time the widget is shown: nothing until then,
/// the widget once its chunk is there, the chunk error panel when it cannot be loaded.
/// `Args` is `Clone + Send + Sync` (signals and callbacks are).
macro_rules! lazy_widget {
    ($(#[$meta:meta])* $vis:vis fn $name:ident($arg:ident: $ty:ty), chunk = $chunk:ident, fn = $load:ident, $body:expr) => {
        $(#[$meta])*
        $vis fn $name($arg: $ty) -> ::leptos::prelude::AnyView {
            use ::leptos::prelude::{AnyView, IntoAny};
            use $crate::lazy::ChunkError;

            #[cfg(kontor_split)]
            #[::leptos::wasm_split::wasm_split($chunk, fallible, wasm_split_path = ::leptos::wasm_split)]
            fn $load() -> Result<fn($ty) -> AnyView, ChunkError> {
                Ok(|$arg: $ty| IntoAny::into_any($body))
            }

            #[cfg(not(kontor_split))]
            async fn $load() -> Result<fn($ty) -> AnyView, ChunkError> {
                Ok(|$arg: $ty| IntoAny::into_any($body))
            }

            $crate::lazy::widget_view(|| ::std::boxed::Box::pin($load()), $arg)
        }
    };
}
pub(crate) use lazy_widget;

/// The view of a lazy widget: empty while its chunk loads, then `widget(arg)`; the chunk
/// error panel (with "Try again") when the chunk cannot be loaded.
pub fn widget_view<A: Clone + Send + Sync + 'static>(
    load: fn() -> WidgetFuture<A>,
    arg: A,
) -> AnyView {
    let attempt = RwSignal::new(0u32);
    view! {
        <Suspense fallback=|| ()>
            {move || {
                attempt.track();
                let arg = arg.clone();
                Suspend::new(async move {
                    match SendWrapper::new(load()).await {
                        Ok(widget) => widget(arg),
                        Err(ChunkError) => chunk_error(attempt),
                    }
                })
            }}
        </Suspense>
    }
    .into_any()
}
