//! Limits on incoming PDFs, checked before the PDF reader (lopdf) sees them (issue 29
//! § Parsers; `docs/decisions.md` § Proof, "Hostile files").
//!
//! lopdf parses nested arrays and dictionaries recursively (a 2 KB file of `[` × 1000
//! overflows a thread's stack and aborts the process) and decompresses object and
//! cross-reference streams without a size limit (a 6 KB file can inflate to gigabytes).
//! No maintained Rust PDF reader bounds either, so [`check`] walks the file once, as a
//! tokenizer, before lopdf is called:
//!
//! - arrays and dictionaries may nest at most [`MAX_NESTING`] levels (real PDFs nest
//!   about 6), counted in the file and inside every object stream;
//! - at most [`MAX_TOKENS`] tokens in the file and its object streams together (each
//!   becomes an object in memory);
//! - the streams a reader decompresses — object streams (`/ObjStm`), cross-reference
//!   streams (`/XRef`, or with `/W`) and embedded files (`/EmbeddedFile`) — may only use
//!   `FlateDecode` (at most [`MAX_FILTERS`] times over), and are inflated here with a
//!   running count that stops at [`MAX_STREAM_BYTES`] per stream and
//!   [`MAX_DECODED_BYTES`] for the whole file — counted while inflating, never after.
//!
//! [`inflate`] is the one bounded decompression of this crate (used for the embedded
//! invoice XML too). Names are compared after their `#xx` escapes are decoded, as the
//! reader does, so `/Obj#53tm` is an object stream here as well.

use crate::Error;
use std::io::Read;

/// Deepest nesting of arrays and dictionaries.
pub const MAX_NESTING: usize = 32;
/// Most tokens (numbers, names, strings, keywords, brackets) in the file and its object
/// streams together.
pub const MAX_TOKENS: usize = 2_000_000;
/// Largest decompressed object, cross-reference or embedded-file stream (16 MiB).
pub const MAX_STREAM_BYTES: usize = 16 * 1024 * 1024;
/// Most bytes decompressed from one file's streams together (64 MiB).
pub const MAX_DECODED_BYTES: usize = 64 * 1024 * 1024;
/// Most filters on one stream (`[/FlateDecode /FlateDecode]` is two).
pub const MAX_FILTERS: usize = 2;

fn refuse(why: impl Into<String>) -> Error {
    Error::Pdf(why.into())
}

/// Inflates zlib `input` (PDF `FlateDecode`), keeping at most `cap` bytes. Like the PDF
/// reader, a stream that is cut off or damaged gives what could be inflated before the
/// damage. Errors: `Err(())` when the output would pass `cap` — found while inflating, so
/// no more than `cap` + 8 KiB is ever held.
pub fn inflate(input: &[u8], cap: usize) -> Result<Vec<u8>, ()> {
    let mut decoder = flate2::read::ZlibDecoder::new(input);
    let mut out = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        match decoder.read(&mut chunk) {
            Ok(0) | Err(_) => return Ok(out),
            Ok(n) => {
                if out.len() + n > cap {
                    return Err(());
                }
                out.extend_from_slice(&chunk[..n]);
            }
        }
    }
}

/// Whether `c` ends a token (PDF whitespace or delimiter).
fn is_boundary(c: u8) -> bool {
    matches!(
        c,
        b' ' | b'\t'
            | b'\r'
            | b'\n'
            | 0x0c
            | 0
            | b'('
            | b')'
            | b'<'
            | b'>'
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'/'
            | b'%'
    )
}

/// The name tokens of a dictionary's text (`/Type /ObjStm` → `Type`, `ObjStm`), with `#xx`
/// escapes decoded.
fn names(dict: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < dict.len() {
        if dict[i] != b'/' {
            i += 1;
            continue;
        }
        i += 1;
        let mut name = Vec::new();
        while i < dict.len() && !is_boundary(dict[i]) {
            if dict[i] == b'#' && i + 2 < dict.len() {
                let hex = std::str::from_utf8(&dict[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                if let Some(b) = hex {
                    name.push(b);
                    i += 3;
                    continue;
                }
            }
            name.push(dict[i]);
            i += 1;
        }
        out.push(name);
    }
    out
}

/// The filter names of a stream dictionary: the names after `/Filter` (one, or an
/// array). `None` when `/Filter` is absent.
fn filters(names_in_dict: &[Vec<u8>]) -> Option<Vec<Vec<u8>>> {
    let position = names_in_dict.iter().position(|n| n == b"Filter")?;
    // The names that follow `/Filter` up to the next key-like name: a filter array holds
    // only filter names, so take names while they are known filters.
    const KNOWN: &[&[u8]] = &[
        b"FlateDecode",
        b"Fl",
        b"LZWDecode",
        b"LZW",
        b"ASCII85Decode",
        b"A85",
        b"ASCIIHexDecode",
        b"AHx",
        b"RunLengthDecode",
        b"RL",
        b"CCITTFaxDecode",
        b"CCF",
        b"DCTDecode",
        b"DCT",
        b"JBIG2Decode",
        b"JPXDecode",
        b"Crypt",
    ];
    let taken: Vec<Vec<u8>> = names_in_dict[position + 1..]
        .iter()
        .take_while(|n| KNOWN.contains(&n.as_slice()))
        .cloned()
        .collect();
    Some(taken)
}

/// The running totals of one file's check.
struct Budget {
    tokens: usize,
    decoded: usize,
}

impl Budget {
    fn token(&mut self) -> Result<(), Error> {
        self.tokens += 1;
        if self.tokens > MAX_TOKENS {
            return Err(refuse(format!(
                "the PDF has more than {MAX_TOKENS} objects and values"
            )));
        }
        Ok(())
    }
}

/// The end of the literal string opening at `start` (`(`…`)`, nested parentheses and
/// backslash escapes), or the end of `data`.
fn skip_literal(data: &[u8], start: usize) -> usize {
    let mut level = 0usize;
    let mut i = start;
    while i < data.len() {
        match data[i] {
            b'\\' => i += 1,
            b'(' => level += 1,
            b')' => {
                level -= 1;
                if level == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    data.len()
}

/// Where `needle` first occurs in `data` at or after `from`.
fn find(data: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    data.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

/// Checks one stream: `dict` its dictionary's text, `raw` its bytes as stored.
fn check_stream(dict: &[u8], raw: &[u8], budget: &mut Budget) -> Result<(), Error> {
    let names = names(dict);
    let has = |n: &[u8]| names.iter().any(|x| x == n);
    let object_stream = has(b"ObjStm") || has(b"First");
    let decoded_by_reader = object_stream || has(b"XRef") || has(b"W") || has(b"EmbeddedFile");
    let chain = filters(&names).unwrap_or_default();
    if chain
        .iter()
        .any(|f| f.as_slice() == b"LZWDecode" || f.as_slice() == b"LZW")
    {
        return Err(refuse(
            "the PDF uses LZW compression, which PDF/A (and so Factur-X) does not allow",
        ));
    }
    if !decoded_by_reader {
        return Ok(());
    }
    if chain.len() > MAX_FILTERS {
        return Err(refuse(format!(
            "a stream of the PDF is compressed more than {MAX_FILTERS} times over"
        )));
    }
    if let Some(other) = chain
        .iter()
        .find(|f| f.as_slice() != b"FlateDecode" && f.as_slice() != b"Fl")
    {
        return Err(refuse(format!(
            "an object, cross-reference or embedded-file stream of the PDF uses the {} filter; Kontor reads only FlateDecode there",
            String::from_utf8_lossy(other)
        )));
    }
    let mut bytes: Option<Vec<u8>> = None;
    for _ in &chain {
        let input = bytes.as_deref().unwrap_or(raw);
        let room = MAX_DECODED_BYTES.saturating_sub(budget.decoded);
        let cap = MAX_STREAM_BYTES.min(room);
        let out = inflate(input, cap).map_err(|()| {
            refuse(if cap < MAX_STREAM_BYTES {
                format!(
                    "the PDF's streams decompress to more than {} MiB",
                    MAX_DECODED_BYTES / (1024 * 1024)
                )
            } else {
                format!(
                    "a stream of the PDF decompresses to more than {} MiB",
                    MAX_STREAM_BYTES / (1024 * 1024)
                )
            })
        })?;
        budget.decoded += out.len();
        bytes = Some(out);
    }
    if object_stream {
        let content = bytes.as_deref().unwrap_or(raw);
        scan(content, budget, false)?;
    }
    Ok(())
}

/// Walks `data` (the file, or an object stream's content when `streams` is false),
/// counting tokens and nesting and checking each stream.
fn scan(data: &[u8], budget: &mut Budget, streams: bool) -> Result<(), Error> {
    // Opening positions of the open dictionaries (arrays as `None`), at most MAX_NESTING.
    let mut open: Vec<Option<usize>> = Vec::new();
    let mut in_token = false;
    let mut i = 0;
    let too_deep = || {
        refuse(format!(
            "the PDF nests arrays or dictionaries more than {MAX_NESTING} levels deep"
        ))
    };
    while i < data.len() {
        let c = data[i];
        if !is_boundary(c) {
            if !in_token {
                budget.token()?;
                in_token = true;
            }
            i += 1;
            continue;
        }
        in_token = false;
        match c {
            b'%' => {
                while i < data.len() && data[i] != b'\r' && data[i] != b'\n' {
                    i += 1;
                }
            }
            b'(' => {
                budget.token()?;
                i = skip_literal(data, i);
            }
            b'<' if data.get(i + 1) == Some(&b'<') => {
                budget.token()?;
                if open.len() >= MAX_NESTING {
                    return Err(too_deep());
                }
                open.push(Some(i));
                i += 2;
            }
            b'<' => {
                budget.token()?;
                i = find(data, i, b">").map_or(data.len(), |e| e + 1);
            }
            b'>' if data.get(i + 1) == Some(&b'>') => {
                i += 2;
                let closed = open.pop().flatten();
                if let (Some(start), true, true) = (closed, open.is_empty(), streams) {
                    // A dictionary at the top of an object: a stream may follow.
                    let mut j = i;
                    while j < data.len() && matches!(data[j], b' ' | b'\t' | b'\r' | b'\n' | 0x0c) {
                        j += 1;
                    }
                    if data[j..].starts_with(b"stream") {
                        let mut body = j + 6;
                        if data[body..].starts_with(b"\r\n") {
                            body += 2;
                        } else if matches!(data.get(body), Some(b'\n') | Some(b'\r')) {
                            body += 1;
                        }
                        let end = find(data, body, b"endstream").unwrap_or(data.len());
                        check_stream(&data[start..i], &data[body..end], budget)?;
                        i = (end + 9).min(data.len());
                    }
                }
            }
            b'[' => {
                budget.token()?;
                if open.len() >= MAX_NESTING {
                    return Err(too_deep());
                }
                open.push(None);
                i += 1;
            }
            b']' => {
                open.pop();
                i += 1;
            }
            b'/' => {
                budget.token()?;
                in_token = true;
                i += 1;
            }
            _ => i += 1,
        }
    }
    Ok(())
}

/// Checks a PDF against the limits of this module in one pass (plus the bounded inflation
/// of the streams a reader decompresses).
///
/// Errors: [`Error::Pdf`] naming the limit passed: nesting deeper than [`MAX_NESTING`],
/// more than [`MAX_TOKENS`] tokens, LZW compression, another filter than FlateDecode (or
/// more than [`MAX_FILTERS`]) on an object, cross-reference or embedded-file stream, or
/// streams that decompress past [`MAX_STREAM_BYTES`] / [`MAX_DECODED_BYTES`].
pub fn check(pdf: &[u8]) -> Result<(), Error> {
    let mut budget = Budget {
        tokens: 0,
        decoded: 0,
    };
    scan(pdf, &mut budget, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn zlib(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn reason(pdf: &[u8]) -> String {
        match check(pdf) {
            Err(Error::Pdf(why)) => why,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    fn with_stream(dict: &str, data: &[u8]) -> Vec<u8> {
        let mut pdf = b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n2 0 obj\n".to_vec();
        pdf.extend_from_slice(format!("<< {dict} /Length {} >>\nstream\n", data.len()).as_bytes());
        pdf.extend_from_slice(data);
        pdf.extend_from_slice(b"\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");
        pdf
    }

    #[test]
    fn deep_arrays_and_dictionaries_are_refused() {
        let deep = format!(
            "%PDF-1.7\n1 0 obj\n{}{}\nendobj\n",
            "[".repeat(1000),
            "]".repeat(1000)
        );
        assert!(reason(deep.as_bytes()).contains("more than 32 levels"));
        let dicts = format!("%PDF-1.7\n1 0 obj\n{}\nendobj\n", "<</A ".repeat(40));
        assert!(reason(dicts.as_bytes()).contains("more than 32 levels"));
        let fine = format!(
            "%PDF-1.7\n1 0 obj\n{}{}\nendobj\n",
            "[".repeat(32),
            "]".repeat(32)
        );
        check(fine.as_bytes()).unwrap();
        // Brackets inside strings and comments do not count.
        let quoted = format!(
            "%PDF-1.7\n1 0 obj\n({})\n%{}\n<{}>\nendobj\n",
            "[".repeat(100),
            "[".repeat(100),
            "ab".repeat(10)
        );
        check(quoted.as_bytes()).unwrap();
    }

    #[test]
    fn a_double_deflated_embedded_file_bomb_is_refused_while_inflating() {
        let huge = vec![b'<'; 64 * 1024 * 1024];
        let once = zlib(&huge);
        let twice = zlib(&once);
        assert!(twice.len() < 64 * 1024, "{}", twice.len());
        let pdf = with_stream(
            "/Type /EmbeddedFile /Filter [/FlateDecode /FlateDecode]",
            &twice,
        );
        assert!(reason(&pdf).contains("decompresses to more than 16 MiB"));
    }

    #[test]
    fn object_stream_bombs_and_deep_object_streams_are_refused() {
        let bomb = zlib(&vec![b' '; 40 * 1024 * 1024]);
        let pdf = with_stream("/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode", &bomb);
        assert!(reason(&pdf).contains("more than 16 MiB"));
        // The escaped name is an object stream too.
        let pdf = with_stream("/Type /Obj#53tm /N 1 /First 4 /Filter /Fl", &bomb);
        assert!(reason(&pdf).contains("more than 16 MiB"));
        let deep = zlib(format!("1 0 {}{}", "[".repeat(500), "]".repeat(500)).as_bytes());
        let pdf = with_stream("/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode", &deep);
        assert!(reason(&pdf).contains("more than 32 levels"));
        // Several streams each under the limit add up.
        let part = zlib(&vec![b' '; 15 * 1024 * 1024]);
        let mut pdf = b"%PDF-1.7\n".to_vec();
        for n in 0..6 {
            pdf.extend_from_slice(
                format!("{n} 0 obj\n<< /Type /XRef /W [1 2 1] /Filter /FlateDecode >>\nstream\n")
                    .as_bytes(),
            );
            pdf.extend_from_slice(&part);
            pdf.extend_from_slice(b"\nendstream\nendobj\n");
        }
        assert!(reason(&pdf).contains("streams decompress to more than 64 MiB"));
    }

    #[test]
    fn other_filters_on_read_streams_and_lzw_are_refused() {
        let pdf = with_stream("/Type /ObjStm /Filter /ASCII85Decode", b"z~>");
        assert!(reason(&pdf).contains("ASCII85Decode filter"));
        let pdf = with_stream("/Filter /LZWDecode", b"xx");
        assert!(reason(&pdf).contains("LZW"));
        let pdf = with_stream("/Type /EmbeddedFile /Filter [/Fl /Fl /Fl]", b"xx");
        assert!(reason(&pdf).contains("more than 2 times"));
        // An image's own compression is never inflated here.
        let image = zlib(&vec![0u8; 40 * 1024 * 1024]);
        check(&with_stream("/Subtype /Image /Filter /FlateDecode", &image)).unwrap();
    }

    #[test]
    fn inflate_keeps_within_its_cap_and_tolerates_damage() {
        let data = zlib(&vec![7u8; 100_000]);
        assert_eq!(inflate(&data, 100_000).unwrap().len(), 100_000);
        assert!(inflate(&data, 99_999).is_err());
        let cut = &data[..data.len() / 2];
        assert!(inflate(cut, 100_000).unwrap().len() < 100_000);
        assert!(inflate(b"not zlib", 10).unwrap().is_empty());
    }

    #[test]
    fn too_many_tokens_are_refused() {
        let many = format!("%PDF-1.7\n1 0 obj\n[{}]\nendobj\n", "1 ".repeat(MAX_TOKENS));
        assert!(reason(many.as_bytes()).contains("more than 2000000 objects"));
    }
}
