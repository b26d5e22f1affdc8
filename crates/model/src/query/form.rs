//! How a list query's values are read and written: [`decode`] / [`encode`] with
//! `serde_html_form`, the value forms [`one`] and [`list`] (`deserialize_with`) through
//! [`Param`], and [`comma_joined`] (`serialize_with`). A malformed value is a
//! [`QueryError`] naming its parameter.

use crate::article::SnippetKind;
use crate::email::{MailDocumentType, MailState};
use crate::offer::OfferStatus;
use crate::party::{CompanyType, Language};
use crate::purchase::{PaymentMethod, PurchaseStatus};
use crate::status::InvoiceStatus;
use chrono::{DateTime, NaiveDate, Utc};
use serde::de::{self, DeserializeOwned, Deserializer, SeqAccess, Visitor};
use serde::{Serialize, Serializer};
use std::fmt;

/// A query parameter with the wrong form (answered with 400 naming it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryError {
    /// Parameter name, e.g. `date_from`.
    pub param: String,
    /// What is wrong, e.g. `must be a date YYYY-MM-DD`.
    pub message: String,
}

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "query parameter {} {}", self.param, self.message)
    }
}

fn bad(param: &str, message: &str) -> QueryError {
    QueryError {
        param: param.to_string(),
        message: message.to_string(),
    }
}

/// Decodes a query string (without `?`) into `T` (`decisions.md` § Lists). Unknown
/// parameters are ignored; a value of the wrong form is a [`QueryError`] naming its
/// parameter as the request spelled it (an alias such as `customer_id` is named so).
pub fn decode<T: DeserializeOwned>(query: &str) -> Result<T, QueryError> {
    let de = serde_html_form::Deserializer::from_bytes(query.as_bytes());
    serde_path_to_error::deserialize(de).map_err(|e| {
        let param = e.path().to_string();
        let message = e.into_inner().to_string();
        QueryError {
            param: if param == "." { "query".into() } else { param },
            message,
        }
    })
}

/// Writes `value` as query pairs (absent and empty fields left out). The filter structs
/// are flat, so writing cannot fail; a shape the format cannot hold writes nothing.
pub fn encode<T: Serialize>(value: &T) -> Vec<(String, String)> {
    let text = serde_html_form::to_string(value).unwrap_or_default();
    form_urlencoded::parse(text.as_bytes())
        .into_owned()
        .collect()
}

/// One query value's form: how a text becomes the value (`None`: wrong form) and what the
/// 400 says then (`must be …`).
pub trait Param: Sized {
    /// What is expected, e.g. `a date YYYY-MM-DD`.
    const EXPECTED: &'static str;
    /// The value of `text` (trimmed, not empty), or `None` when it has the wrong form.
    fn parse_param(text: &str) -> Option<Self>;
}

macro_rules! params {
    ($($t:ty => $expected:literal, $parse:expr;)*) => {$(
        impl Param for $t {
            const EXPECTED: &'static str = $expected;
            fn parse_param(text: &str) -> Option<Self> {
                ($parse)(text)
            }
        }
    )*};
}

params! {
    i64 => "an integer", |t: &str| t.parse().ok();
    u32 => "a positive integer", |t: &str| t.parse().ok().filter(|n| *n > 0);
    String => "a text", |t: &str| Some(t.to_string());
    NaiveDate => "a date YYYY-MM-DD (year 1900–2999)", |t: &str| crate::wire::parse_date(t).ok();
    DateTime<Utc> => "a timestamp YYYY-MM-DDTHH:MM:SSZ", crate::timestamp::parse;
    bool => "true or false", |t: &str| match t { "true" | "1" => Some(true), "false" | "0" => Some(false), _ => None };
    InvoiceStatus => "one of draft, created, sent, partially_paid, paid, overdue, ignored", InvoiceStatus::parse;
    OfferStatus => "one of created, sent, accepted, partially_billed, billed, archived", OfferStatus::parse;
    PurchaseStatus => "pending or approved", PurchaseStatus::parse;
    PaymentMethod => "bank_transfer, direct_debit, credit_card, paypal or cash", PaymentMethod::parse;
    CompanyType => "customer, supplier or organization", CompanyType::parse;
    Language => "de or en", Language::parse;
    SnippetKind => "salutation, footer or email", SnippetKind::parse;
    MailState => "sent, queued or failed", MailState::parse;
    MailDocumentType => "invoice, offer, reminder or order_confirmation", MailDocumentType::parse;
    crate::inbox::InboxMessageState => "imported, needs_review, ignored or failed", crate::inbox::InboxMessageState::parse;
}

/// The texts given for one parameter: one value, or several when it is repeated.
struct Texts;

impl<'de> Visitor<'de> for Texts {
    type Value = Vec<String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a text or repeated texts")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(vec![v.to_string()])
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(Texts)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(text) = seq.next_element::<String>()? {
            out.push(text);
        }
        Ok(out)
    }
}

fn parse_one<T: Param, E: de::Error>(text: &str) -> Result<T, E> {
    T::parse_param(text).ok_or_else(|| E::custom(format!("must be {}", T::EXPECTED)))
}

/// `deserialize_with` for a single value: empty means absent; when repeated, the last
/// value counts. Error: `must be <Param::EXPECTED>`.
pub fn one<'de, D: Deserializer<'de>, T: Param>(d: D) -> Result<Option<T>, D::Error> {
    let texts = d.deserialize_any(Texts)?;
    match texts.iter().map(|t| t.trim()).rfind(|t| !t.is_empty()) {
        Some(text) => parse_one(text).map(Some),
        None => Ok(None),
    }
}

/// `deserialize_with` for a list: comma-separated (`status=sent,paid`), repeated
/// (`tags=a&tags=b`) or both; empty entries and surrounding spaces are dropped.
/// Error: `must be <Param::EXPECTED>` for the first entry of the wrong form.
pub fn list<'de, D: Deserializer<'de>, T: Param>(d: D) -> Result<Vec<T>, D::Error> {
    let texts = d.deserialize_any(Texts)?;
    texts
        .iter()
        .flat_map(|t| split_list(t))
        .map(|t| parse_one(&t))
        .collect()
}

/// `deserialize_with` for an id list that may be given empty (`ids=` selects nothing, so
/// it is `Some(vec![])`, not absent).
pub fn id_list<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<i64>>, D::Error> {
    list(d).map(Some)
}

/// `serialize_with` for a list: the entries joined by commas (`status=sent,paid`).
pub fn comma_joined<S: Serializer, T: Serialize>(items: &[T], s: S) -> Result<S::Ok, S::Error> {
    let texts: Vec<String> = items
        .iter()
        .map(|i| {
            serde_json::to_value(i)
                .ok()
                .map(|v| match v {
                    serde_json::Value::String(s) => s,
                    other => other.to_string(),
                })
                .unwrap_or_default()
        })
        .collect();
    s.serialize_str(&texts.join(","))
}

/// Splits a comma-separated list, dropping empty entries and surrounding spaces.
pub fn split_list(value: &str) -> impl Iterator<Item = String> + '_ {
    value
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// Parses a date `YYYY-MM-DD` (year 1900–2999, [`crate::wire::parse_date`]) for `param`.
pub fn parse_date(param: &str, value: &str) -> Result<NaiveDate, QueryError> {
    crate::wire::parse_date(value).map_err(|m| bad(param, m))
}

/// Parses an integer id for `param`.
pub fn parse_id(param: &str, value: &str) -> Result<i64, QueryError> {
    value
        .trim()
        .parse::<i64>()
        .map_err(|_| bad(param, "must be an integer"))
}
