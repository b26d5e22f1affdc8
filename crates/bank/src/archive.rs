//! ZIP archives of statement files, as online banking exports several days or accounts
//! at once (PKZIP, stored or deflated entries).
//!
//! Limits are checked while inflating, never trusted from the headers: each entry is
//! read through `take(limit + 1)`, where the limit is the least of
//! [`MAX_STATEMENT_BYTES`], what is left of [`MAX_ZIP_TOTAL`] and what is left of
//! [`MAX_ZIP_RATIO`] × the ZIP's size, so a lying header or a deflate bomb stops after at
//! most one byte too many. An archive with more than [`MAX_ZIP_FILES`] entries is refused
//! before any is inflated.
//!
//! Entries read: names ending in `.xml`, `.sta`, `.mt940`, `.940`, `.txt` or without an
//! extension. A `.txt` that is no statement (a read-me) and every other extension (PDF,
//! CSV, images …), folders and `__MACOSX/` metadata are skipped; an `.xml` that is no camt
//! is an error naming the entry. ZIPs inside the ZIP are not followed.

use crate::{read_one, ReadError, Statement, MAX_ENTRIES};
use crate::{MAX_STATEMENT_BYTES, MAX_ZIP_FILES, MAX_ZIP_RATIO, MAX_ZIP_TOTAL};
use std::io::{Cursor, Read};

/// Whether `bytes` start with a ZIP local file header (`PK\x03\x04`).
pub fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04")
}

/// Which entries are read as statements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Statement,
    /// `.txt`: read when it is a statement, skipped when not.
    MaybeStatement,
    Skip,
    Zip,
}

fn kind(name: &str) -> Kind {
    let lower = name.to_ascii_lowercase();
    let base = lower.rsplit('/').next().unwrap_or(&lower);
    if lower.ends_with('/') || lower.starts_with("__macosx/") || base.starts_with('.') {
        return Kind::Skip;
    }
    match base.rsplit_once('.').map(|(_, ext)| ext) {
        None | Some("xml" | "sta" | "mt940" | "940" | "mt9") => Kind::Statement,
        Some("txt") => Kind::MaybeStatement,
        Some("zip") => Kind::Zip,
        Some(_) => Kind::Skip,
    }
}

/// Reads every statement in a ZIP archive, entries in archive order.
///
/// Errors: [`ReadError::TooLarge`] past a limit (naming it), [`ReadError::NotAStatement`]
/// for a ZIP with no statement in it, a nested ZIP or an entry that should be a statement
/// and is not (naming the entry), [`ReadError::Invalid`] for a broken archive or entry,
/// and any error of reading an entry, prefixed with its name.
pub fn read(bytes: &[u8]) -> Result<Vec<Statement>, ReadError> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| ReadError::Invalid(format!("the ZIP archive is broken ({e})")))?;
    if archive.len() > MAX_ZIP_FILES {
        return Err(ReadError::TooLarge(format!(
            "the ZIP holds {} entries, more than {MAX_ZIP_FILES}",
            archive.len()
        )));
    }
    let ratio_budget = (bytes.len() as u64).saturating_mul(MAX_ZIP_RATIO);
    let mut inflated: u64 = 0;
    // First inflate everything (bounded by the limits), then parse: a bomb is refused as
    // one whatever file comes first.
    let mut contents: Vec<(String, Kind, Vec<u8>)> = Vec::new();
    for index in 0..archive.len() {
        let mut file = archive
            .by_index(index)
            .map_err(|e| ReadError::Invalid(format!("ZIP entry {}: {e}", index + 1)))?;
        let name = file.name().to_string();
        let kind = if file.is_dir() {
            Kind::Skip
        } else {
            kind(&name)
        };
        if kind == Kind::Skip {
            continue;
        }
        if kind == Kind::Zip {
            return Err(ReadError::NotAStatement(format!(
                "{name} is a ZIP inside the ZIP; nested archives are not read"
            )));
        }
        let total_left = MAX_ZIP_TOTAL.saturating_sub(inflated);
        let ratio_left = ratio_budget.saturating_sub(inflated);
        let limit = (MAX_STATEMENT_BYTES as u64).min(total_left).min(ratio_left);
        let mut content = Vec::new();
        (&mut file)
            .take(limit + 1)
            .read_to_end(&mut content)
            .map_err(|e| ReadError::Invalid(format!("{name}: cannot inflate ({e})")))?;
        let got = content.len() as u64;
        if got > limit {
            let why = if limit == MAX_STATEMENT_BYTES as u64 {
                format!("{name} inflates to more than {MAX_STATEMENT_BYTES} bytes")
            } else if limit == total_left {
                format!("the ZIP inflates to more than {MAX_ZIP_TOTAL} bytes")
            } else {
                format!(
                    "the ZIP inflates to more than {MAX_ZIP_RATIO} times its {} bytes",
                    bytes.len()
                )
            };
            return Err(ReadError::TooLarge(why));
        }
        inflated += got;
        if is_zip(&content) {
            return Err(ReadError::NotAStatement(format!(
                "{name} is a ZIP inside the ZIP; nested archives are not read"
            )));
        }
        contents.push((name, kind, content));
    }
    drop(archive);
    let mut statements = Vec::new();
    let mut entries = 0usize;
    for (name, kind, content) in contents {
        match read_one(&name, &content) {
            Ok(found) => {
                entries += found.iter().map(|s| s.entries.len()).sum::<usize>();
                if entries > MAX_ENTRIES {
                    return Err(ReadError::TooLarge(format!(
                        "more than the {MAX_ENTRIES} transactions one read may return"
                    )));
                }
                statements.extend(found);
            }
            Err(ReadError::NotAStatement(_)) if kind == Kind::MaybeStatement => {}
            Err(e) => return Err(prefix(&name, e)),
        }
    }
    if statements.is_empty() {
        return Err(ReadError::NotAStatement(
            "the ZIP holds no camt.052/053/054 or MT940 file".to_string(),
        ));
    }
    Ok(statements)
}

fn prefix(name: &str, error: ReadError) -> ReadError {
    match error {
        ReadError::NotAStatement(m) => ReadError::NotAStatement(format!("{name}: {m}")),
        ReadError::Unsafe(m) => ReadError::Unsafe(format!("{name}: {m}")),
        ReadError::TooLarge(m) => ReadError::TooLarge(format!("{name}: {m}")),
        ReadError::Invalid(m) => ReadError::Invalid(format!("{name}: {m}")),
    }
}

#[cfg(test)]
mod tests;
