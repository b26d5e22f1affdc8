//! Every field message has its German text (issue 30: "an English sentence edited loses
//! its German silently"). Field messages are entries of the catalogue
//! `kontor_model::error::messages` — a message cannot be written without its German, the
//! type system sees to that — and the only way around it, `Message::verbatim`, is for
//! outside words (a parser's or a library's sentence): no source of the model or the
//! server hands it a sentence of its own (a string literal or a `format!`).
//!
//! The API side: a 422 answered with `Accept-Language: de` carries German texts and the
//! codes that produced them (`crates/server/tests/people_api.rs`, `sign_in_api.rs`).

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

/// The part of `text` before its `#[cfg(test)]` module (unit tests may build anything).
fn without_unit_tests(text: &str) -> &str {
    text.find("#[cfg(test)]").map_or(text, |at| &text[..at])
}

#[test]
fn no_rule_or_handler_writes_a_sentence_of_its_own_past_the_catalogue() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    sources(&root.join("../model/src"), &mut files);
    let mut verbatim_calls = 0;
    let mut own_sentences = Vec::new();
    for file in &files {
        let full = std::fs::read_to_string(file).expect("source file");
        let text = without_unit_tests(&full);
        for (at, _) in text.match_indices("Message::verbatim(") {
            let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            if text[line_start..at].trim_start().starts_with("//") {
                continue;
            }
            verbatim_calls += 1;
            let argument = text[at + "Message::verbatim(".len()..].trim_start();
            if argument.starts_with('"') || argument.starts_with("format!") {
                let line = text[..at].matches('\n').count() + 1;
                own_sentences.push(format!("{}:{line}", file.display()));
            }
        }
    }
    assert!(
        verbatim_calls > 0,
        "the scan found no Message::verbatim call: has the call form changed?"
    );
    assert!(
        own_sentences.is_empty(),
        "sentences written past the catalogue (give them an entry in kontor_model::error::messages):\n{}",
        own_sentences.join("\n")
    );
}

#[test]
fn every_catalogue_entry_has_german_with_every_parameter() {
    use kontor_model::error::messages::ALL;
    use kontor_model::error::Message;
    for text in ALL {
        let params: Vec<String> = (1..=text.param_count()).map(|i| format!("<{i}>")).collect();
        let german = Message::new(*text, params.clone()).german();
        assert_ne!(german, "", "{} has no German", text.code);
        for p in &params {
            assert!(german.contains(p.as_str()), "{}: {german}", text.code);
        }
    }
}
