//! An incoming e-invoice as purchase positions (issue 10 § Receiving; `docs/decisions.md`
//! § E-invoice import (issue 10)).
//!
//! One position per invoice line (BG-25) with its net amount (BT-131) and VAT rate
//! (BT-152, 0 for categories other than `S`), one negative position per document-level
//! allowance (BG-20) and one positive position per charge (BG-21) — allowances and charges
//! of 0 are left out. The VAT of each group (category and rate) is the document's own
//! BT-117, split over the group's positions in proportion to their nets
//! ([`kontor_model::purchase_totals::split_group_tax`]); so the positions sum to BT-109
//! (net), BT-110 (VAT) and BT-112 (gross) exactly, whatever rounding the seller used.

use crate::semantic::{Invoice, VatCategory};
use kontor_model::money::minor_units;
use kontor_model::purchase_totals::{split_group_tax, sum_purchase_totals, PurchaseAmounts};
use rust_decimal::Decimal;

/// One purchase position made from the document.
#[derive(Clone, Debug, PartialEq)]
pub struct BookedPosition {
    /// Title: the item name (BT-153), or the allowance/charge reason (BT-97/BT-104).
    pub title: String,
    /// VAT rate in percent (0 for non-standard categories).
    pub tax: Decimal,
    /// The VAT category (for the readable view; purchases store the rate only).
    pub category: VatCategory,
    /// Net, tax and gross in currency units (negative for an allowance).
    pub amounts: PurchaseAmounts,
}

/// The positions of a purchase booked from `invoice`, and their sum (net = BT-109,
/// tax = BT-110, gross = BT-112 when the document adds up, see [`reproduces_totals`]).
/// `None` when an amount overflows. A document whose sums do not add up is booked as it
/// states its lines, allowances, charges and VAT per category (issue 36: imported with
/// its findings, never with totals Kontor made up).
pub fn purchase_positions(invoice: &Invoice) -> Option<(Vec<BookedPosition>, PurchaseAmounts)> {
    let mut positions: Vec<(String, VatCategory, Decimal, Decimal)> = invoice
        .lines
        .iter()
        .map(|l| (l.name.clone(), l.category, l.rate, l.net_amount))
        .collect();
    for (list, sign, fallback) in [
        (&invoice.allowances, Decimal::NEGATIVE_ONE, "Allowance"),
        (&invoice.charges, Decimal::ONE, "Charge"),
    ] {
        for a in list.iter().filter(|a| !a.amount.is_zero()) {
            let title = a
                .reason
                .clone()
                .or_else(|| a.reason_code.clone())
                .unwrap_or_else(|| fallback.to_string());
            positions.push((title, a.category, a.rate, a.amount.checked_mul(sign)?));
        }
    }
    let places = minor_units(&invoice.currency);
    let mut taxes = vec![Decimal::ZERO; positions.len()];
    // The document's VAT per group, in the order of its breakdown.
    let mut groups: Vec<(VatCategory, Decimal, Decimal)> = Vec::new();
    for b in &invoice.vat_breakdown {
        match groups
            .iter_mut()
            .find(|(c, r, _)| *c == b.category && *r == b.rate)
        {
            Some(g) => g.2 = g.2.checked_add(b.tax_amount)?,
            None => groups.push((b.category, b.rate, b.tax_amount)),
        }
    }
    let mut extra = Vec::new();
    for (category, rate, tax) in groups {
        let members: Vec<usize> = (0..positions.len())
            .filter(|i| positions[*i].1 == category && positions[*i].2 == rate)
            .collect();
        if members.is_empty() {
            if !tax.is_zero() {
                // VAT stated without a line of its group: booked on its own so the total
                // stays the document's.
                extra.push((
                    format!("VAT {} % ({})", rate.normalize(), category.code()),
                    category,
                    rate,
                    tax,
                ));
            }
            continue;
        }
        let nets: Vec<Decimal> = members.iter().map(|i| positions[*i].3).collect();
        let shares = split_group_tax(tax, &nets, places)?;
        for (i, share) in members.into_iter().zip(shares) {
            taxes[i] = share;
        }
    }
    let rate_of = |category: VatCategory, rate: Decimal| {
        if category == VatCategory::Standard {
            rate
        } else {
            Decimal::ZERO
        }
    };
    let mut booked = positions
        .into_iter()
        .zip(taxes)
        .map(|((title, category, rate, net), tax)| {
            Some(BookedPosition {
                title,
                tax: rate_of(category, rate),
                category,
                amounts: PurchaseAmounts {
                    net_total: net,
                    tax_total: tax,
                    gross_total: net.checked_add(tax)?,
                },
            })
        })
        .collect::<Option<Vec<_>>>()?;
    for (title, category, rate, tax) in extra {
        booked.push(BookedPosition {
            title,
            tax: rate_of(category, rate),
            category,
            amounts: PurchaseAmounts {
                net_total: Decimal::ZERO,
                tax_total: tax,
                gross_total: tax,
            },
        });
    }
    let amounts: Vec<PurchaseAmounts> = booked.iter().map(|p| p.amounts).collect();
    let sum = sum_purchase_totals(&amounts)?;
    Some((booked, sum))
}

/// Whether the booked `sum` reproduces the document's totals to the cent (net = BT-109,
/// tax = BT-110, gross = BT-112) — always for a document without calculation findings
/// (BR-CO-10 … 17, BR-x-08/09 of [`crate::conformance`]).
pub fn reproduces_totals(invoice: &Invoice, sum: &PurchaseAmounts) -> bool {
    let t = &invoice.totals;
    sum.net_total == t.tax_exclusive
        && sum.tax_total == t.tax_total
        && sum.gross_total == t.tax_inclusive
}
