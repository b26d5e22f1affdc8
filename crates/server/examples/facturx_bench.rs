//! Factur-X PDF benchmark (issue 10's budget: a Factur-X PDF of a 1-page invoice renders in
//! ≤ 30 ms in the server).
//!
//! `cargo run --release -p kontor-server --example facturx_bench` times the server's
//! [`kontor_server::work::pdf_render::factur_x`] (Typst PDF/A-3b with `factur-x.xml` attached +
//! the XMP extension in an incremental update) against the plain render of the same
//! 1-page invoice (`kontor_pdf::sample::bench_invoice(8)`: 8 positions, SVG logo, legal
//! footer), with a typical EN 16931 CII of about 10 kB (the XRechnung test suite's 01.01a)
//! and with a large one (03.01a, 234 kB).

use kontor_pdf::PdfEngine;
use kontor_server::work::pdf_render::factur_x;
use std::path::Path;
use std::time::Instant;

fn sample(name: &str) -> Vec<u8> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|a| a.join("shared/einvoice/samples"))
        .find(|d| d.is_dir())
        .expect("shared/einvoice/samples above the crate");
    std::fs::read(dir.join(name)).expect("sample CII")
}

fn time(label: &str, runs: usize, mut f: impl FnMut() -> Vec<u8>) {
    let size = f().len();
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            let pdf = f();
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            assert!(pdf.len() > 1000);
            ms
        })
        .collect();
    times.sort_by(|a, b| a.total_cmp(b));
    println!(
        "{label:<44} median {:>6.1} ms   max {:>6.1} ms   ({runs} runs, {} kB)",
        times[runs / 2],
        times[runs - 1],
        size / 1024
    );
}

fn main() {
    let data = kontor_pdf::sample::bench_invoice(8);
    let typical = sample("01.01a-INVOICE_uncefact.xml");
    let large = sample("03.01a-INVOICE_uncefact.xml");
    let runs = 30;
    time("plain PDF, 1-page invoice", runs, || {
        PdfEngine::shared().render_document(&data).expect("renders")
    });
    time("Factur-X PDF, 1-page invoice + 10 kB CII", runs, || {
        factur_x(&data, &typical).expect("Factur-X")
    });
    time("Factur-X PDF, 1-page invoice + 234 kB CII", runs, || {
        factur_x(&data, &large).expect("Factur-X")
    });
}
