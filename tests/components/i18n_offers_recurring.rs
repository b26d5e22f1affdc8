//! German and English on the offer and recurring invoice pages (issue 12,
//! `docs/decisions.md` § German and English in the app): in German the offer's positions,
//! the recurring schedule and its history show German words, `01.11.2026`, `1.234,56 €`
//! and German numbers; the form's own messages are German too.
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target wasm32-unknown-unknown --test components -- i18n_offers_recurring::`.
//!
//! The test browser is English; each test that needs German sets it and resets it when it
//! ends (also when it fails).
#![cfg(target_arch = "wasm32")]

use crate::support::dom;

use chrono::NaiveDate;
use dom::{container, d, find, settle, speak, text, texts};
use kontor_app::components::field::localized_errors;
use kontor_app::i18n::{use_language, Lang};
use kontor_app::pages::offers::attachments::format_size;
use kontor_app::pages::offers::detail_sections::OfferPositions;
use kontor_app::pages::offers::form_state::OfferFormState;
use kontor_app::pages::recurring::detail::History;
use kontor_app::pages::recurring::form_state::RecurringFormState;
use kontor_app::pages::recurring::schedule_fields::{interval_label, mode_short, ScheduleFields};
use kontor_model::error::FieldErrors;
use kontor_model::offer::Offer;
use kontor_model::party::Project;
use kontor_model::recurring::{Interval, RecurringMode, RecurringRun};
use leptos::prelude::*;
use serde_json::json;
use wasm_bindgen_test::*;

fn offer() -> Offer {
    let item = |title: &str, quantity: f64, price: f64, net: f64, optional: bool| {
        json!({"id": 1, "type": "item", "title": title, "description": null,
        "quantity": quantity, "unit": "Std.", "unit_price": price, "net_total": net, "optional": optional})
    };
    serde_json::from_str(&(json!({
        "id": 5, "identifier": "A2611-001", "status": "sent", "date": "2026-11-02", "due_date": "2026-12-02",
        "title": "Hafen-App", "recipient_address": "Hafen Logistik GmbH\nKai 1", "currency": "EUR",
        "net_total": 1234.56, "gross_total": 1469.13, "tax": 19, "discount": 2.5, "tags": [],
        "custom_properties": {}, "print_detail_columns": true,
        "vat": {"tax": 19, "reverse_charge": false, "intra_eu": false, "active": true, "print_gross_total": true,
            "notice_tax_exemption": "", "notice_tax_exemption_en": ""},
        "company": {"id": 2, "name": "Hafen Logistik GmbH"}, "project": null, "deal": null, "contact": null,
        "user": null, "offer_confirmation": null, "customer_approval": null, "file_url": null,
        "created_at": "2026-11-02T09:00:00Z", "updated_at": "2026-11-02T09:00:00Z",
        "items": [
            item("Konzeption", 1.5, 823.04, 1234.56, false),
            item("Wartung", 1.0, 100.0, 100.0, true)
        ]
    })).to_string())
    .unwrap()
}

#[wasm_bindgen_test]
async fn the_offer_positions_speak_german() {
    let _reset = speak(Lang::De);
    let offer = offer();
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <OfferPositions offer=offer.clone() /> }
    });
    settle().await;
    let table = find(&root, "#offer-positions");
    assert_eq!(
        texts(&table, "th"),
        [
            "Titel / Beschreibung",
            "Menge",
            "Einheit",
            "Einzelpreis",
            "Nettobetrag"
        ]
    );
    let first = texts(&table, "tbody tr:first-child td");
    assert_eq!(first[1], "1,5", "{first:?}");
    assert_eq!(first[3], "823,04 €", "{first:?}");
    assert_eq!(first[4], "1.234,56 €", "{first:?}");
    // The optional position: marked in German, its amount in brackets.
    let second = texts(&table, "tbody tr.is-optional td");
    assert!(second[0].contains("Optional"), "{second:?}");
    assert_eq!(second[4], "(100,00 €)", "{second:?}");
    assert_eq!(text(&root, "#positions-title"), "Positionen");
    let all = root.text_content().unwrap_or_default();
    assert!(all.contains("Nettobetrag (Rabatt 2,5 %)"), "{all}");
    assert!(all.contains("werden nicht mitgerechnet"), "{all}");
    assert!(all.contains("Bruttobetrag"), "{all}");
    assert!(all.contains("1.469,13 €"), "{all}");
    for english in ["Quantity", "Unit price", "Gross total", "discount"] {
        assert!(!all.contains(english), "{english} in {all}");
    }
    drop(handle);
}

#[wasm_bindgen_test]
fn the_offer_forms_own_messages_and_sizes_are_german() {
    let _reset = speak(Lang::De);
    let s = OfferFormState::blank("EUR");
    let project: Project = serde_json::from_str(&(json!({"id": 7, "name": "App", "customer": null,
        "currency": "CHF", "billing_email_to": null, "billing_email_cc": null, "billing_address": null,
        "created_at": "2026-11-02T09:00:00Z", "updated_at": "2026-11-02T09:00:00Z"})).to_string())
    .unwrap();
    s.project.set(Some(project));
    assert_eq!(
        s.currency_conflict().as_deref(),
        Some("muss übereinstimmen: die Währung des Projekts ist CHF")
    );
    // A German number is read as such, an English one is refused in German.
    s.discount.set("1.234,5".into());
    let (body, errors) = s.body();
    assert_eq!(body.discount, Some(d("1234.5")));
    assert!(!errors.contains_key("discount"), "{errors:?}");
    let mut found = FieldErrors::new();
    found.insert(
        "title".into(),
        vec![kontor_model::error::messages::IS_REQUIRED.into()],
    );
    assert_eq!(localized_errors(found)["title"], ["ist erforderlich"]);
    assert_eq!(format_size(12_595), "12,3 KiB");
    use_language(Some(Lang::En));
    assert_eq!(format_size(12_595), "12.3 KiB");
}

#[wasm_bindgen_test]
async fn the_recurring_schedule_speaks_german() {
    let _reset = speak(Lang::De);
    assert_eq!(interval_label(Interval::Quarterly), "Vierteljährlich");
    assert_eq!(mode_short(RecurringMode::Send), "Per E-Mail versendet");
    let s = RecurringFormState::blank("EUR", NaiveDate::from_ymd_opt(2026, 11, 23).unwrap());
    let errors = RwSignal::new(FieldErrors::new());
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <ScheduleFields state=s errors=errors /> }
    });
    settle().await;
    assert_eq!(
        texts(&root, "#f-interval option"),
        ["Monatlich", "Vierteljährlich", "Jährlich"]
    );
    assert_eq!(text(&root, "#sec-schedule"), "Zeitplan");
    assert_eq!(
        texts(&root, ".choice strong"),
        [
            "Entwürfe erstellen",
            "Festgeschriebene Rechnungen erstellen",
            "Erstellen und versenden"
        ]
    );
    let hint = text(&root, ".placeholder-hint");
    assert!(
        hint.contains("{month}, {year}, {quarter} und {period}")
            && hint.contains("abgerechneten Zeitraum"),
        "{hint}"
    );
    let all = root.text_content().unwrap_or_default();
    assert!(all.contains("Nächstes Rechnungsdatum"), "{all}");
    assert!(all.contains("Standardempfänger des Kunden"), "{all}");
    for english in ["Monthly", "Schedule", "Repeats", "the", "invoice"] {
        assert!(
            !all.split_whitespace().any(|w| w == english),
            "{english} in {all}"
        );
    }
    drop(handle);
}

#[wasm_bindgen_test]
async fn the_recurring_history_speaks_german() {
    let _reset = speak(Lang::De);
    let runs: Vec<RecurringRun> = serde_json::from_str(&(json!([
        {"id": 2, "period_start": "2026-11-01", "period_end": "2026-11-30", "invoice_date": "2026-11-01",
         "invoice_id": 41, "invoice_identifier": null, "status": "draft", "error": null,
         "created_at": "2026-11-01T06:00:00Z"},
        {"id": 1, "period_start": "2026-10-01", "period_end": "2026-10-31", "invoice_date": "2026-10-01",
         "invoice_id": null, "invoice_identifier": null, "status": null,
         "error": "template.customer_id: does not exist", "created_at": "2026-10-01T06:00:00Z"}
    ])).to_string())
    .unwrap();
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <History runs=runs.clone() interval=Interval::Monthly /> }
    });
    settle().await;
    assert_eq!(
        texts(&root, "#recurring-history th"),
        ["Zeitraum", "Rechnungsdatum", "Rechnung", "Status", "Fehler"]
    );
    assert_eq!(
        texts(&root, "#recurring-history td.cell-date"),
        ["01.11.2026", "01.10.2026"]
    );
    assert_eq!(
        text(&root, "#recurring-history a[data-invoice-id]"),
        "Entwurf #41"
    );
    assert_eq!(text(&root, "tr[data-run-id='1'] td:nth-child(3)"), "keine");
    assert_eq!(text(&root, "#sec-history"), "Verlauf");
    drop(handle);
}
