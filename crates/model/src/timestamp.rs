//! Timestamps on the wire: ISO 8601 UTC `YYYY-MM-DDTHH:MM:SSZ` (interface.md § Conventions).
//!
//! Use as `#[serde(with = "kontor_model::timestamp")]` on a `DateTime<Utc>` field.

use chrono::{DateTime, NaiveDateTime, Utc};
use serde::{Deserialize, Deserializer, Serializer};

const FORMAT: &str = "%Y-%m-%dT%H:%M:%SZ";

/// Writes `time` as `YYYY-MM-DDTHH:MM:SSZ` (seconds precision, UTC).
pub fn serialize<S: Serializer>(time: &DateTime<Utc>, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(&time.format(FORMAT))
}

/// Reads `YYYY-MM-DDTHH:MM:SSZ` or any RFC 3339 timestamp; error when it is neither.
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<DateTime<Utc>, D::Error> {
    let text = String::deserialize(deserializer)?;
    parse(&text)
        .ok_or_else(|| serde::de::Error::custom("expected a timestamp YYYY-MM-DDTHH:MM:SSZ"))
}

/// Parses `YYYY-MM-DDTHH:MM:SSZ` or RFC 3339; `None` when the text is neither.
pub fn parse(text: &str) -> Option<DateTime<Utc>> {
    NaiveDateTime::parse_from_str(text, FORMAT)
        .map(|n| n.and_utc())
        .ok()
        .or_else(|| {
            DateTime::parse_from_rfc3339(text)
                .ok()
                .map(|t| t.with_timezone(&Utc))
        })
}

/// Formats `time` as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn format(time: &DateTime<Utc>) -> String {
    time.format(FORMAT).to_string()
}
