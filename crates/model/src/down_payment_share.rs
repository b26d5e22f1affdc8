//! The share of an offer a down-payment invoice bills (issue 33, "Create down-payment
//! invoice" with a percentage or an amount): its positions, one lump sum per VAT rate of
//! the offer. The kinds and deductions are [`crate::down_payment`]'s.

use crate::error::message::Text;
use crate::error::messages;
use crate::invoice_input::NewInvoiceItem;
use crate::party::Language;
use crate::position::PositionType;
use crate::position_vat::TaxBreakdown;
use rust_decimal::Decimal;

/// How much of an offer a down payment asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Share {
    /// A percentage of the offer's net total per VAT rate (more than 0, at most 100).
    Percent(Decimal),
    /// A net amount in currency units (more than 0, at most the offer's net total),
    /// split over the offer's VAT rates in proportion to their net totals.
    Net(Decimal),
}

/// The title of down payment `n` on offer `offer` (`Abschlag 1 auf Angebot A2611-004` /
/// `Down payment 1 on offer A2611-004`).
pub fn down_payment_title(language: Language, n: usize, offer: &str) -> String {
    match language {
        Language::De => format!("Abschlag {n} auf Angebot {offer}"),
        Language::En => format!("Down payment {n} on offer {offer}"),
    }
}

/// The positions of down payment `n` on an offer whose totals per VAT category and rate
/// are `groups` (after its discount), in `currency`: one lump-sum position per group
/// titled [`down_payment_title`] (with the rate when there are several), whose net is the
/// group's share rounded to the currency's minor units; the last group takes what
/// rounding leaves, so the positions add up to the share exactly. Each position carries
/// its group's category and rate. Errors: `IS_OUT_OF_RANGE` when the share is not more
/// than 0 or exceeds the offer's net (100 %), `IS_REQUIRED` when the offer has no
/// positive net total.
pub fn down_payment_positions(
    groups: &[TaxBreakdown],
    share: Share,
    currency: &str,
    language: Language,
    n: usize,
    offer: &str,
) -> Result<Vec<NewInvoiceItem>, Text> {
    let places = crate::money::minor_units(currency);
    let total: Decimal = groups.iter().map(|g| g.net_total).sum();
    if total <= Decimal::ZERO || groups.iter().any(|g| g.net_total < Decimal::ZERO) {
        return Err(messages::IS_REQUIRED);
    }
    let wanted = match share {
        Share::Percent(p) if p > Decimal::ZERO && p <= Decimal::ONE_HUNDRED => {
            crate::arith::mul_round(total, p / Decimal::ONE_HUNDRED, places)
                .ok_or(messages::IS_OUT_OF_RANGE)?
        }
        Share::Net(amount) if amount > Decimal::ZERO && amount <= total => {
            crate::arith::round_to(amount, places)
        }
        _ => return Err(messages::IS_OUT_OF_RANGE),
    };
    let title = down_payment_title(language, n, offer);
    let mut left = wanted;
    let mut out = Vec::with_capacity(groups.len());
    for (i, g) in groups.iter().enumerate() {
        let net = if i + 1 == groups.len() {
            left
        } else {
            crate::arith::mul_round(wanted, g.net_total / total, places)
                .ok_or(messages::IS_OUT_OF_RANGE)?
        };
        left -= net;
        let rate = g.tax.normalize();
        out.push(NewInvoiceItem {
            kind: Some(PositionType::Item),
            title: Some(if groups.len() > 1 {
                format!("{title} ({rate} %)")
            } else {
                title.clone()
            }),
            net_total: Some(net),
            tax: Some(rate),
            tax_category: Some(g.tax_category),
            ..Default::default()
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
