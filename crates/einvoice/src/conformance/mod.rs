//! Kontor's own EN 16931 check of an incoming e-invoice (issue 36), in Rust: the rules of the
//! official CEN/TC 434 validation artefacts (release 1.3.16) and of KoSIT's XRechnung 3.0
//! schematron that decide whether an invoice's data is complete and adds up — with the same
//! rule ids, so a finding names what the official validators name.
//!
//! What is checked (`docs/decisions.md` § E-invoice check):
//! - the structure: well-formed XML within Kontor's limits, a UBL 2.1 `Invoice` /
//!   `CreditNote` or CII D16B `CrossIndustryInvoice` root, amounts that are decimal numbers
//!   (`KONTOR-…` rules); a Factur-X profile below EN 16931 (MINIMUM, BASIC WL, BASIC is not
//!   an invoice under § 14 UStG here) is `KONTOR-PROFILE`;
//! - the mandatory business terms BR-01 … BR-16, BR-21 … BR-27, BR-CO-18, BR-CO-26;
//! - the code lists BR-CL-01, -03, -04, -05, -14, -16, -17, -18, -22, -23, -25 (the lists of
//!   [`code_lists`], generated from the official artefacts);
//! - the calculations BR-CO-10 … BR-CO-17 and the VAT breakdown per category BR-S/Z/E/AE/
//!   IC/G/O-08 and -09, with the official rounding (half up to the cent) and tolerances;
//! - the categories' party and rate rules BR-S/Z/E/AE/IC/G/O-01 … 07 (who must be named,
//!   which rates are allowed);
//! - for documents whose BT-24 names XRechnung: BR-DE-1 … 9, BR-DE-15, BR-DE-16 and the
//!   electronic addresses BT-34 / BT-49 (BR-DE-26 / BR-DE-28 in 3.0 terms, see [`xrechnung`]).
//!
//! - the syntax: the XML schema of UBL 2.1 or of CII (Factur-X EXTENDED), validated by
//!   libxml2 ([`xsd`], `KONTOR-XSD`): element order, cardinality, data types;
//!
//! Not checked: the rules that do not decide completeness or sums (e.g.
//! BR-CL-07/08/10/11/13, date relations); a document they alone refuse passes here.
//!
//! Bounds: the reader's limits on the XML, at most [`crate::read::MAX_ITEMS`] lines, VAT
//! breakdowns, allowances and charges (else one `KONTOR-SIZE` finding), at most
//! [`MAX_FINDINGS`] findings; the work is linear in the document but for the category sums
//! (breakdowns × lines, both bounded).
//!
//! The check reads the bytes on its own (independently of [`crate::read`], which builds the
//! booking), so a document the reader cannot book still gets its findings.

pub mod code_lists;
mod facts;
mod rules;
mod xrechnung;
pub mod xsd;
#[rustfmt::skip]
mod xsd_files;

use crate::read::{CBC, CII, RAM, UBL_CREDIT_NOTE, UBL_INVOICE};
pub use kontor_model::einvoice_check::{DefectClass, EinvoiceCheck, Finding};
use roxmltree::{Document, Node, ParsingOptions};

/// Checks the e-invoice XML `xml` (a PDF's embedded XML for Factur-X / ZUGFeRD).
///
/// Returns every finding; never fails: a document that is no XML or no invoice is one
/// formal finding (`KONTOR-XML`, `KONTOR-ROOT`, `KONTOR-SIZE`). Bounded like the reader: at most
/// [`crate::read::MAX_XML`] bytes, the limits of [`crate::xml_limits`], 1,000,000 nodes,
/// no DTD.
pub fn check(xml: &[u8]) -> EinvoiceCheck {
    EinvoiceCheck::of(findings(xml))
}

fn findings(xml: &[u8]) -> Vec<Finding> {
    let text = match crate::read::text_of(xml).and_then(|t| crate::xml_limits::check(t).map(|_| t))
    {
        Ok(t) => t,
        Err(e) => return vec![not_xml(&e)],
    };
    let options = ParsingOptions {
        allow_dtd: false,
        nodes_limit: 1_000_000,
        entity_resolver: None,
    };
    let doc = match Document::parse_with_options(text, options) {
        Ok(d) => d,
        Err(e) => {
            return vec![not_xml(&crate::Error::NotAnInvoice(format!(
                "it is not well-formed XML ({e})"
            )))]
        }
    };
    let root = doc.root_element();
    let tag = root.tag_name();
    let (facts, syntax, schema) = match (tag.namespace(), tag.name()) {
        (Some(UBL_INVOICE), "Invoice") => {
            (facts::ubl(root, false), Syntax::Ubl, xsd::Schema::UblInvoice)
        }
        (Some(UBL_CREDIT_NOTE), "CreditNote") => {
            (facts::ubl(root, true), Syntax::Ubl, xsd::Schema::UblCreditNote)
        }
        (Some(CII), "CrossIndustryInvoice") => (facts::cii(root), Syntax::Cii, xsd::Schema::Cii),
        (_, name) => {
            return vec![finding(
                "KONTOR-ROOT",
                "",
                format!("The root element <{name}> is no UBL 2.1 Invoice or CreditNote and no UN/CEFACT CII CrossIndustryInvoice."),
                format!("Das Wurzelelement <{name}> ist weder eine UBL-2.1-Invoice oder -CreditNote noch eine UN/CEFACT-CII-CrossIndustryInvoice."),
            )]
        }
    };
    let counts = [
        ("lines (BG-25)", facts.lines.len()),
        ("VAT breakdowns (BG-23)", facts.vat.len()),
        ("allowances (BG-20)", facts.allowances.len()),
        ("charges (BG-21)", facts.charges.len()),
    ];
    if let Some((what, _)) = counts.iter().find(|(_, n)| *n > crate::read::MAX_ITEMS) {
        let limit = crate::read::MAX_ITEMS;
        return vec![finding(
            "KONTOR-SIZE",
            "",
            format!("The document has more than {limit} {what}; Kontor does not read it."),
            format!("Das Dokument hat mehr als {limit} {what}; Kontor liest es nicht."),
        )];
    }
    let mut out = Vec::new();
    if let Err(why) = xsd::check(text, schema, &mut out) {
        static REPORTED: std::sync::Once = std::sync::Once::new();
        REPORTED.call_once(|| {
            eprintln!("kontor-einvoice: the XML schemas could not be loaded, e-invoices are checked without them: {why}");
        });
    }
    rules::profile(&facts, &mut out);
    rules::numbers(root, syntax, &mut out);
    rules::mandatory(&facts, &mut out);
    xrechnung::electronic_addresses(&facts, &mut out);
    code_list_findings(root, syntax, &mut out);
    rules::calculations(&facts, syntax, &mut out);
    rules::category_parties(&facts, syntax, &mut out);
    if facts
        .specification
        .as_deref()
        .is_some_and(|s| s.to_ascii_lowercase().contains("xrechnung"))
    {
        xrechnung::rules(&facts, &mut out);
    }
    out.truncate(MAX_FINDINGS);
    out
}

/// Most findings kept of one document (a document broken everywhere is named by its first
/// hundred; each check stops collecting there).
pub const MAX_FINDINGS: usize = 100;

fn not_xml(e: &crate::Error) -> Finding {
    let why = match e {
        crate::Error::NotAnInvoice(w) | crate::Error::Pdf(w) | crate::Error::Write(w) => w,
    };
    finding(
        "KONTOR-XML",
        "",
        format!("The document is not readable as an e-invoice: {why}."),
        format!("Das Dokument ist als E-Rechnung nicht lesbar: {why}."),
    )
}

/// The syntax a document is written in (the code lists' contexts differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Syntax {
    Ubl,
    Cii,
}

/// A finding of `rule` about `term`, its class from [`class_of`].
pub(crate) fn finding(rule: &str, term: &str, en: String, de: String) -> Finding {
    Finding {
        rule: rule.to_string(),
        term: term.to_string(),
        message: en,
        message_de: de,
        class: class_of(rule),
    }
}

/// The BMF class of a rule (`docs/decisions.md` § E-invoice check):
/// - formal: Kontor's structure checks (`KONTOR-…`), the specification identifier and type
///   code (BR-01, BR-04) and every code list (BR-CL-…) — without them the data cannot be
///   interpreted as an e-invoice;
/// - content: the § 14 (4) UStG data — number and date (BR-02, BR-03), currency (BR-05),
///   parties, addresses and tax identifiers (BR-06 … BR-11, BR-CO-09, BR-CO-26, BR-DE-16),
///   items, quantities and amounts (BR-12 … BR-16, BR-21 … BR-27), the calculations and
///   the VAT breakdown (BR-CO-10 … BR-CO-18, BR-S/Z/E/AE/IC/G/O-…);
/// - other: everything else, e.g. XRechnung's routing and contact data (BR-DE-1 … 15).
pub fn class_of(rule: &str) -> DefectClass {
    const CONTENT: &[&str] = &[
        "BR-02", "BR-03", "BR-05", "BR-06", "BR-07", "BR-08", "BR-09", "BR-10", "BR-11", "BR-12",
        "BR-13", "BR-14", "BR-15", "BR-16", "BR-21", "BR-22", "BR-23", "BR-24", "BR-25", "BR-26",
        "BR-27", "BR-CO-09", "BR-CO-26", "BR-DE-16",
    ];
    if rule.starts_with("KONTOR-")
        || rule.starts_with("BR-CL-")
        || matches!(rule, "BR-01" | "BR-04")
    {
        return DefectClass::Formal;
    }
    let category_rule = [
        "BR-S-", "BR-Z-", "BR-E-", "BR-AE-", "BR-IC-", "BR-G-", "BR-O-",
    ]
    .iter()
    .any(|p| rule.starts_with(p));
    let calculation = rule
        .strip_prefix("BR-CO-")
        .and_then(|n| n.parse::<u32>().ok())
        .is_some_and(|n| (10..=18).contains(&n));
    if CONTENT.contains(&rule) || category_rule || calculation {
        DefectClass::Content
    } else {
        DefectClass::Other
    }
}

/// Where a code list applies: an element `name` (in `namespace`), optionally only under a
/// parent named `parent`, its text or its attribute `attribute`.
struct CodeListUse {
    rule: &'static str,
    term: &'static str,
    namespace: &'static str,
    names: &'static [&'static str],
    parent: Option<&'static str>,
    attribute: Option<&'static str>,
    codes: &'static [&'static str],
}

const UBL_AMOUNTS: &[&str] = &[
    "Amount",
    "BaseAmount",
    "PriceAmount",
    "TaxAmount",
    "TaxableAmount",
    "LineExtensionAmount",
    "TaxExclusiveAmount",
    "TaxInclusiveAmount",
    "AllowanceTotalAmount",
    "ChargeTotalAmount",
    "PrepaidAmount",
    "PayableRoundingAmount",
    "PayableAmount",
];

fn code_list_uses(syntax: Syntax) -> Vec<CodeListUse> {
    use code_lists::*;
    let u = |rule, term, names, parent, attribute, codes| CodeListUse {
        rule,
        term,
        namespace: CBC,
        names,
        parent,
        attribute,
        codes,
    };
    let c = |rule, term, names, parent, attribute, codes| CodeListUse {
        rule,
        term,
        namespace: RAM,
        names,
        parent,
        attribute,
        codes,
    };
    match syntax {
        Syntax::Ubl => vec![
            u(
                "BR-CL-01",
                "BT-3",
                &["InvoiceTypeCode"],
                None,
                None,
                INVOICE_TYPES,
            ),
            u(
                "BR-CL-01",
                "BT-3",
                &["CreditNoteTypeCode"],
                None,
                None,
                CREDIT_NOTE_TYPES,
            ),
            u(
                "BR-CL-03",
                "currencyID",
                UBL_AMOUNTS,
                None,
                Some("currencyID"),
                CURRENCIES,
            ),
            u(
                "BR-CL-04",
                "BT-5",
                &["DocumentCurrencyCode"],
                None,
                None,
                CURRENCIES,
            ),
            u(
                "BR-CL-05",
                "BT-6",
                &["TaxCurrencyCode"],
                None,
                None,
                CURRENCIES,
            ),
            u(
                "BR-CL-14",
                "BT-40/55/80",
                &["IdentificationCode"],
                Some("Country"),
                None,
                COUNTRIES,
            ),
            u(
                "BR-CL-16",
                "BT-81",
                &["PaymentMeansCode"],
                Some("PaymentMeans"),
                None,
                PAYMENT_MEANS,
            ),
            u(
                "BR-CL-17",
                "BT-95/102/118",
                &["ID"],
                Some("TaxCategory"),
                None,
                VAT_CATEGORIES,
            ),
            u(
                "BR-CL-18",
                "BT-151",
                &["ID"],
                Some("ClassifiedTaxCategory"),
                None,
                VAT_CATEGORIES,
            ),
            u(
                "BR-CL-22",
                "BT-121",
                &["TaxExemptionReasonCode"],
                None,
                None,
                EXEMPTION_REASONS,
            ),
            u(
                "BR-CL-23",
                "BT-130",
                &["InvoicedQuantity", "BaseQuantity", "CreditedQuantity"],
                None,
                Some("unitCode"),
                UNITS,
            ),
            u(
                "BR-CL-25",
                "BT-34/49",
                &["EndpointID"],
                None,
                Some("schemeID"),
                ELECTRONIC_ADDRESS_SCHEMES,
            ),
        ],
        Syntax::Cii => vec![
            c(
                "BR-CL-01",
                "BT-3",
                &["TypeCode"],
                Some("ExchangedDocument"),
                None,
                CII_TYPES,
            ),
            c(
                "BR-CL-03",
                "currencyID",
                &["TaxTotalAmount"],
                None,
                Some("currencyID"),
                CURRENCIES,
            ),
            c(
                "BR-CL-04",
                "BT-5",
                &["InvoiceCurrencyCode"],
                None,
                None,
                CURRENCIES,
            ),
            c(
                "BR-CL-05",
                "BT-6",
                &["TaxCurrencyCode"],
                None,
                None,
                CURRENCIES,
            ),
            c(
                "BR-CL-14",
                "BT-40/55/80",
                &["CountryID"],
                None,
                None,
                COUNTRIES,
            ),
            c(
                "BR-CL-16",
                "BT-81",
                &["TypeCode"],
                Some("SpecifiedTradeSettlementPaymentMeans"),
                None,
                PAYMENT_MEANS,
            ),
            c(
                "BR-CL-17",
                "BT-95/102",
                &["CategoryCode"],
                Some("CategoryTradeTax"),
                None,
                VAT_CATEGORIES,
            ),
            c(
                "BR-CL-18",
                "BT-118/151",
                &["CategoryCode"],
                Some("ApplicableTradeTax"),
                None,
                VAT_CATEGORIES,
            ),
            c(
                "BR-CL-22",
                "BT-121",
                &["ExemptionReasonCode"],
                None,
                None,
                EXEMPTION_REASONS,
            ),
            c(
                "BR-CL-23",
                "BT-130",
                &["BasisQuantity", "BilledQuantity"],
                None,
                Some("unitCode"),
                UNITS,
            ),
            c(
                "BR-CL-25",
                "BT-34/49",
                &["URIID"],
                Some("URIUniversalCommunication"),
                Some("schemeID"),
                ELECTRONIC_ADDRESS_SCHEMES,
            ),
        ],
    }
}

/// Every code of the document checked against its list; one finding per rule and value.
fn code_list_findings(root: Node, syntax: Syntax, out: &mut Vec<Finding>) {
    let uses = code_list_uses(syntax);
    let mut seen: Vec<(&str, String)> = Vec::new();
    for n in root.descendants().filter(Node::is_element) {
        let tag = n.tag_name();
        for u in &uses {
            if tag.namespace() != Some(u.namespace) || !u.names.contains(&tag.name()) {
                continue;
            }
            if let Some(parent) = u.parent {
                if n.parent_element().map(|p| p.tag_name().name()) != Some(parent) {
                    continue;
                }
            }
            let value = match u.attribute {
                Some(a) => match n.attribute(a) {
                    Some(v) => v,
                    None => continue,
                },
                None => n.text().unwrap_or(""),
            };
            let normalized = value.split_whitespace().collect::<Vec<_>>().join(" ");
            if u.codes.binary_search(&normalized.as_str()).is_ok() {
                continue;
            }
            if out.len() >= MAX_FINDINGS {
                return;
            }
            if seen.iter().any(|(r, v)| *r == u.rule && *v == normalized) {
                continue;
            }
            seen.push((u.rule, normalized.clone()));
            out.push(finding(
                u.rule,
                u.term,
                format!(
                    "The code \"{normalized}\" ({}) is not in the code list EN 16931 allows.",
                    u.term
                ),
                format!(
                    "Der Code „{normalized}“ ({}) steht nicht in der Codeliste, die EN 16931 erlaubt.",
                    u.term
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_lists_are_sorted_for_binary_search() {
        use code_lists::*;
        for list in [
            CII_TYPES,
            COUNTRIES,
            CREDIT_NOTE_TYPES,
            CURRENCIES,
            ELECTRONIC_ADDRESS_SCHEMES,
            EXEMPTION_REASONS,
            INVOICE_TYPES,
            PAYMENT_MEANS,
            UNITS,
            VAT_CATEGORIES,
        ] {
            assert!(list.windows(2).all(|w| w[0] < w[1]));
        }
        assert!(CURRENCIES.binary_search(&"EUR").is_ok());
        assert!(CURRENCIES.binary_search(&"EUX").is_err());
        assert!(UNITS.binary_search(&"C62").is_ok());
    }

    #[test]
    fn classes_follow_the_bmf_letter() {
        assert_eq!(class_of("BR-CO-10"), DefectClass::Content);
        assert_eq!(class_of("BR-S-08"), DefectClass::Content);
        assert_eq!(class_of("BR-CL-04"), DefectClass::Formal);
        assert_eq!(class_of("KONTOR-XML"), DefectClass::Formal);
        assert_eq!(class_of("BR-DE-15"), DefectClass::Other);
        assert_eq!(class_of("BR-CO-25"), DefectClass::Other);
    }

    #[test]
    fn hostile_documents_are_bounded() {
        let ubl = |body: &str| {
            format!(
                "<Invoice xmlns=\"{UBL_INVOICE}\" xmlns:cac=\"{}\" xmlns:cbc=\"{CBC}\">{body}</Invoice>",
                crate::read::CAC
            )
        };
        let many_lines = ubl(&"<cac:InvoiceLine><cbc:ID>1</cbc:ID></cac:InvoiceLine>"
            .repeat(crate::read::MAX_ITEMS + 1));
        let result = check(many_lines.as_bytes());
        assert_eq!(result.findings.len(), 1);
        assert_eq!(result.findings[0].rule, "KONTOR-SIZE");
        let many_codes: String = (0..20_000)
            .map(|i| format!("<cbc:Amount currencyID=\"X{i}\">1</cbc:Amount>"))
            .collect();
        let result = check(ubl(&many_codes).as_bytes());
        assert_eq!(result.findings.len(), MAX_FINDINGS);
        assert!(result.findings.iter().any(|f| f.rule == "BR-CL-03"));
    }

    #[test]
    fn garbage_is_one_formal_finding() {
        for input in [
            &b""[..],
            b"not xml",
            b"<a/>",
            b"<?xml version=\"1.0\"?><!DOCTYPE x []><x/>",
        ] {
            let check = check(input);
            assert!(!check.valid);
            assert_eq!(check.class, Some(DefectClass::Formal));
            assert_eq!(check.findings.len(), 1, "{input:?}");
        }
    }
}
