//! Minimal PDFs for tests of the e-invoice readers and of the PDF limits: a valid one-page
//! PDF without attachments, and PDFs of any objects with a correct cross-reference table.
//! Include it with `#[path = "…/einvoice/tests/support/plain_pdf.rs"] mod plain_pdf;`
//! (the path relative to the including file).
#![allow(dead_code)]

/// A valid one-page PDF without attachments, written with correct xref offsets.
pub fn plain_pdf() -> Vec<u8> {
    pdf_of(&[
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>".to_vec(),
    ])
}

/// A well-formed PDF of `objects` (each the bytes between `N 0 obj` and `endobj`, object 1
/// the catalog) with a correct cross-reference table and trailer, so that a PDF reader
/// really parses every object.
pub fn pdf_of(objects: &[Vec<u8>]) -> Vec<u8> {
    let mut out = b"%PDF-1.7\n".to_vec();
    let mut offsets = Vec::new();
    for (n, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", n + 1).as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for o in offsets {
        out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

/// A stream object's bytes: `dict` with `/Length`, then `data`.
pub fn stream(dict: &str, data: &[u8]) -> Vec<u8> {
    let mut o = format!("<< {dict} /Length {} >>\nstream\n", data.len()).into_bytes();
    o.extend_from_slice(data);
    o.extend_from_slice(b"\nendstream");
    o
}
