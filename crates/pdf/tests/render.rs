//! Renders real documents and reads their text back with `pdftotext` (poppler-utils).

mod support;

use kontor_pdf::document::{DocumentData, Labels, Logo, LogoFormat, Row, TotalLine};
use kontor_pdf::rich_text::blocks;
use kontor_pdf::words::Language;
use kontor_pdf::{PdfEngine, Template};
use std::process::Command;
use support::pdftotext;

fn item(pos: usize, title: &str, net: &str) -> Row {
    Row {
        kind: "item".into(),
        pos: pos.to_string(),
        title: title.into(),
        quantity: "2".into(),
        unit: "h".into(),
        unit_price: "50.00".into(),
        net_total: net.into(),
        ..Default::default()
    }
}

fn sample() -> DocumentData {
    DocumentData {
        heading: "Invoice R2611-001".into(),
        subject: "Website work".into(),
        letterhead: kontor_pdf::sample::letterhead(),
        recipient_lines: vec!["ACME GmbH".into(), "Main St 1".into()],
        meta: vec![
            ("Invoice no.".into(), "R2611-001".into()),
            ("Date".into(), "2026-11-03".into()),
        ],
        salutation: blocks("<p>Dear <b>customer</b>,</p>"),
        detail_columns: true,
        sections: vec![vec![
            Row {
                kind: "title".into(),
                title: "Design".into(),
                ..Default::default()
            },
            item(1, "Concept", "100.00"),
            Row {
                kind: "subtotal".into(),
                net_total: "100.00".into(),
                ..Default::default()
            },
        ]],
        totals: vec![
            TotalLine {
                label: "Net total".into(),
                amount: "100.00 EUR".into(),
                strong: false,
            },
            TotalLine {
                label: "Gross total".into(),
                amount: "119.00 EUR".into(),
                strong: true,
            },
        ],
        notes: vec!["Payable by 2026-11-17.".into()],
        footer: blocks("<p>Thank you!</p>"),
        labels: Labels::of(Language::En),
        qr_bill: None,
        approval: None,
        girocode: None,
    }
}

/// `pdfimages -list` of `pdf`, read from a temporary file that is removed afterwards.
fn pdfimages_list(pdf: &[u8]) -> String {
    let mut file = tempfile::Builder::new()
        .prefix("kontor-pdfimages-")
        .suffix(".pdf")
        .tempfile()
        .unwrap();
    std::io::Write::write_all(&mut file, pdf).unwrap();
    let out = Command::new("pdfimages")
        .arg("-list")
        .arg(file.path())
        .output()
        .expect("pdfimages (poppler-utils) is installed");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn legal_footer() -> Vec<Vec<String>> {
    vec![
        vec![
            "Kontor Demo GmbH".into(),
            "Hauptstraße 1".into(),
            "10115 Berlin".into(),
        ],
        vec![],
        vec![
            "VAT ID DE136695976".into(),
            "Tax number 37/123/45678".into(),
        ],
        vec![
            "IBAN DE02 1203 0000 0000 2020 51".into(),
            "BIC BYLADEM1001".into(),
        ],
    ]
}

#[test]
fn renders_an_invoice_with_its_text() {
    let pdf = PdfEngine::shared()
        .render(Template::Document, &sample())
        .unwrap();
    assert!(pdf.starts_with(b"%PDF"));
    if let Ok(dir) = std::env::var("KONTOR_PDF_SAMPLE_DIR") {
        std::fs::write(format!("{dir}/sample-invoice.pdf"), &pdf).unwrap();
    }
    let text = pdftotext(&pdf);
    for expected in [
        "Invoice R2611-001",
        "Website work",
        "ACME GmbH",
        "Concept",
        "100.00",
        "Gross total",
        "119.00 EUR",
        "Page 1 of 1",
        "Thank you!",
        "Subtotal",
    ] {
        assert!(text.contains(expected), "{expected:?} missing in:\n{text}");
    }
}

#[test]
fn markup_characters_in_every_field_are_plain_text() {
    let nasty = "#set page(width: 1cm) * $x$ [a] <l> \\ @ref #{panic()}";
    let mut d = sample();
    d.heading = nasty.into();
    d.subject = nasty.into();
    d.recipient_lines = vec![nasty.into()];
    d.meta = vec![(nasty.into(), nasty.into())];
    d.sections = vec![vec![item(1, nasty, nasty)]];
    d.notes = vec![nasty.into()];
    d.salutation = blocks(&nasty.replace('<', "&lt;"));
    let pdf = PdfEngine::shared().render(Template::Document, &d).unwrap();
    let text = pdftotext(&pdf);
    assert!(text.matches("#set page(width: 1cm)").count() >= 5, "{text}");
    assert!(text.contains("#{panic()}"));
    assert!(
        text.contains("Page 1 of 1"),
        "layout was not changed by data:\n{text}"
    );
}

#[test]
fn page_breaks_start_new_pages_and_long_tables_repeat_the_header() {
    let mut d = sample();
    let long: Vec<Row> = (1..=120)
        .map(|n| item(n, &format!("Position {n}"), "100.00"))
        .collect();
    d.sections = vec![vec![item(1, "First page", "1.00")], long];
    let pdf = PdfEngine::shared().render(Template::Document, &d).unwrap();
    let text = pdftotext(&pdf);
    let pages: Vec<&str> = text
        .split('\u{c}')
        .filter(|p| !p.trim().is_empty())
        .collect();
    assert!(pages.len() >= 3, "{} pages", pages.len());
    assert!(
        pages[0].contains("First page") && !pages[0].contains("Position 1 "),
        "page break honoured"
    );
    assert!(pages[1].contains("Position 1"));
    for p in pages[1..].iter().filter(|p| p.contains("Position ")) {
        assert!(
            p.contains("Unit price"),
            "header repeated on every page with positions:\n{p}"
        );
    }
    assert!(text.contains(&format!("Page {} of {}", pages.len(), pages.len())));
}

#[test]
fn a_png_logo_replaces_the_wordmark_and_the_legal_footer_is_on_every_page() {
    let mut d = sample();
    d.letterhead.logo = Some(Logo {
        format: LogoFormat::Png,
        bytes: include_bytes!("fixtures/logo.png").to_vec(),
    });
    d.letterhead.footer_columns = legal_footer();
    d.sections.push(vec![item(2, "Second page", "1.00")]);
    let pdf = PdfEngine::shared().render_document(&d).unwrap();
    if let Ok(dir) = std::env::var("KONTOR_PDF_SAMPLE_DIR") {
        std::fs::write(format!("{dir}/sample-logo.pdf"), &pdf).unwrap();
    }
    let images = pdfimages_list(&pdf);
    assert!(
        images
            .lines()
            .any(|l| l.contains(" 48 ") && l.contains(" 16 ")),
        "the 48×16 logo is embedded:\n{images}"
    );
    let text = pdftotext(&pdf);
    let pages: Vec<&str> = text
        .split('\u{c}')
        .filter(|p| !p.trim().is_empty())
        .collect();
    assert_eq!(pages.len(), 2, "{text}");
    for page in &pages {
        for expected in [
            "VAT ID DE136695976",
            "IBAN DE02 1203 0000 0000 2020 51",
            "Tax number 37/123/45678",
            "10115 Berlin",
        ] {
            assert!(
                page.contains(expected),
                "{expected:?} missing on a page:\n{page}"
            );
        }
    }
    assert!(
        !text.contains("Kontor\n") && !text.lines().any(|l| l.trim() == "Kontor"),
        "no wordmark beside a logo:\n{text}"
    );
}

#[test]
fn an_svg_logo_is_drawn_and_blank_paper_prints_no_footer() {
    let mut d = sample();
    d.letterhead.logo = Some(Logo {
        format: LogoFormat::Svg,
        bytes: br##"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="40" viewBox="0 0 400 40"><rect width="40" height="40" fill="#1f4e79"/><text x="50" y="30" font-family="DejaVu Sans" font-size="28">SvgMark</text></svg>"##.to_vec(),
    });
    d.letterhead.footer_columns = legal_footer();
    let pdf = PdfEngine::shared().render_document(&d).unwrap();
    let text = pdftotext(&pdf);
    assert!(text.contains("SvgMark"), "SVG text drawn:\n{text}");
    assert!(text.contains("VAT ID DE136695976"));

    d.letterhead.show = false;
    let blank = pdftotext(&PdfEngine::shared().render_document(&d).unwrap());
    assert!(
        !blank.contains("SvgMark") && !blank.contains("DE136695976"),
        "{blank}"
    );
}

#[test]
fn german_labels_are_placed_as_given() {
    let mut d = sample();
    d.labels = Labels::of(Language::De);
    let text = pdftotext(&PdfEngine::shared().render(Template::Document, &d).unwrap());
    for expected in [
        "Pos.",
        "Beschreibung",
        "Menge",
        "Einzelpreis",
        "Gesamt",
        "Zwischensumme",
        "Seite 1 von 1",
    ] {
        assert!(text.contains(expected), "{expected:?} missing:\n{text}");
    }
    assert!(
        !text.contains("Unit price") && !text.contains("Page 1"),
        "{text}"
    );
}

#[test]
fn an_undecodable_logo_is_an_error_not_a_panic() {
    let mut d = sample();
    d.letterhead.logo = Some(Logo {
        format: LogoFormat::Png,
        bytes: b"not a png".to_vec(),
    });
    assert!(PdfEngine::shared().render_document(&d).is_err());
}

/// Issue 34: "PDFs never break an IBAN across lines". The payment line is written with
/// lead-ins of every length from 0 to 80 characters, so that for many of them the grouped
/// IBAN would reach the end of a line; each of the notes must keep it on one line.
#[test]
fn an_iban_is_never_broken_across_lines() {
    let iban = "DE02 1203 0000 0000 2020 51";
    let mut doc = sample();
    doc.notes = (0..=80)
        .map(|n| {
            format!(
                "{} Bitte überweisen Sie den Betrag auf das Konto IBAN {iban} (BIC BYLADEM1001).",
                "x".repeat(n)
            )
        })
        .collect();
    let pdf = PdfEngine::shared()
        .render(Template::Document, &doc)
        .unwrap();
    let text = pdftotext(&pdf);
    let whole = text.matches(iban).count();
    assert_eq!(whole, 81, "every IBAN on one line:\n{text}");
}
