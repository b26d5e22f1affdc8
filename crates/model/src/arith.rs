//! Checked, exactly rounded arithmetic on amounts (`docs/decisions.md` § Amount ranges
//! (issue 8)).
//!
//! `Decimal`'s `*` and `+` panic on overflow, and its `checked_mul` silently drops digits
//! when an exact product needs more than 28 of them, so rounding that product to cents
//! afterwards could round twice. [`mul_round`] and [`div_round`] compute the exact result
//! in 128-bit integers and round once, half away from zero; both return `None` instead of
//! panicking or saturating when the result does not fit. Every total in
//! [`crate::totals`] and [`crate::purchase_totals`] goes through them.

use rust_decimal::{Decimal, RoundingStrategy};

/// `n / d` rounded half away from zero (`d > 0`).
fn round_div(n: i128, d: i128) -> i128 {
    let q = n / d;
    let r = n % d;
    if r.unsigned_abs() >= (d - r.abs()).unsigned_abs() {
        q + n.signum()
    } else {
        q
    }
}

/// `mantissa / 10^scale` as a Decimal with exactly `places` decimal places, rounded half
/// away from zero; `None` when it does not fit.
fn from_scaled(mantissa: i128, scale: u32, places: u32) -> Option<Decimal> {
    let units = if scale > places {
        match 10i128.checked_pow(scale - places) {
            Some(div) => round_div(mantissa, div),
            // |mantissa| ≤ 1.7·10^38 < 10^39 ≤ divisor / 2: rounds to zero.
            None => 0,
        }
    } else {
        mantissa.checked_mul(10i128.checked_pow(places - scale)?)?
    };
    Decimal::try_from_i128_with_scale(units, places).ok()
}

/// Rounds `value` half away from zero to `places` and gives it exactly that many places.
pub fn round_to(value: Decimal, places: u32) -> Decimal {
    let mut rounded = value.round_dp_with_strategy(places, RoundingStrategy::MidpointAwayFromZero);
    rounded.rescale(places);
    rounded
}

/// `a × b` rounded once, half away from zero, to `places` decimal places; `None` when the
/// result does not fit a Decimal. Exact for every product whose mantissas multiply within
/// 128 bits (all products of in-range amounts); beyond that falls back to
/// `Decimal::checked_mul`.
pub fn mul_round(a: Decimal, b: Decimal, places: u32) -> Option<Decimal> {
    match a.mantissa().checked_mul(b.mantissa()) {
        Some(m) => from_scaled(m, a.scale() + b.scale(), places),
        None => a.checked_mul(b).map(|p| round_to(p, places)),
    }
}

/// `a / b` rounded once, half away from zero, to `places` decimal places; `None` when
/// `b` is zero or the result does not fit. Exact while the scaled operands fit 128 bits
/// (all in-range amounts); beyond that falls back to `Decimal::checked_div`.
pub fn div_round(a: Decimal, b: Decimal, places: u32) -> Option<Decimal> {
    if b.is_zero() {
        return None;
    }
    // a / b = (ma / 10^sa) / (mb / 10^sb) = ma · 10^(sb + places) / (mb · 10^sa) / 10^places
    let exact = (|| {
        let num = a
            .mantissa()
            .checked_mul(10i128.checked_pow(b.scale() + places)?)?;
        let den = b.mantissa().checked_mul(10i128.checked_pow(a.scale())?)?;
        let (num, den) = if den < 0 {
            (num.checked_neg()?, -den)
        } else {
            (num, den)
        };
        Some(round_div(num, den))
    })();
    match exact {
        Some(units) => Decimal::try_from_i128_with_scale(units, places).ok(),
        None => a.checked_div(b).map(|q| round_to(q, places)),
    }
}

/// `a + b`, `None` on overflow (never saturating).
pub fn add(a: Decimal, b: Decimal) -> Option<Decimal> {
    a.checked_add(b)
}

/// `a − b`, `None` on overflow (never saturating).
pub fn sub(a: Decimal, b: Decimal) -> Option<Decimal> {
    a.checked_sub(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn multiplies_exactly_and_rounds_once() {
        assert_eq!(mul_round(d("12.5"), d("95"), 2), Some(d("1187.50")));
        assert_eq!(mul_round(d("-1"), d("0.125"), 2), Some(d("-0.13")));
        assert_eq!(mul_round(d("0.0049999"), d("1"), 2), Some(d("0.00")));
        // 999999999.9999 × 999999999999999.999999 needs 34 digits exactly.
        assert_eq!(
            mul_round(d("999999999.9999"), d("999999999999999.999999"), 2),
            Some(d("999999999999899999999000.00"))
        );
        assert_eq!(
            mul_round(d("1000000000000000"), d("1000000000000000"), 2),
            None
        );
        assert_eq!(mul_round(Decimal::MAX, d("2"), 2), None);
        assert_eq!(
            mul_round(d("0.0000000000000000000000000001"), d("0.1"), 2),
            Some(d("0.00"))
        );
    }

    #[test]
    fn divides_exactly_and_rounds_once() {
        assert_eq!(div_round(d("119"), d("1.19"), 2), Some(d("100.00")));
        assert_eq!(div_round(d("10"), d("1.07"), 2), Some(d("9.35")));
        assert_eq!(div_round(d("-10"), d("1.07"), 2), Some(d("-9.35")));
        assert_eq!(div_round(d("10"), d("-4"), 2), Some(d("-2.50")));
        assert_eq!(div_round(d("1"), Decimal::ZERO, 2), None);
        assert_eq!(div_round(Decimal::MAX, d("0.5"), 2), None);
    }
}
