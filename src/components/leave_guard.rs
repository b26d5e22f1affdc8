//! Asks before leaving a form with unsaved changes: the browser's own prompt on reload or
//! close (`beforeunload`), and a confirmation before following an in-app link. One guard
//! for every form (invoices, offers, purchases): the form passes a fingerprint of what was
//! typed.

use crate::i18n::t;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::JsCast;

/// Tells whether the form differs from what was loaded or last saved.
#[derive(Clone, Copy)]
pub struct LeaveGuard {
    snapshot: Callback<(), String>,
    baseline: StoredValue<String>,
    saved: StoredValue<bool>,
}

impl LeaveGuard {
    /// True when something was typed that is not saved.
    pub fn is_dirty(&self) -> bool {
        !self.saved.get_value() && self.baseline.with_value(|b| *b != self.snapshot.run(()))
    }

    /// Call after a successful save (the page navigates away next).
    pub fn mark_saved(&self) {
        self.saved.set_value(true);
    }
}

/// Installs the guard for any form: `snapshot` fingerprints what was typed; the form is
/// dirty when it differs from the fingerprint taken now.
pub fn use_snapshot_guard(snapshot: Callback<(), String>) -> LeaveGuard {
    let guard = LeaveGuard {
        snapshot,
        baseline: StoredValue::new(snapshot.run(())),
        saved: StoredValue::new(false),
    };
    let unload = window_event_listener(leptos::ev::beforeunload, move |ev| {
        if guard.is_dirty() {
            ev.prevent_default();
            ev.set_return_value(t().widgets().unsaved_changes);
        }
    });
    // The router follows links from a click listener on `window`; this one on `document`
    // runs first and can cancel the navigation.
    let on_click = Closure::<dyn Fn(web_sys::MouseEvent)>::new(move |ev: web_sys::MouseEvent| {
        if ev.default_prevented()
            || ev.button() != 0
            || ev.ctrl_key()
            || ev.meta_key()
            || ev.shift_key()
            || ev.alt_key()
        {
            return;
        }
        let link = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.closest("a[href]").ok().flatten());
        if link.is_some()
            && guard.is_dirty()
            && !window()
                .confirm_with_message(t().widgets().unsaved_changes)
                .unwrap_or(true)
        {
            ev.prevent_default();
        }
    });
    let _ = document().add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref());
    let on_click = SendWrapper::new(on_click);
    on_cleanup(move || {
        unload.remove();
        let _ = document()
            .remove_event_listener_with_callback("click", on_click.as_ref().unchecked_ref());
    });
    guard
}
