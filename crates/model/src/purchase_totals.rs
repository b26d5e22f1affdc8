//! Purchase position totals (`decisions.md` § Totals, purchase position).
//!
//! With `tax_included` the given `total` is gross: `net = round(total / (1 + tax/100))`,
//! `tax = total − net`. Otherwise `total` is net and `tax = round(total × tax/100)`.

use crate::arith::{div_round, mul_round, round_to};
use crate::money::minor_units;
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

/// Totals of one position from its `total`, `tax` (percent) and `tax_included` flag, each
/// rounded once, half away from zero, to `currency`'s minor unit. `None` when an amount
/// does not fit the decimal type (never panics, never saturates); validation keeps
/// `total` below [`crate::validation::MAX_AMOUNT`] and `tax` within 0–100 so a valid
/// position always has totals.
pub fn purchase_position_totals(
    total: Decimal,
    tax: Decimal,
    tax_included: bool,
    currency: &str,
) -> Option<PurchaseAmounts> {
    let places = minor_units(currency);
    let rate = tax / Decimal::ONE_HUNDRED;
    if tax_included {
        // `None` for a divisor of 0 (tax −100 %, refused by validation).
        let divisor = Decimal::ONE.checked_add(rate)?;
        let net = div_round(total, divisor, places)?;
        let gross = round_to(total, places);
        Some(PurchaseAmounts {
            net_total: net,
            tax_total: gross.checked_sub(net)?,
            gross_total: gross,
        })
    } else {
        let net = round_to(total, places);
        let tax_total = mul_round(total, rate, places)?;
        Some(PurchaseAmounts {
            net_total: net,
            tax_total,
            gross_total: net.checked_add(tax_total)?,
        })
    }
}

/// Sums position totals into the purchase's totals; `None` when a sum overflows.
pub fn sum_purchase_totals(positions: &[PurchaseAmounts]) -> Option<PurchaseAmounts> {
    positions
        .iter()
        .try_fold(PurchaseAmounts::default(), |acc, p| {
            Some(PurchaseAmounts {
                net_total: acc.net_total.checked_add(p.net_total)?,
                tax_total: acc.tax_total.checked_add(p.tax_total)?,
                gross_total: acc.gross_total.checked_add(p.gross_total)?,
            })
        })
}

/// Splits a document's tax amount of one VAT group (category and rate, EN 16931 BT-117)
/// over the group's positions in proportion to their net amounts (`nets`, currency units,
/// negative for allowances): each share is rounded half away from zero to `places`
/// decimals and the rounding difference goes to the position with the largest absolute
/// net, so the shares always sum to `tax` exactly (`decisions.md` § E-invoice import).
/// With no net at all (`Σ nets = 0`) the whole tax goes to the first position.
/// `None` when `nets` is empty or an amount overflows.
pub fn split_group_tax(tax: Decimal, nets: &[Decimal], places: u32) -> Option<Vec<Decimal>> {
    nets.first()?;
    let total = nets
        .iter()
        .try_fold(Decimal::ZERO, |acc, n| acc.checked_add(*n))?;
    let mut shares = if total.is_zero() {
        let mut v = vec![Decimal::ZERO; nets.len()];
        v[0] = tax;
        v
    } else {
        nets.iter()
            .map(|n| {
                let share = tax.checked_mul(*n)?.checked_div(total)?;
                Some(round_to(share, places))
            })
            .collect::<Option<Vec<_>>>()?
    };
    let assigned = shares
        .iter()
        .try_fold(Decimal::ZERO, |acc, s| acc.checked_add(*s))?;
    let difference = tax.checked_sub(assigned)?;
    if !difference.is_zero() {
        // The first of the largest (`max_by` would take the last).
        let largest = (0..nets.len()).fold(0, |best, i| {
            if nets[i].abs() > nets[best].abs() {
                i
            } else {
                best
            }
        });
        shares[largest] = shares[largest].checked_add(difference)?;
    }
    Some(shares)
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
        let t = purchase_position_totals(d("119"), d("19"), true, "EUR").unwrap();
        assert_eq!(
            (t.net_total, t.tax_total, t.gross_total),
            (d("100.00"), d("19.00"), d("119"))
        );
        let t = purchase_position_totals(d("10"), d("7"), true, "EUR").unwrap();
        assert_eq!((t.net_total, t.tax_total), (d("9.35"), d("0.65")));
    }

    #[test]
    fn tax_excluded_adds_tax() {
        let t = purchase_position_totals(d("10.05"), d("19"), false, "EUR").unwrap();
        assert_eq!(
            (t.net_total, t.tax_total, t.gross_total),
            (d("10.05"), d("1.91"), d("11.96"))
        );
    }

    #[test]
    fn sums_positions() {
        let a = purchase_position_totals(d("119"), d("19"), true, "EUR").unwrap();
        let b = purchase_position_totals(d("10"), d("7"), false, "EUR").unwrap();
        let s = sum_purchase_totals(&[a, b]).unwrap();
        assert_eq!(
            (s.net_total, s.tax_total, s.gross_total),
            (d("110"), d("19.70"), d("129.70"))
        );
    }

    #[test]
    fn group_tax_split_sums_to_the_documents_tax() {
        // 3 × 0.10 at 19 %: per position 0.02 each = 0.06, the document says 0.06 (0.057).
        let shares = split_group_tax(d("0.06"), &[d("0.10"), d("0.10"), d("0.10")], 2).unwrap();
        assert_eq!(shares.iter().sum::<Decimal>(), d("0.06"));
        // Per-position rounding would give 0.02 × 3 = 0.06 but the document rounds the
        // group: 3 × 0.05 at 19 % → 0.0285 → 0.03, per position 0.01 × 3 = 0.03.
        let shares = split_group_tax(d("0.03"), &[d("0.05"), d("0.05"), d("0.05")], 2).unwrap();
        assert_eq!(shares.iter().sum::<Decimal>(), d("0.03"));
        // A difference goes to the largest position.
        let shares = split_group_tax(d("1.00"), &[d("1"), d("1"), d("1")], 2).unwrap();
        assert_eq!(shares, vec![d("0.34"), d("0.33"), d("0.33")]);
        // An allowance (negative net) takes a negative share.
        let shares = split_group_tax(d("17.10"), &[d("100"), d("-10")], 2).unwrap();
        assert_eq!(shares, vec![d("19.00"), d("-1.90")]);
        // No net: the first position carries the tax.
        assert_eq!(
            split_group_tax(d("0.50"), &[d("0"), d("0")], 2).unwrap(),
            vec![d("0.50"), d("0")]
        );
        assert_eq!(split_group_tax(d("1"), &[], 2), None);
    }
}
