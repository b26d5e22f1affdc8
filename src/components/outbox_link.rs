//! The top bar's outbox count (issue 37 "the outbox is visible"): "Outbox: 2" linking to
//! the outbox list while creations made offline wait ([`crate::api::outbox`]); nothing
//! while it is empty. It also tells the outbox whose it is once the session is known and
//! sends what waits when the connection is back (the browser's `online` event, an answer
//! from the server after stored ones) and every 30 seconds while items wait.

use crate::api::outbox;
use crate::api::ApiError;
use crate::i18n::{fill, t};
use crate::paths::href;
use kontor_model::account::Session;
use kontor_model::local_draft::local_draft_owner;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::JsCast;

/// How often what waits is tried again while the app is open.
const RETRY_EVERY: std::time::Duration = std::time::Duration::from_secs(30);

/// `#outbox-count`: "Outbox: {count}" while items wait, linking to `/outbox`.
#[component]
pub fn OutboxLink(
    /// The frame's session: the outbox belongs to its person.
    session: LocalResource<Result<Session, ApiError>>,
) -> impl IntoView {
    Effect::new(move |_| {
        if let Some(Ok(s)) = session.get() {
            outbox::set_owner(local_draft_owner(s.user.as_ref().map(|u| u.id), Some(s.id)));
        }
    });
    // Back online: the browser says so, or an answer came from the server again after
    // answers from the service worker's store; and every 30 seconds while items wait.
    let stored_at = crate::api::offline::stored_at();
    Effect::new(move |_| {
        if stored_at.get().is_none() {
            outbox::replay_soon();
        }
    });
    if let Ok(every) = set_interval_with_handle(outbox::replay_soon, RETRY_EVERY) {
        on_cleanup(move || every.clear());
    }
    let online = Closure::<dyn Fn(web_sys::Event)>::new(move |_: web_sys::Event| {
        outbox::replay_soon();
    });
    let _ = window().add_event_listener_with_callback("online", online.as_ref().unchecked_ref());
    let online = SendWrapper::new(online);
    on_cleanup(move || {
        let _ =
            window().remove_event_listener_with_callback("online", online.as_ref().unchecked_ref());
    });
    let count = outbox::count();
    view! {
        <Show when={
            let count = count.clone();
            move || count.get() > 0
        }>
            <a id="outbox-count" class="topbar-outbox" href=href("/outbox")>
                {
                    let count = count.clone();
                    move || fill(t().offline().outbox_count, &[("count", &count.get().to_string())])
                }
            </a>
        </Show>
    }
}
