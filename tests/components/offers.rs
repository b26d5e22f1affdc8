//! Component tests for offers (issue 4) in headless Chromium:
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target wasm32-unknown-unknown --test components -- offers::`.
#![cfg(target_arch = "wasm32")]

use kontor_app::components::position_editor::{PositionEditor, PositionRow};
use kontor_app::pages::invoices::form_from_offer::apply_offer;
use kontor_app::pages::invoices::InvoiceFormState;
use kontor_app::pages::offers::form_state::OfferFormState;
use kontor_model::offer::Offer;
use kontor_model::party::{Company, Deal, Person, Project};
use kontor_model::recipients::offer_recipients;
use kontor_model::Decimal;
use leptos::prelude::*;
use serde_json::{json, Value};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Event, EventInit, HtmlElement, HtmlInputElement};

fn parse<T: serde::de::DeserializeOwned>(mut value: Value) -> T {
    let object = value.as_object_mut().unwrap();
    for k in ["created_at", "updated_at"] {
        object.entry(k).or_insert(json!("2026-11-02T09:00:00Z"));
    }
    serde_json::from_str(&value.to_string()).unwrap()
}

fn company(id: i64, name: &str, currency: &str) -> Company {
    parse(
        json!({"id": id, "type": "customer", "name": name, "address": "Kai 1", "email": format!("ap{id}@x.example"),
        "billing_email_cc": null, "currency": currency, "payment_term_days": 14, "iban": null, "tags": [],
        "customer_vat": {"tax": 19, "reverse_charge": false, "intra_eu": false}}),
    )
}

fn project(id: i64, customer: &Company, currency: &str) -> Project {
    parse(
        json!({"id": id, "name": "App", "customer": {"id": customer.id, "name": customer.name}, "currency": currency,
        "billing_email_to": null, "billing_email_cc": null, "billing_address": null}),
    )
}

fn deal(id: i64, company: &Company, currency: &str) -> Deal {
    parse(
        json!({"id": id, "name": "Deal", "company": {"id": company.id, "name": company.name}, "currency": currency, "status": "pending"}),
    )
}

async fn settle() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 30);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

fn text(root: &HtmlElement, css: &str) -> String {
    root.query_selector(css)
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap()
}

#[wasm_bindgen_test]
async fn editor_totals_leave_optional_positions_out() {
    let rows = RwSignal::new(vec![
        PositionRow::item("Design", "1", "h", "100"),
        PositionRow::item("Support", "1", "h", "50"),
    ]);
    let root: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&root).unwrap();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <PositionEditor rows=rows currency="EUR" discount=Decimal::ZERO tax=Decimal::from(19) reverse_charge=false allow_optional=true /> }
    });
    settle().await;
    assert_eq!(text(&root, "[data-total=gross]"), "178.50 EUR");
    let boxes = root
        .query_selector_all("input[aria-label='Optional position']")
        .unwrap();
    assert_eq!(boxes.length(), 2);
    let second: HtmlInputElement = boxes.item(1).unwrap().unchecked_into();
    second.set_checked(true);
    let init = EventInit::new();
    init.set_bubbles(true);
    for kind in ["input", "change"] {
        second
            .dispatch_event(&Event::new_with_event_init_dict(kind, &init).unwrap())
            .unwrap();
    }
    settle().await;
    assert!(rows.get_untracked()[1].optional.get_untracked());
    assert_eq!(text(&root, "[data-total=net]"), "100.00 EUR");
    assert_eq!(text(&root, "[data-total=gross]"), "119.00 EUR");
}

#[wasm_bindgen_test]
fn picking_a_project_sets_company_currency_and_address() {
    let (a, b) = (company(1, "Alpha AG", "EUR"), company(2, "Beta SA", "CHF"));
    let companies = vec![a.clone(), b.clone()];
    let s = OfferFormState::blank("EUR");
    s.pick_project(Some(project(7, &b, "CHF")), &companies);
    assert_eq!(s.company_id.get_untracked(), Some(2));
    assert_eq!(s.currency.get_untracked(), "CHF");
    assert!(s.recipient_address.get_untracked().starts_with("Beta SA"));
    assert_eq!(s.currency_conflict(), None);
    // A currency that differs from the project's is an error at the field, before sending.
    s.currency.set("EUR".into());
    assert!(s.currency_conflict().unwrap().contains("CHF"));
    let (body, errors) = s.body();
    assert_eq!(body.project_id, Some(7));
    assert!(errors.contains_key("currency"), "{errors:?}");
}

#[wasm_bindgen_test]
fn picking_a_deal_sets_company_and_currency_and_drops_a_foreign_project() {
    let (a, b) = (company(1, "Alpha AG", "EUR"), company(2, "Beta SA", "CHF"));
    let companies = vec![a.clone(), b.clone()];
    let s = OfferFormState::blank("EUR");
    s.pick_project(Some(project(7, &b, "CHF")), &companies);
    s.pick_deal(Some(deal(3, &a, "USD")), &companies);
    assert_eq!(s.company_id.get_untracked(), Some(1));
    assert_eq!(s.currency.get_untracked(), "USD");
    assert!(
        s.project.get_untracked().is_none(),
        "the project of Beta SA is dropped"
    );
    assert!(s.recipient_address.get_untracked().starts_with("Alpha AG"));
    // Picking a company by hand takes its currency when no deal or project fixes one.
    s.pick_deal(None, &companies);
    s.pick_company(Some(&b));
    assert_eq!(
        (
            s.company_id.get_untracked(),
            s.currency.get_untracked().as_str()
        ),
        (Some(2), "CHF")
    );
    let (body, _) = s.body();
    assert_eq!(
        (body.company_id, body.deal_id, body.project_id),
        (Some(2), None, None)
    );
}

fn offer() -> Offer {
    let item = |title: &str, optional: bool| {
        json!({"id": 1, "type": "item", "title": title, "description": null,
        "quantity": 2, "unit": "h", "unit_price": 50, "net_total": 100.00, "optional": optional})
    };
    parse(json!({
        "id": 5, "identifier": "A2611-001", "status": "accepted", "date": "2026-11-02", "due_date": "2026-12-02",
        "title": "Harbour app", "recipient_address": "Beta SA\nKai 1", "currency": "CHF", "net_total": 100.00,
        "gross_total": 119.00, "tax": 19, "discount": 0, "tags": [], "custom_properties": {}, "print_detail_columns": true,
        "vat": {"tax": 19, "reverse_charge": false, "intra_eu": false, "active": true, "print_gross_total": true,
            "notice_tax_exemption": "", "notice_tax_exemption_en": ""},
        "company": {"id": 2, "name": "Beta SA"}, "project": {"id": 7, "name": "App"}, "deal": null, "contact": null,
        "user": null, "offer_confirmation": null, "customer_approval": null, "file_url": null,
        "items": [
            {"id": 0, "type": "title", "title": "Phase 1", "description": null, "quantity": null, "unit": null, "unit_price": null, "net_total": 0, "optional": false},
            item("Design", false), item("Extra support", true)
        ]
    }))
}

#[wasm_bindgen_test]
fn an_offer_fills_the_invoice_form_without_optional_positions() {
    let s = InvoiceFormState::blank("EUR");
    apply_offer(&s, &offer());
    let titles: Vec<String> = s
        .rows
        .get_untracked()
        .iter()
        .map(|r| r.title.get_untracked())
        .collect();
    assert_eq!(titles, ["Phase 1", "Design"]);
    assert_eq!(s.customer_id.get_untracked(), Some(2));
    assert_eq!(s.project_id.get_untracked(), Some(7));
    assert_eq!(s.recipient_address.get_untracked(), "Beta SA\nKai 1");
    assert_eq!(s.currency.get_untracked(), "CHF");
    assert_eq!(
        s.offer_id.get_untracked(),
        Some(5),
        "the invoice links the offer"
    );
    let (body, _) = s.body(kontor_model::status::InvoiceStatus::Created);
    assert_eq!(body.offer_id, Some(5));
    let design = &s.rows.get_untracked()[1];
    assert_eq!(
        (
            design.quantity.get_untracked(),
            design.unit_price.get_untracked()
        ),
        ("2".into(), "50".into())
    );
}

#[wasm_bindgen_test]
fn the_contact_is_the_default_recipient_else_the_company() {
    let c = company(2, "Beta SA", "CHF");
    let person: Person = parse(
        json!({"id": 4, "firstname": "Eva", "lastname": "Kai", "email": "eva@beta.example", "company": null}),
    );
    assert_eq!(
        offer_recipients(person.email.as_deref(), Some(&c)).to,
        "eva@beta.example"
    );
    assert_eq!(offer_recipients(None, Some(&c)).to, "ap2@x.example");
    assert_eq!(offer_recipients(None, None).to, "");
}

#[wasm_bindgen_test]
fn the_offer_form_shows_and_sends_the_customers_vat_default() {
    let mut uk = company(9, "Thames Ltd", "EUR");
    uk.customer_vat = kontor_model::party::CustomerVat {
        tax: Some(kontor_model::Decimal::new(20, 0)),
        reverse_charge: true,
        intra_eu: false,
    };
    let s = OfferFormState::blank("EUR");
    assert_eq!(s.tax.get_untracked(), "19");
    s.pick_company(Some(&uk));
    assert_eq!(s.tax.get_untracked(), "0", "reverse charge: 0 % shown");
    assert!(s.reverse_charge.get_untracked());
    let (body, _) = s.body();
    let vat = body.vat.expect("the flags shown are sent");
    assert_eq!(vat.reverse_charge, Some(true));
    s.reverse_charge.set(false);
    s.tax.set("20".into());
    let (body, _) = s.body();
    assert_eq!(body.vat.unwrap().reverse_charge, Some(false), "editable");
    assert_eq!(body.tax, Some(kontor_model::Decimal::new(20, 0)));
    s.pick_company(Some(&company(3, "Gamma", "EUR")));
    assert_eq!(
        (
            s.tax.get_untracked().as_str(),
            s.reverse_charge.get_untracked()
        ),
        ("19", false)
    );
}

fn default_texts() -> kontor_model::account::DocumentTexts {
    serde_json::from_str(&(json!({
        "de": {"invoice_salutation": "Sehr geehrte Damen und Herren,\nanbei die Rechnung.", "invoice_footer": "Vielen Dank!",
               "offer_salutation": "Gerne bieten wir an:", "offer_footer": "Gültig 30 Tage."},
        "en": {"invoice_salutation": "Dear Sir or Madam,", "invoice_footer": "Thank you!",
               "offer_salutation": "We are pleased to offer:", "offer_footer": "Valid for 30 days."}
    })).to_string())
    .unwrap()
}

#[wasm_bindgen_test]
fn picking_a_company_fills_the_default_texts_of_its_language_and_keeps_typed_text() {
    use kontor_model::party::Language;
    let german = company(1, "Muster GmbH", "EUR");
    let mut english = company(2, "Acme Ltd", "EUR");
    english.language = Language::En;

    let s = OfferFormState::blank("EUR");
    s.default_texts.set(default_texts());
    s.pick_company(Some(&german));
    assert_eq!(s.salutation.get_untracked(), "Gerne bieten wir an:");
    assert_eq!(s.footer.get_untracked(), "Gültig 30 Tage.");
    s.footer.set("Typed by hand".into());
    s.pick_company(Some(&english));
    assert_eq!(
        s.salutation.get_untracked(),
        "We are pleased to offer:",
        "a filled-in text follows the language"
    );
    assert_eq!(
        s.footer.get_untracked(),
        "Typed by hand",
        "typed text stays"
    );
    s.salutation.set(String::new());
    assert_eq!(
        s.body().0.salutation.as_deref(),
        Some(""),
        "an emptied text is sent empty, not left to the server's default"
    );

    let i = InvoiceFormState::blank("EUR");
    i.default_texts.set(default_texts());
    i.apply_customer(&german, &["EUR".to_string()]);
    assert_eq!(
        i.salutation.get_untracked(),
        "Sehr geehrte Damen und Herren,<br>anbei die Rechnung."
    );
    i.apply_customer(&english, &["EUR".to_string()]);
    assert_eq!(i.footer.get_untracked(), "Thank you!");

    // A stored draft (no texts set) keeps what it has.
    let draft = InvoiceFormState::blank("EUR");
    draft.apply_customer(&english, &["EUR".to_string()]);
    assert_eq!(draft.salutation.get_untracked(), "");
}

#[wasm_bindgen_test]
fn the_edit_form_is_filled_from_the_offer_with_its_optional_positions() {
    let beta = company(2, "Beta SA", "CHF");
    let app = project(7, &beta, "CHF");
    let s = OfferFormState::from_offer(&offer(), &[], std::slice::from_ref(&app));
    assert_eq!(s.company_id.get_untracked(), Some(2));
    assert_eq!(s.project.get_untracked().map(|p| p.id), Some(7));
    assert_eq!(s.title.get_untracked(), "Harbour app");
    assert_eq!(s.date.get_untracked(), "2026-11-02");
    assert_eq!(s.due_date.get_untracked(), "2026-12-02");
    assert_eq!(s.currency.get_untracked(), "CHF");
    assert_eq!(
        s.discount.get_untracked(),
        "",
        "a zero discount stays empty"
    );
    let rows = s.rows.get_untracked();
    let shown: Vec<(String, bool)> = rows
        .iter()
        .map(|r| (r.title.get_untracked(), r.optional.get_untracked()))
        .collect();
    assert_eq!(
        shown,
        [
            ("Phase 1".to_string(), false),
            ("Design".to_string(), false),
            ("Extra support".to_string(), true)
        ]
    );
    // The body sent with PUT /offers/{id} carries the same offer back.
    let (body, errors) = s.body();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(body.project_id, Some(7));
    assert_eq!(body.company_id, Some(2));
    let items = body.items.unwrap();
    assert_eq!(items.len(), 3);
    assert_eq!(items[2].optional, Some(true));
    assert_eq!(items[1].quantity, Some(Decimal::from(2)));
    assert_eq!(items[1].unit_price, Some(Decimal::from(50)));
}

/// Issue 31: the signature pad's keyboard alternative. Typing the name writes it on the
/// canvas and makes the signature a PNG data URL; clearing the name empties it; "Clear"
/// and a switch back to drawing reset it.
#[wasm_bindgen_test]
async fn the_typed_name_is_the_keyboard_alternative_of_the_signature_pad() {
    use kontor_app::components::signature_pad::SignaturePad;
    let root = {
        let el: HtmlElement = document().create_element("div").unwrap().unchecked_into();
        document().body().unwrap().append_child(&el).unwrap();
        el
    };
    let signature = RwSignal::new(None::<String>);
    let _handle = leptos::mount::mount_to(
        root.clone(),
        move || view! { <SignaturePad signature=signature /> },
    );
    let find = |css: &str| -> HtmlElement {
        root.query_selector(css)
            .unwrap()
            .unwrap_or_else(|| panic!("no {css}"))
            .unchecked_into()
    };
    let fire = |target: &HtmlElement, kind: &str| {
        let init = EventInit::new();
        init.set_bubbles(true);
        target
            .dispatch_event(&Event::new_with_event_init_dict(kind, &init).unwrap())
            .unwrap();
    };
    assert!(signature.get_untracked().is_none(), "empty at first");
    assert!(
        root.query_selector("#signature-typed").unwrap().is_none(),
        "drawing is the default"
    );
    let typed_mode = find("#signature-mode-type");
    typed_mode
        .unchecked_ref::<HtmlInputElement>()
        .set_checked(true);
    fire(&typed_mode, "change");
    settle().await;
    let typed = find("#signature-typed");
    typed
        .unchecked_ref::<HtmlInputElement>()
        .set_value("Erika Mustermann");
    fire(&typed, "input");
    settle().await;
    let png = signature
        .get_untracked()
        .expect("a signature once a name is typed");
    assert!(png.starts_with("data:image/png;base64,"), "{}", &png[..40]);
    assert!(
        png.len() > 1_000 && png.len() < 200_000,
        "a real drawing within the server's limit: {}",
        png.len()
    );
    assert!(
        !find("#signature-clear").has_attribute("disabled"),
        "Clear is offered"
    );
    typed.unchecked_ref::<HtmlInputElement>().set_value("  ");
    fire(&typed, "input");
    settle().await;
    assert!(
        signature.get_untracked().is_none(),
        "a blank name is no signature"
    );
    typed.unchecked_ref::<HtmlInputElement>().set_value("E. M.");
    fire(&typed, "input");
    settle().await;
    assert!(signature.get_untracked().is_some());
    find("#signature-clear").click();
    assert!(signature.get_untracked().is_none(), "Clear empties it");
    let draw_mode = find("#signature-mode-draw");
    draw_mode
        .unchecked_ref::<HtmlInputElement>()
        .set_checked(true);
    fire(&draw_mode, "change");
    settle().await;
    assert!(root.query_selector("#signature-typed").unwrap().is_none());
}
