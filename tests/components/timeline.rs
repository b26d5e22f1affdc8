//! Component tests for the timeline (issue 11 § Timeline) in headless Chromium:
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target wasm32-unknown-unknown --test components -- timeline::`.
#![cfg(target_arch = "wasm32")]

use kontor_app::components::audit_history::{action_text, actor_text, change_line, value_text};
use kontor_app::components::timeline::{event_sentence, Timeline};
use kontor_app::i18n::{use_language, Lang};
use kontor_app::pages::invoices::detail_tabs::DetailTab;
use kontor_model::audit::{AuditChange, AuditEvent};
use kontor_model::event::SubjectType;
use leptos::prelude::*;
use serde_json::{json, Value};
use wasm_bindgen_test::*;

use crate::support::{dom, fixtures};

use dom::{container, settle, texts};
use fixtures::{event, sentence};

#[wasm_bindgen_test]
fn invoice_events_read_as_sentences() {
    let inv = SubjectType::Invoice;
    assert_eq!(sentence(inv, "created", json!({})), "Created");
    assert_eq!(sentence(inv, "updated", json!({})), "Edited");
    assert_eq!(
        sentence(inv, "finalized", json!({"identifier": "R2611-004"})),
        "Finalized as R2611-004"
    );
    assert_eq!(
        sentence(
            inv,
            "sent",
            json!({"to": ["a@b.de"], "cc": [], "subject": "Invoice R2611-004", "message_id": "<x@y>"})
        ),
        "Sent to a@b.de — “Invoice R2611-004”"
    );
    assert_eq!(
        sentence(
            inv,
            "sent",
            json!({"to": ["a@b.de", "c@d.de"], "cc": ["boss@b.de"], "subject": "Hi", "message_id": "<x@y>"})
        ),
        "Sent to a@b.de, c@d.de (cc boss@b.de) — “Hi”"
    );
    let payment = sentence(
        inv,
        "payment",
        json!({"payment_id": 3, "amount": 119, "date": "2026-11-21", "currency": "EUR"}),
    );
    assert!(
        payment.starts_with("Payment 119.00 EUR received on "),
        "{payment}"
    );
    assert_eq!(
        sentence(
            inv,
            "payment_deleted",
            serde_json::from_str::<serde_json::Value>(
                r#"{"payment_id": 3, "amount": 50.5, "date": "2026-11-21"}"#
            )
            .unwrap()
        ),
        "Payment 50.50 EUR deleted"
    );
    assert_eq!(
        sentence(inv, "reminder", json!({"reminder_id": 2, "fee": 5})),
        "Payment reminder created with a fee of 5.00 EUR"
    );
    assert_eq!(
        sentence(inv, "reminder", json!({"reminder_id": 2, "fee": 0})),
        "Payment reminder created"
    );
    assert_eq!(
        sentence(
            inv,
            "status_changed",
            json!({"from": "created", "to": "partially_paid"})
        ),
        "Status changed from Created to Partially paid"
    );
}

#[wasm_bindgen_test]
fn references_become_links() {
    let inv = SubjectType::Invoice;
    let line = event_sentence(inv, &event(1, "copied", json!({"copy_id": 40})), "EUR");
    assert_eq!(line.text, "Copied to");
    let link = line.link.unwrap();
    assert_eq!(
        (link.path.as_str(), link.label.as_str()),
        ("/invoices/40", "invoice #40")
    );
    let line = event_sentence(inv, &event(1, "created", json!({"copy_of": 12})), "EUR");
    assert_eq!(line.text, "Created as a copy of");
    assert_eq!(line.link.unwrap().path, "/invoices/12");
    let line = event_sentence(inv, &event(1, "created", json!({"offer_id": 5})), "EUR");
    assert_eq!(line.link.unwrap().path, "/offers/5");
    let line = event_sentence(
        inv,
        &event(1, "created", json!({"recurring_invoice_id": 3})),
        "EUR",
    );
    assert_eq!(line.link.unwrap().path, "/recurring_invoices/3");
    let line = event_sentence(
        inv,
        &event(1, "reversed", json!({"reversal_invoice_id": 41})),
        "EUR",
    );
    assert_eq!(line.text, "Reversed by");
    assert_eq!(line.link.unwrap().label, "invoice #41");
    let line = event_sentence(
        inv,
        &event(
            1,
            "sent",
            json!({"to": ["a@b.de"], "cc": [], "subject": "S", "message_id": "<abc@kontor.example>"}),
        ),
        "EUR",
    );
    assert_eq!(
        line.detail.as_deref(),
        Some("Message-ID <abc@kontor.example>")
    );
}

#[wasm_bindgen_test]
fn offer_and_purchase_events_use_their_own_words() {
    let offer = SubjectType::Offer;
    assert_eq!(
        sentence(
            offer,
            "status_changed",
            json!({"from": "sent", "to": "accepted"})
        ),
        "Status changed from Sent to Accepted"
    );
    let line = event_sentence(offer, &event(1, "copied", json!({"copy_id": 7})), "EUR");
    assert_eq!(line.link.unwrap().path, "/offers/7");
    let purchase = SubjectType::Purchase;
    assert_eq!(sentence(purchase, "approved", json!({})), "Approved");
    assert!(sentence(
        purchase,
        "payment",
        json!({"payment_id": 1, "amount": 10, "date": "2026-11-02", "currency": "CHF"})
    )
    .starts_with("Payment 10.00 CHF paid on "));
    assert_eq!(
        sentence(
            purchase,
            "document_uploaded",
            json!({"file_name": "receipt.pdf"})
        ),
        "Receipt uploaded: receipt.pdf"
    );
    assert_eq!(
        sentence(purchase, "created", json!({"import": "xrechnung"})),
        "Imported from an e-invoice (XRechnung)"
    );
    // Data an older version wrote (or nothing) never breaks the sentence.
    assert_eq!(
        sentence(purchase, "document_uploaded", json!({"file_name": 3})),
        "Receipt uploaded"
    );
}

#[wasm_bindgen_test]
async fn the_timeline_lists_newest_first_with_user_and_time() {
    let events = vec![
        event(1, "created", json!({})),
        event(2, "finalized", json!({"identifier": "R2611-004"})),
        event(
            3,
            "sent",
            json!({"to": ["a@b.de"], "cc": [], "subject": "Invoice", "message_id": "<m@k>"}),
        ),
    ];
    let root = container();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <Timeline events=events.clone() subject=SubjectType::Invoice currency="EUR" /> }
    });
    settle().await;
    assert_eq!(
        texts(&root, ".timeline-text"),
        [
            "Sent to a@b.de — “Invoice”",
            "Finalized as R2611-004",
            "Created"
        ]
    );
    assert_eq!(
        texts(&root, ".timeline-user"),
        ["Ada Lovelace", "Ada Lovelace", "Ada Lovelace"]
    );
    let time = root.query_selector("time").unwrap().unwrap();
    assert_eq!(
        time.get_attribute("datetime").as_deref(),
        Some("2026-11-23T10:00:00Z")
    );
    assert!(time.text_content().unwrap().contains("2026"));

    let empty = container();
    let _h2 = leptos::mount::mount_to(empty.clone(), || {
        view! { <Timeline events=vec![] subject=SubjectType::Offer currency="EUR" /> }
    });
    settle().await;
    assert_eq!(
        texts(&empty, ".timeline-empty"),
        ["Nothing has happened yet."]
    );
}

#[wasm_bindgen_test]
fn tabs_map_to_url_paths_and_back() {
    assert_eq!(DetailTab::Overview.path(12), "/invoices/12");
    assert_eq!(DetailTab::Payments.path(12), "/invoices/12/payments");
    assert_eq!(DetailTab::History.path(12), "/invoices/12/history");
    for tab in DetailTab::ALL {
        let path = tab.path(12);
        let segment = path.strip_prefix("/invoices/12").unwrap().strip_prefix('/');
        assert_eq!(DetailTab::from_segment(segment), Some(tab), "{path}");
    }
    assert_eq!(DetailTab::from_segment(Some("overview")), None);
    assert_eq!(DetailTab::from_segment(Some("nonsense")), None);
}

#[wasm_bindgen_test]
fn audit_values_read_like_a_history_in_the_locale() {
    use_language(Some(Lang::De));
    assert_eq!(value_text("title", &Value::Null), "—");
    assert_eq!(value_text("title", &json!("Website")), "Website");
    assert_eq!(value_text("title", &json!("a\nb")), "a ⏎ b");
    let shown = value_text("title", &json!("x".repeat(100)));
    assert_eq!(shown.chars().count(), 81);
    assert!(shown.ends_with('…'));
    // Amounts with two places, other numbers with their own, in German.
    assert_eq!(value_text("gross_total", &json!("1190.5")), "1.190,50");
    assert_eq!(value_text("tax", &json!(19.0)), "19");
    assert_eq!(value_text("quantity", &json!("2.5")), "2,5");
    assert_eq!(value_text("customer_id", &json!(12)), "12");
    assert_eq!(value_text("locked", &json!(true)), "ja");
    assert_eq!(value_text("reverse_charge", &json!(false)), "nein");
    assert_eq!(value_text("due_date", &json!("2026-11-24")), "24.11.2026");
    assert_eq!(value_text("status", &json!("paid")), "Bezahlt");
    let c = AuditChange {
        field: "due_date".into(),
        old: json!("2026-11-24"),
        new: json!("2026-12-08"),
    };
    assert_eq!(
        change_line(&c),
        (
            "Fälligkeitsdatum".into(),
            "24.11.2026".into(),
            "08.12.2026".into()
        )
    );
    use_language(Some(Lang::En));
    assert_eq!(value_text("gross_total", &json!("1190.5")), "1,190.50");
    assert_eq!(value_text("locked", &json!(true)), "yes");
    assert_eq!(change_line(&c).0, "Due date");
    use_language(None);
}

#[wasm_bindgen_test]
fn the_history_names_the_person_who_acted() {
    let mut event = AuditEvent {
        id: 1,
        at: "2026-11-24T10:00:00Z".into(),
        user_id: Some(3),
        user_name: Some("Anna Schmidt".into()),
        key_id: Some(9),
        action: "update".into(),
        record_type: "invoice".into(),
        record_id: 1,
        parent_type: None,
        parent_id: None,
        changes: vec![],
        hash: None,
    };
    use_language(Some(Lang::De));
    assert_eq!(actor_text(&event), "Anna Schmidt");
    event.user_name = None;
    assert_eq!(actor_text(&event), "API-Schlüssel 9");
    event.key_id = None;
    event.record_type = "offer_customer_approval".into();
    assert_eq!(actor_text(&event), "Der Kunde (online)");
    use_language(None);
}

#[wasm_bindgen_test]
fn audit_actions_name_the_part_that_changed() {
    let event = |record_type: &str, action: &str| AuditEvent {
        id: 1,
        at: "2026-11-24T10:00:00Z".into(),
        user_id: None,
        user_name: None,
        key_id: None,
        action: action.into(),
        record_type: record_type.into(),
        record_id: 1,
        parent_type: None,
        parent_id: None,
        changes: vec![],
        hash: None,
    };
    let cases = [
        (Lang::En, "invoice", "create", "Invoice created"),
        (Lang::En, "invoice_payment", "update", "Payment changed"),
        (Lang::En, "offer_position", "delete", "Position deleted"),
        (Lang::De, "invoice_payment", "update", "Zahlung geändert"),
        (Lang::De, "invoice", "create", "Rechnung angelegt"),
    ];
    for (lang, record_type, action, text) in cases {
        use_language(Some(lang));
        assert_eq!(action_text(&event(record_type, action)), text);
    }
    use_language(None);
}
