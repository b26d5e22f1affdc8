//! Limits on incoming XML before it is parsed into a tree (issue 29 § Parsers;
//! `docs/decisions.md` § Proof, "Hostile files").
//!
//! [`check`] streams through the document once with quick-xml (linear time, no tree, no
//! attribute de-duplication) and refuses what would make a tree parser slow or deep:
//! nesting deeper than [`MAX_DEPTH`] elements, more than [`MAX_ATTRIBUTES`] attributes on
//! one element (roxmltree checks attributes for duplicates pairwise: 100,000 attributes
//! on one element cost it close to a minute), more than [`MAX_ELEMENTS`] elements, an
//! attribute value or text longer than [`MAX_TEXT_BYTES`], and any document type
//! declaration (no DTD, so no entity can be declared or expanded). Only a document that
//! passes goes on to roxmltree.

use crate::Error;
use quick_xml::events::Event;
use quick_xml::Reader;

/// Deepest element nesting (the root is depth 1). UBL and CII invoices nest about 10
/// deep.
pub const MAX_DEPTH: usize = 64;
/// Most attributes on one element, namespace declarations included (an e-invoice element
/// has at most a handful).
pub const MAX_ATTRIBUTES: usize = 64;
/// Most elements in one document (an invoice of 5,000 lines has about 150,000).
pub const MAX_ELEMENTS: usize = 250_000;
/// Longest attribute value or text between two tags, in bytes (1 MiB).
pub const MAX_TEXT_BYTES: usize = 1024 * 1024;

fn refuse(why: impl Into<String>) -> Error {
    Error::NotAnInvoice(why.into())
}

/// What to do with a document type declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Doctype {
    /// Refuse the document (e-invoices never carry one).
    Refuse,
    /// Let it pass (SVG editors write `<!DOCTYPE svg PUBLIC …>`; the caller refuses entity
    /// declarations itself).
    Allow,
}

/// Checks an e-invoice's `xml` against the limits of this module in one linear pass; a
/// DTD is refused.
///
/// Errors: [`Error::NotAnInvoice`] naming the limit that was passed (nesting, attributes
/// on one element, element count, a text or attribute value too long, a DTD), or saying
/// that the text is not well-formed XML.
pub fn check(xml: &str) -> Result<(), Error> {
    check_with(xml, Doctype::Refuse)
}

/// [`check`] with the document type declaration handled as `doctype` says (any XML from
/// outside: SVG logos too). Errors: as [`check`].
pub fn check_with(xml: &str, doctype: Doctype) -> Result<(), Error> {
    let mut reader = Reader::from_str(xml);
    let config = reader.config_mut();
    config.trim_text(false);
    config.check_end_names = true;
    let mut depth = 0usize;
    let mut elements = 0usize;
    loop {
        let event = reader
            .read_event()
            .map_err(|e| refuse(format!("it is not well-formed XML ({e})")))?;
        match event {
            Event::Start(ref start) | Event::Empty(ref start) => {
                elements += 1;
                if elements > MAX_ELEMENTS {
                    return Err(refuse(format!(
                        "it has more than {MAX_ELEMENTS} XML elements"
                    )));
                }
                if matches!(event, Event::Start(_)) {
                    depth += 1;
                    if depth > MAX_DEPTH {
                        return Err(refuse(format!(
                            "its XML elements are nested more than {MAX_DEPTH} levels deep"
                        )));
                    }
                }
                let mut count = 0usize;
                for attribute in start.attributes().with_checks(false) {
                    let attribute = attribute
                        .map_err(|e| refuse(format!("it is not well-formed XML ({e})")))?;
                    count += 1;
                    if count > MAX_ATTRIBUTES {
                        return Err(refuse(format!(
                            "an XML element has more than {MAX_ATTRIBUTES} attributes"
                        )));
                    }
                    if attribute.value.len() > MAX_TEXT_BYTES {
                        return Err(refuse("an XML attribute value is longer than 1 MiB"));
                    }
                }
            }
            Event::End(_) => depth = depth.saturating_sub(1),
            Event::Text(ref text) if text.len() > MAX_TEXT_BYTES => {
                return Err(refuse("a text in the XML is longer than 1 MiB"));
            }
            Event::CData(ref text) if text.len() > MAX_TEXT_BYTES => {
                return Err(refuse("a text in the XML is longer than 1 MiB"));
            }
            Event::DocType(_) if doctype == Doctype::Refuse => return Err(refuse(
                "it declares a document type (DTD), which e-invoices never do and Kontor refuses",
            )),
            Event::Eof => return Ok(()),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn reason(xml: &str) -> String {
        match check(xml) {
            Err(Error::NotAnInvoice(why)) => why,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn an_ordinary_invoice_passes() {
        let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="x">
  <cbc:ID>R-1</cbc:ID><cbc:Amount currencyID="EUR">1.00</cbc:Amount><e/>
</Invoice>"#;
        check(xml).unwrap();
    }

    #[test]
    fn a_hundred_thousand_attributes_are_refused_at_once() {
        let mut xml = String::from("<a");
        for i in 0..100_000 {
            xml.push_str(&format!(" a{i}=\"1\""));
        }
        xml.push_str("/>");
        let started = Instant::now();
        assert!(reason(&xml).contains("more than 64 attributes"));
        assert!(
            started.elapsed().as_millis() < 500,
            "{:?}",
            started.elapsed()
        );
        // 64 are still fine.
        let ok: String = (0..64).map(|i| format!(" a{i}=\"1\"")).collect();
        check(&format!("<a{ok}/>")).unwrap();
    }

    #[test]
    fn deep_nesting_is_refused() {
        let xml = format!("{}{}", "<a>".repeat(100_000), "</a>".repeat(100_000));
        assert!(reason(&xml).contains("nested more than 64 levels"));
        let ok = format!("{}{}", "<a>".repeat(64), "</a>".repeat(64));
        check(&ok).unwrap();
    }

    #[test]
    fn too_many_elements_dtds_and_long_texts_are_refused() {
        let many = format!("<a>{}</a>", "<b/>".repeat(MAX_ELEMENTS));
        assert!(reason(&many).contains("more than 250000 XML elements"));
        let dtd = "<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>";
        assert!(reason(dtd).contains("DTD"));
        let long = format!("<a>{}</a>", "x".repeat(MAX_TEXT_BYTES + 1));
        assert!(reason(&long).contains("longer than 1 MiB"));
        let long_attribute = format!("<a b=\"{}\"/>", "x".repeat(MAX_TEXT_BYTES + 1));
        assert!(reason(&long_attribute).contains("longer than 1 MiB"));
        assert!(reason("<a><b></a>").contains("not well-formed"));
    }
}
