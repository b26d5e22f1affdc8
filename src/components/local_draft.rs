//! A form's unsaved state kept in `localStorage` while the person types (issue 34 "a
//! half-filled invoice survives a reload"; issue 37 "Drafts never lost"), and the notice
//! "Restore your unsaved changes from 10:14?" when the form opens again after a reload, a
//! crash or a closed tab. The rules (key, envelope, age, size) are
//! [`kontor_model::local_draft`]; the storage is [`crate::components::local_draft_store`]
//! (signing out removes every local draft:
//! [`crate::components::local_draft_store::wipe_all`]).
//!
//! Saving: 400 ms after the last input, change or click inside the page, and at once when
//! the page is hidden or closed; only while the form differs from what it opened with.
//! While the restore notice is open nothing is written (the older draft waits for the
//! person's answer); after "Discard" what was typed meanwhile is kept from then on.

use crate::components::debounce::Debounce;
use crate::components::frame::AccountContext;
use crate::components::leave_guard::LeaveGuard;
use crate::components::local_draft_store::{read, remove, write};
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use chrono::Utc;
use kontor_model::local_draft::{local_draft_key, local_draft_owner, LocalDraft};
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use std::time::Duration;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::JsCast;

/// One form's local draft. Copy: handles.
#[derive(Clone, Copy)]
pub struct LocalDraftHandle {
    key: Memo<Option<String>>,
    /// The stored draft offered for restoring, while the person has not answered.
    pub offer: RwSignal<Option<LocalDraft>>,
    state: Callback<(), serde_json::Value>,
    restore: Callback<serde_json::Value>,
    baseline: StoredValue<Option<serde_json::Value>>,
    done: StoredValue<bool>,
    /// The form's owner: what restoring creates (position rows) lives as long as the form,
    /// not as long as the notice whose button asked for it.
    owner: StoredValue<Option<Owner>>,
}

impl LocalDraftHandle {
    /// Writes the form's state now when it differs from what the form opened with (and
    /// removes the stored one when the person typed it back); nothing while the restore
    /// notice is open or after the form was saved.
    pub fn save_now(&self) {
        if self.done.get_value() || self.offer.with_untracked(Option::is_some) {
            return;
        }
        let Some(key) = self.key.get_untracked() else {
            return;
        };
        let now = self.state.run(());
        if self.baseline.with_value(|b| b.as_ref() == Some(&now)) {
            remove(&key);
        } else {
            write(&key, now);
        }
    }

    /// Fills the form with the offered draft and closes the notice.
    pub fn restore(&self) {
        if let Some(d) = self.offer.get_untracked() {
            match self.owner.get_value() {
                Some(owner) => owner.with(|| self.restore.run(d.state)),
                None => self.restore.run(d.state),
            }
        }
        self.offer.set(None);
    }

    /// Drops the offered draft; from now on what is typed is kept instead.
    pub fn discard(&self) {
        self.offer.set(None);
        if let Some(key) = self.key.get_untracked() {
            remove(&key);
        }
        self.save_now();
    }

    /// The form's record waits in the outbox (issue 37, [`crate::api::outbox`]): like
    /// [`Self::saved`], and the leave guard lets go and the toast says "Saved offline. It
    /// will be sent when the connection returns."
    pub fn queued(&self, guard: &LeaveGuard, toasts: &Toasts) {
        guard.mark_saved();
        self.saved();
        toasts.success(t().offline().queued.to_string());
    }

    /// The form was saved on the server: its local draft is removed and no more written.
    pub fn saved(&self) {
        self.done.set_value(true);
        if let Some(key) = self.key.get_untracked() {
            remove(&key);
        }
    }
}

/// Keeps form `form`'s state (`invoice.new`, `invoice.17`, …) locally as the person types
/// and offers a stored one for restoring. `state` serializes what the form holds (its own
/// JSON shape); `restore` fills the form from such a value. Outside the signed-in frame
/// (no session: component tests, sign-in) nothing is stored or offered.
pub fn use_local_draft(
    form: String,
    state: Callback<(), serde_json::Value>,
    restore: Callback<serde_json::Value>,
) -> LocalDraftHandle {
    let session = AccountContext::use_context().map(|c| c.session);
    let key = Memo::new(move |_| {
        let s = session?.get()?.ok()?;
        let owner = local_draft_owner(s.user.as_ref().map(|u| u.id), Some(s.id))?;
        local_draft_key(&owner, &form)
    });
    let handle = LocalDraftHandle {
        key,
        offer: RwSignal::new(None),
        state,
        restore,
        baseline: StoredValue::new(None),
        done: StoredValue::new(false),
        owner: StoredValue::new(Owner::current()),
    };
    // Once the owner is known: remember what the form opened with, offer a stored draft.
    Effect::new(move |offered: Option<bool>| {
        if offered == Some(true) {
            return true;
        }
        let Some(k) = key.get() else { return false };
        let current = state.run(());
        handle.baseline.set_value(Some(current.clone()));
        match read(&k) {
            Some(d) if d.worth_offering(&current, Utc::now()) => handle.offer.set(Some(d)),
            Some(_) => remove(&k),
            None => {}
        }
        true
    });
    let debounce = Debounce::new(Duration::from_millis(400));
    let schedule = Closure::<dyn Fn(web_sys::Event)>::new(move |_: web_sys::Event| {
        debounce.call(move || handle.save_now());
    });
    let flush = Closure::<dyn Fn(web_sys::Event)>::new(move |_: web_sys::Event| {
        handle.save_now();
    });
    let doc = document();
    for name in ["input", "change", "click", "drop"] {
        let _ = doc.add_event_listener_with_callback(name, schedule.as_ref().unchecked_ref());
    }
    let _ = window().add_event_listener_with_callback("pagehide", flush.as_ref().unchecked_ref());
    let (schedule, flush) = (SendWrapper::new(schedule), SendWrapper::new(flush));
    on_cleanup(move || {
        let doc = document();
        for name in ["input", "change", "click", "drop"] {
            let _ =
                doc.remove_event_listener_with_callback(name, schedule.as_ref().unchecked_ref());
        }
        let _ = window()
            .remove_event_listener_with_callback("pagehide", flush.as_ref().unchecked_ref());
    });
    handle
}

/// "Restore your unsaved changes from 10:14?" with Restore and Discard, while a stored
/// draft is offered (`#local-draft-notice`, buttons `#local-draft-restore`,
/// `#local-draft-discard`).
#[component]
pub fn LocalDraftNotice(
    /// The form's local draft.
    draft: LocalDraftHandle,
) -> impl IntoView {
    let w = t().widgets();
    let when = move || {
        draft
            .offer
            .with(|d| {
                d.as_ref()
                    .map(|d| crate::components::timeline::format_time(d.saved_at))
            })
            .unwrap_or_default()
    };
    view! {
        <Show when=move || draft.offer.with(Option::is_some)>
            <div class="notice notice-row" id="local-draft-notice" role="status">
                <p>{move || fill(w.restore_unsaved, &[("time", &when())])}</p>
                <span class="notice-actions">
                    <button type="button" class="btn btn-primary" id="local-draft-restore"
                        on:click=move |_| draft.restore()>{w.restore}</button>
                    <button type="button" class="btn" id="local-draft-discard"
                        on:click=move |_| draft.discard()>{w.discard}</button>
                </span>
            </div>
        </Show>
    }
}
