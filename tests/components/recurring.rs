//! Component tests of the recurring invoice form (issue 11) in headless Chromium: the
//! schedule fields and what they send, the validation messages next to the fields and in
//! the summary, a 422's `template.*` errors shown at the invoice fields, and a stored
//! schedule read back into the form.
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target wasm32-unknown-unknown --test components -- recurring::`.
#![cfg(target_arch = "wasm32")]

use chrono::NaiveDate;
use kontor_app::components::position_editor::PositionRow;
use kontor_app::pages::recurring::detail::History;
use kontor_app::pages::recurring::form_state::{
    first_of_next_month, form_errors, split_and_summarize, RecurringFormState,
};
use kontor_app::pages::recurring::schedule_fields::ScheduleFields;
use kontor_model::error::FieldErrors;
use kontor_model::recurring::{Interval, RecurringInvoice, RecurringMode, RecurringRun};
use leptos::prelude::*;
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlInputElement};

use crate::support::dom;

use dom::{choose, container, find, fire, settle, text, texts, type_into};

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

fn currencies() -> Vec<String> {
    vec!["EUR".to_string(), "CHF".to_string()]
}

/// A schedule form filled as a user would for a monthly hosting invoice.
fn filled() -> RecurringFormState {
    let s = RecurringFormState::blank("EUR", day(2026, 11, 23));
    s.invoice.customer_id.set(Some(3));
    s.invoice
        .recipient_address
        .set("Kranzler GmbH\nKai 1\n20457 Hamburg".into());
    s.invoice.title.set("Hosting {month} {year}".into());
    s.invoice.rows.set(vec![PositionRow::item(
        "Hosting {period}",
        "1",
        "month",
        "49",
    )]);
    s
}

fn mount(state: RecurringFormState, errors: RwSignal<FieldErrors>) -> (HtmlElement, impl Drop) {
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <ScheduleFields state=state errors=errors /> }
    });
    (root, handle)
}

#[wasm_bindgen_test]
fn a_new_schedule_starts_monthly_on_the_first_of_next_month_as_drafts() {
    let s = RecurringFormState::blank("EUR", day(2026, 11, 23));
    assert_eq!(s.next_date.get_untracked(), "2026-12-01");
    assert_eq!(s.interval.get_untracked(), Interval::Monthly);
    assert_eq!(s.mode.get_untracked(), RecurringMode::Draft);
    assert_eq!(
        first_of_next_month(day(2026, 12, 31)),
        Some(day(2027, 1, 1))
    );
}

#[wasm_bindgen_test]
fn the_body_carries_the_schedule_and_a_template_without_dates() {
    let s = filled();
    s.end_date.set("2027-06-30".into());
    let (body, errors) = s.validate(&currencies());
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(body.interval, Some(Interval::Monthly));
    assert_eq!(body.next_date, Some(day(2026, 12, 1)));
    assert_eq!(body.end_date, Some(day(2027, 6, 30)));
    assert_eq!(body.mode, Some(RecurringMode::Draft));
    let t = body.template.expect("template");
    // Each run sets the invoice's dates, service period and status.
    assert_eq!(
        (t.date, t.due_date, t.service_period_from, t.status),
        (None, None, None, None)
    );
    assert_eq!(t.title.as_deref(), Some("Hosting {month} {year}"));
    let items = t.items.expect("items");
    assert_eq!(items[0].title.as_deref(), Some("Hosting {period}"));
    let wire = body_json(&s);
    assert_eq!(wire["interval"], json!("monthly"));
    assert_eq!(wire["mode"], json!("draft"));
    assert_eq!(wire["next_date"], json!("2026-12-01"));
}

fn body_json(s: &RecurringFormState) -> serde_json::Value {
    serde_json::to_value(s.body().0).unwrap()
}

#[wasm_bindgen_test]
async fn choosing_interval_and_mode_changes_what_is_sent() {
    let s = filled();
    let errors = RwSignal::new(FieldErrors::new());
    let (root, _handle) = mount(s, errors);
    settle().await;
    choose(&root, "#f-interval", "quarterly");
    let send: HtmlInputElement = find(&root, "input[name=mode][value=send]").unchecked_into();
    send.set_checked(true);
    fire(&send, "change");
    type_into(&find(&root, "#f-next_date"), "2027-01-15");
    settle().await;
    let wire = body_json(&s);
    assert_eq!(wire["interval"], json!("quarterly"));
    assert_eq!(wire["mode"], json!("send"));
    assert_eq!(wire["next_date"], json!("2027-01-15"));
    // Every mode says what it does; the placeholders are explained.
    let all = root.text_content().unwrap_or_default();
    assert!(
        all.contains("e-mailed to the customer's default recipients"),
        "{all}"
    );
    assert!(all.contains("saved as a draft"), "{all}");
    assert!(all.contains("{month}, {year}"), "{all}");
}

#[wasm_bindgen_test]
async fn missing_next_date_and_an_early_end_date_are_shown_at_their_fields() {
    let s = filled();
    s.next_date.set(String::new());
    s.end_date.set("2026-10-31".into());
    let (_, found) = s.validate(&currencies());
    assert_eq!(found["next_date"], vec!["is required".to_string()]);
    assert!(
        !found.contains_key("end_date"),
        "no next date to compare with"
    );

    s.next_date.set("2026-12-01".into());
    let (_, found) = s.validate(&currencies());
    assert!(!found.contains_key("next_date"));
    assert_eq!(
        found["end_date"],
        vec!["must not be before next_date".to_string()]
    );

    let errors = RwSignal::new(found);
    let (root, _handle) = mount(s, errors);
    settle().await;
    assert_eq!(
        text(&root, "#f-end_date-error"),
        "must not be before next_date"
    );
    assert_eq!(
        find(&root, "#f-end_date")
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("true")
    );
    assert_eq!(text(&root, "#f-next_date-error"), "");
    // The field shows what the errors say: once they are gone, so is the message.
    errors.set(FieldErrors::new());
    settle().await;
    assert_eq!(text(&root, "#f-end_date-error"), "");
}

#[wasm_bindgen_test]
fn an_incomplete_template_is_refused_with_the_invoice_forms_words() {
    let s = RecurringFormState::blank("EUR", day(2026, 11, 23));
    s.invoice
        .rows
        .set(vec![PositionRow::item("", "1", "h", "10")]);
    let (_, found) = s.validate(&currencies());
    // The template's fields are keyed like the invoice form's (no `template.` prefix).
    assert!(found.contains_key("customer_id"), "{found:?}");
    assert!(found.contains_key("title"), "{found:?}");
    assert!(found.contains_key("items[0].title"), "{found:?}");
    assert!(
        !found.keys().any(|k| k.starts_with("template")),
        "{found:?}"
    );
    let rows = s.invoice.rows.get_untracked();
    let (fields, by_row, summary) = split_and_summarize(&found, &rows);
    assert!(fields.contains_key("customer_id"));
    assert!(by_row[&rows[0].key].contains_key("title"));
    let lines: Vec<String> = summary.iter().map(|e| e.text.clone()).collect();
    assert!(
        lines.iter().any(|l| l == "Position 1: title is required"),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("Customer ")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("items[")), "{lines:?}");
}

#[wasm_bindgen_test]
fn a_servers_template_errors_move_to_the_form_fields() {
    let mut server = FieldErrors::new();
    server.insert(
        "template.items[0].title".into(),
        vec![kontor_model::error::Message::from_english("is required")],
    );
    server.insert(
        "template.customer_id".into(),
        vec![kontor_model::error::Message::from_english(
            "has no default recipient for mode send",
        )],
    );
    server.insert(
        "template.date".into(),
        vec![kontor_model::error::Message::from_english(
            "is out of range",
        )],
    );
    server.insert(
        "interval".into(),
        vec![kontor_model::error::Message::from_english("is required")],
    );
    let moved = form_errors(server);
    let keys: Vec<&str> = moved.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["customer_id", "interval", "items[0].title", "next_date"]
    );
    let rows = vec![PositionRow::item("", "1", "h", "10")];
    let (_, _, summary) = split_and_summarize(&moved, &rows);
    let targets: Vec<&str> = summary.iter().map(|e| e.target.as_str()).collect();
    assert!(targets.contains(&"#f-customer_id"), "{targets:?}");
    assert!(targets.contains(&"#f-next_date"), "{targets:?}");
    assert!(targets.contains(&"#f-interval"), "{targets:?}");
}

#[wasm_bindgen_test]
fn a_stored_schedule_fills_the_form_and_is_sent_back_unchanged() {
    let record: RecurringInvoice = serde_json::from_str(&(json!({
        "id": 1,
        "template": {"customer_id": 3, "recipient_address": "Kranzler GmbH\nKai 1", "title": "Hosting {month} {year}",
            "tax": 19, "currency": "EUR", "tags": ["hosting"], "salutation": "", "footer": "",
            "items": [{"type": "item", "title": "Server {period}", "quantity": 2, "unit": "month", "unit_price": 49.5}]},
        "customer": {"id": 3, "name": "Kranzler GmbH"}, "title": "Hosting {month} {year}",
        "interval": "quarterly", "next_date": "2026-12-31", "end_date": "2027-12-31", "mode": "finalize",
        "active": true, "last_run_date": null, "runs": [],
        "created_at": "2026-11-23T10:00:00Z", "updated_at": "2026-11-23T10:00:00Z"
    })).to_string())
    .unwrap();
    let s = RecurringFormState::from_record(&record);
    assert_eq!(s.invoice.title.get_untracked(), "Hosting {month} {year}");
    assert_eq!(s.next_date.get_untracked(), "2026-12-31");
    assert_eq!(s.end_date.get_untracked(), "2027-12-31");
    assert_eq!(s.interval.get_untracked(), Interval::Quarterly);
    assert_eq!(s.mode.get_untracked(), RecurringMode::Finalize);
    let rows = s.invoice.rows.get_untracked();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].title.get_untracked(), "Server {period}");
    assert_eq!(rows[0].unit_price.get_untracked(), "49.5");
    let (body, errors) = s.validate(&currencies());
    assert!(errors.is_empty(), "{errors:?}");
    let t = body.template.unwrap();
    assert_eq!(t.customer_id, Some(3));
    assert_eq!(t.tags, Some(vec!["hosting".to_string()]));
    let item = &t.items.unwrap()[0];
    assert_eq!(item.quantity, Some(kontor_model::Decimal::from(2)));
    assert_eq!(item.unit.as_deref(), Some("month"));
}

#[wasm_bindgen_test]
async fn the_history_links_each_invoice_and_shows_a_failed_send() {
    let runs: Vec<RecurringRun> = serde_json::from_str(&(json!([
        {"id": 3, "period_start": "2026-11-01", "period_end": "2026-11-30", "invoice_date": "2026-11-01",
         "invoice_id": 42, "invoice_identifier": "R2611-004", "status": "created",
         "error": "the mail server refused: 550 mailbox unavailable", "created_at": "2026-11-01T06:00:00Z"},
        {"id": 2, "period_start": "2026-10-01", "period_end": "2026-10-31", "invoice_date": "2026-10-01",
         "invoice_id": 41, "invoice_identifier": null, "status": "draft", "error": null,
         "created_at": "2026-10-01T06:00:00Z"},
        {"id": 1, "period_start": "2026-09-01", "period_end": "2026-09-30", "invoice_date": "2026-09-01",
         "invoice_id": null, "invoice_identifier": null, "status": null,
         "error": "template.customer_id: does not exist", "created_at": "2026-09-01T06:00:00Z"}
    ])).to_string())
    .unwrap();
    let root = container();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <History runs=runs.clone() interval=Interval::Monthly /> }
    });
    settle().await;
    assert_eq!(
        texts(&root, "#recurring-history tbody tr td:first-child"),
        ["11/2026", "10/2026", "09/2026"]
    );
    let links = root
        .query_selector_all("#recurring-history a[data-invoice-id]")
        .unwrap();
    assert_eq!(links.length(), 2);
    let first: HtmlElement = links.item(0).unwrap().unchecked_into();
    assert_eq!(first.text_content().unwrap(), "R2611-004");
    assert_eq!(first.get_attribute("href").unwrap(), "/invoices/42");
    let second: HtmlElement = links.item(1).unwrap().unchecked_into();
    assert_eq!(second.text_content().unwrap(), "Draft #41");
    assert_eq!(
        texts(&root, "#recurring-history .badge"),
        ["Created", "Draft"]
    );
    assert_eq!(
        texts(&root, "#recurring-history td.run-error"),
        [
            "the mail server refused: 550 mailbox unavailable",
            "",
            "template.customer_id: does not exist"
        ]
    );
    assert_eq!(text(&root, "tr[data-run-id='1'] td:nth-child(3)"), "none");
}

#[wasm_bindgen_test]
async fn an_empty_history_says_when_the_first_invoice_comes() {
    let root = container();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <History runs=Vec::new() interval=Interval::Quarterly /> }
    });
    settle().await;
    assert!(text(&root, "#recurring-history-empty").contains("next invoice date"));
}
