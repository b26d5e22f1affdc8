//! The small XML text builder and the number/date formats both writers ([`crate::cii`],
//! [`crate::ubl`]) share. Text is escaped with `quick_xml::escape`; elements are indented
//! by two spaces per level (insignificant whitespace; mixed content is never written).

use chrono::NaiveDate;
use rust_decimal::Decimal;

use crate::Error;

/// An XML document being written: an in-memory buffer and the stack of open elements.
pub(crate) struct Doc {
    buf: String,
    open: Vec<&'static str>,
}

impl Doc {
    /// Starts a document with the XML declaration (UTF-8).
    pub(crate) fn new() -> Self {
        Doc {
            buf: String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"),
            open: Vec::new(),
        }
    }

    fn indent(&mut self) {
        for _ in 0..self.open.len() {
            self.buf.push_str("  ");
        }
    }

    fn start_tag(&mut self, name: &str, attrs: &[(&str, &str)]) {
        self.indent();
        self.buf.push('<');
        self.buf.push_str(name);
        for (key, value) in attrs {
            self.buf.push(' ');
            self.buf.push_str(key);
            self.buf.push_str("=\"");
            self.buf.push_str(&escape(value));
            self.buf.push('"');
        }
    }

    /// Opens `<name attrs…>`; close it with [`Doc::close`].
    pub(crate) fn open_with(&mut self, name: &'static str, attrs: &[(&str, &str)]) {
        self.start_tag(name, attrs);
        self.buf.push_str(">\n");
        self.open.push(name);
    }

    /// Opens `<name>`.
    pub(crate) fn open(&mut self, name: &'static str) {
        self.open_with(name, &[]);
    }

    /// Closes the innermost open element.
    pub(crate) fn close(&mut self) {
        if let Some(name) = self.open.pop() {
            self.indent();
            self.buf.push_str("</");
            self.buf.push_str(name);
            self.buf.push_str(">\n");
        }
    }

    /// Writes `<name attrs…>text</name>`.
    pub(crate) fn leaf_with(&mut self, name: &str, attrs: &[(&str, &str)], text: &str) {
        self.start_tag(name, attrs);
        self.buf.push('>');
        self.buf.push_str(&escape(text));
        self.buf.push_str("</");
        self.buf.push_str(name);
        self.buf.push_str(">\n");
    }

    /// Writes `<name>text</name>`.
    pub(crate) fn leaf(&mut self, name: &str, text: &str) {
        self.leaf_with(name, &[], text);
    }

    /// Writes `<name>text</name>` when `text` is `Some` and not blank.
    pub(crate) fn leaf_opt(&mut self, name: &str, text: Option<&str>) {
        if let Some(text) = present(text) {
            self.leaf(name, text);
        }
    }

    /// Writes an empty element `<name/>`.
    pub(crate) fn empty(&mut self, name: &str) {
        self.start_tag(name, &[]);
        self.buf.push_str("/>\n");
    }

    /// The finished document (closes whatever is still open).
    pub(crate) fn finish(mut self) -> Vec<u8> {
        while !self.open.is_empty() {
            self.close();
        }
        self.buf.into_bytes()
    }
}

/// `Some(text)` when the text is present and not only whitespace.
pub(crate) fn present(text: Option<&str>) -> Option<&str> {
    text.filter(|t| !t.trim().is_empty())
}

/// Escapes `& < > " '` and keeps a carriage return as `&#xD;` (a parser would otherwise
/// turn `\r\n` into `\n`, and BT-20 is written exactly as given).
fn escape(text: &str) -> String {
    quick_xml::escape::escape(text).replace('\r', "&#xD;")
}

/// An amount in currency units with exactly two decimals (`1234.50`), as EN 16931
/// BR-DEC-* allow at most two. Errors (naming the business term `bt`) when the value has
/// more than two decimals: the writers compute nothing and never round silently.
pub(crate) fn amount(value: Decimal, bt: &str) -> Result<String, Error> {
    if value.round_dp(2) != value {
        return Err(Error::Write(format!(
            "{bt}: amount {value} has more than two decimals"
        )));
    }
    Ok(format!("{value:.2}"))
}

/// A quantity (BT-129) or unit price (BT-146) exactly as given, plain decimal notation
/// without exponent (`rust_decimal` never writes one).
pub(crate) fn plain(value: Decimal) -> String {
    value.to_string()
}

/// A percentage (VAT rate, allowance percent) without trailing zeros (`19`, `7`, `2.5`).
pub(crate) fn percent(value: Decimal) -> String {
    value.normalize().to_string()
}

/// A date in UN/CEFACT format 102 (`20250131`), for CII.
pub(crate) fn date_102(date: NaiveDate) -> String {
    date.format("%Y%m%d").to_string()
}

/// A date as `xsd:date` (`2025-01-31`), for UBL.
pub(crate) fn date_iso(date: NaiveDate) -> String {
    date.format("%Y-%m-%d").to_string()
}

/// A small two-rate invoice (19 % and 7 %, one allowance) for the writers' unit tests.
#[cfg(test)]
pub(crate) fn sample_invoice() -> crate::semantic::Invoice {
    use crate::semantic::*;
    use std::str::FromStr;
    let dec = |s: &str| Decimal::from_str(s).unwrap();
    let day = |d: u32| NaiveDate::from_ymd_opt(2026, 11, d).unwrap();
    let party = |name: &str, vat: &str| Party {
        name: name.to_string(),
        vat_identifier: Some(vat.to_string()),
        electronic_address: Some(ElectronicAddress {
            value: "x@example.com".into(),
            scheme: "EM".into(),
        }),
        address: Address {
            lines: vec!["Weg 1".into()],
            city: Some("Berlin".into()),
            post_code: Some("10115".into()),
            subdivision: None,
            country_code: "DE".into(),
        },
        ..Party::default()
    };
    let line = |id: &str, qty: &str, price: &str, net: &str, rate: &str| Line {
        id: id.into(),
        note: None,
        quantity: dec(qty),
        unit_code: "HUR".into(),
        net_amount: dec(net),
        price: dec(price),
        name: format!("Item {id}"),
        description: None,
        category: VatCategory::Standard,
        rate: dec(rate),
        period: None,
    };
    Invoice {
        specification: Specification::XRechnung,
        number: "RE-7 <&>".into(),
        issue_date: day(20),
        type_code: TypeCode::Invoice,
        currency: "EUR".into(),
        due_date: Some(day(30)),
        buyer_reference: Some("LEITWEG-1".into()),
        order_reference: None,
        notes: vec![],
        preceding_invoice: None,
        seller: party("Seller GmbH", "DE123456789"),
        buyer: party("Buyer AG", "DE987654321"),
        delivery_date: Some(day(20)),
        period: None,
        delivery_country: None,
        payment_means: Some(PaymentMeans::CreditTransfer {
            iban: "DE02120300000000202051".into(),
            account_name: None,
            bic: None,
        }),
        remittance_information: None,
        payment_terms: Some("#SKONTO#TAGE=14#PROZENT=2.00#\n".into()),
        allowances: vec![AllowanceCharge {
            amount: dec("10"),
            base_amount: None,
            percent: None,
            category: VatCategory::Standard,
            rate: dec("19"),
            reason: Some("Rabatt".into()),
            reason_code: None,
        }],
        charges: vec![],
        lines: vec![
            line("1", "1.5", "0.333333", "0.5", "19"),
            line("2", "2", "50", "100", "7"),
        ],
        vat_breakdown: vec![
            VatBreakdown {
                category: VatCategory::Standard,
                rate: dec("19"),
                taxable_amount: dec("-9.5"),
                tax_amount: dec("-1.81"),
                exemption_reason: None,
                exemption_reason_code: None,
            },
            VatBreakdown {
                category: VatCategory::Standard,
                rate: dec("7"),
                taxable_amount: dec("100"),
                tax_amount: dec("7"),
                exemption_reason: None,
                exemption_reason_code: None,
            },
        ],
        totals: crate::semantic::Totals {
            line_net_total: dec("100.5"),
            allowance_total: dec("10"),
            charge_total: dec("0"),
            tax_exclusive: dec("90.5"),
            tax_total: dec("5.19"),
            tax_inclusive: dec("95.69"),
            prepaid: dec("0"),
            rounding: dec("0"),
            payable: dec("95.69"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn amounts_have_two_decimals_and_refuse_more() {
        assert_eq!(amount(dec("5"), "BT-112").unwrap(), "5.00");
        assert_eq!(amount(dec("-1.5"), "BT-131").unwrap(), "-1.50");
        assert_eq!(amount(dec("1.230"), "BT-131").unwrap(), "1.23");
        assert!(amount(dec("1.234"), "BT-131").is_err());
    }

    #[test]
    fn prices_and_quantities_as_given_without_exponent() {
        assert_eq!(plain(dec("0.00000001")), "0.00000001");
        assert_eq!(plain(dec("1.5000")), "1.5000");
        assert_eq!(percent(dec("19.00")), "19");
        assert_eq!(percent(dec("0")), "0");
    }

    #[test]
    fn escapes_text_and_keeps_carriage_returns() {
        let mut doc = Doc::new();
        doc.open("a");
        doc.leaf_with("b", &[("x", "\"q\"")], "<&>\r\n");
        let text = String::from_utf8(doc.finish()).unwrap();
        assert!(text.contains("<b x=\"&quot;q&quot;\">&lt;&amp;&gt;&#xD;\n</b>"));
        assert!(text.ends_with("</a>\n"));
    }
}
