//! Component tests in headless Chromium (wasm-bindgen-test):
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target wasm32-unknown-unknown`
//! (one part: `… --test components -- lists::`).
//!
//! Every component test is in this one test binary, one module per part (a file beside this one):
//! one link, one wasm-bindgen pass and one Chromium for all of them instead of one per file
//! (issue 35: the test command stays fast). The tests run one after another in one page;
//! each mounts into a container of its own.
#![cfg(target_arch = "wasm32")]

use kontor_app::api::client::error_from_body;
use kontor_app::components::position_editor::{split_row_errors, PositionEditor, PositionRow};
use kontor_app::components::status_badge::StatusBadge;
use kontor_app::paths::base_from_path;
use kontor_model::error::FieldErrors;
use kontor_model::invoice_input::NewInvoice;
use kontor_model::position::PositionType;
use kontor_model::status::InvoiceStatus;
use kontor_model::totals::compute_totals;
use kontor_model::Decimal;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlInputElement, KeyboardEvent, KeyboardEventInit};

wasm_bindgen_test_configure!(run_in_browser);

mod billing;
mod companies;
mod dashboard;
mod dunning;
mod einvoice;
mod exports;
mod i18n;
mod i18n_forms;
mod i18n_invoice_detail;
mod i18n_offers_recurring;
mod i18n_people;
mod i18n_purchases_companies;
mod i18n_settings_dashboard;
mod lists;
mod local_draft;
mod numbers;
mod offers;
mod outbox;
mod people;
mod polish;
mod preview;
mod purchases;
mod recurring;
mod settings;
#[path = "../support/mod.rs"]
mod support;
mod theme;
mod timeline;
use support::{dom, fixtures};

use dom::{container, d, find, input, settle, submit_dialog_with, texts, type_into};

fn mount_editor(rows: RwSignal<Vec<PositionRow>>) -> (HtmlElement, impl Drop) {
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <PositionEditor rows=rows currency="EUR" discount=Decimal::ZERO tax=d("19") reverse_charge=false /> }
    });
    (root, handle)
}

#[wasm_bindgen_test]
async fn totals_follow_a_typed_quantity() {
    let rows = RwSignal::new(vec![PositionRow::item("Design", "1", "h", "100")]);
    let (root, _handle) = mount_editor(rows);
    settle().await;
    assert_eq!(
        find(&root, "[data-total=gross]").text_content().unwrap(),
        "119.00 EUR"
    );

    type_into(&find(&root, "input[aria-label=Quantity]"), "3");
    settle().await;
    assert_eq!(
        find(&root, "[data-cell=net]").text_content().unwrap(),
        "300.00 EUR"
    );
    assert_eq!(
        find(&root, "[data-total=net]").text_content().unwrap(),
        "300.00 EUR"
    );
    assert_eq!(
        find(&root, "[data-total=tax]").text_content().unwrap(),
        "57.00 EUR"
    );
    assert_eq!(
        find(&root, "[data-total=gross]").text_content().unwrap(),
        "357.00 EUR"
    );
}

#[wasm_bindgen_test]
async fn a_lump_sum_row_counts() {
    let rows = RwSignal::new(vec![
        PositionRow::item("Work", "2", "h", "50"),
        PositionRow::lump_sum("Flat fee", "25.50"),
    ]);
    let (root, _handle) = mount_editor(rows);
    settle().await;
    assert_eq!(
        find(&root, "[data-total=net]").text_content().unwrap(),
        "125.50 EUR"
    );

    type_into(&find(&root, "input[aria-label='Lump sum']"), "30");
    settle().await;
    assert_eq!(
        find(&root, "[data-total=net]").text_content().unwrap(),
        "130.00 EUR"
    );
}

#[wasm_bindgen_test]
async fn subtotal_rows_show_the_running_sum() {
    let rows = RwSignal::new(vec![
        PositionRow::item("a", "1", "", "10"),
        PositionRow::item("b", "2", "", "5"),
        PositionRow::new(PositionType::Subtotal),
        PositionRow::item("c", "1", "", "7"),
        PositionRow::new(PositionType::Subtotal),
    ]);
    let (root, _handle) = mount_editor(rows);
    settle().await;
    assert_eq!(
        texts(&root, ".pe-subtotal-sum"),
        vec!["20.00 EUR", "7.00 EUR"]
    );
    assert_eq!(
        find(&root, "[data-total=net]").text_content().unwrap(),
        "27.00 EUR"
    );

    type_into(&find(&root, "input[aria-label=Quantity]"), "4");
    settle().await;
    assert_eq!(
        texts(&root, ".pe-subtotal-sum"),
        vec!["50.00 EUR", "7.00 EUR"]
    );
}

#[wasm_bindgen_test]
async fn alt_arrow_down_moves_the_row() {
    let (a, b, c) = (
        PositionRow::item("A", "1", "", "1"),
        PositionRow::item("B", "1", "", "2"),
        PositionRow::item("C", "1", "", "3"),
    );
    let rows = RwSignal::new(vec![a, b, c]);
    let (root, _handle) = mount_editor(rows);
    settle().await;

    let title = find(
        &root,
        &format!("tr[data-row-key='{}'] input[aria-label=Title]", a.key),
    );
    title.focus().unwrap();
    let init = KeyboardEventInit::new();
    init.set_key("ArrowDown");
    init.set_alt_key(true);
    init.set_bubbles(true);
    title
        .dispatch_event(
            &KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap(),
        )
        .unwrap();
    settle().await;

    let order: Vec<u64> = rows.with_untracked(|r| r.iter().map(|r| r.key).collect());
    assert_eq!(order, vec![b.key, a.key, c.key]);
    let titles: Vec<String> = {
        let list = root.query_selector_all("input[aria-label=Title]").unwrap();
        (0..list.length())
            .map(|i| {
                list.item(i)
                    .unwrap()
                    .unchecked_into::<HtmlInputElement>()
                    .value()
            })
            .collect()
    };
    assert_eq!(titles, vec!["B", "A", "C"]);
}

#[wasm_bindgen_test]
async fn status_badge_shows_the_label() {
    let root = container();
    let _handle = leptos::mount::mount_to(
        root.clone(),
        || view! { <StatusBadge status=InvoiceStatus::PartiallyPaid /> },
    );
    settle().await;
    let badge = find(&root, ".badge");
    assert_eq!(badge.text_content().unwrap(), "Partially paid");
    assert!(badge.class_name().contains("badge-partially_paid"));
}

#[wasm_bindgen_test]
fn money_round_trips_exactly_in_wasm() {
    let json = r#"{"customer_id":1,"tax":19.99,"items":[{"type":"item","title":"x","quantity":3,"unit_price":0.1}]}"#;
    let body: NewInvoice = serde_json::from_str(json).unwrap();
    assert_eq!(body.tax, Some(d("19.99")));
    let item = &body.items.as_ref().unwrap()[0];
    assert_eq!(item.quantity.unwrap() * item.unit_price.unwrap(), d("0.3"));
    let totals = compute_totals(
        &[item.amounts()],
        Decimal::ZERO,
        Decimal::ZERO,
        false,
        "EUR",
    )
    .unwrap();
    assert_eq!(totals.net_total, d("0.30"));
    let out = serde_json::to_string(&body).unwrap();
    assert!(out.contains(r#""tax":19.99"#), "{out}");
    assert!(out.contains(r#""unit_price":0.1"#), "{out}");
}

#[wasm_bindgen_test]
fn error_bodies_become_api_errors() {
    let e = error_from_body(
        422,
        r#"{"message":"Invalid.","errors":{"items[1].unit_price":["must be a number"]}}"#,
    );
    assert_eq!((e.status, e.message.as_str()), (422, "Invalid."));
    let rows = vec![
        PositionRow::new(PositionType::Item),
        PositionRow::new(PositionType::Item),
    ];
    let (document, by_row) = split_row_errors(&e.errors, &rows);
    assert!(document.is_empty());
    assert_eq!(
        by_row[&rows[1].key]["unit_price"],
        vec!["must be a number".to_string()]
    );
    let plain = error_from_body(500, "<html>oops</html>");
    assert_eq!(plain.status, 500);
    assert!(plain.errors == FieldErrors::new());
}

/// The server writes field messages in the language the request asked for; the app shows
/// them as they came (its main module carries no message catalogue, issue 35), codes and
/// all, and a later `Message` of the same text compares equal.
#[wasm_bindgen_test]
fn field_messages_are_shown_as_the_server_wrote_them() {
    let e = error_from_body(
        422,
        r#"{"message":"Ungültige Eingaben: name ist erforderlich","errors":{"name":["ist erforderlich"]},
            "error_codes":{"name":[{"code":"is_required","params":[]}]}}"#,
    );
    assert_eq!(e.status, 422);
    assert_eq!(e.errors["name"].len(), 1);
    assert_eq!(e.errors["name"][0].to_string(), "ist erforderlich");
    assert_eq!(
        kontor_app::components::field::field_message(&e.errors, "name").as_deref(),
        Some("ist erforderlich")
    );
}

/// `X-Kontor-Stored-At` (the service worker's `Date.now()`) is read as whole
/// milliseconds; anything else counts as an answer from the server.
#[wasm_bindgen_test]
fn the_stored_at_header_is_read_as_whole_milliseconds() {
    use kontor_app::api::offline::{note_answer, stored_at};
    note_answer(Some(" 1764583200123 ".into()));
    assert_eq!(stored_at().get_untracked(), Some(1_764_583_200_123.0));
    note_answer(Some("soon".into()));
    assert_eq!(stored_at().get_untracked(), None);
    note_answer(Some("1764583200123".into()));
    note_answer(None);
    assert_eq!(stored_at().get_untracked(), None);
}

#[wasm_bindgen_test]
fn base_path_comes_from_the_base_element() {
    assert_eq!(base_from_path("/"), "");
    assert_eq!(base_from_path("/kontor/"), "/kontor");
}
