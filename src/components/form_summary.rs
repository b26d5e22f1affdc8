//! The error summary at the top of the form: one line per problem; each line moves the
//! focus to the field that caused it.

use crate::components::position_editor::PositionRow;
use kontor_model::error::FieldErrors;
use leptos::prelude::*;
use std::collections::HashMap;
use wasm_bindgen::JsCast;

/// One line of the summary.
#[derive(Clone, Debug, PartialEq)]
pub struct SummaryEntry {
    /// What is wrong, e.g. `Title: must not be empty`.
    pub text: String,
    /// CSS selector of the element to focus.
    pub target: String,
}

fn label(path: &str) -> &str {
    match path {
        "customer_id" => "Customer",
        "project_id" => "Project",
        "recipient_address" => "Recipient address",
        "date" => "Invoice date",
        "due_date" => "Due date",
        "title" => "Title",
        "tax" => "Tax",
        "currency" => "Currency",
        "items" => "Positions",
        "service_period_from" => "Service from",
        "service_period_to" => "Service to",
        "discount" => "Discount",
        "cash_discount" => "Cash discount",
        "cash_discount_days" => "Cash discount days",
        "salutation" => "Salutation",
        "footer" => "Footer",
        "tags" => "Tags",
        "quantity" => "quantity",
        "unit_price" => "unit price",
        "net_total" => "lump sum",
        "unit" => "unit",
        "description" => "description",
        "type" => "type",
        "activity_ids" => "billed activities",
        other => other,
    }
}

/// The summary lines for document errors and row errors (rows in their current order).
pub fn summarize(
    document: &FieldErrors,
    by_row: &HashMap<u64, FieldErrors>,
    rows: &[PositionRow],
) -> Vec<SummaryEntry> {
    let mut out: Vec<SummaryEntry> = document
        .iter()
        .map(|(path, messages)| SummaryEntry {
            text: format!("{}: {}", label(path), messages.join("; ")),
            target: if path == "items" {
                "#f-items".into()
            } else {
                format!("#f-{path}")
            },
        })
        .collect();
    for (index, row) in rows.iter().enumerate() {
        let Some(errors) = by_row.get(&row.key) else {
            continue;
        };
        for (field, messages) in errors {
            out.push(SummaryEntry {
                text: format!(
                    "Position {}, {}: {}",
                    index + 1,
                    label(field),
                    messages.join("; ")
                ),
                target: format!("tr[data-row-key=\"{}\"]", row.key),
            });
        }
    }
    out
}

fn focus(selector: &str) {
    let doc = document();
    let el = doc.query_selector(selector).ok().flatten();
    let el = match el {
        Some(row) if row.tag_name() == "TR" => row
            .query_selector("[aria-invalid=\"true\"], [data-first-cell], select")
            .ok()
            .flatten(),
        other => other,
    };
    if let Some(el) = el.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = el.focus();
    }
}

/// The summary box, shown after a failed submit.
#[component]
pub fn ErrorSummary(
    /// The message and lines; nothing is shown while `None`.
    summary: RwSignal<Option<(String, Vec<SummaryEntry>)>>,
) -> impl IntoView {
    move || {
        summary.get().map(|(message, entries)| {
            view! {
                <div id="form-summary" class="form-summary" role="alert" tabindex="-1">
                    <p class="form-summary-title">{message}</p>
                    <ul>
                        {entries
                            .into_iter()
                            .map(|e| {
                                let target = e.target.clone();
                                view! {
                                    <li>
                                        <button type="button" class="link" on:click=move |_| focus(&target)>
                                            {e.text}
                                        </button>
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ul>
                </div>
            }
        })
    }
}
