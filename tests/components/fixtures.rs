//! Records as the server sends them, for the component tests.

use chrono::{TimeZone, Utc};
use kontor_app::components::timeline::event_sentence;
use kontor_model::account::Session;
use kontor_model::billing::{Activity, Expense};
use kontor_model::event::{Event, SubjectType};
use kontor_model::invoice::Invoice;
use kontor_model::party::{Company, Project};
use kontor_model::users::{Role, Theme, User};
use serde_json::{json, Value};

const TIMES: &str = r#""created_at": "2026-11-02T09:00:00Z", "updated_at": "2026-11-02T09:00:00Z""#;

fn parse<T: serde::de::DeserializeOwned>(mut value: Value) -> T {
    let times: Value = serde_json::from_str(&format!("{{{TIMES}}}")).unwrap();
    let object = value.as_object_mut().unwrap();
    for (k, v) in times.as_object().unwrap() {
        object.entry(k.clone()).or_insert(v.clone());
    }
    serde_json::from_str(&value.to_string()).unwrap()
}

/// The event `id` of `kind` with `data`, by Ada Lovelace at 2026-11-23 10:00 UTC.
pub fn event(id: i64, kind: &str, data: Value) -> Event {
    serde_json::from_str(
        &(json!({"id": id, "kind": kind, "at": "2026-11-23T10:00:00Z",
        "user": {"id": 1, "name": "Ada Lovelace"}, "data": data}))
        .to_string(),
    )
    .unwrap()
}

/// The timeline's sentence for an event of `kind` with `data` on a `subject` in EUR.
pub fn sentence(subject: SubjectType, kind: &str, data: Value) -> String {
    event_sentence(subject, &event(1, kind, data), "EUR").text
}

/// An invoice of 119.00 EUR gross with the given payments (amounts).
pub fn invoice(paid: &[&str]) -> Invoice {
    let payments: Vec<Value> = paid
        .iter()
        .enumerate()
        .map(|(i, amount)| {
            json!({"id": i + 1, "invoice_id": 5, "date": "2026-11-10", "paid_total": serde_json::from_str::<Value>(amount).unwrap(),
                   "currency": "EUR", "created_on": "2026-11-10", "updated_on": "2026-11-10"})
        })
        .collect();
    parse(json!({
        "id": 5, "customer_id": 1, "project_id": null, "identifier": "R2611-001", "date": "2026-11-02",
        "due_date": "2026-11-16", "service_period": null, "service_period_from": null, "service_period_to": null,
        "status": if paid.is_empty() { "sent" } else { "partially_paid" }, "reversed": false, "reversal_invoice_id": null,
        "reversal": false, "reversed_invoice_id": null, "title": "Website", "recipient_address": "Hafen GmbH",
        "currency": "EUR", "net_total": 100.00, "tax": 19, "vat": {"tax": 19, "reverse_charge": false, "intra_eu": false},
        "gross_total": 119.00, "discount": 0, "cash_discount": 0, "cash_discount_days": 0, "debit_number": null,
        "credit_number": null, "locked": true, "activity_hours_modified": false, "custom_properties": {}, "tags": [],
        "file_url": null, "user": null, "items": [], "payments": payments, "reminders": []
    }))
}

/// A time sheet entry of `hours` at 95.00 per hour.
pub fn activity(id: i64, hours: &str) -> Activity {
    parse(json!({
        "id": id, "date": "2026-11-03", "hours": serde_json::from_str::<Value>(hours).unwrap(), "description": "Kick-off workshop",
        "billed": false, "billable": true, "tag": "", "remote_service": "", "remote_id": "", "remote_url": "",
        "project": {"id": 1, "name": "Website relaunch", "billable": true}, "task": null,
        "customer": {"id": 1, "name": "Hafen GmbH"}, "user": null, "timer_started_at": null, "hourly_rate": 95
    }))
}

/// An expense: 5 pcs "Stock photos" at 19.00.
pub fn expense(id: i64) -> Expense {
    parse(json!({
        "id": id, "date": "2026-11-04", "title": "Stock photos", "description": "", "quantity": 5, "unit": "pcs",
        "unit_price": 19.00, "unit_cost": 19.00, "price": 95.00, "cost": 95.00, "currency": "EUR", "budget_relevant": true,
        "billable": true, "billed": false, "service_period": null, "service_period_from": null, "service_period_to": null,
        "file_url": null, "custom_properties": {}, "company": null, "project": null, "purchase_id": null, "purchase_item_id": null
    }))
}

/// A customer with a billing e-mail and, optionally, a billing CC.
pub fn customer(cc: Option<&str>) -> Company {
    parse(json!({
        "id": 1, "type": "customer", "name": "Hafen GmbH", "address": "Kai 1", "email": "ap@hafen.example",
        "billing_email_cc": cc, "currency": "EUR", "payment_term_days": 14, "iban": null, "tags": [],
        "customer_vat": {"tax": 19, "reverse_charge": false, "intra_eu": false}
    }))
}

/// A project with the given default recipients.
pub fn project(to: Option<&str>, cc: Option<&str>) -> Project {
    parse(json!({
        "id": 1, "name": "Website relaunch", "customer": {"id": 1, "name": "Hafen GmbH"}, "currency": null,
        "billing_email_to": to, "billing_email_cc": cc, "billing_address": null
    }))
}

/// A user who speaks `language`, created and changed 2026-11-23 09:00 UTC, with the e-mail
/// `<first name in lower case>@example.com`.
pub fn user(
    id: i64,
    first: &str,
    last: &str,
    role: Role,
    active: bool,
    language: Option<&str>,
) -> User {
    let at = Utc.with_ymd_and_hms(2026, 11, 23, 9, 0, 0).unwrap();
    User {
        id,
        firstname: first.into(),
        lastname: last.into(),
        email: Some(format!("{}@example.com", first.to_lowercase())),
        role,
        active,
        language: language.map(Into::into),
        theme: Theme::System,
        created_at: at,
        updated_at: at,
    }
}

/// Three users speaking `language`: Anna Admin (1), Sven Staff (2) and the deactivated
/// Rita Reader (3, read-only).
pub fn team(language: Option<&str>) -> Vec<User> {
    vec![
        user(1, "Anna", "Admin", Role::Admin, true, language),
        user(2, "Sven", "Staff", Role::Staff, true, language),
        user(3, "Rita", "Reader", Role::ReadOnly, false, language),
    ]
}

/// Anna Admin's sign-in session (she speaks `language`).
pub fn anna_session(language: Option<&str>) -> Session {
    Session {
        id: 1,
        uuid: "b3c1".into(),
        name: "Sign-in 2026-11-23".into(),
        read_only: false,
        user: Some(user(1, "Anna", "Admin", Role::Admin, true, language)),
        kind: Some("session".into()),
    }
}
