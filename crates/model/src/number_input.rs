//! Numbers as people type them: one parser for every amount, quantity and percentage the
//! app reads from a text field, and its formatter (`docs/decisions.md` § Numbers as typed
//! (issue 8)).
//!
//! | locale | decimal separator | group separator | examples |
//! |---|---|---|---|
//! | [`Locale::De`] | `,` | `.` | `1.234,56`, `1234,56`, `12,5`, `-3,5`, `1.200` (= 1200) |
//! | [`Locale::En`] | `.` | `,` | `1,234.56`, `1234.56`, `12.5`, `-3.5`, `1,200` (= 1200) |
//!
//! Group separators are optional, but when used they must sit between groups of exactly
//! three digits (the first group 1–3 digits) and only before the decimal separator. So
//! `1.20` and `12.5` are malformed in German (not read as 1.2 or 12.5, nor silently as
//! 120 or 125), `12,5` and `1,20` malformed in English, `1.2.3` malformed in both. At most
//! one decimal separator with at least one digit after it; an optional leading `-` or `+`
//! (`−` U+2212 counts as `-`); surrounding spaces ignored; no exponents, no spaces inside.
//! [`format_number`] writes what [`parse_number`] reads, so the value shown is the value
//! used.

use rust_decimal::{Decimal, RoundingStrategy};
use std::fmt;
use std::str::FromStr;

/// How numbers are written: the user's locale as the app decides it from the browser
/// language (`de*` → German, everything else → English).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Locale {
    /// German: `1.234,56`.
    De,
    /// English: `1,234.56`.
    #[default]
    En,
}

impl Locale {
    /// The locale of a BCP 47 language tag such as `navigator.language`: `de`, `de-DE`,
    /// `de-AT`… → [`Locale::De`], anything else → [`Locale::En`].
    pub fn from_language(tag: &str) -> Self {
        let primary = tag.split(['-', '_']).next().unwrap_or("");
        if primary.eq_ignore_ascii_case("de") {
            Locale::De
        } else {
            Locale::En
        }
    }

    /// The decimal separator (`,` in German, `.` in English).
    pub fn decimal_separator(self) -> char {
        match self {
            Locale::De => ',',
            Locale::En => '.',
        }
    }

    /// The group (thousands) separator (`.` in German, `,` in English).
    pub fn group_separator(self) -> char {
        match self {
            Locale::De => '.',
            Locale::En => ',',
        }
    }

    /// An example of a well-written number for error messages (`1.234,56`).
    pub fn example(self) -> &'static str {
        match self {
            Locale::De => "1.234,56",
            Locale::En => "1,234.56",
        }
    }
}

/// Why a typed text is not a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberInputError {
    /// Nothing but spaces was typed (optional fields treat this as "not given").
    Empty,
    /// Not a number as the locale writes it (a letter, a misplaced separator, `1.2.3`).
    Malformed(Locale),
    /// A number too long for the decimal type (more than 28 significant digits).
    OutOfRange,
}

impl fmt::Display for NumberInputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NumberInputError::Empty => f.write_str("is required"),
            NumberInputError::Malformed(locale) => write!(
                f,
                "is not a number; write it like {} (groups of three digits)",
                locale.example()
            ),
            NumberInputError::OutOfRange => f.write_str("has too many digits"),
        }
    }
}

impl std::error::Error for NumberInputError {}

impl NumberInputError {
    /// The field message (`crate::error::messages`): the `Display` text, with its German.
    pub fn message(&self) -> crate::error::Message {
        use crate::error::messages;
        match self {
            NumberInputError::Empty => messages::IS_REQUIRED.into(),
            NumberInputError::Malformed(locale) => {
                messages::IS_NOT_NUMBER_WRITE_LIKE_N.with([locale.example()])
            }
            NumberInputError::OutOfRange => messages::HAS_TOO_MANY_DIGITS.into(),
        }
    }
}

/// Parses `text` as the user typed it in `locale` (see the module docs for the exact
/// rule): `parse_number("1.234,56", Locale::De) == Ok(1234.56)`,
/// `parse_number("12,5", Locale::En)` is [`NumberInputError::Malformed`].
///
/// The result keeps the typed digits (`"12,50"` → `12.50`). Errors: [`NumberInputError`].
pub fn parse_number(text: &str, locale: Locale) -> Result<Decimal, NumberInputError> {
    let malformed = NumberInputError::Malformed(locale);
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(NumberInputError::Empty);
    }
    let (negative, rest) = if let Some(r) = trimmed
        .strip_prefix('-')
        .or_else(|| trimmed.strip_prefix('\u{2212}'))
    {
        (true, r)
    } else {
        (false, trimmed.strip_prefix('+').unwrap_or(trimmed))
    };
    let (int_part, frac_part) = match rest.split_once(locale.decimal_separator()) {
        Some((i, f)) => (i, Some(f)),
        None => (rest, None),
    };
    if let Some(frac) = frac_part {
        if frac.is_empty() || !frac.bytes().all(|b| b.is_ascii_digit()) {
            return Err(malformed);
        }
    }
    let int_digits = integer_digits(int_part, locale.group_separator()).ok_or(malformed)?;
    if int_digits.is_empty() && frac_part.is_none() {
        return Err(malformed);
    }
    let mut plain = String::with_capacity(rest.len() + 2);
    if negative {
        plain.push('-');
    }
    plain.push_str(if int_digits.is_empty() {
        "0"
    } else {
        &int_digits
    });
    if let Some(frac) = frac_part {
        plain.push('.');
        plain.push_str(frac);
    }
    let digits = plain.bytes().filter(u8::is_ascii_digit).count();
    let significant = plain
        .trim_start_matches('-')
        .trim_start_matches(['0', '.'])
        .bytes()
        .filter(u8::is_ascii_digit)
        .count();
    if digits > 60 || significant > 28 {
        return Err(NumberInputError::OutOfRange);
    }
    Decimal::from_str(&plain).map_err(|_| NumberInputError::OutOfRange)
}

/// The digits of an integer part with optional group separators at valid positions;
/// `None` when a separator is misplaced or a non-digit appears. `""` stays `""`.
fn integer_digits(int_part: &str, group: char) -> Option<String> {
    if !int_part.contains(group) {
        return int_part
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| int_part.to_string());
    }
    let mut groups = int_part.split(group);
    let first = groups.next()?;
    if first.is_empty() || first.len() > 3 || !first.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut digits = first.to_string();
    for g in groups {
        if g.len() != 3 || !g.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        digits.push_str(g);
    }
    Some(digits)
}

/// Formats `value` for `locale` with exactly `places` decimal places (rounded half away
/// from zero) and group separators: `format_number(1187.5, 2, De) == "1.187,50"`,
/// `format_number(-1234.5, 2, En) == "-1,234.50"`. [`parse_number`] reads the result back
/// as the same value. To keep a value's own digits pass `value.scale()`.
pub fn format_number(value: Decimal, places: u32, locale: Locale) -> String {
    let mut rounded = value.round_dp_with_strategy(places, RoundingStrategy::MidpointAwayFromZero);
    rounded.rescale(places);
    let text = rounded.abs().to_string();
    let (int_part, frac_part) = match text.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (text.as_str(), None),
    };
    let mut out = String::with_capacity(text.len() + text.len() / 3 + 2);
    if rounded.is_sign_negative() && !rounded.is_zero() {
        out.push('-');
    }
    for (n, ch) in int_part.chars().enumerate() {
        if n > 0 && (int_part.len() - n) % 3 == 0 {
            out.push(locale.group_separator());
        }
        out.push(ch);
    }
    if let Some(f) = frac_part {
        out.push(locale.decimal_separator());
        out.push_str(f);
    }
    out
}

/// Formats `value` for `locale` keeping its own decimal places (`12.50` → `12,50`), for
/// putting a stored quantity or price back into a text field.
pub fn format_exact(value: Decimal, locale: Locale) -> String {
    format_number(value, value.scale(), locale)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use Locale::{De, En};

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    fn ok(text: &str, locale: Locale) -> String {
        parse_number(text, locale).unwrap().to_string()
    }

    #[test]
    fn german_numbers() {
        assert_eq!(ok("1.234,56", De), "1234.56");
        assert_eq!(ok("12,5", De), "12.5");
        assert_eq!(ok("1234,56", De), "1234.56");
        assert_eq!(ok("-3,5", De), "-3.5");
        assert_eq!(ok("1.000,00", De), "1000.00");
        assert_eq!(ok("1.200,50", De), "1200.50");
        assert_eq!(ok("1.200", De), "1200");
        assert_eq!(ok("0,5", De), "0.5");
        assert_eq!(ok(",5", De), "0.5");
        assert_eq!(ok(" 95 ", De), "95");
        assert_eq!(ok("1.234.567,891", De), "1234567.891");
        assert_eq!(ok("\u{2212}2", De), "-2");
        assert_eq!(ok("+2", De), "2");
    }

    #[test]
    fn english_numbers() {
        assert_eq!(ok("1,234.56", En), "1234.56");
        assert_eq!(ok("12.5", En), "12.5");
        assert_eq!(ok("1234.56", En), "1234.56");
        assert_eq!(ok("-3.5", En), "-3.5");
        assert_eq!(ok("1,000.00", En), "1000.00");
        assert_eq!(ok("0.5", En), "0.5");
    }

    #[test]
    fn ambiguous_or_malformed_is_an_error() {
        for bad in [
            "1.20",
            "12.5",
            "1.2.3",
            "1.2345",
            "1..234",
            ".234",
            "1.234.5",
            "12,",
            "1,2,3",
            "1,234,5",
            "abc",
            "1e3",
            "1 234",
            "--1",
            "-",
            ",",
            "12,5€",
            "1.234,5,6",
            "0x10",
        ] {
            assert_eq!(
                parse_number(bad, De),
                Err(NumberInputError::Malformed(De)),
                "{bad}"
            );
        }
        for bad in [
            "12,5", "1,20", "1.2.3", "1,2345", "12.", ",234", "1,234,5", "1e3", "1.234,56",
        ] {
            assert_eq!(
                parse_number(bad, En),
                Err(NumberInputError::Malformed(En)),
                "{bad}"
            );
        }
        assert_eq!(parse_number("  ", De), Err(NumberInputError::Empty));
        assert_eq!(
            parse_number("123456789012345678901234567890", En),
            Err(NumberInputError::OutOfRange)
        );
    }

    #[test]
    fn formats_for_the_locale() {
        assert_eq!(format_number(d("1187.5"), 2, De), "1.187,50");
        assert_eq!(format_number(d("1187.5"), 2, En), "1,187.50");
        assert_eq!(format_number(d("-1234567.891"), 2, De), "-1.234.567,89");
        assert_eq!(format_number(d("0.125"), 2, En), "0.13");
        assert_eq!(format_number(d("-0.001"), 2, De), "0,00");
        assert_eq!(format_number(d("999"), 0, De), "999");
        assert_eq!(format_exact(d("12.50"), De), "12,50");
        assert_eq!(format_exact(d("1200"), En), "1,200");
    }

    #[test]
    fn language_tags() {
        assert_eq!(Locale::from_language("de-DE"), De);
        assert_eq!(Locale::from_language("de"), De);
        assert_eq!(Locale::from_language("DE-at"), De);
        assert_eq!(Locale::from_language("en-US"), En);
        assert_eq!(Locale::from_language("fr"), En);
        assert_eq!(Locale::from_language("dev"), En);
        assert_eq!(Locale::from_language(""), En);
    }

    proptest! {
        /// What is shown is what is read back, in both locales.
        #[test]
        fn format_then_parse_round_trips(units in any::<i64>(), scale in 0u32..8, german: bool) {
            let locale = if german { De } else { En };
            let value = Decimal::new(units, scale);
            let shown = format_exact(value, locale);
            prop_assert_eq!(parse_number(&shown, locale), Ok(value));
        }
    }
}
