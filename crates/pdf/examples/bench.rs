//! PDF benchmark (issue 3's budget: a 1-page invoice ≤ 30 ms, 1,000 positions ≤ 500 ms).
//!
//! `cargo run --release -p kontor-pdf --example bench [-- OUT_DIR]` renders each document
//! several times and prints the median and maximum; with OUT_DIR it also writes the PDFs
//! and a comparable HTML invoice per size (for Chromium's print-to-PDF, see
//! `scripts/bench-pdf.sh`).

use kontor_pdf::PdfEngine;
use std::time::Instant;

fn html(positions: usize) -> String {
    let rows: String = (1..=positions).map(|n| format!("<tr><td>{n}</td><td>Development work, package {n}</td><td class=r>2.5</td><td>h</td><td class=r>95.00</td><td class=r>237.50</td></tr>")).collect();
    format!(
        "<!doctype html><html><head><meta charset=utf-8><style>@page{{size:A4;margin:2cm}}body{{font:9pt 'DejaVu Sans'}}table{{width:100%;border-collapse:collapse}}thead{{display:table-header-group}}th{{background:#1f4e79;color:#fff;text-align:left}}td,th{{padding:4px;border-bottom:1px solid #ddd}}.r{{text-align:right}}</style></head><body>\
         <p style='font-size:6.5pt'>Kontor Demo GmbH · Hauptstraße 1 · 10115 Berlin</p><p>Müller &amp; Söhne GmbH<br>Lindenstraße 12<br>80331 München</p><h1>Invoice R2611-001</h1><p>Dear Sir or Madam,</p>\
         <table><thead><tr><th>Pos.</th><th>Description</th><th>Qty</th><th>Unit</th><th>Unit price</th><th>Total</th></tr></thead><tbody>{rows}</tbody></table><p>Please pay by 17 Nov 2026.</p></body></html>"
    )
}

fn main() {
    let out = std::env::args().nth(1);
    let engine = PdfEngine::shared();
    for (label, positions, runs) in [
        ("1-page invoice (8 positions)", 8, 30),
        ("1,000 positions", 1000, 5),
    ] {
        let data = kontor_pdf::sample::bench_invoice(positions);
        let first = engine.render_document(&data).expect("renders");
        let mut times = Vec::new();
        for _ in 0..runs {
            let start = Instant::now();
            let pdf = engine.render_document(&data).expect("renders");
            times.push(start.elapsed().as_secs_f64() * 1000.0);
            assert!(pdf.len() > 1000);
        }
        times.sort_by(|a, b| a.total_cmp(b));
        println!(
            "typst  {label:<30} median {:>7.1} ms   max {:>7.1} ms   ({} runs, {} kB)",
            times[times.len() / 2],
            times[times.len() - 1],
            runs,
            first.len() / 1024
        );
        if let Some(dir) = &out {
            std::fs::write(format!("{dir}/typst-{positions}.pdf"), &first).expect("write pdf");
            std::fs::write(format!("{dir}/chromium-{positions}.html"), html(positions))
                .expect("write html");
        }
    }
}
