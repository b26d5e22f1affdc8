//! German and English (issue 12, `docs/decisions.md` § German and English in the app): the
//! catalogues are complete, and in German the app shows German words, `23.11.2026` and
//! `1.234,56 €` and reads `1.234,56` typed into a number field.
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target wasm32-unknown-unknown --test components -- i18n::`.
//!
//! The test browser is English; each test that needs German sets it and resets it when it
//! ends (also when it fails).
#![cfg(target_arch = "wasm32")]

#[allow(dead_code)]
#[path = "../../build/catalogue.rs"]
mod catalogue;
use crate::support::{dom, fixtures};

use chrono::NaiveDate;
use dom::{container, d, settle, speak, text, texts, Reset};
use kontor_app::components::date::format_date;
use kontor_app::components::list_totals::count_text;
use kontor_app::components::locale::parse_typed;
use kontor_app::components::money::format_money;
use kontor_app::components::top_search::search_scope;
use kontor_app::i18n::{self, t, use_language, Lang};
use kontor_app::pages::invoices::list_table::InvoiceTable;
use leptos::prelude::*;
use leptos_router::components::Router;
use wasm_bindgen_test::*;

include!(concat!(env!("OUT_DIR"), "/catalogue_sources.rs"));

#[wasm_bindgen_test]
fn the_catalogues_have_every_key_in_both_languages() {
    let files = |lang: &str| -> Vec<(String, String)> {
        SOURCES
            .iter()
            .filter(|(l, _, _)| *l == lang)
            .map(|(_, name, json)| (name.to_string(), json.to_string()))
            .collect()
    };
    assert!(files("en").len() == files("de").len() && !files("en").is_empty());
    let en = catalogue::merge(&files("en")).unwrap();
    let de = catalogue::merge(&files("de")).unwrap();
    let problems = catalogue::problems(&[("en", &en), ("de", &de)]);
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(en.values().map(|keys| keys.len()).sum::<usize>() > 50);
}

#[wasm_bindgen_test]
fn a_namespace_in_two_files_is_refused() {
    let a = (
        "locales/en/a.json".to_string(),
        r#"{"nav": {"invoices": "Invoices"}}"#.to_string(),
    );
    let b = (
        "locales/en/b.json".to_string(),
        r#"{"nav": {"offers": "Offers"}}"#.to_string(),
    );
    let err = catalogue::merge(&[a.clone(), b]).unwrap_err();
    assert!(err.contains("`nav`") && err.contains("b.json"), "{err}");
    let c = (
        "locales/en/c.json".to_string(),
        r#"{"offers": {"title": "Offers"}}"#.to_string(),
    );
    let merged = catalogue::merge(&[a, c]).unwrap();
    assert_eq!(merged.len(), 2);
}

#[wasm_bindgen_test]
fn a_missing_or_empty_translation_is_reported() {
    let en = catalogue::parse(
        "en",
        r#"{"nav": {"invoices": "Invoices", "offers": "Offers", "due": "Due {date}"}}"#,
    )
    .unwrap();
    let de = catalogue::parse(
        "de",
        r#"{"nav": {"invoices": "Rechnungen", "offers": " ", "due": "Fällig", "extra": "x"}}"#,
    )
    .unwrap();
    let problems = catalogue::problems(&[("en", &en), ("de", &de)]);
    assert!(
        problems
            .iter()
            .any(|p| p.contains("`nav.offers` is empty in de")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("`nav.extra` is missing in en")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("`nav.due`: placeholders")),
        "{problems:?}"
    );
    assert_eq!(problems.len(), 3, "{problems:?}");
}

#[wasm_bindgen_test]
fn german_words_dates_and_amounts() {
    let _reset = speak(Lang::De);
    assert_eq!(t().nav().invoices, "Rechnungen");
    assert_eq!(i18n::status_label("partially_paid"), "Teilweise bezahlt");
    assert_eq!(count_text(3, "invoices"), "3 Rechnungen");
    assert_eq!(count_text(1, "offers"), "1 Angebot");
    assert_eq!(search_scope("/offers/7").label(), "Angebote durchsuchen");
    let day = NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
    assert_eq!(format_date(day), "23.11.2026");
    assert_eq!(
        format_date(NaiveDate::from_ymd_opt(2026, 1, 5).unwrap()),
        "05.01.2026"
    );
    assert_eq!(format_money(d("1234.56"), "EUR"), "1.234,56 €");
    assert_eq!(format_money(d("-0.5"), "EUR"), "-0,50 €");
    assert_eq!(format_money(d("1234567.891"), "EUR"), "1.234.567,89 €");
}

#[wasm_bindgen_test]
fn english_words_dates_and_amounts() {
    let _reset = speak(Lang::En);
    assert_eq!(t().nav().invoices, "Invoices");
    assert_eq!(count_text(1, "invoices"), "1 invoice");
    assert_eq!(search_scope("/offers").placeholder(), "Search offers…");
    assert_eq!(i18n::status_label("partially_paid"), "Partially paid");
    let day = NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
    assert_eq!(format_date(day), "23 Nov 2026");
    assert_eq!(format_money(d("1234.56"), "EUR"), "1,234.56 EUR");
    assert_eq!(
        format_money(d("12345678901234.5"), "EUR"),
        "12,345,678,901,234.50 EUR"
    );
}

#[wasm_bindgen_test]
fn the_german_number_input_accepts_german_numbers() {
    let _reset = speak(Lang::De);
    assert_eq!(parse_typed("1.234,56"), Ok(Some(d("1234.56"))));
    assert_eq!(parse_typed("12,5"), Ok(Some(d("12.5"))));
    assert!(parse_typed("1.234.56").is_err());
    use_language(Some(Lang::En));
    assert_eq!(parse_typed("1,234.56"), Ok(Some(d("1234.56"))));
    assert!(parse_typed("1.234,56").is_err());
}

#[wasm_bindgen_test]
async fn a_chosen_language_is_stored_and_sets_the_page_language() {
    let _reset = Reset;
    i18n::set_language(Lang::De);
    settle().await;
    let html = leptos::prelude::document().document_element().unwrap();
    assert_eq!(html.get_attribute("lang").as_deref(), Some("de"));
    i18n::reset_language();
    assert_eq!(i18n::language(), Lang::De, "read back from localStorage");
    i18n::set_language(Lang::En);
    let storage = leptos::prelude::window().local_storage().unwrap().unwrap();
    storage.remove_item(i18n::LANGUAGE_STORAGE_KEY).unwrap();
    i18n::reset_language();
    assert_eq!(
        i18n::language(),
        Lang::En,
        "the default in an English browser"
    );
}

#[wasm_bindgen_test]
async fn the_invoice_list_speaks_german() {
    let _reset = speak(Lang::De);
    let mut invoice = fixtures::invoice(&[]);
    invoice.date = NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
    invoice.gross_total = d("1234.56");
    invoice.open_amount = d("1234.56");
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! {
            <Router>
                <InvoiceTable invoices=vec![serde_json::from_str(&serde_json::to_string(&invoice).unwrap()).unwrap()] sort=Signal::derive(|| None)
                    on_sort=Callback::new(|_| ()) />
            </Router>
        }
    });
    settle().await;
    assert_eq!(t().nav().invoices, "Rechnungen");
    let table = dom::find(&root, ".invoices-table");
    assert_eq!(texts(&table, "td.cell-date")[0], "23.11.2026");
    assert_eq!(text(&table, "td[data-cell=gross]"), "1.234,56 €");
    assert_eq!(text(&table, ".badge"), "Versendet");
    let headings = texts(&table, "th");
    assert!(
        headings.iter().any(|h| h.contains("Bruttobetrag")),
        "{headings:?}"
    );
    drop(handle);
}
