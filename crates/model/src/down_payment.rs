//! Down-payment and final invoices (Abschlags- und Schlussrechnung, issue 33;
//! `docs/decisions.md` § Down-payment and final invoices; § 14 (5) UStG).
//!
//! A down payment (`kind: "down_payment"`) is an invoice like any other. A final invoice
//! (`kind: "final"`) lists the full service and deducts each down payment it names with
//! the down payment's own net, VAT per category and rate, and gross — never recomputed —
//! so the VAT it asks for is exactly the remainder. Its `amount_due` is its gross minus
//! the deducted gross; the open amount, dunning and the GiroCode start from it. A down
//! payment is deducted by one final invoice at most.
//!
//! Everything here is pure: the server reads the down payments and writes the claims.

use crate::error::message::Text;
use crate::error::messages;
use crate::position_vat::{TaxBreakdown, TaxCategory};
use crate::status::InvoiceStatus;
use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// The most down payments one final invoice deducts.
pub const MAX_DEDUCTIONS: usize = 100;

/// What an invoice is (issue 33): `standard` (default), `down_payment`
/// (Abschlagsrechnung) or `final` (Schlussrechnung, deducting down payments).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum InvoiceKind {
    /// An ordinary invoice.
    #[default]
    Standard,
    /// A down-payment invoice (Abschlags-/Anzahlungsrechnung).
    DownPayment,
    /// A final invoice deducting down payments (Schlussrechnung).
    Final,
}

impl InvoiceKind {
    /// Every kind, in the order a form offers them.
    pub const ALL: [InvoiceKind; 3] = [
        InvoiceKind::Standard,
        InvoiceKind::DownPayment,
        InvoiceKind::Final,
    ];

    /// Wire and column name (`standard`, `down_payment`, `final`).
    pub fn as_str(self) -> &'static str {
        match self {
            InvoiceKind::Standard => "standard",
            InvoiceKind::DownPayment => "down_payment",
            InvoiceKind::Final => "final",
        }
    }

    /// Parses a wire name; `None` otherwise.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == text)
    }
}

/// A down payment as a final invoice deducts it: the down payment's own figures in
/// currency units (positive on a final invoice, negated on its reversal), with its totals
/// per VAT category and rate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeductedDownPayment {
    /// The down-payment invoice's id.
    pub invoice_id: i64,
    /// Its number (`R2611-004`).
    pub identifier: String,
    /// Its invoice date.
    pub date: NaiveDate,
    /// Its net total.
    #[serde(with = "crate::wire::decimal")]
    pub net_total: Decimal,
    /// Its VAT (gross − net).
    #[serde(with = "crate::wire::decimal")]
    pub tax_total: Decimal,
    /// Its gross total.
    #[serde(with = "crate::wire::decimal")]
    pub gross_total: Decimal,
    /// Its totals per VAT category and rate (as its own `tax_breakdown`).
    #[serde(default)]
    pub tax_breakdown: Vec<TaxBreakdown>,
}

impl DeductedDownPayment {
    /// The same deduction with every amount negated (the reversal of a final invoice).
    pub fn negated(&self) -> Self {
        DeductedDownPayment {
            net_total: -self.net_total,
            tax_total: -self.tax_total,
            gross_total: -self.gross_total,
            tax_breakdown: self
                .tax_breakdown
                .iter()
                .map(|b| TaxBreakdown {
                    net_total: -b.net_total,
                    tax_total: -b.tax_total,
                    ..b.clone()
                })
                .collect(),
            ..self.clone()
        }
    }
}

/// What the server knows of an invoice named in `down_payment_invoice_ids`.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// Its kind.
    pub kind: InvoiceKind,
    /// Its stored status.
    pub status: InvoiceStatus,
    /// It is a reversal or a credit note.
    pub correction: bool,
    /// It was reversed.
    pub reversed: bool,
    /// Its customer.
    pub customer_id: i64,
    /// Its currency.
    pub currency: String,
    /// The final invoice already deducting it, if any.
    pub final_invoice_id: Option<i64>,
}

/// Why `candidate` may not be deducted by the final invoice `final_id` (`None` while it
/// is being created) of `customer_id` in `currency`, or `None` when it may: it must be a
/// finalized down payment of the same customer and currency, neither a correction nor
/// reversed, and not deducted by another final invoice.
pub fn deduction_refusal(
    candidate: &Candidate,
    customer_id: i64,
    currency: &str,
    final_id: Option<i64>,
) -> Option<Text> {
    if candidate.kind != InvoiceKind::DownPayment || candidate.correction {
        Some(messages::NOT_A_DOWN_PAYMENT)
    } else if candidate.status == InvoiceStatus::Draft {
        Some(messages::DOWN_PAYMENT_IS_DRAFT)
    } else if candidate.reversed {
        Some(messages::DOWN_PAYMENT_REVERSED)
    } else if candidate.customer_id != customer_id {
        Some(messages::DOWN_PAYMENT_OTHER_CUSTOMER)
    } else if !candidate.currency.eq_ignore_ascii_case(currency) {
        Some(messages::DOWN_PAYMENT_OTHER_CURRENCY)
    } else if candidate
        .final_invoice_id
        .is_some_and(|f| Some(f) != final_id)
    {
        Some(messages::DOWN_PAYMENT_ALREADY_DEDUCTED)
    } else {
        None
    }
}

/// The deduction of a down payment from its stored figures: net and gross as invoiced,
/// VAT = gross − net, its breakdown as stored. `None` when the VAT does not fit.
pub fn deduction(
    invoice_id: i64,
    identifier: &str,
    date: NaiveDate,
    net_total: Decimal,
    gross_total: Decimal,
    tax_breakdown: Vec<TaxBreakdown>,
) -> Option<DeductedDownPayment> {
    Some(DeductedDownPayment {
        invoice_id,
        identifier: identifier.to_string(),
        date,
        net_total,
        tax_total: gross_total.checked_sub(net_total)?,
        gross_total,
        tax_breakdown,
    })
}

/// The sum of the deducted gross totals, currency units (`0` for none; `None` on
/// overflow). The final invoice stores it as `deducted_total`.
pub fn deducted_total(deductions: &[DeductedDownPayment]) -> Option<Decimal> {
    deductions
        .iter()
        .try_fold(Decimal::ZERO, |sum, d| sum.checked_add(d.gross_total))
}

/// The amount a final invoice asks for: its `gross_total` minus the deducted gross
/// totals (currency units; `gross_total` itself without deductions). `None` on overflow.
pub fn amount_due(gross_total: Decimal, deductions: &[DeductedDownPayment]) -> Option<Decimal> {
    gross_total.checked_sub(deducted_total(deductions)?)
}

/// The totals per VAT category and rate left after the deductions (§ 14 (5) UStG: the
/// VAT due is the full service's VAT minus the VAT of the down payments): each group of
/// `full` minus the same group of every deduction, in `full`'s order; a deducted group
/// the service lacks is appended negated. `None` on overflow.
pub fn remaining_breakdown(
    full: &[TaxBreakdown],
    deductions: &[DeductedDownPayment],
) -> Option<Vec<TaxBreakdown>> {
    let mut out: Vec<TaxBreakdown> = full.to_vec();
    for group in deductions.iter().flat_map(|d| &d.tax_breakdown) {
        let same = |b: &&mut TaxBreakdown| {
            b.tax_category == group.tax_category && b.tax.normalize() == group.tax.normalize()
        };
        match out.iter_mut().find(same) {
            Some(b) => {
                b.net_total = b.net_total.checked_sub(group.net_total)?;
                b.tax_total = b.tax_total.checked_sub(group.tax_total)?;
            }
            None => out.push(TaxBreakdown {
                net_total: -group.net_total,
                tax_total: -group.tax_total,
                ..group.clone()
            }),
        }
    }
    Some(out)
}

/// The first VAT group whose deductions exceed the final invoice's own (`full`), as
/// `(category, rate)`, or `None` when every deduction fits: per category and rate, the
/// deducted net and VAT never exceed the service's, so nothing is left negative.
pub fn excess(
    full: &[TaxBreakdown],
    deductions: &[DeductedDownPayment],
) -> Option<(TaxCategory, Decimal)> {
    let Some(remaining) = remaining_breakdown(full, deductions) else {
        return full.first().map(|b| (b.tax_category, b.tax));
    };
    remaining
        .iter()
        .find(|b| b.net_total < Decimal::ZERO || b.tax_total < Decimal::ZERO)
        .map(|b| (b.tax_category, b.tax.normalize()))
}

#[cfg(test)]
mod tests;
