//! QR codes printed in PDFs, read back by independent decoders: `rqrr` (Rust), `zbarimg`
//! (zbar, Debian's zbar-tools) and zxing-cpp (PyPI, in the e-invoice checker's Python).
//! The page is rasterized with `pdftoppm` (poppler-utils) at 300 dpi.

use super::einvoice::validate::python;
use super::pdftotext;

/// Rasterizes the last page of `pdf` into `dir` as `page.pgm` (pdftoppm, 300 dpi, grey).
fn last_page(pdf: &[u8], dir: &std::path::Path) -> std::path::PathBuf {
    let file = dir.join("doc.pdf");
    std::fs::write(&file, pdf).unwrap();
    let out = std::process::Command::new("pdftoppm")
        .args(["-r", "300", "-gray", "-singlefile", "-l", "99"])
        .arg("-f")
        .arg(
            pdftotext(pdf)
                .split('\u{c}')
                .filter(|p| !p.trim().is_empty())
                .count()
                .to_string(),
        )
        .arg(&file)
        .arg(dir.join("page"))
        .output()
        .expect("pdftoppm (poppler-utils)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir.join("page.pgm")
}

/// Rasterizes the last page of `pdf` (pdftoppm, 300 dpi, grey) and decodes every QR code
/// on it.
pub fn decode_qr_codes(pdf: &[u8]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let pgm = std::fs::read(last_page(pdf, dir.path())).unwrap();
    // Binary PGM: "P5" width height maxval, one whitespace, then width × height bytes.
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while pgm[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while !pgm[at].is_ascii_whitespace() {
            at += 1;
        }
        fields.push(String::from_utf8_lossy(&pgm[start..at]).into_owned());
    }
    at += 1;
    assert_eq!(fields[0], "P5");
    let (w, h): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    let pixels = &pgm[at..at + w * h];
    let mut image = rqrr::PreparedImage::prepare_from_greyscale(w, h, |x, y| pixels[y * w + x]);
    image
        .detect_grids()
        .into_iter()
        .map(|grid| grid.decode().expect("the QR code decodes").1)
        .collect()
}

/// The QR codes on the last page of `pdf` as `zbarimg --raw` reads them (one per line of
/// its output; a payload's own line feeds stay inside it when there is one code).
pub fn zbar_codes(pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let page = last_page(pdf, dir.path());
    let out = std::process::Command::new("zbarimg")
        .args(["--raw", "-q", "-Sqrcode.enable", "-Sbinary"])
        .arg(&page)
        .output()
        .expect("zbarimg (Debian zbar-tools)");
    String::from_utf8(out.stdout).unwrap()
}

/// Reads every QR code on the last page of `pdf` with zxing-cpp (PyPI), in the e-invoice
/// checker's Python.
pub fn zxing_codes(pdf: &[u8]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let page = last_page(pdf, dir.path());
    let out = std::process::Command::new(python())
        .args([
            "-c",
            "import sys, json, zxingcpp\nfrom PIL import Image\nprint(json.dumps([r.text for r in zxingcpp.read_barcodes(Image.open(sys.argv[1]))]))",
        ])
        .arg(&page)
        .output()
        .expect("python with zxing-cpp");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}
