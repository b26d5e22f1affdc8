//! The frame's notices of issue 37 (`docs/decisions.md` § Offline): "Offline — as of 14:32"
//! while the pages show answers the service worker stored ([`crate::api::offline`]), and "A
//! new version is ready" with "Reload" when a new release of the app is waiting
//! (`public/offline.js`: reloading lets the new release take over in one step, so a page
//! never runs chunks of two releases).

use crate::api::offline::{stored_at, time_of};
use crate::i18n::{fill, t};
use leptos::prelude::*;
use wasm_bindgen::JsValue;

/// Calls `window.<name>()` (a function of `public/offline.js`); `None` without it (debug
/// builds have no service worker).
fn call_window(name: &str) -> Option<JsValue> {
    let window = window();
    let f = js_sys::Reflect::get(&window, &JsValue::from_str(name)).ok()?;
    let f = wasm_bindgen::JsCast::dyn_ref::<js_sys::Function>(&f)?;
    f.call0(&window).ok()
}

/// "Offline — as of 14:32" while the latest answer came from the service worker's store.
#[component]
pub fn OfflineNotice() -> impl IntoView {
    let at = stored_at();
    let shown = {
        let at = at.clone();
        move || at.get().is_some()
    };
    let text = move || {
        at.get()
            .map(|ms| fill(t().offline().as_of, &[("time", &time_of(ms))]))
            .unwrap_or_default()
    };
    view! {
        <Show when=shown.clone()>
            <div class="notice notice-row offline-notice" id="offline-notice" role="status">
                <span>{text.clone()}</span>
            </div>
        </Show>
    }
}

/// "A new version is ready" with "Reload", once a new release's service worker waits.
#[component]
pub fn UpdateNotice() -> impl IntoView {
    let ready =
        RwSignal::new(call_window("kontorUpdateReady").is_some_and(|v| v.as_bool() == Some(true)));
    let handle = window_event_listener_untyped("kontor-update-ready", move |_| ready.set(true));
    on_cleanup(move || handle.remove());
    let reload = move |_| {
        if call_window("kontorApplyUpdate").is_none() {
            let _ = window().location().reload();
        }
    };
    view! {
        <Show when=move || ready.get()>
            <div class="notice notice-row update-notice" id="update-notice" role="status">
                <span>{t().offline().update_ready}</span>
                <span class="notice-actions">
                    <button type="button" class="btn btn-primary" id="update-reload" on:click=reload>
                        {t().offline().reload}
                    </button>
                </span>
            </div>
        </Show>
    }
}
