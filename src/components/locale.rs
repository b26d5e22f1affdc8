//! How the user writes numbers (`docs/decisions.md` § Numbers as typed (issue 8)) and how
//! dates and amounts are shown (§ German and English in the app (issue 12)): the locale the
//! app reads every typed amount, quantity and percentage in, and formats every amount and
//! date with.
//!
//! The locale is the app's language when the user chose one ([`crate::i18n`]), else the
//! browser language (`navigator.language`: `de*` → German `1.234,56`, anything else →
//! English `1,234.56`, [`Locale::from_language`]). Tests override it with [`set_locale`]
//! before mounting. Parsing and the text put back into inputs are the shared model's
//! [`parse_number`] / [`format_exact`], so what is typed is what is used; amounts and
//! dates for display come from the browser's `Intl` formatters ([`intl_number`],
//! [`intl_date`]).

use crate::i18n::{self, Lang};
use kontor_model::number_input::{
    format_exact, format_number, parse_number, Locale, NumberInputError,
};
use kontor_model::Decimal;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use wasm_bindgen::{JsCast, JsValue};

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

/// The locale in use: the one set with [`set_locale`], else the language the user chose
/// ([`i18n::explicit_language`]), else the browser's.
pub fn locale() -> Locale {
    OVERRIDE.with(Cell::get).unwrap_or_else(|| {
        i18n::explicit_language()
            .map(Lang::number_locale)
            .unwrap_or_else(browser_locale)
    })
}

/// The language dates and amounts are shown in: the one of [`locale`].
pub fn display_lang() -> Lang {
    match locale() {
        Locale::De => Lang::De,
        Locale::En => Lang::En,
    }
}

/// Sets the locale for everything rendered from now on (`None`: the browser's again).
/// Component tests use it to type as a German user would.
pub fn set_locale(locale: Option<Locale>) {
    OVERRIDE.with(|c| c.set(locale));
}

/// Parses a typed number in the current locale: `Ok(None)` for a blank field,
/// `Err(message)` for text that is not a number as the locale writes it (the message is
/// shown at the field).
pub fn parse_typed(text: &str) -> Result<Option<Decimal>, kontor_model::error::Message> {
    match parse_number(text, locale()) {
        Ok(v) => Ok(Some(v)),
        Err(NumberInputError::Empty) => Ok(None),
        Err(e) => Err(e.message()),
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

/// A number formatter's key: language, decimal places, currency code.
type NumberFormatKey = (Lang, u32, Option<String>);

thread_local! {
    static NUMBER_FORMATS: RefCell<HashMap<NumberFormatKey, js_sys::Function>> =
        RefCell::new(HashMap::new());
    static DATE_FORMATS: RefCell<HashMap<(Lang, &'static str), js_sys::Function>> =
        RefCell::new(HashMap::new());
}

fn options(pairs: &[(&str, JsValue)]) -> js_sys::Object {
    let object = js_sys::Object::new();
    for (key, value) in pairs {
        let _ = js_sys::Reflect::set(&object, &JsValue::from_str(key), value);
    }
    object
}

fn locales(lang: Lang) -> js_sys::Array {
    js_sys::Array::of1(&JsValue::from_str(lang.intl_locale()))
}

/// `value` (already rounded to `places`) through the browser's `Intl.NumberFormat` of
/// `lang` with exactly `places` decimal places; with `currency` (an ISO 4217 code) in the
/// language's currency style (German `1.234,56 €`). The value is passed as its decimal
/// text, so no float is involved. Non-breaking spaces are written as plain spaces (the
/// `.money` class keeps amounts on one line). `None` when the browser cannot format it.
pub fn intl_number(
    lang: Lang,
    value: Decimal,
    places: u32,
    currency: Option<&str>,
) -> Option<String> {
    let currency = currency.filter(|c| c.len() == 3 && c.bytes().all(|b| b.is_ascii_alphabetic()));
    let key = (lang, places, currency.map(str::to_ascii_uppercase));
    let format = NUMBER_FORMATS.with(|cache| {
        cache
            .borrow_mut()
            .entry(key.clone())
            .or_insert_with(|| {
                let places = JsValue::from_f64(f64::from(places));
                let mut pairs = vec![
                    ("minimumFractionDigits", places.clone()),
                    ("maximumFractionDigits", places),
                ];
                if let Some(code) = &key.2 {
                    pairs.push(("style", "currency".into()));
                    pairs.push(("currency", JsValue::from_str(code)));
                }
                js_sys::Intl::NumberFormat::new(&locales(lang), &options(&pairs)).format()
            })
            .clone()
    });
    let text = format
        .call1(&JsValue::NULL, &JsValue::from_str(&value.to_string()))
        .ok()?
        .as_string()?;
    Some(text.replace(['\u{a0}', '\u{202f}'], " "))
}

/// `date` (a calendar day, no time zone) through the browser's `Intl.DateTimeFormat` of
/// `lang`: German `23.11.2026`, English (en-GB) `23 Nov 2026`. `None` when the browser
/// cannot format it.
pub fn intl_date(lang: Lang, year: i32, month0: u32, day: u32) -> Option<String> {
    let style: &'static str = match lang {
        Lang::De => "2-digit",
        Lang::En => "short",
    };
    let format = DATE_FORMATS.with(|cache| {
        cache
            .borrow_mut()
            .entry((lang, style))
            .or_insert_with(|| {
                let pairs = [
                    (
                        "day",
                        JsValue::from_str(if lang == Lang::De {
                            "2-digit"
                        } else {
                            "numeric"
                        }),
                    ),
                    ("month", JsValue::from_str(style)),
                    ("year", JsValue::from_str("numeric")),
                ];
                js_sys::Intl::DateTimeFormat::new(&locales(lang), &options(&pairs)).format()
            })
            .clone()
    });
    let date = js_sys::Date::new_with_year_month_day(year as u32, month0 as i32, day as i32);
    let text = format
        .call1(&JsValue::NULL, date.unchecked_ref())
        .ok()?
        .as_string()?;
    Some(text.replace(['\u{a0}', '\u{202f}'], " "))
}
