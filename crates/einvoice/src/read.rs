//! Reading incoming e-invoices (issue 10 § Receiving): OASIS UBL 2.1 `Invoice` and
//! `CreditNote` and UN/CEFACT CII `CrossIndustryInvoice` (XRechnung, Factur-X / ZUGFeRD
//! EN 16931 and richer profiles) into the [`semantic`] model.
//!
//! Safety: the input is capped at [`MAX_XML`] bytes and 1,000,000 XML nodes; document type
//! declarations are refused (roxmltree never expands external entities, and with DTDs off
//! it expands no entities at all), so neither an entity bomb nor a file read can be
//! smuggled in. Elements are matched by namespace and local name.
//!
//! The reader checks what a purchase built from the document relies on: BT-1, BT-2, BT-5,
//! at least one line, the totals, and that the totals add up as EN 16931 requires
//! (BR-CO-10, -11, -12, -13, -14 (sum of the VAT breakdown), -15, -16). A document that
//! passes can be booked with totals equal to its own to the cent.

use crate::semantic::{
    Address, AllowanceCharge, Contact, ElectronicAddress, Invoice, Line, Party, PaymentMeans,
    PrecedingInvoice, Specification, Totals, TypeCode, VatBreakdown, VatCategory,
};
use crate::Error;
use chrono::NaiveDate;
use roxmltree::{Document, Node, ParsingOptions};
use rust_decimal::Decimal;
use std::str::FromStr;

/// Largest XML document read (10 MiB, the size limit of purchase documents).
pub const MAX_XML: usize = 10 * 1024 * 1024;

const UBL_INVOICE: &str = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
const UBL_CREDIT_NOTE: &str = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";
const CAC: &str = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2";
const CBC: &str = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";
const CII: &str = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100";
const RAM: &str =
    "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100";
const UDT: &str = "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100";
/// `qdt:DateTimeString` is the child of `ram:FormattedIssueDateTime` (BT-26) in D16B.
const QDT: &str = "urn:un:unece:uncefact:data:standard:QualifiedDataType:100";

/// The XML syntax of an e-invoice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// UN/CEFACT Cross Industry Invoice (D16B), the syntax of Factur-X / ZUGFeRD.
    Cii,
    /// OASIS UBL 2.1 (Invoice or CreditNote).
    Ubl,
}

impl Syntax {
    /// `cii` or `ubl` (the wire value of `e_invoice.syntax`).
    pub fn as_str(self) -> &'static str {
        match self {
            Syntax::Cii => "cii",
            Syntax::Ubl => "ubl",
        }
    }
}

/// Reads a UBL 2.1 Invoice/CreditNote or a CII CrossIndustryInvoice.
///
/// Errors: [`Error::NotAnInvoice`] with a reason a person understands — empty, too large,
/// not UTF-8, not XML, a DTD, a root element that is no invoice, a missing invoice number
/// (BT-1), issue date (BT-2), currency (BT-5), line or total, an unknown VAT category, an
/// unreadable amount or date, or totals that do not add up.
pub fn read(xml: &[u8]) -> Result<Invoice, Error> {
    read_with_syntax(xml).map(|(invoice, _)| invoice)
}

/// Like [`read`], and also says which syntax the document was written in.
pub fn read_with_syntax(xml: &[u8]) -> Result<(Invoice, Syntax), Error> {
    let root_text = text_of(xml)?;
    crate::xml_limits::check(root_text)?;
    let options = ParsingOptions {
        allow_dtd: false,
        nodes_limit: 1_000_000,
        entity_resolver: None,
    };
    let doc = Document::parse_with_options(root_text, options).map_err(|e| {
        let why = match e {
            roxmltree::Error::DtdDetected => {
                "it declares a document type (DTD), which e-invoices never do and Kontor refuses"
                    .to_string()
            }
            roxmltree::Error::NodesLimitReached => "it has too many XML elements".to_string(),
            other => format!("it is not well-formed XML ({other})"),
        };
        Error::NotAnInvoice(why)
    })?;
    let root = doc.root_element();
    let tag = root.tag_name();
    match (tag.namespace(), tag.name()) {
        (Some(UBL_INVOICE), "Invoice") => Ok((ubl(root, false)?, Syntax::Ubl)),
        (Some(UBL_CREDIT_NOTE), "CreditNote") => Ok((ubl(root, true)?, Syntax::Ubl)),
        (Some(CII), "CrossIndustryInvoice") => Ok((cii(root)?, Syntax::Cii)),
        (ns, name) => Err(Error::NotAnInvoice(format!(
            "its root element is <{name}>{}, not a UBL Invoice or CreditNote or a UN/CEFACT CrossIndustryInvoice",
            ns.map(|n| format!(" in namespace {n}")).unwrap_or_default()
        ))),
    }
}

/// The input as text: size-checked, UTF-8 (a byte order mark is skipped).
fn text_of(xml: &[u8]) -> Result<&str, Error> {
    if xml.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(Error::NotAnInvoice("the file is empty".into()));
    }
    if xml.len() > MAX_XML {
        return Err(Error::NotAnInvoice(format!(
            "the file is larger than {} MiB",
            MAX_XML / (1024 * 1024)
        )));
    }
    if xml.starts_with(b"%PDF-") {
        return Err(Error::NotAnInvoice(
            "it is a PDF, not XML (a Factur-X / ZUGFeRD PDF carries the XML inside)".into(),
        ));
    }
    let xml = xml.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(xml);
    std::str::from_utf8(xml).map_err(|_| {
        Error::NotAnInvoice("it is not XML text (not UTF-8; e-invoices are UTF-8 XML)".into())
    })
}

// ---------------------------------------------------------------------------------------
// Navigation helpers

fn is(n: &Node, ns: &str, name: &str) -> bool {
    n.is_element() && n.tag_name().name() == name && n.tag_name().namespace() == Some(ns)
}

/// The first child element `ns:name`.
fn child<'a, 'i>(n: Node<'a, 'i>, ns: &str, name: &str) -> Option<Node<'a, 'i>> {
    n.children().find(|c| is(c, ns, name))
}

/// All child elements `ns:name`.
fn children<'a, 'i: 'a>(
    n: Node<'a, 'i>,
    ns: &'a str,
    name: &'a str,
) -> impl Iterator<Item = Node<'a, 'i>> + 'a {
    n.children().filter(move |c| is(c, ns, name))
}

/// Follows a path of `(namespace, name)` steps, taking the first match at each step.
fn at<'a, 'i>(n: Node<'a, 'i>, path: &[(&str, &str)]) -> Option<Node<'a, 'i>> {
    path.iter()
        .try_fold(n, |cur, (ns, name)| child(cur, ns, name))
}

/// The trimmed text of a node, `None` when empty.
fn text(n: Option<Node>) -> Option<String> {
    n.and_then(|n| n.text())
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
}

fn cbc(n: Node, name: &str) -> Option<String> {
    text(child(n, CBC, name))
}

fn ram(n: Node, name: &str) -> Option<String> {
    text(child(n, RAM, name))
}

/// A decimal (`xs:decimal`: optional sign, digits, optional fraction).
fn decimal(value: &str, what: &str) -> Result<Decimal, Error> {
    let v = value.trim();
    let valid = !v.is_empty()
        && v.trim_start_matches(['-', '+'])
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.');
    valid
        .then(|| Decimal::from_str(v.trim_start_matches('+')).ok())
        .flatten()
        .ok_or_else(|| Error::NotAnInvoice(format!("{what} \"{v}\" is not a number")))
}

fn opt_decimal(n: Option<Node>, what: &str) -> Result<Option<Decimal>, Error> {
    text(n).map(|t| decimal(&t, what)).transpose()
}

fn req_decimal(n: Option<Node>, what: &str) -> Result<Decimal, Error> {
    opt_decimal(n, what)?.ok_or_else(|| Error::NotAnInvoice(format!("{what} is missing")))
}

fn category(code: Option<String>, what: &str) -> Result<VatCategory, Error> {
    let code = code.ok_or_else(|| Error::NotAnInvoice(format!("{what} has no VAT category")))?;
    VatCategory::parse(&code).ok_or_else(|| {
        Error::NotAnInvoice(format!(
            "{what} has the VAT category \"{code}\", which Kontor does not book (S, Z, E, AE, K, G, O)"
        ))
    })
}

/// A UBL date `YYYY-MM-DD`.
fn iso_date(value: Option<String>, what: &str) -> Result<Option<NaiveDate>, Error> {
    value
        .map(|v| {
            NaiveDate::parse_from_str(&v, "%Y-%m-%d")
                .map_err(|_| Error::NotAnInvoice(format!("{what} \"{v}\" is not a date")))
        })
        .transpose()
}

/// A CII `udt:DateTimeString` (`qdt:` under BT-26 `FormattedIssueDateTime`) under `n`:
/// format 102 `YYYYMMDD`; 610 `YYYYMM` and 616 `YYYYWW` are not accepted.
fn cii_date(n: Option<Node>, what: &str) -> Result<Option<NaiveDate>, Error> {
    let Some(n) = n else { return Ok(None) };
    let Some(s) = child(n, UDT, "DateTimeString")
        .or_else(|| child(n, QDT, "DateTimeString"))
        .or_else(|| child(n, RAM, "DateTimeString"))
    else {
        return Ok(None);
    };
    let Some(v) = text(Some(s)) else {
        return Ok(None);
    };
    let format = s.attribute("format").unwrap_or("102");
    if format != "102" {
        return Err(Error::NotAnInvoice(format!(
            "{what} uses the date format {format}; only 102 (YYYYMMDD) is read"
        )));
    }
    NaiveDate::parse_from_str(&v, "%Y%m%d")
        .map(Some)
        .map_err(|_| Error::NotAnInvoice(format!("{what} \"{v}\" is not a date")))
}

fn period(start: Option<NaiveDate>, end: Option<NaiveDate>) -> Option<(NaiveDate, NaiveDate)> {
    match (start, end) {
        (Some(s), Some(e)) => Some((s, e)),
        (Some(d), None) | (None, Some(d)) => Some((d, d)),
        (None, None) => None,
    }
}

fn specification(id: Option<&str>) -> Specification {
    if id.is_some_and(|i| i.to_ascii_lowercase().contains("xrechnung")) {
        Specification::XRechnung
    } else {
        Specification::En16931
    }
}

/// UNTDID 1001 codes EN 16931 counts as credit notes.
fn type_code(code: Option<&str>, credit_note_root: bool) -> TypeCode {
    match code {
        Some("381" | "261" | "262" | "296" | "308" | "396" | "420" | "458" | "532") => {
            TypeCode::CreditNote
        }
        Some(_) => TypeCode::Invoice,
        None if credit_note_root => TypeCode::CreditNote,
        None => TypeCode::Invoice,
    }
}

fn required(value: Option<String>, what: &str) -> Result<String, Error> {
    value.ok_or_else(|| Error::NotAnInvoice(format!("{what} is missing")))
}

fn some_contact(c: Contact) -> Option<Contact> {
    (c.name.is_some() || c.phone.is_some() || c.email.is_some()).then_some(c)
}

/// An electronic address (BT-34, BT-49): the element's text with its `schemeID` ("" when
/// absent); `None` when the element is missing or empty.
fn electronic_address(n: Option<Node>) -> Option<ElectronicAddress> {
    text(n).map(|value| ElectronicAddress {
        value,
        scheme: n
            .and_then(|e| e.attribute("schemeID"))
            .unwrap_or("")
            .to_string(),
    })
}

/// The elements of one document-level allowance or charge (BG-20, BG-21), whichever
/// syntax they were found in.
struct AllowanceChargeFields<'a, 'i> {
    amount: Option<Node<'a, 'i>>,
    base_amount: Option<Node<'a, 'i>>,
    percent: Option<Node<'a, 'i>>,
    category: Option<String>,
    rate: Option<Node<'a, 'i>>,
    reason: Option<String>,
    reason_code: Option<String>,
}

/// A document-level allowance or charge (`charge`) from its elements. Errors: a missing
/// or unreadable amount, an unreadable base, percentage or VAT rate, an unknown category.
fn allowance_charge(charge: bool, f: AllowanceChargeFields) -> Result<AllowanceCharge, Error> {
    let what = if charge {
        "A document-level charge"
    } else {
        "A document-level allowance"
    };
    Ok(AllowanceCharge {
        amount: req_decimal(f.amount, &format!("{what}'s amount"))?,
        base_amount: opt_decimal(f.base_amount, &format!("{what}'s base"))?,
        percent: opt_decimal(f.percent, &format!("{what}'s percentage"))?,
        category: category(f.category, what)?,
        rate: opt_decimal(f.rate, "A VAT rate")?.unwrap_or_default(),
        reason: f.reason,
        reason_code: f.reason_code,
    })
}

/// Parses every allowance/charge node and sorts them into (allowances, charges);
/// `is_charge` reads the node's charge indicator.
fn allowances_and_charges<'a, 'i: 'a>(
    nodes: impl Iterator<Item = Node<'a, 'i>>,
    is_charge: impl Fn(Node) -> bool,
    parse: impl Fn(Node, bool) -> Result<AllowanceCharge, Error>,
) -> Result<(Vec<AllowanceCharge>, Vec<AllowanceCharge>), Error> {
    let mut allowances = Vec::new();
    let mut charges = Vec::new();
    for ac in nodes {
        let charge = is_charge(ac);
        let parsed = parse(ac, charge)?;
        if charge {
            charges.push(parsed);
        } else {
            allowances.push(parsed);
        }
    }
    Ok((allowances, charges))
}

/// One VAT breakdown (BG-23) from its category code, rate, taxable amount (BT-116), tax
/// amount (BT-117) and exemption reason and code. Errors: an unknown category, a missing
/// or unreadable amount, an unreadable rate.
fn vat_breakdown_of(
    category_code: Option<String>,
    rate: Option<Node>,
    taxable_amount: Option<Node>,
    tax_amount: Option<Node>,
    exemption_reason: Option<String>,
    exemption_reason_code: Option<String>,
) -> Result<VatBreakdown, Error> {
    Ok(VatBreakdown {
        category: category(category_code, "A VAT breakdown (BG-23)")?,
        rate: opt_decimal(rate, "A VAT rate")?.unwrap_or_default(),
        taxable_amount: req_decimal(taxable_amount, "A VAT breakdown's taxable amount (BT-116)")?,
        tax_amount: req_decimal(tax_amount, "A VAT breakdown's tax amount (BT-117)")?,
        exemption_reason,
        exemption_reason_code,
    })
}

/// The element names of the document totals (BG-22) in one syntax.
struct TotalNames {
    line_net_total: &'static str,
    allowance_total: &'static str,
    charge_total: &'static str,
    tax_exclusive: &'static str,
    tax_inclusive: &'static str,
    prepaid: &'static str,
    rounding: &'static str,
    payable: &'static str,
}

/// The document totals (BG-22): the elements `ns:names.*` under `m`; the VAT total
/// (BT-110) from `tax_total` (read after BT-109, as the elements stand). Errors: a missing
/// required total (BT-106, 109, 112, 115) or any unreadable amount.
fn totals(
    m: Node,
    ns: &str,
    names: &TotalNames,
    tax_total: impl FnOnce() -> Result<Decimal, Error>,
) -> Result<Totals, Error> {
    let amount = |name: &str| child(m, ns, name);
    Ok(Totals {
        line_net_total: req_decimal(
            amount(names.line_net_total),
            "The sum of line net amounts (BT-106)",
        )?,
        allowance_total: opt_decimal(
            amount(names.allowance_total),
            "The allowance total (BT-107)",
        )?
        .unwrap_or_default(),
        charge_total: opt_decimal(amount(names.charge_total), "The charge total (BT-108)")?
            .unwrap_or_default(),
        tax_exclusive: req_decimal(
            amount(names.tax_exclusive),
            "The total without VAT (BT-109)",
        )?,
        tax_total: tax_total()?,
        tax_inclusive: req_decimal(amount(names.tax_inclusive), "The total with VAT (BT-112)")?,
        prepaid: opt_decimal(amount(names.prepaid), "The paid amount (BT-113)")?
            .unwrap_or_default(),
        rounding: opt_decimal(amount(names.rounding), "The rounding amount (BT-114)")?
            .unwrap_or_default(),
        payable: req_decimal(amount(names.payable), "The amount due (BT-115)")?,
    })
}

/// A line's unit code (BT-130): the quantity's `unitCode`, else `C62` (one).
fn unit_code(quantity: Option<Node>) -> String {
    quantity
        .and_then(|q| q.attribute("unitCode"))
        .unwrap_or("C62")
        .to_string()
}

/// A line's net price per unit (BT-146 / BT-149, see [`per_unit`]); 0 when absent.
/// `what` names the line in errors.
fn unit_price(
    price: Option<Node>,
    base_quantity: Option<Node>,
    what: &str,
) -> Result<Decimal, Error> {
    let price = opt_decimal(price, &format!("{what}'s price"))?.unwrap_or_default();
    let base = opt_decimal(base_quantity, &format!("{what}'s price base quantity"))?;
    Ok(per_unit(price, base))
}

// ---------------------------------------------------------------------------------------
// UBL

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

/// The price of one unit: `price / base quantity` when a base quantity other than 0 or 1
/// is given.
fn per_unit(price: Decimal, base: Option<Decimal>) -> Decimal {
    match base {
        Some(b) if !b.is_zero() && b != Decimal::ONE => {
            price.checked_div(b).map(|p| p.normalize()).unwrap_or(price)
        }
        _ => price,
    }
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

/// An amount element whose `currencyID` is `currency` (or carries none), else the first.
fn in_currency<'a, 'i: 'a>(
    nodes: impl Iterator<Item = Node<'a, 'i>>,
    currency: &str,
) -> Option<Node<'a, 'i>> {
    let nodes: Vec<Node> = nodes.collect();
    nodes
        .iter()
        .find(|n| {
            n.attribute("currencyID")
                .is_none_or(|c| c.trim() == currency)
        })
        .or(nodes.first())
        .copied()
}

fn ubl(root: Node, credit_note: bool) -> Result<Invoice, Error> {
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

fn cii(root: Node) -> Result<Invoice, Error> {
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

fn sum<'a>(mut values: impl Iterator<Item = &'a Decimal>) -> Option<Decimal> {
    values.try_fold(Decimal::ZERO, |acc, v| acc.checked_add(*v))
}

/// Longest single-line text taken from a document (a name, number, reference, code):
/// the length of every one-line field Kontor stores.
pub const MAX_LINE_CHARS: usize = kontor_model::validation::MAX_LINE;
/// Longest multi-line text taken (a note, description, payment terms): the length of every
/// free text Kontor stores.
pub const MAX_TEXT_CHARS: usize = kontor_model::validation::MAX_TEXT;
/// Most lines, notes, allowances, charges or VAT breakdowns taken from one document (the
/// position limit of Kontor's own documents).
pub const MAX_ITEMS: usize = kontor_model::validation::MAX_POSITIONS;

/// Every text of `invoice` within [`MAX_LINE_CHARS`] / [`MAX_TEXT_CHARS`] and every list
/// within [`MAX_ITEMS`]. Errors: [`Error::NotAnInvoice`] naming the business term.
fn check_lengths(invoice: &Invoice) -> Result<(), Error> {
    let mut lines: Vec<(&str, Option<&str>)> = vec![
        ("BT-1 invoice number", Some(&invoice.number)),
        ("BT-5 currency", Some(&invoice.currency)),
        ("BT-10 buyer reference", invoice.buyer_reference.as_deref()),
        ("BT-13 order reference", invoice.order_reference.as_deref()),
        (
            "BT-80 delivery country",
            invoice.delivery_country.as_deref(),
        ),
        (
            "BT-83 remittance information",
            invoice.remittance_information.as_deref(),
        ),
        (
            "BT-25 preceding invoice",
            invoice
                .preceding_invoice
                .as_ref()
                .map(|p| p.number.as_str()),
        ),
    ];
    let mut texts: Vec<(&str, Option<&str>)> =
        vec![("BT-20 payment terms", invoice.payment_terms.as_deref())];
    for p in [&invoice.seller, &invoice.buyer] {
        lines.extend([
            ("BT-27/44 party name", Some(p.name.as_str())),
            ("BT-28/45 trading name", p.trading_name.as_deref()),
            ("BT-29/46 party identifier", p.identifier.as_deref()),
            (
                "BT-30/47 legal registration",
                p.legal_registration.as_deref(),
            ),
            ("BT-31/48 VAT identifier", p.vat_identifier.as_deref()),
            ("BT-32 tax number", p.tax_number.as_deref()),
            (
                "BT-34/49 electronic address",
                p.electronic_address.as_ref().map(|a| a.value.as_str()),
            ),
            ("BT-37/52 city", p.address.city.as_deref()),
            ("BT-38/53 post code", p.address.post_code.as_deref()),
            (
                "BT-39/54 country subdivision",
                p.address.subdivision.as_deref(),
            ),
            ("BT-40/55 country", Some(p.address.country_code.as_str())),
        ]);
        lines.extend(
            p.address
                .lines
                .iter()
                .map(|l| ("BT-35/50 address line", Some(l.as_str()))),
        );
        texts.push((
            "BT-33 additional legal information",
            p.additional_legal_information.as_deref(),
        ));
        if let Some(c) = &p.contact {
            lines.extend([
                ("BT-41 contact point", c.name.as_deref()),
                ("BT-42 contact telephone", c.phone.as_deref()),
                ("BT-43 contact e-mail", c.email.as_deref()),
            ]);
        }
    }
    match &invoice.payment_means {
        Some(PaymentMeans::CreditTransfer {
            iban,
            account_name,
            bic,
        }) => lines.extend([
            ("BT-84 payment account", Some(iban.as_str())),
            ("BT-85 payment account name", account_name.as_deref()),
            ("BT-86 payment service provider", bic.as_deref()),
        ]),
        Some(PaymentMeans::DirectDebit {
            mandate_reference,
            creditor_identifier,
            debited_iban,
        }) => lines.extend([
            ("BT-89 mandate reference", Some(mandate_reference.as_str())),
            (
                "BT-90 creditor identifier",
                Some(creditor_identifier.as_str()),
            ),
            ("BT-91 debited account", Some(debited_iban.as_str())),
        ]),
        None => {}
    }
    texts.extend(
        invoice
            .notes
            .iter()
            .map(|n| ("BT-22 invoice note", Some(n.as_str()))),
    );
    for l in &invoice.lines {
        lines.extend([
            ("BT-126 line identifier", Some(l.id.as_str())),
            ("BT-130 unit of measure", Some(l.unit_code.as_str())),
            ("BT-153 item name", Some(l.name.as_str())),
        ]);
        texts.extend([
            ("BT-127 line note", l.note.as_deref()),
            ("BT-154 item description", l.description.as_deref()),
        ]);
    }
    for a in invoice.allowances.iter().chain(&invoice.charges) {
        lines.push((
            "BT-98/105 allowance or charge reason code",
            a.reason_code.as_deref(),
        ));
        texts.push(("BT-97/104 allowance or charge reason", a.reason.as_deref()));
    }
    for b in &invoice.vat_breakdown {
        lines.push((
            "BT-121 VAT exemption reason code",
            b.exemption_reason_code.as_deref(),
        ));
        texts.push(("BT-120 VAT exemption reason", b.exemption_reason.as_deref()));
    }
    for (list, count) in [
        ("lines (BG-25)", invoice.lines.len()),
        ("notes (BT-22)", invoice.notes.len()),
        ("allowances (BG-20)", invoice.allowances.len()),
        ("charges (BG-21)", invoice.charges.len()),
        ("VAT breakdowns (BG-23)", invoice.vat_breakdown.len()),
    ] {
        if count > MAX_ITEMS {
            return Err(Error::NotAnInvoice(format!(
                "it has more than {MAX_ITEMS} {list}"
            )));
        }
    }
    for (limit, fields) in [(MAX_LINE_CHARS, &lines), (MAX_TEXT_CHARS, &texts)] {
        for (term, value) in fields.iter() {
            if value.is_some_and(|v| v.chars().count() > limit) {
                return Err(Error::NotAnInvoice(format!(
                    "its {term} is longer than {limit} characters"
                )));
            }
        }
    }
    Ok(())
}

/// The EN 16931 sums a booking relies on (BR-16: a line; BR-CO-10…16), after the lengths
/// of [`check_lengths`].
fn check(invoice: Invoice) -> Result<Invoice, Error> {
    check_lengths(&invoice)?;
    if invoice.seller.name.trim().is_empty() {
        return Err(Error::NotAnInvoice(
            "The seller's name (BT-27) is missing".into(),
        ));
    }
    if invoice.lines.is_empty() {
        return Err(Error::NotAnInvoice(
            "It has no invoice lines (BG-25); Kontor imports EN 16931 invoices (Factur-X MINIMUM and BASIC WL carry no lines)".into(),
        ));
    }
    let t = &invoice.totals;
    let overflow = || Error::NotAnInvoice("Its amounts are too large".into());
    let mismatch = |what: &str, stated: Decimal, computed: Decimal| {
        Error::NotAnInvoice(format!(
            "Its totals do not add up: {what} is {stated} but the document's amounts give {computed}"
        ))
    };
    let lines = sum(invoice.lines.iter().map(|l| &l.net_amount)).ok_or_else(overflow)?;
    if lines != t.line_net_total {
        return Err(mismatch(
            "the sum of line net amounts (BT-106)",
            t.line_net_total,
            lines,
        ));
    }
    let allowances = sum(invoice.allowances.iter().map(|a| &a.amount)).ok_or_else(overflow)?;
    if allowances != t.allowance_total {
        return Err(mismatch(
            "the allowance total (BT-107)",
            t.allowance_total,
            allowances,
        ));
    }
    let charges = sum(invoice.charges.iter().map(|a| &a.amount)).ok_or_else(overflow)?;
    if charges != t.charge_total {
        return Err(mismatch(
            "the charge total (BT-108)",
            t.charge_total,
            charges,
        ));
    }
    let net = lines
        .checked_sub(allowances)
        .and_then(|n| n.checked_add(charges))
        .ok_or_else(overflow)?;
    if net != t.tax_exclusive {
        return Err(mismatch(
            "the total without VAT (BT-109)",
            t.tax_exclusive,
            net,
        ));
    }
    let vat = sum(invoice.vat_breakdown.iter().map(|b| &b.tax_amount)).ok_or_else(overflow)?;
    if vat != t.tax_total {
        return Err(mismatch("the VAT total (BT-110)", t.tax_total, vat));
    }
    let gross = net.checked_add(vat).ok_or_else(overflow)?;
    if gross != t.tax_inclusive {
        return Err(mismatch(
            "the total with VAT (BT-112)",
            t.tax_inclusive,
            gross,
        ));
    }
    let payable = gross
        .checked_sub(t.prepaid)
        .and_then(|p| p.checked_add(t.rounding))
        .ok_or_else(overflow)?;
    if payable != t.payable {
        return Err(mismatch("the amount due (BT-115)", t.payable, payable));
    }
    Ok(invoice)
}
