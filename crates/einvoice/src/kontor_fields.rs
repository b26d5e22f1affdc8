//! The Kontor fields the e-invoice mapping reads beyond the core records: per-position VAT
//! (category, rate, exemption reason) and the per-rate totals of `kontor_model::totals`,
//! buyer references, electronic addresses and SEPA data.

use crate::semantic::VatCategory;
use kontor_model::account::Account;
use kontor_model::invoice::{Invoice, InvoiceItem};
use kontor_model::party::Company;
use kontor_model::totals::{compute_totals, PositionAmounts};
use rust_decimal::Decimal;

/// One VAT group of the document: its category and rate, the counted item total before the
/// discount, the taxable amount after it, the tax, and the exemption reason of BG-23.
pub(crate) struct Group {
    pub category: VatCategory,
    pub rate: Decimal,
    pub items_total: Decimal,
    pub net_total: Decimal,
    pub tax_total: Decimal,
    pub exemption_reason: Option<String>,
    pub exemption_reason_code: Option<String>,
}

pub(crate) fn direct_debit(_invoice: &Invoice, _customer: &Company) -> bool {
    false
}

pub(crate) fn account_electronic_address(_account: &Account) -> Option<&str> {
    None
}

pub(crate) fn sepa_creditor_identifier(_account: &Account) -> Option<&str> {
    None
}

pub(crate) fn company_electronic_address(_company: &Company) -> Option<&str> {
    None
}

pub(crate) fn mandate_reference(_company: &Company) -> Option<&str> {
    None
}

pub(crate) fn invoice_buyer_reference(_invoice: &Invoice) -> Option<&str> {
    None
}

pub(crate) fn company_buyer_reference(_company: &Company) -> Option<&str> {
    None
}

/// The category, rate (percent) and exemption reason of an `item` position.
pub(crate) fn line_vat(
    invoice: &Invoice,
    _item: &InvoiceItem,
) -> (VatCategory, Decimal, Option<String>) {
    if invoice.vat.reverse_charge {
        (VatCategory::ReverseCharge, Decimal::ZERO, None)
    } else if invoice.vat.intra_eu {
        (VatCategory::IntraCommunity, Decimal::ZERO, None)
    } else if invoice.tax.is_zero() {
        (VatCategory::Zero, Decimal::ZERO, None)
    } else {
        (VatCategory::Standard, invoice.tax, None)
    }
}

/// The VAT groups of the invoice. Errors: the field the totals overflow at.
pub(crate) fn groups(invoice: &Invoice) -> Result<Vec<Group>, String> {
    let items = invoice.items.as_deref().unwrap_or_default();
    let amounts: Vec<PositionAmounts> = items
        .iter()
        .map(|i| PositionAmounts {
            kind: Some(i.kind),
            quantity: i.quantity,
            unit_price: i.unit_price,
            net_total: Some(i.net_total),
            optional: false,
        })
        .collect();
    let t = compute_totals(
        &amounts,
        invoice.discount,
        invoice.tax,
        invoice.vat.reverse_charge,
        &invoice.currency,
    )
    .map_err(|e| e.field)?;
    let Some(first) = items
        .iter()
        .find(|i| i.kind == kontor_model::position::PositionType::Item)
    else {
        return Ok(Vec::new());
    };
    let (category, rate, _) = line_vat(invoice, first);
    let (reason, code) = match category {
        VatCategory::ReverseCharge => (
            Some("Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge)"),
            Some("VATEX-EU-AE"),
        ),
        VatCategory::IntraCommunity => (
            Some("Steuerfreie innergemeinschaftliche Lieferung"),
            Some("VATEX-EU-IC"),
        ),
        _ => (None, None),
    };
    Ok(vec![Group {
        category,
        rate,
        items_total: t.items_total,
        net_total: t.net_total,
        tax_total: t.tax_amount,
        exemption_reason: reason.map(str::to_string),
        exemption_reason_code: code.map(str::to_string),
    }])
}
