//! The OASIS UBL 2.1 writer: an `Invoice` document, or a `CreditNote` document
//! (`CreditNoteTypeCode`, `CreditNoteLine`/`CreditedQuantity`) for [`TypeCode::CreditNote`],
//! as XRechnung 3.0 (UBL syntax) and EN 16931 need it.
//!
//! Elements are written in the order of the UBL 2.1 schemas; every amount carries
//! `currencyID` (BT-5) and has exactly two decimals; unit prices (BT-146) and quantities
//! (BT-129) are written as given; dates as `YYYY-MM-DD`. The writer computes nothing.
//! A credit note has no `cbc:DueDate` in UBL 2.1, so its due date (BT-9) goes to
//! `cac:PaymentMeans/cbc:PaymentDueDate` (the EN 16931 UBL binding).

use crate::semantic::{self, Address, Party, PaymentMeans, TypeCode, VatCategory};
use crate::xml_out::{amount, date_iso, percent, plain, present, Doc};
use crate::Error;

const NS_INVOICE: &str = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
const NS_CREDIT_NOTE: &str = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";
const NS_CAC: &str = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2";
const NS_CBC: &str = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";

/// Writes `invoice` as a UBL 2.1 `Invoice` (or `CreditNote` for BT-3 `381`), UTF-8 bytes
/// with XML declaration.
///
/// Errors: [`Error::Write`] naming the business term when an amount has more than two
/// decimals (BR-DEC-*); the model says amounts arrive rounded, so this means a caller bug.
pub fn write(invoice: &semantic::Invoice) -> Result<Vec<u8>, Error> {
    let credit = invoice.type_code == TypeCode::CreditNote;
    let cur = invoice.currency.as_str();
    let cur_attr = [("currencyID", cur)];
    let mut d = Doc::new();
    let (root, ns) = if credit {
        ("CreditNote", NS_CREDIT_NOTE)
    } else {
        ("Invoice", NS_INVOICE)
    };
    d.open_with(
        root,
        &[("xmlns", ns), ("xmlns:cac", NS_CAC), ("xmlns:cbc", NS_CBC)],
    );
    d.leaf("cbc:CustomizationID", invoice.specification.identifier()); // BT-24
    if invoice.specification == semantic::Specification::XRechnung {
        d.leaf("cbc:ProfileID", crate::cii::BUSINESS_PROCESS); // BT-23
    }
    d.leaf("cbc:ID", &invoice.number); // BT-1
    d.leaf("cbc:IssueDate", &date_iso(invoice.issue_date)); // BT-2
    if !credit {
        if let Some(due) = invoice.due_date {
            d.leaf("cbc:DueDate", &date_iso(due)); // BT-9
        }
        d.leaf("cbc:InvoiceTypeCode", invoice.type_code.code()); // BT-3
    } else {
        d.leaf("cbc:CreditNoteTypeCode", invoice.type_code.code());
    }
    for note in invoice.notes.iter().filter(|n| !n.trim().is_empty()) {
        d.leaf("cbc:Note", note); // BT-22
    }
    d.leaf("cbc:DocumentCurrencyCode", cur); // BT-5
    d.leaf_opt("cbc:BuyerReference", invoice.buyer_reference.as_deref()); // BT-10
    if let Some((start, end)) = invoice.period {
        d.open("cac:InvoicePeriod"); // BG-14
        d.leaf("cbc:StartDate", &date_iso(start));
        d.leaf("cbc:EndDate", &date_iso(end));
        d.close();
    }
    if let Some(order) = present(invoice.order_reference.as_deref()) {
        d.open("cac:OrderReference");
        d.leaf("cbc:ID", order); // BT-13
        d.close();
    }
    if let Some(preceding) = &invoice.preceding_invoice {
        d.open("cac:BillingReference"); // BG-3
        d.open("cac:InvoiceDocumentReference");
        d.leaf("cbc:ID", &preceding.number);
        if let Some(date) = preceding.issue_date {
            d.leaf("cbc:IssueDate", &date_iso(date));
        }
        d.close();
        d.close();
    }

    let creditor = match &invoice.payment_means {
        Some(PaymentMeans::DirectDebit {
            creditor_identifier,
            ..
        }) => Some(creditor_identifier.as_str()),
        _ => None,
    };
    d.open("cac:AccountingSupplierParty");
    write_party(&mut d, &invoice.seller, true, creditor);
    d.close();
    d.open("cac:AccountingCustomerParty");
    write_party(&mut d, &invoice.buyer, false, None);
    d.close();

    // BT-72, BG-15
    let country = present(invoice.delivery_country.as_deref());
    if invoice.delivery_date.is_some() || country.is_some() {
        d.open("cac:Delivery");
        if let Some(date) = invoice.delivery_date {
            d.leaf("cbc:ActualDeliveryDate", &date_iso(date));
        }
        if let Some(country) = country {
            d.open("cac:DeliveryLocation");
            write_address(
                &mut d,
                "cac:Address",
                &crate::cii::deliver_to(invoice, country),
            );
            d.close();
        }
        d.close();
    }

    // BG-16
    if let Some(means) = &invoice.payment_means {
        d.open("cac:PaymentMeans");
        d.leaf("cbc:PaymentMeansCode", means.code()); // BT-81
        if credit {
            if let Some(due) = invoice.due_date {
                d.leaf("cbc:PaymentDueDate", &date_iso(due)); // BT-9
            }
        }
        d.leaf_opt("cbc:PaymentID", invoice.remittance_information.as_deref()); // BT-83
        match means {
            PaymentMeans::CreditTransfer {
                iban,
                account_name,
                bic,
            } => {
                d.open("cac:PayeeFinancialAccount");
                d.leaf("cbc:ID", iban); // BT-84
                d.leaf_opt("cbc:Name", account_name.as_deref()); // BT-85
                if let Some(bic) = present(bic.as_deref()) {
                    d.open("cac:FinancialInstitutionBranch");
                    d.leaf("cbc:ID", bic); // BT-86
                    d.close();
                }
                d.close();
            }
            PaymentMeans::DirectDebit {
                mandate_reference,
                debited_iban,
                ..
            } => {
                d.open("cac:PaymentMandate");
                d.leaf("cbc:ID", mandate_reference); // BT-89
                d.open("cac:PayerFinancialAccount");
                d.leaf("cbc:ID", debited_iban); // BT-91
                d.close();
                d.close();
            }
        }
        d.close();
    }
    if let Some(terms) = invoice
        .payment_terms
        .as_deref()
        .filter(|t| !t.trim().is_empty())
    {
        d.open("cac:PaymentTerms");
        d.leaf("cbc:Note", terms); // BT-20
        d.close();
    }

    // BG-20, BG-21
    for allowance in &invoice.allowances {
        write_allowance_charge(&mut d, cur, allowance, false)?;
    }
    for charge in &invoice.charges {
        write_allowance_charge(&mut d, cur, charge, true)?;
    }

    // BT-110, BG-23
    d.open("cac:TaxTotal");
    d.leaf_with(
        "cbc:TaxAmount",
        &cur_attr,
        &amount(invoice.totals.tax_total, "BT-110")?,
    );
    for vat in &invoice.vat_breakdown {
        d.open("cac:TaxSubtotal");
        d.leaf_with(
            "cbc:TaxableAmount",
            &cur_attr,
            &amount(vat.taxable_amount, "BT-116")?,
        );
        d.leaf_with(
            "cbc:TaxAmount",
            &cur_attr,
            &amount(vat.tax_amount, "BT-117")?,
        );
        d.open("cac:TaxCategory");
        d.leaf("cbc:ID", vat.category.code()); // BT-118
        if vat.category != VatCategory::OutsideScope {
            d.leaf("cbc:Percent", &percent(vat.rate)); // BT-119
        }
        d.leaf_opt(
            "cbc:TaxExemptionReasonCode",
            vat.exemption_reason_code.as_deref(),
        ); // BT-121
        d.leaf_opt("cbc:TaxExemptionReason", vat.exemption_reason.as_deref()); // BT-120
        tax_scheme(&mut d);
        d.close();
        d.close();
    }
    d.close();

    // BG-22
    let t = &invoice.totals;
    d.open("cac:LegalMonetaryTotal");
    d.leaf_with(
        "cbc:LineExtensionAmount",
        &cur_attr,
        &amount(t.line_net_total, "BT-106")?,
    );
    d.leaf_with(
        "cbc:TaxExclusiveAmount",
        &cur_attr,
        &amount(t.tax_exclusive, "BT-109")?,
    );
    d.leaf_with(
        "cbc:TaxInclusiveAmount",
        &cur_attr,
        &amount(t.tax_inclusive, "BT-112")?,
    );
    if !invoice.allowances.is_empty() || !t.allowance_total.is_zero() {
        d.leaf_with(
            "cbc:AllowanceTotalAmount",
            &cur_attr,
            &amount(t.allowance_total, "BT-107")?,
        );
    }
    if !invoice.charges.is_empty() || !t.charge_total.is_zero() {
        d.leaf_with(
            "cbc:ChargeTotalAmount",
            &cur_attr,
            &amount(t.charge_total, "BT-108")?,
        );
    }
    if !t.prepaid.is_zero() {
        d.leaf_with(
            "cbc:PrepaidAmount",
            &cur_attr,
            &amount(t.prepaid, "BT-113")?,
        );
    }
    if !t.rounding.is_zero() {
        d.leaf_with(
            "cbc:PayableRoundingAmount",
            &cur_attr,
            &amount(t.rounding, "BT-114")?,
        );
    }
    d.leaf_with(
        "cbc:PayableAmount",
        &cur_attr,
        &amount(t.payable, "BT-115")?,
    );
    d.close();

    // BG-25
    for line in &invoice.lines {
        write_line(&mut d, cur, line, credit)?;
    }
    d.close();
    Ok(d.finish())
}

/// `<cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme>`.
fn tax_scheme(d: &mut Doc) {
    d.open("cac:TaxScheme");
    d.leaf("cbc:ID", "VAT");
    d.close();
}

/// `cac:Party` of the seller (BG-4, with BT-32 and the SEPA creditor identifier BT-90)
/// or the buyer (BG-7).
fn write_party(d: &mut Doc, party: &Party, seller: bool, creditor: Option<&str>) {
    d.open("cac:Party");
    if let Some(address) = &party.electronic_address {
        d.leaf_with(
            "cbc:EndpointID",
            &[("schemeID", address.scheme.as_str())],
            &address.value,
        ); // BT-34 / BT-49
    }
    if let Some(id) = present(party.identifier.as_deref()) {
        d.open("cac:PartyIdentification");
        d.leaf("cbc:ID", id); // BT-29 / BT-46
        d.close();
    }
    if let Some(creditor) = present(creditor) {
        d.open("cac:PartyIdentification");
        d.leaf_with("cbc:ID", &[("schemeID", "SEPA")], creditor); // BT-90
        d.close();
    }
    if let Some(trading) = present(party.trading_name.as_deref()) {
        d.open("cac:PartyName");
        d.leaf("cbc:Name", trading); // BT-28 / BT-45
        d.close();
    }
    write_address(d, "cac:PostalAddress", &party.address);
    if let Some(vat) = present(party.vat_identifier.as_deref()) {
        d.open("cac:PartyTaxScheme");
        d.leaf("cbc:CompanyID", vat); // BT-31 / BT-48
        tax_scheme(d);
        d.close();
    }
    if seller {
        if let Some(number) = present(party.tax_number.as_deref()) {
            d.open("cac:PartyTaxScheme");
            d.leaf("cbc:CompanyID", number); // BT-32
            d.open("cac:TaxScheme");
            d.leaf("cbc:ID", "FC");
            d.close();
            d.close();
        }
    }
    d.open("cac:PartyLegalEntity");
    d.leaf("cbc:RegistrationName", &party.name); // BT-27 / BT-44
    d.leaf_opt("cbc:CompanyID", party.legal_registration.as_deref()); // BT-30 / BT-47
    if seller {
        d.leaf_opt(
            "cbc:CompanyLegalForm",
            party.additional_legal_information.as_deref(),
        ); // BT-33
    }
    d.close();
    if let Some(contact) = &party.contact {
        let name = present(contact.name.as_deref());
        let phone = present(contact.phone.as_deref());
        let email = present(contact.email.as_deref());
        if name.is_some() || phone.is_some() || email.is_some() {
            d.open("cac:Contact");
            d.leaf_opt("cbc:Name", name); // BT-41 / BT-56
            d.leaf_opt("cbc:Telephone", phone); // BT-42 / BT-57
            d.leaf_opt("cbc:ElectronicMail", email); // BT-43 / BT-58
            d.close();
        }
    }
    d.close();
}

/// A UBL address (`cac:PostalAddress` for BG-5/BG-8, `cac:Address` for BG-15): the first
/// line is `StreetName`, the second `AdditionalStreetName`, the third `AddressLine`.
fn write_address(d: &mut Doc, element: &'static str, address: &Address) {
    d.open(element);
    let lines: Vec<&String> = address
        .lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .collect();
    if let Some(line) = lines.first() {
        d.leaf("cbc:StreetName", line);
    }
    if let Some(line) = lines.get(1) {
        d.leaf("cbc:AdditionalStreetName", line);
    }
    d.leaf_opt("cbc:CityName", address.city.as_deref());
    d.leaf_opt("cbc:PostalZone", address.post_code.as_deref());
    d.leaf_opt("cbc:CountrySubentity", address.subdivision.as_deref());
    if let Some(line) = lines.get(2) {
        d.open("cac:AddressLine");
        d.leaf("cbc:Line", line);
        d.close();
    }
    d.open("cac:Country");
    d.leaf("cbc:IdentificationCode", &address.country_code);
    d.close();
    d.close();
}

/// A document-level allowance (BG-20) or charge (BG-21).
fn write_allowance_charge(
    d: &mut Doc,
    cur: &str,
    item: &semantic::AllowanceCharge,
    charge: bool,
) -> Result<(), Error> {
    let (amount_bt, base_bt) = if charge {
        ("BT-99", "BT-100")
    } else {
        ("BT-92", "BT-93")
    };
    d.open("cac:AllowanceCharge");
    d.leaf("cbc:ChargeIndicator", if charge { "true" } else { "false" });
    d.leaf_opt("cbc:AllowanceChargeReasonCode", item.reason_code.as_deref()); // BT-98 / BT-105
    d.leaf_opt("cbc:AllowanceChargeReason", item.reason.as_deref()); // BT-97 / BT-104
    if let Some(p) = item.percent {
        d.leaf("cbc:MultiplierFactorNumeric", &percent(p)); // BT-94 / BT-101
    }
    d.leaf_with(
        "cbc:Amount",
        &[("currencyID", cur)],
        &amount(item.amount, amount_bt)?,
    );
    if let Some(base) = item.base_amount {
        d.leaf_with(
            "cbc:BaseAmount",
            &[("currencyID", cur)],
            &amount(base, base_bt)?,
        );
    }
    d.open("cac:TaxCategory");
    d.leaf("cbc:ID", item.category.code()); // BT-95 / BT-102
    if item.category != VatCategory::OutsideScope {
        d.leaf("cbc:Percent", &percent(item.rate)); // BT-96 / BT-103
    }
    tax_scheme(d);
    d.close();
    d.close();
    Ok(())
}

/// One `cac:InvoiceLine` / `cac:CreditNoteLine` (BG-25).
fn write_line(d: &mut Doc, cur: &str, line: &semantic::Line, credit: bool) -> Result<(), Error> {
    d.open(if credit {
        "cac:CreditNoteLine"
    } else {
        "cac:InvoiceLine"
    });
    d.leaf("cbc:ID", &line.id); // BT-126
    d.leaf_opt("cbc:Note", line.note.as_deref()); // BT-127
    d.leaf_with(
        if credit {
            "cbc:CreditedQuantity"
        } else {
            "cbc:InvoicedQuantity"
        },
        &[("unitCode", line.unit_code.as_str())],
        &plain(line.quantity),
    ); // BT-129, BT-130
    d.leaf_with(
        "cbc:LineExtensionAmount",
        &[("currencyID", cur)],
        &amount(line.net_amount, "BT-131")?,
    );
    if let Some((start, end)) = line.period {
        d.open("cac:InvoicePeriod"); // BG-26
        d.leaf("cbc:StartDate", &date_iso(start));
        d.leaf("cbc:EndDate", &date_iso(end));
        d.close();
    }
    d.open("cac:Item");
    d.leaf_opt("cbc:Description", line.description.as_deref()); // BT-154
    d.leaf("cbc:Name", &line.name); // BT-153
    d.open("cac:ClassifiedTaxCategory");
    d.leaf("cbc:ID", line.category.code()); // BT-151
    if line.category != VatCategory::OutsideScope {
        d.leaf("cbc:Percent", &percent(line.rate)); // BT-152
    }
    tax_scheme(d);
    d.close();
    d.close();
    d.open("cac:Price");
    d.leaf_with(
        "cbc:PriceAmount",
        &[("currencyID", cur)],
        &plain(line.price),
    ); // BT-146
    d.close();
    d.close();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::semantic::PrecedingInvoice;
    use crate::xml_out::sample_invoice;

    fn find<'a>(doc: &'a roxmltree::Document<'a>, name: &str) -> roxmltree::Node<'a, 'a> {
        doc.descendants()
            .find(|n| n.tag_name().name() == name)
            .unwrap_or_else(|| panic!("no {name}"))
    }

    fn count(doc: &roxmltree::Document, name: &str) -> usize {
        doc.descendants()
            .filter(|n| n.tag_name().name() == name)
            .count()
    }

    #[test]
    fn writes_an_invoice_with_currency_on_every_amount() {
        let text = String::from_utf8(write(&sample_invoice()).unwrap()).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap();
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "Invoice");
        assert_eq!(root.tag_name().namespace(), Some(NS_INVOICE));
        let top: Vec<_> = root
            .children()
            .filter(|n| n.is_element())
            .map(|n| n.tag_name().name())
            .collect();
        assert_eq!(
            &top[..5],
            ["CustomizationID", "ProfileID", "ID", "IssueDate", "DueDate"]
        );
        assert_eq!(find(&doc, "ID").text(), Some("RE-7 <&>")); // BT-1
        assert_eq!(find(&doc, "InvoiceTypeCode").text(), Some("380"));
        assert_eq!(find(&doc, "TaxInclusiveAmount").text(), Some("95.69")); // BT-112
        assert_eq!(find(&doc, "PriceAmount").text(), Some("0.333333"));
        assert_eq!(find(&doc, "InvoicedQuantity").text(), Some("1.5"));
        assert_eq!(count(&doc, "InvoiceLine"), 2);
        let amounts: Vec<_> = doc
            .descendants()
            .filter(|n| n.is_element() && n.tag_name().name().ends_with("Amount"))
            .collect();
        assert!(amounts.len() > 10);
        for amount in amounts {
            assert_eq!(
                amount.attribute("currencyID"),
                Some("EUR"),
                "{}",
                amount.tag_name().name()
            );
        }
        assert_eq!(
            find(&doc, "PaymentTerms")
                .first_element_child()
                .unwrap()
                .text(),
            Some("#SKONTO#TAGE=14#PROZENT=2.00#\n")
        );
        // Schema order at the end of the document.
        assert_eq!(
            &top[top.len() - 7..],
            [
                "PaymentMeans",
                "PaymentTerms",
                "AllowanceCharge",
                "TaxTotal",
                "LegalMonetaryTotal",
                "InvoiceLine",
                "InvoiceLine"
            ]
        );
    }

    #[test]
    fn a_credit_note_is_a_credit_note_document() {
        let mut inv = sample_invoice();
        inv.type_code = TypeCode::CreditNote;
        inv.preceding_invoice = Some(PrecedingInvoice {
            number: "RE-6".into(),
            issue_date: None,
        });
        let text = String::from_utf8(write(&inv).unwrap()).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap();
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "CreditNote");
        assert_eq!(root.tag_name().namespace(), Some(NS_CREDIT_NOTE));
        assert_eq!(find(&doc, "CreditNoteTypeCode").text(), Some("381"));
        assert_eq!(count(&doc, "CreditNoteLine"), 2);
        assert_eq!(count(&doc, "CreditedQuantity"), 2);
        assert_eq!(count(&doc, "InvoiceLine"), 0);
        assert_eq!(count(&doc, "DueDate"), 0);
        assert_eq!(find(&doc, "PaymentDueDate").text(), Some("2026-11-30"));
        let reference = find(&doc, "InvoiceDocumentReference");
        assert_eq!(
            reference.first_element_child().unwrap().text(),
            Some("RE-6")
        );
    }
}
