//! Component tests for the master-data forms (issue 9) in headless Chromium:
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target wasm32-unknown-unknown --test components -- companies::`.
//!
//! The server is replaced by a fake `window.fetch` (installed per test) that answers
//! fixed JSON and records the URLs asked for, so the forms' requests and the handling of
//! the answers (a 422 at its field, search results) run as in the app.
#![cfg(target_arch = "wasm32")]

use kontor_app::api::client::store_credentials;
use kontor_app::components::company_dialog::CompanyDialog;
use kontor_app::components::company_fields::{CompanyEssentialFields, CompanyMoreFields};
use kontor_app::components::company_form_state::{form_errors, CompanyFormState};
use kontor_app::components::company_picker::CompanyPicker;
use kontor_model::error::{messages, FieldErrors, Message};
use kontor_model::party::{Company, CompanyType};
use leptos::prelude::*;
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlInputElement};

use crate::support::dom;

use dom::{choose, container, dispatch, fetched, find, texts, type_into, wait};

fn text(root: &HtmlElement, css: &str) -> String {
    find(root, css)
        .text_content()
        .unwrap_or_default()
        .trim()
        .to_string()
}

/// [`dom::fake_fetch`] with `X-Total` = `total` (one page of 20).
fn fake_fetch(status: u16, body: &serde_json::Value, total: usize) {
    dom::fake_fetch(
        status,
        body,
        &format!(", 'X-Total': '{total}', 'X-Page': '1', 'X-Per-Page': '20'"),
    );
}

fn company_json(id: i64, name: &str) -> serde_json::Value {
    json!({"id": id, "type": "customer", "name": name, "address": "Hafenstraße 5\n20457 Hamburg",
        "email": format!("billing{id}@example.com"), "billing_email_cc": null, "currency": "EUR",
        "payment_term_days": 14, "iban": null, "tags": [],
        "customer_vat": {"tax": 19, "reverse_charge": false, "intra_eu": false},
        "active": true, "country_code": "DE", "language": "de",
        "created_at": "2026-11-02T09:00:00Z", "updated_at": "2026-11-02T09:00:00Z"})
}

#[wasm_bindgen_test]
async fn bad_vat_id_and_iban_show_at_their_fields_before_sending() {
    let state = CompanyFormState::blank(CompanyType::Customer);
    let errors = RwSignal::new(FieldErrors::new());
    let root = container();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! {
            <CompanyEssentialFields state=state errors=errors prefix="f-" />
            <CompanyMoreFields state=state errors=errors currencies=vec!["EUR".to_string()] />
        }
    });
    wait(20).await;
    type_into(&find(&root, "#f-name"), "Hafen Logistik GmbH");
    type_into(&find(&root, "#f-vat_identifier"), "DE12345678");
    type_into(&find(&root, "#f-iban"), "DE89 3704 0044 0532 0130 01");
    wait(20).await;
    // What the page and the dialog do on submit: the shared rules before any request.
    let (_, found) = state.checked_body();
    assert!(found.contains_key("vat_identifier"), "{found:?}");
    assert!(found.contains_key("iban"), "{found:?}");
    assert!(!found.contains_key("name"), "{found:?}");
    errors.set(found);
    wait(20).await;
    assert!(!text(&root, "#f-vat_identifier-error").is_empty());
    assert!(!text(&root, "#f-iban-error").is_empty());
    assert_eq!(
        find(&root, "#f-iban")
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("true")
    );
    assert_eq!(text(&root, "#f-name-error"), "");

    // Corrected (a valid German VAT ID and IBAN): no errors, and the body is compact.
    type_into(&find(&root, "#f-vat_identifier"), "DE 136 308 783");
    type_into(&find(&root, "#f-iban"), "DE89 3704 0044 0532 0130 00");
    let (body, found) = state.checked_body();
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(body.vat_identifier.as_deref(), Some("DE136308783"));
    assert_eq!(body.iban.as_deref(), Some("DE89370400440532013000"));
}

#[wasm_bindgen_test]
async fn the_dialog_refuses_a_bad_vat_id_without_sending() {
    fake_fetch(201, &company_json(9, "never"), 1);
    let open = RwSignal::new(true);
    let created = RwSignal::new(None::<Company>);
    let root = container();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <CompanyDialog open=open kind=CompanyType::Customer name="Nordwind AG" on_created=Callback::new(move |c| created.set(Some(c))) /> }
    });
    wait(50).await;
    let name: HtmlInputElement = find(&root, "#c-name").unchecked_into();
    assert_eq!(name.value(), "Nordwind AG", "the typed name is taken over");
    type_into(&find(&root, "#c-vat_identifier"), "XX123");
    find(&root, "#company-dialog-save").click();
    wait(50).await;
    assert!(!text(&root, "#c-vat_identifier-error").is_empty());
    assert!(fetched().is_empty(), "nothing sent: {:?}", fetched());
    assert!(created.get_untracked().is_none());
}

#[wasm_bindgen_test]
async fn a_422_from_the_server_shows_at_its_field() {
    fake_fetch(
        422,
        &json!({"message": "Please check the marked fields.",
            "errors": {"vat_identifier": ["is already used by Hafen Logistik GmbH"], "payment_term_days": ["must be between 0 and 365"]}}),
        0,
    );
    let open = RwSignal::new(true);
    let root = container();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <CompanyDialog open=open kind=CompanyType::Supplier name="" on_created=Callback::new(|_| {}) /> }
    });
    wait(50).await;
    type_into(&find(&root, "#c-name"), "Papier & Co. KG");
    type_into(&find(&root, "#c-vat_identifier"), "DE136308783");
    find(&root, "#company-dialog-save").click();
    wait(100).await;
    let asked = fetched();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert!(asked[0].ends_with("/api/v1/companies"), "{asked:?}");
    assert_eq!(
        text(&root, "#c-vat_identifier-error"),
        "is already used by Hafen Logistik GmbH"
    );
    assert!(text(&root, ".form-summary").contains("Please check the marked fields."));
    assert!(open.get_untracked(), "the dialog stays open");
}

#[wasm_bindgen_test]
fn server_paths_map_to_the_form_fields() {
    let mut errors = FieldErrors::new();
    errors.insert(
        "payment_term_days".into(),
        vec![Message::verbatim("too long")],
    );
    errors.insert("tags[1]".into(), vec![messages::MUST_NOT_BE_BLANK.into()]);
    errors.insert("iban".into(), vec![messages::IS_NOT_VALID_IBAN.into()]);
    let mapped = form_errors(&errors);
    assert_eq!(mapped["default_invoice_due_days"], vec!["too long"]);
    assert_eq!(mapped["tags"], vec!["must not be blank"]);
    assert_eq!(mapped["iban"], vec!["is not a valid IBAN"]);
    assert!(!mapped.contains_key("payment_term_days"));
}

#[wasm_bindgen_test]
async fn the_picker_searches_as_you_type_and_offers_new_customer() {
    fake_fetch(
        200,
        &json!([
            company_json(1, "Hafen Logistik GmbH"),
            company_json(2, "Hafenbar KG")
        ]),
        2,
    );
    let value = RwSignal::new(None::<i64>);
    let picked = RwSignal::new(None::<Company>);
    let root = container();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        let on_pick = Callback::new(move |c: Option<Company>| {
            value.set(c.as_ref().map(|c| c.id));
            picked.set(c);
        });
        view! { <CompanyPicker id="f-customer_id" kind=CompanyType::Customer value=value on_pick=on_pick /> }
    });
    wait(20).await;
    let input = find(&root, "#f-customer_id");
    type_into(&input, "Haf");
    type_into(&input, "Hafen");
    wait(400).await;
    // One request after typing paused, for active customers with the last term.
    let asked = fetched();
    assert_eq!(asked.len(), 1, "debounced: {asked:?}");
    assert!(asked[0].contains("type=customer"), "{asked:?}");
    assert!(asked[0].contains("term=Hafen"), "{asked:?}");
    assert!(asked[0].contains("active=true"), "{asked:?}");
    let options = texts(&root, "[role=option]");
    assert_eq!(options.len(), 3, "{options:?}");
    assert!(options[0].starts_with("Hafen Logistik GmbH"));
    assert_eq!(
        options[2], "New customer…",
        "the last entry creates a customer"
    );

    // Picking a company from the list.
    dispatch(&find(&root, "[role=option][data-id='2']"), "mousedown");
    wait(20).await;
    assert_eq!(
        picked.get_untracked().map(|c| c.name),
        Some("Hafenbar KG".into())
    );
    assert_eq!(input.get_attribute("data-company-id").as_deref(), Some("2"));
    let shown: &HtmlInputElement = input.unchecked_ref();
    assert_eq!(shown.value(), "Hafenbar KG");

    // "New customer…" opens the dialog with the typed name.
    type_into(&input, "Nordwind");
    wait(400).await;
    dispatch(&find(&root, ".combo-new"), "mousedown");
    wait(50).await;
    let dialog = document()
        .query_selector("dialog[open]")
        .unwrap()
        .expect("the dialog is open");
    assert!(dialog.text_content().unwrap().contains("New customer"));
    let name: HtmlInputElement = document()
        .query_selector("dialog[open] #c-name")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(name.value(), "Nordwind");
}

/// Like [`fake_fetch`], but also keeps the request bodies (as text) in `window.__sent`.
fn recording_fetch(status: u16, body: &serde_json::Value) {
    store_credentials("http://kontor.test", "test-key");
    let keep = dom::KEEP_REAL_FETCH;
    let script = format!(
        "window.__sent = [];
         {keep} window.fetch = async (req, init) => {{
           const sent = (req && typeof req.clone === 'function') ? await req.clone().text() : (init && init.body);
           window.__sent.push(String(sent));
           return new Response({body}, {{status: {status}, headers: {{'Content-Type': 'application/json'}}}});
         }};",
        body = serde_json::to_string(&body.to_string()).unwrap()
    );
    js_sys::eval(&script).unwrap();
}

/// Mounts [`CompanyMoreFields`] editing the company `stored` (its JSON), every request
/// answered with `stored` and recorded ([`recording_fetch`]); returns the form state, its
/// errors, the mount point and the mount handle (keep it for the test's length).
async fn mount_more_fields(
    stored: &serde_json::Value,
) -> (
    CompanyFormState,
    RwSignal<FieldErrors>,
    HtmlElement,
    impl Sized,
) {
    let company: Company = serde_json::from_str(&(stored.clone()).to_string()).unwrap();
    recording_fetch(200, stored);
    let state = CompanyFormState::from_company(&company);
    let errors = RwSignal::new(FieldErrors::new());
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <CompanyMoreFields state=state errors=errors currencies=vec!["EUR".to_string()] /> }
    });
    wait(20).await;
    (state, errors, root, handle)
}

/// The request bodies the recording fetch was sent, read as JSON.
fn sent_bodies() -> Vec<serde_json::Value> {
    let list = js_sys::eval("window.__sent || []").unwrap();
    js_sys::Array::from(&list)
        .iter()
        .filter_map(|v| v.as_string())
        .map(|s| serde_json::from_str(&s).unwrap())
        .collect()
}

#[wasm_bindgen_test]
async fn custom_properties_are_edited_and_sent_as_the_full_map() {
    // Editing a company with two stored properties.
    let mut stored = company_json(7, "Hafen Logistik GmbH");
    stored["custom_properties"] = json!({"Kst": "4711", "Ref": "A-1"});
    let (state, errors, root, _handle) = mount_more_fields(&stored).await;
    let names = root.query_selector_all(".custom-property-name").unwrap();
    assert_eq!(names.length(), 2, "the stored properties are loaded");

    // Remove "Ref", add "Projekt" = "P-9", and leave one empty row.
    let removes = root.query_selector_all(".custom-property-remove").unwrap();
    let ref_remove: HtmlElement = removes.item(1).unwrap().unchecked_into();
    ref_remove.click();
    find(&root, "#f-custom_properties-add").click();
    find(&root, "#f-custom_properties-add").click();
    wait(20).await;
    let names = root.query_selector_all(".custom-property-name").unwrap();
    let values = root.query_selector_all(".custom-property-value").unwrap();
    assert_eq!(names.length(), 3);
    type_into(&names.item(1).unwrap().unchecked_into(), "Projekt");
    type_into(&values.item(1).unwrap().unchecked_into(), "P-9");
    wait(20).await;

    // Submitting (what the page does): checked body, then PUT.
    let (body, found) = state.checked_body();
    assert!(found.is_empty(), "{found:?}");
    kontor_app::api::companies::update_company(7, &body)
        .await
        .unwrap();
    let sent = sent_bodies();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(
        sent[0]["custom_properties"],
        json!({"Kst": "4711", "Projekt": "P-9"}),
        "the full map, without the removed property and the empty row"
    );

    // The same name twice is an error at the editor, before anything is sent.
    type_into(&names.item(2).unwrap().unchecked_into(), "Kst");
    wait(20).await;
    let (_, found) = state.checked_body();
    assert!(found.contains_key("custom_properties"), "{found:?}");
    errors.set(found);
    wait(20).await;
    assert!(text(&root, "#f-custom_properties-error").contains("Kst"));
}

#[wasm_bindgen_test]
async fn einvoice_fields_are_loaded_checked_and_sent() {
    // Editing a public customer with a Leitweg-ID who receives XRechnung (UBL).
    let mut stored = company_json(8, "Stadt Musterhausen");
    stored["buyer_reference"] = json!("04011000-12345-67");
    stored["einvoice_format"] = json!("xrechnung_ubl");
    let (state, errors, root, _handle) = mount_more_fields(&stored).await;
    let value = |css: &str| {
        find(&root, css)
            .unchecked_into::<HtmlInputElement>()
            .value()
    };
    assert_eq!(value("#f-buyer_reference"), "04011000-12345-67");
    let format: web_sys::HtmlSelectElement = find(&root, "#f-einvoice_format").unchecked_into();
    assert_eq!(format.value(), "xrechnung_ubl");
    assert!(text(&root, "#sec-einvoice").contains("E-invoices"));

    // A mandate reference outside the SEPA characters and a broken address: the model's
    // rules mark both before anything is sent.
    type_into(&find(&root, "#f-sepa_mandate_reference"), "Müller 1");
    type_into(&find(&root, "#f-electronic_address"), "rechnung@");
    wait(20).await;
    let (_, found) = state.checked_body();
    assert_eq!(
        found.keys().collect::<Vec<_>>(),
        ["electronic_address", "sepa_mandate_reference"]
    );
    errors.set(found);
    wait(20).await;
    assert!(!text(&root, "#f-sepa_mandate_reference-error").is_empty());
    assert_eq!(
        find(&root, "#f-electronic_address")
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("true")
    );

    // Corrected, and switched to XRechnung CII: the PUT carries all four fields.
    type_into(&find(&root, "#f-sepa_mandate_reference"), "KD-4711/2026");
    type_into(
        &find(&root, "#f-electronic_address"),
        "rechnung@musterhausen.example",
    );
    choose(&root, "#f-einvoice_format", "xrechnung_cii");
    wait(20).await;
    let (body, found) = state.checked_body();
    assert!(found.is_empty(), "{found:?}");
    kontor_app::api::companies::update_company(8, &body)
        .await
        .unwrap();
    let sent = sent_bodies();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0]["buyer_reference"], "04011000-12345-67");
    assert_eq!(
        sent[0]["electronic_address"],
        "rechnung@musterhausen.example"
    );
    assert_eq!(sent[0]["einvoice_format"], "xrechnung_cii");
    assert_eq!(sent[0]["sepa_mandate_reference"], "KD-4711/2026");
}

#[wasm_bindgen_test]
async fn datev_numbers_are_loaded_checked_and_sent() {
    // A customer with a debtor number (issue 11, exports; issue 31 calls it
    // `debit_number`, and the server answers both names): loaded, a creditor number out of
    // its range marked by the model's rule, emptied numbers sent as null.
    let mut stored = company_json(9, "Kranzler GmbH");
    stored["debit_number"] = json!(12345);
    stored["debtor_number"] = json!(12345);
    let (state, errors, root, _handle) = mount_more_fields(&stored).await;
    let value = |css: &str| {
        find(&root, css)
            .unchecked_into::<HtmlInputElement>()
            .value()
    };
    assert_eq!(value("#f-debtor_number"), "12345");
    assert_eq!(value("#f-creditor_number"), "");
    type_into(&find(&root, "#f-creditor_number"), "123");
    type_into(&find(&root, "#f-debtor_number"), "12x");
    wait(20).await;
    let (_, found) = state.checked_body();
    assert_eq!(
        found.keys().collect::<Vec<_>>(),
        ["credit_number", "debit_number"]
    );
    errors.set(found);
    wait(20).await;
    assert!(!text(&root, "#f-creditor_number-error").is_empty());

    type_into(&find(&root, "#f-creditor_number"), "70001");
    type_into(&find(&root, "#f-debtor_number"), "");
    let (body, found) = state.checked_body();
    assert!(found.is_empty(), "{found:?}");
    kontor_app::api::companies::update_company(9, &body)
        .await
        .unwrap();
    let sent = sent_bodies();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0]["credit_number"], 70001);
    assert_eq!(sent[0]["debit_number"], serde_json::Value::Null);
}
