//! The Factur-X / ZUGFeRD 2.x XMP extension (issue 10 § Issuing: Factur-X).
//!
//! Typst exports the invoice as PDF/A-3b with the CII XML attached (`kontor_pdf`,
//! `PdfEngine::render_document_pdfa3`), but it cannot write the Factur-X XMP properties
//! that a Factur-X reader looks for. [`add_xmp_extension`] adds them in one incremental
//! update (ISO 32000-1 § 7.5.6): the original bytes stay untouched, followed by a new
//! metadata stream, the catalog again pointing to it, a cross-reference section for those
//! two objects and a trailer with `/Prev` — so the rendered PDF's signatures of
//! conformance (PDF/A identification, fonts, `/AF`) are kept as Typst wrote them.

use crate::Error;
use lopdf::{Dictionary, Document, Object, ObjectId};
use std::fmt::Write as _;

/// The XMP namespace of the Factur-X properties (Factur-X 1.0 § 6.2.2; ZUGFeRD 2.x uses
/// the same).
pub const FACTUR_X_NAMESPACE: &str = "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#";

/// `fx:Version` written by [`add_xmp_extension`]: Factur-X 1.0 (ZUGFeRD 2.x).
pub const FACTUR_X_VERSION: &str = "1.0";

/// `fx:DocumentType` written by [`add_xmp_extension`].
pub const DOCUMENT_TYPE: &str = "INVOICE";

/// `fx:ConformanceLevel` of Kontor's invoices: the profile EN 16931 ("COMFORT").
pub const CONFORMANCE_EN16931: &str = "EN 16931";

/// The properties of the Factur-X schema and their descriptions (the Factur-X 1.0 XMP
/// extension schema, as in the specification's sample).
const PROPERTIES: [(&str, &str); 4] = [
    ("DocumentFileName", "The name of the embedded XML document"),
    (
        "DocumentType",
        "The type of the hybrid document in capital letters, e.g. INVOICE or ORDER",
    ),
    (
        "Version",
        "The actual version of the standard applying to the embedded XML document",
    ),
    (
        "ConformanceLevel",
        "The conformance level of the embedded XML document",
    ),
];

const PDFA_SCHEMA_NS: &str = "http://www.aiim.org/pdfa/ns/schema#";
const PDFA_PROPERTY_NS: &str = "http://www.aiim.org/pdfa/ns/property#";
const PDFA_EXTENSION_NS: &str = "http://www.aiim.org/pdfa/ns/extension/";

/// Adds the Factur-X XMP extension to a PDF/A-3 document's metadata, in one incremental
/// update appended to `pdf`.
///
/// The XMP gains the Factur-X extension schema (an entry of `pdfaExtension:schemas`
/// describing the `fx` namespace [`FACTUR_X_NAMESPACE`] and its four text properties, so
/// PDF/A validators accept them) and the values `fx:DocumentType` = [`DOCUMENT_TYPE`],
/// `fx:DocumentFileName` = `document_file_name` (the attached XML, `factur-x.xml`),
/// `fx:Version` = [`FACTUR_X_VERSION`] and `fx:ConformanceLevel` = `conformance_level`
/// (e.g. [`CONFORMANCE_EN16931`]). Everything already in the XMP (`pdfaid:part` 3,
/// `pdfaid:conformance` B, dates, title) is kept. The new metadata stream is unfiltered
/// (`/Type /Metadata /Subtype /XML`); the update holds that stream (a new object), the
/// catalog (same object number, `/Metadata` pointing to the new stream), a
/// cross-reference table for the two and a trailer with `/Prev`, `/Root`, `/Info`, `/ID`.
///
/// Errors: [`Error::Pdf`] when `pdf` cannot be read or is encrypted, has no XMP metadata,
/// does not declare PDF/A-3 (`pdfaid:part` 3), already carries the Factur-X extension, or
/// its XMP is not UTF-8 `rdf:RDF`.
pub fn add_xmp_extension(
    pdf: &[u8],
    document_file_name: &str,
    conformance_level: &str,
) -> Result<Vec<u8>, Error> {
    let doc =
        Document::load_mem(pdf).map_err(|e| Error::Pdf(format!("the PDF cannot be read ({e})")))?;
    if doc.is_encrypted() {
        return Err(Error::Pdf("the PDF is encrypted".into()));
    }
    let root_id = doc
        .trailer
        .get(b"Root")
        .and_then(Object::as_reference)
        .map_err(|_| Error::Pdf("the trailer has no /Root".into()))?;
    let mut catalog = doc
        .get_object(root_id)
        .and_then(Object::as_dict)
        .map_err(|_| Error::Pdf("the catalog cannot be read".into()))?
        .clone();
    let metadata = catalog
        .get(b"Metadata")
        .and_then(Object::as_reference)
        .and_then(|id| doc.get_object(id))
        .and_then(Object::as_stream)
        .map_err(|_| Error::Pdf("the PDF has no XMP metadata stream (not PDF/A)".into()))?;
    let xmp = if metadata.dict.has(b"Filter") {
        metadata
            .decompressed_content()
            .map_err(|e| Error::Pdf(format!("the XMP metadata cannot be decoded ({e})")))?
    } else {
        metadata.content.clone()
    };
    let xmp =
        String::from_utf8(xmp).map_err(|_| Error::Pdf("the XMP metadata is not UTF-8".into()))?;
    let xmp = extended_xmp(&xmp, document_file_name, conformance_level)?;

    let metadata_id: ObjectId = (
        doc.max_id
            .checked_add(1)
            .ok_or_else(|| Error::Pdf("too many objects".into()))?,
        0,
    );
    catalog.set("Metadata", Object::Reference(metadata_id));
    let size = doc
        .trailer
        .get(b"Size")
        .and_then(Object::as_i64)
        .unwrap_or(0)
        .max(i64::from(metadata_id.0) + 1);

    let mut out = Vec::with_capacity(pdf.len() + xmp.len() + 2048);
    out.extend_from_slice(pdf);
    if !out.ends_with(b"\n") {
        out.push(b'\n');
    }
    let mut offsets: Vec<(ObjectId, usize)> = Vec::with_capacity(2);

    offsets.push((metadata_id, out.len()));
    out.extend_from_slice(
        format!(
            "{} {} obj\n<</Type/Metadata/Subtype/XML/Length {}>>\nstream\n",
            metadata_id.0,
            metadata_id.1,
            xmp.len()
        )
        .as_bytes(),
    );
    out.extend_from_slice(xmp.as_bytes());
    out.extend_from_slice(b"\nendstream\nendobj\n");

    offsets.push((root_id, out.len()));
    let mut body = format!("{} {} obj\n", root_id.0, root_id.1);
    write_dictionary(&mut body, &catalog)?;
    body.push_str("\nendobj\n");
    out.extend_from_slice(body.as_bytes());

    let xref_start = out.len();
    offsets.sort_by_key(|(id, _)| id.0);
    let mut xref = String::from("xref\n");
    let mut i = 0;
    while i < offsets.len() {
        // One subsection per run of consecutive object numbers.
        let mut j = i + 1;
        while j < offsets.len() && offsets[j].0 .0 == offsets[j - 1].0 .0 + 1 {
            j += 1;
        }
        let _ = writeln!(xref, "{} {}", offsets[i].0 .0, j - i);
        for ((_, generation), offset) in &offsets[i..j] {
            let _ = write!(xref, "{offset:010} {generation:05} n\r\n");
        }
        i = j;
    }
    let mut trailer = Dictionary::new();
    trailer.set("Size", Object::Integer(size));
    trailer.set("Root", Object::Reference(root_id));
    for key in [&b"Info"[..], b"ID"] {
        if let Ok(value) = doc.trailer.get(key) {
            trailer.set(key, value.clone());
        }
    }
    let prev = i64::try_from(doc.xref_start).map_err(|_| Error::Pdf("file too large".into()))?;
    trailer.set("Prev", Object::Integer(prev));
    xref.push_str("trailer\n");
    write_dictionary(&mut xref, &trailer)?;
    let _ = write!(xref, "\nstartxref\n{xref_start}\n%%EOF\n");
    out.extend_from_slice(xref.as_bytes());
    Ok(out)
}

/// `xmp` with the Factur-X schema description added to its `pdfaExtension:schemas` (or a
/// new one) and the `fx` properties in a new `rdf:Description`.
fn extended_xmp(xmp: &str, file_name: &str, conformance_level: &str) -> Result<String, Error> {
    if xmp.contains(FACTUR_X_NAMESPACE) {
        return Err(Error::Pdf(
            "the XMP metadata already carries the Factur-X extension".into(),
        ));
    }
    let declares_pdfa3 = ["<pdfaid:part>3</pdfaid:part>", "pdfaid:part=\"3\""]
        .iter()
        .any(|p| xmp.contains(p));
    if !declares_pdfa3 {
        return Err(Error::Pdf(
            "the XMP metadata does not declare PDF/A-3 (pdfaid:part 3)".into(),
        ));
    }
    let rdf_end = xmp
        .rfind("</rdf:RDF>")
        .ok_or_else(|| Error::Pdf("the XMP metadata has no rdf:RDF".into()))?;

    let mut schema = format!(
        "<rdf:li rdf:parseType=\"Resource\" xmlns:pdfaSchema=\"{PDFA_SCHEMA_NS}\" xmlns:pdfaProperty=\"{PDFA_PROPERTY_NS}\">\
         <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>\
         <pdfaSchema:namespaceURI>{FACTUR_X_NAMESPACE}</pdfaSchema:namespaceURI>\
         <pdfaSchema:prefix>fx</pdfaSchema:prefix>\
         <pdfaSchema:property><rdf:Seq>"
    );
    for (name, description) in PROPERTIES {
        let _ = write!(
            schema,
            "<rdf:li rdf:parseType=\"Resource\">\
             <pdfaProperty:name>{name}</pdfaProperty:name>\
             <pdfaProperty:valueType>Text</pdfaProperty:valueType>\
             <pdfaProperty:category>external</pdfaProperty:category>\
             <pdfaProperty:description>{description}</pdfaProperty:description></rdf:li>"
        );
    }
    schema.push_str("</rdf:Seq></pdfaSchema:property></rdf:li>");

    let values = format!(
        "<rdf:Description rdf:about=\"\" xmlns:fx=\"{FACTUR_X_NAMESPACE}\">\
         <fx:DocumentType>{DOCUMENT_TYPE}</fx:DocumentType>\
         <fx:DocumentFileName>{}</fx:DocumentFileName>\
         <fx:Version>{FACTUR_X_VERSION}</fx:Version>\
         <fx:ConformanceLevel>{}</fx:ConformanceLevel></rdf:Description>",
        escape(file_name),
        escape(conformance_level)
    );

    // The existing extension schemas bag (Typst/krilla write one for xmpMM and pdf).
    let existing_bag_end = xmp[..rdf_end]
        .find("</pdfaExtension:schemas>")
        .and_then(|end| xmp[..end].rfind("</rdf:Bag>"));
    let mut out = String::with_capacity(xmp.len() + schema.len() + values.len() + 256);
    match existing_bag_end {
        Some(bag_end) => {
            out.push_str(&xmp[..bag_end]);
            out.push_str(&schema);
            out.push_str(&xmp[bag_end..rdf_end]);
        }
        None => {
            out.push_str(&xmp[..rdf_end]);
            let _ = write!(
                out,
                "<rdf:Description rdf:about=\"\" xmlns:pdfaExtension=\"{PDFA_EXTENSION_NS}\">\
                 <pdfaExtension:schemas><rdf:Bag>{schema}</rdf:Bag></pdfaExtension:schemas>\
                 </rdf:Description>"
            );
        }
    }
    out.push_str(&values);
    out.push_str(&xmp[rdf_end..]);
    Ok(out)
}

/// XML text escaping for element content.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Writes a PDF dictionary (ISO 32000-1 § 7.3.7); strings are written as hex strings.
/// Errors: [`Error::Pdf`] for a stream inside the dictionary (a stream is never direct).
fn write_dictionary(out: &mut String, dict: &Dictionary) -> Result<(), Error> {
    out.push_str("<<");
    for (key, value) in dict.iter() {
        write_name(out, key);
        out.push(' ');
        write_object(out, value)?;
    }
    out.push_str(">>");
    Ok(())
}

fn write_object(out: &mut String, object: &Object) -> Result<(), Error> {
    match object {
        Object::Null => out.push_str("null"),
        Object::Boolean(b) => out.push_str(if *b { "true" } else { "false" }),
        Object::Integer(i) => {
            let _ = write!(out, "{i}");
        }
        Object::Real(r) => {
            if !r.is_finite() {
                return Err(Error::Pdf("a non-finite number in the catalog".into()));
            }
            let _ = write!(out, "{r}");
        }
        Object::Name(name) => write_name(out, name),
        Object::String(bytes, _) => {
            out.push('<');
            for b in bytes {
                let _ = write!(out, "{b:02X}");
            }
            out.push('>');
        }
        Object::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                write_object(out, item)?;
            }
            out.push(']');
        }
        Object::Dictionary(dict) => write_dictionary(out, dict)?,
        Object::Reference((id, generation)) => {
            let _ = write!(out, "{id} {generation} R");
        }
        Object::Stream(_) => {
            return Err(Error::Pdf("a direct stream in the catalog".into()));
        }
    }
    Ok(())
}

/// A name object: `/` and the bytes, with `#xx` for delimiters, `#` and bytes outside
/// `!`..`~` (ISO 32000-1 § 7.3.5).
fn write_name(out: &mut String, name: &[u8]) {
    out.push('/');
    for &b in name {
        let regular = (0x21..=0x7e).contains(&b) && !b"()<>[]{}/%#".contains(&b);
        if regular {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "#{b:02X}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const XMP: &str = "<?xpacket begin=\"\u{feff}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?><x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description rdf:about=\"\" xmlns:pdfaid=\"http://www.aiim.org/pdfa/ns/id/\"><pdfaid:part>3</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end=\"r\"?>";

    #[test]
    fn the_extension_and_the_values_are_added_and_the_rest_kept() {
        let out = extended_xmp(XMP, "factur-x.xml", CONFORMANCE_EN16931).unwrap();
        assert!(
            out.contains("<pdfaid:part>3</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance>")
        );
        assert!(out.contains("<fx:DocumentType>INVOICE</fx:DocumentType>"));
        assert!(out.contains("<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>"));
        assert!(out.contains("<fx:Version>1.0</fx:Version>"));
        assert!(out.contains("<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>"));
        assert!(out.contains("<pdfaExtension:schemas><rdf:Bag><rdf:li"));
        assert_eq!(out.matches("<pdfaProperty:name>").count(), 4);
        assert!(out.ends_with("</rdf:RDF></x:xmpmeta><?xpacket end=\"r\"?>"));
        assert!(out.starts_with("<?xpacket begin="));
    }

    #[test]
    fn an_existing_schemas_bag_gets_the_factur_x_schema() {
        let xmp = XMP.replace(
            "<pdfaid:part>",
            "<pdfaExtension:schemas><rdf:Bag><rdf:li>x</rdf:li></rdf:Bag></pdfaExtension:schemas><pdfaid:part>",
        );
        let out = extended_xmp(&xmp, "factur-x.xml", "EN 16931").unwrap();
        assert_eq!(out.matches("<pdfaExtension:schemas>").count(), 1);
        assert!(
            out.contains("<rdf:li>x</rdf:li><rdf:li rdf:parseType=\"Resource\" xmlns:pdfaSchema=")
        );
    }

    #[test]
    fn xmp_without_pdf_a_3_or_already_extended_is_refused() {
        let a2 = XMP.replace("<pdfaid:part>3<", "<pdfaid:part>2<");
        assert!(matches!(
            extended_xmp(&a2, "factur-x.xml", "EN 16931"),
            Err(Error::Pdf(_))
        ));
        let once = extended_xmp(XMP, "factur-x.xml", "EN 16931").unwrap();
        assert!(matches!(
            extended_xmp(&once, "factur-x.xml", "EN 16931"),
            Err(Error::Pdf(_))
        ));
    }

    #[test]
    fn values_are_escaped() {
        let out = extended_xmp(XMP, "a<b&c.xml", "EN 16931").unwrap();
        assert!(out.contains("<fx:DocumentFileName>a&lt;b&amp;c.xml</fx:DocumentFileName>"));
    }

    #[test]
    fn names_and_strings_are_written_safely() {
        let mut dict = Dictionary::new();
        dict.set("Type", Object::Name(b"Catalog".to_vec()));
        dict.set("Lang", Object::string_literal("de (DE)"));
        dict.set("N", Object::Name(b"a b#/".to_vec()));
        dict.set(
            "AF",
            Object::Array(vec![Object::Reference((18, 0)), Object::Real(0.5)]),
        );
        let mut out = String::new();
        write_dictionary(&mut out, &dict).unwrap();
        assert_eq!(
            out,
            "<</Type /Catalog/Lang <64652028444529>/N /a#20b#23#2F/AF [18 0 R 0.5]>>"
        );
    }
}
