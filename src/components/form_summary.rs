//! The error summary at the top of every form (invoice, offer, purchase, company,
//! recurring): one line per problem in the form's own words — the labels come from the one
//! model function [`kontor_model::error::labels::summary_line`], never a wire path — and
//! each line moves the focus to the field that caused it.

use crate::components::position_editor::PositionRow;
use kontor_model::error::labels::summary_line;
pub use kontor_model::error::labels::Form;
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

/// Scrolls the form's error summary (`#form-summary`) into view on the next frame (after
/// it was rendered).
pub fn scroll_to_summary() {
    request_animation_frame(|| {
        if let Some(el) = document().get_element_by_id("form-summary") {
            el.scroll_into_view();
        }
    });
}

/// Removes the error of the field whose input (`id="f-<path>"`) was just edited (`ev`, an
/// `input` or `change` event bubbling up to the form).
pub fn clear_field_error(errors: RwSignal<FieldErrors>, ev: &leptos::ev::Event) {
    let id = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .map(|e| e.id())
        .unwrap_or_default();
    if let Some(path) = id.strip_prefix("f-") {
        if errors.with_untracked(|e| e.contains_key(path)) {
            errors.update(|e| {
                e.remove(path);
            });
        }
    }
}

/// The summary lines for document errors and row errors (rows in their current order),
/// in the words of `form` ([`kontor_model::error::labels`]): `Position 1: title is
/// required`, `Due date must not be before the date`.
pub fn summarize(
    form: Form,
    document: &FieldErrors,
    by_row: &HashMap<u64, FieldErrors>,
    rows: &[PositionRow],
) -> Vec<SummaryEntry> {
    let mut out = field_entries(form, document);
    for (index, row) in rows.iter().enumerate() {
        let Some(errors) = by_row.get(&row.key) else {
            continue;
        };
        for (field, messages) in errors {
            out.push(SummaryEntry {
                text: summary_line(form, &format!("items[{index}].{field}"), messages),
                target: format!("tr[data-row-key=\"{}\"]", row.key),
            });
        }
    }
    out
}

/// The summary lines of a form without a position editor (or its document fields): one
/// per field in `form`'s words, each focusing `#f-<path>` (dots escaped; errors of
/// positions `items[n]…` focus the positions section `#f-items`).
pub fn field_entries(form: Form, errors: &FieldErrors) -> Vec<SummaryEntry> {
    errors
        .iter()
        .map(|(path, messages)| SummaryEntry {
            text: summary_line(form, path, messages),
            target: if path == "items" || path.starts_with("items[") {
                "#f-items".into()
            } else {
                let field = path.split('[').next().unwrap_or(path);
                format!("#f-{}", field.replace('.', "\\."))
            },
        })
        .collect()
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
