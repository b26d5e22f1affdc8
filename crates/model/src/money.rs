//! Money: currency minor units and rounding (`decisions.md` § Transport, § Totals).
//!
//! All amounts are [`Decimal`]s. Rounding is half away from zero to the currency's minor
//! unit: 2 places for most currencies, 0 for JPY, KRW and a few others, 3 for BHD, JOD,
//! KWD, OMR and TND. Typed numbers are read by [`crate::number_input`] (one parser for
//! every locale-written amount).

use rust_decimal::{Decimal, RoundingStrategy};

/// Number of decimal places of `currency`'s minor unit (ISO 4217), e.g. `2` for `"EUR"`,
/// `0` for `"JPY"`, `3` for `"KWD"`. Unknown codes get 2.
pub fn minor_units(currency: &str) -> u32 {
    match currency.to_ascii_uppercase().as_str() {
        "BIF" | "CLP" | "DJF" | "GNF" | "ISK" | "JPY" | "KMF" | "KRW" | "PYG" | "RWF" | "UGX"
        | "VND" | "VUV" | "XAF" | "XOF" | "XPF" => 0,
        "BHD" | "IQD" | "JOD" | "KWD" | "LYD" | "OMR" | "TND" => 3,
        _ => 2,
    }
}

/// Rounds `amount` half away from zero to `currency`'s minor unit and gives it exactly
/// that many places, so it is written as `250.00`, never `250` or `250.0`
/// (`round_money(0.125, "EUR") == 0.13`, `round_money(-0.125, "EUR") == -0.13`).
pub fn round_money(amount: Decimal, currency: &str) -> Decimal {
    let places = minor_units(currency);
    let mut rounded = amount.round_dp_with_strategy(places, RoundingStrategy::MidpointAwayFromZero);
    rounded.rescale(places);
    rounded
}

/// Formats `amount` with exactly the currency's minor-unit places and a thousands
/// separator `,` (e.g. `1234.5` EUR → `"1,234.50"`). For display only; the wire carries
/// plain JSON numbers.
pub fn format_amount(amount: Decimal, currency: &str) -> String {
    let places = minor_units(currency);
    let rounded = round_money(amount, currency);
    let text = format!("{:.*}", places as usize, rounded.abs());
    let (int_part, frac_part) = match text.split_once('.') {
        Some((i, f)) => (i.to_string(), Some(f.to_string())),
        None => (text.clone(), None),
    };
    let mut grouped = String::with_capacity(int_part.len() + int_part.len() / 3);
    for (n, ch) in int_part.chars().enumerate() {
        if n > 0 && (int_part.len() - n) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    let sign = if rounded.is_sign_negative() && !rounded.is_zero() {
        "-"
    } else {
        ""
    };
    match frac_part {
        Some(f) => format!("{sign}{grouped}.{f}"),
        None => format!("{sign}{grouped}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn rounds_half_away_from_zero() {
        assert_eq!(round_money(d("0.125"), "EUR"), d("0.13"));
        assert_eq!(round_money(d("-0.125"), "EUR"), d("-0.13"));
        assert_eq!(round_money(d("0.124999"), "EUR"), d("0.12"));
        assert_eq!(round_money(d("2.5"), "JPY"), d("3"));
        assert_eq!(round_money(d("1.0005"), "KWD"), d("1.001"));
        assert_eq!(round_money(d("250"), "EUR").to_string(), "250.00");
        assert_eq!(round_money(d("2.50"), "JPY").to_string(), "3");
    }

    #[test]
    fn formats_with_grouping_and_places() {
        assert_eq!(format_amount(d("1234.5"), "EUR"), "1,234.50");
        assert_eq!(format_amount(d("-1234567.891"), "USD"), "-1,234,567.89");
        assert_eq!(format_amount(d("1234.5"), "JPY"), "1,235");
        assert_eq!(format_amount(d("0"), "CHF"), "0.00");
        assert_eq!(format_amount(d("-0.001"), "EUR"), "0.00");
    }
}
