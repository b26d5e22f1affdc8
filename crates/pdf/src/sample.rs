//! Sample document data for tests, examples and benchmarks (kontor-pdf's own and the
//! crates that render through it): a fixed sender, fixed positions, no I/O. Nothing in
//! the server's document path uses it.

use crate::document::{DocumentData, Letterhead, Logo, LogoFormat, Row, TotalLine};
use crate::rich_text::blocks;

/// The sample sender's letterhead: "Kontor Demo GmbH", Hauptstraße 1, 10115 Berlin, a
/// footer line with an IBAN and the wordmark "Kontor"; no logo image, no legal footer.
pub fn letterhead() -> Letterhead {
    Letterhead {
        show: true,
        name: "Kontor Demo GmbH".into(),
        address_lines: vec!["Hauptstraße 1".into(), "10115 Berlin".into()],
        return_line: "Kontor Demo GmbH · Hauptstraße 1 · 10115 Berlin".into(),
        footer_line: "IBAN DE89 3704 0044 0532 0130 00".into(),
        logo_text: "Kontor".into(),
        ..Default::default()
    }
}

/// `positions` item rows "Development work, package n" (n = 1, 2, …), each 2.5 h at
/// 95.00 = 237.50 (formatted strings, no currency).
pub fn item_rows(positions: usize) -> Vec<Row> {
    (1..=positions)
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
        .collect()
}

/// The benchmark invoice "R2611-001" in English: [`letterhead`] with an SVG logo and a
/// four-column legal footer, [`item_rows`]`(positions)` in one section, the net total
/// (237.50 EUR per position) and a note. 8 positions fit on one page.
pub fn bench_invoice(positions: usize) -> DocumentData {
    // u128: 23,750 cents times any usize cannot overflow.
    let cents = 23_750u128 * positions as u128;
    DocumentData {
        heading: "Invoice R2611-001".into(),
        subject: "Website relaunch".into(),
        letterhead: Letterhead {
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
            ..letterhead()
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
        sections: vec![item_rows(positions)],
        totals: vec![
            TotalLine {
                label: "Net total".into(),
                amount: format!("{}.{:02} EUR", cents / 100, cents % 100),
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
