//! Component tests for the outbox (issue 37 "Writes offline, synced exactly once") in
//! headless Chromium with the real `localStorage` and `fetch`: a creation that gets no
//! answer is queued with its idempotency key and the exact JSON sent, in order, per person,
//! and removed with the drafts at sign-out. The server's answers (2xx, replay, 4xx) are
//! covered by the e2e test `offline::drafts_saved_offline_wait_in_the_outbox_…`:
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target
//! wasm32-unknown-unknown --test components -- outbox::`.
#![cfg(target_arch = "wasm32")]

use kontor_app::api::client::store_credentials;
use kontor_app::api::outbox::{self, create_or_queue, QueueAs, Saved};
use kontor_app::components::local_draft_store::wipe_all;
use kontor_model::outbox::{is_outbox_key, OutboxKind};
use leptos::prelude::GetUntracked;
use serde_json::{json, Value};
use wasm_bindgen_test::*;

fn queue_as(kind: OutboxKind, label: &str) -> QueueAs {
    QueueAs {
        kind,
        label: label.into(),
        form_name: "company.new.customers".into(),
        form_path: "/customers/new".into(),
        form: json!({"name": label}),
    }
}

#[wasm_bindgen_test]
async fn creations_without_an_answer_wait_in_order_with_their_keys_per_person() {
    // Nothing listens there: every request fails as on a train.
    crate::support::dom::real_fetch();
    store_credentials("http://127.0.0.1:9", "test-key");
    outbox::set_owner(Some("u1".into()));
    wipe_all();
    outbox::set_owner(None);
    outbox::set_owner(Some("u1".into()));
    assert_eq!(outbox::count().get_untracked(), 0);

    let company = json!({"name": "Speisewagen KG", "type": "customer"});
    let got: Saved<Value> =
        create_or_queue(&company, queue_as(OutboxKind::Company, "Speisewagen KG"))
            .await
            .expect("queued, not an error");
    assert_eq!(got, Saved::Queued);
    let invoice =
        json!({"customer_id": 7, "status": "draft", "title": "Verpflegung", "tax": "19.0"});
    let got: Saved<Value> =
        create_or_queue(&invoice, queue_as(OutboxKind::Invoice, "Bahnhof GmbH"))
            .await
            .expect("queued");
    assert_eq!(got, Saved::Queued);

    let stored = outbox::load();
    assert_eq!(stored.len(), 2);
    assert_eq!(outbox::count().get_untracked(), 2);
    let (first, second) = (&stored.items[0], &stored.items[1]);
    assert_eq!(
        (first.kind, second.kind),
        (OutboxKind::Company, OutboxKind::Invoice)
    );
    assert!(is_outbox_key(&first.key) && is_outbox_key(&second.key));
    assert_ne!(first.key, second.key, "each creation has its own key");
    // The exact text that was sent (the server compares a replay's body byte for byte).
    assert_eq!(second.body, serde_json::to_string(&invoice).unwrap());
    assert!(second.body.contains("\"tax\":\"19.0\""));
    assert_eq!(first.label, "Speisewagen KG");
    assert!(first.refusal.is_none());

    // Replaying without a server keeps both as they were, in order.
    outbox::replay().await;
    assert_eq!(outbox::load(), stored);

    // Another person on the same browser has an outbox of their own.
    outbox::set_owner(Some("u2".into()));
    assert!(outbox::load().is_empty());
    assert_eq!(outbox::count().get_untracked(), 0);
    outbox::set_owner(Some("u1".into()));
    assert_eq!(outbox::load(), stored);

    // Discard removes one item; signing out removes the rest with the drafts.
    assert_eq!(
        outbox::discard(&first.key).map(|i| i.key),
        Some(first.key.clone())
    );
    assert_eq!(outbox::load().len(), 1);
    wipe_all();
    assert!(outbox::load().is_empty());
}

#[wasm_bindgen_test]
async fn without_a_known_person_nothing_is_queued() {
    crate::support::dom::real_fetch();
    store_credentials("http://127.0.0.1:9", "test-key");
    outbox::set_owner(None);
    let got: Result<Saved<Value>, _> =
        create_or_queue(&json!({"name": "X"}), queue_as(OutboxKind::Company, "X")).await;
    let e = got.expect_err("nobody to queue it for");
    assert_eq!(e.status, 0);
}
