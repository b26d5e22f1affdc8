//! The state of one Settings section: its fields (see [`super::field_spec`]) with their
//! typed text, the values last saved, and the field errors. A section is a list of
//! [`FieldSpec`]s rather than a struct per section, so one wire path reads, writes and
//! marks a field.

use super::field_spec::{display, insert, lookup, wire_value, FieldSpec};
use super::rules::message_text;
use kontor_model::error::{push_error, FieldErrors};
use leptos::prelude::*;
use serde_json::{Map, Value};

/// One section of the Settings page: its fields with their typed text, what was saved
/// last, and the field errors shown. Copy: handles.
#[derive(Clone, Copy)]
pub struct Section {
    specs: StoredValue<Vec<FieldSpec>>,
    values: StoredValue<Vec<RwSignal<String>>>,
    saved: RwSignal<Vec<String>>,
    /// Field errors by wire path (from the shared validation or a 422).
    pub errors: RwSignal<FieldErrors>,
}

impl Section {
    /// A section with `specs`, filled from the account `account` (the JSON of
    /// `GET /account`).
    pub fn new(specs: &[FieldSpec], account: &Value) -> Self {
        let texts: Vec<String> = specs
            .iter()
            .map(|s| display(s, lookup(account, s.path)))
            .collect();
        Section {
            specs: StoredValue::new(specs.to_vec()),
            values: StoredValue::new(texts.iter().cloned().map(RwSignal::new).collect()),
            saved: RwSignal::new(texts),
            errors: RwSignal::new(FieldErrors::new()),
        }
    }

    /// The fields with their text signals, in order.
    pub fn fields(&self) -> Vec<(FieldSpec, RwSignal<String>)> {
        let values = self.values.get_value();
        self.specs.get_value().into_iter().zip(values).collect()
    }

    /// The text signal of the field at `path` (panics for a path the section lacks: a
    /// programming error).
    pub fn value(&self, path: &str) -> RwSignal<String> {
        let index = self
            .specs
            .with_value(|s| s.iter().position(|f| f.path == path))
            .unwrap_or_else(|| panic!("no settings field {path}"));
        self.values.with_value(|v| v[index])
    }

    fn current(&self) -> Vec<String> {
        self.values
            .with_value(|v| v.iter().map(|s| s.get()).collect())
    }

    /// True when something was typed that is not saved (tracks the fields).
    pub fn is_dirty(&self) -> bool {
        self.current() != self.saved.get()
    }

    /// The section's `PUT /account` body and the fields whose text cannot be read
    /// (numbers, required fields).
    pub fn body(&self) -> (Value, FieldErrors) {
        let mut body = Map::new();
        let mut errors = FieldErrors::new();
        for (spec, value) in self.fields() {
            match wire_value(&spec, &value.get_untracked()) {
                Ok(Some(v)) => insert(&mut body, spec.path, v),
                Ok(None) => {}
                Err(message) => push_error(
                    &mut errors,
                    spec.path,
                    kontor_model::error::Message::verbatim(message),
                ),
            }
        }
        (Value::Object(body), errors)
    }

    /// After a save: the fields take the values of `account` (as the server stored
    /// them) and count as saved.
    pub fn saved_as(&self, account: &Value) {
        for (spec, value) in self.fields() {
            value.set(display(&spec, lookup(account, spec.path)));
        }
        self.saved.set(self.current());
        self.errors.set(FieldErrors::new());
    }

    /// The message for `path` as a signal (for the field), in the user's language.
    pub fn error_of(&self, path: &'static str) -> Signal<Option<String>> {
        let errors = self.errors;
        Signal::derive(move || {
            errors.with(|e| {
                e.get(path)
                    .filter(|m| !m.is_empty())
                    .map(|m| m.iter().map(message_text).collect::<Vec<_>>().join("; "))
            })
        })
    }

    /// True when the section has a field at `path`.
    pub fn has_field(&self, path: &str) -> bool {
        self.specs.with_value(|s| s.iter().any(|f| f.path == path))
    }

    /// Removes the error of the field whose input was just edited.
    pub fn clear_error(&self, path: &str) {
        if self.errors.with_untracked(|e| e.contains_key(path)) {
            self.errors.update(|e| {
                e.remove(path);
            });
        }
    }
}
