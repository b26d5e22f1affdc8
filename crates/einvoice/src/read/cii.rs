//! Reading UN/CEFACT CII `CrossIndustryInvoice` documents (XRechnung CII, Factur-X /
//! ZUGFeRD) into the [`semantic`] model (the element paths of EN 16931's CII binding).
//!
//! [`semantic`]: crate::semantic

use super::*;

fn cii_party(p: Node) -> Party {
    let legal = child(p, RAM, "SpecifiedLegalOrganization");
    let mut vat_identifier = None;
    let mut tax_number = None;
    for reg in children(p, RAM, "SpecifiedTaxRegistration") {
        let id = child(reg, RAM, "ID");
        match id.and_then(|i| i.attribute("schemeID")) {
            Some("VA") => vat_identifier = vat_identifier.or(text(id)),
            _ => tax_number = tax_number.or(text(id)),
        }
    }
    let address = child(p, RAM, "PostalTradeAddress")
        .map(|a| Address {
            lines: ["LineOne", "LineTwo", "LineThree"]
                .into_iter()
                .filter_map(|l| ram(a, l))
                .collect(),
            city: ram(a, "CityName"),
            post_code: ram(a, "PostcodeCode"),
            subdivision: ram(a, "CountrySubDivisionName"),
            country_code: ram(a, "CountryID").unwrap_or_default(),
        })
        .unwrap_or_default();
    let contact = child(p, RAM, "DefinedTradeContact").and_then(|c| {
        some_contact(Contact {
            name: ram(c, "PersonName").or_else(|| ram(c, "DepartmentName")),
            phone: text(at(
                c,
                &[
                    (RAM, "TelephoneUniversalCommunication"),
                    (RAM, "CompleteNumber"),
                ],
            )),
            email: text(at(
                c,
                &[(RAM, "EmailURIUniversalCommunication"), (RAM, "URIID")],
            )),
        })
    });
    let uri = at(p, &[(RAM, "URIUniversalCommunication"), (RAM, "URIID")]);
    Party {
        name: ram(p, "Name").unwrap_or_default(),
        trading_name: legal.and_then(|l| ram(l, "TradingBusinessName")),
        identifier: ram(p, "ID"),
        legal_registration: legal.and_then(|l| ram(l, "ID")),
        vat_identifier,
        tax_number,
        additional_legal_information: ram(p, "Description"),
        electronic_address: electronic_address(uri),
        address,
        contact,
    }
}

fn cii_allowance_charge(n: Node, charge: bool) -> Result<AllowanceCharge, Error> {
    let tax = child(n, RAM, "CategoryTradeTax");
    allowance_charge(
        charge,
        AllowanceChargeFields {
            amount: child(n, RAM, "ActualAmount"),
            base_amount: child(n, RAM, "BasisAmount"),
            percent: child(n, RAM, "CalculationPercent"),
            category: tax.and_then(|t| ram(t, "CategoryCode")),
            rate: tax.and_then(|t| child(t, RAM, "RateApplicablePercent")),
            reason: ram(n, "Reason"),
            reason_code: ram(n, "ReasonCode"),
        },
    )
}

fn cii_line(n: Node, index: usize) -> Result<Line, Error> {
    let what = format!("Invoice line {}", index + 1);
    let doc = child(n, RAM, "AssociatedDocumentLineDocument");
    let product = child(n, RAM, "SpecifiedTradeProduct");
    let net_price = at(
        n,
        &[
            (RAM, "SpecifiedLineTradeAgreement"),
            (RAM, "NetPriceProductTradePrice"),
        ],
    );
    let quantity = at(
        n,
        &[(RAM, "SpecifiedLineTradeDelivery"), (RAM, "BilledQuantity")],
    );
    let settlement = child(n, RAM, "SpecifiedLineTradeSettlement");
    let tax = settlement.and_then(|s| child(s, RAM, "ApplicableTradeTax"));
    let line_period = settlement.and_then(|s| child(s, RAM, "BillingSpecifiedPeriod"));
    let price = unit_price(
        net_price.and_then(|p| child(p, RAM, "ChargeAmount")),
        net_price.and_then(|p| child(p, RAM, "BasisQuantity")),
        &what,
    )?;
    Ok(Line {
        id: doc
            .and_then(|d| ram(d, "LineID"))
            .unwrap_or_else(|| (index + 1).to_string()),
        note: doc.and_then(|d| text(at(d, &[(RAM, "IncludedNote"), (RAM, "Content")]))),
        quantity: opt_decimal(quantity, &format!("{what}'s quantity"))?.unwrap_or(Decimal::ONE),
        unit_code: unit_code(quantity),
        net_amount: req_decimal(
            settlement.and_then(|s| {
                at(
                    s,
                    &[
                        (RAM, "SpecifiedTradeSettlementLineMonetarySummation"),
                        (RAM, "LineTotalAmount"),
                    ],
                )
            }),
            &format!("{what}'s net amount (BT-131)"),
        )?,
        price,
        name: product
            .and_then(|p| ram(p, "Name"))
            .unwrap_or_else(|| what.clone()),
        description: product.and_then(|p| ram(p, "Description")),
        category: category(tax.and_then(|t| ram(t, "CategoryCode")), &what)?,
        rate: opt_decimal(
            tax.and_then(|t| child(t, RAM, "RateApplicablePercent")),
            &format!("{what}'s VAT rate"),
        )?
        .unwrap_or_default(),
        period: match line_period {
            Some(p) => period(
                cii_date(
                    child(p, RAM, "StartDateTime"),
                    &format!("{what}'s period start"),
                )?,
                cii_date(
                    child(p, RAM, "EndDateTime"),
                    &format!("{what}'s period end"),
                )?,
            ),
            None => None,
        },
    })
}

fn cii_payment_means(settlement: Node) -> Option<PaymentMeans> {
    let means: Vec<Node> =
        children(settlement, RAM, "SpecifiedTradeSettlementPaymentMeans").collect();
    let transfer = means.iter().find_map(|m| {
        let account = child(*m, RAM, "PayeePartyCreditorFinancialAccount")?;
        Some(PaymentMeans::CreditTransfer {
            iban: ram(account, "IBANID").or_else(|| ram(account, "ProprietaryID"))?,
            account_name: ram(account, "AccountName"),
            bic: text(at(
                *m,
                &[
                    (RAM, "PayeeSpecifiedCreditorFinancialInstitution"),
                    (RAM, "BICID"),
                ],
            )),
        })
    });
    transfer.or_else(|| {
        means.iter().find_map(|m| {
            let debtor = child(*m, RAM, "PayerPartyDebtorFinancialAccount")?;
            Some(PaymentMeans::DirectDebit {
                mandate_reference: children(settlement, RAM, "SpecifiedTradePaymentTerms")
                    .find_map(|t| ram(t, "DirectDebitMandateID"))
                    .unwrap_or_default(),
                creditor_identifier: ram(settlement, "CreditorReferenceID").unwrap_or_default(),
                debited_iban: ram(debtor, "IBANID").unwrap_or_default(),
            })
        })
    })
}

pub(super) fn cii(root: Node) -> Result<Invoice, Error> {
    let document = child(root, CII, "ExchangedDocument").ok_or_else(|| {
        Error::NotAnInvoice("The document header (rsm:ExchangedDocument) is missing".into())
    })?;
    let number = required(ram(document, "ID"), "The invoice number (BT-1)")?;
    let issue_date = cii_date(
        child(document, RAM, "IssueDateTime"),
        "The issue date (BT-2)",
    )?
    .ok_or_else(|| Error::NotAnInvoice("The issue date (BT-2) is missing".into()))?;
    let transaction = child(root, CII, "SupplyChainTradeTransaction").ok_or_else(|| {
        Error::NotAnInvoice(
            "The trade transaction (rsm:SupplyChainTradeTransaction) is missing".into(),
        )
    })?;
    let agreement = child(transaction, RAM, "ApplicableHeaderTradeAgreement");
    let delivery = child(transaction, RAM, "ApplicableHeaderTradeDelivery");
    let settlement =
        child(transaction, RAM, "ApplicableHeaderTradeSettlement").ok_or_else(|| {
            Error::NotAnInvoice(
                "The settlement (ram:ApplicableHeaderTradeSettlement) is missing".into(),
            )
        })?;
    let currency = required(
        ram(settlement, "InvoiceCurrencyCode"),
        "The invoice currency (BT-5)",
    )?;
    let seller = agreement
        .and_then(|a| child(a, RAM, "SellerTradeParty"))
        .map(cii_party)
        .ok_or_else(|| Error::NotAnInvoice("The seller (BG-4) is missing".into()))?;
    let buyer = agreement
        .and_then(|a| child(a, RAM, "BuyerTradeParty"))
        .map(cii_party)
        .unwrap_or_default();
    let (allowances, charges) = allowances_and_charges(
        children(settlement, RAM, "SpecifiedTradeAllowanceCharge"),
        |ac| {
            text(at(ac, &[(RAM, "ChargeIndicator"), (UDT, "Indicator")]))
                .is_some_and(|c| c.eq_ignore_ascii_case("true"))
        },
        cii_allowance_charge,
    )?;
    let lines = children(transaction, RAM, "IncludedSupplyChainTradeLineItem")
        .enumerate()
        .map(|(i, l)| cii_line(l, i))
        .collect::<Result<Vec<_>, _>>()?;
    let mut vat_breakdown = Vec::new();
    for t in children(settlement, RAM, "ApplicableTradeTax") {
        vat_breakdown.push(vat_breakdown_of(
            ram(t, "CategoryCode"),
            child(t, RAM, "RateApplicablePercent"),
            child(t, RAM, "BasisAmount"),
            child(t, RAM, "CalculatedAmount"),
            ram(t, "ExemptionReason"),
            ram(t, "ExemptionReasonCode"),
        )?);
    }
    let m = child(
        settlement,
        RAM,
        "SpecifiedTradeSettlementHeaderMonetarySummation",
    )
    .ok_or_else(|| {
        Error::NotAnInvoice(
            "The document totals (BG-22, SpecifiedTradeSettlementHeaderMonetarySummation) are missing"
                .into(),
        )
    })?;
    let totals = totals(
        m,
        RAM,
        &TotalNames {
            line_net_total: "LineTotalAmount",
            allowance_total: "AllowanceTotalAmount",
            charge_total: "ChargeTotalAmount",
            tax_exclusive: "TaxBasisTotalAmount",
            tax_inclusive: "GrandTotalAmount",
            prepaid: "TotalPrepaidAmount",
            rounding: "RoundingAmount",
            payable: "DuePayableAmount",
        },
        || {
            Ok(opt_decimal(
                in_currency(children(m, RAM, "TaxTotalAmount"), &currency),
                "The VAT total (BT-110)",
            )?
            .unwrap_or_default())
        },
    )?;
    let terms: Vec<Node> = children(settlement, RAM, "SpecifiedTradePaymentTerms").collect();
    let mut due_date = None;
    for t in &terms {
        if due_date.is_none() {
            due_date = cii_date(child(*t, RAM, "DueDateDateTime"), "The due date (BT-9)")?;
        }
    }
    let term_texts: Vec<String> = terms
        .iter()
        .filter_map(|t| ram(*t, "Description"))
        .collect();
    let context = child(root, CII, "ExchangedDocumentContext");
    let preceding = child(settlement, RAM, "InvoiceReferencedDocument");
    let invoice_period = child(settlement, RAM, "BillingSpecifiedPeriod");
    let invoice = Invoice {
        specification: specification(
            context
                .and_then(|c| {
                    text(at(
                        c,
                        &[
                            (RAM, "GuidelineSpecifiedDocumentContextParameter"),
                            (RAM, "ID"),
                        ],
                    ))
                })
                .as_deref(),
        ),
        number,
        issue_date,
        type_code: type_code(ram(document, "TypeCode").as_deref(), false),
        currency,
        due_date,
        buyer_reference: agreement.and_then(|a| ram(a, "BuyerReference")),
        order_reference: agreement.and_then(|a| {
            text(at(
                a,
                &[
                    (RAM, "BuyerOrderReferencedDocument"),
                    (RAM, "IssuerAssignedID"),
                ],
            ))
        }),
        notes: children(document, RAM, "IncludedNote")
            .filter_map(|n| ram(n, "Content"))
            .collect(),
        preceding_invoice: match preceding.and_then(|p| ram(p, "IssuerAssignedID")) {
            Some(number) => Some(PrecedingInvoice {
                number,
                issue_date: cii_date(
                    preceding.and_then(|p| child(p, RAM, "FormattedIssueDateTime")),
                    "The preceding invoice's date (BT-26)",
                )?,
            }),
            None => None,
        },
        seller,
        buyer,
        delivery_date: cii_date(
            delivery.and_then(|d| {
                at(
                    d,
                    &[
                        (RAM, "ActualDeliverySupplyChainEvent"),
                        (RAM, "OccurrenceDateTime"),
                    ],
                )
            }),
            "The delivery date (BT-72)",
        )?,
        period: match invoice_period {
            Some(p) => period(
                cii_date(
                    child(p, RAM, "StartDateTime"),
                    "The invoicing period start (BT-73)",
                )?,
                cii_date(
                    child(p, RAM, "EndDateTime"),
                    "The invoicing period end (BT-74)",
                )?,
            ),
            None => None,
        },
        delivery_country: delivery.and_then(|d| {
            text(at(
                d,
                &[
                    (RAM, "ShipToTradeParty"),
                    (RAM, "PostalTradeAddress"),
                    (RAM, "CountryID"),
                ],
            ))
        }),
        payment_means: cii_payment_means(settlement),
        remittance_information: ram(settlement, "PaymentReference"),
        payment_terms: (!term_texts.is_empty()).then(|| term_texts.join("\n")),
        allowances,
        charges,
        lines,
        vat_breakdown,
        totals,
    };
    check(invoice)
}

// ---------------------------------------------------------------------------------------
// Consistency
