//! Helpers shared by kontor-pdf's integration tests.

use std::io::Write;
use std::process::{Command, Stdio};

/// The text of `pdf` as `pdftotext -layout` reads it (poppler-utils must be installed).
pub fn pdftotext(pdf: &[u8]) -> String {
    let mut child = Command::new("pdftotext")
        .args(["-layout", "-", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("pdftotext (poppler-utils) is installed");
    child.stdin.take().unwrap().write_all(pdf).unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}
