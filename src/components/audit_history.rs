//! The change history of a record for admins (issue 15 § 4): the audit trail's events of
//! an invoice, offer, purchase, recurring invoice, company or the settings (with their positions, payments,
//! reminders and attachments), newest first — when, who, what ("Position changed",
//! German "Position geändert") and each changed field with its value before and after.
//! Loaded from `GET /audit_events` 20 at a time ("Show older changes"); shown to admins
//! only (the server refuses everybody else). [`change_line`], [`actor_text`] and
//! [`action_text`] are the wording (component-tested in `tests/components/timeline.rs`): field labels,
//! not column names, and values as the locale writes them (issue 34).

use super::error_panel::ErrorPanel;
use super::frame::admin_state;
use super::timeline::format_time;
use crate::api::audit::get_record_audit_events;
use crate::i18n::{fill, t};
use kontor_model::audit::{AuditChange, AuditEvent};
use leptos::prelude::*;
use serde_json::Value;

/// Events per page.
const PER_PAGE: u32 = 20;
/// Longest value shown (characters); longer ones end in "…".
const MAX_VALUE: usize = 80;

/// The fields whose values are money (two decimal places in the locale).
const AMOUNT_FIELDS: [&str; 16] = [
    "net_total",
    "gross_total",
    "tax_total",
    "unit_price",
    "paid_total",
    "total",
    "fee",
    "open_amount",
    "interest",
    "flat_fee",
    "deducted_total",
    "amount",
    "price",
    "opening_balance",
    "closing_balance",
    "cash_discount_amount",
];

/// The fields whose values are statuses or states (shown by their label).
const STATUS_FIELDS: [&str; 3] = ["status", "status_before_payments", "state"];

/// `text` cut at [`MAX_VALUE`] characters (then "…"), line breaks as "⏎".
fn cut(text: &str) -> String {
    let text = text.replace('\n', " ⏎ ");
    if text.chars().count() > MAX_VALUE {
        let cut: String = text.chars().take(MAX_VALUE).collect();
        format!("{cut}…")
    } else {
        text
    }
}

/// A stored value as the history shows it, in the current language (issue 34: "values
/// formatted"): `null` as "—", booleans as yes/no, dates (`2026-11-24`) and times as the
/// locale writes them, amounts of [`AMOUNT_FIELDS`] with two decimal places and other
/// numbers with their own (`1.190,00`, `19` in German), statuses by their label, text as it
/// is; long values cut at [`MAX_VALUE`] characters.
pub fn value_text(field: &str, value: &Value) -> String {
    let a = t().audit_history();
    let number = |d: rust_decimal::Decimal| {
        if AMOUNT_FIELDS.contains(&field) {
            crate::components::locale::format_places(d, 2)
        } else {
            crate::components::locale::format_input(d.normalize())
        }
    };
    match value {
        Value::Null => "—".to_string(),
        Value::Bool(true) => a.yes.to_string(),
        Value::Bool(false) => a.no.to_string(),
        Value::Number(n) => match n.to_string().parse::<rust_decimal::Decimal>() {
            Ok(d) if !field.ends_with("_id") && field != "id" => number(d),
            _ => n.to_string(),
        },
        Value::String(s) => {
            if let Ok(date) = chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d") {
                return crate::components::date::format_date(date);
            }
            if let Ok(at) = chrono::DateTime::parse_from_rfc3339(s) {
                return format_time(at.with_timezone(&chrono::Utc));
            }
            if STATUS_FIELDS.contains(&field) {
                return crate::i18n::status_label(s);
            }
            let numeric = !s.is_empty()
                && s.trim_start_matches('-')
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == '.')
                && s.chars().filter(|c| *c == '.').count() <= 1;
            match s.parse::<rust_decimal::Decimal>() {
                Ok(d) if numeric => number(d),
                _ => cut(s),
            }
        }
        other => cut(&other.to_string()),
    }
}

/// The label of a stored field (`net_total` → "Net total", German "Nettobetrag"); a
/// field the catalogue does not name keeps its name with spaces (`foo_bar` → "foo bar").
pub fn field_text(field: &str) -> String {
    t().audit_field()
        .get(field)
        .map(str::to_string)
        .unwrap_or_else(|| field.replace('_', " "))
}

/// One changed field as `(label, before, after)`, in the current language.
pub fn change_line(change: &AuditChange) -> (String, String, String) {
    (
        field_text(&change.field),
        value_text(&change.field, &change.old),
        value_text(&change.field, &change.new),
    )
}

/// Who made the change: the person's name, else "API key 3" for a key without a person,
/// "The customer (online)" for an online approval, else the system's own jobs.
pub fn actor_text(event: &AuditEvent) -> String {
    let a = t().audit_history();
    if let Some(name) = event.user_name.clone().filter(|n| !n.trim().is_empty()) {
        return name;
    }
    if let Some(key) = event.key_id {
        return fill(a.api_key, &[("id", &key.to_string())]);
    }
    if event.record_type == "offer_customer_approval" {
        return a.customer.to_string();
    }
    a.system.to_string()
}

/// What an event did, in the current language: "Invoice created", "Payment changed",
/// German "Zahlung geändert".
pub fn action_text(event: &AuditEvent) -> String {
    let a = t().audit_history();
    let what = match event.record_type.as_str() {
        "invoice" => a.invoice,
        "offer" => a.offer,
        "purchase" => a.purchase,
        "invoice_position" | "offer_position" | "purchase_position" => a.position,
        "invoice_payment" | "purchase_payment" => a.payment,
        "invoice_reminder" => a.reminder,
        "offer_attachment" => a.attachment,
        "offer_customer_approval" => a.approval,
        "company" => a.company,
        "recurring_invoice" => a.recurring_invoice,
        "account_settings" => a.settings,
        "user" => a.user,
        _ => a.record,
    };
    let template = match event.action.as_str() {
        "create" => a.created,
        "delete" => a.deleted,
        _ => a.changed,
    };
    fill(template, &[("what", what)])
}

/// The "Change history" section of a record's page, for admins (nothing for others).
#[component]
pub fn AuditHistory(
    /// `invoice`, `offer`, `purchase`, `recurring_invoice`, `company` or
    /// `account_settings`.
    record_type: &'static str,
    /// The record's id.
    record_id: i64,
) -> impl IntoView {
    let admin = admin_state();
    move || {
        (admin.get() == Some(true)).then(|| view! { <AuditHistoryList record_type record_id /> })
    }
}

#[component]
fn AuditHistoryList(record_type: &'static str, record_id: i64) -> impl IntoView {
    let shown = RwSignal::new(Vec::<AuditEvent>::new());
    let total = RwSignal::new(0u64);
    let page = RwSignal::new(0u32);
    let loading = RwSignal::new(false);
    let error = RwSignal::new(None);
    let load_next = move || {
        let next = page.get_untracked() + 1;
        loading.set(true);
        leptos::task::spawn_local(async move {
            match get_record_audit_events(record_type, record_id, next, PER_PAGE).await {
                Ok(got) => {
                    total.set(got.total);
                    page.set(next);
                    shown.update(|s| s.extend(got.items));
                    error.set(None);
                }
                Err(e) => error.set(Some(e)),
            }
            loading.set(false);
        });
    };
    load_next();
    let retry = Callback::new(move |_: ()| load_next());
    let a = t().audit_history();
    view! {
        <section class="section audit-history" aria-labelledby="audit-history-title">
            <div class="section-head">
                <h2 class="section-title" id="audit-history-title">{a.title}</h2>
                <span class="muted">{a.hint}</span>
            </div>
            {move || error.get().map(|e| view! { <ErrorPanel error=e on_retry=retry /> })}
            {move || {
                let events = shown.get();
                if events.is_empty() {
                    return (!loading.get()).then(|| view! { <p class="muted">{t().audit_history().empty}</p> }.into_any());
                }
                let rows = events.into_iter().map(|e| {
                    let when = chrono::DateTime::parse_from_rfc3339(&e.at)
                        .map(|d| format_time(d.with_timezone(&chrono::Utc)))
                        .unwrap_or_else(|_| e.at.clone());
                    let who = actor_text(&e);
                    let what = action_text(&e);
                    // A creation shows the values, a deletion the values it removed, a
                    // change both.
                    let action = e.action.clone();
                    let changes = e.changes.iter().map(|c| {
                        let (field, old, new) = change_line(c);
                        let before = (action != "create").then(|| view! { <span class="audit-old">{old}</span> });
                        let arrow = (action == "update").then(|| view! { <span class="audit-arrow" aria-hidden="true">" → "</span> });
                        let after = (action != "delete").then(|| view! { <span class="audit-new">{new}</span> });
                        view! {
                            <li>
                                <span class="audit-field">{field}</span>
                                {before}
                                {arrow}
                                {after}
                            </li>
                        }
                    }).collect_view();
                    view! {
                        <tr data-audit-id=e.id data-action=e.action.clone()>
                            <td class="audit-when"><time datetime=e.at.clone()>{when}</time></td>
                            <td class="audit-who">{who}</td>
                            <td class="audit-what">{what}</td>
                            <td><ul class="audit-changes" data-record-text="">{changes}</ul></td>
                        </tr>
                    }
                }).collect_view();
                let a = t().audit_history();
                Some(view! {
                    <div class="table-wrap">
                        <table class="table audit-table">
                            <thead><tr><th>{a.when}</th><th>{a.who}</th><th>{a.what}</th><th>{a.changes}</th></tr></thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </div>
                }.into_any())
            }}
            {move || (u64::from(page.get()) * u64::from(PER_PAGE) < total.get()).then(|| view! {
                <button type="button" class="btn btn-quiet" id="audit-history-more" disabled=move || loading.get()
                    on:click=move |_| load_next()>
                    {t().audit_history().more}
                </button>
            })}
        </section>
    }
}
