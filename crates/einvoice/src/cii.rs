//! The UN/CEFACT Cross Industry Invoice writer (CII D16B, `rsm:CrossIndustryInvoice`), as
//! XRechnung 3.0 (CII syntax) and Factur-X / ZUGFeRD 2.x profile EN 16931 need it.
//!
//! Elements are written in the order of the D16B schema; amounts with exactly two
//! decimals, unit prices (BT-146) and quantities (BT-129) as given, dates in format 102
//! (`YYYYMMDD`). The writer computes nothing: totals, breakdown and payment terms are
//! written exactly as the [`semantic::Invoice`] holds them. A credit note (BT-3 `381`)
//! keeps positive amounts and refers to the reversed invoice (BG-3,
//! `InvoiceReferencedDocument`).

use crate::semantic::{self, Address, Party, PaymentMeans, VatCategory};
use crate::xml_out::{amount, date_102, percent, plain, present, Doc};
use crate::Error;

const NS_RSM: &str = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100";
const NS_RAM: &str =
    "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100";
const NS_QDT: &str = "urn:un:unece:uncefact:data:standard:QualifiedDataType:100";
const NS_UDT: &str = "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100";

/// BT-23 business process type written for XRechnung (the Peppol billing process).
pub(crate) const BUSINESS_PROCESS: &str = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0";

/// Writes `invoice` as a CII D16B document (UTF-8 bytes, with XML declaration).
///
/// Errors: [`Error::Write`] naming the business term when an amount has more than two
/// decimals (BR-DEC-*); the model says amounts arrive rounded, so this means a caller bug.
pub fn write(invoice: &semantic::Invoice) -> Result<Vec<u8>, Error> {
    let cur = invoice.currency.as_str();
    let mut d = Doc::new();
    d.open_with(
        "rsm:CrossIndustryInvoice",
        &[
            ("xmlns:rsm", NS_RSM),
            ("xmlns:ram", NS_RAM),
            ("xmlns:qdt", NS_QDT),
            ("xmlns:udt", NS_UDT),
        ],
    );

    // BT-23, BT-24
    d.open("rsm:ExchangedDocumentContext");
    if invoice.specification == semantic::Specification::XRechnung {
        d.open("ram:BusinessProcessSpecifiedDocumentContextParameter");
        d.leaf("ram:ID", BUSINESS_PROCESS);
        d.close();
    }
    d.open("ram:GuidelineSpecifiedDocumentContextParameter");
    d.leaf("ram:ID", invoice.specification.identifier());
    d.close();
    d.close();

    // BT-1, BT-3, BT-2, BT-22
    d.open("rsm:ExchangedDocument");
    d.leaf("ram:ID", &invoice.number);
    d.leaf("ram:TypeCode", invoice.type_code.code());
    date_time(&mut d, "ram:IssueDateTime", invoice.issue_date);
    for note in invoice.notes.iter().filter(|n| !n.trim().is_empty()) {
        d.open("ram:IncludedNote");
        d.leaf("ram:Content", note);
        d.close();
    }
    d.close();

    d.open("rsm:SupplyChainTradeTransaction");
    for line in &invoice.lines {
        write_line(&mut d, line)?;
    }

    // Agreement: BT-10, BG-4, BG-7, BT-13
    d.open("ram:ApplicableHeaderTradeAgreement");
    d.leaf_opt("ram:BuyerReference", invoice.buyer_reference.as_deref());
    write_party(&mut d, "ram:SellerTradeParty", &invoice.seller, true);
    write_party(&mut d, "ram:BuyerTradeParty", &invoice.buyer, false);
    if let Some(order) = present(invoice.order_reference.as_deref()) {
        d.open("ram:BuyerOrderReferencedDocument");
        d.leaf("ram:IssuerAssignedID", order);
        d.close();
    }
    d.close();

    // Delivery: BG-15 (BT-80), BT-72
    if invoice.delivery_country.is_none() && invoice.delivery_date.is_none() {
        d.empty("ram:ApplicableHeaderTradeDelivery");
    } else {
        d.open("ram:ApplicableHeaderTradeDelivery");
        if let Some(country) = present(invoice.delivery_country.as_deref()) {
            d.open("ram:ShipToTradeParty");
            write_address(&mut d, &deliver_to(invoice, country));
            d.close();
        }
        if let Some(date) = invoice.delivery_date {
            d.open("ram:ActualDeliverySupplyChainEvent");
            date_time(&mut d, "ram:OccurrenceDateTime", date);
            d.close();
        }
        d.close();
    }

    // Settlement
    d.open("ram:ApplicableHeaderTradeSettlement");
    if let Some(PaymentMeans::DirectDebit {
        creditor_identifier,
        ..
    }) = &invoice.payment_means
    {
        d.leaf("ram:CreditorReferenceID", creditor_identifier); // BT-90
    }
    d.leaf_opt(
        "ram:PaymentReference",
        invoice.remittance_information.as_deref(),
    ); // BT-83
    d.leaf("ram:InvoiceCurrencyCode", cur); // BT-5
    if let Some(means) = &invoice.payment_means {
        d.open("ram:SpecifiedTradeSettlementPaymentMeans");
        d.leaf("ram:TypeCode", means.code()); // BT-81
        match means {
            PaymentMeans::CreditTransfer {
                iban,
                account_name,
                bic,
            } => {
                d.open("ram:PayeePartyCreditorFinancialAccount");
                d.leaf("ram:IBANID", iban); // BT-84
                d.leaf_opt("ram:AccountName", account_name.as_deref()); // BT-85
                d.close();
                if let Some(bic) = present(bic.as_deref()) {
                    d.open("ram:PayeeSpecifiedCreditorFinancialInstitution");
                    d.leaf("ram:BICID", bic); // BT-86
                    d.close();
                }
            }
            PaymentMeans::DirectDebit { debited_iban, .. } => {
                d.open("ram:PayerPartyDebtorFinancialAccount");
                d.leaf("ram:IBANID", debited_iban); // BT-91
                d.close();
            }
        }
        d.close();
    }
    // BG-23
    for vat in &invoice.vat_breakdown {
        d.open("ram:ApplicableTradeTax");
        d.leaf("ram:CalculatedAmount", &amount(vat.tax_amount, "BT-117")?);
        d.leaf("ram:TypeCode", "VAT");
        d.leaf_opt("ram:ExemptionReason", vat.exemption_reason.as_deref());
        d.leaf("ram:BasisAmount", &amount(vat.taxable_amount, "BT-116")?);
        d.leaf("ram:CategoryCode", vat.category.code());
        d.leaf_opt(
            "ram:ExemptionReasonCode",
            vat.exemption_reason_code.as_deref(),
        );
        if vat.category != VatCategory::OutsideScope {
            d.leaf("ram:RateApplicablePercent", &percent(vat.rate));
        }
        d.close();
    }
    // BG-14
    if let Some((start, end)) = invoice.period {
        d.open("ram:BillingSpecifiedPeriod");
        date_time(&mut d, "ram:StartDateTime", start);
        date_time(&mut d, "ram:EndDateTime", end);
        d.close();
    }
    // BG-20, BG-21
    for allowance in &invoice.allowances {
        write_allowance_charge(&mut d, allowance, false)?;
    }
    for charge in &invoice.charges {
        write_allowance_charge(&mut d, charge, true)?;
    }
    // BT-20, BT-9, BT-89
    let mandate = match &invoice.payment_means {
        Some(PaymentMeans::DirectDebit {
            mandate_reference, ..
        }) => Some(mandate_reference.as_str()),
        _ => None,
    };
    let terms = invoice
        .payment_terms
        .as_deref()
        .filter(|t| !t.trim().is_empty());
    if terms.is_some() || invoice.due_date.is_some() || mandate.is_some() {
        d.open("ram:SpecifiedTradePaymentTerms");
        if let Some(terms) = terms {
            d.leaf("ram:Description", terms);
        }
        if let Some(due) = invoice.due_date {
            date_time(&mut d, "ram:DueDateDateTime", due);
        }
        d.leaf_opt("ram:DirectDebitMandateID", mandate);
        d.close();
    }
    // BG-22
    let t = &invoice.totals;
    d.open("ram:SpecifiedTradeSettlementHeaderMonetarySummation");
    d.leaf("ram:LineTotalAmount", &amount(t.line_net_total, "BT-106")?);
    if !invoice.charges.is_empty() || !t.charge_total.is_zero() {
        d.leaf("ram:ChargeTotalAmount", &amount(t.charge_total, "BT-108")?);
    }
    if !invoice.allowances.is_empty() || !t.allowance_total.is_zero() {
        d.leaf(
            "ram:AllowanceTotalAmount",
            &amount(t.allowance_total, "BT-107")?,
        );
    }
    d.leaf(
        "ram:TaxBasisTotalAmount",
        &amount(t.tax_exclusive, "BT-109")?,
    );
    d.leaf_with(
        "ram:TaxTotalAmount",
        &[("currencyID", cur)],
        &amount(t.tax_total, "BT-110")?,
    );
    if !t.rounding.is_zero() {
        d.leaf("ram:RoundingAmount", &amount(t.rounding, "BT-114")?);
    }
    d.leaf("ram:GrandTotalAmount", &amount(t.tax_inclusive, "BT-112")?);
    if !t.prepaid.is_zero() {
        d.leaf("ram:TotalPrepaidAmount", &amount(t.prepaid, "BT-113")?);
    }
    d.leaf("ram:DuePayableAmount", &amount(t.payable, "BT-115")?);
    d.close();
    // BG-3
    if let Some(preceding) = &invoice.preceding_invoice {
        d.open("ram:InvoiceReferencedDocument");
        d.leaf("ram:IssuerAssignedID", &preceding.number);
        if let Some(date) = preceding.issue_date {
            d.open("ram:FormattedIssueDateTime");
            d.leaf_with("qdt:DateTimeString", &[("format", "102")], &date_102(date));
            d.close();
        }
        d.close();
    }
    d.close(); // settlement
    d.close(); // transaction
    d.close(); // root
    Ok(d.finish())
}

/// `<name><udt:DateTimeString format="102">YYYYMMDD</udt:DateTimeString></name>`.
fn date_time(d: &mut Doc, name: &'static str, date: chrono::NaiveDate) {
    d.open(name);
    d.leaf_with("udt:DateTimeString", &[("format", "102")], &date_102(date));
    d.close();
}

/// The deliver-to address (BG-15) for the deliver-to country BT-80: the buyer's address
/// when it is in that country (XRechnung BR-DE-10/11 want city and post code with every
/// BG-15), else the country alone.
pub(crate) fn deliver_to(invoice: &semantic::Invoice, country: &str) -> Address {
    if invoice.buyer.address.country_code.trim() == country.trim() {
        invoice.buyer.address.clone()
    } else {
        Address {
            country_code: country.to_string(),
            ..Address::default()
        }
    }
}

/// One invoice line (BG-25).
fn write_line(d: &mut Doc, line: &semantic::Line) -> Result<(), Error> {
    d.open("ram:IncludedSupplyChainTradeLineItem");
    d.open("ram:AssociatedDocumentLineDocument");
    d.leaf("ram:LineID", &line.id); // BT-126
    if let Some(note) = present(line.note.as_deref()) {
        d.open("ram:IncludedNote");
        d.leaf("ram:Content", note); // BT-127
        d.close();
    }
    d.close();
    d.open("ram:SpecifiedTradeProduct");
    d.leaf("ram:Name", &line.name); // BT-153
    d.leaf_opt("ram:Description", line.description.as_deref()); // BT-154
    d.close();
    d.open("ram:SpecifiedLineTradeAgreement");
    d.open("ram:NetPriceProductTradePrice");
    d.leaf("ram:ChargeAmount", &plain(line.price)); // BT-146
    d.close();
    d.close();
    d.open("ram:SpecifiedLineTradeDelivery");
    d.leaf_with(
        "ram:BilledQuantity",
        &[("unitCode", line.unit_code.as_str())],
        &plain(line.quantity),
    ); // BT-129, BT-130
    d.close();
    d.open("ram:SpecifiedLineTradeSettlement");
    d.open("ram:ApplicableTradeTax");
    d.leaf("ram:TypeCode", "VAT");
    d.leaf("ram:CategoryCode", line.category.code()); // BT-151
    if line.category != VatCategory::OutsideScope {
        d.leaf("ram:RateApplicablePercent", &percent(line.rate)); // BT-152
    }
    d.close();
    if let Some((start, end)) = line.period {
        d.open("ram:BillingSpecifiedPeriod");
        date_time(d, "ram:StartDateTime", start);
        date_time(d, "ram:EndDateTime", end);
        d.close();
    }
    d.open("ram:SpecifiedTradeSettlementLineMonetarySummation");
    d.leaf("ram:LineTotalAmount", &amount(line.net_amount, "BT-131")?);
    d.close();
    d.close();
    d.close();
    Ok(())
}

/// A trade party (BG-4 seller with BT-32 tax number, or BG-7 buyer).
fn write_party(d: &mut Doc, element: &'static str, party: &Party, seller: bool) {
    d.open(element);
    d.leaf_opt("ram:ID", party.identifier.as_deref()); // BT-29 / BT-46
    d.leaf("ram:Name", &party.name); // BT-27 / BT-44
    if seller {
        d.leaf_opt(
            "ram:Description",
            party.additional_legal_information.as_deref(),
        ); // BT-33
    }
    let registration = present(party.legal_registration.as_deref());
    let trading = present(party.trading_name.as_deref());
    if registration.is_some() || trading.is_some() {
        d.open("ram:SpecifiedLegalOrganization");
        d.leaf_opt("ram:ID", registration); // BT-30 / BT-47
        d.leaf_opt("ram:TradingBusinessName", trading); // BT-28 / BT-45
        d.close();
    }
    if let Some(contact) = &party.contact {
        let name = present(contact.name.as_deref());
        let phone = present(contact.phone.as_deref());
        let email = present(contact.email.as_deref());
        if name.is_some() || phone.is_some() || email.is_some() {
            d.open("ram:DefinedTradeContact");
            d.leaf_opt("ram:PersonName", name); // BT-41 / BT-56
            if let Some(phone) = phone {
                d.open("ram:TelephoneUniversalCommunication");
                d.leaf("ram:CompleteNumber", phone); // BT-42 / BT-57
                d.close();
            }
            if let Some(email) = email {
                d.open("ram:EmailURIUniversalCommunication");
                d.leaf("ram:URIID", email); // BT-43 / BT-58
                d.close();
            }
            d.close();
        }
    }
    write_address(d, &party.address);
    if let Some(address) = &party.electronic_address {
        d.open("ram:URIUniversalCommunication");
        d.leaf_with(
            "ram:URIID",
            &[("schemeID", address.scheme.as_str())],
            &address.value,
        ); // BT-34 / BT-49
        d.close();
    }
    if let Some(vat) = present(party.vat_identifier.as_deref()) {
        d.open("ram:SpecifiedTaxRegistration");
        d.leaf_with("ram:ID", &[("schemeID", "VA")], vat); // BT-31 / BT-48
        d.close();
    }
    if seller {
        if let Some(number) = present(party.tax_number.as_deref()) {
            d.open("ram:SpecifiedTaxRegistration");
            d.leaf_with("ram:ID", &[("schemeID", "FC")], number); // BT-32
            d.close();
        }
    }
    d.close();
}

/// `ram:PostalTradeAddress` (BG-5 / BG-8 / BG-15).
fn write_address(d: &mut Doc, address: &Address) {
    d.open("ram:PostalTradeAddress");
    d.leaf_opt("ram:PostcodeCode", address.post_code.as_deref());
    let mut lines = address.lines.iter().filter(|l| !l.trim().is_empty());
    for name in ["ram:LineOne", "ram:LineTwo", "ram:LineThree"] {
        if let Some(line) = lines.next() {
            d.leaf(name, line);
        }
    }
    d.leaf_opt("ram:CityName", address.city.as_deref());
    d.leaf("ram:CountryID", &address.country_code);
    d.leaf_opt("ram:CountrySubDivisionName", address.subdivision.as_deref());
    d.close();
}

/// A document-level allowance (BG-20) or charge (BG-21).
fn write_allowance_charge(
    d: &mut Doc,
    item: &semantic::AllowanceCharge,
    charge: bool,
) -> Result<(), Error> {
    let (amount_bt, base_bt) = if charge {
        ("BT-99", "BT-100")
    } else {
        ("BT-92", "BT-93")
    };
    d.open("ram:SpecifiedTradeAllowanceCharge");
    d.open("ram:ChargeIndicator");
    d.leaf("udt:Indicator", if charge { "true" } else { "false" });
    d.close();
    if let Some(p) = item.percent {
        d.leaf("ram:CalculationPercent", &percent(p)); // BT-94 / BT-101
    }
    if let Some(base) = item.base_amount {
        d.leaf("ram:BasisAmount", &amount(base, base_bt)?);
    }
    d.leaf("ram:ActualAmount", &amount(item.amount, amount_bt)?);
    d.leaf_opt("ram:ReasonCode", item.reason_code.as_deref()); // BT-98 / BT-105
    d.leaf_opt("ram:Reason", item.reason.as_deref()); // BT-97 / BT-104
    d.open("ram:CategoryTradeTax");
    d.leaf("ram:TypeCode", "VAT");
    d.leaf("ram:CategoryCode", item.category.code()); // BT-95 / BT-102
    if item.category != VatCategory::OutsideScope {
        d.leaf("ram:RateApplicablePercent", &percent(item.rate)); // BT-96 / BT-103
    }
    d.close();
    d.close();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::semantic::{PrecedingInvoice, TypeCode};
    use crate::xml_out::sample_invoice;

    fn children<'a>(node: roxmltree::Node<'a, 'a>) -> Vec<&'a str> {
        node.children()
            .filter(|n| n.is_element())
            .map(|n| n.tag_name().name())
            .collect()
    }

    fn find<'a>(doc: &'a roxmltree::Document<'a>, name: &str) -> roxmltree::Node<'a, 'a> {
        doc.descendants()
            .find(|n| n.tag_name().name() == name)
            .unwrap_or_else(|| panic!("no {name}"))
    }

    #[test]
    fn writes_the_business_terms_in_schema_order() {
        let bytes = write(&sample_invoice()).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap();
        let root = doc.root_element();
        assert_eq!(root.tag_name().namespace(), Some(NS_RSM));
        assert_eq!(root.tag_name().name(), "CrossIndustryInvoice");
        let exchanged = find(&doc, "ExchangedDocument");
        assert_eq!(
            exchanged.first_element_child().unwrap().text(),
            Some("RE-7 <&>")
        ); // BT-1
        assert_eq!(find(&doc, "TypeCode").text(), Some("380"));
        assert_eq!(find(&doc, "DateTimeString").text(), Some("20261120"));
        assert_eq!(find(&doc, "GrandTotalAmount").text(), Some("95.69")); // BT-112
        assert_eq!(find(&doc, "LineTotalAmount").text(), Some("0.50"));
        assert_eq!(
            find(&doc, "TaxTotalAmount").attribute("currencyID"),
            Some("EUR")
        );
        assert_eq!(find(&doc, "ChargeAmount").text(), Some("0.333333")); // BT-146 as given
        assert_eq!(find(&doc, "BilledQuantity").text(), Some("1.5"));
        assert_eq!(
            find(&doc, "BilledQuantity").attribute("unitCode"),
            Some("HUR")
        );
        assert_eq!(
            find(&doc, "Description").text(),
            Some("#SKONTO#TAGE=14#PROZENT=2.00#\n")
        ); // BT-20 exactly
        let lines = doc
            .descendants()
            .filter(|n| n.tag_name().name() == "IncludedSupplyChainTradeLineItem")
            .count();
        assert_eq!(lines, 2);
        assert_eq!(
            children(find(&doc, "SupplyChainTradeTransaction")),
            [
                "IncludedSupplyChainTradeLineItem",
                "IncludedSupplyChainTradeLineItem",
                "ApplicableHeaderTradeAgreement",
                "ApplicableHeaderTradeDelivery",
                "ApplicableHeaderTradeSettlement"
            ]
        );
        assert_eq!(
            children(find(&doc, "ApplicableHeaderTradeSettlement")),
            [
                "InvoiceCurrencyCode",
                "SpecifiedTradeSettlementPaymentMeans",
                "ApplicableTradeTax",
                "ApplicableTradeTax",
                "SpecifiedTradeAllowanceCharge",
                "SpecifiedTradePaymentTerms",
                "SpecifiedTradeSettlementHeaderMonetarySummation"
            ]
        );
        let seller = find(&doc, "SellerTradeParty");
        let vat = seller
            .descendants()
            .find(|n| n.attribute("schemeID") == Some("VA"))
            .unwrap();
        assert_eq!(vat.text(), Some("DE123456789"));
        let rates: Vec<_> = doc
            .descendants()
            .filter(|n| n.tag_name().name() == "RateApplicablePercent")
            .map(|n| n.text().unwrap())
            .collect();
        assert_eq!(rates, ["19", "7", "19", "7", "19"]);
    }

    #[test]
    fn a_credit_note_is_381_with_the_preceding_invoice() {
        let mut inv = sample_invoice();
        inv.type_code = TypeCode::CreditNote;
        inv.preceding_invoice = Some(PrecedingInvoice {
            number: "RE-6".into(),
            issue_date: Some(chrono::NaiveDate::from_ymd_opt(2026, 10, 1).unwrap()),
        });
        let text = String::from_utf8(write(&inv).unwrap()).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap();
        assert_eq!(find(&doc, "TypeCode").text(), Some("381"));
        let reference = find(&doc, "InvoiceReferencedDocument");
        assert_eq!(
            children(reference),
            ["IssuerAssignedID", "FormattedIssueDateTime"]
        );
        assert_eq!(
            reference.first_element_child().unwrap().text(),
            Some("RE-6")
        );
        assert_eq!(find(&doc, "GrandTotalAmount").text(), Some("95.69"));
    }
}
