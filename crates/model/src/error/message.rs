//! One field message by code (issue 30 § Libraries: "server messages in German and English
//! through message codes with parameters"; `docs/decisions.md` § Message codes).
//!
//! A [`Message`] is an entry of the catalogue ([`super::messages`]) with its parameters.
//! It reads as its English text (`Deref<Target = str>`, `Display`, serialized as that
//! string, so the `errors` of a 422 body keep their shape) and renders in German through
//! the same entry. Outside words without an entry — a parser's or a library's sentence —
//! are [`Message::verbatim`]: the same text in every language.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// A catalogue entry: a stable code, the English and the German text. `{}` stands for a
/// parameter (in order); the German may write `{n}` (1-based) to reorder them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Text {
    /// The stable wire code (`"must_be_at_most_n_characters"`): snake case, never reworded.
    pub code: &'static str,
    /// The English text (the interface's language and the fallback).
    pub en: &'static str,
    /// The German text.
    pub de: &'static str,
}

impl Text {
    /// This message with `params` in its `{}` placeholders (numbers, names, lists — as
    /// text, in the order of the English text).
    pub fn with<T: ToString>(self, params: impl IntoIterator<Item = T>) -> Message {
        Message::new(self, params.into_iter().map(|p| p.to_string()).collect())
    }

    /// How many parameters the English text takes (its `{}` count).
    pub fn param_count(self) -> usize {
        self.en.matches("{}").count()
    }
}

/// The code of a [`Message::verbatim`] text.
pub const VERBATIM: &str = "verbatim";

/// The code of the weak-password message, whose parameter (the estimator's hint) is put
/// into German too (`crate::error_text::password_hint_german`).
pub const PASSWORD_HINT_CODE: &str = "password_too_easy_n";

/// The code of a company's refusal to be deleted, whose second parameter (what refers to
/// it: "3 invoices, 1 project") is put into German too
/// (`crate::error_text::reference_list_german`).
pub const REFERENCE_LIST_CODE: &str = "company_has_n_archive_instead";

/// The codes whose parameters name something in English (a record, a role, a service, a
/// kind of work) that is put into German with the sentence (`crate::error_text`).
pub const TRANSLATED_PARAM_CODES: [&str; 4] = [
    "not_found_n",
    "role_needed_n_n",
    "unavailable_n_n",
    "busy_n_n",
];

/// A message: its catalogue entry (none for a verbatim text), its parameters, and its
/// English text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    text: Option<Text>,
    code: Cow<'static, str>,
    params: Vec<String>,
    english: String,
}

impl Message {
    /// The message of catalogue entry `text` with `params` (as text, in order).
    pub fn new(text: Text, params: Vec<String>) -> Self {
        let english = fill(text.en, &params);
        Message {
            text: Some(text),
            code: Cow::Borrowed(text.code),
            params,
            english,
        }
    }

    /// Outside words without a catalogue entry (a parser's or a library's sentence): the
    /// same text in every language, code [`VERBATIM`].
    pub fn verbatim(text: impl Into<String>) -> Self {
        let english = text.into();
        Message {
            text: None,
            code: Cow::Borrowed(VERBATIM),
            params: vec![english.clone()],
            english,
        }
    }

    /// The stable code (`"is_required"`, or [`VERBATIM`]).
    pub fn code(&self) -> &str {
        &self.code
    }

    /// The parameters, as text, in the order of the English text.
    pub fn params(&self) -> &[String] {
        &self.params
    }

    /// The English text.
    pub fn english(&self) -> &str {
        &self.english
    }

    /// The German text: the entry's German with the parameters; a verbatim text as it is.
    /// A weak password's hint (the estimator's sentences) and a company's reference list
    /// are put into German too.
    pub fn german(&self) -> String {
        let Some(text) = self.text else {
            return self.english.clone();
        };
        let params: Vec<String> = match text.code {
            PASSWORD_HINT_CODE => self
                .params
                .iter()
                .map(|p| crate::error_text::password_hint_german(p))
                .collect(),
            REFERENCE_LIST_CODE => self
                .params
                .iter()
                .enumerate()
                .map(|(i, p)| match i {
                    1 => crate::error_text::reference_list_german(p),
                    _ => p.clone(),
                })
                .collect(),
            code if TRANSLATED_PARAM_CODES.contains(&code) => self
                .params
                .iter()
                .map(|p| crate::error_text::word_german(p))
                .collect(),
            _ => return fill(text.de, &self.params),
        };
        fill(text.de, &params)
    }

    /// The text in `language` (`"de"` → German, anything else → English).
    pub fn text(&self, language: &str) -> String {
        if language == "de" {
            self.german()
        } else {
            self.english.clone()
        }
    }

    /// The wire form of the code and its parameters (a 422 body's `error_codes`).
    pub fn wire_code(&self) -> MessageCode {
        MessageCode {
            code: self.code.to_string(),
            params: self.params.clone(),
        }
    }
}

impl From<Text> for Message {
    /// The entry's message without parameters.
    fn from(text: Text) -> Self {
        Message::new(text, Vec::new())
    }
}

impl std::ops::Deref for Message {
    type Target = str;
    /// The English text.
    fn deref(&self) -> &str {
        &self.english
    }
}

impl std::fmt::Display for Message {
    /// Writes the English text.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.english)
    }
}

impl PartialEq<str> for Message {
    fn eq(&self, other: &str) -> bool {
        self.english == other
    }
}

impl PartialEq<&str> for Message {
    fn eq(&self, other: &&str) -> bool {
        self.english == *other
    }
}

impl PartialEq<String> for Message {
    fn eq(&self, other: &String) -> bool {
        &self.english == other
    }
}

impl Serialize for Message {
    /// The English text, as every 422 body's `errors` has carried it.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.english)
    }
}

impl<'de> Deserialize<'de> for Message {
    /// A text read from the wire is verbatim until its `error_codes` entry names its code
    /// (`super::ErrorBody::with_codes`).
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Message::verbatim)
    }
}

/// A message's code and parameters on the wire: `{"code": "must_be_at_most_n_characters",
/// "params": ["200"]}` (`ErrorBody::error_codes`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MessageCode {
    /// The catalogue's code (`docs/decisions.md` § Message codes), or `"verbatim"`.
    pub code: String,
    /// The parameters, as text, in the order of the English text.
    #[serde(default)]
    pub params: Vec<String>,
}

/// Puts `values` into `text` for its `{}` (in order) or `{n}` (1-based) placeholders; a
/// placeholder without a value stays as it is.
pub(super) fn fill(text: &str, values: &[String]) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut next = 0;
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[open..]);
            rest = "";
            break;
        };
        let inner = &after[..close];
        let index = if inner.is_empty() {
            next += 1;
            Some(next - 1)
        } else {
            inner.parse::<usize>().ok().and_then(|n| n.checked_sub(1))
        };
        match index.and_then(|i| values.get(i)) {
            Some(v) => out.push_str(v),
            None => {
                out.push('{');
                out.push_str(inner);
                out.push('}');
            }
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}
