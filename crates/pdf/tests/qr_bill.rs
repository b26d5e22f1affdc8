//! The Swiss QR-bill's payment part and receipt in a rendered document: its words, the
//! page it lands on (the last page, or a page of its own), read back with `pdftotext`
//! (poppler-utils). Decoding the QR code itself is tested in the server
//! (`crates/server/tests/qr_bill.rs`), where the payload comes from the model.

mod support;

use kontor_pdf::document::{DocumentData, Labels, Letterhead, Row, TotalLine};
use kontor_pdf::qr_bill::{qr_svg, QrBillData, QrBillLabels};
use kontor_pdf::words::Language;
use kontor_pdf::PdfEngine;
use support::pdftotext;

fn bill(language: Language, debtor: bool) -> QrBillData {
    let payload = "SPC\r\n0200\r\n1\r\nCH4431999123000889012\r\nS\r\nRobert Schneider AG\r\nRue du Lac\r\n1268\r\n2501\r\nBiel\r\nCH\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n1949.75\r\nCHF\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\nQRR\r\n210000000003139471430009017\r\nInvoice R2611-001\r\nEPD";
    QrBillData {
        svg: qr_svg(payload).unwrap(),
        labels: QrBillLabels::of(language),
        account: "CH44 3199 9123 0008 8901 2".into(),
        creditor_lines: vec![
            "Robert Schneider AG".into(),
            "Rue du Lac 1268".into(),
            "2501 Biel".into(),
        ],
        reference: "21 00000 00003 13947 14300 09017".into(),
        additional_information: "Invoice R2611-001".into(),
        debtor_lines: if debtor {
            vec![
                "Pia-Maria Rutschmann-Schnyder".into(),
                "Grosse Marktgasse 28".into(),
                "9400 Rorschach".into(),
            ]
        } else {
            Vec::new()
        },
        currency: "CHF".into(),
        amount: "1 949.75".into(),
    }
}

fn document(language: Language, items: usize, debtor: bool) -> DocumentData {
    DocumentData {
        heading: "Invoice R2611-001".into(),
        subject: "Website work".into(),
        letterhead: Letterhead {
            show: true,
            name: "Robert Schneider AG".into(),
            address_lines: vec!["Rue du Lac 1268".into(), "2501 Biel".into()],
            return_line: "Robert Schneider AG · Rue du Lac 1268 · 2501 Biel".into(),
            logo_text: "Schneider".into(),
            footer_columns: vec![
                vec![
                    "Robert Schneider AG".into(),
                    "Rue du Lac 1268".into(),
                    "2501 Biel".into(),
                ],
                vec!["VAT ID CHE-123.456.789".into()],
                vec!["IBAN CH44 3199 9123 0008 8901 2".into()],
            ],
            ..Default::default()
        },
        recipient_lines: vec![
            "Pia-Maria Rutschmann-Schnyder".into(),
            "Grosse Marktgasse 28".into(),
            "9400 Rorschach".into(),
        ],
        meta: vec![("Invoice no.".into(), "R2611-001".into())],
        detail_columns: true,
        sections: vec![(1..=items)
            .map(|i| Row {
                kind: "item".into(),
                pos: i.to_string(),
                title: format!("Work package {i}"),
                quantity: "1".into(),
                unit: "h".into(),
                unit_price: "10.00".into(),
                net_total: "10.00".into(),
                ..Default::default()
            })
            .collect()],
        totals: vec![TotalLine {
            label: "Gross total".into(),
            amount: "1,949.75 CHF".into(),
            strong: true,
        }],
        notes: vec!["Please pay within 30 days.".into()],
        labels: Labels::of(language),
        qr_bill: Some(bill(language, debtor)),
        approval: None,
        girocode: None,
        ..Default::default()
    }
}

fn pages(text: &str) -> usize {
    text.split('\u{c}').filter(|p| !p.trim().is_empty()).count()
}

fn save(name: &str, pdf: &[u8]) {
    if let Ok(dir) = std::env::var("KONTOR_PDF_SAMPLE_DIR") {
        std::fs::write(format!("{dir}/{name}.pdf"), pdf).unwrap();
    }
}

#[test]
fn a_short_invoice_carries_the_bill_on_its_only_page() {
    let pdf = PdfEngine::shared()
        .render_document(&document(Language::En, 3, true))
        .unwrap();
    save("qr-bill-en", &pdf);
    let text = pdftotext(&pdf);
    assert_eq!(pages(&text), 1, "{text}");
    for expected in [
        "Receipt",
        "Payment part",
        "Account / Payable to",
        "CH44 3199 9123 0008 8901 2",
        "21 00000 00003 13947 14300 09017",
        "Additional information",
        "Invoice R2611-001",
        "Payable by",
        "Currency",
        "Amount",
        "1 949.75",
        "Acceptance point",
        "Page 1 of 1",
        "VAT ID CHE-123.456.789",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    // The bill is below the invoice text: the footer and the bill come last.
    assert!(text.find("Please pay").unwrap() < text.find("Payment part").unwrap());
}

#[test]
fn a_full_last_page_puts_the_bill_on_a_page_of_its_own() {
    let pdf = PdfEngine::shared()
        .render_document(&document(Language::De, 20, false))
        .unwrap();
    save("qr-bill-de-own-page", &pdf);
    let text = pdftotext(&pdf);
    let pages_text: Vec<&str> = text.split('\u{c}').collect();
    assert_eq!(pages(&text), 2, "{text}");
    assert!(pages_text[0].contains("Work package 20"));
    assert!(!pages_text[0].contains("Zahlteil"));
    assert!(pages_text[0].contains("Seite 1 von 2"));
    for expected in [
        "Empfangsschein",
        "Zahlteil",
        "Konto / Zahlbar an",
        "Zahlbar durch (Name/Adresse)",
        "Währung",
        "Betrag",
        "Annahmestelle",
        "Seite 2 von 2",
    ] {
        assert!(
            pages_text[1].contains(expected),
            "missing {expected:?} in\n{text}"
        );
    }
}

#[test]
fn documents_without_a_bill_keep_their_footer_on_the_last_page() {
    let mut d = document(Language::En, 3, true);
    d.qr_bill = None;
    let text = pdftotext(&PdfEngine::shared().render_document(&d).unwrap());
    assert!(text.contains("Page 1 of 1"));
    assert!(!text.contains("Payment part"));
}
