//! The Swiss QR-bill's payment part and receipt as the document template prints them
//! (SIX *Swiss Implementation Guidelines for the QR-bill* v2.3, § 3): the QR code with
//! the Swiss cross as an SVG, and the texts already worded and formatted. The rules
//! (which invoices, references, addresses, the payload) are `kontor_model::qr_bill`'s.

use crate::words::Language;
use qrcode::{Color, EcLevel, QrCode};
use serde::Serialize;

/// The fixed words of the payment part and receipt (guidelines Annex D).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QrBillLabels {
    /// "Receipt" / "Empfangsschein".
    pub receipt: String,
    /// "Payment part" / "Zahlteil".
    pub payment_part: String,
    /// "Account / Payable to" / "Konto / Zahlbar an".
    pub account: String,
    /// "Reference" / "Referenz".
    pub reference: String,
    /// "Additional information" / "Zusätzliche Informationen".
    pub additional_information: String,
    /// "Payable by" / "Zahlbar durch".
    pub payable_by: String,
    /// "Payable by (name/address)" / "Zahlbar durch (Name/Adresse)" (no debtor: a box).
    pub payable_by_blank: String,
    /// "Currency" / "Währung".
    pub currency: String,
    /// "Amount" / "Betrag".
    pub amount: String,
    /// "Acceptance point" / "Annahmestelle".
    pub acceptance_point: String,
}

impl QrBillLabels {
    /// The words of `language` (Annex D: the official German and English wording).
    pub fn of(language: Language) -> Self {
        let w: [&str; 10] = match language {
            Language::De => [
                "Empfangsschein",
                "Zahlteil",
                "Konto / Zahlbar an",
                "Referenz",
                "Zusätzliche Informationen",
                "Zahlbar durch",
                "Zahlbar durch (Name/Adresse)",
                "Währung",
                "Betrag",
                "Annahmestelle",
            ],
            Language::En => [
                "Receipt",
                "Payment part",
                "Account / Payable to",
                "Reference",
                "Additional information",
                "Payable by",
                "Payable by (name/address)",
                "Currency",
                "Amount",
                "Acceptance point",
            ],
        };
        QrBillLabels {
            receipt: w[0].into(),
            payment_part: w[1].into(),
            account: w[2].into(),
            reference: w[3].into(),
            additional_information: w[4].into(),
            payable_by: w[5].into(),
            payable_by_blank: w[6].into(),
            currency: w[7].into(),
            amount: w[8].into(),
            acceptance_point: w[9].into(),
        }
    }
}

/// A QR-bill as printed: A6 landscape (210 × 105 mm) at the bottom of the document's
/// last page, or on a page of its own when the last page has no room.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QrBillData {
    /// The Swiss QR code with the Swiss cross, an SVG (see [`qr_svg`]), placed 46 × 46 mm.
    pub svg: String,
    /// The fixed words.
    pub labels: QrBillLabels,
    /// The IBAN grouped by four.
    pub account: String,
    /// The creditor's address lines.
    pub creditor_lines: Vec<String>,
    /// The reference as printed (grouped); empty for none.
    pub reference: String,
    /// The unstructured message; empty for none.
    pub additional_information: String,
    /// The debtor's address lines; empty prints a box to fill in by hand.
    pub debtor_lines: Vec<String>,
    /// `CHF` or `EUR`.
    pub currency: String,
    /// The amount as printed (`1 949.75`); empty prints a box.
    pub amount: String,
}

/// Why a QR code could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QrCodeError(pub String);

impl std::fmt::Display for QrCodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "QR code: {}", self.0)
    }
}

impl std::error::Error for QrCodeError {}

/// The Swiss QR code of `payload` as an SVG document: error correction level M
/// (guidelines § 5.2), no quiet zone (the layout keeps 5 mm around it), 46 × 46 mm, one
/// path of dark modules, and the Swiss cross (7 × 7 mm: a white square, a black one of
/// 6.2 mm and the white cross) in its middle (§ 5.4).
///
/// Errors: [`QrCodeError`] when the payload is too long for a QR code.
pub fn qr_svg(payload: &str) -> Result<String, QrCodeError> {
    let (n, path) = qr_path(payload)?;
    // Module units per millimetre: the code is 46 mm wide.
    let unit = n as f64 / 46.0;
    let mm = |v: f64| v * unit;
    let centre = n as f64 / 2.0;
    let square = |size_mm: f64, fill: &str| {
        let s = mm(size_mm);
        format!(
            r#"<rect x="{:.4}" y="{:.4}" width="{s:.4}" height="{s:.4}" fill="{fill}"/>"#,
            centre - s / 2.0,
            centre - s / 2.0
        )
    };
    let bar = |w_mm: f64, h_mm: f64| {
        let (w, h) = (mm(w_mm), mm(h_mm));
        format!(
            r#"<rect x="{:.4}" y="{:.4}" width="{w:.4}" height="{h:.4}" fill="white"/>"#,
            centre - w / 2.0,
            centre - h / 2.0
        )
    };
    Ok(format!(
        concat!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="46mm" height="46mm" viewBox="0 0 {n} {n}" shape-rendering="crispEdges">"#,
            r#"<rect width="{n}" height="{n}" fill="white"/><path d="{path}" fill="black"/>"#,
            "{white}{black}{cross_v}{cross_h}</svg>"
        ),
        n = n,
        path = path,
        white = square(7.0, "white"),
        black = square(6.2, "black"),
        cross_v = bar(1.2, 4.0),
        cross_h = bar(4.0, 1.2),
    ))
}

/// The QR code of `payload` at error correction level M (EPC069-12 § 3.3 and the Swiss
/// guidelines § 5.2 both ask for M): its width in modules and one SVG path of its dark
/// modules (one unit per module, no quiet zone).
///
/// Errors: [`QrCodeError`] when the payload is too long for a QR code.
fn qr_path(payload: &str) -> Result<(usize, String), QrCodeError> {
    let code = QrCode::with_error_correction_level(payload.as_bytes(), EcLevel::M)
        .map_err(|e| QrCodeError(e.to_string()))?;
    let n = code.width();
    let colors = code.to_colors();
    let mut path = String::with_capacity(n * n * 4);
    for y in 0..n {
        let row = &colors[y * n..(y + 1) * n];
        let mut x = 0;
        while x < n {
            if row[x] == Color::Dark {
                let start = x;
                while x < n && row[x] == Color::Dark {
                    x += 1;
                }
                path.push_str(&format!("M{start} {y}h{}v1h-{}z", x - start, x - start));
            } else {
                x += 1;
            }
        }
    }
    Ok((n, path))
}

/// A plain QR code of `payload` as an SVG document `size_mm` wide, with the quiet zone of
/// four modules the EPC guidelines ask for (the GiroCode, issue 32).
///
/// Errors: [`QrCodeError`] when the payload is too long for a QR code.
pub fn plain_qr_svg(payload: &str, size_mm: f64) -> Result<String, QrCodeError> {
    let (n, path) = qr_path(payload)?;
    let total = n + 8;
    Ok(format!(
        concat!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{size}mm" height="{size}mm" viewBox="-4 -4 {t} {t}" shape-rendering="crispEdges">"#,
            r#"<rect x="-4" y="-4" width="{t}" height="{t}" fill="white"/><path d="{path}" fill="black"/></svg>"#
        ),
        size = size_mm,
        t = total,
        path = path,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_svg_has_the_code_and_the_swiss_cross() {
        let svg = qr_svg("SPC\r\n0200\r\n1").unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains(r#"width="46mm""#));
        assert_eq!(svg.matches("<rect").count(), 5);
        assert!(qr_svg(&"x".repeat(5000)).is_err());
        assert_eq!(QrBillLabels::of(Language::De).payment_part, "Zahlteil");
        assert_eq!(QrBillLabels::of(Language::En).receipt, "Receipt");
    }
}
