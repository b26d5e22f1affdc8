//! Component tests of the Exports page (issue 11) in headless Chromium:
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target wasm32-unknown-unknown --test components -- exports::`.
//!
//! The default period (last month), the quick choices, a period that ends before it
//! starts, and a download the server refuses (422 naming the DATEV settings) shown under
//! its button. The server is a fake `window.fetch` that records the URLs asked for.
#![cfg(target_arch = "wasm32")]

use kontor_app::api::client::store_credentials;
use kontor_app::components::date::{iso, today};
use kontor_app::components::toast::Toasts;
use kontor_app::pages::exports::ExportsPage;
use kontor_model::export::QuickPeriod;
use leptos::prelude::*;
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlButtonElement, HtmlElement, HtmlInputElement};

use crate::support::dom;

use dom::{container, fake_fetch, fetched, find, text, type_into, wait};

fn value(root: &HtmlElement, css: &str) -> String {
    find(root, css).unchecked_into::<HtmlInputElement>().value()
}

/// The `aria-pressed` of the element at `css` ("" without one).
fn pressed(root: &HtmlElement, css: &str) -> String {
    find(root, css)
        .get_attribute("aria-pressed")
        .unwrap_or_default()
}

fn disabled(root: &HtmlElement, css: &str) -> bool {
    find(root, css)
        .unchecked_into::<HtmlButtonElement>()
        .disabled()
}

async fn mount() -> HtmlElement {
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), || {
        Toasts::provide();
        view! { <ExportsPage /> }
    });
    std::mem::forget(handle);
    wait(30).await;
    root
}

#[wasm_bindgen_test]
async fn the_period_defaults_to_last_month_and_quick_choices_set_it() {
    let root = mount().await;
    let (from, to) = QuickPeriod::LastMonth.range(today());
    assert_eq!(value(&root, "#export-from"), iso(from));
    assert_eq!(value(&root, "#export-to"), iso(to));
    assert_eq!(pressed(&root, "#export-quick-last-month"), "true");
    find(&root, "#export-quick-this-quarter").click();
    wait(20).await;
    let (from, to) = QuickPeriod::ThisQuarter.range(today());
    assert_eq!(value(&root, "#export-from"), iso(from));
    assert_eq!(value(&root, "#export-to"), iso(to));
    assert_eq!(pressed(&root, "#export-quick-last-month"), "false");
    assert!(text(&root, ".exports-list").contains("Documents (ZIP)"));
    assert!(!disabled(&root, "#export-documents"));

    // A period that ends before it starts: said at the period, no download possible.
    type_into(&find(&root, "#export-to"), "2000-01-01");
    wait(20).await;
    assert_eq!(
        text(&root, "#export-period-error"),
        "The period ends before it starts."
    );
    assert!(disabled(&root, "#export-datev") && disabled(&root, "#export-invoices"));
}

#[wasm_bindgen_test]
async fn a_refused_download_says_what_is_missing_under_its_button() {
    fake_fetch(
        422,
        &json!({"message": "Validation failed", "errors": {
            "datev.consultant_number": ["is required for the DATEV export: set it in the settings"]}}),
        "",
    );
    let root = mount().await;
    find(&root, "#export-quick-last-year").click();
    wait(20).await;
    find(&root, "#export-datev").click();
    for _ in 0..40 {
        if !text(&root, "#export-datev-error").is_empty() {
            break;
        }
        wait(25).await;
    }
    assert_eq!(
        text(&root, "#export-datev-error"),
        "DATEV consultant number (Settings): is required for the DATEV export: set it in the settings"
    );
    assert_eq!(text(&root, "#export-invoices-error"), "");
    let (from, to) = QuickPeriod::LastYear.range(today());
    let urls = fetched();
    assert_eq!(urls.len(), 1, "{urls:?}");
    assert!(
        urls[0].ends_with(&format!(
            "/api/v1/exports/datev.csv?from={}&to={}",
            iso(from),
            iso(to)
        )),
        "{urls:?}"
    );
    assert!(
        !disabled(&root, "#export-datev"),
        "the button is usable again"
    );
}

#[wasm_bindgen_test]
async fn the_zip_shows_progress_while_it_is_built() {
    // The server takes its time (the answer never comes in this test).
    store_credentials("http://kontor.test", "test-key");
    js_sys::eval(&format!(
        "{} window.fetch = () => new Promise(() => {{}});",
        dom::KEEP_REAL_FETCH
    ))
    .unwrap();
    let root = mount().await;
    assert!(root.query_selector(".export-progress").unwrap().is_none());
    find(&root, "#export-documents").click();
    wait(30).await;
    let progress = text(&root, ".export-card[aria-busy=true] .export-progress");
    assert!(
        progress.contains("rendering every invoice PDF"),
        "{progress}"
    );
    assert_eq!(text(&root, "#export-documents"), "Preparing…");
    assert!(disabled(&root, "#export-documents"));
    // The other downloads stay usable.
    assert!(!disabled(&root, "#export-invoices"));
}
