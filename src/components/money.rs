//! Amounts for display through the browser's `Intl.NumberFormat` in the user's language
//! (`docs/decisions.md` § German and English in the app): English `1,234.50 EUR` (the code
//! after the number, as before), German `1.234,50 €` (the currency style of `de-DE`);
//! right-aligned with tabular figures by the `.money` class.

use super::locale::{display_lang, format_places, intl_number};
use crate::i18n::Lang;
use kontor_model::money::{minor_units, round_money};
use kontor_model::Decimal;

/// `amount` rounded to the currency's places, in the user's language: `"1,234.50 EUR"`
/// (German: `"1.234,50 €"`). Falls back to the shared model's formatting with the code
/// when the browser cannot format it.
pub fn format_money(amount: Decimal, currency: &str) -> String {
    format_money_in(display_lang(), amount, currency)
}

/// [`format_money`] in `lang` (a customer's language, for texts written to them).
pub fn format_money_in(lang: Lang, amount: Decimal, currency: &str) -> String {
    let rounded = round_money(amount, currency);
    let places = minor_units(currency);
    let intl = match lang {
        Lang::De => intl_number(lang, rounded, places, Some(currency)),
        Lang::En => intl_number(lang, rounded, places, None).map(|n| format!("{n} {currency}")),
    };
    intl.unwrap_or_else(|| format!("{} {}", format_places(rounded, places), currency))
}
