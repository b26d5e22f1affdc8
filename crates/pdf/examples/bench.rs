//! PDF benchmark (issue 3's budget: a 1-page invoice ≤ 30 ms, 1,000 positions ≤ 500 ms).
//!
//! `cargo run --release -p kontor-pdf --example bench [-- OUT_DIR]` renders each document
//! several times and prints the median and maximum; with OUT_DIR it also writes the PDFs
//! and a comparable HTML invoice per size (for Chromium's print-to-PDF, see
//! `scripts/bench-pdf.sh`).

use kontor_pdf::document::{DocumentData, Letterhead, Logo, LogoFormat, Row, TotalLine};
use kontor_pdf::rich_text::blocks;
use kontor_pdf::PdfEngine;
use std::time::Instant;

fn document(positions: usize) -> DocumentData {
    let rows = (1..=positions)
        .map(|n| Row {
            kind: "item".into(),
            pos: n.to_string(),
            title: format!("Development work, package {n}"),
            quantity: "2.5".into(),
            unit: "h".into(),
            unit_price: "95.00".into(),
            net_total: "237.50".into(),
            ..Default::default()
        })
        .collect();
    DocumentData {
        heading: "Invoice R2611-001".into(),
        subject: "Website relaunch".into(),
        letterhead: Letterhead {
            show: true,
            name: "Kontor Demo GmbH".into(),
            address_lines: vec!["Hauptstraße 1".into(), "10115 Berlin".into()],
            return_line: "Kontor Demo GmbH · Hauptstraße 1 · 10115 Berlin".into(),
            footer_line: "IBAN DE89 3704 0044 0532 0130 00".into(),
            logo_text: "Kontor".into(),
            logo: Some(Logo {
                format: LogoFormat::Svg,
                bytes: br##"<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40"><rect width="40" height="40" rx="6" fill="#1f4e79"/><path d="M12 8v24M12 20l14-12M12 20l14 12" stroke="#fff" stroke-width="4" fill="none"/><rect x="50" y="14" width="100" height="12" fill="#1f4e79"/></svg>"##.to_vec(),
            }),
            footer_columns: vec![
                vec!["Kontor Demo GmbH".into(), "Hauptstraße 1".into(), "10115 Berlin".into()],
                vec!["Tel. +49 30 1234567".into(), "billing@kontor.example".into()],
                vec!["USt-IdNr. DE136695976".into(), "Steuernummer 37/123/45678".into(), "Handelsregister Amtsgericht Charlottenburg HRB 123456 B".into()],
                vec!["Berliner Sparkasse".into(), "IBAN DE02 1203 0000 0000 2020 51".into(), "BIC BYLADEM1001".into()],
            ],
        },
        recipient_lines: vec![
            "Müller & Söhne GmbH".into(),
            "Lindenstraße 12".into(),
            "80331 München".into(),
        ],
        meta: vec![
            ("Invoice no.".into(), "R2611-001".into()),
            ("Date".into(), "3 Nov 2026".into()),
            ("Due date".into(), "17 Nov 2026".into()),
        ],
        salutation: blocks("<p>Dear Sir or Madam,</p><p>we invoice the following services:</p>"),
        detail_columns: true,
        sections: vec![rows],
        totals: vec![
            TotalLine {
                label: "Net total".into(),
                amount: format!(
                    "{}.{:02} EUR",
                    23750 * positions / 100,
                    23750 * positions % 100
                ),
                strong: false,
            },
            TotalLine {
                label: "Gross total".into(),
                amount: "…".into(),
                strong: true,
            },
        ],
        notes: vec!["Please pay by 17 Nov 2026.".into()],
        footer: blocks("<p>Thank you for your order.</p>"),
        ..Default::default()
    }
}

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
        let data = document(positions);
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
