//! PDF/A-3b with an attached file (the Factur-X container, issue 10): the attachment is
//! embedded as `factur-x.xml` with `/AFRelationship /Alternative` and listed in the
//! catalog's `/AF`; the XMP declares PDF/A-3b; poppler reads the text and the attachment.

mod support;

use kontor_pdf::document::{DocumentData, Letterhead, Logo, LogoFormat, Row, TotalLine};
use kontor_pdf::rich_text::blocks;
use kontor_pdf::{Attachment, PdfEngine, PdfError};
use std::process::Command;
use support::pdftotext;

fn poppler(tool: &str, args: &[&str], pdf: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!(
        "kontor-pdfa-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("doc.pdf");
    std::fs::write(&file, pdf).unwrap();
    let out = Command::new(tool)
        .args(args)
        .arg(&file)
        .current_dir(&dir)
        .output()
        .unwrap_or_else(|e| panic!("{tool} (poppler-utils) is installed: {e}"));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let extracted = std::fs::read(dir.join("factur-x.xml")).ok();
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        out.status.success(),
        "{tool} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    match extracted {
        Some(bytes) => String::from_utf8(bytes).unwrap(),
        None => text,
    }
}

fn invoice(title: &str) -> DocumentData {
    DocumentData {
        heading: "Invoice R2611-001".into(),
        subject: "Website work".into(),
        letterhead: Letterhead {
            logo: Some(Logo {
                format: LogoFormat::Svg,
                bytes: br##"<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40"><rect width="40" height="40" rx="6" fill="#1f4e79" fill-opacity="0.8"/></svg>"##.to_vec(),
            }),
            footer_columns: vec![vec!["Kontor Demo GmbH".into(), "USt-IdNr. DE136695976".into()]],
            // The wordmark "Kontor" is not printed: the logo replaces it.
            ..kontor_pdf::sample::letterhead()
        },
        recipient_lines: vec!["ACME GmbH".into(), "Main St 1".into()],
        meta: vec![("Invoice no.".into(), "R2611-001".into())],
        salutation: blocks("<p>Dear <b>customer</b>, <i>thank you</i>.</p>"),
        detail_columns: true,
        sections: vec![vec![Row {
            kind: "item".into(),
            pos: "1".into(),
            title: title.into(),
            quantity: "2".into(),
            unit: "h".into(),
            unit_price: "50.00".into(),
            net_total: "100.00".into(),
            ..Default::default()
        }]],
        totals: vec![TotalLine {
            label: "Gross total".into(),
            amount: "119.00 EUR".into(),
            strong: true,
        }],
        notes: vec!["Payable by 2026-11-17.".into()],
        ..Default::default()
    }
}

const XML: &[u8] = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rsm:CrossIndustryInvoice xmlns:rsm=\"urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100\"/>\n";

fn latin1(pdf: &[u8]) -> String {
    pdf.iter().map(|&b| b as char).collect()
}

#[test]
fn a_render_with_an_attachment_is_pdf_a_3b_with_factur_x_xml_attached() {
    let pdf = PdfEngine::shared()
        .render_document_pdfa3(&invoice("Concept"), &Attachment::factur_x(XML.to_vec()))
        .expect("renders as PDF/A-3b");
    let raw = latin1(&pdf);
    assert!(raw.starts_with("%PDF-1.7"), "PDF/A-3 is PDF 1.7");
    assert!(raw.contains("/AF["), "the catalog lists associated files");
    assert!(raw.contains("/AFRelationship/Alternative"));
    assert!(raw.contains("/Subtype/text#2Fxml"));
    assert!(raw.contains("(factur-x.xml)"));

    let meta = poppler("pdfinfo", &["-meta"], &pdf);
    assert!(meta.contains("<pdfaid:part>3</pdfaid:part>"), "{meta}");
    assert!(
        meta.contains("<pdfaid:conformance>B</pdfaid:conformance>"),
        "{meta}"
    );

    let list = poppler("pdfdetach", &["-list"], &pdf);
    assert!(
        list.contains("1 embedded files") && list.contains("factur-x.xml"),
        "{list}"
    );
    let saved = poppler("pdfdetach", &["-saveall"], &pdf);
    assert_eq!(
        saved.as_bytes(),
        XML,
        "the attachment comes back byte for byte"
    );

    let text = pdftotext(&pdf);
    assert!(
        text.contains("Invoice R2611-001") && text.contains("119.00 EUR"),
        "{text}"
    );
}

#[test]
fn the_plain_render_stays_without_attachment_or_pdf_a() {
    let pdf = PdfEngine::shared()
        .render_document(&invoice("Concept"))
        .unwrap();
    let raw = latin1(&pdf);
    assert!(!raw.contains("/AF["));
    assert!(!raw.contains("pdfaid"));
    assert!(!raw.contains("factur-x.xml"));
}

#[test]
fn characters_the_font_cannot_draw_do_not_break_pdf_a() {
    // DejaVu Sans has no CJK ideographs and no emoji: PDF/A forbids the .notdef glyph.
    let pdf = PdfEngine::shared()
        .render_document_pdfa3(
            &invoice("Übersetzung 株式会社 🚀 done"),
            &Attachment::factur_x(XML.to_vec()),
        )
        .expect("renders with the undrawable characters replaced");
    let text = pdftotext(&pdf);
    assert!(
        text.contains("Übersetzung") && text.contains("done"),
        "{text}"
    );
    assert!(!text.contains('株'), "{text}");
}

#[test]
fn an_attachment_name_outside_the_safe_set_is_refused() {
    let mut attachment = Attachment::factur_x(XML.to_vec());
    attachment.file_name = "../main.typ".into();
    let result = PdfEngine::shared().render_document_pdfa3(&invoice("Concept"), &attachment);
    assert!(matches!(result, Err(PdfError::Data(_))), "{result:?}");
}

#[test]
fn a_png_logo_is_allowed_in_pdf_a() {
    let mut data = invoice("Concept");
    data.letterhead.logo = Some(Logo {
        format: LogoFormat::Png,
        bytes: std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/logo.png"
        ))
        .unwrap(),
    });
    let pdf = PdfEngine::shared()
        .render_document_pdfa3(&data, &Attachment::factur_x(XML.to_vec()))
        .expect("a PNG (with alpha) is fine in PDF/A-3b");
    assert!(latin1(&pdf).contains("/AF["));
}
