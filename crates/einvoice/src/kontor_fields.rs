//! The Kontor fields the e-invoice mapping reads beyond the core records: per-position VAT
//! (category, rate, exemption reason) and the per-rate totals of `kontor_model::totals`,
//! buyer references, electronic addresses and SEPA data.

use crate::semantic::VatCategory;
use kontor_model::account::Account;
use kontor_model::invoice::{Invoice, InvoiceItem, PaymentMeans};
use kontor_model::party::Company;
use kontor_model::party::Language;
use kontor_model::position::PositionType;
use kontor_model::position_vat::{effective_vat, exemption_reason, TaxCategory};
use kontor_model::totals::{compute_document_totals, PositionAmounts};
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

fn text(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

/// Whether the invoice is paid by SEPA direct debit (`PaymentMeans::effective`).
pub(crate) fn direct_debit(invoice: &Invoice, customer: &Company) -> bool {
    PaymentMeans::effective(
        invoice.payment_means,
        customer.sepa_mandate_reference.as_deref(),
    ) == PaymentMeans::DirectDebit
}

/// BT-34 as set on the account (the caller falls back to the e-mail).
pub(crate) fn account_electronic_address(account: &Account) -> Option<&str> {
    text(&account.electronic_address)
}

/// BT-90.
pub(crate) fn sepa_creditor_identifier(account: &Account) -> Option<&str> {
    text(&account.sepa_creditor_identifier)
}

/// BT-49 as set on the company (the caller falls back to the e-mail).
pub(crate) fn company_electronic_address(company: &Company) -> Option<&str> {
    text(&company.electronic_address)
}

/// BT-89.
pub(crate) fn mandate_reference(company: &Company) -> Option<&str> {
    text(&company.sepa_mandate_reference)
}

/// The invoice's own BT-10.
pub(crate) fn invoice_buyer_reference(invoice: &Invoice) -> Option<&str> {
    text(&invoice.buyer_reference)
}

/// The customer's BT-10.
pub(crate) fn company_buyer_reference(company: &Company) -> Option<&str> {
    text(&company.buyer_reference)
}

/// The EN 16931 category of a Kontor tax category (standard and reduced are both `S`).
pub(crate) fn category_of(category: TaxCategory) -> VatCategory {
    VatCategory::parse(category.code()).unwrap_or(VatCategory::Standard)
}

/// The category, rate (percent) and effective Kontor category of an `item` position
/// (`kontor_model::position_vat::effective_vat`).
pub(crate) fn line_vat(
    invoice: &Invoice,
    item: &InvoiceItem,
) -> (VatCategory, Decimal, TaxCategory) {
    let vat = effective_vat(item.tax, item.tax_category, &invoice.vat_choice());
    (
        category_of(vat.category),
        vat.rate.normalize(),
        vat.category,
    )
}

/// The VAT groups of the invoice (`kontor_model::totals::compute_document_totals`), each
/// with its exemption reason in `language` (exempt: the positions' reasons, distinct, joined
/// with "; "; reverse charge, intra-EU, export: the given or default text) and VATEX code.
/// Errors: the field the totals overflow at.
pub(crate) fn groups(invoice: &Invoice, language: Language) -> Result<Vec<Group>, String> {
    let items = invoice.items.as_deref().unwrap_or_default();
    let amounts: Vec<PositionAmounts> = items.iter().map(|i| i.amounts()).collect();
    let t = compute_document_totals(
        &amounts,
        invoice.discount,
        &invoice.vat_choice(),
        &invoice.currency,
    )
    .map_err(|e| e.field)?;
    let mut out: Vec<Group> = Vec::new();
    for group in t.groups.iter().map(|g| {
        let mut reasons: Vec<String> = Vec::new();
        for item in items.iter().filter(|i| i.kind == PositionType::Item) {
            let (_, rate, category) = line_vat(invoice, item);
            if category != g.category || rate != g.rate.normalize() {
                continue;
            }
            if let Some(r) =
                exemption_reason(category, item.tax_exemption_reason.as_deref(), language)
            {
                if !reasons.contains(&r) {
                    reasons.push(r);
                }
            }
        }
        Group {
            category: category_of(g.category),
            rate: g.rate.normalize(),
            items_total: g.items_total,
            net_total: g.net_total,
            tax_total: g.tax_total,
            exemption_reason: (!reasons.is_empty()).then(|| reasons.join("; ")),
            exemption_reason_code: g.category.vatex_code().map(str::to_string),
        }
    }) {
        // Standard and reduced positions at the same rate are one EN 16931 group (S, rate):
        // BG-23 allows one breakdown per category code and rate. The tax of the merged
        // group is the sum of the rounded group taxes (within BR-CO-17's one-unit margin).
        match out
            .iter_mut()
            .find(|o| o.category == group.category && o.rate == group.rate)
        {
            Some(o) => {
                o.items_total += group.items_total;
                o.net_total += group.net_total;
                o.tax_total += group.tax_total;
            }
            None => out.push(group),
        }
    }
    Ok(out)
}
