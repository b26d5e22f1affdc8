//! The invoice detail page in German (issue 12, `docs/decisions.md` § German and English in
//! the app): the timeline's sentences, the payments tab, the payment dialog (typed
//! `1.234,56`), the e-mail texts and the e-invoice line speak German with `23.11.2026` and
//! `1.234,56 €`.
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target wasm32-unknown-unknown --test components -- i18n_invoice_detail::`.
//!
//! The test browser is English; each test sets German and resets it when it ends (also
//! when it fails).
#![cfg(target_arch = "wasm32")]

use crate::support::{dom, fixtures};

use chrono::NaiveDate;
use dom::{container, find, input, settle, speak, submit_dialog_with, text, texts};
use fixtures::{event, sentence};
use kontor_app::api::einvoices::Readiness;
use kontor_app::components::timeline::{event_sentence, Timeline};
use kontor_app::components::toast::Toasts;
use kontor_app::i18n::Lang;
use kontor_app::pages::invoices::detail_email::{email_subject, email_text, sent_message};
use kontor_app::pages::invoices::detail_payments::PaymentsTab;
use kontor_app::pages::invoices::detail_tabs::DetailTab;
use kontor_model::email::SentEmail;
use kontor_model::event::SubjectType;
use leptos::prelude::*;
use leptos_router::components::Router;
use serde_json::json;
use wasm_bindgen_test::*;

#[wasm_bindgen_test]
fn timeline_sentences_are_german() {
    let _reset = speak(Lang::De);
    let inv = SubjectType::Invoice;
    assert_eq!(sentence(inv, "created", json!({})), "Erstellt");
    assert_eq!(
        sentence(inv, "finalized", json!({"identifier": "R2611-004"})),
        "Festgeschrieben als R2611-004"
    );
    assert_eq!(
        sentence(
            inv,
            "sent",
            json!({"to": ["a@b.de"], "cc": ["chef@b.de"], "subject": "Rechnung R2611-004", "message_id": "<x@y>"})
        ),
        "An a@b.de gesendet (CC chef@b.de) – „Rechnung R2611-004“"
    );
    assert_eq!(
        sentence(
            inv,
            "payment",
            serde_json::from_str::<serde_json::Value>(
                r#"{"payment_id": 3, "amount": 1234.56, "date": "2026-11-23", "currency": "EUR"}"#
            )
            .unwrap()
        ),
        "Zahlung über 1.234,56 € am 23.11.2026 eingegangen"
    );
    assert_eq!(
        sentence(
            SubjectType::Purchase,
            "payment",
            json!({"payment_id": 3, "amount": 10, "date": "2026-11-02", "currency": "EUR"})
        ),
        "Zahlung über 10,00 € am 02.11.2026 geleistet"
    );
    assert_eq!(
        sentence(inv, "reminder", json!({"reminder_id": 2, "fee": 5})),
        "Mahnung mit einer Mahngebühr von 5,00 € erstellt"
    );
    assert_eq!(
        sentence(
            inv,
            "status_changed",
            json!({"from": "sent", "to": "partially_paid"})
        ),
        "Status von „Versendet“ auf „Teilweise bezahlt“ geändert"
    );
    let line = event_sentence(inv, &event(1, "copied", json!({"copy_id": 40})), "EUR");
    assert_eq!(line.text, "Kopiert als");
    let link = line.link.unwrap();
    assert_eq!(
        (link.path.as_str(), link.label.as_str()),
        ("/invoices/40", "Rechnung #40")
    );
    let line = event_sentence(
        inv,
        &event(1, "created", json!({"recurring_invoice_id": 3})),
        "EUR",
    );
    assert_eq!(line.text, "Automatisch erstellt aus");
    assert_eq!(line.link.unwrap().label, "Abo-Rechnung #3");
}

#[wasm_bindgen_test]
async fn the_timeline_shows_german_sentences_and_dates() {
    let _reset = speak(Lang::De);
    let events = vec![
        event(1, "created", json!({"offer_id": 5})),
        event(
            2,
            "payment",
            json!({"payment_id": 3, "amount": 119, "date": "2026-11-23", "currency": "EUR"}),
        ),
    ];
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! {
            <Router>
                <Timeline events=events.clone() subject=SubjectType::Invoice currency="EUR" />
            </Router>
        }
    });
    settle().await;
    assert_eq!(
        texts(&root, ".timeline-text"),
        [
            "Zahlung über 119,00 € am 23.11.2026 eingegangen",
            "Erstellt aus Angebot #5"
        ]
    );
    let time = text(&root, "time");
    assert!(time.contains("23.11.2026"), "{time}");
    drop(handle);

    let empty = container();
    let handle = leptos::mount::mount_to(empty.clone(), || {
        view! { <Timeline events=vec![] subject=SubjectType::Offer currency="EUR" /> }
    });
    settle().await;
    assert_eq!(
        texts(&empty, ".timeline-empty"),
        ["Bisher ist nichts geschehen."]
    );
    drop(handle);
}

#[wasm_bindgen_test]
async fn the_payments_tab_and_dialog_speak_german() {
    let _reset = speak(Lang::De);
    let mut invoice = fixtures::invoice(&["50"]);
    for p in invoice.payments.iter_mut().flatten() {
        p.date = NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
    }
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        Toasts::provide();
        view! { <PaymentsTab invoice=invoice.clone() on_changed=Callback::new(|_| ()) /> }
    });
    settle().await;
    assert_eq!(text(&root, "#payments-title"), "Zahlungen");
    assert_eq!(text(&root, "#reminders-title"), "Mahnungen");
    assert_eq!(
        text(&root, "[data-summary=payments]"),
        "50,00 € von 119,00 € bezahlt · 69,00 € offen"
    );
    let cells = texts(&root, ".payments-table td");
    assert_eq!(cells[0], "23.11.2026");
    assert_eq!(cells[1], "50,00 €");
    assert_eq!(cells[2], "Bearbeiten Löschen");
    assert_eq!(text(&root, "#add-payment"), "Zahlung erfassen");

    find(&root, "#add-payment").click();
    settle().await;
    let amount = input(&root, "#payment-amount");
    assert_eq!(
        amount.value(),
        "69,00",
        "the open amount as German types it"
    );
    let page = root.text_content().unwrap();
    assert!(page.contains("Offener Betrag: 69,00 €"), "{page}");
    assert!(page.contains("Eingegangen am"), "{page}");
    submit_dialog_with(&root, &amount, "1.234,56").await;
    let over = text(&root, "#overpayment-text");
    assert_eq!(
        over,
        "Die Zahlung über 1.234,56 € ist höher als der offene Betrag von 69,00 €. \
         Trotzdem erfassen? Die Rechnung weist dann ein Guthaben von 1.165,56 € aus."
    );
    assert_eq!(text(&root, "#overpayment-confirm"), "Trotzdem erfassen");
    drop(handle);
}

#[wasm_bindgen_test]
fn e_mail_tabs_and_e_invoice_line_are_german() {
    let _reset = speak(Lang::De);
    let invoice = fixtures::invoice(&[]);
    assert_eq!(email_subject(Lang::De, &invoice), "Rechnung R2611-001");
    let body = email_text(Lang::De, &invoice, "Kontor GmbH");
    assert!(
        body.contains("Rechnung R2611-001 vom 02.11.2026 über 119,00 €, fällig am 16.11.2026"),
        "{body}"
    );
    assert!(body.starts_with("Sehr geehrte Damen und Herren,"), "{body}");
    assert!(
        !body.contains("Verwendungszweck") && !body.contains('{'),
        "{body}"
    );
    // With a payment reference (issue 32) the text asks to quote it, in groups of four.
    let mut referenced = invoice.clone();
    referenced.payment_reference = Some("RF38R2611001".into());
    let body = email_text(Lang::De, &referenced, "Kontor GmbH");
    assert!(
        body.contains("fällig am 16.11.2026. Bitte geben Sie bei der Überweisung den Verwendungszweck RF38 R261 1001 an."),
        "{body}"
    );
    // The customer's language wins over the user's (issue 29): an English customer gets
    // English from a German user.
    assert_eq!(email_subject(Lang::En, &invoice), "Invoice R2611-001");
    let english = email_text(Lang::En, &invoice, "Kontor GmbH");
    assert!(
        english.contains("invoice R2611-001 of 2 Nov 2026"),
        "{english}"
    );
    assert!(english.contains("119.00 EUR"), "{english}");
    let sent = SentEmail {
        subject: "Rechnung R2611-001".into(),
        text: "Hallo".into(),
        emails_to: "a@x.example".into(),
        emails_cc: String::new(),
        emails_bcc: "b@y.example".into(),
        ..Default::default()
    };
    assert_eq!(
        sent_message(&invoice, &sent),
        "Rechnung R2611-001 an a@x.example gesendet (BCC b@y.example)."
    );
    assert_eq!(DetailTab::Payments.label(), "Zahlungen und Mahnungen");
    assert_eq!(DetailTab::History.label(), "Verlauf");
    let ready = Readiness {
        ready: true,
        factur_x: true,
        missing: vec![],
    };
    assert_eq!(
        kontor_app::pages::invoices::detail_einvoice::status_text(&ready, false),
        "E-Rechnung: Factur-X (EN 16931)"
    );
}
