//! A linear pre-scan of incoming XML before roxmltree builds a tree: refuses document
//! type and entity declarations ([`ReadError::Unsafe`]) and nesting or attribute counts
//! that would make tree building slow or deep ([`ReadError::TooLarge`]). It does not
//! check well-formedness; roxmltree does that afterwards.

use crate::ReadError;

/// Deepest element nesting (camt nests about 12 deep).
pub(crate) const MAX_DEPTH: usize = 64;
/// Most attributes (namespace declarations included) on one element.
pub(crate) const MAX_ATTRIBUTES: usize = 64;

/// Scans `xml` once; see the module documentation.
pub(crate) fn check(xml: &str) -> Result<(), ReadError> {
    let upper_has = |needle: &str| {
        xml.as_bytes()
            .windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
    };
    if upper_has("<!DOCTYPE") || upper_has("<!ENTITY") {
        return Err(ReadError::Unsafe(
            "the XML declares a document type or entities (DTD), which bank statements never do"
                .to_string(),
        ));
    }
    let b = xml.as_bytes();
    let mut i = 0;
    let mut depth = 0usize;
    while let Some(off) = b[i..].iter().position(|&c| c == b'<') {
        i += off;
        let rest = &b[i..];
        let skip_to = |end: &[u8]| -> usize {
            rest.windows(end.len())
                .position(|w| w == end)
                .map_or(rest.len(), |p| p + end.len())
        };
        if rest.starts_with(b"<!--") {
            i += skip_to(b"-->");
        } else if rest.starts_with(b"<![CDATA[") {
            i += skip_to(b"]]>");
        } else if rest.starts_with(b"<?") {
            i += skip_to(b"?>");
        } else if rest.starts_with(b"</") {
            depth = depth.saturating_sub(1);
            i += skip_to(b">");
        } else {
            // A start tag: count attribute values (quoted) up to the closing '>'.
            let mut j = 1;
            let mut quote = None;
            let mut attributes = 0usize;
            while j < rest.len() {
                let c = rest[j];
                match quote {
                    Some(q) if c == q => quote = None,
                    Some(_) => {}
                    None if c == b'"' || c == b'\'' => {
                        quote = Some(c);
                        attributes += 1;
                        if attributes > MAX_ATTRIBUTES {
                            return Err(ReadError::TooLarge(format!(
                                "an XML element has more than {MAX_ATTRIBUTES} attributes"
                            )));
                        }
                    }
                    None if c == b'>' => break,
                    None => {}
                }
                j += 1;
            }
            if rest.get(j.wrapping_sub(1)) != Some(&b'/') {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(ReadError::TooLarge(format!(
                        "XML elements nested more than {MAX_DEPTH} levels deep"
                    )));
                }
            }
            i += j + 1;
        }
        if i >= b.len() {
            break;
        }
    }
    Ok(())
}
