//! German and English (issue 12) in the purchase and company pages: in German the
//! payments of a purchase, the positions editor, a supplier's documents and a customer's
//! master data show German words, `23.11.2026` and `1.234,56 €`, and the editor reads
//! `1.234,56` typed into an amount.
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target wasm32-unknown-unknown --test components -- i18n_purchases_companies::`.
//!
//! The test browser is English; each test sets German and resets it when it ends (also
//! when it fails).
#![cfg(target_arch = "wasm32")]

use crate::support::{dom, fixtures};

use dom::{container, d, fake_fetch, find, settle, speak, text, texts, type_into, wait};
use kontor_app::components::toast::Toasts;
use kontor_app::i18n::Lang;
use kontor_app::pages::companies::detail::MasterData;
use kontor_app::pages::companies::detail_documents::DocumentsSection;
use kontor_app::pages::purchases::detail_payments::PaymentsSection;
use kontor_app::pages::purchases::form_items::PurchaseItems;
use kontor_app::pages::purchases::form_state::{PurchaseFormState, PurchaseRow};
use kontor_model::error::FieldErrors;
use kontor_model::party::{CompanyType, Language};
use kontor_model::purchase::Purchase;
use leptos::prelude::*;
use leptos_router::components::Router;
use serde_json::json;
use wasm_bindgen_test::*;

/// A purchase as the server answers it: 2,000.00 EUR gross dated 23 Nov 2026, paid
/// 1,234.56 on 23 Nov 2026.
fn purchase_json() -> serde_json::Value {
    let vat = json!({"tax": 19, "reverse_charge": false, "intra_eu": false, "active": true});
    json!({
        "id": 9, "identifier": "E2611-001", "receipt_identifier": "RE-77", "title": "Druckerpapier", "info": null,
        "iban": "", "reference": null, "date": "2026-11-23", "due_date": null,
        "service_period_from": null, "service_period_to": null, "status": "pending",
        "payment_method": "bank_transfer", "net_total": 1680.67, "gross_total": 2000.00, "currency": "EUR",
        "file_url": null, "file_content_type": null, "custom_properties": {}, "tags": [],
        "company": {"id": 4, "name": "Papierhaus Nord GmbH", "iban": null}, "user": null,
        "payments": [{"id": 5, "purchase_id": 9, "date": "2026-11-23", "total": 1234.56,
            "created_at": "2026-11-23T09:00:00Z", "updated_at": "2026-11-23T09:00:00Z"}],
        "items": [
            {"id": 1, "title": "Papier", "net_total": 1680.67, "tax_total": 319.33, "tax": 19, "vat": vat,
             "tax_included": true, "gross_total": 2000.00, "category": null, "supplier_credit_number": null, "expense": null}
        ],
        "e_invoice": null, "created_at": "2026-11-23T09:00:00Z", "updated_at": "2026-11-23T09:00:00Z"
    })
}

fn purchase() -> Purchase {
    serde_json::from_str(&(purchase_json()).to_string()).unwrap()
}

#[wasm_bindgen_test]
async fn the_payments_of_a_purchase_speak_german() {
    let _reset = speak(Lang::De);
    let root = container();
    let p = purchase();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        Toasts::provide();
        view! { <PaymentsSection purchase=p.clone() on_changed=Callback::new(|_| ()) /> }
    });
    settle().await;
    assert_eq!(text(&root, "#payments-title"), "Zahlungen");
    assert_eq!(
        text(&root, ".section-head .money"),
        "1.234,56 € von 2.000,00 € bezahlt"
    );
    let table = find(&root, ".payments-table");
    assert_eq!(
        texts(&table, "th"),
        ["Datum", "Betrag", "Aktionen"].map(String::from)
    );
    let cells = texts(&table, "tbody td");
    assert_eq!(cells[0], "23.11.2026");
    assert_eq!(cells[1], "1.234,56 €");
    assert_eq!(
        find(&table, "button")
            .get_attribute("aria-label")
            .as_deref(),
        Some("Zahlung über 1.234,56 € löschen")
    );
    // "Zahlung erfassen" proposes the open amount as a German user writes it.
    let add = find(&root, "#add-purchase-payment");
    assert_eq!(add.text_content().unwrap_or_default(), "Zahlung erfassen");
    add.click();
    settle().await;
    let amount: web_sys::HtmlInputElement =
        wasm_bindgen::JsCast::unchecked_into(find(&root, "#pp-total"));
    assert_eq!(amount.value(), "765,44");
    let labels = texts(&root, "dialog label");
    assert!(
        labels.iter().any(|l| l.contains("Zahlungsdatum")),
        "{labels:?}"
    );
    assert!(
        labels.iter().any(|l| l.contains("Betrag (EUR)")),
        "{labels:?}"
    );
    drop(handle);
}

#[wasm_bindgen_test]
async fn the_positions_editor_reads_german_amounts() {
    let _reset = speak(Lang::De);
    let state = PurchaseFormState::blank("2026-11-23", "EUR");
    state
        .rows
        .set(vec![PurchaseRow::new(1, "Papier", "", "19", false)]);
    let errors = RwSignal::new(FieldErrors::new());
    let root = container();
    let handle = leptos::mount::mount_to(
        root.clone(),
        move || view! { <PurchaseItems state=state errors=errors /> },
    );
    settle().await;
    let heads = texts(&root, "thead th");
    for word in [
        "Bezeichnung",
        "Betrag",
        "USt. %",
        "Inkl. USt.",
        "Netto",
        "Brutto",
    ] {
        assert!(heads.iter().any(|h| h == word), "{word} in {heads:?}");
    }
    type_into(&find(&root, ".item-total"), "1.234,56");
    settle().await;
    assert_eq!(text(&root, "#sum-net"), "1.234,56 €");
    assert_eq!(text(&root, "#sum-tax"), "234,57 €");
    assert_eq!(text(&root, "#sum-gross"), "1.469,13 €");
    assert_eq!(text(&root, "#add-item"), "+ Position");
    // English writing is no number in German: the field says so and the sums skip it.
    type_into(&find(&root, ".item-total"), "1,234.56");
    settle().await;
    assert_eq!(text(&root, "#sum-gross"), "0,00 €");
    drop(handle);
}

#[wasm_bindgen_test]
async fn a_suppliers_documents_speak_german() {
    let _reset = speak(Lang::De);
    fake_fetch(200, &json!([purchase_json()]), ", 'X-Total': '1'");
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! {
            <Router>
                <DocumentsSection kind=CompanyType::Supplier company_id=4 />
            </Router>
        }
    });
    wait(100).await;
    assert_eq!(text(&root, "#sec-purchases"), "Belege");
    let table = find(&root, ".table-docs");
    assert_eq!(
        texts(&table, "th"),
        [
            "Nummer",
            "Titel",
            "Datum",
            "Status",
            "Bruttobetrag",
            "Offen"
        ]
        .map(String::from)
    );
    let cells = texts(&table, "tbody td");
    assert_eq!(cells[2], "23.11.2026");
    assert_eq!(cells[3], "Ungeprüft");
    assert_eq!(cells[4], "2.000,00 €");
    assert_eq!(cells[5], "765,44 €");
    assert_eq!(text(&root, ".section-head a"), "Neuer Beleg");
    drop(handle);
}

#[wasm_bindgen_test]
async fn a_customers_master_data_speaks_german() {
    let _reset = speak(Lang::De);
    let mut company = fixtures::customer(None);
    company.country_code = Some("AT".into());
    company.default_invoice_due_days = Some(14);
    company.default_cash_discount = Some(d("2.5"));
    company.default_cash_discount_days = Some(10);
    company.language = Language::En;
    company.customer_vat.reverse_charge = true;
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <MasterData company=company.clone() /> }
    });
    settle().await;
    assert_eq!(text(&root, "#sec-master"), "Stammdaten");
    let terms = texts(&root, "dt");
    let values = texts(&root, "dd");
    let value = |term: &str| {
        let i = terms
            .iter()
            .position(|t| t == term)
            .unwrap_or_else(|| panic!("{term} in {terms:?}"));
        values[i].clone()
    };
    assert_eq!(value("Land"), "Österreich (AT)");
    assert_eq!(value("Zahlungsziel"), "14 Tage");
    assert_eq!(value("Skonto"), "2,5 % innerhalb von 10 Tagen");
    assert_eq!(value("Sprache der Dokumente"), "Englisch");
    assert_eq!(value("Umsatzsteuer"), "Reverse-Charge");
    assert_eq!(value("E-Mail für Rechnungen"), "ap@hafen.example");
    assert!(!terms.iter().any(|t| t == "Country"), "{terms:?}");
    drop(handle);
}
