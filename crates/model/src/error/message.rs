//! One field message by code (issue 30 § Libraries: "server messages in German and English
//! through message codes with parameters"; `docs/decisions.md` § Message codes).
//!
//! A [`Message`] is an entry of the catalogue ([`super::messages`]) with its parameters.
//! It reads as its English text (`Deref<Target = str>`, `Display`, serialized as that
//! string, so the `errors` of a 422 body keep their shape) and renders in German through
//! the same entry. Outside words without an entry — a parser's or a library's sentence —
//! are [`Message::verbatim`]: the same text in every language.

use super::messages::ALL;
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

/// A message: its code, its parameters, and its English text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    code: Cow<'static, str>,
    params: Vec<String>,
    english: String,
}

impl Message {
    /// The message of catalogue entry `text` with `params` (as text, in order).
    pub fn new(text: Text, params: Vec<String>) -> Self {
        let english = fill(text.en, &params);
        Message {
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
            code: Cow::Borrowed(VERBATIM),
            params: vec![english.clone()],
            english,
        }
    }

    /// The message of the entry named `code` with `params`, as a client reads it from a
    /// body's `error_codes`; `None` for a code this build does not know.
    pub fn from_code(code: &str, params: Vec<String>) -> Option<Self> {
        if code == VERBATIM {
            return params.first().map(|p| Message::verbatim(p.clone()));
        }
        ALL.iter()
            .find(|t| t.code == code)
            .map(|t| Message::new(*t, params))
    }

    /// The message whose English text is `text`, for words that passed through a library
    /// that carries only strings (serde's error of a custom deserializer, or serde's own
    /// "invalid type: …, expected …"): an entry without parameters whose text is `text`,
    /// else an entry with parameters whose text matches it (`{}` matching any non-empty
    /// text, shortest first), else [`Message::verbatim`].
    pub fn from_english(text: &str) -> Self {
        if let Some(entry) = ALL.iter().find(|t| t.param_count() == 0 && t.en == text) {
            return Message::from(*entry);
        }
        ALL.iter()
            .filter(|t| t.param_count() > 0)
            .find_map(|t| captures(t.en, text).map(|params| Message::new(*t, params)))
            .unwrap_or_else(|| Message::verbatim(text))
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
    /// A weak password's hint (the estimator's sentences) is put into German too.
    pub fn german(&self) -> String {
        let Some(text) = ALL.iter().find(|t| t.code == self.code) else {
            return self.english.clone();
        };
        if text.code == super::messages::PASSWORD_TOO_EASY_N.code {
            let hints: Vec<String> = self
                .params
                .iter()
                .map(|p| crate::error_text::password_hint_german(p))
                .collect();
            return fill(text.de, &hints);
        }
        fill(text.de, &self.params)
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

/// The texts standing for the `{}`s of `pattern` in `message`, or `None` when it does not
/// match.
fn captures(pattern: &str, message: &str) -> Option<Vec<String>> {
    let parts: Vec<&str> = pattern.split("{}").collect();
    let (first, rest) = parts.split_first()?;
    let mut tail = message.strip_prefix(first)?;
    let mut found = Vec::new();
    for (i, literal) in rest.iter().enumerate() {
        if i + 1 == rest.len() {
            found.push(tail.strip_suffix(literal)?.to_string());
            tail = "";
        } else {
            let at = tail.find(literal).filter(|_| !literal.is_empty())?;
            found.push(tail[..at].to_string());
            tail = &tail[at + literal.len()..];
        }
    }
    (tail.is_empty() && found.iter().all(|c| !c.is_empty())).then_some(found)
}

/// Puts `values` into `text` for its `{}` (in order) or `{n}` (1-based) placeholders; a
/// placeholder without a value stays as it is.
fn fill(text: &str, values: &[String]) -> String {
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

#[cfg(test)]
mod tests {
    use super::super::messages::*;
    use super::*;

    #[test]
    fn a_message_reads_in_english_and_german_with_its_parameters() {
        let m = MUST_BE_AT_MOST_N_CHARACTERS.with([200]);
        assert_eq!(m, "must be at most 200 characters");
        assert_eq!(m.german(), "darf höchstens 200 Zeichen lang sein");
        assert_eq!(m.code(), "must_be_at_most_n_characters");
        let reordered = MUST_HAVE_AT_MOST_N_DECIMALS_IN_N.with(["2", "EUR"]);
        assert_eq!(
            reordered.english(),
            "must have at most 2 decimal places in EUR"
        );
        assert_eq!(
            reordered.german(),
            "darf in EUR höchstens 2 Nachkommastellen haben"
        );
        assert_eq!(Message::from(IS_REQUIRED).text("de"), "ist erforderlich");
        assert_eq!(Message::from(IS_REQUIRED).text("en"), "is required");
    }

    #[test]
    fn every_entry_has_a_unique_code_and_german_with_the_same_parameters() {
        let mut codes = std::collections::BTreeSet::new();
        for text in ALL {
            assert!(codes.insert(text.code), "{} twice", text.code);
            assert!(!text.de.is_empty(), "{} has no German", text.code);
            let params: Vec<String> = (1..=text.param_count()).map(|i| format!("<{i}>")).collect();
            let de = Message::new(*text, params.clone()).german();
            for p in &params {
                assert!(
                    de.contains(p.as_str()),
                    "{}: German drops {p}: {de}",
                    text.code
                );
            }
            assert!(!de.contains('{'), "{}: {de}", text.code);
        }
    }

    #[test]
    fn a_code_read_from_the_wire_gives_the_same_message() {
        let m = N_DOES_NOT_EXIST.with(["project 7"]);
        let wire = m.wire_code();
        assert_eq!(Message::from_code(&wire.code, wire.params), Some(m));
        assert_eq!(Message::from_code("no_such_code", vec![]), None);
        let outside = Message::verbatim("line 3: unexpected end");
        assert_eq!(outside.german(), "line 3: unexpected end");
        let wire = outside.wire_code();
        assert_eq!(Message::from_code(&wire.code, wire.params), Some(outside));
    }

    #[test]
    fn a_library_text_finds_its_entry() {
        let m = Message::from_english("must be a number");
        assert_eq!(m.code(), "must_be_number");
        let m = Message::from_english("invalid type: string \"x\", expected a boolean");
        assert_eq!(m.code(), "invalid_type_n_expected_n");
        assert_eq!(
            m.german(),
            "ungültiger Typ: string \"x\", erwartet: a boolean"
        );
        assert_eq!(Message::from_english("something new").code(), VERBATIM);
    }

    #[test]
    fn a_weak_password_hint_comes_in_german() {
        let m = PASSWORD_TOO_EASY_N.with(["This is a top-10 common password."]);
        assert_eq!(m, "is too easy to guess: This is a top-10 common password.");
        assert_eq!(
            m.german(),
            "ist zu leicht zu erraten: Dies ist eines der 10 häufigsten Passwörter."
        );
    }

    #[test]
    fn serializes_as_its_english_text() {
        let m = MUST_BE_BETWEEN_N_AND_N.with([1, 9]);
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            "\"must be between 1 and 9\""
        );
        let back: Message = serde_json::from_str("\"must be between 1 and 9\"").unwrap();
        assert_eq!(back.code(), VERBATIM);
        assert_eq!(back, "must be between 1 and 9");
    }
}
