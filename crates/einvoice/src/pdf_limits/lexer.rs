//! The PDF tokens [`super::check`] reads: delimiters and white space as the PDF
//! specification (and lopdf) define them, literal strings, names with `#xx` escapes,
//! filter lists and the integers and references after a dictionary key.

/// Whether `c` ends a token (PDF whitespace or delimiter).
pub(super) fn is_boundary(c: u8) -> bool {
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
pub(super) fn names(dict: &[u8]) -> Vec<Vec<u8>> {
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
pub(super) fn filters(names_in_dict: &[Vec<u8>]) -> Option<Vec<Vec<u8>>> {
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

/// The end of the literal string opening at `start` (`(`…`)`, nested parentheses and
/// backslash escapes), or the end of `data`.
pub(super) fn skip_literal(data: &[u8], start: usize) -> usize {
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
pub(super) fn find(data: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    data.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

pub(super) fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n' | 0x0c | 0)
}

/// `i` moved past white space and comments (what the reader's grammar calls `space`).
pub(super) fn skip_space(data: &[u8], mut i: usize) -> usize {
    loop {
        while i < data.len() && is_space(data[i]) {
            i += 1;
        }
        if data.get(i) == Some(&b'%') {
            while i < data.len() && data[i] != b'\r' && data[i] != b'\n' {
                i += 1;
            }
        } else {
            return i;
        }
    }
}

/// Whether `data[at..]` starts with the keyword `word`, ending at a token boundary.
pub(super) fn keyword_at(data: &[u8], at: usize, word: &[u8]) -> bool {
    data.get(at..).is_some_and(|rest| rest.starts_with(word))
        && data.get(at + word.len()).is_none_or(|&c| is_boundary(c))
}

/// The integer right after the name `key` in a dictionary's text, as written
/// (`/Columns 5` → 5); `None` when absent or not a plain integer.
pub(super) fn int_after(dict: &[u8], key: &[u8]) -> Option<i64> {
    let mut at = 0;
    while let Some(p) = find(dict, at, key) {
        at = p + key.len();
        if p == 0 || dict[p - 1] != b'/' || dict.get(at).is_some_and(|&c| !is_boundary(c)) {
            continue;
        }
        let rest = &dict[skip_space(dict, at)..];
        let digits: Vec<u8> = rest
            .iter()
            .take_while(|c| c.is_ascii_digit() || **c == b'-' || **c == b'+')
            .copied()
            .collect();
        return std::str::from_utf8(&digits).ok()?.parse().ok();
    }
    None
}

/// The object number and generation of an indirect reference right after `/key`
/// (`/Length 7 0 R` → (7, 0)).
pub(super) fn reference_after(dict: &[u8], key: &[u8]) -> Option<(u64, u64)> {
    let p = find(dict, 0, key)?;
    let rest = &dict[p + key.len()..];
    let words: Vec<&[u8]> = rest
        .split(|c| is_space(*c))
        .filter(|w| !w.is_empty())
        .take(3)
        .collect();
    match words.as_slice() {
        [n, g, r] if r.starts_with(b"R") => Some((
            std::str::from_utf8(n).ok()?.parse().ok()?,
            std::str::from_utf8(g).ok()?.parse().ok()?,
        )),
        _ => None,
    }
}
