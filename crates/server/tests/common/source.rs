//! The server's own Rust sources, for tests that scan them.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `crates/server/src` with its text, sorted by path.
pub fn server_sources() -> Vec<(PathBuf, String)> {
    let mut found = Vec::new();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                found.push((path, text));
            }
        }
    }
    found.sort();
    found
}

/// `text` without `//` comments (line and doc comments; string literals holding `//`
/// such as URLs are cut too, which is harmless for the scans).
pub fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}
