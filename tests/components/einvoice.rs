//! Component tests of issue 10's app parts in headless Chromium: the VAT choice per
//! position with per-rate totals, the invoice's e-invoice status sentence, and reading the
//! answers of the e-invoice import.
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target wasm32-unknown-unknown --test components -- einvoice::`.
#![cfg(target_arch = "wasm32")]

use kontor_app::api::einvoices::{read_import_answer, Readiness};
use kontor_app::components::einvoice_import::{check_einvoice_file, import_problem};
use kontor_app::components::position_editor::{PositionEditor, PositionRow, PositionVat};
use kontor_app::pages::invoices::detail_einvoice::status_text;
use kontor_model::einvoice::{MissingField, Place};
use kontor_model::error::FieldErrors;
use kontor_model::position_vat::TaxCategory;
use kontor_model::vat::VatChoice;
use kontor_model::Decimal;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlSelectElement};

use crate::support::dom;

use dom::{container, d, find, fire, settle, text, texts, type_into};

fn mount_editor(
    rows: RwSignal<Vec<PositionRow>>,
    reverse_charge: RwSignal<bool>,
) -> (HtmlElement, impl Drop) {
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <PositionEditor rows=rows currency="EUR" discount=d("10") tax=d("19") reverse_charge=reverse_charge /> }
    });
    (root, handle)
}

/// Picks `value` in the `n`th (from 0) VAT menu as a user would.
fn choose_vat(root: &HtmlElement, n: u32, value: &str) {
    let list = root.query_selector_all("select.pe-vat-select").unwrap();
    let select: HtmlSelectElement = list.item(n).unwrap().unchecked_into();
    select.set_value(value);
    assert_eq!(select.value(), value, "no option {value}");
    fire(&select, "change");
}

#[wasm_bindgen_test]
async fn a_7_percent_position_gets_its_own_tax_line() {
    let rows = RwSignal::new(vec![
        PositionRow::item("Design", "1", "h", "100"),
        PositionRow::item("Books", "2", "pcs", "50"),
    ]);
    let reverse_charge = RwSignal::new(false);
    let (root, _handle) = mount_editor(rows, reverse_charge);
    settle().await;
    // One rate: one tax line, as before (10 % discount: net 180, tax 34.20).
    assert_eq!(texts(&root, "[data-tax-group]").len(), 1);
    assert_eq!(text(&root, "[data-total=tax]"), "34.20 EUR");
    let options = texts(&root, "select.pe-vat-select:first-of-type option");
    assert_eq!(
        &options[..8],
        [
            "Default (19 %)",
            "19 %",
            "7 %",
            "0 %",
            "exempt",
            "reverse charge",
            "intra-EU",
            "export"
        ]
    );

    choose_vat(&root, 1, "reduced:7");
    settle().await;
    // 19 % on 90.00 = 17.10; 7 % on 90.00 = 6.30.
    let groups = texts(&root, "[data-tax-group]");
    assert_eq!(groups.len(), 2, "{groups:?}");
    assert!(
        groups[0].contains("VAT 19 %")
            && groups[0].contains("90.00 EUR")
            && groups[0].contains("17.10 EUR"),
        "{groups:?}"
    );
    assert!(
        groups[1].contains("VAT 7 %") && groups[1].contains("6.30 EUR"),
        "{groups:?}"
    );
    assert_eq!(text(&root, "[data-total=tax]"), "23.40 EUR");
    assert_eq!(text(&root, "[data-total=gross]"), "203.40 EUR");

    // Typing in one row updates its group only by the new amount.
    type_into(
        &find(&root, "tr:nth-of-type(2) input[aria-label=Quantity]"),
        "4",
    );
    settle().await;
    assert_eq!(text(&root, "[data-total=tax]"), "29.70 EUR");

    // The body carries what was chosen; the default sends neither field.
    let mut errors = FieldErrors::new();
    let all = rows.get_untracked();
    let first = all[0].to_new_invoice_item(0, &mut errors);
    let second = all[1].to_new_invoice_item(1, &mut errors);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!((first.tax, first.tax_category), (None, None));
    assert_eq!(
        (second.tax, second.tax_category),
        (Some(d("7")), Some(TaxCategory::Reduced))
    );

    // The document's reverse charge changes what "Default" means, not a chosen 7 %.
    reverse_charge.set(true);
    settle().await;
    let options = texts(&root, "select.pe-vat-select:first-of-type option");
    assert_eq!(options[0], "Default (reverse charge)");
    let groups = texts(&root, "[data-tax-group]");
    assert!(groups[0].contains("VAT 7 %"), "{groups:?}");
    assert!(groups[1].contains("VAT (reverse charge)"), "{groups:?}");
}

#[wasm_bindgen_test]
async fn exempt_asks_for_a_reason_and_sends_it() {
    let rows = RwSignal::new(vec![PositionRow::item("Training", "1", "day", "500")]);
    let (root, _handle) = mount_editor(rows, RwSignal::new(false));
    settle().await;
    assert!(root.query_selector("input.pe-reason").unwrap().is_none());
    choose_vat(&root, 0, "exempt");
    settle().await;
    let reason = find(&root, "input.pe-reason");
    type_into(&reason, "§ 4 Nr. 21 UStG");
    settle().await;
    // Exempt: no tax (net 450 after the 10 % discount).
    assert_eq!(text(&root, "[data-total=tax]"), "0.00 EUR");
    assert_eq!(text(&root, "[data-total=gross]"), "450.00 EUR");
    assert!(text(&root, "[data-tax-group]").contains("Exempt"));
    let row = rows.get_untracked()[0];
    let item = row.to_new_invoice_item(0, &mut FieldErrors::new());
    assert_eq!(item.tax_category, Some(TaxCategory::Exempt));
    assert_eq!(item.tax, None);
    assert_eq!(
        item.tax_exemption_reason.as_deref(),
        Some("§ 4 Nr. 21 UStG")
    );
    // Back to 19 %: the reason input goes, and no reason is sent.
    choose_vat(&root, 0, "standard:19");
    settle().await;
    assert!(root.query_selector("input.pe-reason").unwrap().is_none());
    let item = row.to_new_invoice_item(0, &mut FieldErrors::new());
    assert_eq!(item.tax_exemption_reason, None);
    assert_eq!(text(&root, "[data-total=tax]"), "85.50 EUR");
}

#[wasm_bindgen_test]
fn vat_choices_round_trip_and_read_stored_fields() {
    for c in PositionVat::choices() {
        assert_eq!(PositionVat::parse(&c.value()), Some(c), "{}", c.value());
    }
    assert_eq!(PositionVat::parse("luxury"), None);
    assert_eq!(PositionVat::parse("exempt:7"), None);
    let doc = VatChoice {
        tax: d("19"),
        reverse_charge: false,
        intra_eu: true,
    };
    assert_eq!(PositionVat::DEFAULT.label(&doc), "Default (intra-EU)");
    // A stored 16 % stays 16 % (an extra option), a stored exempt with rate 0 is exempt.
    let sixteen = PositionVat::from_stored(Some(d("16")), Some(TaxCategory::Standard));
    assert_eq!(sixteen.value(), "standard:16");
    assert_eq!(sixteen.label(&doc), "16 %");
    assert_eq!(
        PositionVat::from_stored(Some(Decimal::ZERO), Some(TaxCategory::Exempt)),
        PositionVat::untaxed(TaxCategory::Exempt)
    );
    assert_eq!(PositionVat::from_stored(None, None), PositionVat::DEFAULT);
}

fn missing(field: &str, place: Place) -> MissingField {
    MissingField {
        field: field.into(),
        message: "m".into(),
        place,
    }
}

#[wasm_bindgen_test]
fn the_status_line_says_what_the_pdf_is() {
    let ok = Readiness {
        ready: true,
        factur_x: true,
        missing: vec![],
    };
    assert_eq!(status_text(&ok, false), "E-invoice: Factur-X (EN 16931)");
    let gaps = Readiness {
        ready: false,
        factur_x: false,
        missing: vec![
            missing("account.vat_identifier", Place::Settings),
            missing("customer.buyer_reference", Place::Customer),
            missing("account.phone", Place::Settings),
        ],
    };
    assert_eq!(
        status_text(&gaps, false),
        "Not an e-invoice: VAT ID, buyer reference, phone — set in Settings/Customer"
    );
    // A draft lacks its number until it is finalized: that alone is not a gap.
    let draft = Readiness {
        ready: false,
        factur_x: false,
        missing: vec![missing("invoice.identifier", Place::Invoice)],
    };
    assert!(draft.missing_before_finalizing().is_empty());
    assert!(status_text(&draft, true).starts_with("E-invoice: complete"));
}

#[wasm_bindgen_test]
fn import_answers_become_purchases_links_and_messages() {
    let conflict = r#"{"message": "This document was imported before.", "errors": {"file": ["was imported before"]}, "id": 42}"#;
    let failure = read_import_answer(409, conflict).unwrap_err();
    assert_eq!(failure.existing, Some(42));
    let problem = import_problem(&failure);
    assert_eq!(problem.existing, Some(42));
    assert_eq!(problem.message, "This e-invoice was imported before.");

    let bad = r#"{"message": "The file is not an e-invoice.", "errors": {"file": ["is neither UBL nor CII"]}}"#;
    let failure = read_import_answer(422, bad).unwrap_err();
    assert_eq!(failure.existing, None);
    assert_eq!(
        import_problem(&failure).message,
        "The file was not imported: is neither UBL nor CII"
    );

    assert!(check_einvoice_file("rechnung.xml", "", 1000.0).is_none());
    assert!(check_einvoice_file("scan.PDF", "application/pdf", 1000.0).is_none());
    assert!(check_einvoice_file("photo.png", "image/png", 1000.0).is_some());
    assert!(check_einvoice_file("big.xml", "text/xml", 11.0 * 1024.0 * 1024.0).is_some());
}
