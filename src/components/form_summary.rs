//! The error summary at the top of every form (invoice, offer, purchase, company,
//! recurring): one line per problem in the form's own words — the labels come from the one
//! model function [`kontor_model::error::labels::summary_line`], never a wire path — and
//! each line moves the focus to the field that caused it.

use crate::components::field::localized_message;
use crate::components::position_editor::{split_row_errors, PositionRow};
use crate::components::toast::Toasts;
use crate::i18n::{fill, t, Lang};
use kontor_model::error::labels::field_label;
pub use kontor_model::error::labels::Form;
use kontor_model::error::{FieldErrors, Message};
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

/// The catalogue key of an English label: lower case, `%` as `percent`, every other run
/// of non-letters an underscore (`VAT %` → `vat_percent`, `Receipt no.` → `receipt_no`).
pub fn label_key(label: &str) -> String {
    let spelled = label.replace('%', " percent ").to_lowercase();
    let mut out = String::new();
    for c in spelled.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_string()
}

/// The label of a position's field ("unit price") in the current language.
fn position_field_label(name: &str) -> String {
    let key = match label_key(name).as_str() {
        "type" => "kind".to_string(),
        other => other.to_string(),
    };
    t().form_position_field()
        .get(&key)
        .map(str::to_string)
        .unwrap_or_else(|| name.to_string())
}

/// What `form` calls the field at wire `path`, in the current language: the model's
/// label ([`field_label`]) through the catalogue (`form_field`, `form_position_field`);
/// a label the catalogue lacks stays as the model says it.
pub fn localized_field_label(form: Form, path: &str) -> String {
    let english = field_label(form, path);
    if let Some(rest) = english.strip_prefix("Position ") {
        let (number, field) = match rest.split_once(": ") {
            Some((n, f)) => (n, Some(f)),
            None => (rest, None),
        };
        if number.parse::<usize>().is_ok() {
            return match field {
                Some(f) => fill(
                    t().form_field().position_field,
                    &[("n", number), ("field", &position_field_label(f))],
                ),
                None => fill(t().form_field().position, &[("n", number)]),
            };
        }
    }
    t().form_field()
        .get(&label_key(&english))
        .map(str::to_string)
        .unwrap_or(english)
}

/// One summary line in the current language: English exactly as the model's
/// [`summary_line`](kontor_model::error::labels::summary_line) (`Position 1: title is
/// required`), German with the catalogue's labels and the messages put into German
/// (`Position 1: Titel ist erforderlich`).
pub fn localized_summary_line(form: Form, path: &str, messages: &[Message]) -> String {
    if crate::i18n::language() == Lang::En {
        return kontor_model::error::labels::summary_line(form, path, messages);
    }
    let messages: Vec<String> = messages.iter().map(localized_message).collect();
    kontor_model::error::labels::join_summary(&localized_field_label(form, path), &messages)
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
                text: localized_summary_line(form, &format!("items[{index}].{field}"), messages),
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
            text: localized_summary_line(form, path, messages),
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

/// The error state of a form with a position editor (invoice, offer, recurring invoice;
/// Copy: handles): the document fields' errors, the positions' errors by row key and the
/// summary box ([`ErrorSummary`]).
#[derive(Clone, Copy, Debug)]
pub struct PositionFormErrors {
    /// The document fields' errors (wire path → messages).
    pub fields: RwSignal<FieldErrors>,
    /// The positions' errors, by [`PositionRow::key`] (field → messages).
    pub rows: RwSignal<HashMap<u64, FieldErrors>>,
    /// The summary box's message and lines; `None` hides it.
    pub summary: RwSignal<Option<(String, Vec<SummaryEntry>)>>,
}

impl Default for PositionFormErrors {
    fn default() -> Self {
        Self::new()
    }
}

impl PositionFormErrors {
    /// No errors, no summary.
    pub fn new() -> Self {
        PositionFormErrors {
            fields: RwSignal::new(FieldErrors::new()),
            rows: RwSignal::new(HashMap::new()),
            summary: RwSignal::new(None),
        }
    }

    /// Shows `fields` and `by_row` (positions in their current order, `rows`) at their
    /// fields and as the summary lines of `form` ([`summarize`]) under `message`.
    pub fn show(
        &self,
        form: Form,
        message: String,
        fields: FieldErrors,
        by_row: HashMap<u64, FieldErrors>,
        rows: &[PositionRow],
    ) {
        self.summary
            .set(Some((message, summarize(form, &fields, &by_row, rows))));
        self.fields.set(fields);
        self.rows.set(by_row);
    }

    /// [`PositionFormErrors::show`] of all errors of a form (wire paths), split into the
    /// document's fields and the positions' rows ([`split_row_errors`]).
    pub fn show_all(&self, form: Form, message: String, all: &FieldErrors, rows: &[PositionRow]) {
        let (fields, by_row) = split_row_errors(all, rows);
        self.show(form, message, fields, by_row, rows);
    }

    /// A save that failed without field errors: the failure toast (`not_saved`, a text
    /// with `{message}`) and `message` alone in the summary box.
    pub fn failed(&self, toasts: Toasts, not_saved: &str, message: String) {
        toasts.error(fill(not_saved, &[("message", &message)]));
        self.summary.set(Some((message, Vec::new())));
    }

    /// Removes every error and the summary (before a save is sent).
    pub fn clear(&self) {
        self.fields.set(FieldErrors::new());
        self.rows.set(HashMap::new());
        self.summary.set(None);
    }
}
