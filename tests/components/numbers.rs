//! Numbers as people type them (issue 8, `docs/decisions.md` § Numbers as typed): German
//! and English users type amounts, quantities and percentages into the position editor,
//! the payment dialog and the purchase form, and the value used is the value shown.
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target wasm32-unknown-unknown --test components -- numbers::`.
//!
//! The test browser is English; each test sets the locale it types in first.
#![cfg(target_arch = "wasm32")]

use kontor_app::components::locale::set_locale;
use kontor_app::components::position_editor::{PositionEditor, PositionRow};
use kontor_app::components::toast::Toasts;
use kontor_app::pages::invoices::payment_dialog::{payment_body, AddPayment};
use kontor_app::pages::purchases::form_items::PurchaseItems;
use kontor_app::pages::purchases::form_state::{PurchaseFormState, PurchaseRow};
use kontor_model::error::FieldErrors;
use kontor_model::invoice::Invoice;
use kontor_model::number_input::Locale;
use kontor_model::Decimal;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlInputElement};

use crate::support::{dom, fixtures};

use dom::{container, d, find, settle, text, type_into};

/// An invoice of 119.00 EUR gross with one payment of 50.00 (open 69.00).
fn invoice() -> Invoice {
    fixtures::invoice(&["50"])
}

/// Mounts the position editor with one empty item row, types quantity and unit price and
/// returns the row's net cell and the totals' net line.
async fn editor_net(quantity: &str, unit_price: &str) -> (String, String, HtmlElement) {
    let row = PositionRow::item("Design", "", "h", "");
    let rows = RwSignal::new(vec![row]);
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <PositionEditor rows=rows currency="EUR" discount=Decimal::ZERO tax=d("19") reverse_charge=false /> }
    });
    settle().await;
    type_into(&find(&root, "input[data-field=quantity]"), quantity);
    type_into(&find(&root, "input[data-field=unit_price]"), unit_price);
    settle().await;
    let net = text(&root, "td[data-cell=net]");
    let total = text(&root, "[data-total=net]");
    std::mem::forget(handle);
    (net, total, root)
}

#[wasm_bindgen_test]
async fn german_quantities_in_the_position_editor() {
    set_locale(Some(Locale::De));
    let (net, total, _) = editor_net("12,5", "95").await;
    assert_eq!(net, "1.187,50 €");
    assert_eq!(total, "1.187,50 €");
    let (net, _, _) = editor_net("0,5", "95").await;
    assert_eq!(net, "47,50 €", "half an hour, not five");
    let (net, _, _) = editor_net("1.000", "1,5").await;
    assert_eq!(net, "1.500,00 €");
    // Ambiguous: an error at the field, and nothing counted.
    let (_, total, root) = editor_net("1.20", "95").await;
    assert_eq!(total, "0,00 €");
    let error = text(&root, "td.pe-qty .cell-error");
    assert!(error.contains("1.234,56"), "{error}");
    set_locale(None);
}

#[wasm_bindgen_test]
async fn english_quantities_in_the_position_editor() {
    set_locale(Some(Locale::En));
    let (net, total, _) = editor_net("12.5", "95").await;
    assert_eq!(net, "1,187.50 EUR");
    assert_eq!(total, "1,187.50 EUR");
    let (net, _, _) = editor_net("0.5", "1,000").await;
    assert_eq!(net, "500.00 EUR");
    let (_, total, root) = editor_net("12,5", "95").await;
    assert_eq!(total, "0.00 EUR", "12,5 is not a number in English");
    let error = text(&root, "td.pe-qty .cell-error");
    assert!(error.contains("1,234.56"), "{error}");
    // Saving names the field like the server would.
    let row = PositionRow::item("Design", "12,5", "h", "95");
    let mut errors = FieldErrors::new();
    let item = row.to_new_invoice_item(3, &mut errors);
    assert_eq!(item.quantity, None);
    assert!(errors.contains_key("items[3].quantity"), "{errors:?}");
    set_locale(None);
}

async fn pay(amount: &str) -> (String, HtmlElement) {
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), || {
        Toasts::provide();
        view! { <AddPayment invoice=invoice() on_changed=Callback::new(|_| ()) /> }
    });
    settle().await;
    find(&root, "#add-payment").click();
    settle().await;
    let offered: HtmlInputElement = find(&root, "#payment-amount").unchecked_into();
    let offered = offered.value();
    type_into(&find(&root, "#payment-amount"), amount);
    settle().await;
    find(&root, "dialog form button[type=submit]").click();
    settle().await;
    std::mem::forget(handle);
    (offered, root)
}

#[wasm_bindgen_test]
async fn a_german_payment_of_one_thousand() {
    set_locale(Some(Locale::De));
    let body = payment_body(5, "EUR", "2026-11-10", "1.000,00").unwrap();
    assert_eq!(body.paid_total, Some(d("1000.00")));
    // Typed into the dialog: 1000.00 is more than the 69.00 open, so it asks first.
    let (offered, root) = pay("1.000,00").await;
    assert_eq!(offered, "69,00", "the open amount, written the German way");
    let shown = root.text_content().unwrap();
    assert!(
        shown.contains("The payment of 1.000,00 € is more than the open amount of 69,00 €")
            && shown.contains("credit of 931,00 €"),
        "{shown}"
    );
    let errors = payment_body(5, "EUR", "2026-11-10", "1.000.00").unwrap_err();
    assert!(errors.contains_key("paid_total"), "{errors:?}");
    set_locale(None);
}

#[wasm_bindgen_test]
async fn an_english_payment_of_one_thousand() {
    set_locale(Some(Locale::En));
    let body = payment_body(5, "EUR", "2026-11-10", "1,000.00").unwrap();
    assert_eq!(body.paid_total, Some(d("1000.00")));
    let (offered, root) = pay("1,000.00").await;
    assert_eq!(offered, "69.00");
    let shown = root.text_content().unwrap();
    assert!(
        shown.contains("The payment of 1,000.00 EUR is more than the open amount of 69.00 EUR"),
        "{shown}"
    );
    // The German way is not silently read as 1.00.
    let errors = payment_body(5, "EUR", "2026-11-10", "1.000,00").unwrap_err();
    assert!(errors.contains_key("paid_total"), "{errors:?}");
    let (_, root) = pay("1.000,00").await;
    let shown = root.text_content().unwrap();
    assert!(shown.contains("is not a number"), "{shown}");
    assert!(root
        .query_selector("#overpayment-confirm")
        .unwrap()
        .is_none());
    set_locale(None);
}

async fn purchase(total: &str) -> (PurchaseFormState, HtmlElement) {
    let state = PurchaseFormState::blank("2026-11-20", "EUR");
    state
        .rows
        .set(vec![PurchaseRow::new(1, "Hotel", "", "0", false)]);
    let root = container();
    let errors = RwSignal::new(FieldErrors::new());
    let handle = leptos::mount::mount_to(
        root.clone(),
        move || view! { <PurchaseItems state=state errors=errors /> },
    );
    settle().await;
    type_into(&find(&root, "tr[data-key='1'] .item-total"), total);
    settle().await;
    std::mem::forget(handle);
    (state, root)
}

#[wasm_bindgen_test]
async fn a_german_purchase_of_twelve_hundred() {
    set_locale(Some(Locale::De));
    let (state, root) = purchase("1.200,50").await;
    assert_eq!(text(&root, "#sum-gross"), "1.200,50 €");
    let (body, errors) = state.body();
    assert!(!errors.keys().any(|k| k.starts_with("items")), "{errors:?}");
    assert_eq!(body.items.unwrap()[0].total, Some(d("1200.50")));
    let (state, root) = purchase("12,5").await;
    assert_eq!(text(&root, "#sum-gross"), "12,50 €");
    assert_eq!(state.body().0.items.unwrap()[0].total, Some(d("12.5")));
    // Ambiguous in German: an error at the field, not 1.20.
    let (state, root) = purchase("1.20").await;
    assert!(text(&root, "tr[data-key='1']").contains("1.234,56"));
    let (_, errors) = state.body();
    assert!(errors.contains_key("items[0].total"), "{errors:?}");
    set_locale(None);
}

#[wasm_bindgen_test]
async fn an_english_purchase_of_twelve_hundred() {
    set_locale(Some(Locale::En));
    let (state, root) = purchase("1,200.50").await;
    assert_eq!(text(&root, "#sum-gross"), "1,200.50 EUR");
    assert_eq!(state.body().0.items.unwrap()[0].total, Some(d("1200.50")));
    let (state, _) = purchase("1.200,50").await;
    let (_, errors) = state.body();
    assert!(errors.contains_key("items[0].total"), "{errors:?}");
    set_locale(None);
}
