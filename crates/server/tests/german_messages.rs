//! Every field message a rule or a handler writes as a literal has its German text
//! (issue 30: "an English sentence edited loses its German silently"). The messages are
//! read from the source of the model and the server — the third argument of
//! `push_error(errors, field, "…")` and the second of `ApiError::field(field, "…")` — and
//! each must come out of `kontor_model::error_text::german` in German, as a client with
//! `Accept-Language: de` would read it.

use std::path::{Path, PathBuf};

/// Every `.rs` file below `dir`, test files left out.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "tests") {
                sources(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(path);
        }
    }
}

/// The text of the call's argument list starting right after `(` at `start`, up to its
/// matching `)`; string literals are skipped whole.
fn arguments(text: &str, start: usize) -> Option<&str> {
    let bytes = text.as_bytes();
    let (mut depth, mut i, mut in_string) = (1usize, start, false);
    while i < bytes.len() {
        match (in_string, bytes[i]) {
            (true, b'\\') => i += 1,
            (true, b'"') => in_string = false,
            (false, b'"') => in_string = true,
            (false, b'(') => depth += 1,
            (false, b')') => {
                depth -= 1;
                if depth == 0 {
                    return Some(&text[start..i]);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The last top-level argument of `args`, when it is a plain string literal (possibly
/// followed by `.into()` or `.to_string()`), unescaped.
fn literal_message(args: &str) -> Option<String> {
    let last = args.trim().trim_end_matches(',').rsplit_once(',')?.1.trim();
    let last = last
        .strip_suffix(".into()")
        .or_else(|| last.strip_suffix(".to_string()"))
        .unwrap_or(last);
    let inner = last.strip_prefix('"')?.strip_suffix('"')?;
    if inner.contains('"') && !inner.contains("\\\"") {
        return None; // the last argument is not one literal (`a" + "b`)
    }
    Some(inner.replace("\\\"", "\"").replace("\\'", "'"))
}

#[test]
fn every_literal_field_message_has_its_german_text() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    sources(&root.join("../model/src"), &mut files);
    let mut found = 0;
    let mut missing = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("source file");
        for call in ["push_error(", "ApiError::field("] {
            for (at, _) in text.match_indices(call) {
                // Definitions (`pub fn push_error(`) and doc mentions are no calls.
                let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
                let line = text[line_start..at].trim_start();
                if line.starts_with("//") || line.ends_with("fn ") {
                    continue;
                }
                let Some(message) = arguments(&text, at + call.len()).and_then(literal_message)
                else {
                    continue;
                };
                found += 1;
                if kontor_model::error_text::german(&message) == message {
                    missing.push(format!("{}: {message}", file.display()));
                }
            }
        }
    }
    assert!(
        found > 80,
        "the scan found only {found} messages: has the call form changed?"
    );
    missing.sort();
    missing.dedup();
    assert!(
        missing.is_empty(),
        "messages without German text in kontor_model::error_text::DE:\n{}",
        missing.join("\n")
    );
}
