//! Factur-X PDF benchmark (issue 10's budget: a Factur-X PDF of a 1-page invoice renders in
//! ≤ 30 ms in the server).
//!
//! `cargo run --release -p kontor-server --example facturx_bench` times the server's
//! [`kontor_server::pdf_render::factur_x`] (Typst PDF/A-3b with `factur-x.xml` attached +
//! the XMP extension in an incremental update) against the plain render of the same
//! 1-page invoice (8 positions, SVG logo, legal footer), with a typical EN 16931 CII of
//! about 10 kB (the XRechnung test suite's 01.01a) and with a large one (03.01a, 234 kB).

use kontor_pdf::document::{DocumentData, Letterhead, Logo, LogoFormat, Row, TotalLine};
use kontor_pdf::rich_text::blocks;
use kontor_pdf::PdfEngine;
use kontor_server::pdf_render::factur_x;
use std::path::Path;
use std::time::Instant;

fn document() -> DocumentData {
    let rows = (1..=8)
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
                vec!["USt-IdNr. DE136695976".into(), "Steuernummer 37/123/45678".into()],
                vec!["Berliner Sparkasse".into(), "IBAN DE02 1203 0000 0000 2020 51".into()],
            ],
        },
        recipient_lines: vec!["Müller & Söhne GmbH".into(), "Lindenstraße 12".into(), "80331 München".into()],
        meta: vec![
            ("Invoice no.".into(), "R2611-001".into()),
            ("Date".into(), "3 Nov 2026".into()),
        ],
        salutation: blocks("<p>Dear Sir or Madam,</p><p>we invoice the following services:</p>"),
        detail_columns: true,
        sections: vec![rows],
        totals: vec![
            TotalLine { label: "Net total".into(), amount: "1,900.00 EUR".into(), strong: false },
            TotalLine { label: "VAT 19 %".into(), amount: "361.00 EUR".into(), strong: false },
            TotalLine { label: "Gross total".into(), amount: "2,261.00 EUR".into(), strong: true },
        ],
        notes: vec!["Please pay by 17 Nov 2026.".into()],
        footer: blocks("<p>Thank you for your order.</p>"),
        ..Default::default()
    }
}

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
    let data = document();
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
