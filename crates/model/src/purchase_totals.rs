//! Purchase position totals (`decisions.md` § Totals, purchase position).
//!
//! With `tax_included` the given `total` is gross: `net = round(total / (1 + tax/100))`,
//! `tax = total − net`. Otherwise `total` is net and `tax = round(total × tax/100)`.

use crate::money::round_money;
use rust_decimal::Decimal;

/// Net, tax and gross of one purchase position or of a whole purchase (currency units).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PurchaseAmounts {
    /// Net amount.
    pub net_total: Decimal,
    /// Tax amount.
    pub tax_total: Decimal,
    /// `net_total + tax_total`.
    pub gross_total: Decimal,
}

/// Totals of one position from its `total`, `tax` (percent) and `tax_included` flag.
pub fn purchase_position_totals(
    total: Decimal,
    tax: Decimal,
    tax_included: bool,
    currency: &str,
) -> PurchaseAmounts {
    if tax_included {
        let divisor = Decimal::ONE + tax / Decimal::ONE_HUNDRED;
        let net = if divisor.is_zero() {
            Decimal::ZERO
        } else {
            round_money(total / divisor, currency)
        };
        let gross = round_money(total, currency);
        PurchaseAmounts {
            net_total: net,
            tax_total: gross - net,
            gross_total: gross,
        }
    } else {
        let net = round_money(total, currency);
        let tax_total = round_money(total * tax / Decimal::ONE_HUNDRED, currency);
        PurchaseAmounts {
            net_total: net,
            tax_total,
            gross_total: net + tax_total,
        }
    }
}

/// Sums position totals into the purchase's totals.
pub fn sum_purchase_totals(positions: &[PurchaseAmounts]) -> PurchaseAmounts {
    positions
        .iter()
        .fold(PurchaseAmounts::default(), |acc, p| PurchaseAmounts {
            net_total: acc.net_total + p.net_total,
            tax_total: acc.tax_total + p.tax_total,
            gross_total: acc.gross_total + p.gross_total,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn tax_included_splits_gross() {
        let t = purchase_position_totals(d("119"), d("19"), true, "EUR");
        assert_eq!(
            (t.net_total, t.tax_total, t.gross_total),
            (d("100.00"), d("19.00"), d("119"))
        );
        let t = purchase_position_totals(d("10"), d("7"), true, "EUR");
        assert_eq!((t.net_total, t.tax_total), (d("9.35"), d("0.65")));
    }

    #[test]
    fn tax_excluded_adds_tax() {
        let t = purchase_position_totals(d("10.05"), d("19"), false, "EUR");
        assert_eq!(
            (t.net_total, t.tax_total, t.gross_total),
            (d("10.05"), d("1.91"), d("11.96"))
        );
    }

    #[test]
    fn sums_positions() {
        let a = purchase_position_totals(d("119"), d("19"), true, "EUR");
        let b = purchase_position_totals(d("10"), d("7"), false, "EUR");
        let s = sum_purchase_totals(&[a, b]);
        assert_eq!(
            (s.net_total, s.tax_total, s.gross_total),
            (d("110"), d("19.70"), d("129.70"))
        );
    }
}
