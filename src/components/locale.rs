//! How the user writes numbers (`docs/decisions.md` § Numbers as typed (issue 8)): the
//! locale the app reads every typed amount, quantity and percentage in, and formats every
//! amount with.
//!
//! The locale comes from the browser language (`navigator.language`: `de*` → German
//! `1.234,56`, anything else → English `1,234.56`, [`Locale::from_language`]). Tests and a
//! future user setting override it with [`set_locale`] before mounting. Parsing and
//! formatting are the shared model's [`parse_number`] / [`format_number`], so what is
//! shown is what is used.

use kontor_model::number_input::{
    format_exact, format_number, parse_number, Locale, NumberInputError,
};
use kontor_model::Decimal;
use std::cell::Cell;

thread_local! {
    static OVERRIDE: Cell<Option<Locale>> = const { Cell::new(None) };
}

/// The browser's locale from `navigator.language` (English when there is none).
pub fn browser_locale() -> Locale {
    web_sys::window()
        .and_then(|w| w.navigator().language())
        .map(|tag| Locale::from_language(&tag))
        .unwrap_or_default()
}

/// The locale in use: the one set with [`set_locale`], else the browser's.
pub fn locale() -> Locale {
    OVERRIDE.with(Cell::get).unwrap_or_else(browser_locale)
}

/// Sets the locale for everything rendered from now on (`None`: the browser's again).
/// Component tests use it to type as a German user would.
pub fn set_locale(locale: Option<Locale>) {
    OVERRIDE.with(|c| c.set(locale));
}

/// Parses a typed number in the current locale: `Ok(None)` for a blank field,
/// `Err(message)` for text that is not a number as the locale writes it (the message is
/// shown at the field).
pub fn parse_typed(text: &str) -> Result<Option<Decimal>, String> {
    match parse_number(text, locale()) {
        Ok(v) => Ok(Some(v)),
        Err(NumberInputError::Empty) => Ok(None),
        Err(e) => Err(e.to_string()),
    }
}

/// A typed number in the current locale, or `None` when blank or not a number (for live
/// totals; saving reports the error at the field through [`parse_typed`]).
pub fn typed_value(text: &str) -> Option<Decimal> {
    parse_typed(text).ok().flatten()
}

/// `value` with exactly `places` decimal places in the current locale (`1.187,50`).
pub fn format_places(value: Decimal, places: u32) -> String {
    format_number(value, places, locale())
}

/// `value` with its own decimal places in the current locale, for putting a stored
/// number back into a text field (`12.50` → `12,50` in German).
pub fn format_input(value: Decimal) -> String {
    format_exact(value, locale())
}
