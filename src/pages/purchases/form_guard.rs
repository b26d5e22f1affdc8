//! Asks before leaving the purchase form with unsaved changes: the browser's prompt on
//! reload or close, and a confirmation before following an in-app link.

use super::form_state::PurchaseFormState;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::JsCast;

const QUESTION: &str = "You have unsaved changes. Leave this page and lose them?";

/// Tells whether the form differs from how it started.
#[derive(Clone, Copy)]
pub struct LeaveGuard {
    state: PurchaseFormState,
    baseline: StoredValue<String>,
    saved: StoredValue<bool>,
}

impl LeaveGuard {
    /// True when something was typed that is not saved.
    pub fn is_dirty(&self) -> bool {
        !self.saved.get_value() && self.baseline.with_value(|b| *b != self.state.snapshot())
    }

    /// Call after a successful save (the page navigates away next).
    pub fn mark_saved(&self) {
        self.saved.set_value(true);
    }
}

/// Installs the guard for `state` (as it is now) until the form goes away.
pub fn use_leave_guard(state: PurchaseFormState) -> LeaveGuard {
    let guard = LeaveGuard {
        state,
        baseline: StoredValue::new(state.snapshot()),
        saved: StoredValue::new(false),
    };
    let unload = window_event_listener(leptos::ev::beforeunload, move |ev| {
        if guard.is_dirty() {
            ev.prevent_default();
            ev.set_return_value(QUESTION);
        }
    });
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
            && !window().confirm_with_message(QUESTION).unwrap_or(true)
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
