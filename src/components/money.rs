//! Amounts for display: `1,234.50 EUR` (German browsers: `1.234,50 EUR`), right-aligned
//! with tabular figures by the `.money` class. Formatting is the shared model's
//! [`kontor_model::number_input::format_number`] in the user's [`super::locale`].

use super::locale::format_places;
use kontor_model::money::{minor_units, round_money};
use kontor_model::Decimal;

/// `amount` with the currency's places and code in the user's locale: `"1,234.50 EUR"`
/// (German: `"1.234,50 EUR"`).
pub fn format_money(amount: Decimal, currency: &str) -> String {
    let rounded = round_money(amount, currency);
    format!(
        "{} {}",
        format_places(rounded, minor_units(currency)),
        currency
    )
}
