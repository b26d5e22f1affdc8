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

pub(crate) const UBL_INVOICE: &str = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
pub(crate) const UBL_CREDIT_NOTE: &str =
    "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";
pub(crate) const CAC: &str =
    "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2";
pub(crate) const CBC: &str = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";
pub(crate) const CII: &str = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100";
pub(crate) const RAM: &str =
    "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100";
pub(crate) const UDT: &str = "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100";
/// `qdt:DateTimeString` is the child of `ram:FormattedIssueDateTime` (BT-26) in D16B.
pub(crate) const QDT: &str = "urn:un:unece:uncefact:data:standard:QualifiedDataType:100";

/// The XML syntax of an e-invoice (the model's, shared with the app).
pub use kontor_model::einvoice::Syntax;

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
pub(crate) fn text_of(xml: &[u8]) -> Result<&str, Error> {
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

pub(crate) fn is(n: &Node, ns: &str, name: &str) -> bool {
    n.is_element() && n.tag_name().name() == name && n.tag_name().namespace() == Some(ns)
}

/// The first child element `ns:name`.
pub(crate) fn child<'a, 'i>(n: Node<'a, 'i>, ns: &str, name: &str) -> Option<Node<'a, 'i>> {
    n.children().find(|c| is(c, ns, name))
}

/// All child elements `ns:name`.
pub(crate) fn children<'a, 'i: 'a>(
    n: Node<'a, 'i>,
    ns: &'a str,
    name: &'a str,
) -> impl Iterator<Item = Node<'a, 'i>> + 'a {
    n.children().filter(move |c| is(c, ns, name))
}

/// Follows a path of `(namespace, name)` steps, taking the first match at each step.
pub(crate) fn at<'a, 'i>(n: Node<'a, 'i>, path: &[(&str, &str)]) -> Option<Node<'a, 'i>> {
    path.iter()
        .try_fold(n, |cur, (ns, name)| child(cur, ns, name))
}

/// The trimmed text of a node, `None` when empty.
pub(crate) fn text(n: Option<Node>) -> Option<String> {
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

mod checks;
mod cii;
mod ubl;

use checks::check;
pub use checks::{MAX_ITEMS, MAX_LINE_CHARS, MAX_TEXT_CHARS};
use cii::cii;
use ubl::ubl;
