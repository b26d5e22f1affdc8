//! Component tests of the purchase pages' logic in headless Chromium:
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target wasm32-unknown-unknown --test components -- purchases::`.
#![cfg(target_arch = "wasm32")]

use kontor_app::components::list_url::query_string;
use kontor_app::pages::purchases::form_items::PurchaseItems;
use kontor_app::pages::purchases::form_state::{PurchaseFormState, PurchaseRow};
use kontor_app::pages::purchases::list_filters::parse_query;
use kontor_model::error::FieldErrors;
use kontor_model::purchase::{PaymentMethod, Purchase, PurchaseStatus};
use kontor_model::query::{DateRange, PurchaseFilter, SortedFilter};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlElement;

use crate::support::dom;

use dom::{d, dispatch, fetched, settle, texts, wait};

/// A form with a tax-included row (119.00 at 19 %) and a net row (10.00 at 7 %).
fn two_rows() -> PurchaseFormState {
    let state = PurchaseFormState::blank("2026-11-20", "EUR");
    state.rows.set(vec![
        PurchaseRow::new(1, "Hotel", "119", "19", true),
        PurchaseRow::new(2, "Books", "10", "7", false),
    ]);
    state
}

#[wasm_bindgen_test]
fn live_totals_of_an_included_and_a_net_row() {
    let state = two_rows();
    let rows = state.rows.get_untracked();
    let included = rows[0].amounts("EUR").unwrap();
    assert_eq!(
        (included.net_total, included.tax_total, included.gross_total),
        (d("100"), d("19"), d("119"))
    );
    let net = rows[1].amounts("EUR").unwrap();
    assert_eq!(
        (net.net_total, net.tax_total, net.gross_total),
        (d("10"), d("0.70"), d("10.70"))
    );
    let sum = state.totals().unwrap();
    assert_eq!(
        (sum.net_total, sum.tax_total, sum.gross_total),
        (d("110"), d("19.70"), d("129.70"))
    );
    // Typing changes the sums at once; a row that is not a number yet counts as nothing.
    // (The test browser is English: `20,00` is not a number there, `20.00` is.)
    rows[1].total.set("20.00".into());
    assert_eq!(state.totals().unwrap().gross_total, d("140.40"));
    rows[1].total.set("abc".into());
    assert_eq!(state.totals().unwrap().gross_total, d("119"));
}

#[wasm_bindgen_test]
async fn the_editor_shows_row_and_sum_totals_as_you_type() {
    let state = two_rows();
    let root: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&root).unwrap();
    let errors = RwSignal::new(FieldErrors::new());
    let _handle = mount_to(
        root.clone(),
        move || view! { <PurchaseItems state=state errors=errors /> },
    );
    settle().await;
    let text = |css: &str| {
        root.query_selector(css)
            .unwrap()
            .unwrap()
            .text_content()
            .unwrap()
    };
    assert_eq!(text("#sum-gross"), "129.70 EUR");
    assert_eq!(text("tr[data-key='1'] .item-net"), "100.00 EUR");
    state.rows.get_untracked()[0].tax_included.set(false);
    settle().await;
    assert_eq!(text("tr[data-key='1'] .item-gross"), "141.61 EUR");
    assert_eq!(text("#sum-gross"), "152.31 EUR");
}

#[wasm_bindgen_test]
fn iban_is_checked_in_the_form_state() {
    let state = two_rows();
    state.iban.set("DE89 3704 0044 0532 0130 01".into());
    let (_, errors) = state.body();
    assert!(errors.contains_key("iban"), "{errors:?}");
    state.iban.set("DE89 3704 0044 0532 0130 00".into());
    let (body, errors) = state.body();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(body.iban.as_deref(), Some("DE89 3704 0044 0532 0130 00"));
    // A supplier's IBAN fills an empty field only.
    state.apply_supplier_iban(Some("GB82WEST12345698765432"));
    assert_eq!(state.iban.get_untracked(), "DE89 3704 0044 0532 0130 00");
    state.iban.set(String::new());
    state.apply_supplier_iban(Some("GB82WEST12345698765432"));
    assert_eq!(state.iban.get_untracked(), "GB82WEST12345698765432");
    let (body, _) = state.body();
    let items = body.items.unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(items[0].tax_included, Some(true));
    assert_eq!(items[1].total, Some(d("10")));
}

#[wasm_bindgen_test]
fn filter_round_trips_through_the_url() {
    let mut f = PurchaseFilter {
        category_id: Some(3),
        term: Some("hotel & train".into()),
        company_id: Some(0),
        status: vec![PurchaseStatus::Pending, PurchaseStatus::Approved],
        tags: vec!["travel".into(), "q4".into()],
        date: DateRange {
            from: chrono::NaiveDate::from_ymd_opt(2026, 11, 1),
            to: None,
        },
        unpaid: Some(true),
        payment_method: Some(PaymentMethod::CreditCard),
        ..Default::default()
    };
    f.paging.page = Some(2);
    let query = query_string(&f);
    assert!(
        query.contains("date=2026-11-01%3A") || query.contains("date=2026-11-01:"),
        "{query}"
    );
    assert!(
        query.contains("unpaid=true") && query.contains("company_id=0"),
        "{query}"
    );
    assert_eq!(parse_query(&query).unwrap(), f);
    assert!(f.has_filters());
    assert_eq!(query_string(&PurchaseFilter::default()), "");
    assert!(parse_query("?date=2026-11-01").is_err());
}

#[wasm_bindgen_test]
async fn dropping_a_file_on_the_drop_zone_hands_it_over() {
    use kontor_app::components::drop_zone::{read_base64, DropZone};
    use send_wrapper::SendWrapper;
    let got = RwSignal::new(None::<SendWrapper<web_sys::File>>);
    let root: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&root).unwrap();
    let on_file = Callback::new(move |f: SendWrapper<web_sys::File>| got.set(Some(f)));
    let _handle = mount_to(root.clone(), move || {
        view! { <DropZone id="t-drop" label="Drop here" on_file=on_file /> }
    });
    settle().await;
    let zone = root.query_selector(".drop-zone").unwrap().unwrap();
    let drop = js_sys::Function::new_with_args(
        "el",
        "const dt = new DataTransfer(); \
         dt.items.add(new File(['%PDF-1.4 x'], 'scan.pdf', {type: 'application/pdf'})); \
         el.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));",
    );
    drop.call1(&wasm_bindgen::JsValue::NULL, &zone).unwrap();
    settle().await;
    let file = got.get_untracked().expect("the dropped file");
    assert_eq!(file.name(), "scan.pdf");
    // "%PDF-1.4 x" in base64, as the creation body's `file.base64`.
    assert_eq!(read_base64(&file).await.unwrap(), "JVBERi0xLjQgeA==");
}

/// Replaces `window.fetch` with a fake server for the supplier filter: `GET /companies/7`
/// answers "Papier & Co. KG", every other request a list of two suppliers; the URLs
/// asked for are collected in `window.__fetched`.
fn fake_supplier_server() {
    kontor_app::api::client::store_credentials("http://kontor.test", "test-key");
    let supplier = |id: i64, name: &str| {
        serde_json::json!({"id": id, "type": "supplier", "name": name, "address": "Werkstraße 1\n10115 Berlin",
            "email": null, "billing_email_cc": null, "currency": "EUR",
            "payment_term_days": 14, "iban": null, "tags": [],
            "customer_vat": {"tax": 19, "reverse_charge": false, "intra_eu": false},
            "active": id != 8, "country_code": "DE", "language": "de",
            "created_at": "2026-11-02T09:00:00Z", "updated_at": "2026-11-02T09:00:00Z"})
    };
    let one = supplier(7, "Papier & Co. KG").to_string();
    let list = serde_json::json!([
        supplier(7, "Papier & Co. KG"),
        supplier(8, "Papierwerk Alt")
    ])
    .to_string();
    let keep = dom::KEEP_REAL_FETCH;
    let script = format!(
        "window.__fetched = [];
         {keep} window.fetch = (req) => {{
           const url = req.url || String(req);
           window.__fetched.push(url);
           const body = /\\/companies\\/7(\\?|$)/.test(url) ? {one} : {list};
           return Promise.resolve(new Response(body, {{status: 200,
             headers: {{'Content-Type': 'application/json', 'X-Total': '2', 'X-Page': '1', 'X-Per-Page': '20'}}}}));
         }};",
        one = serde_json::to_string(&one).unwrap(),
        list = serde_json::to_string(&list).unwrap(),
    );
    js_sys::eval(&script).unwrap();
}

#[wasm_bindgen_test]
async fn the_supplier_filter_searches_as_you_type_and_writes_the_chosen_id() {
    use kontor_app::pages::purchases::list_filters::PurchaseFilters;
    use web_sys::HtmlInputElement;
    fake_supplier_server();
    // As after a reload of `/purchases?company_id=7&page=3`.
    let filter = RwSignal::new(PurchaseFilter {
        company_id: Some(7),
        ..Default::default()
    });
    filter.update(|f| f.paging.page = Some(3));
    let root: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&root).unwrap();
    let _handle = mount_to(root.clone(), move || {
        let on_change = Callback::new(move |f: PurchaseFilter| filter.set(f));
        view! {
            <PurchaseFilters filter=filter categories=Vec::new() on_change=on_change />
        }
    });
    wait(100).await;
    let input: HtmlInputElement = root
        .query_selector("#filter-supplier")
        .unwrap()
        .expect("the supplier filter")
        .unchecked_into();
    // The chosen supplier is shown by name, loaded by its id.
    assert_eq!(input.value(), "Papier & Co. KG");
    assert_eq!(input.get_attribute("data-company-id").as_deref(), Some("7"));
    assert!(
        fetched().iter().any(|u| u.ends_with("/companies/7")),
        "{:?}",
        fetched()
    );

    // Typing searches the server (once, after typing paused), archived suppliers too.
    js_sys::eval("window.__fetched = []").unwrap();
    input.set_value("Pap");
    dispatch(&input, "input");
    input.set_value("Papier");
    dispatch(&input, "input");
    wait(400).await;
    let asked = fetched();
    assert_eq!(asked.len(), 1, "debounced: {asked:?}");
    assert!(
        asked[0].contains("type=supplier") && asked[0].contains("term=Papier"),
        "{asked:?}"
    );
    assert!(
        !asked[0].contains("active="),
        "archived included: {asked:?}"
    );
    let options = texts(&root, "[role=option]");
    assert_eq!(options.len(), 3, "{options:?}");
    assert_eq!(options[0], "All suppliers");
    assert!(options[2].starts_with("Papierwerk Alt"), "{options:?}");
    assert!(
        !options.iter().any(|o| o.starts_with("New")),
        "no creation in a filter: {options:?}"
    );

    // Picking writes the id to the filter and goes back to page 1.
    dispatch(
        &root
            .query_selector("[role=option][data-id='8']")
            .unwrap()
            .unwrap(),
        "mousedown",
    );
    wait(30).await;
    let f = filter.get_untracked();
    assert_eq!(f.company_id, Some(8));
    assert_eq!(f.paging.page, None);
    assert_eq!(query_string(&f), "?company_id=8");
    assert_eq!(input.value(), "Papierwerk Alt");

    // "All suppliers" clears it; "Without supplier" is company_id=0.
    input.click();
    wait(50).await;
    dispatch(
        &root.query_selector(".combo-clear").unwrap().unwrap(),
        "mousedown",
    );
    wait(30).await;
    assert_eq!(filter.get_untracked().company_id, None);
    assert_eq!(input.value(), "");
    let without: HtmlInputElement = root
        .query_selector("#filter-without-supplier")
        .unwrap()
        .unwrap()
        .unchecked_into();
    without.set_checked(true);
    dispatch(&without, "change");
    wait(30).await;
    assert_eq!(filter.get_untracked().company_id, Some(0));
    assert_eq!(input.get_attribute("data-company-id").as_deref(), Some(""));
}

/// A pending purchase as the server answers it: a tax-included row (119.00 gross at 19 %)
/// in category 3 and a net row (10.00 at 7 %).
fn stored_purchase() -> Purchase {
    let vat = |tax: u32| serde_json::json!({"tax": tax, "reverse_charge": false, "intra_eu": false, "active": true});
    let category = serde_json::json!({"id": 3, "name": "Travel", "credit_account": "4660",
        "created_at": "2026-11-02T09:00:00Z", "updated_at": "2026-11-02T09:00:00Z"});
    serde_json::from_str(&(serde_json::json!({
        "id": 9, "identifier": "E2611-001", "receipt_identifier": "RE-77", "title": "Trip", "info": null,
        "iban": "DE89370400440532013000", "reference": "Order 5", "date": "2026-11-03", "due_date": "2026-11-17",
        "service_period_from": null, "service_period_to": null, "status": "pending",
        "payment_method": "credit_card", "net_total": 110.00, "gross_total": 129.70, "currency": "EUR",
        "file_url": null, "file_content_type": null, "custom_properties": {}, "tags": ["trip", "nov"],
        "company": {"id": 4, "name": "Hotel Ost", "iban": null}, "payments": [], "user": null,
        "items": [
            {"id": 1, "title": "Hotel", "net_total": 100.00, "tax_total": 19.00, "tax": 19, "vat": vat(19),
             "tax_included": true, "gross_total": 119.00, "category": category, "supplier_credit_number": null, "expense": null},
            {"id": 2, "title": "Books", "net_total": 10.00, "tax_total": 0.70, "tax": 7, "vat": vat(7),
             "tax_included": false, "gross_total": 10.70, "category": null, "supplier_credit_number": null, "expense": null}
        ],
        "e_invoice": null, "created_at": "2026-11-03T09:00:00Z", "updated_at": "2026-11-03T09:00:00Z"
    })).to_string())
    .unwrap()
}

#[wasm_bindgen_test]
fn the_edit_form_is_filled_from_the_purchase() {
    let s = PurchaseFormState::from_purchase(&stored_purchase());
    assert_eq!(s.company_id.get_untracked(), Some(4));
    assert_eq!(s.category_id.get_untracked(), Some(3));
    assert_eq!(s.date.get_untracked(), "2026-11-03");
    assert_eq!(s.due_date.get_untracked(), "2026-11-17");
    assert_eq!(s.payment_method.get_untracked(), PaymentMethod::CreditCard);
    assert_eq!(s.receipt_identifier.get_untracked(), "RE-77");
    assert_eq!(s.tags.get_untracked(), "trip, nov");
    let rows: Vec<(String, String, String, bool)> = s
        .rows
        .get_untracked()
        .iter()
        .map(|r| {
            (
                r.title.get_untracked(),
                r.total.get_untracked(),
                r.tax.get_untracked(),
                r.tax_included.get_untracked(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("Hotel".into(), "119".into(), "19".into(), true),
            ("Books".into(), "10".into(), "7".into(), false)
        ]
    );
    let totals = s.totals().unwrap();
    assert_eq!(totals.gross_total, d("129.70"));
    let (body, errors) = s.body();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(body.items.map(|i| i.len()), Some(2));
    assert_eq!(body.category_id, Some(3));
    // A row added afterwards gets a key of its own.
    let key = s.add_row();
    assert!(key > 2);
}
