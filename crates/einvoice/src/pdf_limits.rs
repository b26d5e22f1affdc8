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
use lexer::{
    filters, find, int_after, is_boundary, is_space, keyword_at, names, reference_after,
    skip_literal, skip_space,
};
use std::io::Read;

mod lexer;

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

/// The output of [`inflate`] would pass its cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge;

/// Inflates zlib `input` (PDF `FlateDecode`), keeping at most `cap` bytes. Like the PDF
/// reader, a stream that is cut off or damaged gives what could be inflated before the
/// damage. Errors: [`TooLarge`] when the output would pass `cap` — found while inflating,
/// so no more than `cap` + 8 KiB is ever held.
pub fn inflate(input: &[u8], cap: usize) -> Result<Vec<u8>, TooLarge> {
    let mut decoder = flate2::read::ZlibDecoder::new(input);
    let mut out = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        match decoder.read(&mut chunk) {
            Ok(0) | Err(_) => return Ok(out),
            Ok(n) => {
                if out.len() + n > cap {
                    return Err(TooLarge);
                }
                out.extend_from_slice(&chunk[..n]);
            }
        }
    }
}

/// Most bytes scanned for one file, as a multiple of its size: objects that overlap
/// (an attacker's, to desynchronize a scanner) are each scanned from their own start,
/// which a well-formed file never needs more than once.
const MAX_RESCANS: usize = 4;
/// Largest `/Columns` of a PNG predictor on a stream a reader decompresses (a cross-
/// reference stream has a handful; a billion made the reader zero-fill gigabytes).
const MAX_COLUMNS: i64 = 10_000;

/// The running totals of one file's check.
#[derive(Default)]
struct Budget {
    tokens: usize,
    decoded: usize,
    scanned: usize,
    /// Most bytes to scan in all ([`MAX_RESCANS`] × the file).
    most: usize,
    /// Where each indirect object's value starts, by (number, generation).
    objects: ObjectIndex,
}

impl Budget {
    fn read(&mut self, bytes: usize) -> Result<(), Error> {
        self.scanned += bytes;
        if self.scanned > self.most {
            return Err(refuse(
                "the PDF's objects overlap each other (more than four times the file's size to read)",
            ));
        }
        Ok(())
    }

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

/// The value of the indirect integer object `id` in `file` (`7 0 obj 123 endobj`), found
/// through the index of object headers.
fn indirect_integer(file: &[u8], objects: &ObjectIndex, id: (u64, u64)) -> Option<i64> {
    let value = skip_space(file, *objects.get(&id)?);
    let digits: Vec<u8> = file[value..]
        .iter()
        .take(20)
        .take_while(|c| c.is_ascii_digit())
        .copied()
        .collect();
    std::str::from_utf8(&digits).ok()?.parse().ok()
}

/// Checks one stream: `dict` its dictionary's text, `raw` its bytes as stored; `file` is
/// the whole PDF (for indirect lengths, not needed here).
fn check_stream(dict: &[u8], raw: &[u8], budget: &mut Budget) -> Result<(), Error> {
    let names = names(dict);
    let has = |n: &[u8]| names.iter().any(|x| x == n);
    if names.iter().filter(|n| n.as_slice() == b"Filter").count() > 1 {
        return Err(refuse(
            "a stream dictionary of the PDF names its /Filter twice",
        ));
    }
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
    let columns = int_after(dict, b"Columns").unwrap_or(1);
    let colors = int_after(dict, b"Colors").unwrap_or(1);
    let bits = int_after(dict, b"BitsPerComponent").unwrap_or(8);
    if !(1..=MAX_COLUMNS).contains(&columns)
        || !(1..=32).contains(&colors)
        || !(1..=16).contains(&bits)
    {
        return Err(refuse(
            "a stream of the PDF has predictor parameters (/Columns, /Colors, /BitsPerComponent) out of range",
        ));
    }
    let mut bytes: Option<Vec<u8>> = None;
    for _ in &chain {
        let input = bytes.as_deref().unwrap_or(raw);
        let room = MAX_DECODED_BYTES.saturating_sub(budget.decoded);
        let cap = MAX_STREAM_BYTES.min(room);
        let out = inflate(input, cap).map_err(|TooLarge| {
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
        check_object_stream(dict, content, budget)?;
    }
    Ok(())
}

/// The objects of an object stream, each scanned from where the reader parses it: the
/// `/N` pairs of the header name each object's offset after `/First`.
fn check_object_stream(dict: &[u8], content: &[u8], budget: &mut Budget) -> Result<(), Error> {
    let first = usize::try_from(int_after(dict, b"First").unwrap_or(0)).unwrap_or(0);
    let header = content.get(..first.min(content.len())).unwrap_or_default();
    let numbers: Vec<usize> = header
        .split(|c| is_space(*c))
        .filter(|w| !w.is_empty())
        .filter_map(|w| std::str::from_utf8(w).ok()?.parse().ok())
        .collect();
    // Reading an object stream's content may cost as much again as the file's.
    budget.most = budget
        .most
        .saturating_add(content.len().saturating_mul(MAX_RESCANS));
    let mut starts: Vec<usize> = numbers
        .chunks(2)
        .filter_map(|p| p.get(1))
        .map(|o| first.saturating_add(*o))
        .collect();
    // Whatever the header says, the content is scanned from its start as well.
    starts.push(first.min(content.len()));
    for start in starts {
        scan(content, start, Until::OneValue, budget, None)?;
    }
    Ok(())
}

/// Where a scan stops.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Until {
    /// At `endobj` (an indirect object, scanned from after its `obj`).
    EndObj,
    /// After the first complete value (an object in an object stream, a trailer's
    /// dictionary).
    OneValue,
}

/// Scans `data` from `from` like the reader parses an object there, counting tokens and
/// nesting and checking each stream (`file`: the whole PDF, for streams and indirect
/// lengths; `None` inside an object stream, which holds no streams). Returns where it
/// stopped.
fn scan(
    data: &[u8],
    from: usize,
    until: Until,
    budget: &mut Budget,
    file: Option<&[u8]>,
) -> Result<usize, Error> {
    // Opening positions of the open dictionaries (arrays as `None`), at most MAX_NESTING.
    let mut open: Vec<Option<usize>> = Vec::new();
    let mut i = from;
    let too_deep = || {
        refuse(format!(
            "the PDF nests arrays or dictionaries more than {MAX_NESTING} levels deep"
        ))
    };
    let done = |open: &Vec<Option<usize>>| until == Until::OneValue && open.is_empty();
    let mut last = from;
    loop {
        budget.read(i.saturating_sub(last))?;
        last = i;
        i = skip_space(data, i);
        if i >= data.len() {
            break;
        }
        let c = data[i];
        let start = i;
        match c {
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
                continue;
            }
            b'<' => {
                budget.token()?;
                i = find(data, i, b">").map_or(data.len(), |e| e + 1);
            }
            b'>' if data.get(i + 1) == Some(&b'>') => {
                i += 2;
                let closed = open.pop().flatten();
                if let (Some(dict_start), true) = (closed, open.is_empty()) {
                    // A dictionary at the top of an object: a stream may follow.
                    let j = skip_space(data, i);
                    if keyword_at(data, j, b"stream") {
                        let Some(file) = file else {
                            return Err(refuse("an object stream of the PDF holds a stream"));
                        };
                        i = stream_at(data, dict_start, i, j, budget, file)?;
                        continue;
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
                continue;
            }
            b']' => {
                open.pop();
                i += 1;
            }
            b'/' => {
                budget.token()?;
                i += 1;
                while i < data.len() && !is_boundary(data[i]) {
                    i += 1;
                }
            }
            _ if !is_boundary(c) => {
                budget.token()?;
                while i < data.len() && !is_boundary(data[i]) {
                    i += 1;
                }
                if until == Until::EndObj && open.is_empty() && &data[start..i] == b"endobj" {
                    break;
                }
            }
            _ => i += 1,
        }
        if done(&open) {
            break;
        }
    }
    budget.read(i.saturating_sub(last))?;
    Ok(i)
}

/// A stream whose dictionary spans `dict_start..dict_end` and whose `stream` keyword is
/// at `keyword`: its extent found as the reader finds it (`/Length`, direct or indirect,
/// followed by `endstream`), then checked. Returns the position after `endstream`.
/// Errors: a `/Length` that does not end at `endstream`, and those of [`check_stream`].
fn stream_at(
    data: &[u8],
    dict_start: usize,
    dict_end: usize,
    keyword: usize,
    budget: &mut Budget,
    file: &[u8],
) -> Result<usize, Error> {
    let dict = &data[dict_start..dict_end];
    let mut body = keyword + b"stream".len();
    while matches!(data.get(body), Some(b' ') | Some(b'\t')) {
        body += 1;
    }
    if data[body..].starts_with(b"\r\n") {
        body += 2;
    } else if matches!(data.get(body), Some(b'\n') | Some(b'\r')) {
        body += 1;
    }
    let length = int_after(dict, b"Length")
        .filter(|_| reference_after(dict, b"Length").is_none())
        .or_else(|| {
            reference_after(dict, b"Length")
                .and_then(|r| indirect_integer(file, &budget.objects, r))
        });
    let end = match length.and_then(|l| usize::try_from(l).ok()) {
        Some(len) => {
            let end = body
                .checked_add(len)
                .filter(|e| *e <= data.len())
                .ok_or_else(|| refuse("a stream of the PDF is longer than the file"))?;
            let mut after = end;
            if data[after..].starts_with(b"\r\n") {
                after += 2;
            } else if matches!(data.get(after), Some(b'\n') | Some(b'\r')) {
                after += 1;
            }
            if !data[after..].starts_with(b"endstream") {
                return Err(refuse(
                    "a stream of the PDF does not end at endstream where its /Length says",
                ));
            }
            end
        }
        None => find(data, body, b"endstream").unwrap_or(data.len()),
    };
    check_stream(dict, &data[body..end], budget)?;
    let after = find(data, end, b"endstream").map_or(data.len(), |e| e + b"endstream".len());
    Ok(after)
}

/// Where each indirect object's value starts, by (number, generation).
type ObjectIndex = std::collections::HashMap<(u64, u64), usize>;

/// Where the reader parses something: after every `N G obj` header (an indirect object)
/// and at every `trailer` keyword (the trailer dictionary); and the index of the objects.
fn object_starts(pdf: &[u8]) -> (Vec<(usize, Until)>, ObjectIndex) {
    let mut out = Vec::new();
    let mut ids = std::collections::HashMap::new();
    let mut at = 0;
    while let Some(p) = find(pdf, at, b"obj") {
        at = p + 3;
        if !pdf.get(at).is_none_or(|&c| is_boundary(c)) {
            continue;
        }
        // Backwards: white space, generation digits, white space, object digits.
        let mut k = p;
        let mut parts = 0;
        while parts < 2 {
            let spaces = k;
            while k > 0 && is_space(pdf[k - 1]) {
                k -= 1;
            }
            let digits = k;
            while k > 0 && pdf[k - 1].is_ascii_digit() {
                k -= 1;
            }
            if spaces == k || digits == k || digits == spaces {
                break;
            }
            parts += 1;
        }
        if parts == 2 && (k == 0 || is_boundary(pdf[k - 1])) {
            out.push((at, Until::EndObj));
            let words: Vec<u64> = pdf[k..p]
                .split(|c| is_space(*c))
                .filter(|w| !w.is_empty())
                .filter_map(|w| std::str::from_utf8(w).ok()?.parse().ok())
                .collect();
            if let [n, g] = words.as_slice() {
                ids.entry((*n, *g)).or_insert(at);
            }
        }
    }
    let mut at = 0;
    while let Some(p) = find(pdf, at, b"trailer") {
        at = p + 7;
        if keyword_at(pdf, p, b"trailer") {
            out.push((at, Until::OneValue));
        }
    }
    (out, ids)
}

/// Checks a PDF against the limits of this module before a reader sees it: every
/// indirect object is scanned from its own `N G obj` (as the reader, which finds objects
/// by their offsets, parses it — stray bytes between objects cannot shift the scan),
/// every trailer dictionary, and every object in an object stream from its offset.
///
/// Errors: [`Error::Pdf`] naming the limit passed: nesting deeper than [`MAX_NESTING`],
/// more than [`MAX_TOKENS`] tokens, overlapping objects past four times the file's size,
/// LZW compression, another filter than FlateDecode (or more than [`MAX_FILTERS`], or a
/// `/Filter` named twice) on an object, cross-reference or embedded-file stream,
/// predictor parameters out of range, a `/Length` that does not end at `endstream`, or
/// streams that decompress past [`MAX_STREAM_BYTES`] / [`MAX_DECODED_BYTES`].
pub fn check(pdf: &[u8]) -> Result<(), Error> {
    let (starts, objects) = object_starts(pdf);
    let mut budget = Budget {
        most: pdf
            .len()
            .saturating_mul(MAX_RESCANS)
            .saturating_add(1024 * 1024),
        objects,
        ..Budget::default()
    };
    for (start, until) in starts {
        scan(pdf, start, until, &mut budget, Some(pdf))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
