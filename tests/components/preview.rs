//! Issue 3, documents: the PDF document state (stale answers, cancelled loads, revoked
//! object URLs) and the live preview's debounce and change tracking.

use super::{container, settle};
use kontor_app::components::debounce::Debounce;
use kontor_app::components::pdf_preview::PdfDoc;
use kontor_app::pages::invoices::form_preview::track_form;
use kontor_app::pages::invoices::InvoiceFormState;
use leptos::prelude::*;
use std::time::Duration;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;
use web_sys::Blob;

fn blob(text: &str) -> Blob {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    Blob::new_with_str_sequence(&parts).unwrap()
}

/// The text behind an object URL, or `None` once it has been revoked.
async fn read_url(url: &str) -> Option<String> {
    crate::support::dom::real_fetch();
    let response = gloo_net::http::Request::get(url).send().await.ok()?;
    response.text().await.ok()
}

async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

#[wasm_bindgen_test]
async fn pdf_doc_ignores_stale_answers_and_revokes_what_it_replaces() {
    let owner = Owner::new();
    let doc = owner.with(PdfDoc::new);
    let first = doc.begin();
    let second = doc.begin();
    assert!(
        !doc.finish(first, Ok(blob("stale"))),
        "an overtaken load is ignored"
    );
    assert_eq!(doc.url.get_untracked(), None);
    assert!(
        doc.loading.get_untracked(),
        "the newer load is still running"
    );
    assert!(doc.finish(second, Ok(blob("second"))));
    assert!(!doc.loading.get_untracked());
    let second_url = doc.url.get_untracked().unwrap();
    assert!(second_url.starts_with("blob:"));
    assert_eq!(read_url(&second_url).await.as_deref(), Some("second"));

    let third = doc.begin();
    assert!(doc.finish(third, Ok(blob("third"))));
    let third_url = doc.url.get_untracked().unwrap();
    assert_eq!(
        read_url(&second_url).await,
        None,
        "the replaced URL is revoked"
    );
    assert_eq!(read_url(&third_url).await.as_deref(), Some("third"));

    owner.cleanup();
    assert_eq!(
        read_url(&third_url).await,
        None,
        "revoked when the page goes away"
    );
}

#[wasm_bindgen_test]
async fn a_newer_load_cancels_the_one_running() {
    let owner = Owner::new();
    let doc = owner.with(PdfDoc::new);
    doc.load(Box::pin(async {
        sleep(120).await;
        Ok(blob("slow"))
    }));
    doc.load(Box::pin(async {
        sleep(10).await;
        Ok(blob("fast"))
    }));
    sleep(250).await;
    let url = doc.url.get_untracked().expect("the newer answer is shown");
    assert_eq!(read_url(&url).await.as_deref(), Some("fast"));
    assert!(!doc.loading.get_untracked());
    owner.cleanup();
}

#[wasm_bindgen_test]
async fn debounce_runs_the_last_action_once_input_is_quiet() {
    let owner = Owner::new();
    let debounce = owner.with(|| Debounce::new(Duration::from_millis(60)));
    let ran = RwSignal::new(Vec::<u32>::new());
    for n in 1..=3 {
        debounce.call(move || ran.update(|v| v.push(n)));
        sleep(20).await;
    }
    assert!(
        ran.get_untracked().is_empty(),
        "nothing while typing goes on"
    );
    assert!(debounce.is_pending());
    sleep(120).await;
    assert_eq!(ran.get_untracked(), vec![3], "only the last one, once");
    debounce.call(move || ran.update(|v| v.push(4)));
    owner.cleanup();
    sleep(120).await;
    assert_eq!(
        ran.get_untracked(),
        vec![3],
        "dropped when the form goes away"
    );
}

#[wasm_bindgen_test]
async fn the_preview_follows_any_typed_change() {
    let state = InvoiceFormState::blank("EUR");
    let runs = RwSignal::new(0);
    let _handle = leptos::mount::mount_to(container(), move || {
        Effect::new(move |_| {
            track_form(&state);
            runs.update_untracked(|n| *n += 1);
        });
    });
    settle().await;
    let before = runs.get_untracked();
    let row = state.rows.get_untracked()[0];
    row.quantity.set("3".into());
    settle().await;
    assert_eq!(runs.get_untracked(), before + 1, "a position's quantity");
    state.footer.set("Thanks".into());
    settle().await;
    assert_eq!(runs.get_untracked(), before + 2, "a header text");
}

#[wasm_bindgen_test]
async fn a_duplicated_row_outlives_its_original() {
    use kontor_app::components::position_editor::{PositionEditor, PositionRow};
    use kontor_model::Decimal;
    let rows = RwSignal::new(vec![PositionRow::item("Orig", "1", "h", "10")]);
    let root = container();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <PositionEditor rows=rows currency="EUR" discount=Decimal::ZERO tax=Decimal::ZERO reverse_charge=false /> }
    });
    settle().await;
    let menu_item = |text: &str| {
        let buttons = root.query_selector_all(".row-menu-items button").unwrap();
        (0..buttons.length())
            .map(|i| buttons.item(i).unwrap())
            .find(|b| b.text_content().unwrap_or_default().contains(text))
            .map(wasm_bindgen::JsCast::unchecked_into::<web_sys::HtmlElement>)
            .unwrap()
    };
    menu_item("Duplicate").click();
    settle().await;
    menu_item("Remove").click(); // the first row's menu: the original goes
    settle().await;
    let copy = rows.get_untracked();
    assert_eq!(copy.len(), 1);
    copy[0].quantity.set("3".into());
    settle().await;
    let net = root.query_selector("[data-total=net]").unwrap().unwrap();
    assert_eq!(net.text_content().unwrap(), "30.00 EUR");
}
