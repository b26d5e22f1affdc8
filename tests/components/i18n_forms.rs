//! The invoice form's widgets in German (issue 12, `docs/decisions.md` § German and
//! English in the app): the position editor reads `1.234,56` typed as a unit price and
//! shows German column labels and German amounts (`1.234,56 €`) in the row and the totals
//! (Zwischensumme, USt., Gesamt); field messages and the error summary speak German.
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target wasm32-unknown-unknown --test components -- i18n_forms::`.
//!
//! The test browser is English; each test that needs German sets it and resets it when it
//! ends (also when it fails).
#![cfg(target_arch = "wasm32")]

use crate::support::dom;

use dom::{container, d, find, settle, speak, text, texts, type_into};
use kontor_app::components::form_summary::{localized_summary_line, Form};
use kontor_app::components::invoice_form_state::InvoiceFormState;
use kontor_app::components::position_editor::{PositionEditor, PositionRow, PositionVat};
use kontor_app::i18n::{use_language, Lang};
use kontor_model::status::InvoiceStatus;
use kontor_model::vat::VatChoice;
use kontor_model::Decimal;
use leptos::prelude::*;
use wasm_bindgen_test::*;

fn attribute_values(root: &web_sys::HtmlElement, selector: &str, name: &str) -> Vec<String> {
    let list = root.query_selector_all(selector).unwrap();
    (0..list.length())
        .filter_map(|i| {
            let el: web_sys::Element = wasm_bindgen::JsCast::unchecked_into(list.item(i)?);
            el.get_attribute(name)
        })
        .collect()
}

#[wasm_bindgen_test]
async fn the_position_editor_reads_and_shows_german_numbers() {
    let _reset = speak(Lang::De);
    let rows = RwSignal::new(vec![PositionRow::item("Beratung", "2", "Std.", "")]);
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <PositionEditor rows=rows currency="EUR" discount=Decimal::ZERO tax=d("19") reverse_charge=false /> }
    });
    settle().await;

    let headings = texts(&root, ".pe-table thead th");
    for word in [
        "Typ",
        "Menge",
        "Einheit",
        "Einzelpreis",
        "USt.",
        "Nettobetrag",
    ] {
        assert!(headings.iter().any(|h| h == word), "{word} in {headings:?}");
    }
    assert!(
        !headings
            .iter()
            .any(|h| h == "Quantity" || h == "Unit price"),
        "{headings:?}"
    );
    let labels = attribute_values(&root, "tbody [data-field]", "aria-label");
    assert!(labels.iter().any(|l| l == "Einzelpreis"), "{labels:?}");

    type_into(&find(&root, "[data-field=unit_price]"), "1.234,56");
    settle().await;
    assert_eq!(text(&root, "[data-cell=net]"), "2.469,12 €");
    assert_eq!(text(&root, "[data-total=items]"), "2.469,12 €");
    assert_eq!(text(&root, "[data-total=net]"), "2.469,12 €");
    assert_eq!(text(&root, "[data-total=tax]"), "469,13 €");
    assert_eq!(text(&root, "[data-total=gross]"), "2.938,25 €");
    let totals = texts(&root, ".totals-box dt");
    assert_eq!(
        totals,
        vec!["Zwischensumme", "Nettobetrag", "USt. 19 %", "Gesamt"]
    );
    assert_eq!(text(&root, "[data-row-key] .cell-error"), "");

    // The English way of writing it is not a German number: said at the field, in German.
    type_into(&find(&root, "[data-field=quantity]"), "1,5.0");
    settle().await;
    let errors = texts(&root, ".pe-qty .cell-error").join(" ");
    assert!(errors.contains("ist keine Zahl"), "{errors}");
    assert!(errors.contains("1.234,56"), "{errors}");
    drop(handle);
}

#[wasm_bindgen_test]
fn german_numbers_typed_in_the_invoice_form_are_sent_as_decimals() {
    let _reset = speak(Lang::De);
    let state = InvoiceFormState::blank("EUR");
    state.tax.set("7,5".into());
    state.discount.set("1.000,5".into());
    state.rows.set(vec![PositionRow::item(
        "Beratung", "1,5", "Std.", "1.234,56",
    )]);
    let (body, errors) = state.body(InvoiceStatus::Draft);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(body.tax, Some(d("7.5")));
    assert_eq!(body.discount, Some(d("1000.5")));
    let item = &body.items.unwrap()[0];
    assert_eq!(item.quantity, Some(d("1.5")));
    assert_eq!(item.unit_price, Some(d("1234.56")));
}

#[wasm_bindgen_test]
fn vat_choices_and_error_summaries_speak_german() {
    let _reset = speak(Lang::De);
    let document = VatChoice {
        tax: d("19"),
        reverse_charge: false,
        intra_eu: false,
    };
    assert_eq!(PositionVat::DEFAULT.label(&document), "Standard (19 %)");
    let exempt = PositionVat::untaxed(kontor_model::position_vat::TaxCategory::Exempt);
    assert_eq!(exempt.label(&document), "steuerfrei");
    assert_eq!(
        localized_summary_line(
            Form::Invoice,
            "items[0].unit_price",
            &[kontor_model::error::Message::from_english("is required")]
        ),
        "Position 1: Einzelpreis ist erforderlich"
    );
    assert_eq!(
        localized_summary_line(
            Form::Invoice,
            "due_date",
            &[kontor_model::error::Message::from_english(
                "must not be before the date"
            )]
        ),
        "Fälligkeitsdatum darf nicht vor dem Datum liegen"
    );
    assert_eq!(
        localized_summary_line(
            Form::Offer,
            "date",
            &[kontor_model::error::Message::from_english(
                "ist erforderlich"
            )]
        ),
        "Angebotsdatum ist erforderlich",
        "a message the server already sent in German"
    );

    use_language(Some(Lang::En));
    assert_eq!(
        localized_summary_line(
            Form::Invoice,
            "items[0].unit_price",
            &[kontor_model::error::Message::from_english("is required")]
        ),
        "Position 1: unit price is required"
    );
    assert_eq!(PositionVat::DEFAULT.label(&document), "Default (19 %)");
}

#[wasm_bindgen_test]
async fn company_fields_and_letter_paper_speak_german() {
    use kontor_app::api::invoice_documents::Paper;
    use kontor_app::components::company_fields::CompanyEssentialFields;
    use kontor_app::components::company_form_state::CompanyFormState;
    use kontor_app::components::paper_select::PaperSelect;
    use kontor_model::error::FieldErrors;
    use kontor_model::party::CompanyType;

    let _reset = speak(Lang::De);
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        let state = CompanyFormState::blank(CompanyType::Customer);
        let errors = RwSignal::new(FieldErrors::new());
        errors.update(|e| {
            e.insert(
                "name".into(),
                vec![kontor_model::error::Message::from_english(
                    "must not be blank",
                )],
            );
        });
        view! {
            <CompanyEssentialFields state=state errors=errors prefix="c-" />
            <PaperSelect id="paper" paper=RwSignal::new(Paper::Default) />
        }
    });
    settle().await;
    let labels = texts(&root, "label");
    for word in ["Name", "Land", "Adresse", "Rechnungs-E-Mail", "USt-IdNr."] {
        assert!(
            labels.iter().any(|l| l.starts_with(word)),
            "{word} in {labels:?}"
        );
    }
    assert_eq!(text(&root, "#c-name-error"), "darf nicht leer sein");
    let countries = texts(&root, "#c-country_code option");
    assert!(
        countries.iter().any(|c| c == "Deutschland (DE)"),
        "{countries:?}"
    );
    assert_eq!(text(&root, "#paper option"), "Leer (ohne Briefpapier)");
    drop(handle);
}
