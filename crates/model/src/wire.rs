//! Strict JSON forms of amounts and dates (`docs/decisions.md` § Amount ranges (issue 8)).
//!
//! Use these with `#[serde(with = "...")]` on every [`Decimal`] and request-body
//! [`NaiveDate`] field instead of rust_decimal's or chrono's own serde support:
//!
//! - [`decimal`] / [`decimal_option`]: an amount is a JSON **number** only. A numeric
//!   string (`"12.5"`) is a type error (422 naming the field), a number beyond
//!   [`Decimal`]'s range (`1e308`) is an error on the field, never a saturated value.
//!   Numbers travel through serde_json's `arbitrary_precision` text, never through `f64`.
//! - [`date`] / [`date_option`]: a date is a string `YYYY-MM-DD` with exactly four year
//!   digits, two month and two day digits, and a year from [`MIN_YEAR`] to [`MAX_YEAR`]
//!   (`"2026-1-1"` and `"0000-01-01"` are refused). [`parse_date`] applies the same rule to
//!   query parameters.

use chrono::{Datelike, NaiveDate};
use rust_decimal::Decimal;
use serde::de::{self, Deserializer, MapAccess, Unexpected, Visitor};
use serde::{Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// serde_json's private key under which an `arbitrary_precision` number is handed to a
/// visitor as a one-entry map.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// Earliest accepted year of a date.
pub const MIN_YEAR: i32 = 1900;
/// Latest accepted year of a date.
pub const MAX_YEAR: i32 = 2999;

/// Why a text is not a date of this application.
pub const DATE_MESSAGE: &str = "must be a date YYYY-MM-DD with a year from 1900 to 2999";

/// Parses `text` as a decimal number the way JSON writes it (`12.5`, `-3`, `1e2`);
/// errors when it does not fit [`Decimal`] (28–29 significant digits, |x| < 7.9·10^28).
pub fn parse_json_number(text: &str) -> Result<Decimal, String> {
    Decimal::from_str(text)
        .or_else(|_| Decimal::from_scientific(text))
        .map_err(|_| format!("{text} is out of range (at most 28 digits, |value| < 7.9e28)"))
}

/// Parses a date `YYYY-MM-DD` (year 1900–2999, a real calendar day); the error is
/// [`DATE_MESSAGE`]. Used for JSON bodies ([`date`]) and query parameters.
pub fn parse_date(text: &str) -> Result<NaiveDate, &'static str> {
    let bytes = text.as_bytes();
    let shape_ok = bytes.len() == 10
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && bytes
            .iter()
            .enumerate()
            .all(|(i, b)| i == 4 || i == 7 || b.is_ascii_digit());
    if !shape_ok {
        return Err(DATE_MESSAGE);
    }
    let date = NaiveDate::from_str(text).map_err(|_| DATE_MESSAGE)?;
    if (MIN_YEAR..=MAX_YEAR).contains(&date.year()) {
        Ok(date)
    } else {
        Err(DATE_MESSAGE)
    }
}

/// Reads `value` as `T` through its JSON text, so every number keeps its exact digits
/// (serde_json hands a `Value`'s non-integer numbers to visitors as `f64`; through the
/// text they arrive as the digits, [`decimal`]). For any `Value` that holds amounts: event
/// data, partial updates merged onto a stored record, form bodies. Errors: `T`'s.
pub fn from_value<T: serde::de::DeserializeOwned>(
    value: &serde_json::Value,
) -> Result<T, serde_json::Error> {
    serde_json::from_str(&value.to_string())
}

struct DecimalVisitor;

impl<'de> Visitor<'de> for DecimalVisitor {
    type Value = Decimal;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON number")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Decimal, E> {
        Ok(Decimal::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Decimal, E> {
        Ok(Decimal::from(v))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Decimal, A::Error> {
        match map.next_key::<String>()? {
            Some(key) if key == NUMBER_TOKEN => {}
            _ => return Err(de::Error::invalid_type(Unexpected::Map, &self)),
        }
        let text: String = map.next_value()?;
        parse_json_number(&text).map_err(de::Error::custom)
    }
}

/// A [`Decimal`] as a strict JSON number (see the module docs).
pub mod decimal {
    use super::*;

    /// Writes `value` as a JSON number with its exact digits (`250.00`).
    pub fn serialize<S: Serializer>(value: &Decimal, serializer: S) -> Result<S::Ok, S::Error> {
        serde_json::Number::from_str(&value.to_string())
            .map_err(serde::ser::Error::custom)?
            .serialize(serializer)
    }

    /// Reads a JSON number; a string, `true`, an object… is a type error.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Decimal, D::Error> {
        deserializer.deserialize_any(DecimalVisitor)
    }
}

/// An optional [`Decimal`] as a strict JSON number or `null` (see the module docs).
pub mod decimal_option {
    use super::*;

    /// Writes `Some` as a JSON number, `None` as `null`.
    pub fn serialize<S: Serializer>(
        value: &Option<Decimal>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => super::decimal::serialize(v, serializer),
            None => serializer.serialize_none(),
        }
    }

    struct OptionVisitor;

    impl<'de> Visitor<'de> for OptionVisitor {
        type Value = Option<Decimal>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON number or null")
        }

        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            super::decimal::deserialize(d).map(Some)
        }
    }

    /// Reads a JSON number or `null`; a string is a type error.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Decimal>, D::Error> {
        deserializer.deserialize_option(OptionVisitor)
    }
}

struct DateVisitor;

impl<'de> Visitor<'de> for DateVisitor {
    type Value = NaiveDate;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a date YYYY-MM-DD")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<NaiveDate, E> {
        parse_date(v).map_err(E::custom)
    }
}

/// A [`NaiveDate`] as a strict `YYYY-MM-DD` string (see the module docs).
pub mod date {
    use super::*;

    /// Writes `YYYY-MM-DD`.
    pub fn serialize<S: Serializer>(value: &NaiveDate, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(value)
    }

    /// Reads `YYYY-MM-DD` with a year 1900–2999; anything else is an error on the field.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<NaiveDate, D::Error> {
        deserializer.deserialize_str(DateVisitor)
    }
}

/// An optional [`NaiveDate`] as a strict `YYYY-MM-DD` string or `null`.
pub mod date_option {
    use super::*;

    /// Writes `Some` as `YYYY-MM-DD`, `None` as `null`.
    pub fn serialize<S: Serializer>(
        value: &Option<NaiveDate>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => super::date::serialize(v, serializer),
            None => serializer.serialize_none(),
        }
    }

    struct OptionVisitor;

    impl<'de> Visitor<'de> for OptionVisitor {
        type Value = Option<NaiveDate>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a date YYYY-MM-DD or null")
        }

        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            super::date::deserialize(d).map(Some)
        }
    }

    /// Reads `YYYY-MM-DD` (year 1900–2999) or `null`.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<NaiveDate>, D::Error> {
        deserializer.deserialize_option(OptionVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, Serialize, PartialEq)]
    struct Body {
        #[serde(default, with = "decimal_option")]
        tax: Option<Decimal>,
        #[serde(default, with = "date_option")]
        date: Option<NaiveDate>,
    }

    #[derive(Debug, Deserialize, Serialize, PartialEq)]
    struct Required {
        #[serde(with = "decimal")]
        amount: Decimal,
        #[serde(with = "date")]
        date: NaiveDate,
    }

    fn body(json: &str) -> Result<Body, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn numbers_are_exact_and_strings_refused() {
        let b = body(r#"{"tax": 12.50}"#).unwrap();
        assert_eq!(b.tax.unwrap().to_string(), "12.50");
        assert_eq!(
            body(r#"{"tax": 1e2}"#).unwrap().tax,
            Some(Decimal::from(100))
        );
        assert_eq!(body(r#"{"tax": null}"#).unwrap().tax, None);
        assert_eq!(body("{}").unwrap().tax, None);
        assert!(body(r#"{"tax": "12.5"}"#)
            .unwrap_err()
            .contains("invalid type"));
        assert!(body(r#"{"tax": 1e308}"#)
            .unwrap_err()
            .contains("out of range"));
        assert!(body(r#"{"tax": true}"#).is_err());
        // A binary float is no amount: serde_json's own `from_value` (which hands a Value's
        // numbers over as `f64`) is refused; [`from_value`] reads the digits.
        let from_float = serde_json::from_value::<Body>(serde_json::json!({"tax": 0.1}));
        assert!(from_float.is_err(), "{from_float:?}");
        let exact: Body = from_value(&serde_json::json!({"tax": 0.1})).unwrap();
        assert_eq!(exact.tax.unwrap().to_string(), "0.1");
        let big: serde_json::Value =
            serde_json::from_str(r#"{"tax": 12345678901234.5678}"#).unwrap();
        let exact: Body = from_value(&big).unwrap();
        assert_eq!(exact.tax.unwrap().to_string(), "12345678901234.5678");
        // A Value parsed from text keeps the digits.
        let parsed: serde_json::Value = serde_json::from_str(r#"{"tax": 0.10}"#).unwrap();
        let from_text: Body = from_value(&parsed).unwrap();
        assert_eq!(from_text.tax.unwrap().to_string(), "0.10");
        assert!(body(r#"{"tax": {"a": 1}}"#).is_err());
    }

    #[test]
    fn round_trip_keeps_digits() {
        let r: Required =
            serde_json::from_str(r#"{"amount": 250.00, "date": "2026-11-01"}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"amount":250.00,"date":"2026-11-01"}"#
        );
        let b = Body {
            tax: None,
            date: None,
        };
        assert_eq!(
            serde_json::to_string(&b).unwrap(),
            r#"{"tax":null,"date":null}"#
        );
    }

    #[test]
    fn dates_are_strict() {
        assert_eq!(
            body(r#"{"date": "2026-02-28"}"#).unwrap().date,
            NaiveDate::from_ymd_opt(2026, 2, 28)
        );
        for bad in [
            "0000-01-01",
            "2026-1-1",
            "1899-12-31",
            "3000-01-01",
            "2026-02-30",
            "+2026-01-01",
            "2026-01-01T00:00:00",
            " 2026-01-01",
            "",
        ] {
            let json = format!(r#"{{"date": "{bad}"}}"#);
            assert!(body(&json).is_err(), "{bad} accepted");
            assert_eq!(parse_date(bad), Err(DATE_MESSAGE), "{bad}");
        }
        assert!(body(r#"{"date": 20260101}"#).is_err());
        assert_eq!(parse_date("1900-01-01").unwrap().year(), 1900);
        assert_eq!(parse_date("2999-12-31").unwrap().year(), 2999);
    }
}
