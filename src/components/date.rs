//! Dates: today's date, the wire form `YYYY-MM-DD`, and display in the user's locale.

use chrono::{Datelike, NaiveDate};
use leptos::prelude::window;
use wasm_bindgen::JsValue;

/// Today in the browser's time zone.
pub fn today() -> NaiveDate {
    chrono::Local::now().date_naive()
}

/// The wire and `<input type="date">` form: `2026-11-01`.
pub fn iso(date: NaiveDate) -> String {
    date.format("%Y-%m-%d").to_string()
}

/// Parses `YYYY-MM-DD` (an `<input type="date">` value); `None` when empty or invalid.
pub fn parse_iso(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d").ok()
}

/// The date in the user's locale (`11/1/2026`, `1.11.2026`), via `Date.toLocaleDateString`.
pub fn format_date(date: NaiveDate) -> String {
    let js = js_sys::Date::new_with_year_month_day(
        date.year() as u32,
        date.month0() as i32,
        date.day() as i32,
    );
    let lang = window()
        .navigator()
        .language()
        .unwrap_or_else(|| "en".into());
    let text: String = js.to_locale_date_string(&lang, &JsValue::UNDEFINED).into();
    if text.is_empty() {
        iso(date)
    } else {
        text
    }
}

/// An optional date for display; `–` when absent.
pub fn format_opt_date(date: Option<NaiveDate>) -> String {
    date.map(format_date).unwrap_or_else(|| "–".into())
}
