//! E-invoice rules both sides apply (issue 10; `docs/einvoice.md`): the UN/ECE Rec. 20
//! unit codes of positions, the postal address parts of Kontor's free-text addresses, the
//! XRechnung cash discount line, the default buyer reference, and *readiness* — which data
//! an invoice still lacks to be written as an EN 16931 e-invoice (Factur-X) or as an
//! XRechnung, and where a person sets it.
//!
//! Pure functions, no I/O; the app calls [`missing`] before finalizing and the server
//! calls it before writing XML or embedding it in the PDF.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

mod syntax;
pub use syntax::Syntax;

/// The UN/ECE Recommendation 20 code (BT-130) of a position's free-text `unit`.
///
/// Case-insensitive, trailing dots ignored; German and English spellings: `h`, `Std.`,
/// `hours` → `HUR`; `day`, `Tag`, `PT` → `DAY`; `pcs`, `Stk.`, `Stück` → `H87`; `month`,
/// `Monat` → `MON`; `week` → `WEE`; `year`, `Jahr` → `ANN`; `min` → `MIN`; `km` → `KMT`;
/// `m` → `MTR`; `m²`/`qm` → `MTK`; `m³` → `MTQ`; `kg` → `KGM`; `g` → `GRM`; `t` → `TNE`;
/// `l` → `LTR`; `pauschal`/`flat rate`/`lump sum` → `LS`; `kWh` → `KWH`. Anything else, and
/// no unit, is `C62` ("one"). Never fails.
pub fn unit_code(unit: Option<&str>) -> &'static str {
    let Some(unit) = unit else { return "C62" };
    let key = unit.trim().trim_end_matches('.').to_lowercase();
    match key.as_str() {
        "h" | "hr" | "hrs" | "hour" | "hours" | "std" | "stunde" | "stunden" | "stunde(n)" => "HUR",
        "d" | "day" | "days" | "tag" | "tage" | "tag(e)" | "pt" | "personentag"
        | "personentage" | "manday" | "man-day" | "man-days" => "DAY",
        "pcs" | "pc" | "piece" | "pieces" | "stk" | "stück" | "st" | "ea" | "each" => "H87",
        "month" | "months" | "monat" | "monate" | "mon" | "mo" => "MON",
        "week" | "weeks" | "woche" | "wochen" | "wk" => "WEE",
        "year" | "years" | "jahr" | "jahre" | "yr" | "a" => "ANN",
        "min" | "minute" | "minutes" | "minuten" => "MIN",
        "km" => "KMT",
        "m" | "meter" | "metre" | "meters" | "metres" => "MTR",
        "m²" | "m2" | "qm" | "sqm" => "MTK",
        "m³" | "m3" | "cbm" => "MTQ",
        "kg" => "KGM",
        "g" => "GRM",
        "t" | "tonne" | "tonnen" => "TNE",
        "l" | "liter" | "litre" | "liters" | "litres" => "LTR",
        "pauschal" | "pauschale" | "psch" | "flat rate" | "flat" | "lump sum" | "ls" => "LS",
        "kwh" => "KWH",
        _ => "C62",
    }
}

/// A free-text postal address split into the parts EN 16931 and the QR-bill need.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PostalAddress {
    /// The lines before the post code line (street first), at most three, trimmed,
    /// empty lines dropped.
    pub lines: Vec<String>,
    /// The post code (`10115`, `8000`, `SW1A 1AA` is not recognised and stays a line).
    pub post_code: Option<String>,
    /// The city after the post code.
    pub city: Option<String>,
}

/// Splits Kontor's free-text `address` (lines separated by `\n`, without the name) into
/// street lines, post code and city: the last line that starts with a token containing a
/// digit followed by a space and more text (`10115 Berlin`, `CH-8000 Zürich`, `D-80331
/// München`) gives post code and city (a leading `XX-` country prefix is dropped); the
/// lines before it are the street lines (at most three, the rest joined into the third).
/// An address without such a line keeps every line and has no post code and city.
pub fn split_address(address: &str) -> PostalAddress {
    let lines: Vec<&str> = address
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let city_line = lines
        .iter()
        .rposition(|line| post_code_and_city(line).is_some());
    let (street, post_code, city) = match city_line {
        Some(i) => {
            let (code, city) = post_code_and_city(lines[i]).unwrap_or_default();
            (&lines[..i], Some(code), Some(city))
        }
        None => (&lines[..], None, None),
    };
    let mut out: Vec<String> = street.iter().take(2).map(|s| s.to_string()).collect();
    if street.len() > 2 {
        out.push(street[2..].join(", "));
    }
    PostalAddress {
        lines: out,
        post_code,
        city,
    }
}

/// `("10115", "Berlin")` from `10115 Berlin`, `("8000", "Zürich")` from `CH-8000 Zürich`,
/// `("1015 CJ", "Amsterdam")` from `1015 CJ Amsterdam`, `("NW1 6XE", "London")` from
/// `London NW1 6XE` (British codes follow the town). A code of digits only needs at least
/// four of them, so a house number (`221 Baker Street`) is not taken for one.
fn post_code_and_city(line: &str) -> Option<(String, String)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < 2 {
        return None;
    }
    // British: `<town> <outward> <inward>`, e.g. `London NW1 6XE`.
    if words.len() >= 3 {
        let (outward, inward) = (words[words.len() - 2], words[words.len() - 1]);
        let outward_ok = (2..=4).contains(&outward.len())
            && outward.chars().all(|c| c.is_ascii_alphanumeric())
            && outward.starts_with(|c: char| c.is_ascii_alphabetic())
            && outward.chars().any(|c| c.is_ascii_digit());
        let inward_ok = inward.len() == 3
            && inward.starts_with(|c: char| c.is_ascii_digit())
            && inward[1..].chars().all(|c| c.is_ascii_alphabetic());
        if outward_ok && inward_ok {
            let town = words[..words.len() - 2].join(" ");
            return Some((format!("{outward} {inward}"), town));
        }
    }
    let first = match words[0].split_once('-') {
        Some((prefix, rest))
            if prefix.len() <= 2 && prefix.chars().all(|c| c.is_ascii_alphabetic()) =>
        {
            rest
        }
        _ => words[0],
    };
    let digits = first.chars().filter(|c| c.is_ascii_digit()).count();
    if !(3..=10).contains(&first.len()) || !first.chars().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    // Dutch: `1015 CJ Amsterdam`.
    if first.len() == 4 && digits == 4 && words.len() >= 3 {
        let letters = words[1];
        if letters.len() == 2 && letters.chars().all(|c| c.is_ascii_uppercase()) {
            return Some((format!("{first} {letters}"), words[2..].join(" ")));
        }
    }
    let only_digits = digits == first.len();
    if (only_digits && digits < 4) || digits < 3 {
        return None;
    }
    Some((first.to_string(), words[1..].join(" ")))
}

/// The XRechnung cash discount line of BT-20 (BR-DE-18):
/// `#SKONTO#TAGE=14#PROZENT=2.00#` — `days` whole days, `percent` with two decimals;
/// `None` when there is no cash discount (`percent` 0 or `days` 0).
pub fn cash_discount_line(percent: Decimal, days: i64) -> Option<String> {
    if percent <= Decimal::ZERO || days <= 0 {
        return None;
    }
    let mut p = percent.round_dp(2);
    p.rescale(2);
    Some(format!("#SKONTO#TAGE={days}#PROZENT={p}#"))
}

/// BT-10 buyer reference: the invoice's, else the customer's, else the customer's id as
/// text (issue 10: every B2B invoice has one). Blank texts count as absent.
pub fn buyer_reference(invoice: Option<&str>, customer: Option<&str>, customer_id: i64) -> String {
    [invoice, customer]
        .into_iter()
        .flatten()
        .map(str::trim)
        .find(|s| !s.is_empty())
        .map(str::to_string)
        .unwrap_or_else(|| customer_id.to_string())
}

/// How strict the check is: plain EN 16931 (the Factur-X profile EN 16931) or the
/// XRechnung 3.0 CIUS (which also wants the seller's contact, post codes and cities, and
/// payment instructions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// EN 16931 core rules.
    En16931,
    /// XRechnung 3.0 (a superset).
    XRechnung,
}

/// Where a person sets a missing field in the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Place {
    /// Settings › account (`/settings`).
    Settings,
    /// The customer company's form.
    Customer,
    /// The invoice itself.
    Invoice,
}

/// One missing piece of data: `{"field": "account.vat_identifier", "message": "...",
/// "where": "settings"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MissingField {
    /// Dotted path: `account.*`, `customer.*` or `invoice.*`.
    pub field: String,
    /// What is missing and why, in English.
    pub message: String,
    /// Where it is set.
    #[serde(rename = "where")]
    pub place: Place,
}

/// What the readiness check reads of the seller (the account settings).
#[derive(Clone, Copy, Debug, Default)]
pub struct SellerData<'a> {
    /// Account name (BT-27).
    pub name: &'a str,
    /// Free-text address (BG-5).
    pub address: &'a str,
    /// Country code (BT-40).
    pub country_code: Option<&'a str>,
    /// VAT identifier (BT-31).
    pub vat_identifier: Option<&'a str>,
    /// Tax number (BT-32).
    pub tax_number: Option<&'a str>,
    /// Phone (BT-42).
    pub phone: Option<&'a str>,
    /// E-mail (BT-43, and BT-34 when no electronic address is set).
    pub email: Option<&'a str>,
    /// Electronic address (BT-34).
    pub electronic_address: Option<&'a str>,
    /// IBAN (BT-84).
    pub iban: Option<&'a str>,
    /// SEPA creditor identifier (BT-90).
    pub sepa_creditor_identifier: Option<&'a str>,
}

/// What the readiness check reads of the buyer (the customer company).
#[derive(Clone, Copy, Debug, Default)]
pub struct BuyerData<'a> {
    /// Company name (BT-44).
    pub name: &'a str,
    /// Free-text address (BG-8).
    pub address: &'a str,
    /// Country code (BT-55).
    pub country_code: Option<&'a str>,
    /// VAT identifier (BT-48).
    pub vat_identifier: Option<&'a str>,
    /// E-mail (BT-49 when no electronic address is set).
    pub email: Option<&'a str>,
    /// Electronic address (BT-49).
    pub electronic_address: Option<&'a str>,
    /// IBAN (BT-91, direct debit).
    pub iban: Option<&'a str>,
}

/// What the readiness check reads of the invoice itself.
#[derive(Clone, Copy, Debug, Default)]
pub struct InvoiceData {
    /// Whether it has a number (drafts have none).
    pub numbered: bool,
    /// Whether at least one `item` position becomes an invoice line.
    pub has_lines: bool,
    /// Whether it is paid by SEPA direct debit (needs mandate, creditor ID, buyer IBAN).
    pub direct_debit: bool,
    /// Whether a position is reverse charge or intra-EU (both VAT IDs needed).
    pub needs_buyer_vat_identifier: bool,
    /// Whether a position is reverse charge, intra-EU or export (seller VAT ID needed, a
    /// tax number is not enough).
    pub needs_seller_vat_identifier: bool,
}

fn given(value: Option<&str>) -> bool {
    value.is_some_and(|v| !v.trim().is_empty())
}

/// Everything `level` needs that the data lacks, in the order a person would fix it
/// (invoice, settings, customer). Empty means the invoice can be written as an e-invoice
/// of that level. Implements the EN 16931 rules BR-6/8/9/10/11/16, BR-CO-26, BR-S-02,
/// BR-AE-02/03, BR-IC-02/03, BR-G-02 and the XRechnung rules BR-DE-1/2/3/4/5/6/7/8/9/
/// 15/16/23/25 as they apply to Kontor's data (`docs/einvoice.md`).
pub fn missing(
    seller: &SellerData,
    buyer: &BuyerData,
    invoice: &InvoiceData,
    level: Level,
) -> Vec<MissingField> {
    let mut out = Vec::new();
    let mut need = |ok: bool, field: &str, place: Place, message: &str| {
        if !ok {
            out.push(MissingField {
                field: field.to_string(),
                message: message.to_string(),
                place,
            });
        }
    };
    let xr = level == Level::XRechnung;
    need(
        invoice.numbered,
        "invoice.identifier",
        Place::Invoice,
        "A draft has no invoice number yet: finalize it first.",
    );
    need(
        invoice.has_lines,
        "invoice.items",
        Place::Invoice,
        "An e-invoice needs at least one item position.",
    );
    let seller_address = split_address(seller.address);
    need(
        !seller.name.trim().is_empty(),
        "account.name",
        Place::Settings,
        "The account's name is the seller's name.",
    );
    need(
        given(seller.country_code),
        "account.country_code",
        Place::Settings,
        "The seller's country is required.",
    );
    if invoice.needs_seller_vat_identifier {
        need(
            given(seller.vat_identifier),
            "account.vat_identifier",
            Place::Settings,
            "Reverse charge, intra-EU and export invoices need the seller's VAT ID.",
        );
    } else {
        need(
            given(seller.vat_identifier) || given(seller.tax_number),
            "account.vat_identifier",
            Place::Settings,
            "The seller's VAT ID or tax number is required.",
        );
    }
    if xr {
        need(
            seller_address.post_code.is_some() && seller_address.city.is_some(),
            "account.address",
            Place::Settings,
            "The seller's address needs a line with post code and city (\"10115 Berlin\").",
        );
        need(
            given(seller.phone),
            "account.phone",
            Place::Settings,
            "XRechnung requires the seller's phone number.",
        );
        need(
            given(seller.email),
            "account.email",
            Place::Settings,
            "XRechnung requires the seller's e-mail address.",
        );
        need(
            given(seller.electronic_address) || given(seller.email),
            "account.electronic_address",
            Place::Settings,
            "XRechnung requires the seller's electronic address (the e-mail by default).",
        );
    }
    if invoice.direct_debit {
        need(
            given(seller.sepa_creditor_identifier),
            "account.sepa_creditor_identifier",
            Place::Settings,
            "Direct debit needs the seller's SEPA creditor identifier.",
        );
        need(
            given(buyer.iban),
            "customer.iban",
            Place::Customer,
            "Direct debit needs the customer's IBAN.",
        );
    } else if xr {
        need(
            given(seller.iban),
            "account.iban",
            Place::Settings,
            "XRechnung requires payment instructions: the account's IBAN.",
        );
    }
    let buyer_address = split_address(buyer.address);
    need(
        !buyer.name.trim().is_empty(),
        "customer.name",
        Place::Customer,
        "The customer's name is required.",
    );
    need(
        given(buyer.country_code),
        "customer.country_code",
        Place::Customer,
        "The customer's country is required.",
    );
    if invoice.needs_buyer_vat_identifier {
        need(
            given(buyer.vat_identifier),
            "customer.vat_identifier",
            Place::Customer,
            "Reverse charge and intra-EU invoices need the customer's VAT ID.",
        );
    }
    if xr {
        need(
            buyer_address.post_code.is_some() && buyer_address.city.is_some(),
            "customer.address",
            Place::Customer,
            "The customer's address needs a line with post code and city (\"10115 Berlin\").",
        );
        need(
            given(buyer.electronic_address) || given(buyer.email),
            "customer.electronic_address",
            Place::Customer,
            "XRechnung requires the customer's electronic address (the e-mail by default).",
        );
    }
    out
}

/// The words for a UN/ECE Recommendation 20 unit code (BT-130), English and German, as
/// a readable view of an incoming e-invoice names them (issue 34: "unit codes … in
/// words"): `HUR` → ("hour(s)", "Std."), `C62` → ("unit(s)", "Stk."). `None` for a code
/// without words here (the view then shows the code).
pub fn unit_words(code: &str) -> Option<(&'static str, &'static str)> {
    Some(match code.trim() {
        "HUR" => ("hours", "Stunden"),
        "DAY" => ("days", "Tage"),
        "H87" | "C62" | "XPP" | "EA" => ("pieces", "Stück"),
        "MON" => ("months", "Monate"),
        "WEE" => ("weeks", "Wochen"),
        "ANN" => ("years", "Jahre"),
        "MIN" => ("minutes", "Minuten"),
        "SEC" => ("seconds", "Sekunden"),
        "KMT" => ("km", "km"),
        "MTR" => ("m", "m"),
        "MTK" => ("m²", "m²"),
        "MTQ" => ("m³", "m³"),
        "KGM" => ("kg", "kg"),
        "GRM" => ("g", "g"),
        "TNE" => ("t", "t"),
        "LTR" => ("l", "l"),
        "LS" => ("lump sum", "pauschal"),
        "KWH" => ("kWh", "kWh"),
        "SET" => ("sets", "Sätze"),
        "E48" => ("service units", "Leistungseinheiten"),
        "P1" => ("percent", "Prozent"),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    #[test]
    fn unit_codes_read_in_words() {
        assert_eq!(unit_words("HUR"), Some(("hours", "Stunden")));
        assert_eq!(unit_words("MON"), Some(("months", "Monate")));
        assert_eq!(unit_words(" C62 "), Some(("pieces", "Stück")));
        assert_eq!(unit_words("XYZ"), None);
        // Every code `unit_code` writes has words.
        for unit in [
            "h", "Tag", "Stk.", "Monat", "week", "Jahr", "min", "km", "m", "qm", "m³", "kg", "g",
            "t", "l", "pauschal", "kWh", "anything",
        ] {
            assert!(unit_words(unit_code(Some(unit))).is_some(), "{unit}");
        }
    }

    #[test]
    fn units_map_to_rec20_codes() {
        assert_eq!(unit_code(Some("h")), "HUR");
        assert_eq!(unit_code(Some("Std.")), "HUR");
        assert_eq!(unit_code(Some("Stunden")), "HUR");
        assert_eq!(unit_code(Some("day")), "DAY");
        assert_eq!(unit_code(Some("PT")), "DAY");
        assert_eq!(unit_code(Some("pcs")), "H87");
        assert_eq!(unit_code(Some("Stk.")), "H87");
        assert_eq!(unit_code(Some("month")), "MON");
        assert_eq!(unit_code(Some("Monat")), "MON");
        assert_eq!(unit_code(Some("pauschal")), "LS");
        assert_eq!(unit_code(Some("m²")), "MTK");
        assert_eq!(unit_code(Some("Lizenzen")), "C62");
        assert_eq!(unit_code(Some("")), "C62");
        assert_eq!(unit_code(None), "C62");
    }

    #[test]
    fn addresses_split_into_street_post_code_and_city() {
        let a = split_address("Musterstraße 12\n10115 Berlin");
        assert_eq!(a.lines, vec!["Musterstraße 12"]);
        assert_eq!(a.post_code.as_deref(), Some("10115"));
        assert_eq!(a.city.as_deref(), Some("Berlin"));
        let ch = split_address("c/o Treuhand AG\nBahnhofstrasse 1\n\nCH-8001 Zürich\n");
        assert_eq!(ch.lines, vec!["c/o Treuhand AG", "Bahnhofstrasse 1"]);
        assert_eq!(ch.post_code.as_deref(), Some("8001"));
        assert_eq!(ch.city.as_deref(), Some("Zürich"));
        let many = split_address("A\nB\nC\nD\n80331 München");
        assert_eq!(many.lines, vec!["A", "B", "C, D"]);
        let none = split_address("Kai 1");
        assert_eq!(none.lines, vec!["Kai 1"]);
        assert_eq!(none.post_code, None);
        // A street with a house number is not a post code line.
        let street = split_address("Hauptstr. 5");
        assert_eq!(street.post_code, None);
        // A trailing country line is dropped; British and Dutch codes are recognised.
        let uk = split_address("221 Baker Street\nLondon NW1 6XE\nUnited Kingdom");
        assert_eq!(uk.lines, vec!["221 Baker Street"]);
        assert_eq!(uk.post_code.as_deref(), Some("NW1 6XE"));
        assert_eq!(uk.city.as_deref(), Some("London"));
        let nl = split_address("Keizersgracht 101\n1015 CJ Amsterdam\nNetherlands");
        assert_eq!(nl.lines, vec!["Keizersgracht 101"]);
        assert_eq!(nl.post_code.as_deref(), Some("1015 CJ"));
        assert_eq!(nl.city.as_deref(), Some("Amsterdam"));
        let lu = split_address("Seestrasse 4\n6006 Luzern\nSchweiz");
        assert_eq!(lu.post_code.as_deref(), Some("6006"));
        assert_eq!(lu.city.as_deref(), Some("Luzern"));
    }

    #[test]
    fn cash_discount_line_is_the_xrechnung_format() {
        assert_eq!(
            cash_discount_line(Decimal::from(2), 14).as_deref(),
            Some("#SKONTO#TAGE=14#PROZENT=2.00#")
        );
        assert_eq!(
            cash_discount_line(Decimal::from_str("1.5").unwrap(), 7).as_deref(),
            Some("#SKONTO#TAGE=7#PROZENT=1.50#")
        );
        assert_eq!(cash_discount_line(Decimal::ZERO, 14), None);
        assert_eq!(cash_discount_line(Decimal::from(2), 0), None);
    }

    #[test]
    fn buyer_reference_prefers_the_invoice_then_the_customer_then_the_id() {
        assert_eq!(
            buyer_reference(Some("04011000-1234"), Some("X"), 7),
            "04011000-1234"
        );
        assert_eq!(buyer_reference(Some(" "), Some("991-1"), 7), "991-1");
        assert_eq!(buyer_reference(None, None, 7), "7");
    }

    fn seller() -> SellerData<'static> {
        SellerData {
            name: "Kontor GmbH",
            address: "Hafenstraße 1\n20457 Hamburg",
            country_code: Some("DE"),
            vat_identifier: Some("DE123456789"),
            phone: Some("+49 40 123456"),
            email: Some("rechnung@kontor.example"),
            iban: Some("DE02120300000000202051"),
            ..Default::default()
        }
    }

    fn buyer() -> BuyerData<'static> {
        BuyerData {
            name: "Kranzler AG",
            address: "Kurfürstendamm 18\n10719 Berlin",
            country_code: Some("DE"),
            email: Some("buchhaltung@kranzler.example"),
            ..Default::default()
        }
    }

    fn ready() -> InvoiceData {
        InvoiceData {
            numbered: true,
            has_lines: true,
            ..Default::default()
        }
    }

    fn fields(m: &[MissingField]) -> Vec<&str> {
        m.iter().map(|f| f.field.as_str()).collect()
    }

    #[test]
    fn complete_data_is_ready_for_both_levels() {
        assert!(missing(&seller(), &buyer(), &ready(), Level::XRechnung).is_empty());
        assert!(missing(&seller(), &buyer(), &ready(), Level::En16931).is_empty());
    }

    #[test]
    fn each_missing_field_is_named_with_its_place() {
        let mut s = seller();
        s.vat_identifier = None;
        s.phone = None;
        let m = missing(&s, &buyer(), &ready(), Level::XRechnung);
        assert_eq!(fields(&m), vec!["account.vat_identifier", "account.phone"]);
        assert!(m.iter().all(|f| f.place == Place::Settings));
        // EN 16931 does not need the phone.
        let m = missing(&s, &buyer(), &ready(), Level::En16931);
        assert_eq!(fields(&m), vec!["account.vat_identifier"]);
        // A tax number is enough for standard-rated invoices…
        s.tax_number = Some("27/123/45678");
        assert!(missing(&s, &buyer(), &ready(), Level::En16931).is_empty());
        // …but not for reverse charge, which also needs the customer's VAT ID.
        let rc = InvoiceData {
            needs_buyer_vat_identifier: true,
            needs_seller_vat_identifier: true,
            ..ready()
        };
        let m = missing(&s, &buyer(), &rc, Level::En16931);
        assert_eq!(
            fields(&m),
            vec!["account.vat_identifier", "customer.vat_identifier"]
        );
        assert_eq!(m[1].place, Place::Customer);
    }

    #[test]
    fn drafts_customers_without_country_and_direct_debit_gaps_are_named() {
        let mut b = buyer();
        b.country_code = None;
        b.address = "Kurfürstendamm 18";
        let inv = InvoiceData {
            numbered: false,
            direct_debit: true,
            ..ready()
        };
        let m = missing(&seller(), &b, &inv, Level::XRechnung);
        assert_eq!(
            fields(&m),
            vec![
                "invoice.identifier",
                "account.sepa_creditor_identifier",
                "customer.iban",
                "customer.country_code",
                "customer.address"
            ]
        );
    }
}
