//! Document number formats (issue 9 § The account's own data, `docs/decisions.md`
//! § Account settings (issue 9)): a pattern such as `R{YY}{MM}-{NNN}` or `{YYYY}-{NNNNN}`
//! that the account sets per document kind.
//!
//! A pattern is literal text plus the tokens `{YYYY}` (four-digit year), `{YY}` (two-digit
//! year), `{MM}` (two-digit month) and exactly one counter `{N…}` whose number of `N`s
//! (1–9) is the minimum width; a counter that outgrows it simply gets more digits. The
//! counter restarts every month when `{MM}` is present, every year when only a year token
//! is, and never otherwise ([`Period`]). Literal text may use ASCII letters, digits and
//! `-`, `_`, `.`, `/`, `#`.
//!
//! Pure: the server draws numbers with [`NumberFormat::series_key`] and
//! [`NumberFormat::render`]; the Settings page checks a pattern with [`NumberFormat::parse`]
//! and shows an example.

use chrono::{Datelike, NaiveDate};
use std::fmt;

/// Default invoice number format: `R2611-001`.
pub const DEFAULT_INVOICE_FORMAT: &str = "R{YY}{MM}-{NNN}";
/// Default offer number format: `A2611-001`.
pub const DEFAULT_OFFER_FORMAT: &str = "A{YY}{MM}-{NNN}";
/// Default purchase number format: `E2611-0001`.
pub const DEFAULT_PURCHASE_FORMAT: &str = "E{YY}{MM}-{NNNN}";
/// Default credit note number format: `G2611-001` (issue 33).
pub const DEFAULT_CREDIT_NOTE_FORMAT: &str = "G{YY}{MM}-{NNN}";

/// Longest accepted pattern, in characters.
pub const MAX_PATTERN: usize = 40;
/// Most digits a counter's minimum width may have.
pub const MAX_WIDTH: usize = 9;

/// One piece of a pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Literal(String),
    Year4,
    Year2,
    Month,
    Counter(usize),
}

/// How often a format's counter starts again at 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Period {
    /// Every calendar month (`{MM}` present).
    Month,
    /// Every calendar year (`{YY}` or `{YYYY}` present, no `{MM}`).
    Year,
    /// Never (no date token).
    Never,
}

/// A checked number pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NumberFormat {
    parts: Vec<Part>,
}

/// Why a pattern is refused (the message is shown at the field).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError(pub String);

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn error(message: impl Into<String>) -> FormatError {
    FormatError(message.into())
}

fn is_literal_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | '#')
}

impl NumberFormat {
    /// Parses and checks `pattern`. Errors (as a sentence): empty or longer than
    /// [`MAX_PATTERN`]; an unknown token or an unclosed `{`; a character outside the
    /// literal set; no counter or more than one; a counter wider than [`MAX_WIDTH`]; `{MM}`
    /// without a year token (the numbers of two years would collide).
    pub fn parse(pattern: &str) -> Result<NumberFormat, FormatError> {
        if pattern.trim().is_empty() {
            return Err(error("is required"));
        }
        if pattern.chars().count() > MAX_PATTERN {
            return Err(error(format!("must be at most {MAX_PATTERN} characters")));
        }
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut rest = pattern;
        while let Some(c) = rest.chars().next() {
            if c == '{' {
                let end = rest
                    .find('}')
                    .ok_or_else(|| error("has a { without its closing }"))?;
                let token = &rest[1..end];
                let part = match token {
                    "YYYY" => Part::Year4,
                    "YY" => Part::Year2,
                    "MM" => Part::Month,
                    t if !t.is_empty() && t.chars().all(|c| c == 'N') => {
                        if t.len() > MAX_WIDTH {
                            return Err(error(format!(
                                "the counter may have at most {MAX_WIDTH} digits ({{N}} to {{NNNNNNNNN}})"
                            )));
                        }
                        Part::Counter(t.len())
                    }
                    t => {
                        return Err(error(format!(
                            "has an unknown placeholder {{{t}}} (use {{YYYY}}, {{YY}}, {{MM}} and one counter such as {{NNN}})"
                        )))
                    }
                };
                if !literal.is_empty() {
                    parts.push(Part::Literal(std::mem::take(&mut literal)));
                }
                parts.push(part);
                rest = &rest[end + 1..];
            } else if is_literal_char(c) {
                literal.push(c);
                rest = &rest[c.len_utf8()..];
            } else {
                return Err(error(format!(
                    "may contain only letters A–Z, digits, - _ . / # and placeholders; {c:?} is not allowed"
                )));
            }
        }
        if !literal.is_empty() {
            parts.push(Part::Literal(literal));
        }
        let counters = parts
            .iter()
            .filter(|p| matches!(p, Part::Counter(_)))
            .count();
        if counters != 1 {
            return Err(error(
                "must contain exactly one counter such as {NNN} (one N per minimum digit)",
            ));
        }
        let has_year = parts.iter().any(|p| matches!(p, Part::Year4 | Part::Year2));
        if parts.contains(&Part::Month) && !has_year {
            return Err(error(
                "needs {YY} or {YYYY} when it uses {MM}, or numbers of two years would collide",
            ));
        }
        Ok(NumberFormat { parts })
    }

    /// When the counter restarts (see the module docs).
    pub fn period(&self) -> Period {
        if self.parts.contains(&Part::Month) {
            Period::Month
        } else if self
            .parts
            .iter()
            .any(|p| matches!(p, Part::Year4 | Part::Year2))
        {
            Period::Year
        } else {
            Period::Never
        }
    }

    /// The period `date` falls in, as the counter sees it: `"2026-11"` (monthly),
    /// `"2026"` (yearly) or `""` (never restarts).
    pub fn period_key(&self, date: NaiveDate) -> String {
        match self.period() {
            Period::Month => format!("{:04}-{:02}", date.year(), date.month()),
            Period::Year => format!("{:04}", date.year()),
            Period::Never => String::new(),
        }
    }

    /// The minimum width of the counter, in digits.
    pub fn width(&self) -> usize {
        self.parts
            .iter()
            .find_map(|p| match p {
                Part::Counter(w) => Some(*w),
                _ => None,
            })
            .unwrap_or(1)
    }

    /// The text before and after the counter for a record dated `date`
    /// (`("R2611-", "")` for `R{YY}{MM}-{NNN}` in November 2026).
    pub fn affixes(&self, date: NaiveDate) -> (String, String) {
        let (mut before, mut after) = (String::new(), String::new());
        let mut seen_counter = false;
        for part in &self.parts {
            let text = match part {
                Part::Literal(s) => s.clone(),
                Part::Year4 => format!("{:04}", date.year()),
                Part::Year2 => format!("{:02}", date.year().rem_euclid(100)),
                Part::Month => format!("{:02}", date.month()),
                Part::Counter(_) => {
                    seen_counter = true;
                    continue;
                }
            };
            if seen_counter {
                after.push_str(&text);
            } else {
                before.push_str(&text);
            }
        }
        (before, after)
    }

    /// The number for a record dated `date` with counter value `counter` (from 1):
    /// the counter zero-padded to [`NumberFormat::width`] digits, more when it needs them
    /// (`R{YY}{MM}-{NNN}`, 2026-11-23, 1 → `R2611-001`; 1000 → `R2611-1000`).
    pub fn render(&self, date: NaiveDate, counter: u64) -> String {
        let (before, after) = self.affixes(date);
        format!("{before}{counter:0width$}{after}", width = self.width())
    }

    /// The series a record dated `date` is numbered in: the number with the counter
    /// written `{N}` (`"R2611-{N}"`, `"2026-{N}"`). Two dates share a series exactly
    /// when they share a period ([`NumberFormat::period_key`]), and two patterns that print
    /// the same numbers share a series, so counting per series keeps numbers unique.
    pub fn series_key(&self, date: NaiveDate) -> String {
        let (before, after) = self.affixes(date);
        format!("{before}{{N}}{after}")
    }

    /// The counter value of `identifier` when it is a number of this format in the
    /// period of `date` (the literal and date parts match and the counter part is digits
    /// of at least one character, any width); `None` otherwise. Used to continue a series
    /// after a change of pattern.
    pub fn counter_of(&self, identifier: &str, date: NaiveDate) -> Option<u64> {
        let (before, after) = self.affixes(date);
        let middle = identifier.strip_prefix(&before)?.strip_suffix(&after)?;
        if middle.is_empty() || !middle.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        middle.parse().ok()
    }
}

/// Checks a pattern for a field: `None` when valid, else the message.
pub fn check(pattern: &str) -> Option<String> {
    NumberFormat::parse(pattern).err().map(|e| e.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    fn parse(p: &str) -> NumberFormat {
        NumberFormat::parse(p).unwrap()
    }

    #[test]
    fn todays_formats_give_todays_numbers() {
        let d = day(2026, 11, 23);
        assert_eq!(parse(DEFAULT_INVOICE_FORMAT).render(d, 1), "R2611-001");
        assert_eq!(parse(DEFAULT_OFFER_FORMAT).render(d, 1), "A2611-001");
        assert_eq!(parse(DEFAULT_PURCHASE_FORMAT).render(d, 1), "E2611-0001");
        assert_eq!(parse(DEFAULT_CREDIT_NOTE_FORMAT).render(d, 1), "G2611-001");
        assert_eq!(parse(DEFAULT_INVOICE_FORMAT).render(d, 42), "R2611-042");
        assert_eq!(
            parse(DEFAULT_INVOICE_FORMAT).render(day(2030, 1, 5), 7),
            "R3001-007"
        );
    }

    #[test]
    fn the_counter_widens_on_overflow() {
        let f = parse(DEFAULT_INVOICE_FORMAT);
        assert_eq!(f.render(day(2026, 11, 1), 999), "R2611-999");
        assert_eq!(f.render(day(2026, 11, 1), 1000), "R2611-1000");
        assert_eq!(parse("{N}").render(day(2026, 1, 1), 12), "12");
    }

    #[test]
    fn yearly_and_never_restarting_formats() {
        let f = parse("{YYYY}-{NNNNN}");
        assert_eq!(f.render(day(2026, 3, 1), 1), "2026-00001");
        assert_eq!(f.period(), Period::Year);
        assert_eq!(f.period_key(day(2026, 3, 1)), "2026");
        assert_eq!(
            f.series_key(day(2026, 3, 1)),
            f.series_key(day(2026, 12, 31))
        );
        assert_ne!(f.series_key(day(2026, 3, 1)), f.series_key(day(2027, 1, 1)));
        let never = parse("INV-{NNNN}");
        assert_eq!(never.period(), Period::Never);
        assert_eq!(never.period_key(day(2026, 3, 1)), "");
        assert_eq!(
            never.series_key(day(2026, 3, 1)),
            never.series_key(day(2031, 7, 1))
        );
        let monthly = parse(DEFAULT_INVOICE_FORMAT);
        assert_eq!(monthly.period(), Period::Month);
        assert_eq!(monthly.period_key(day(2026, 11, 23)), "2026-11");
        assert_eq!(monthly.series_key(day(2026, 11, 23)), "R2611-{N}");
        assert_eq!(parse("{NNN}/{YY}").render(day(2026, 5, 1), 3), "003/26");
    }

    #[test]
    fn counter_of_reads_numbers_of_the_same_series_only() {
        let f = parse(DEFAULT_INVOICE_FORMAT);
        let d = day(2026, 11, 2);
        assert_eq!(f.counter_of("R2611-007", d), Some(7));
        assert_eq!(f.counter_of("R2611-1000", d), Some(1000));
        assert_eq!(f.counter_of("R2610-007", d), None);
        assert_eq!(f.counter_of("R2611-", d), None);
        assert_eq!(f.counter_of("R2611-00a", d), None);
        let y = parse("{YYYY}-{NNNNN}");
        assert_eq!(y.counter_of("R2611-007", d), None);
        assert_eq!(y.counter_of("2026-00012", d), Some(12));
        let wide = parse("R{YY}{MM}-{NNNN}");
        assert_eq!(wide.counter_of("R2611-007", d), Some(7));
    }

    #[test]
    fn bad_patterns_are_refused_with_a_reason() {
        for (bad, why) in [
            ("", "required"),
            ("R{YY}{MM}", "exactly one counter"),
            ("{NNN}-{NN}", "exactly one counter"),
            ("R{MM}-{NNN}", "needs {YY}"),
            ("R{XX}-{NNN}", "unknown placeholder"),
            ("R{YY-{NNN}", "unknown placeholder"),
            ("R{NNN", "closing"),
            ("R {NNN}", "not allowed"),
            ("Rä{NNN}", "not allowed"),
            ("R}{NNN}", "not allowed"),
            ("{NNNNNNNNNN}", "at most 9"),
            ("{}", "unknown placeholder"),
        ] {
            let e = NumberFormat::parse(bad).unwrap_err().0;
            assert!(e.contains(why), "{bad}: {e}");
        }
        assert!(check(&format!("{}{{N}}", "A".repeat(40))).is_some());
        assert_eq!(check("RE-{YYYY}/{MM}#{NNN}_x.y"), None);
    }

    #[test]
    fn rendered_numbers_read_back_as_their_counter() {
        for pattern in [
            "R{YY}{MM}-{NNN}",
            "{YYYY}-{NNNNN}",
            "{NNN}{YY}",
            "X{N}",
            "{YY}{NNN}{MM}",
        ] {
            let f = parse(pattern);
            let d = day(2026, 11, 23);
            for n in [1, 9, 10, 999, 1000, 123_456] {
                assert_eq!(f.counter_of(&f.render(d, n), d), Some(n), "{pattern} {n}");
            }
        }
    }
}
