//! One field of a Settings section, addressed by its wire path (`iban`,
//! `document_texts.de.invoice_footer`, `smtp.port`): how it is typed, how its text goes
//! into the `PUT /account` body, and how a value of `GET /account` is shown in it.
//!
//! One path names a field everywhere: reading its value, writing it into the body, and
//! finding the errors of the shared validation and of a 422, which use the same paths.

use crate::components::locale::{format_input, parse_typed};
use crate::i18n::{t, Catalogue};
use kontor_model::Decimal;
use serde_json::{Map, Value};
use std::str::FromStr;

/// A text of the catalogue, picked when it is shown (`|c| c.settings_fields().iban`): the
/// specs are constants, the language is known only at run time.
pub type Text = fn(&'static Catalogue) -> &'static str;

/// The fixed choices of a [`Input::Choice`] field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Choices {
    /// Countries by ISO 3166-1 code, named in the user's language.
    Countries,
    /// The SMTP security (`starttls`, `tls`, `none`).
    Security,
    /// The months `1`…`12` (the fiscal year's start).
    Months,
    /// Who may delete finalized invoices (`admins`, `never`).
    Deletion,
}

impl Choices {
    /// `(value, label)` of every choice, labels in the current language.
    pub fn options(self) -> Vec<(&'static str, String)> {
        let c = t();
        match self {
            Choices::Countries => crate::components::countries::options(),
            Choices::Security => vec![
                ("starttls", c.settings_choices().starttls.to_string()),
                ("tls", c.settings_choices().tls.to_string()),
                ("none", c.settings_choices().none.to_string()),
            ],
            Choices::Months => MONTH_VALUES
                .iter()
                .map(|m| {
                    let key = format!("month_{m}");
                    let label = c.settings_choices().get(&key).unwrap_or(m);
                    (*m, label.to_string())
                })
                .collect(),
            Choices::Deletion => vec![
                ("admins", c.settings_choices().deletion_admins.to_string()),
                ("never", c.settings_choices().deletion_never.to_string()),
            ],
        }
    }

    /// The first choice's value (what a required select shows without a value).
    pub fn first(self) -> &'static str {
        match self {
            Choices::Countries => kontor_model::country::COUNTRIES
                .first()
                .map(|(code, _)| *code)
                .unwrap_or_default(),
            Choices::Security => "starttls",
            Choices::Months => "1",
            Choices::Deletion => "admins",
        }
    }
}

/// The wire values of the months.
const MONTH_VALUES: [&str; 12] = [
    "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12",
];

/// How a field is typed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Input {
    /// One line of text.
    Text,
    /// An e-mail address.
    Email,
    /// A web address.
    Url,
    /// Several lines (addresses, document texts).
    Multiline,
    /// A number in the user's locale (percent, days, port).
    Number,
    /// A password: never shown, sent only when typed.
    Password,
    /// One of fixed choices.
    Choice(Choices),
    /// One of the codes typed into the field at the given path of the same section (the
    /// default currency among the currencies).
    OneOf(&'static str),
    /// An on/off switch (a checkbox with `role="switch"`); its text is `true` or `false`.
    Switch,
}

/// How a field's text goes into the body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Wire {
    /// An optional string; blank is sent as `""`, which removes the value (`null` would
    /// mean "unchanged", `decisions.md` § Success responses).
    Optional,
    /// A text that may be blank (document texts).
    Text,
    /// A string that must not be blank ("is required" before sending).
    Required,
    /// A decimal number (percent); required.
    Decimal,
    /// A whole number (days, port); required.
    Integer,
    /// A whole number that may be blank; blank is sent as `null`, which removes it (the
    /// DATEV consultant and client numbers).
    OptionalInteger,
    /// A comma-separated list of upper-case codes, sent as an array (currencies).
    Codes,
    /// A string sent only when something was typed (the SMTP password).
    OmitWhenBlank,
    /// A boolean: the text `true` is sent as `true`, anything else as `false`.
    Bool,
}

/// One field of a section.
#[derive(Clone, Copy, Debug)]
pub struct FieldSpec {
    /// The wire path, dots between nested names (`smtp.host`).
    pub path: &'static str,
    /// The label above the input (from the catalogue).
    pub label: Text,
    /// How it is typed.
    pub input: Input,
    /// How it is sent.
    pub wire: Wire,
    /// A hint below the input (from the catalogue), if any.
    pub hint: Option<Text>,
    /// Spans the whole row of the grid.
    pub wide: bool,
}

impl FieldSpec {
    /// An optional one-line text field (blank removes the value).
    pub const fn text(path: &'static str, label: Text) -> Self {
        FieldSpec {
            path,
            label,
            input: Input::Text,
            wire: Wire::Optional,
            hint: None,
            wide: false,
        }
    }

    /// The same field typed as `input`.
    pub const fn input(mut self, input: Input) -> Self {
        self.input = input;
        self
    }

    /// The same field sent as `wire`.
    pub const fn wire(mut self, wire: Wire) -> Self {
        self.wire = wire;
        self
    }

    /// The same field with a hint.
    pub const fn hint(mut self, hint: Text) -> Self {
        self.hint = Some(hint);
        self
    }

    /// The label in the current language.
    pub fn label_text(&self) -> &'static str {
        (self.label)(t())
    }

    /// The hint in the current language ("" for none).
    pub fn hint_text(&self) -> &'static str {
        self.hint.map(|h| h(t())).unwrap_or_default()
    }

    /// The same field over the whole row.
    pub const fn wide(mut self) -> Self {
        self.wide = true;
        self
    }

    /// True when the field must be filled in.
    pub fn required(&self) -> bool {
        matches!(
            self.wire,
            Wire::Required | Wire::Decimal | Wire::Integer | Wire::Codes
        )
    }

    /// The id of the input (`f-` and the path with `_` for dots).
    pub fn id(&self) -> String {
        input_id(self.path)
    }
}

/// The input id of the field at `path`: `f-iban`, `f-smtp_host`,
/// `f-document_texts_de_invoice_footer`.
pub fn input_id(path: &str) -> String {
    format!("f-{}", path.replace('.', "_"))
}

/// The value at `path` in `json` (dots between nested names), if any.
pub fn lookup<'a>(json: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(json, |v, key| v.get(key))
}

/// The text to show for `value` as `spec` types it: numbers in the user's locale, lists
/// comma-separated, `null` and passwords empty; a required choice without a value takes
/// its first choice (what the select shows).
pub fn display(spec: &FieldSpec, value: Option<&Value>) -> String {
    if spec.wire == Wire::OmitWhenBlank {
        return String::new();
    }
    match value {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => {
            let text = n.to_string();
            match (spec.wire, Decimal::from_str(&text)) {
                (Wire::Decimal, Ok(d)) => format_input(d.normalize()),
                _ => text,
            }
        }
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(", "),
        Some(Value::Bool(b)) => b.to_string(),
        _ => match spec.input {
            Input::Choice(choices) if spec.required() => choices.first().to_string(),
            _ => String::new(),
        },
    }
}

/// The codes typed into a [`Wire::Codes`] field: split at commas and spaces, upper case,
/// blanks dropped.
pub fn codes(text: &str) -> Vec<String> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .map(|c| c.trim().to_uppercase())
        .filter(|c| !c.is_empty())
        .collect()
}

/// Sets `value` at `path` in `body`, creating the nested objects on the way.
pub fn insert(body: &mut Map<String, Value>, path: &str, value: Value) {
    match path.split_once('.') {
        None => {
            body.insert(path.to_string(), value);
        }
        Some((head, rest)) => {
            let inner = body
                .entry(head.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            if !inner.is_object() {
                *inner = Value::Object(Map::new());
            }
            if let Value::Object(map) = inner {
                insert(map, rest, value);
            }
        }
    }
}

/// The wire value of `text` for `spec`: `Ok(None)` when the field is left out of the
/// body, `Err(message)` when the text cannot be read (shown at the field).
pub fn wire_value(spec: &FieldSpec, text: &str) -> Result<Option<Value>, String> {
    let trimmed = text.trim();
    let number = |typed: &str| -> Result<Option<Value>, String> {
        match parse_typed(typed).map_err(|e| crate::pages::settings::rules::message_text(&e))? {
            None => Err(t().settings_form().is_required.into()),
            Some(d) => Ok(Some(Value::Number(
                serde_json::Number::from_str(&d.normalize().to_string())
                    .map_err(|_| t().settings_form().not_a_number.to_string())?,
            ))),
        }
    };
    match spec.wire {
        Wire::Required if trimmed.is_empty() => Err(t().settings_form().is_required.into()),
        Wire::Optional | Wire::Required | Wire::Text => {
            Ok(Some(Value::String(trimmed.to_string())))
        }
        Wire::Decimal => number(trimmed),
        Wire::OptionalInteger if trimmed.is_empty() => Ok(Some(Value::Null)),
        Wire::Integer | Wire::OptionalInteger => {
            let value = number(trimmed)?;
            match value.as_ref().map(|v| v.to_string()) {
                Some(t) if t.parse::<i64>().is_ok() => Ok(value),
                _ => Err(t().settings_form().whole_number.into()),
            }
        }
        Wire::Codes => {
            let list = codes(text);
            if list.is_empty() {
                return Err(t().settings_form().is_required.into());
            }
            Ok(Some(Value::Array(
                list.into_iter().map(Value::String).collect(),
            )))
        }
        Wire::Bool => Ok(Some(Value::Bool(trimmed == "true"))),
        Wire::OmitWhenBlank if text.is_empty() => Ok(None),
        Wire::OmitWhenBlank => Ok(Some(Value::String(text.to_string()))),
    }
}
