//! The Swiss QR-bill (SIX Swiss Payment Standards, *Swiss Implementation Guidelines for
//! the QR-bill*, v2.3): which invoices get one, QR-IBAN detection, the QR reference (QRR)
//! and the creditor reference (SCOR, ISO 11649) derived from the invoice number,
//! structured addresses (type `S`) from Kontor's free-text addresses, and the QR code's
//! text (the "Swiss Payments Code" payload, guidelines § 4.3).
//!
//! Pure functions, shared by the server (the PDF's payment part) and its tests; the QR
//! code image and the layout are `kontor_pdf`'s. `docs/decisions.md` § Swiss QR-bill.

use crate::error::messages;
use crate::error::{push_error, FieldErrors};
use crate::sepa::is_valid_iban;
use rust_decimal::Decimal;

/// The currencies a QR-bill may carry (guidelines § 4.3.3, field `Ccy`).
pub const CURRENCIES: [&str; 2] = ["CHF", "EUR"];

/// The IBAN countries a QR-bill may carry (guidelines § 4.3.3, field `IBAN`):
/// Switzerland and Liechtenstein.
pub const IBAN_COUNTRIES: [&str; 2] = ["CH", "LI"];

/// The largest amount a QR-bill may carry: 999 999 999.99 (guidelines § 4.3.3, `Amt`).
pub fn max_amount() -> Decimal {
    Decimal::new(99_999_999_999, 2)
}

/// The most characters of the unstructured message (`Ustrd`, guidelines § 4.3.3).
pub const MAX_MESSAGE: usize = 140;

/// An IBAN without spaces, upper case.
fn compact(iban: &str) -> String {
    iban.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase()
}

/// Whether an invoice gets a QR-bill (issue 10 § Swiss QR-bill): it is numbered (drafts
/// are not payable yet), not a reversal, in CHF or EUR ([`CURRENCIES`]), and the
/// account's `iban` is a valid Swiss or Liechtenstein IBAN ([`IBAN_COUNTRIES`]).
pub fn applies(currency: &str, iban: Option<&str>, numbered: bool, reversal: bool) -> bool {
    let Some(iban) = iban.map(compact).filter(|i| !i.is_empty()) else {
        return false;
    };
    numbered
        && !reversal
        && CURRENCIES.contains(&currency.trim())
        && IBAN_COUNTRIES.contains(&&iban[..2.min(iban.len())])
        && is_valid_iban(&iban)
}

/// Whether `iban` (spaces ignored) is a QR-IBAN: a CH/LI IBAN whose institution
/// identification (IID, characters 5–9) lies in 30000–31999 (guidelines § 3.1). A
/// QR-IBAN requires a QR reference; other IBANs take a creditor reference or none.
pub fn is_qr_iban(iban: &str) -> bool {
    let iban = compact(iban);
    if iban.len() < 9 || !IBAN_COUNTRIES.contains(&&iban[..2]) {
        return false;
    }
    iban[4..9]
        .parse::<u32>()
        .is_ok_and(|iid| (30000..=31999).contains(&iid))
}

/// The check digit of the modulo-10 recursive method (guidelines Annex B, the ISR/QRR
/// check digit) over `digits`; `None` when `digits` holds anything but ASCII digits.
pub fn mod10_recursive(digits: &str) -> Option<u32> {
    const TABLE: [usize; 10] = [0, 9, 4, 6, 8, 2, 7, 1, 3, 5];
    let mut carry = 0usize;
    for c in digits.chars() {
        let d = c.to_digit(10)? as usize;
        carry = TABLE[(carry + d) % 10];
    }
    Some(((10 - carry) % 10) as u32)
}

/// The QR reference (QRR, 27 digits) of `invoice_number`: its digits in order,
/// left-padded with zeros to 26, followed by the [`mod10_recursive`] check digit
/// (`R2611-001` → `000000000000000000026110011`).
///
/// Errors: a message when the number has no digit or more than 26 digits.
pub fn qr_reference(invoice_number: &str) -> Result<String, crate::error::Message> {
    let digits: String = invoice_number
        .chars()
        .filter(|c| c.is_ascii_digit())
        .collect();
    if digits.is_empty() {
        return Err(crate::error::messages::QR_REFERENCE_NEEDS_DIGIT.into());
    }
    if digits.len() > 26 {
        return Err(crate::error::messages::QR_REFERENCE_TOO_MANY_DIGITS.into());
    }
    let body = format!("{digits:0>26}");
    let check = mod10_recursive(&body).ok_or(crate::error::messages::IS_NOT_NUMERIC)?;
    Ok(format!("{body}{check}"))
}

/// Whether `reference` (spaces ignored) is a QR reference: 27 digits whose last is the
/// [`mod10_recursive`] check digit of the first 26.
pub fn is_valid_qr_reference(reference: &str) -> bool {
    let r: String = reference.chars().filter(|c| !c.is_whitespace()).collect();
    r.len() == 27
        && r.chars().all(|c| c.is_ascii_digit())
        && mod10_recursive(&r[..26]) == r[26..].parse::<u32>().ok()
}

/// The creditor reference (ISO 11649) is the invoice's payment reference, one rule for
/// the QR-bill, the GiroCode, the PDF, the e-invoice and bank matching.
pub use crate::payment_reference::{
    is_valid as is_valid_creditor_reference, payment_reference as creditor_reference,
};

/// The reference of a QR-bill (field `Tp` and `Ref`, guidelines § 4.3.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reference {
    /// QR reference (27 digits) — only with a QR-IBAN.
    Qrr(String),
    /// Creditor reference (ISO 11649, `RF…`) — only with an ordinary IBAN.
    Scor(String),
    /// No reference — only with an ordinary IBAN.
    None,
}

impl Reference {
    /// The reference type code: `QRR`, `SCOR` or `NON`.
    pub fn code(&self) -> &'static str {
        match self {
            Reference::Qrr(_) => "QRR",
            Reference::Scor(_) => "SCOR",
            Reference::None => "NON",
        }
    }

    /// The reference as the payload carries it (empty for none).
    pub fn value(&self) -> &str {
        match self {
            Reference::Qrr(r) | Reference::Scor(r) => r,
            Reference::None => "",
        }
    }

    /// The reference as printed (guidelines § 3.6.2): a QR reference in blocks of five
    /// from the right (`21 00000 00003 13947 14300 09017`), a creditor reference in
    /// blocks of four from the left (`RF18 5390 0754 7034`); empty for none.
    pub fn printed(&self) -> String {
        match self {
            Reference::Qrr(r) => {
                let chars: Vec<char> = r.chars().collect();
                let head = chars.len() % 5;
                let mut groups: Vec<String> = Vec::new();
                if head > 0 {
                    groups.push(chars[..head].iter().collect());
                }
                groups.extend(chars[head..].chunks(5).map(|c| c.iter().collect()));
                groups.join(" ")
            }
            Reference::Scor(r) => group_by_four(r),
            Reference::None => String::new(),
        }
    }
}

/// `text` in blocks of four characters (IBANs, creditor references).
pub fn group_by_four(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    chars
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A structured address (type `S`, guidelines § 4.3.3; the only type from November
/// 2025 on): every field already cut to the permitted characters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QrAddress {
    /// Name or company (1–70 characters).
    pub name: String,
    /// Street or post office box (0–70 characters).
    pub street: String,
    /// Building number (0–16 characters).
    pub building_number: String,
    /// Post code (1–16 characters, without a country prefix).
    pub post_code: String,
    /// Town (1–35 characters).
    pub town: String,
    /// Country, ISO 3166-1 alpha-2.
    pub country: String,
}

impl QrAddress {
    /// The seven payload fields: `S`, name, street, building number, post code, town,
    /// country.
    fn fields(&self) -> [&str; 7] {
        [
            "S",
            &self.name,
            &self.street,
            &self.building_number,
            &self.post_code,
            &self.town,
            &self.country,
        ]
    }

    /// The address as printed on the payment part and receipt: name, street and
    /// building number (when a street is given), post code and town — with an `XX-`
    /// country prefix for addresses outside Switzerland and Liechtenstein.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![self.name.clone()];
        let street = [self.street.as_str(), self.building_number.as_str()]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        if !street.is_empty() {
            lines.push(street);
        }
        if IBAN_COUNTRIES.contains(&self.country.as_str()) {
            lines.push(format!("{} {}", self.post_code, self.town));
        } else {
            lines.push(format!("{}-{} {}", self.country, self.post_code, self.town));
        }
        lines
    }
}

/// Whether the QR-bill's character set (guidelines § 4.1.1: Basic Latin, Latin-1
/// Supplement, Latin Extended-A, `Ș ș Ț ț` and `€`) holds `c`.
pub fn is_permitted(c: char) -> bool {
    matches!(c as u32, 0x20..=0x7E | 0xA0..=0x17F | 0x218..=0x21B | 0x20AC)
}

/// `text` as a payload field: line breaks and tabs become spaces, other characters the
/// QR-bill cannot carry ([`is_permitted`]) become `.`, runs of spaces shrink to one,
/// trimmed.
pub fn clean_text(text: &str) -> String {
    let replaced: String = text
        .chars()
        .map(|c| {
            if c.is_whitespace() {
                ' '
            } else if is_permitted(c) {
                c
            } else {
                '.'
            }
        })
        .collect();
    replaced
        .split(' ')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The street and building number of an address line: a last word that starts with a
/// digit is the building number (`Bahnhofstrasse 12a`), else a first one (`12 Main
/// Street`, `1, rue du Lac`); else the whole line is the street.
pub fn split_street(line: &str) -> (String, String) {
    let line = clean_text(line);
    let words: Vec<&str> = line.split(' ').collect();
    let numeric = |w: &str| w.chars().next().is_some_and(|c| c.is_ascii_digit()) && w.len() <= 16;
    if words.len() >= 2 {
        if let Some(last) = words.last().filter(|w| numeric(w)) {
            return (words[..words.len() - 1].join(" "), last.to_string());
        }
        let first = words[0].trim_end_matches(',');
        if numeric(first) {
            return (words[1..].join(" "), first.to_string());
        }
    }
    (line, String::new())
}

/// The structured address of `name`, Kontor's free-text `address` (lines separated by
/// `\n`, without the name; split by [`crate::einvoice::split_address`]) and
/// `country` (ISO 3166-1 alpha-2). The street is the last line before the post code
/// line that has a building number, else the last such line; further lines are left
/// out (a type `S` address has no room for them).
///
/// Errors, keyed `<prefix>.name`, `<prefix>.address`, `<prefix>.country_code`: a blank
/// or too long (over 70 characters) name, an address without a `post code town` line,
/// a street over 70 or a town over 35 characters, a missing or unknown country code.
pub fn structured_address(
    prefix: &str,
    name: &str,
    address: &str,
    country: Option<&str>,
) -> Result<QrAddress, FieldErrors> {
    let mut errors = FieldErrors::new();
    let name = clean_text(name);
    if name.is_empty() {
        push_error(
            &mut errors,
            format!("{prefix}.name"),
            messages::IS_REQUIRED_FOR_QR_BILL,
        );
    } else if name.chars().count() > 70 {
        push_error(
            &mut errors,
            format!("{prefix}.name"),
            messages::QR_BILL_TOO_LONG,
        );
    }
    let parts = crate::einvoice::split_address(address);
    let (post_code, town) = match (parts.post_code, parts.city) {
        (Some(code), Some(city)) => (clean_text(&code), clean_text(&city)),
        _ => {
            push_error(
                &mut errors,
                format!("{prefix}.address"),
                messages::QR_BILL_NEEDS_TOWN_LINE,
            );
            (String::new(), String::new())
        }
    };
    let street_line = parts
        .lines
        .iter()
        .rev()
        .find(|l| !split_street(l).1.is_empty())
        .or(parts.lines.last());
    let (street, building_number) = street_line.map(|l| split_street(l)).unwrap_or_default();
    if street.chars().count() > 70 {
        push_error(
            &mut errors,
            format!("{prefix}.address"),
            messages::QR_BILL_STREET_TOO_LONG,
        );
    }
    if town.chars().count() > 35 || post_code.chars().count() > 16 {
        push_error(
            &mut errors,
            format!("{prefix}.address"),
            messages::QR_BILL_TOWN_TOO_LONG,
        );
    }
    let country = country
        .map(|c| c.trim().to_ascii_uppercase())
        .unwrap_or_default();
    if !crate::country::is_country_code(&country) {
        push_error(
            &mut errors,
            format!("{prefix}.country_code"),
            messages::IS_REQUIRED_FOR_QR_BILL,
        );
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(QrAddress {
        name,
        street,
        building_number,
        post_code,
        town,
        country,
    })
}

/// A QR-bill's content: what the payload and the printed payment part show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QrBill {
    /// The creditor's IBAN or QR-IBAN, compact and upper case.
    pub iban: String,
    /// The creditor (account holder).
    pub creditor: QrAddress,
    /// The amount in currency units with two decimals; `None` leaves it blank.
    pub amount: Option<Decimal>,
    /// `CHF` or `EUR`.
    pub currency: String,
    /// The ultimate debtor (the customer); `None` prints an empty box.
    pub debtor: Option<QrAddress>,
    /// The payment reference.
    pub reference: Reference,
    /// The unstructured message (`Ustrd`, at most 140 characters).
    pub message: String,
}

/// The amount as the payload carries it: two decimals, full stop, no grouping
/// (`1949.75`).
pub fn payload_amount(amount: Decimal) -> String {
    format!("{:.2}", amount.round_dp(2))
}

/// The amount as printed on the payment part (guidelines § 3.5.5): two decimals, full
/// stop, thousands grouped by a space (`1 949.75`).
pub fn printed_amount(amount: Decimal) -> String {
    let text = payload_amount(amount);
    let (int, frac) = text.split_once('.').unwrap_or((&text, "00"));
    let (sign, digits) = match int.strip_prefix('-') {
        Some(d) => ("-", d),
        None => ("", int),
    };
    let chars: Vec<char> = digits.chars().collect();
    let head = chars.len() % 3;
    let mut groups: Vec<String> = Vec::new();
    if head > 0 {
        groups.push(chars[..head].iter().collect());
    }
    groups.extend(chars[head..].chunks(3).map(|c| c.iter().collect()));
    format!("{sign}{}.{frac}", groups.join(" "))
}

impl QrBill {
    /// The QR code's text (guidelines § 4.3.3, version 0200, coding 1): the fields in
    /// their order separated by CR LF (as the `qrbill` package writes it), the ultimate
    /// creditor empty, ending with the trailer `EPD` (no billing information, no
    /// alternative procedures, no line break after `EPD`).
    pub fn payload(&self) -> String {
        let amount = self.amount.map(payload_amount).unwrap_or_default();
        let mut fields: Vec<&str> = vec!["SPC", "0200", "1", &self.iban];
        fields.extend(self.creditor.fields());
        fields.extend([""; 7]);
        fields.push(&amount);
        fields.push(&self.currency);
        match &self.debtor {
            Some(d) => fields.extend(d.fields()),
            None => fields.extend([""; 7]),
        }
        fields.push(self.reference.code());
        fields.push(self.reference.value());
        fields.push(&self.message);
        fields.push("EPD");
        fields.join("\r\n")
    }
}

/// What an invoice's QR-bill is built from.
#[derive(Clone, Debug, Default)]
pub struct QrBillInput<'a> {
    /// The account's IBAN (`account.iban`).
    pub iban: &'a str,
    /// The invoice currency.
    pub currency: &'a str,
    /// The amount due (the invoice's gross total, currency units).
    pub amount: Decimal,
    /// The invoice number (`identifier`): the reference is derived from it.
    pub invoice_number: &'a str,
    /// Creditor name (the account holder, else the account name).
    pub creditor_name: &'a str,
    /// Creditor address (the account's address lines).
    pub creditor_address: &'a str,
    /// Creditor country (the account's country code).
    pub creditor_country: Option<&'a str>,
    /// Debtor name (the customer company).
    pub debtor_name: &'a str,
    /// Debtor address.
    pub debtor_address: &'a str,
    /// Debtor country.
    pub debtor_country: Option<&'a str>,
    /// The unstructured message, e.g. `Rechnung R2611-001`.
    pub message: &'a str,
}

/// The QR-bill of an invoice: a QR-IBAN takes the [`qr_reference`] of the invoice
/// number, another IBAN its [`creditor_reference`] (or none); the debtor is left out
/// (an empty box is printed) when the customer's address cannot be structured; the
/// message is cut to 140 characters.
///
/// Errors, keyed by field: `account.iban` (not a valid CH/LI IBAN), `currency` (not
/// CHF/EUR), `gross_total` (not 0.01–999 999 999.99), `identifier` (no digits for a
/// QR reference), `account.name` / `account.address` / `account.country_code` (see
/// [`structured_address`]).
pub fn qr_bill(input: &QrBillInput<'_>) -> Result<QrBill, FieldErrors> {
    let mut errors = FieldErrors::new();
    let iban = compact(input.iban);
    if !is_valid_iban(&iban) || !IBAN_COUNTRIES.contains(&&iban[..2.min(iban.len())]) {
        push_error(
            &mut errors,
            "account.iban",
            messages::QR_BILL_NEEDS_SWISS_IBAN,
        );
    }
    let currency = input.currency.trim().to_ascii_uppercase();
    if !CURRENCIES.contains(&currency.as_str()) {
        push_error(&mut errors, "currency", messages::QR_BILL_NEEDS_CHF_OR_EUR);
    }
    let amount = input.amount.round_dp(2);
    if amount < Decimal::new(1, 2) || amount > max_amount() {
        push_error(
            &mut errors,
            "gross_total",
            messages::QR_BILL_AMOUNT_OUT_OF_RANGE,
        );
    }
    let reference = if is_qr_iban(&iban) {
        match qr_reference(input.invoice_number) {
            Ok(r) => Reference::Qrr(r),
            Err(message) => {
                push_error(&mut errors, "identifier", message);
                Reference::None
            }
        }
    } else {
        creditor_reference(input.invoice_number).map_or(Reference::None, Reference::Scor)
    };
    let creditor = match structured_address(
        "account",
        input.creditor_name,
        input.creditor_address,
        input.creditor_country,
    ) {
        Ok(a) => Some(a),
        Err(e) => {
            for (field, messages) in e {
                errors.entry(field).or_default().extend(messages);
            }
            None
        }
    };
    let debtor = structured_address(
        "customer",
        input.debtor_name,
        input.debtor_address,
        input.debtor_country,
    )
    .ok();
    match creditor {
        Some(creditor) if errors.is_empty() => Ok(QrBill {
            iban,
            creditor,
            amount: Some(amount),
            currency,
            debtor,
            reference,
            message: clean_text(input.message)
                .chars()
                .take(MAX_MESSAGE)
                .collect(),
        }),
        _ => Err(errors),
    }
}

#[cfg(test)]
mod tests;
