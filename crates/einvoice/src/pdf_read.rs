//! The e-invoice XML embedded in a Factur-X / ZUGFeRD PDF (issue 10 § Receiving).
//!
//! Factur-X 1.0 / ZUGFeRD 2.x attach the CII XML as an embedded file named
//! `factur-x.xml` (ZUGFeRD 2.0: `zugferd-invoice.xml`, XRechnung in a PDF: `xrechnung.xml`,
//! ZUGFeRD 1.0: `ZUGFeRD-invoice.xml`). Every file specification of the PDF is looked at
//! (those in the `/EmbeddedFiles` name tree and those only referenced from `/AF`), so the
//! file is found however the writer organised the catalog.

use crate::Error;
use lopdf::{Dictionary, Document, Object};

/// Embedded file names that carry the invoice, most specific first (compared ignoring case).
pub const INVOICE_FILE_NAMES: [&str; 3] = ["factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml"];

/// Largest embedded XML taken (10 MiB, like [`crate::read::MAX_XML`]).
const MAX_EMBEDDED: usize = 10 * 1024 * 1024;

/// The embedded invoice XML of a Factur-X / ZUGFeRD PDF (its bytes, decompressed).
///
/// The PDF is first held against [`crate::pdf_limits::check`] (nesting, size after
/// decompression, token count), so no input can exhaust the stack or the memory.
///
/// Errors: [`Error::Pdf`] when the bytes are not a readable PDF, pass a limit of
/// [`crate::pdf_limits`], the PDF is encrypted, it
/// has no embedded `factur-x.xml` / `zugferd-invoice.xml` / `xrechnung.xml`, or the
/// embedded stream cannot be decompressed or exceeds 10 MiB.
pub fn embedded_xml(pdf: &[u8]) -> Result<Vec<u8>, Error> {
    if !pdf.starts_with(b"%PDF-") {
        return Err(Error::Pdf("the file is not a PDF".into()));
    }
    crate::pdf_limits::check(pdf)?;
    let doc =
        Document::load_mem(pdf).map_err(|e| Error::Pdf(format!("the PDF cannot be read ({e})")))?;
    if doc.is_encrypted() {
        return Err(Error::Pdf(
            "the PDF is encrypted; Kontor cannot read its attachments".into(),
        ));
    }
    let mut dictionaries = Vec::new();
    for object in doc.objects.values() {
        collect_dictionaries(object, 0, &mut dictionaries);
    }
    let mut found: Vec<(usize, &Dictionary)> = dictionaries
        .into_iter()
        .filter_map(|d| {
            let name = file_name(d)?;
            let rank = INVOICE_FILE_NAMES
                .iter()
                .position(|n| n.eq_ignore_ascii_case(&name))?;
            d.get(b"EF").ok().map(|_| (rank, d))
        })
        .collect();
    found.sort_by_key(|(rank, _)| *rank);
    let Some((_, spec)) = found.first() else {
        return Err(Error::Pdf(
            "the PDF has no embedded e-invoice (no factur-x.xml, zugferd-invoice.xml or xrechnung.xml attached); it is a plain PDF, not a Factur-X / ZUGFeRD invoice".into(),
        ));
    };
    let ef = spec
        .get_deref(b"EF", &doc)
        .and_then(Object::as_dict)
        .map_err(|_| Error::Pdf("the embedded invoice file has no content".into()))?;
    let stream = ef
        .get_deref(b"F", &doc)
        .or_else(|_| ef.get_deref(b"UF", &doc))
        .and_then(Object::as_stream)
        .map_err(|_| Error::Pdf("the embedded invoice file has no content".into()))?;
    // A declared size (the embedded file's /Params /Size) over the limit is refused before
    // anything is decompressed.
    let declared = stream
        .dict
        .get_deref(b"Params", &doc)
        .and_then(Object::as_dict)
        .and_then(|p| p.get(b"Size"))
        .and_then(Object::as_i64)
        .ok();
    if declared.is_some_and(|s| s < 0 || s as u64 > MAX_EMBEDDED as u64)
        || stream.content.len() > MAX_EMBEDDED
    {
        return Err(Error::Pdf(
            "the embedded invoice XML is larger than 10 MiB".into(),
        ));
    }
    let bytes = decode(stream)?;
    Ok(bytes)
}

/// The embedded file's bytes: as stored, or inflated (`FlateDecode`, at most
/// [`crate::pdf_limits::MAX_FILTERS`] times over) with the size checked while inflating.
/// Errors: [`Error::Pdf`] for another filter, or content over 10 MiB.
fn decode(stream: &lopdf::Stream) -> Result<Vec<u8>, Error> {
    let too_large = || Error::Pdf("the embedded invoice XML is larger than 10 MiB".into());
    let filters: Vec<Vec<u8>> = match stream.dict.get(b"Filter") {
        Err(_) => Vec::new(),
        Ok(Object::Name(n)) => vec![n.clone()],
        Ok(Object::Array(items)) => items
            .iter()
            .map(|f| f.as_name().map(<[u8]>::to_vec))
            .collect::<Result<_, _>>()
            .map_err(|_| Error::Pdf("the embedded invoice file has an unreadable filter".into()))?,
        Ok(_) => {
            return Err(Error::Pdf(
                "the embedded invoice file has an unreadable filter".into(),
            ))
        }
    };
    if filters.len() > crate::pdf_limits::MAX_FILTERS {
        return Err(Error::Pdf(
            "the embedded invoice file is compressed too many times over".into(),
        ));
    }
    let mut bytes = stream.content.clone();
    for filter in &filters {
        if filter.as_slice() != b"FlateDecode" && filter.as_slice() != b"Fl" {
            return Err(Error::Pdf(format!(
                "the embedded invoice file uses the {} filter; Kontor reads FlateDecode",
                String::from_utf8_lossy(filter)
            )));
        }
        bytes = crate::pdf_limits::inflate(&bytes, MAX_EMBEDDED).map_err(|_| too_large())?;
    }
    if bytes.len() > MAX_EMBEDDED {
        return Err(too_large());
    }
    Ok(bytes)
}

/// Every dictionary in `object`, also those written inline in arrays and other
/// dictionaries (a file specification may be a direct object in `/AF` or in the
/// `/EmbeddedFiles` name array); stream contents are not entered. Nesting deeper than 16
/// levels is not followed.
fn collect_dictionaries<'a>(object: &'a Object, depth: usize, out: &mut Vec<&'a Dictionary>) {
    if depth > 16 {
        return;
    }
    match object {
        Object::Dictionary(d) => {
            out.push(d);
            for (_, v) in d.iter() {
                collect_dictionaries(v, depth + 1, out);
            }
        }
        Object::Array(items) => {
            for v in items {
                collect_dictionaries(v, depth + 1, out);
            }
        }
        _ => {}
    }
}

/// The file name of a file specification dictionary (`/UF`, else `/F`), decoded from
/// PDFDocEncoding / UTF-16BE; `None` for other dictionaries.
fn file_name(d: &Dictionary) -> Option<String> {
    let is_spec = d
        .get(b"Type")
        .and_then(Object::as_name)
        .is_ok_and(|n| n == b"Filespec")
        || d.get(b"EF").is_ok();
    if !is_spec {
        return None;
    }
    let raw = d
        .get(b"UF")
        .and_then(Object::as_str)
        .or_else(|_| d.get(b"F").and_then(Object::as_str))
        .ok()?;
    Some(decode_text(raw))
}

/// A PDF text string: UTF-16BE with a byte order mark, else bytes as Latin-1.
fn decode_text(raw: &[u8]) -> String {
    if let Some(rest) = raw.strip_prefix(&[0xFE, 0xFF]) {
        let units: Vec<u16> = rest
            .chunks_exact(2)
            .map(|c| u16::from_be_bytes([c[0], c[1]]))
            .collect();
        String::from_utf16_lossy(&units)
    } else {
        raw.iter().map(|b| char::from(*b)).collect()
    }
}
