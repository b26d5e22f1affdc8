//! Unit tests of `migrate` (kept apart so the module itself stays short).

use super::*;
use rust_decimal::Decimal;
use std::str::FromStr;

#[test]
fn canonical_text_keeps_scale_and_tells_null_from_text() {
    assert_eq!(
        canonical(&Arg::Decimal(Some(Decimal::from_str("119.00").unwrap()))),
        "119.00"
    );
    assert_eq!(canonical(&Arg::Text(Some("null".into()))), "\"null\"");
    assert_eq!(canonical(&Arg::Text(None)), "null");
    assert_eq!(canonical(&Arg::Bool(Some(true))), "1");
    assert_eq!(canonical(&Arg::Text(Some("a,b\n".into()))), "\"a,b\\n\"");
    assert_eq!(canonical(&Arg::Bytes(Some(vec![0, 255].into()))), "x00ff");
    let t = kontor_model::timestamp::parse("2026-11-24T10:00:00Z").unwrap();
    assert_eq!(canonical(&Arg::Timestamp(Some(t))), "2026-11-24T10:00:00Z");
}

#[test]
fn kinds_cover_the_types_the_schema_uses() {
    assert_eq!(Kind::of("numeric"), Some(Kind::Decimal));
    assert_eq!(Kind::of("timestamp with time zone"), Some(Kind::Timestamp));
    assert_eq!(Kind::of("double precision"), None);
}
