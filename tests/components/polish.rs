//! Component tests of issue 11's polish in headless Chromium:
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target wasm32-unknown-unknown --test components -- polish::`.
//!
//! Error summaries in the form's words on the invoice, offer and purchase forms; no Retry
//! on a 404; the position row menu by keyboard (WAI-ARIA menu button); the purchase form's
//! duplicate warning (409 → "Save anyway?" → resent with `allow_duplicate`). The server is
//! a fake `window.fetch` that answers by method and URL and records what was sent.
#![cfg(target_arch = "wasm32")]

use kontor_app::api::client::store_credentials;
use kontor_app::api::ApiError;
use kontor_app::components::error_panel::ErrorPanel;
use kontor_app::components::form_summary::{
    field_entries, summarize, ErrorSummary, Form, SummaryEntry,
};
use kontor_app::components::position_editor::{split_row_errors, PositionEditor, PositionRow};
use kontor_app::components::toast::Toasts;
use kontor_app::pages::purchases::PurchaseCreate;
use kontor_model::account::Account;
use kontor_model::error::FieldErrors;
use kontor_model::Decimal;
use leptos::prelude::*;
use serde_json::{json, Value};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, KeyboardEvent, KeyboardEventInit};

use crate::support::dom;

use dom::{container, find, settle, texts, type_into, wait};

fn errors(pairs: &[(&str, &str)]) -> FieldErrors {
    pairs
        .iter()
        .map(|(p, m)| {
            (
                p.to_string(),
                vec![kontor_model::error::Message::from_english(m)],
            )
        })
        .collect()
}

/// The summary as the form shows it: split into document and row errors like the invoice
/// and offer forms do, summarized, rendered by `ErrorSummary`; answers the lines' texts.
async fn rendered_summary(form: Form, all: FieldErrors, rows: &[PositionRow]) -> Vec<String> {
    let (document, by_row) = split_row_errors(&all, rows);
    let entries = summarize(form, &document, &by_row, rows);
    rendered(entries).await
}

async fn rendered(entries: Vec<SummaryEntry>) -> Vec<String> {
    let summary = RwSignal::new(Some((
        "Please correct the marked fields.".to_string(),
        entries,
    )));
    let root = container();
    let _handle = leptos::mount::mount_to(
        root.clone(),
        move || view! { <ErrorSummary summary=summary /> },
    );
    settle().await;
    let lines = texts(&root, ".form-summary li");
    root.remove();
    lines
}

fn assert_no_wire_path(lines: &[String]) {
    for line in lines {
        assert!(
            !line.contains('_') && !line.contains('[') && !line.contains("]."),
            "a wire path in {line:?}"
        );
    }
}

#[wasm_bindgen_test]
async fn invoice_form_summary_speaks_its_labels() {
    let rows = vec![
        PositionRow::item("Consulting", "2", "h", "90"),
        PositionRow::item("", "1", "", "10"),
    ];
    let lines = rendered_summary(
        Form::Invoice,
        errors(&[
            ("items[1].title", "is required"),
            ("items[0].unit_price", "must be a number"),
            ("customer_id", "is required"),
            ("due_date", "must not be before the date"),
            ("tax", "must be between 0 and 100"),
        ]),
        &rows,
    )
    .await;
    assert_eq!(
        lines,
        [
            "Customer is required",
            "Due date must not be before the date",
            "VAT % must be between 0 and 100",
            "Position 1: unit price must be a number",
            "Position 2: title is required",
        ]
    );
    assert_no_wire_path(&lines);
}

#[wasm_bindgen_test]
async fn offer_form_summary_speaks_its_labels() {
    let rows = vec![PositionRow::item("", "1", "", "10")];
    let lines = rendered_summary(
        Form::Offer,
        errors(&[
            ("items[0].title", "is required"),
            ("company_id", "give a company, a deal or a project"),
            ("due_date", "must not be before the date"),
            ("date", "is required"),
        ]),
        &rows,
    )
    .await;
    assert_eq!(
        lines,
        [
            "Company: give a company, a deal or a project",
            "Offer date is required",
            "Valid until must not be before the date",
            "Position 1: title is required",
        ]
    );
    assert_no_wire_path(&lines);
}

#[wasm_bindgen_test]
async fn purchase_and_company_summaries_speak_their_labels() {
    let lines = rendered(field_entries(
        Form::Purchase,
        &errors(&[
            ("items[0].total", "is required"),
            ("items[1].tax", "must be between 0 and 100"),
            ("company_id", "does not exist"),
            ("receipt_identifier", "is required"),
            ("file.base64", "is not a PDF, PNG or JPEG"),
        ]),
    ))
    .await;
    assert_eq!(
        lines,
        [
            "Supplier does not exist",
            "Receipt document is not a PDF, PNG or JPEG",
            "Position 1: amount is required",
            "Position 2: VAT % must be between 0 and 100",
            "Receipt no. is required",
        ]
    );
    let company = rendered(field_entries(
        Form::Company,
        &errors(&[
            ("customer_vat.tax", "must be between 0 and 100"),
            ("tags[1]", "must not be blank"),
        ]),
    ))
    .await;
    assert_eq!(
        company,
        ["VAT % must be between 0 and 100", "Tags must not be blank"]
    );
}

fn api_error(status: u16) -> ApiError {
    ApiError {
        status,
        ..ApiError::local("The thing is not there.")
    }
}

#[wasm_bindgen_test]
async fn error_panel_offers_retry_only_where_it_can_help() {
    for (status, retry) in [
        (404, false),
        (403, false),
        (422, false),
        (0, true),
        (500, true),
        (503, true),
        (429, true),
    ] {
        let root = container();
        let error = api_error(status);
        let _handle = leptos::mount::mount_to(root.clone(), move || {
            view! { <ErrorPanel error=error on_retry=Callback::new(|_| {}) /> }
        });
        settle().await;
        let buttons = texts(&root, "button");
        assert_eq!(
            buttons.contains(&"Retry".to_string()),
            retry,
            "status {status}: {buttons:?}"
        );
        if status == 404 {
            assert!(root.text_content().unwrap().contains("Not found"));
        }
        root.remove();
    }
}

fn key(target: &HtmlElement, key: &str) {
    let init = KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    init.set_cancelable(true);
    target
        .dispatch_event(
            &KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap(),
        )
        .unwrap();
}

fn active_text() -> String {
    document()
        .active_element()
        .and_then(|e| e.text_content())
        .unwrap_or_default()
        .trim()
        .to_string()
}

#[wasm_bindgen_test]
async fn the_row_menu_works_with_arrow_keys_home_end_and_escape() {
    let rows = RwSignal::new(vec![
        PositionRow::item("A", "1", "", "1"),
        PositionRow::item("B", "1", "", "2"),
    ]);
    let root = container();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <PositionEditor rows=rows currency="EUR" discount=Decimal::ZERO tax=Decimal::ZERO reverse_charge=false /> }
    });
    settle().await;
    let a = rows.get_untracked()[0].key;
    let button = find(&root, &format!("#row-menu-button-{a}"));
    let menu = find(&root, &format!("#row-menu-{a}"));
    assert_eq!(
        button.get_attribute("aria-haspopup").as_deref(),
        Some("menu")
    );
    assert_eq!(
        button.get_attribute("aria-expanded").as_deref(),
        Some("false")
    );
    assert!(menu.hidden(), "closed at first");

    // ↓ on the button opens the menu on its first item.
    button.focus().unwrap();
    key(&button, "ArrowDown");
    settle().await;
    assert!(!menu.hidden());
    assert_eq!(
        button.get_attribute("aria-expanded").as_deref(),
        Some("true")
    );
    assert_eq!(active_text(), "Move up");
    // ↓ ↑ move, ↑ on the first wraps to the last, Home/End jump.
    let focused = || -> HtmlElement { document().active_element().unwrap().unchecked_into() };
    key(&focused(), "ArrowDown");
    assert_eq!(active_text(), "Move down");
    key(&focused(), "ArrowUp");
    key(&focused(), "ArrowUp");
    assert_eq!(active_text(), "Remove");
    key(&focused(), "ArrowDown");
    assert_eq!(active_text(), "Move up", "wraps to the first");
    key(&focused(), "End");
    assert_eq!(active_text(), "Remove");
    key(&focused(), "Home");
    assert_eq!(active_text(), "Move up");
    // Esc closes and gives the focus back to the button; nothing happened to the rows.
    key(&focused(), "Escape");
    settle().await;
    assert!(menu.hidden());
    assert_eq!(
        button.get_attribute("aria-expanded").as_deref(),
        Some("false")
    );
    assert_eq!(
        document().active_element().map(|e| e.id()),
        Some(format!("row-menu-button-{a}"))
    );
    assert_eq!(rows.get_untracked().len(), 2);

    // ↑ opens on the last item; Enter on an item acts ("Move down" of row A).
    key(&button, "ArrowUp");
    settle().await;
    assert_eq!(active_text(), "Remove");
    key(&focused(), "Home");
    key(&focused(), "ArrowDown");
    assert_eq!(active_text(), "Move down");
    focused().click();
    settle().await;
    let order: Vec<String> =
        rows.with_untracked(|r| r.iter().map(|r| r.title.get_untracked()).collect());
    assert_eq!(order, ["B", "A"]);
    assert!(menu.hidden(), "an action closes the menu");
}

/// Installs a fake server: `GET …/account` → `account`, `GET …/purchases/categories` → [],
/// each `POST …/purchases` → the next of `posts` (status, body). Sent bodies are collected
/// in `window.__posts`.
fn fake_server(account: &Account, posts: &[(u16, Value)]) {
    store_credentials("http://kontor.test", "test-key");
    let account = serde_json::to_string(account).unwrap();
    let posts =
        serde_json::to_string(&posts.iter().map(|(s, b)| json!([s, b])).collect::<Vec<_>>())
            .unwrap();
    let keep = dom::KEEP_REAL_FETCH;
    let script = format!(
        "window.__posts = [];
         const posts = {posts};
         const answer = (status, body, total) => new Response(JSON.stringify(body), {{status,
             headers: {{'Content-Type': 'application/json', 'X-Total': String(total || 0), 'X-Page': '1', 'X-Per-Page': '100'}}}});
         {keep} window.fetch = async (req) => {{
           const url = req.url || String(req);
           const method = (req.method || 'GET').toUpperCase();
           if (method === 'POST' && /\\/purchases$/.test(url)) {{
             window.__posts.push(JSON.parse(await req.clone().text()));
             const [status, body] = posts.shift();
             return answer(status, body);
           }}
           if (/\\/account$/.test(url)) return answer(200, {account});
           if (/\\/purchases\\/categories/.test(url)) return answer(200, [], 0);
           return answer(200, [], 0);
         }};"
    );
    js_sys::eval(&script).unwrap();
}

fn posted() -> Vec<Value> {
    let raw = js_sys::eval("JSON.stringify(window.__posts)").unwrap();
    serde_json::from_str(&raw.as_string().unwrap()).unwrap()
}

fn stored_purchase() -> Value {
    json!({"id": 12, "identifier": "E2611-0013", "receipt_identifier": "RE-17", "title": "Paper",
        "info": null, "iban": "", "reference": null, "date": "2026-11-20", "due_date": null,
        "service_period_from": null, "service_period_to": null, "status": "pending",
        "payment_method": "bank_transfer", "net_total": "100.00", "gross_total": "119.00",
        "currency": "EUR", "file_url": null, "file_content_type": null, "file_name": null,
        "custom_properties": {}, "tags": [], "company": null, "payments": [], "user": null,
        "items": [], "e_invoice": null,
        "created_at": "2026-11-20T09:00:00Z", "updated_at": "2026-11-20T09:00:00Z"})
}

async fn mount_purchase_form() -> HtmlElement {
    use leptos_router::components::Router;
    let root = container();
    let _handle = leptos::mount::mount_to(root.clone(), || {
        Toasts::provide();
        view! { <Router><PurchaseCreate /></Router> }
    });
    std::mem::forget(_handle);
    for _ in 0..40 {
        if root.query_selector("form.purchase-form").unwrap().is_some() {
            break;
        }
        wait(25).await;
    }
    settle().await;
    root
}

/// Fills one position (title, amount, VAT) and the receipt number, then submits.
async fn fill_and_submit(root: &HtmlElement) {
    type_into(&find(root, "#f-receipt_identifier"), "RE-17");
    type_into(&find(root, "input.item-title"), "Paper");
    type_into(&find(root, "input.item-total"), "119");
    type_into(&find(root, "input.item-tax"), "19");
    settle().await;
    find(root, "form.purchase-form .form-actions button[type=submit]").click();
    wait(150).await;
}

fn account() -> Account {
    Account {
        name: "Kontor GmbH".into(),
        currencies: vec!["EUR".into()],
        default_currency: "EUR".into(),
        ..Account::default()
    }
}

#[wasm_bindgen_test]
async fn a_duplicate_purchase_asks_and_is_resent_with_allow_duplicate() {
    fake_server(
        &account(),
        &[
            (
                409,
                json!({"message": "A purchase with this receipt number from this supplier exists (E2611-0012).",
                       "errors": {"receipt_identifier": ["is already on purchase E2611-0012 of this supplier"]},
                       "id": 7, "identifier": "E2611-0012"}),
            ),
            (200, stored_purchase()),
        ],
    );
    let root = mount_purchase_form().await;
    fill_and_submit(&root).await;
    let sent = posted();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(sent[0].get("allow_duplicate").is_none(), "{}", sent[0]);
    let dialog = document()
        .query_selector("dialog[open]")
        .unwrap()
        .expect("the question is shown");
    let question = dialog.text_content().unwrap();
    assert!(
        question.contains("A purchase with this receipt number from this supplier exists (E2611-0012). Save anyway?"),
        "{question}"
    );
    find(&root, "#duplicate-save").click();
    wait(150).await;
    let sent = posted();
    assert_eq!(sent.len(), 2, "{sent:?}");
    assert_eq!(sent[1]["allow_duplicate"], true);
    assert_eq!(sent[1]["receipt_identifier"], "RE-17");
    root.remove();
}

#[wasm_bindgen_test]
async fn a_422_on_the_purchase_form_is_summarized_in_its_labels() {
    fake_server(
        &account(),
        &[(
            422,
            json!({"message": "Validation failed.",
                   "errors": {"items[0].total": ["is too large: amounts must stay below 10^15 currency units"],
                              "company_id": ["does not exist"]}}),
        )],
    );
    let root = mount_purchase_form().await;
    fill_and_submit(&root).await;
    let lines = texts(&root, ".form-summary li");
    assert_eq!(
        lines,
        [
            "Supplier does not exist",
            "Position 1: amount is too large: amounts must stay below 10^15 currency units",
        ]
    );
    root.remove();
}
