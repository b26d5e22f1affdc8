//! The outbox (issue 37 "Writes offline, synced exactly once"; `docs/decisions.md`
//! § Offline): creations made while the server cannot be reached wait in `localStorage`
//! and are sent again, in order, when the connection returns. The rules (what is queued,
//! order, what an answer does, limits) are [`kontor_model::outbox`]; this module keeps the
//! [`Outbox`] of the signed-in person (under the local draft key
//! `kontor.draft.{owner}.outbox`, so signing out removes it with the drafts:
//! [`crate::components::local_draft_store::wipe_all`]) and sends it.
//!
//! Every creation through [`create_or_queue`] carries an `Idempotency-Key` made before its
//! first attempt; when that attempt gets no answer the item is queued with the same key, so
//! a request the server did store (the connection cut on the way back) is answered again by
//! the server instead of being written twice.

use super::client::{is_offline, request_keyed, to_json, Target};
use super::ApiError;
use crate::i18n::t;
use chrono::Utc;
use gloo_net::http::Method;
use kontor_model::local_draft::local_draft_key;
use kontor_model::outbox::{outbox_key, Outbox, OutboxItem, OutboxKind, SendOutcome};
use leptos::prelude::*;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::cell::{Cell, RefCell};

thread_local! {
    static OWNER: RefCell<Option<String>> = const { RefCell::new(None) };
    static REPLAYING: Cell<bool> = const { Cell::new(false) };
    static COUNT: ArcRwSignal<usize> = ArcRwSignal::new(0);
    static REVISION: ArcRwSignal<u64> = ArcRwSignal::new(0);
}

/// Changes whenever the outbox is stored (an item queued, sent, refused, retried or
/// discarded): the outbox list reads it again.
pub fn revision() -> ArcRwSignal<u64> {
    REVISION.with(Clone::clone)
}

/// How many items wait in the signed-in person's outbox (refused ones included); the top
/// bar shows it while it is above 0.
pub fn count() -> ArcRwSignal<usize> {
    COUNT.with(Clone::clone)
}

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

fn storage_key() -> Option<String> {
    let owner = OWNER.with(|o| o.borrow().clone())?;
    local_draft_key(&owner, "outbox")
}

/// The signed-in person's outbox (empty when nobody is known or nothing is stored).
pub fn load() -> Outbox {
    storage_key()
        .and_then(|k| storage()?.get_item(&k).ok().flatten())
        .map(|text| Outbox::parse(&text))
        .unwrap_or_default()
}

/// Stores `outbox` and updates [`count`]. Answers false when the browser's storage refused
/// it (full, or nobody known).
fn store(outbox: &Outbox) -> bool {
    let written = match (storage_key(), storage()) {
        (Some(k), Some(s)) if outbox.is_empty() => s.remove_item(&k).is_ok(),
        (Some(k), Some(s)) => serde_json::to_string(outbox)
            .ok()
            .is_some_and(|text| s.set_item(&k, &text).is_ok()),
        _ => false,
    };
    announce(outbox.len());
    written
}

/// Tells the top bar ([`count`]) and the outbox list ([`revision`]) that the outbox now
/// holds `len` items.
fn announce(len: usize) {
    let signal = count();
    if signal.get_untracked() != len {
        signal.set(len);
    }
    revision().update(|n| *n = n.wrapping_add(1));
}

/// Loads the outbox, changes it with `change` and stores it; answers what `change` did.
fn update<R>(change: impl FnOnce(&mut Outbox) -> R) -> R {
    let mut outbox = load();
    let answer = change(&mut outbox);
    store(&outbox);
    answer
}

/// Sets whose outbox this is (`u17`, `k3`: [`kontor_model::local_draft::local_draft_owner`])
/// once the session is known, and sends what waits. `None` after sign-out.
pub fn set_owner(owner: Option<String>) {
    let changed = OWNER.with(|o| {
        let mut o = o.borrow_mut();
        let changed = *o != owner;
        *o = owner;
        changed
    });
    if changed {
        announce(load().len());
        replay_soon();
    }
}

/// `POST path` of the JSON text `body` with the idempotency key `key`.
async fn post_keyed(
    path: &str,
    body: String,
    key: &str,
) -> Result<super::client::Answer, ApiError> {
    let target = Target::stored()?;
    request_keyed(&target, Method::POST, path, &[], Some(body), Some(key)).await
}

/// A new idempotency key from the browser's random numbers.
fn new_key() -> Result<String, ApiError> {
    let mut random = [0u8; 16];
    window()
        .crypto()
        .and_then(|c| c.get_random_values_with_u8_array(&mut random))
        .map_err(|_| ApiError::local(t().api_errors().failed))?;
    Ok(outbox_key(random))
}

/// What [`create_or_queue`] did.
#[derive(Clone, Debug, PartialEq)]
pub enum Saved<T> {
    /// The server stored it; its answer.
    Stored(T),
    /// No answer: it waits in the outbox and is sent when the connection returns.
    Queued,
}

/// What the form hands over with a creation, for the outbox list and for reopening the
/// form when the server refuses the item later.
pub struct QueueAs {
    /// What it creates.
    pub kind: OutboxKind,
    /// The list's label (customer or company name).
    pub label: String,
    /// The form's local draft name (`invoice.new`, `company.new.customers`).
    pub form_name: String,
    /// The form's app path (`/invoices/new`).
    pub form_path: String,
    /// The form's state, in its local draft shape.
    pub form: serde_json::Value,
}

/// `POST {kind's path}` of `body` with a fresh `Idempotency-Key`; when the server cannot
/// be reached the creation is queued in the outbox instead ([`Saved::Queued`]). Errors:
/// the server's answer (a 4xx is shown in the form as usual), or a local error when the
/// outbox is full or the browser cannot store it.
pub async fn create_or_queue<B: Serialize, T: DeserializeOwned>(
    body: &B,
    queue_as: QueueAs,
) -> Result<Saved<T>, ApiError> {
    let key = new_key()?;
    let json = to_json(body)?;
    match post_keyed(queue_as.kind.path(), json.clone(), &key).await {
        Ok(answer) => answer.parse().map(Saved::Stored),
        Err(e) if e.status == 0 && storage_key().is_some() => {
            let mut outbox = load();
            let item = OutboxItem {
                key,
                kind: queue_as.kind,
                body: json,
                form: queue_as.form,
                form_name: queue_as.form_name,
                form_path: queue_as.form_path,
                label: queue_as.label,
                queued_at: Utc::now(),
                refusal: None,
            };
            if outbox.push(item).is_err() || !store(&outbox) {
                return Err(ApiError::local(t().offline().outbox_full));
            }
            Ok(Saved::Queued)
        }
        Err(e) => Err(e),
    }
}

/// Sends what waits, oldest first, each with its own key (see the module doc); refused
/// items keep the server's answer, a missing connection stops until the next call. One
/// replay at a time; calls during one are dropped (it reads the stored outbox item by
/// item, so what was queued meanwhile goes too).
pub async fn replay() {
    if REPLAYING.with(|r| r.replace(true)) {
        return;
    }
    let mut tried = Vec::new();
    while let Some(item) = load().next_to_send(&tried).cloned() {
        tried.push(item.key.clone());
        let outcome = match post_keyed(item.kind.path(), item.body.clone(), &item.key).await {
            Ok(_) => SendOutcome::Stored,
            Err(e) => SendOutcome::of_status(e.status, e.message, e.errors),
        };
        if !update(|o| o.settle(&item.key, outcome)) {
            break;
        }
    }
    REPLAYING.with(|r| r.set(false));
}

/// [`replay`] in the background unless the browser knows it is offline.
pub fn replay_soon() {
    if !is_offline() && !load().is_empty() {
        wasm_bindgen_futures::spawn_local(replay());
    }
}

/// "Retry": clears item `key`'s refusal and sends what waits.
pub fn retry(key: &str) {
    update(|o| o.retry(key));
    replay_soon();
}

/// "Discard": removes item `key`; answers it (for "Correct", which reopens its form).
pub fn discard(key: &str) -> Option<OutboxItem> {
    update(|o| o.discard(key))
}

/// The local draft storage key of a refused item's form for the signed-in person, where
/// "Correct" puts the item's form state before opening the form.
pub fn form_draft_key(item: &OutboxItem) -> Option<String> {
    let owner = OWNER.with(|o| o.borrow().clone())?;
    local_draft_key(&owner, &item.form_name)
}
