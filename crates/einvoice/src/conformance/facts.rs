//! The business terms the EN 16931 rules look at, taken from a UBL 2.1 or CII D16B document
//! as written — leniently: a missing term is `None`, an unreadable number keeps its text,
//! so every rule can say what it found. Paths follow the EN 16931-3-2 (UBL) and -3-3 (CII)
//! syntax bindings.

use crate::read::{child, children, is, text, CAC, CBC, RAM, UDT};
use roxmltree::Node;
use rust_decimal::Decimal;
use std::str::FromStr;

/// A number as written (`raw`) and its value when it is an `xs:decimal`.
#[derive(Clone, Debug, Default)]
pub struct Number {
    /// The element's trimmed text.
    pub raw: String,
    /// Its value; `None` when the text is no decimal number.
    pub value: Option<Decimal>,
}

impl Number {
    fn of(n: Option<Node>) -> Option<Number> {
        text(n).map(|raw| Number {
            value: xs_decimal(&raw),
            raw,
        })
    }
}

/// The value of an `xs:decimal` text (optional sign, digits, at most one point); `None`
/// for anything else (exponents, spaces inside, words) or a value outside `Decimal`.
pub fn xs_decimal(text: &str) -> Option<Decimal> {
    let text = text.trim();
    let digits = text.trim_start_matches(['-', '+']);
    let valid = !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit() || c == '.')
        && digits.matches('.').count() <= 1;
    valid
        .then(|| Decimal::from_str(text.trim_start_matches('+')).ok())
        .flatten()
}

impl Number {
    /// The value, 0 when absent or unreadable (as the rules' `xs:decimal(...)` sums treat
    /// an absent optional amount).
    pub fn or_zero(n: &Option<Number>) -> Decimal {
        n.as_ref().and_then(|n| n.value).unwrap_or_default()
    }
}

/// A seller (BG-4) or buyer (BG-7).
#[derive(Clone, Debug, Default)]
pub struct PartyFacts {
    /// Whether the party element is present at all.
    pub present: bool,
    /// BT-27 / BT-44 name.
    pub name: Option<String>,
    /// BT-31 / BT-48 VAT identifier.
    pub vat_id: Option<String>,
    /// BT-32 seller tax registration (`FC`).
    pub tax_registration: Option<String>,
    /// BT-30 / BT-47 legal registration identifier.
    pub legal_registration: Option<String>,
    /// BT-29 / BT-46 identifiers.
    pub identifiers: Vec<String>,
    /// BT-34 / BT-49 electronic address and its scheme.
    pub electronic_address: Option<(String, Option<String>)>,
    /// Whether the postal address (BG-5 / BG-8) is present.
    pub address: bool,
    /// BT-35 / BT-50 first address line.
    pub street: Option<String>,
    /// BT-37 / BT-52 city.
    pub city: Option<String>,
    /// BT-38 / BT-53 post code.
    pub post_code: Option<String>,
    /// BT-40 / BT-55 country code.
    pub country: Option<String>,
    /// Whether a contact (BG-6 / BG-9) is present.
    pub contact: bool,
    /// BT-41 / BT-56 contact point.
    pub contact_name: Option<String>,
    /// BT-42 / BT-57 telephone.
    pub contact_phone: Option<String>,
    /// BT-43 / BT-58 e-mail.
    pub contact_email: Option<String>,
}

/// A document-level allowance (BG-20) or charge (BG-21).
#[derive(Clone, Debug, Default)]
pub struct AllowanceChargeFacts {
    /// BT-92 / BT-99 amount.
    pub amount: Option<Number>,
    /// BT-95 / BT-102 VAT category code.
    pub category: Option<String>,
    /// BT-96 / BT-103 VAT rate.
    pub rate: Option<Number>,
}

/// One VAT breakdown (BG-23).
#[derive(Clone, Debug, Default)]
pub struct VatFacts {
    /// BT-116 taxable amount.
    pub taxable: Option<Number>,
    /// BT-117 tax amount.
    pub tax: Option<Number>,
    /// BT-118 category code.
    pub category: Option<String>,
    /// BT-119 rate.
    pub rate: Option<Number>,
    /// BT-120 exemption reason text.
    pub exemption_reason: Option<String>,
    /// BT-121 exemption reason code.
    pub exemption_code: Option<String>,
}

/// One invoice line (BG-25).
#[derive(Clone, Debug, Default)]
pub struct LineFacts {
    /// BT-126 line identifier.
    pub id: Option<String>,
    /// BT-129 quantity.
    pub quantity: Option<Number>,
    /// BT-130 unit code.
    pub unit: Option<String>,
    /// BT-131 line net amount.
    pub net: Option<Number>,
    /// BT-146 net price.
    pub price: Option<Number>,
    /// BT-153 item name.
    pub name: Option<String>,
    /// BT-151 VAT category code.
    pub category: Option<String>,
    /// BT-152 VAT rate.
    pub rate: Option<Number>,
}

/// The document totals (BG-22).
#[derive(Clone, Debug, Default)]
pub struct TotalFacts {
    /// BT-106 sum of line net amounts.
    pub line_net: Option<Number>,
    /// BT-107 sum of allowances.
    pub allowances: Option<Number>,
    /// BT-108 sum of charges.
    pub charges: Option<Number>,
    /// BT-109 total without VAT.
    pub tax_exclusive: Option<Number>,
    /// BT-110 VAT total in the invoice currency.
    pub tax: Option<Number>,
    /// How many VAT totals the document states in the invoice currency (BR-CO-15 wants 1).
    pub tax_in_currency: usize,
    /// BT-112 total with VAT.
    pub tax_inclusive: Option<Number>,
    /// BT-113 paid amount.
    pub prepaid: Option<Number>,
    /// BT-114 rounding amount.
    pub rounding: Option<Number>,
    /// BT-115 amount due.
    pub payable: Option<Number>,
}

/// Every term the checks look at.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    /// BT-24 specification identifier.
    pub specification: Option<String>,
    /// BT-1 invoice number.
    pub number: Option<String>,
    /// BT-2 issue date as written.
    pub issue_date: Option<String>,
    /// BT-3 type code.
    pub type_code: Option<String>,
    /// BT-5 invoice currency.
    pub currency: Option<String>,
    /// BT-10 buyer reference.
    pub buyer_reference: Option<String>,
    /// BG-4 seller.
    pub seller: PartyFacts,
    /// BG-7 buyer.
    pub buyer: PartyFacts,
    /// BG-11 seller's tax representative (its VAT identifier is BT-63).
    pub tax_representative: PartyFacts,
    /// BT-81 payment means codes.
    pub payment_means: Vec<String>,
    /// BG-20 allowances.
    pub allowances: Vec<AllowanceChargeFacts>,
    /// BG-21 charges.
    pub charges: Vec<AllowanceChargeFacts>,
    /// BG-23 VAT breakdown.
    pub vat: Vec<VatFacts>,
    /// BG-22 totals.
    pub totals: TotalFacts,
    /// Whether the totals group (BG-22) is present.
    pub totals_present: bool,
    /// BG-25 lines.
    pub lines: Vec<LineFacts>,
    /// Every `currencyID` attribute of the document.
    pub currency_ids: Vec<String>,
    /// Every country code with its term (`BT-40`, `BT-55`, …).
    pub countries: Vec<(&'static str, String)>,
}

fn amount_in<'a, 'i: 'a>(
    nodes: impl Iterator<Item = Node<'a, 'i>>,
    currency: Option<&str>,
) -> Option<Number> {
    let nodes: Vec<Node> = nodes.collect();
    let chosen = nodes
        .iter()
        .find(|n| match (n.attribute("currencyID"), currency) {
            (Some(c), Some(cur)) => c.trim() == cur,
            _ => true,
        })
        .or(nodes.first())
        .copied();
    Number::of(chosen)
}

/// How many of `nodes` carry `currencyID` = `currency`.
fn in_currency_count(nodes: &[Node], currency: Option<&str>) -> usize {
    nodes
        .iter()
        .filter(|n| n.attribute("currencyID").map(str::trim) == currency)
        .count()
}

fn every_currency_id(root: Node, facts: &mut Facts) {
    facts.currency_ids = root
        .descendants()
        .filter_map(|n| n.attribute("currencyID"))
        .map(|c| c.trim().to_string())
        .collect();
}

// ---------------------------------------------------------------------------------------
// UBL 2.1

fn cbc(n: Node, name: &str) -> Option<String> {
    text(child(n, CBC, name))
}

fn cac<'a, 'i>(n: Node<'a, 'i>, name: &str) -> Option<Node<'a, 'i>> {
    child(n, CAC, name)
}

fn ubl_party(p: Option<Node>, country_term: &'static str, facts: &mut Facts) -> PartyFacts {
    let Some(p) = p else {
        return PartyFacts::default();
    };
    let legal = cac(p, "PartyLegalEntity");
    let mut party = PartyFacts {
        present: true,
        name: legal.and_then(|l| cbc(l, "RegistrationName")),
        legal_registration: legal.and_then(|l| cbc(l, "CompanyID")),
        identifiers: children(p, CAC, "PartyIdentification")
            .filter_map(|i| cbc(i, "ID"))
            .collect(),
        electronic_address: child(p, CBC, "EndpointID")
            .and_then(|e| text(Some(e)).map(|v| (v, e.attribute("schemeID").map(str::to_string)))),
        ..Default::default()
    };
    for scheme in children(p, CAC, "PartyTaxScheme") {
        let id = cbc(scheme, "CompanyID");
        let is_vat = cac(scheme, "TaxScheme")
            .and_then(|t| cbc(t, "ID"))
            .is_some_and(|t| t == "VAT");
        if is_vat {
            party.vat_id = party.vat_id.or(id);
        } else {
            party.tax_registration = party.tax_registration.or(id);
        }
    }
    if let Some(a) = cac(p, "PostalAddress") {
        party.address = true;
        party.street = cbc(a, "StreetName");
        party.city = cbc(a, "CityName");
        party.post_code = cbc(a, "PostalZone");
        party.country = cac(a, "Country").and_then(|c| cbc(c, "IdentificationCode"));
        if let Some(c) = &party.country {
            facts.countries.push((country_term, c.clone()));
        }
    }
    if let Some(c) = cac(p, "Contact") {
        party.contact = true;
        party.contact_name = cbc(c, "Name");
        party.contact_phone = cbc(c, "Telephone");
        party.contact_email = cbc(c, "ElectronicMail");
    }
    party
}

fn ubl_category(parent: Option<Node>, name: &str) -> (Option<String>, Option<Number>) {
    let c = parent.and_then(|p| cac(p, name));
    (
        c.and_then(|c| cbc(c, "ID")),
        Number::of(c.and_then(|c| child(c, CBC, "Percent"))),
    )
}

/// The facts of a UBL `Invoice` or `CreditNote` root.
pub fn ubl(root: Node, credit_note: bool) -> Facts {
    let mut facts = Facts {
        specification: cbc(root, "CustomizationID"),
        number: cbc(root, "ID"),
        issue_date: cbc(root, "IssueDate"),
        type_code: cbc(
            root,
            if credit_note {
                "CreditNoteTypeCode"
            } else {
                "InvoiceTypeCode"
            },
        ),
        currency: cbc(root, "DocumentCurrencyCode"),
        buyer_reference: cbc(root, "BuyerReference"),
        ..Default::default()
    };
    every_currency_id(root, &mut facts);
    let seller = cac(root, "AccountingSupplierParty").and_then(|s| cac(s, "Party"));
    facts.seller = ubl_party(seller, "BT-40", &mut facts);
    let buyer = cac(root, "AccountingCustomerParty").and_then(|s| cac(s, "Party"));
    facts.buyer = ubl_party(buyer, "BT-55", &mut facts);
    let representative = cac(root, "TaxRepresentativeParty");
    facts.tax_representative = ubl_party(representative, "BT-69", &mut facts);
    if let Some(c) = cac(root, "Delivery")
        .and_then(|d| cac(d, "DeliveryLocation"))
        .and_then(|l| cac(l, "Address"))
        .and_then(|a| cac(a, "Country"))
        .and_then(|c| cbc(c, "IdentificationCode"))
    {
        facts.countries.push(("BT-80", c));
    }
    facts.payment_means = children(root, CAC, "PaymentMeans")
        .filter_map(|p| cbc(p, "PaymentMeansCode"))
        .collect();
    for ac in children(root, CAC, "AllowanceCharge") {
        let (category, rate) = ubl_category(Some(ac), "TaxCategory");
        let parsed = AllowanceChargeFacts {
            amount: Number::of(child(ac, CBC, "Amount")),
            category,
            rate,
        };
        if cbc(ac, "ChargeIndicator").is_some_and(|c| c == "true") {
            facts.charges.push(parsed);
        } else {
            facts.allowances.push(parsed);
        }
    }
    let currency = facts.currency.clone();
    let tax_totals: Vec<Node> = children(root, CAC, "TaxTotal").collect();
    let tax_amounts: Vec<Node> = tax_totals
        .iter()
        .filter_map(|t| child(*t, CBC, "TaxAmount"))
        .collect();
    facts.totals.tax_in_currency = in_currency_count(&tax_amounts, currency.as_deref());
    facts.totals.tax = amount_in(tax_amounts.into_iter(), currency.as_deref());
    for total in &tax_totals {
        for sub in children(*total, CAC, "TaxSubtotal") {
            let (category, rate) = ubl_category(Some(sub), "TaxCategory");
            let tc = cac(sub, "TaxCategory");
            facts.vat.push(VatFacts {
                taxable: Number::of(child(sub, CBC, "TaxableAmount")),
                tax: Number::of(child(sub, CBC, "TaxAmount")),
                category,
                rate,
                exemption_reason: tc.and_then(|t| cbc(t, "TaxExemptionReason")),
                exemption_code: tc.and_then(|t| cbc(t, "TaxExemptionReasonCode")),
            });
        }
    }
    if let Some(m) = cac(root, "LegalMonetaryTotal") {
        facts.totals_present = true;
        let n = |name: &str| Number::of(child(m, CBC, name));
        facts.totals.line_net = n("LineExtensionAmount");
        facts.totals.allowances = n("AllowanceTotalAmount");
        facts.totals.charges = n("ChargeTotalAmount");
        facts.totals.tax_exclusive = n("TaxExclusiveAmount");
        facts.totals.tax_inclusive = n("TaxInclusiveAmount");
        facts.totals.prepaid = n("PrepaidAmount");
        facts.totals.rounding = n("PayableRoundingAmount");
        facts.totals.payable = n("PayableAmount");
    }
    let (line_name, quantity_name) = if credit_note {
        ("CreditNoteLine", "CreditedQuantity")
    } else {
        ("InvoiceLine", "InvoicedQuantity")
    };
    for line in children(root, CAC, line_name) {
        let item = cac(line, "Item");
        let (category, rate) = ubl_category(item, "ClassifiedTaxCategory");
        let quantity = child(line, CBC, quantity_name);
        facts.lines.push(LineFacts {
            id: cbc(line, "ID"),
            quantity: Number::of(quantity),
            unit: quantity.and_then(|q| q.attribute("unitCode").map(|u| u.trim().to_string())),
            net: Number::of(child(line, CBC, "LineExtensionAmount")),
            price: Number::of(cac(line, "Price").and_then(|p| child(p, CBC, "PriceAmount"))),
            name: item.and_then(|i| cbc(i, "Name")),
            category,
            rate,
        });
    }
    facts
}

// ---------------------------------------------------------------------------------------
// CII D16B

fn ram(n: Node, name: &str) -> Option<String> {
    text(child(n, RAM, name))
}

fn path<'a, 'i>(n: Option<Node<'a, 'i>>, names: &[&str]) -> Option<Node<'a, 'i>> {
    names.iter().try_fold(n?, |cur, name| child(cur, RAM, name))
}

fn cii_party(p: Option<Node>, country_term: &'static str, facts: &mut Facts) -> PartyFacts {
    let Some(p) = p else {
        return PartyFacts::default();
    };
    let mut party = PartyFacts {
        present: true,
        name: ram(p, "Name"),
        legal_registration: path(Some(p), &["SpecifiedLegalOrganization"])
            .and_then(|l| ram(l, "ID")),
        identifiers: children(p, RAM, "ID")
            .chain(children(p, RAM, "GlobalID"))
            .filter_map(|i| text(Some(i)))
            .collect(),
        electronic_address: path(Some(p), &["URIUniversalCommunication", "URIID"])
            .and_then(|e| text(Some(e)).map(|v| (v, e.attribute("schemeID").map(str::to_string)))),
        ..Default::default()
    };
    for reg in children(p, RAM, "SpecifiedTaxRegistration") {
        let Some(id) = child(reg, RAM, "ID") else {
            continue;
        };
        match id.attribute("schemeID").map(str::trim) {
            Some("VA") => party.vat_id = party.vat_id.take().or(text(Some(id))),
            Some("FC") => party.tax_registration = party.tax_registration.take().or(text(Some(id))),
            _ => {}
        }
    }
    if let Some(a) = child(p, RAM, "PostalTradeAddress") {
        party.address = true;
        party.street = ram(a, "LineOne");
        party.city = ram(a, "CityName");
        party.post_code = ram(a, "PostcodeCode");
        party.country = ram(a, "CountryID");
        if let Some(c) = &party.country {
            facts.countries.push((country_term, c.clone()));
        }
    }
    if let Some(c) = child(p, RAM, "DefinedTradeContact") {
        party.contact = true;
        party.contact_name = ram(c, "PersonName").or_else(|| ram(c, "DepartmentName"));
        party.contact_phone = path(Some(c), &["TelephoneUniversalCommunication"])
            .and_then(|t| ram(t, "CompleteNumber"));
        party.contact_email =
            path(Some(c), &["EmailURIUniversalCommunication"]).and_then(|t| ram(t, "URIID"));
    }
    party
}

/// The `udt:DateTimeString` text under `n`.
fn cii_date_text(n: Option<Node>) -> Option<String> {
    n.and_then(|n| {
        n.children()
            .find(|c| c.is_element() && c.tag_name().name() == "DateTimeString")
    })
    .and_then(|d| text(Some(d)))
}

/// The facts of a CII `CrossIndustryInvoice` root.
pub fn cii(root: Node) -> Facts {
    let rsm = root.tag_name().namespace().unwrap_or_default();
    let rsm_child = |name: &str| root.children().find(|c| is(c, rsm, name));
    let context = rsm_child("ExchangedDocumentContext");
    let header = rsm_child("ExchangedDocument");
    let transaction = rsm_child("SupplyChainTradeTransaction");
    let agreement = path(transaction, &["ApplicableHeaderTradeAgreement"]);
    let settlement = path(transaction, &["ApplicableHeaderTradeSettlement"]);
    let mut facts = Facts {
        specification: path(context, &["GuidelineSpecifiedDocumentContextParameter"])
            .and_then(|g| ram(g, "ID")),
        number: header.and_then(|h| ram(h, "ID")),
        issue_date: cii_date_text(path(header, &["IssueDateTime"])),
        type_code: header.and_then(|h| ram(h, "TypeCode")),
        currency: settlement.and_then(|s| ram(s, "InvoiceCurrencyCode")),
        buyer_reference: agreement.and_then(|a| ram(a, "BuyerReference")),
        ..Default::default()
    };
    every_currency_id(root, &mut facts);
    facts.seller = cii_party(path(agreement, &["SellerTradeParty"]), "BT-40", &mut facts);
    facts.buyer = cii_party(path(agreement, &["BuyerTradeParty"]), "BT-55", &mut facts);
    let representative = path(agreement, &["SellerTaxRepresentativeTradeParty"]);
    facts.tax_representative = cii_party(representative, "BT-69", &mut facts);
    if let Some(c) = path(
        transaction,
        &[
            "ApplicableHeaderTradeDelivery",
            "ShipToTradeParty",
            "PostalTradeAddress",
        ],
    )
    .and_then(|a| ram(a, "CountryID"))
    {
        facts.countries.push(("BT-80", c));
    }
    if let Some(s) = settlement {
        facts.payment_means = children(s, RAM, "SpecifiedTradeSettlementPaymentMeans")
            .filter_map(|p| ram(p, "TypeCode"))
            .collect();
        for ac in children(s, RAM, "SpecifiedTradeAllowanceCharge") {
            let tax = child(ac, RAM, "CategoryTradeTax");
            let parsed = AllowanceChargeFacts {
                amount: Number::of(child(ac, RAM, "ActualAmount")),
                category: tax.and_then(|t| ram(t, "CategoryCode")),
                rate: Number::of(tax.and_then(|t| child(t, RAM, "RateApplicablePercent"))),
            };
            let charge = path(Some(ac), &["ChargeIndicator"])
                .and_then(|i| text(child(i, UDT, "Indicator")))
                .is_some_and(|i| i == "true");
            if charge {
                facts.charges.push(parsed);
            } else {
                facts.allowances.push(parsed);
            }
        }
        for tax in children(s, RAM, "ApplicableTradeTax") {
            facts.vat.push(VatFacts {
                taxable: Number::of(child(tax, RAM, "BasisAmount")),
                tax: Number::of(child(tax, RAM, "CalculatedAmount")),
                category: ram(tax, "CategoryCode"),
                rate: Number::of(child(tax, RAM, "RateApplicablePercent")),
                exemption_reason: ram(tax, "ExemptionReason"),
                exemption_code: ram(tax, "ExemptionReasonCode"),
            });
        }
        if let Some(m) = child(s, RAM, "SpecifiedTradeSettlementHeaderMonetarySummation") {
            facts.totals_present = true;
            let n = |name: &str| Number::of(child(m, RAM, name));
            facts.totals.line_net = n("LineTotalAmount");
            facts.totals.allowances = n("AllowanceTotalAmount");
            facts.totals.charges = n("ChargeTotalAmount");
            facts.totals.tax_exclusive = n("TaxBasisTotalAmount");
            let tax_amounts: Vec<Node> = children(m, RAM, "TaxTotalAmount").collect();
            facts.totals.tax_in_currency =
                in_currency_count(&tax_amounts, facts.currency.as_deref());
            facts.totals.tax = amount_in(tax_amounts.into_iter(), facts.currency.as_deref());
            facts.totals.tax_inclusive = n("GrandTotalAmount");
            facts.totals.prepaid = n("TotalPrepaidAmount");
            facts.totals.rounding = n("RoundingAmount");
            facts.totals.payable = n("DuePayableAmount");
        }
    }
    if let Some(t) = transaction {
        for line in children(t, RAM, "IncludedSupplyChainTradeLineItem") {
            let line_settlement = child(line, RAM, "SpecifiedLineTradeSettlement");
            let tax = path(line_settlement, &["ApplicableTradeTax"]);
            let quantity = path(
                Some(line),
                &["SpecifiedLineTradeDelivery", "BilledQuantity"],
            );
            facts.lines.push(LineFacts {
                id: path(Some(line), &["AssociatedDocumentLineDocument"])
                    .and_then(|d| ram(d, "LineID")),
                quantity: Number::of(quantity),
                unit: quantity.and_then(|q| q.attribute("unitCode").map(|u| u.trim().to_string())),
                net: Number::of(path(
                    line_settlement,
                    &[
                        "SpecifiedTradeSettlementLineMonetarySummation",
                        "LineTotalAmount",
                    ],
                )),
                price: Number::of(path(
                    Some(line),
                    &[
                        "SpecifiedLineTradeAgreement",
                        "NetPriceProductTradePrice",
                        "ChargeAmount",
                    ],
                )),
                name: path(Some(line), &["SpecifiedTradeProduct"]).and_then(|p| ram(p, "Name")),
                category: tax.and_then(|t| ram(t, "CategoryCode")),
                rate: Number::of(tax.and_then(|t| child(t, RAM, "RateApplicablePercent"))),
            });
        }
    }
    facts
}
