//! Component tests for the local draft store (issue 34 "a half-filled invoice survives a
//! reload", issue 37 "Drafts never lost") in headless Chromium with the real
//! `localStorage`: `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target
//! wasm32-unknown-unknown --test components -- local_draft::`.
#![cfg(target_arch = "wasm32")]

use chrono::{Duration, Utc};
use kontor_app::components::invoice_form_state::{InvoiceFormState, TypedInvoice};
use kontor_app::components::local_draft_store::{read, remove, wipe_all, write};
use kontor_app::components::position_editor::PositionRow;
use kontor_model::down_payment::InvoiceKind;
use kontor_model::local_draft::{local_draft_key, LocalDraft};
use leptos::prelude::*;
use serde_json::json;
use wasm_bindgen_test::*;

fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

#[wasm_bindgen_test]
fn a_written_draft_reads_back_with_its_time_and_is_removed() {
    let key = local_draft_key("u1", "invoice.new").unwrap();
    let before = Utc::now();
    write(&key, json!({"title": "Lagerung"}));
    let d = read(&key).expect("stored");
    assert_eq!(d.state, json!({"title": "Lagerung"}));
    assert!(d.saved_at >= before - Duration::seconds(1) && d.saved_at <= Utc::now());
    remove(&key);
    assert!(read(&key).is_none());
}

#[wasm_bindgen_test]
fn broken_stored_text_is_ignored_not_restored() {
    let key = local_draft_key("u1", "offer.new").unwrap();
    storage()
        .set_item(&key, "{\"version\": 1, \"state\"")
        .unwrap();
    assert!(read(&key).is_none());
    remove(&key);
}

#[wasm_bindgen_test]
fn signing_out_removes_every_persons_drafts_and_nothing_else() {
    let a = local_draft_key("u1", "invoice.new").unwrap();
    let b = local_draft_key("u2", "invoice.17").unwrap();
    write(&a, json!(1));
    write(&b, json!(2));
    storage().set_item("kontor.theme", "dark").unwrap();
    wipe_all();
    assert!(read(&a).is_none() && read(&b).is_none());
    assert_eq!(
        storage().get_item("kontor.theme").unwrap().as_deref(),
        Some("dark")
    );
    storage().remove_item("kontor.theme").unwrap();
}

#[wasm_bindgen_test]
fn another_persons_draft_is_under_another_key() {
    let mine = local_draft_key("u1", "invoice.new").unwrap();
    let theirs = local_draft_key("u2", "invoice.new").unwrap();
    write(&theirs, json!({"title": "Fremd"}));
    assert!(read(&mine).is_none());
    wipe_all();
}

#[wasm_bindgen_test]
fn the_invoice_form_comes_back_exactly_as_typed() {
    let owner = Owner::new();
    owner.with(|| {
        let form = InvoiceFormState::blank("EUR");
        form.customer_id.set(Some(4));
        form.title.set("Lagerung Dezember".into());
        form.tax.set("7".into());
        form.discount.set("2,5x".into());
        form.kind.set(InvoiceKind::DownPayment);
        let row = PositionRow::item("Lagerfläche", "2,5", "Monat", "300");
        form.rows
            .set(vec![row, PositionRow::lump_sum("Anfahrt", "45")]);
        let typed = form.typed();
        // Through the store's JSON, into a fresh form.
        let stored = LocalDraft::new(serde_json::to_value(&typed).unwrap(), Utc::now());
        let text = serde_json::to_string(&stored).unwrap();
        let back: TypedInvoice =
            serde_json::from_value(LocalDraft::parse(&text).unwrap().state).unwrap();
        let fresh = InvoiceFormState::blank("EUR");
        fresh.restore_typed(&back);
        assert_eq!(fresh.typed(), typed);
        assert_eq!(fresh.discount.get_untracked(), "2,5x");
        let rows = fresh.rows.get_untracked();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].unit.get_untracked(), "Monat");
        assert_eq!(rows[1].net_total.get_untracked(), "45");
    });
}

#[wasm_bindgen_test]
fn a_draft_without_positions_gets_an_empty_item() {
    let owner = Owner::new();
    owner.with(|| {
        let fresh = InvoiceFormState::blank("EUR");
        fresh.restore_typed(&TypedInvoice::default());
        assert_eq!(fresh.rows.get_untracked().len(), 1);
    });
}
