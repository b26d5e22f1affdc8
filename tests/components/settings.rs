//! Component tests of the Settings page (issue 9) in headless Chromium: the live example
//! of a number format, field errors of the shared validation shown at the field before
//! anything is sent (bad IBAN, bad VAT ID, a default currency that is not listed), a 422's
//! errors at the field, the write-only SMTP password and the read-only view.
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target wasm32-unknown-unknown --test components -- settings::`.
#![cfg(target_arch = "wasm32")]

use chrono::NaiveDate;
use kontor_app::components::date::today;
use kontor_app::components::locale::set_locale;
use kontor_app::components::toast::Toasts;
use kontor_app::pages::settings::documents::NumberFormats;
use kontor_app::pages::settings::email::{email_body, EmailSection};
use kontor_app::pages::settings::env::{account_json, SettingsEnv};
use kontor_app::pages::settings::field_spec::FieldSpec;
use kontor_app::pages::settings::fields::{FieldGrid, SectionCard};
use kontor_app::pages::settings::rules::number_example;
use kontor_app::pages::settings::section::Section;
use kontor_app::pages::settings::specs::{BANK, COMPANY, DATEV, DOCUMENTS, EINVOICE, EMAIL, TAXES};
use kontor_model::account::{Account, SmtpSecurity, SmtpSettings};
use kontor_model::error::FieldErrors;
use kontor_model::number_input::Locale;
use leptos::prelude::*;
use serde_json::{json, Value};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlInputElement};

use crate::support::dom;

use dom::{find, fire, settle, text};

/// A fresh container; what earlier tests mounted is removed (the cards share ids).
fn container() -> HtmlElement {
    let old = document().query_selector_all(".test-root").unwrap();
    for i in 0..old.length() {
        if let Some(node) = old.item(i) {
            node.unchecked_into::<web_sys::Element>().remove();
        }
    }
    dom::close_open_dialogs();
    let el: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    el.set_class_name("test-root");
    document().body().unwrap().append_child(&el).unwrap();
    el
}

/// Types `text` into the input at `selector` under `root` as a user would.
fn type_into(root: &HtmlElement, selector: &str, text: &str) {
    dom::type_into(&find(root, selector), text);
}

/// An account as the server answers it: today's number formats, EUR and CHF.
fn account() -> Account {
    Account {
        name: "Kontor GmbH".into(),
        address: "Hafenstraße 1\n20457 Hamburg".into(),
        currencies: vec!["EUR".into(), "CHF".into()],
        default_currency: "EUR".into(),
        default_invoice_due_days: 14,
        invoice_number_format: "R{YY}{MM}-{NNN}".into(),
        offer_number_format: "A{YY}{MM}-{NNN}".into(),
        purchase_number_format: "E{YY}{MM}-{NNNN}".into(),
        ..Account::default()
    }
}

/// Mounts a section card with `specs` whose Save records the bodies it would send.
fn mount_card(
    specs: &'static [FieldSpec],
    account: Account,
    read_only: bool,
) -> (HtmlElement, Section, RwSignal<Vec<Value>>) {
    let root = container();
    let json = account_json(&account);
    let env = SettingsEnv::new(account, read_only);
    let section = Section::new(specs, &json);
    let sent = RwSignal::new(Vec::<Value>::new());
    let on_save = Callback::new(move |body: Value| sent.update(|s| s.push(body)));
    let handle = mount_to(root.clone(), move || {
        view! {
            <SectionCard id="card" title="Card" section=section validate=env.validate
                on_save=on_save pending=false read_only=env.read_only>
                <FieldGrid section=section />
            </SectionCard>
        }
    });
    std::mem::forget(handle);
    (root, section, sent)
}

fn click_save(root: &HtmlElement) {
    find(root, "#card-save").click();
}

#[wasm_bindgen_test]
fn the_example_is_the_model_rendering_the_first_number() {
    let day = NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
    assert_eq!(number_example("R{YY}{MM}-{NNN}", day).unwrap(), "R2611-001");
    assert_eq!(number_example("{YYYY}-{NNNNN}", day).unwrap(), "2026-00001");
    assert_eq!(number_example("KD/{YY}/{N}", day).unwrap(), "KD/26/1");
    assert!(
        number_example("R{MM}-{NNN}", day).is_err(),
        "a month needs a year"
    );
    assert!(
        number_example("R{YY}", day).is_err(),
        "a counter is required"
    );
}

#[wasm_bindgen_test]
async fn the_number_format_example_follows_typing() {
    let root = container();
    let section = Section::new(DOCUMENTS, &account_json(&account()));
    let handle = mount_to(
        root.clone(),
        move || view! { <NumberFormats section=section /> },
    );
    settle().await;
    let yy = today().format("%y").to_string();
    let yyyy = today().format("%Y").to_string();
    let mm = today().format("%m").to_string();
    let example = "#f-invoice_number_format-example";
    assert!(
        text(&root, example).contains(&format!("R{yy}{mm}-001")),
        "{}",
        text(&root, example)
    );
    assert!(text(&root, example).contains("every month"));
    assert!(text(&root, "#f-purchase_number_format-example").contains(&format!("E{yy}{mm}-0001")));

    type_into(&root, "#f-invoice_number_format", "{YYYY}-{NNNNN}");
    settle().await;
    assert!(text(&root, example).contains(&format!("{yyyy}-00001")));
    assert!(text(&root, example).contains("every year"));

    type_into(&root, "#f-invoice_number_format", "INV{MM}-{NNN}");
    settle().await;
    assert!(
        text(&root, example).starts_with("No example: the format needs {YY} or {YYYY}"),
        "{}",
        text(&root, example)
    );
    assert!(section.is_dirty());
    drop(handle);
}

#[wasm_bindgen_test]
async fn a_bad_iban_shows_at_the_field_and_nothing_is_sent() {
    let (root, _section, sent) = mount_card(BANK, account(), false);
    settle().await;
    type_into(&root, "#f-account_holder", "Kontor GmbH");
    type_into(&root, "#f-iban", "DE89 3704 0044 0532 0130 01"); // check digits wrong
    click_save(&root);
    settle().await;
    assert!(
        text(&root, "#f-iban-error").contains("not a valid IBAN"),
        "{}",
        text(&root, "#f-iban-error")
    );
    assert_eq!(
        find(&root, "#f-iban")
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("true")
    );
    assert_eq!(text(&root, "#f-account_holder-error"), "");
    assert!(text(&root, ".settings-problem").contains("Please correct the marked fields."));
    assert!(sent.get_untracked().is_empty(), "nothing may be sent");

    // Typing clears the mark; a correct IBAN is sent with the section's other fields.
    type_into(&root, "#f-iban", "DE89 3704 0044 0532 0130 00");
    settle().await;
    assert_eq!(text(&root, "#f-iban-error"), "");
    click_save(&root);
    settle().await;
    let mut bodies = sent.get_untracked();
    assert_eq!(bodies.len(), 1);
    // The section's GiroCode switch (issue 32) goes along as a flag.
    let girocode = bodies[0].as_object_mut().unwrap().remove("girocode");
    assert!(
        girocode.is_some_and(|g| g.is_boolean()),
        "the GiroCode switch is sent"
    );
    assert_eq!(
        bodies[0],
        json!({"account_holder": "Kontor GmbH", "bank_name": "", "iban": "DE89 3704 0044 0532 0130 00", "bic": ""})
    );
}

#[wasm_bindgen_test]
async fn a_bad_vat_id_shows_at_the_field_and_nothing_is_sent() {
    let (root, _section, sent) = mount_card(COMPANY, account(), false);
    settle().await;
    type_into(&root, "#f-vat_identifier", "DE123456789"); // checksum fails
    type_into(&root, "#f-email", "not-an-address");
    click_save(&root);
    settle().await;
    assert!(
        !text(&root, "#f-vat_identifier-error").is_empty(),
        "the VAT ID error shows at the field"
    );
    assert!(!text(&root, "#f-email-error").is_empty());
    assert!(sent.get_untracked().is_empty());
    // The focus went to the first marked field.
    let active = document().active_element().map(|e| e.id());
    assert_eq!(active.as_deref(), Some("f-vat_identifier"));

    type_into(&root, "#f-vat_identifier", "DE123456788");
    type_into(&root, "#f-email", "office@kontor.example");
    click_save(&root);
    settle().await;
    let bodies = sent.get_untracked();
    assert_eq!(bodies.len(), 1);
    assert_eq!(bodies[0]["vat_identifier"], "DE123456788");
    assert_eq!(bodies[0]["name"], "Kontor GmbH");
    assert_eq!(bodies[0]["tax_number"], "", "blank removes the value");
}

#[wasm_bindgen_test]
async fn the_default_currency_must_be_one_of_the_currencies() {
    let (root, _section, sent) = mount_card(TAXES, account(), false);
    settle().await;
    assert_eq!(
        find(&root, "#f-default_tax")
            .unchecked_into::<HtmlInputElement>()
            .value(),
        "0"
    );
    type_into(&root, "#f-currencies", "usd");
    type_into(&root, "#f-default_tax", "7.5");
    click_save(&root);
    settle().await;
    // The choice offers only USD now and still holds EUR: the model says no.
    assert!(
        text(&root, "#f-default_currency-error").contains("not one of the account's currencies"),
        "{}",
        text(&root, "#f-default_currency-error")
    );
    assert!(sent.get_untracked().is_empty());
    type_into(&root, "#f-default_tax", "abc");
    click_save(&root);
    settle().await;
    assert!(
        !text(&root, "#f-default_tax-error").is_empty(),
        "not a number"
    );
}

#[wasm_bindgen_test]
async fn numbers_are_read_and_shown_in_the_users_locale() {
    /// The browser's locale again when the test ends, also when it fails.
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            set_locale(None);
        }
    }
    let _reset = Reset;
    set_locale(Some(Locale::De));
    let mut german = account();
    german.default_tax = "7.5".parse().unwrap();
    let (root, _section, sent) = mount_card(TAXES, german, false);
    settle().await;
    let tax = || {
        find(&root, "#f-default_tax")
            .unchecked_into::<HtmlInputElement>()
            .value()
    };
    assert_eq!(tax(), "7,5", "shown as a German writes it");
    type_into(&root, "#f-default_tax", "16,5");
    type_into(&root, "#f-default_invoice_due_days", "30");
    click_save(&root);
    settle().await;
    let bodies = sent.get_untracked();
    assert_eq!(bodies.len(), 1, "{:?}", text(&root, ".settings-problem"));
    assert_eq!(bodies[0]["default_tax"].to_string(), "16.5");
    assert_eq!(bodies[0]["default_invoice_due_days"], 30);
    assert_eq!(bodies[0]["currencies"], json!(["EUR", "CHF"]));
    assert_eq!(bodies[0]["default_currency"], "EUR");
}

#[wasm_bindgen_test]
async fn the_einvoice_section_checks_the_creditor_id_and_switches_factur_x() {
    let (root, _section, sent) = mount_card(EINVOICE, account(), false);
    settle().await;
    let switch = find(&root, "#f-factur_x").unchecked_into::<HtmlInputElement>();
    assert!(switch.checked(), "Factur-X is on by default");
    assert_eq!(switch.get_attribute("role").as_deref(), Some("switch"));
    // Wrong check digits and a broken e-mail: marked, nothing sent.
    type_into(&root, "#f-sepa_creditor_identifier", "DE99ZZZ09999999999");
    type_into(&root, "#f-electronic_address", "rechnung@");
    click_save(&root);
    settle().await;
    assert!(
        text(&root, "#f-sepa_creditor_identifier-error").contains("check digits"),
        "{}",
        text(&root, "#f-sepa_creditor_identifier-error")
    );
    assert!(!text(&root, "#f-electronic_address-error").is_empty());
    assert!(sent.get_untracked().is_empty(), "nothing may be sent");

    type_into(
        &root,
        "#f-sepa_creditor_identifier",
        "DE98 ZZZ 0999 9999 999",
    );
    type_into(&root, "#f-electronic_address", "rechnung@kontor.example");
    switch.click();
    settle().await;
    assert!(text(&root, ".settings-switch").contains("Off"));
    assert!(text(&root, ".settings-dirty").contains("Unsaved changes"));
    click_save(&root);
    settle().await;
    let bodies = sent.get_untracked();
    assert_eq!(bodies.len(), 1, "{:?}", text(&root, ".settings-problem"));
    assert_eq!(
        bodies[0],
        json!({"electronic_address": "rechnung@kontor.example",
               "sepa_creditor_identifier": "DE98 ZZZ 0999 9999 999", "factur_x": false})
    );
}

#[wasm_bindgen_test]
async fn a_422_shows_at_its_field() {
    let (root, section, _sent) = mount_card(COMPANY, account(), false);
    settle().await;
    let mut errors = FieldErrors::new();
    errors.insert(
        "website".into(),
        vec![kontor_model::error::messages::IS_NOT_WEB_ADDRESS.into()],
    );
    errors.insert(
        "smtp.host".into(),
        vec![kontor_model::error::messages::IS_REQUIRED.into()],
    );
    section.errors.set(errors);
    settle().await;
    assert_eq!(text(&root, "#f-website-error"), "is not a web address");
    let problem = text(&root, ".settings-problem");
    assert!(
        problem.contains("Please correct the marked fields."),
        "{problem}"
    );
    // A field the section does not show is named by its label, never its wire path.
    assert!(problem.contains("SMTP server is required"), "{problem}");
    assert!(!problem.contains("smtp.host"), "{problem}");
}

#[wasm_bindgen_test]
async fn the_password_is_write_only() {
    let mut with_smtp = account();
    with_smtp.smtp = Some(SmtpSettings {
        host: "smtp.kontor.example".into(),
        port: 587,
        security: SmtpSecurity::Starttls,
        user: Some("mailer".into()),
        password_set: true,
    });
    let (root, section, sent) = mount_card(EMAIL, with_smtp.clone(), false);
    settle().await;
    let password: HtmlInputElement = find(&root, "#f-smtp_password").unchecked_into();
    assert_eq!(password.type_(), "password");
    assert_eq!(password.value(), "", "the stored password is never shown");
    assert_eq!(
        find(&root, "#f-smtp_host")
            .unchecked_into::<HtmlInputElement>()
            .value(),
        "smtp.kontor.example"
    );
    click_save(&root);
    settle().await;
    let body = sent.get_untracked()[0].clone();
    assert_eq!(
        body,
        json!({"smtp": {"host": "smtp.kontor.example", "port": 587, "security": "starttls", "user": "mailer"}}),
        "no password unless one is typed"
    );
    type_into(&root, "#f-smtp_password", "s3cret");
    let env = SettingsEnv::new(with_smtp, false);
    let typed = email_body(section, env.validate, true).unwrap();
    assert_eq!(typed["smtp"]["password"], "s3cret");
    assert_eq!(
        email_body(section, env.validate, false),
        Some(json!({"smtp": null})),
        "off: back to the outbox"
    );
}

#[wasm_bindgen_test]
async fn smtp_switched_on_starts_with_starttls_on_its_usual_port() {
    let root = container();
    let env = SettingsEnv::new(account(), false);
    let section = Section::new(EMAIL, &account_json(&account()));
    let (smtp_on, smtp_saved) = (RwSignal::new(false), RwSignal::new(false));
    let handle = mount_to(root.clone(), move || {
        Toasts::provide();
        view! {
            <EmailSection section=section smtp_on=smtp_on smtp_saved=smtp_saved
                account_email="office@kontor.example".to_string() password_set=false env=env />
        }
    });
    settle().await;
    assert!(
        root.query_selector("#f-smtp_host").unwrap().is_none(),
        "off: no fields"
    );
    assert!(!section.is_dirty(), "nothing typed yet");
    let on: HtmlInputElement = find(&root, "#f-smtp_on").unchecked_into();
    on.click();
    settle().await;
    let value = |css: &str| {
        find(&root, css)
            .unchecked_into::<web_sys::HtmlSelectElement>()
            .value()
    };
    assert_eq!(value("#f-smtp_security"), "starttls");
    let port = || {
        find(&root, "#f-smtp_port")
            .unchecked_into::<HtmlInputElement>()
            .value()
    };
    assert_eq!(port(), "587");
    let security: web_sys::HtmlSelectElement = find(&root, "#f-smtp_security").unchecked_into();
    security.set_value("tls");
    fire(&security, "change");
    settle().await;
    assert_eq!(port(), "465", "the usual port follows the security");
    type_into(&root, "#f-smtp_port", "2525");
    security.set_value("starttls");
    fire(&security, "change");
    settle().await;
    assert_eq!(port(), "2525", "a port typed by hand stays");
    assert_eq!(text(&root, "#smtp-password-set"), "No password is stored.");
    drop(handle);
}

#[wasm_bindgen_test]
async fn a_read_only_key_cannot_change_anything() {
    let (root, _section, sent) = mount_card(BANK, account(), true);
    settle().await;
    let fieldset = find(&root, "fieldset");
    assert!(fieldset.has_attribute("disabled"));
    assert!(find(&root, "#card-save").has_attribute("disabled"));
    click_save(&root);
    settle().await;
    assert!(sent.get_untracked().is_empty());
}

#[wasm_bindgen_test]
async fn the_datev_section_checks_its_ranges_and_sends_a_blank_number_as_null() {
    // Issue 11: SKR03 defaults shown, out-of-range values marked by the model's rules
    // before anything is sent, a blank consultant number sent as null (removed).
    let mut stored = account();
    stored.datev.consultant_number = Some(29098);
    let (root, _section, sent) = mount_card(DATEV, stored, false);
    settle().await;
    let value = |css: &str| {
        find(&root, css)
            .unchecked_into::<HtmlInputElement>()
            .value()
    };
    assert_eq!(value("#f-datev_consultant_number"), "29098");
    assert_eq!(value("#f-datev_client_number"), "");
    assert_eq!(value("#f-datev_revenue_accounts_standard"), "8400");
    type_into(&root, "#f-datev_client_number", "100000");
    type_into(&root, "#f-datev_revenue_accounts_reduced", "83000");
    click_save(&root);
    settle().await;
    assert!(!text(&root, "#f-datev_client_number-error").is_empty());
    assert!(!text(&root, "#f-datev_revenue_accounts_reduced-error").is_empty());
    assert!(sent.get_untracked().is_empty(), "nothing may be sent");

    type_into(&root, "#f-datev_client_number", "55003");
    type_into(&root, "#f-datev_revenue_accounts_reduced", "8300");
    type_into(&root, "#f-datev_consultant_number", "");
    click_save(&root);
    settle().await;
    let bodies = sent.get_untracked();
    assert_eq!(bodies.len(), 1, "{:?}", text(&root, ".settings-problem"));
    assert_eq!(bodies[0]["datev"]["consultant_number"], Value::Null);
    assert_eq!(bodies[0]["datev"]["client_number"], 55003);
    assert_eq!(bodies[0]["datev"]["fiscal_year_start"], 1);
    assert_eq!(bodies[0]["datev"]["revenue_accounts"]["reduced"], 8300);
}
