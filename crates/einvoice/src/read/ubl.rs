//! Reading OASIS UBL 2.1 `Invoice` and `CreditNote` documents into the [`semantic`]
//! model (the element paths of EN 16931's UBL binding).
//!
//! [`semantic`]: crate::semantic

use super::*;

fn ubl_party(p: Node) -> Party {
    let legal = child(p, CAC, "PartyLegalEntity");
    let party_name = at(p, &[(CAC, "PartyName"), (CBC, "Name")]);
    let registration = legal.and_then(|l| cbc(l, "RegistrationName"));
    let mut vat_identifier = None;
    let mut tax_number = None;
    for scheme in children(p, CAC, "PartyTaxScheme") {
        let id = cbc(scheme, "CompanyID");
        match text(at(scheme, &[(CAC, "TaxScheme"), (CBC, "ID")])).as_deref() {
            Some("VAT") => vat_identifier = vat_identifier.or(id),
            _ => tax_number = tax_number.or(id),
        }
    }
    let address = child(p, CAC, "PostalAddress")
        .map(|a| {
            let mut lines: Vec<String> = [cbc(a, "StreetName"), cbc(a, "AdditionalStreetName")]
                .into_iter()
                .flatten()
                .collect();
            lines.extend(children(a, CAC, "AddressLine").filter_map(|l| cbc(l, "Line")));
            Address {
                lines,
                city: cbc(a, "CityName"),
                post_code: cbc(a, "PostalZone"),
                subdivision: cbc(a, "CountrySubentity"),
                country_code: text(at(a, &[(CAC, "Country"), (CBC, "IdentificationCode")]))
                    .unwrap_or_default(),
            }
        })
        .unwrap_or_default();
    let contact = child(p, CAC, "Contact").and_then(|c| {
        some_contact(Contact {
            name: cbc(c, "Name"),
            phone: cbc(c, "Telephone"),
            email: cbc(c, "ElectronicMail"),
        })
    });
    let endpoint = child(p, CBC, "EndpointID");
    Party {
        name: registration
            .clone()
            .or(text(party_name))
            .unwrap_or_default(),
        trading_name: text(party_name).filter(|n| registration.as_ref() != Some(n)),
        identifier: children(p, CAC, "PartyIdentification")
            .filter_map(|i| child(i, CBC, "ID"))
            .find(|id| id.attribute("schemeID") != Some("SEPA"))
            .and_then(|id| text(Some(id))),
        legal_registration: legal.and_then(|l| cbc(l, "CompanyID")),
        vat_identifier,
        tax_number,
        additional_legal_information: legal.and_then(|l| cbc(l, "CompanyLegalForm")),
        electronic_address: electronic_address(endpoint),
        address,
        contact,
    }
}

fn ubl_allowance_charge(n: Node, charge: bool) -> Result<AllowanceCharge, Error> {
    let tax = child(n, CAC, "TaxCategory");
    allowance_charge(
        charge,
        AllowanceChargeFields {
            amount: child(n, CBC, "Amount"),
            base_amount: child(n, CBC, "BaseAmount"),
            percent: child(n, CBC, "MultiplierFactorNumeric"),
            category: tax.and_then(|t| cbc(t, "ID")),
            rate: tax.and_then(|t| child(t, CBC, "Percent")),
            reason: cbc(n, "AllowanceChargeReason"),
            reason_code: cbc(n, "AllowanceChargeReasonCode"),
        },
    )
}

fn ubl_line(n: Node, credit_note: bool, index: usize) -> Result<Line, Error> {
    let what = format!("Invoice line {}", index + 1);
    let quantity = child(
        n,
        CBC,
        if credit_note {
            "CreditedQuantity"
        } else {
            "InvoicedQuantity"
        },
    );
    let item = child(n, CAC, "Item");
    let tax = item.and_then(|i| child(i, CAC, "ClassifiedTaxCategory"));
    let price_node = child(n, CAC, "Price");
    let price = unit_price(
        price_node.and_then(|p| child(p, CBC, "PriceAmount")),
        price_node.and_then(|p| child(p, CBC, "BaseQuantity")),
        &what,
    )?;
    let invoice_period = child(n, CAC, "InvoicePeriod");
    Ok(Line {
        id: cbc(n, "ID").unwrap_or_else(|| (index + 1).to_string()),
        note: cbc(n, "Note"),
        quantity: opt_decimal(quantity, &format!("{what}'s quantity"))?.unwrap_or(Decimal::ONE),
        unit_code: unit_code(quantity),
        net_amount: req_decimal(
            child(n, CBC, "LineExtensionAmount"),
            &format!("{what}'s net amount (BT-131)"),
        )?,
        price,
        name: item
            .and_then(|i| cbc(i, "Name"))
            .unwrap_or_else(|| what.clone()),
        description: item.and_then(|i| cbc(i, "Description")),
        category: category(tax.and_then(|t| cbc(t, "ID")), &what)?,
        rate: opt_decimal(
            tax.and_then(|t| child(t, CBC, "Percent")),
            &format!("{what}'s VAT rate"),
        )?
        .unwrap_or_default(),
        period: match invoice_period {
            Some(p) => period(
                iso_date(cbc(p, "StartDate"), &format!("{what}'s period start"))?,
                iso_date(cbc(p, "EndDate"), &format!("{what}'s period end"))?,
            ),
            None => None,
        },
    })
}

fn ubl_payment_means(root: Node) -> Option<PaymentMeans> {
    let means: Vec<Node> = children(root, CAC, "PaymentMeans").collect();
    let transfer = means.iter().find_map(|m| {
        let account = child(*m, CAC, "PayeeFinancialAccount")?;
        Some(PaymentMeans::CreditTransfer {
            iban: cbc(account, "ID")?,
            account_name: cbc(account, "Name"),
            bic: text(at(
                account,
                &[(CAC, "FinancialInstitutionBranch"), (CBC, "ID")],
            )),
        })
    });
    transfer.or_else(|| {
        means.iter().find_map(|m| {
            let mandate = child(*m, CAC, "PaymentMandate")?;
            let creditor = at(root, &[(CAC, "AccountingSupplierParty"), (CAC, "Party")])
                .into_iter()
                .chain(child(root, CAC, "PayeeParty"))
                .flat_map(|p| children(p, CAC, "PartyIdentification"))
                .filter_map(|i| child(i, CBC, "ID"))
                .find(|id| id.attribute("schemeID") == Some("SEPA"));
            Some(PaymentMeans::DirectDebit {
                mandate_reference: cbc(mandate, "ID").unwrap_or_default(),
                creditor_identifier: text(creditor).unwrap_or_default(),
                debited_iban: text(at(mandate, &[(CAC, "PayerFinancialAccount"), (CBC, "ID")]))
                    .unwrap_or_default(),
            })
        })
    })
}

pub(super) fn ubl(root: Node, credit_note: bool) -> Result<Invoice, Error> {
    let number = required(cbc(root, "ID"), "The invoice number (BT-1)")?;
    let issue_date = iso_date(cbc(root, "IssueDate"), "The issue date (BT-2)")?
        .ok_or_else(|| Error::NotAnInvoice("The issue date (BT-2) is missing".into()))?;
    let currency = required(
        cbc(root, "DocumentCurrencyCode"),
        "The invoice currency (BT-5)",
    )?;
    let type_code = type_code(
        cbc(
            root,
            if credit_note {
                "CreditNoteTypeCode"
            } else {
                "InvoiceTypeCode"
            },
        )
        .as_deref(),
        credit_note,
    );
    let seller = at(root, &[(CAC, "AccountingSupplierParty"), (CAC, "Party")])
        .map(ubl_party)
        .ok_or_else(|| Error::NotAnInvoice("The seller (BG-4) is missing".into()))?;
    let buyer = at(root, &[(CAC, "AccountingCustomerParty"), (CAC, "Party")])
        .map(ubl_party)
        .unwrap_or_default();
    let invoice_period = child(root, CAC, "InvoicePeriod");
    let delivery = child(root, CAC, "Delivery");
    let (allowances, charges) = allowances_and_charges(
        children(root, CAC, "AllowanceCharge"),
        |ac| cbc(ac, "ChargeIndicator").is_some_and(|c| c.eq_ignore_ascii_case("true")),
        ubl_allowance_charge,
    )?;
    let line_name = if credit_note {
        "CreditNoteLine"
    } else {
        "InvoiceLine"
    };
    let lines = children(root, CAC, line_name)
        .enumerate()
        .map(|(i, l)| ubl_line(l, credit_note, i))
        .collect::<Result<Vec<_>, _>>()?;
    let tax_totals: Vec<Node> = children(root, CAC, "TaxTotal").collect();
    let mut vat_breakdown = Vec::new();
    for sub in tax_totals
        .iter()
        .flat_map(|t| children(*t, CAC, "TaxSubtotal"))
    {
        let cat = child(sub, CAC, "TaxCategory");
        vat_breakdown.push(vat_breakdown_of(
            cat.and_then(|c| cbc(c, "ID")),
            cat.and_then(|c| child(c, CBC, "Percent")),
            child(sub, CBC, "TaxableAmount"),
            child(sub, CBC, "TaxAmount"),
            cat.and_then(|c| cbc(c, "TaxExemptionReason")),
            cat.and_then(|c| cbc(c, "TaxExemptionReasonCode")),
        )?);
    }
    let tax_total = opt_decimal(
        in_currency(
            tax_totals
                .iter()
                .filter_map(|t| child(*t, CBC, "TaxAmount")),
            &currency,
        ),
        "The VAT total (BT-110)",
    )?
    .unwrap_or_default();
    let m = child(root, CAC, "LegalMonetaryTotal").ok_or_else(|| {
        Error::NotAnInvoice("The document totals (BG-22, LegalMonetaryTotal) are missing".into())
    })?;
    let totals = totals(
        m,
        CBC,
        &TotalNames {
            line_net_total: "LineExtensionAmount",
            allowance_total: "AllowanceTotalAmount",
            charge_total: "ChargeTotalAmount",
            tax_exclusive: "TaxExclusiveAmount",
            tax_inclusive: "TaxInclusiveAmount",
            prepaid: "PrepaidAmount",
            rounding: "PayableRoundingAmount",
            payable: "PayableAmount",
        },
        || Ok(tax_total),
    )?;
    let due_date = match cbc(root, "DueDate") {
        Some(d) => iso_date(Some(d), "The due date (BT-9)")?,
        None => iso_date(
            children(root, CAC, "PaymentMeans").find_map(|m| cbc(m, "PaymentDueDate")),
            "The due date (BT-9)",
        )?,
    };
    let terms: Vec<String> = children(root, CAC, "PaymentTerms")
        .filter_map(|t| cbc(t, "Note"))
        .collect();
    let invoice = Invoice {
        specification: specification(cbc(root, "CustomizationID").as_deref()),
        number,
        issue_date,
        type_code,
        currency,
        due_date,
        buyer_reference: cbc(root, "BuyerReference"),
        order_reference: text(at(root, &[(CAC, "OrderReference"), (CBC, "ID")])),
        notes: children(root, CBC, "Note")
            .filter_map(|n| text(Some(n)))
            .collect(),
        preceding_invoice: match at(
            root,
            &[(CAC, "BillingReference"), (CAC, "InvoiceDocumentReference")],
        ) {
            Some(r) => match cbc(r, "ID") {
                Some(number) => Some(PrecedingInvoice {
                    number,
                    issue_date: iso_date(
                        cbc(r, "IssueDate"),
                        "The preceding invoice's date (BT-26)",
                    )?,
                }),
                None => None,
            },
            None => None,
        },
        seller,
        buyer,
        delivery_date: match delivery {
            Some(d) => iso_date(cbc(d, "ActualDeliveryDate"), "The delivery date (BT-72)")?,
            None => None,
        },
        period: match invoice_period {
            Some(p) => period(
                iso_date(cbc(p, "StartDate"), "The invoicing period start (BT-73)")?,
                iso_date(cbc(p, "EndDate"), "The invoicing period end (BT-74)")?,
            ),
            None => None,
        },
        delivery_country: delivery.and_then(|d| {
            text(at(
                d,
                &[
                    (CAC, "DeliveryLocation"),
                    (CAC, "Address"),
                    (CAC, "Country"),
                    (CBC, "IdentificationCode"),
                ],
            ))
        }),
        payment_means: ubl_payment_means(root),
        remittance_information: children(root, CAC, "PaymentMeans")
            .find_map(|m| cbc(m, "PaymentID")),
        payment_terms: (!terms.is_empty()).then(|| terms.join("\n")),
        allowances,
        charges,
        lines,
        vat_breakdown,
        totals,
    };
    check(invoice)
}

// ---------------------------------------------------------------------------------------
// CII
