//! Dates: today's date, the wire form `YYYY-MM-DD`, and display in the user's locale.

use super::locale::{display_lang, intl_date};
use chrono::{Datelike, NaiveDate};

/// Today in the browser's time zone.
pub fn today() -> NaiveDate {
    chrono::Local::now().date_naive()
}

/// The wire and `<input type="date">` form: `2026-11-01`.
pub fn iso(date: NaiveDate) -> String {
    date.to_string()
}

/// Parses `YYYY-MM-DD` (an `<input type="date">` value); `None` when empty or invalid.
pub fn parse_iso(text: &str) -> Option<NaiveDate> {
    text.trim().parse().ok()
}

/// The date in the user's language via the browser's `Intl.DateTimeFormat`
/// ([`super::locale::intl_date`]): German `23.11.2026`, English `23 Nov 2026`; the ISO
/// form when the browser cannot format it.
pub fn format_date(date: NaiveDate) -> String {
    intl_date(display_lang(), date.year(), date.month0(), date.day()).unwrap_or_else(|| iso(date))
}

/// The date in `lang` (a customer's language, for texts written to them), like
/// [`format_date`].
pub fn format_date_in(lang: crate::i18n::Lang, date: NaiveDate) -> String {
    intl_date(lang, date.year(), date.month0(), date.day()).unwrap_or_else(|| iso(date))
}

/// An optional date for display; `–` when absent.
pub fn format_opt_date(date: Option<NaiveDate>) -> String {
    date.map(format_date).unwrap_or_else(|| "–".into())
}
