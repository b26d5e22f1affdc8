//! Timestamps on the wire: ISO 8601 UTC `YYYY-MM-DDTHH:MM:SSZ` (interface.md § Conventions).
//!
//! Use as `#[serde(with = "kontor_model::timestamp")]` on a `DateTime<Utc>` field.

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Deserializer, Serializer};

/// Writes `time` as `YYYY-MM-DDTHH:MM:SSZ` (seconds precision, UTC).
pub fn serialize<S: Serializer>(time: &DateTime<Utc>, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&format(time))
}

/// Reads `YYYY-MM-DDTHH:MM:SSZ` or any RFC 3339 timestamp; error when it is neither.
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<DateTime<Utc>, D::Error> {
    let text = String::deserialize(deserializer)?;
    parse(&text)
        .ok_or_else(|| serde::de::Error::custom("expected a timestamp YYYY-MM-DDTHH:MM:SSZ"))
}

/// Parses `YYYY-MM-DDTHH:MM:SSZ` or any other RFC 3339 timestamp (an offset, fractions of
/// a second); `None` when the text is not one. chrono's RFC 3339 reader, not a format
/// string: the browser bundle carries no strftime code (issue 13).
pub fn parse(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// Formats `time` as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn format(time: &DateTime<Utc>) -> String {
    time.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// The same for an optional timestamp: `null` or `YYYY-MM-DDTHH:MM:SSZ`. Use as
/// `#[serde(default, with = "kontor_model::timestamp::option")]`.
pub mod option {
    use chrono::{DateTime, Utc};
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes `null` or the timestamp.
    pub fn serialize<S: Serializer>(
        time: &Option<DateTime<Utc>>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match time {
            Some(t) => super::serialize(t, serializer),
            None => serializer.serialize_none(),
        }
    }

    /// Reads `null` or a timestamp (any RFC 3339). Errors: "must be a timestamp".
    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<DateTime<Utc>>, D::Error> {
        Option::<String>::deserialize(deserializer)?
            .map(|text| {
                super::parse(&text).ok_or_else(|| serde::de::Error::custom("must be a timestamp"))
            })
            .transpose()
    }
}
