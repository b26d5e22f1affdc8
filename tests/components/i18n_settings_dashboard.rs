//! The dashboard, the exports page and the Settings page in German (issue 12,
//! `docs/decisions.md` § German and English in the app): German words, `23.11.2026`,
//! `1.234,56 €`, German month and country names, and `1.234,56` typed into a settings
//! number field.
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target wasm32-unknown-unknown --test components -- i18n_settings_dashboard::`.
//!
//! The test browser is English; each test sets German and resets it when it ends (also
//! when it fails).
#![cfg(target_arch = "wasm32")]

use crate::support::dom;

use chrono::NaiveDate;
use dom::{container, d, find, settle, speak, text, texts, type_into};
use kontor_app::components::toast::Toasts;
use kontor_app::i18n::{use_language, Lang};
use kontor_app::pages::dashboard::DashboardView;
use kontor_app::pages::exports::ExportsPage;
use kontor_app::pages::settings::documents::example_text;
use kontor_app::pages::settings::env::{account_json, SettingsEnv};
use kontor_app::pages::settings::fields::{FieldGrid, SectionCard};
use kontor_app::pages::settings::section::Section;
use kontor_app::pages::settings::specs::{COMPANY, TAXES};
use kontor_model::account::Account;
use kontor_model::dashboard::{
    last_twelve_months, CurrencyAmount, Dashboard, MonthRevenue, OpenInvoice, Receivables, Revenue,
};
use kontor_model::party::IdName;
use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlSelectElement;

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

/// A dashboard of 23 November 2026: 1,234.56 EUR open, one invoice 12 days overdue, one
/// due next week, revenue in December 2025 and October 2026.
fn dashboard() -> Dashboard {
    let invoice = |id: i64, due: NaiveDate, days_overdue: i64| OpenInvoice {
        id,
        identifier: Some(format!("R2611-00{id}")),
        customer: IdName {
            id: 1,
            name: "Kranzler GmbH".into(),
        },
        due_date: due,
        open_amount: d("1234.56"),
        currency: "EUR".into(),
        days_overdue,
    };
    Dashboard {
        today: day(2026, 11, 23),
        receivables: Receivables {
            open: vec![CurrencyAmount {
                currency: "EUR".into(),
                count: 2,
                amount: d("2469.12"),
            }],
            overdue: vec![CurrencyAmount {
                currency: "EUR".into(),
                count: 1,
                amount: d("1234.56"),
            }],
            oldest: vec![
                invoice(4, day(2026, 11, 11), 12),
                invoice(5, day(2026, 12, 1), 0),
            ],
        },
        revenue: Revenue {
            currency: "EUR".into(),
            months: last_twelve_months(day(2026, 11, 23))
                .into_iter()
                .map(|month| MonthRevenue {
                    month,
                    net_total: match (month.year, month.month) {
                        (2025, 12) => d("1234.56"),
                        (2026, 10) => d("500.00"),
                        _ => d("0.00"),
                    },
                })
                .collect(),
        },
        purchases_awaiting_approval: vec![],
        offers_awaiting_answer: vec![],
        todo: kontor_model::dashboard::todo_list(day(2026, 11, 23), |_| 1),
    }
}

#[wasm_bindgen_test]
async fn the_dashboard_speaks_german_with_german_dates_and_amounts() {
    let _reset = speak(Lang::De);
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <DashboardView dashboard=dashboard() /> }
    });
    settle().await;
    assert_eq!(text(&root, ".dash-today"), "Stand: 23.11.2026");
    assert_eq!(
        text(&root, "[data-card=open] .section-title"),
        "Offene Forderungen"
    );
    assert_eq!(text(&root, "[data-card=open] .dash-amount"), "2.469,12 €");
    assert_eq!(text(&root, "[data-card=open] .dash-count"), "2 Rechnungen");
    assert_eq!(
        text(&root, "[data-card=overdue] .section-title"),
        "Überfällig"
    );
    assert_eq!(
        texts(&root, "[data-card=purchases] .dash-empty"),
        ["Keine Belege warten auf Freigabe."]
    );
    assert_eq!(
        texts(&root, "[data-card=oldest] th"),
        ["Nummer", "Kunde", "Fällig", "Offen"]
    );
    assert_eq!(
        texts(&root, "[data-card=oldest] td.cell-due"),
        ["12 Tage überfällig", "Fällig am 01.12.2026"]
    );
    assert_eq!(texts(&root, "[data-card=oldest] td.money")[0], "1.234,56 €");
    assert_eq!(
        text(&root, "[data-card=revenue] .section-title"),
        "Umsatz pro Monat (EUR, netto)"
    );
    // Month labels under the bars: German short names, never the English ones.
    let labels = texts(&root, ".chart-label");
    assert_eq!(labels.len(), 12);
    assert_eq!(labels[0], "Dez");
    assert_eq!(labels[10], "Okt");
    assert!(labels.contains(&"Mär".to_string()), "{labels:?}");
    assert!(
        !labels.iter().any(|l| l == "Dec" || l == "Oct"),
        "{labels:?}"
    );
    // The hidden table and the bars' names: month, year and the German amount.
    assert_eq!(
        texts(&root, ".revenue-chart thead th"),
        ["Monat", "Nettoumsatz"]
    );
    assert_eq!(texts(&root, ".revenue-chart tbody th")[0], "Dez 2025");
    assert_eq!(texts(&root, ".revenue-chart tbody td")[0], "1.234,56 €");
    let first = find(&root, ".chart-month a");
    assert_eq!(
        first.get_attribute("aria-label").as_deref(),
        Some("Dez 2025: 1.234,56 €: Rechnungen anzeigen")
    );
    drop(handle);
}

#[wasm_bindgen_test]
async fn the_exports_page_speaks_german() {
    let _reset = speak(Lang::De);
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), || {
        Toasts::provide();
        view! { <ExportsPage /> }
    });
    settle().await;
    assert_eq!(text(&root, "h1"), "Exporte");
    assert_eq!(text(&root, "#exports-period-title"), "Zeitraum");
    assert_eq!(text(&root, "#export-quick-last-month"), "Letzter Monat");
    assert_eq!(text(&root, "label[for=export-from]"), "Von");
    let hint = text(&root, ".exports-period .field-hint");
    assert!(hint.contains("Berater-/Mandantennummer"), "{hint}");
    assert_eq!(text(&root, ".field-hint a"), "Einstellungen");
    let titles = texts(&root, ".export-card .section-title");
    assert!(
        titles.contains(&"DATEV-Export (Buchungsstapel)".to_string()),
        "{titles:?}"
    );
    assert_eq!(
        text(&root, "#export-invoices"),
        "invoices.csv herunterladen"
    );
    type_into(&find(&root, "#export-to"), "2000-01-01");
    settle().await;
    assert_eq!(
        text(&root, "#export-period-error"),
        "Der Zeitraum endet, bevor er beginnt."
    );
    drop(handle);
}

/// Mounts a German settings card with `specs` whose Save records the bodies it would
/// send.
fn mount_card(
    specs: &'static [kontor_app::pages::settings::field_spec::FieldSpec],
    title: &'static str,
) -> (web_sys::HtmlElement, RwSignal<Vec<Value>>) {
    let root = container();
    let account = Account {
        name: "Kontor GmbH".into(),
        country_code: Some("DE".into()),
        currencies: vec!["EUR".into()],
        default_currency: "EUR".into(),
        default_invoice_due_days: 14,
        ..Account::default()
    };
    let json = account_json(&account);
    let env = SettingsEnv::new(account, false);
    let section = Section::new(specs, &json);
    let sent = RwSignal::new(Vec::<Value>::new());
    let on_save = Callback::new(move |body: Value| sent.update(|s| s.push(body)));
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! {
            <SectionCard id="card" title=title section=section validate=env.validate
                on_save=on_save pending=false read_only=env.read_only>
                <FieldGrid section=section />
            </SectionCard>
        }
    });
    std::mem::forget(handle);
    (root, sent)
}

#[wasm_bindgen_test]
async fn a_settings_section_speaks_german_and_reads_german_numbers() {
    let _reset = speak(Lang::De);
    let (root, sent) = mount_card(TAXES, "USt. & Vorgaben");
    settle().await;
    assert!(text(&root, "label[for=f-default_tax]").starts_with("Standard-Steuersatz (%)"));
    assert!(text(&root, "label[for=f-default_invoice_due_days]").contains("Zahlungsziel (Tage)"));
    assert_eq!(text(&root, "#card-save"), "Speichern");
    assert_eq!(
        find(&root, "#card-save")
            .get_attribute("aria-label")
            .as_deref(),
        Some("USt. & Vorgaben speichern")
    );

    // A blank payment term: said in German at the field, nothing is sent.
    type_into(&find(&root, "#f-default_tax"), "1.234,56");
    type_into(&find(&root, "#f-default_invoice_due_days"), "");
    settle().await;
    assert_eq!(text(&root, ".settings-dirty"), "Ungespeicherte Änderungen");
    find(&root, "#card-save").click();
    settle().await;
    assert_eq!(
        text(&root, "#f-default_invoice_due_days-error"),
        "ist erforderlich"
    );
    assert!(
        text(&root, ".settings-problem").contains("Bitte korrigieren Sie die markierten Felder.")
    );
    assert!(sent.get_untracked().is_empty());
    // 1.234,56 is read as 1234.56 (not refused as text): the model's range check says so,
    // in German.
    let tax = text(&root, "#f-default_tax-error");
    assert!(tax.starts_with("muss zwischen 0 und 100 liegen"), "{tax}");

    // German numbers are read as German: 19,5 % and 30 days.
    type_into(&find(&root, "#f-default_tax"), "19,5");
    type_into(&find(&root, "#f-default_invoice_due_days"), "30");
    find(&root, "#card-save").click();
    settle().await;
    assert_eq!(
        sent.get_untracked(),
        vec![
            serde_json::from_str::<serde_json::Value>(r#"{"currencies": ["EUR"], "default_currency": "EUR", "default_tax": 19.5, "default_invoice_due_days": 30, "finalized_invoice_deletion": "admins"}"#).unwrap()
        ]
    );
}

#[wasm_bindgen_test]
async fn the_company_section_names_countries_in_german() {
    let _reset = speak(Lang::De);
    let (root, _sent) = mount_card(COMPANY, "Unternehmen");
    settle().await;
    assert_eq!(text(&root, "label[for=f-vat_identifier]"), "USt-IdNr.");
    assert!(text(&root, "label[for=f-name]").contains("Firmenname"));
    let select: HtmlSelectElement = find(&root, "#f-country_code").unchecked_into();
    assert_eq!(select.value(), "DE");
    let shown = select
        .selected_options()
        .item(0)
        .and_then(|o| o.text_content())
        .unwrap_or_default();
    assert_eq!(shown, "Deutschland");
    let options = texts(&root, "#f-country_code option");
    assert!(options.contains(&"Österreich".to_string()));
    assert!(options.contains(&"Schweiz".to_string()));
}

#[wasm_bindgen_test]
fn number_format_examples_and_their_refusals_are_german() {
    let _reset = speak(Lang::De);
    let example = example_text("R{YY}{MM}-{NNN}");
    assert!(example.starts_with("Nächste Nummer z. B. R"), "{example}");
    assert!(
        example.ends_with("– der Zähler beginnt jeden Monat neu"),
        "{example}"
    );
    assert_eq!(
        example_text("INV{MM}-{NNN}"),
        "Kein Beispiel: Das Format braucht {YY} oder {YYYY}, wenn es {MM} verwendet, sonst kollidieren die Nummern zweier Jahre."
    );
    assert_eq!(
        example_text("R{XX}-{NNN}"),
        "Kein Beispiel: Das Format enthält einen unbekannten Platzhalter {XX} (erlaubt sind {YYYY}, {YY}, {MM} und ein Zähler wie {NNN})."
    );
    assert_eq!(
        example_text("R{NNN"),
        "Kein Beispiel: Das Format enthält eine { ohne schließende }."
    );
    use_language(Some(Lang::En));
    assert!(
        example_text("INV{MM}-{NNN}").starts_with("No example: the format needs {YY} or {YYYY}")
    );
}
