//! The ranges of every value on the wire (`docs/decisions.md` § Amount ranges (issue 8)):
//! text lengths, amounts, quantities, percentages, and the checks that report them at the
//! field. A leaf: the totals, the VAT rules, master data and the validation of bodies all
//! use it, and it uses none of them (issue 30: no import circles).

use crate::error::messages;
use crate::error::{push_error, FieldErrors};
use rust_decimal::Decimal;

/// Longest accepted single-line text (title, unit, …), in characters.
pub const MAX_LINE: usize = 500;
/// Longest accepted multi-line text (address, HTML fields), in characters.
pub const MAX_TEXT: usize = 20_000;
/// Most positions on one document.
pub const MAX_POSITIONS: usize = 5_000;

/// Every amount in currency units (unit prices, lump sums, purchase totals, payments,
/// fees, hourly rates, and every computed total) stays strictly between −10^15 and 10^15
/// (`docs/decisions.md` § Amount ranges (issue 8)).
pub const MAX_AMOUNT: Decimal = Decimal::from_parts(0xA4C6_8000, 0x3_8D7E, 0, false, 0);
/// Quantities stay strictly between −10^9 and 10^9.
pub const MAX_QUANTITY: Decimal = Decimal::from_parts(1_000_000_000, 0, 0, false, 0);
/// Hours of one time-sheet entry: at most 24.
pub const MAX_HOURS: Decimal = Decimal::from_parts(24, 0, 0, false, 0);
/// Decimal places a quantity, hours or a percentage may have.
pub const QUANTITY_PLACES: u32 = 4;
/// Decimal places a unit price, lump sum or purchase total may have beyond the currency's
/// minor unit (EUR: 2 + 4 = 6).
pub const EXTRA_PRICE_PLACES: u32 = 4;

/// The places of a unit price, lump sum or purchase position total in `currency`: the
/// minor unit + [`EXTRA_PRICE_PLACES`].
pub fn price_places(currency: &str) -> u32 {
    crate::money::minor_units(currency) + EXTRA_PRICE_PLACES
}

/// Checks that `value` (when given) lies strictly between `-max` and `max` and has at
/// most `places` decimal places (trailing zeros do not count); the message states the
/// range: "must be between -1000000000000000 and 1000000000000000 (exclusive) with at
/// most 6 decimal places".
pub fn check_range(
    errors: &mut FieldErrors,
    field: &str,
    value: Option<Decimal>,
    max: Decimal,
    places: u32,
) {
    if let Some(v) = value {
        if v.abs() >= max || v.normalize().scale() > places {
            push_error(
                errors,
                field,
                crate::error::messages::MUST_BE_BETWEEN_N_AND_N_EXCLUSIVE.with([
                    format!("-{max}"),
                    max.to_string(),
                    places.to_string(),
                ]),
            );
        }
    }
}

/// A unit price, lump sum, cost or purchase total in `currency` ([`MAX_AMOUNT`],
/// [`price_places`]).
pub fn check_price(errors: &mut FieldErrors, field: &str, value: Option<Decimal>, currency: &str) {
    check_range(errors, field, value, MAX_AMOUNT, price_places(currency));
}

/// A quantity ([`MAX_QUANTITY`], [`QUANTITY_PLACES`]).
pub fn check_quantity(errors: &mut FieldErrors, field: &str, value: Option<Decimal>) {
    check_range(errors, field, value, MAX_QUANTITY, QUANTITY_PLACES);
}

/// A percentage (tax, discount, cash discount): 0–100 with at most [`QUANTITY_PLACES`]
/// decimal places.
pub fn percent(errors: &mut FieldErrors, field: &str, value: Option<Decimal>) {
    if let Some(v) = value {
        if v < Decimal::ZERO || v > Decimal::ONE_HUNDRED || v.normalize().scale() > QUANTITY_PLACES
        {
            push_error(
                errors,
                field,
                messages::MUST_BE_PERCENT_WITH_N_DECIMALS.with([QUANTITY_PLACES]),
            );
        }
    }
}
