//! The EN 16931 rules over the [`Facts`]: the profile, numbers, mandatory terms and the
//! calculations, each as the official validation artefacts 1.3.16 test it.

use super::facts::{Facts, Number, VatFacts};
use super::{finding, Finding, Syntax};
use crate::read::{CBC, RAM};
use roxmltree::Node;
use rust_decimal::Decimal;

/// XPath's `round(x * 100) div 100`: to the cent, halves towards positive infinity.
fn round2(x: Decimal) -> Decimal {
    let hundred = Decimal::ONE_HUNDRED;
    x.checked_mul(hundred)
        .and_then(|v| v.checked_add(Decimal::new(5, 1)))
        .map(|v| v.floor() / hundred)
        .unwrap_or(x)
}

/// XPath's `round(x)`: to a whole number, halves towards positive infinity.
fn round0(x: Decimal) -> Decimal {
    x.checked_add(Decimal::new(5, 1))
        .map(|v| v.floor())
        .unwrap_or(x)
}

fn sum(values: impl Iterator<Item = Decimal>) -> Decimal {
    values.fold(Decimal::ZERO, |a, v| a.checked_add(v).unwrap_or(a))
}

fn value(n: &Option<Number>) -> Option<Decimal> {
    n.as_ref().and_then(|n| n.value)
}

/// A Factur-X / ZUGFeRD profile below EN 16931 (MINIMUM, BASIC WL, BASIC): `KONTOR-PROFILE`.
pub fn profile(facts: &Facts, out: &mut Vec<Finding>) {
    let Some(id) = facts.specification.as_deref() else {
        return;
    };
    let lower = id.to_ascii_lowercase();
    let below = ["1p0:minimum", "1p0:basicwl", "1p0:basic"]
        .iter()
        .find(|p| lower.ends_with(*p) || lower.contains(&format!("{}#", p)));
    if let Some(p) = below {
        let name = match *p {
            "1p0:minimum" => "MINIMUM",
            "1p0:basicwl" => "BASIC WL",
            _ => "BASIC",
        };
        out.push(finding(
            "KONTOR-PROFILE",
            "BT-24",
            format!("The document claims the Factur-X / ZUGFeRD profile {name} (\"{id}\"); only EN 16931, EXTENDED and XRECHNUNG are invoices under § 14 UStG."),
            format!("Das Dokument nennt das Factur-X-/ZUGFeRD-Profil {name} („{id}“); nur EN 16931, EXTENDED und XRECHNUNG sind Rechnungen nach § 14 UStG."),
        ));
    }
}

/// Every amount, percentage and quantity must be a decimal number (`KONTOR-NUMBER`; the
/// schema's `xs:decimal`), one finding per element name.
pub fn numbers(root: Node, syntax: Syntax, out: &mut Vec<Finding>) {
    let mut seen: Vec<String> = Vec::new();
    for n in root.descendants().filter(Node::is_element) {
        let tag = n.tag_name();
        let name = tag.name();
        let numeric = match syntax {
            Syntax::Ubl => {
                tag.namespace() == Some(CBC)
                    && (n.attribute("currencyID").is_some()
                        || matches!(
                            name,
                            "Percent" | "InvoicedQuantity" | "CreditedQuantity" | "BaseQuantity"
                        ))
            }
            Syntax::Cii => {
                tag.namespace() == Some(RAM)
                    && (name.ends_with("Amount")
                        || name.ends_with("Percent")
                        || name.ends_with("Quantity"))
                    && !n.children().any(|c| c.is_element())
            }
        };
        if !numeric || seen.iter().any(|s| s == name) {
            continue;
        }
        if out.len() >= super::MAX_FINDINGS {
            return;
        }
        let text = n.text().unwrap_or("").trim();
        if super::facts::xs_decimal(text).is_none() {
            seen.push(name.to_string());
            out.push(finding(
                "KONTOR-NUMBER",
                "",
                format!("<{name}> holds \"{text}\", which is not a decimal number."),
                format!("<{name}> enthält „{text}“, das ist keine Dezimalzahl."),
            ));
        }
    }
}

fn missing(out: &mut Vec<Finding>, rule: &str, term: &str, en: &str, de: &str) {
    out.push(finding(
        rule,
        term,
        format!("{en} ({term}) is missing."),
        format!("{de} ({term}) fehlt."),
    ));
}

/// The mandatory terms: BR-01 … BR-16, BR-21 … BR-27, BR-CO-18, BR-CO-26.
pub fn mandatory(f: &Facts, out: &mut Vec<Finding>) {
    let checks: [(bool, &str, &str, &str, &str); 15] = [
        (
            f.specification.is_none(),
            "BR-01",
            "BT-24",
            "The specification identifier",
            "Die Spezifikationskennung",
        ),
        (
            f.number.is_none(),
            "BR-02",
            "BT-1",
            "The invoice number",
            "Die Rechnungsnummer",
        ),
        (
            f.issue_date.is_none(),
            "BR-03",
            "BT-2",
            "The invoice date",
            "Das Rechnungsdatum",
        ),
        (
            f.type_code.is_none(),
            "BR-04",
            "BT-3",
            "The invoice type code",
            "Der Rechnungsartcode",
        ),
        (
            f.currency.is_none(),
            "BR-05",
            "BT-5",
            "The invoice currency",
            "Die Rechnungswährung",
        ),
        (
            f.seller.name.is_none(),
            "BR-06",
            "BT-27",
            "The seller's name",
            "Der Name des Verkäufers",
        ),
        (
            f.buyer.name.is_none(),
            "BR-07",
            "BT-44",
            "The buyer's name",
            "Der Name des Käufers",
        ),
        (
            !f.seller.address,
            "BR-08",
            "BG-5",
            "The seller's postal address",
            "Die Anschrift des Verkäufers",
        ),
        (
            f.seller.address && f.seller.country.is_none(),
            "BR-09",
            "BT-40",
            "The seller's country code",
            "Der Ländercode des Verkäufers",
        ),
        (
            !f.buyer.address,
            "BR-10",
            "BG-8",
            "The buyer's postal address",
            "Die Anschrift des Käufers",
        ),
        (
            f.buyer.address && f.buyer.country.is_none(),
            "BR-11",
            "BT-55",
            "The buyer's country code",
            "Der Ländercode des Käufers",
        ),
        (
            f.totals_present && f.totals.line_net.is_none(),
            "BR-12",
            "BT-106",
            "The sum of line net amounts",
            "Die Summe der Positionsnettobeträge",
        ),
        (
            f.totals_present && f.totals.tax_exclusive.is_none(),
            "BR-13",
            "BT-109",
            "The total without VAT",
            "Der Gesamtbetrag ohne Umsatzsteuer",
        ),
        (
            f.totals_present && f.totals.tax_inclusive.is_none(),
            "BR-14",
            "BT-112",
            "The total with VAT",
            "Der Gesamtbetrag mit Umsatzsteuer",
        ),
        (
            f.totals_present && f.totals.payable.is_none(),
            "BR-15",
            "BT-115",
            "The amount due",
            "Der fällige Betrag",
        ),
    ];
    for (failed, rule, term, en, de) in checks {
        if failed {
            missing(out, rule, term, en, de);
        }
    }
    if !f.totals_present {
        missing(
            out,
            "BR-12",
            "BG-22",
            "The document totals",
            "Die Gesamtbeträge des Dokuments",
        );
    }
    if f.lines.is_empty() {
        missing(
            out,
            "BR-16",
            "BG-25",
            "At least one invoice line",
            "Mindestens eine Rechnungsposition",
        );
    }
    for (i, l) in f.lines.iter().enumerate() {
        let n = i + 1;
        let line_checks: [(bool, &str, &str, &str, &str); 5] = [
            (l.id.is_none(), "BR-21", "BT-126", "identifier", "Kennung"),
            (l.quantity.is_none(), "BR-22", "BT-129", "quantity", "Menge"),
            (
                l.quantity.is_some() && l.unit.is_none(),
                "BR-23",
                "BT-130",
                "unit of measure",
                "Einheit",
            ),
            (
                l.net.is_none(),
                "BR-24",
                "BT-131",
                "net amount",
                "Nettobetrag",
            ),
            (
                l.name.is_none(),
                "BR-25",
                "BT-153",
                "item name",
                "Artikelname",
            ),
        ];
        for (failed, rule, term, en, de) in line_checks {
            if failed {
                out.push(finding(
                    rule,
                    term,
                    format!("Line {n} has no {en} ({term})."),
                    format!("Position {n} hat keine Angabe „{de}“ ({term})."),
                ));
            }
        }
        match &l.price {
            None => out.push(finding(
                "BR-26",
                "BT-146",
                format!("Line {n} has no net price (BT-146)."),
                format!("Position {n} hat keinen Nettopreis (BT-146)."),
            )),
            Some(p)
                if p.value
                    .is_some_and(|v| v.is_sign_negative() && !v.is_zero()) =>
            {
                out.push(finding(
                    "BR-27",
                    "BT-146",
                    format!("Line {n} has the negative net price {} (BT-146).", p.raw),
                    format!(
                        "Position {n} hat den negativen Nettopreis {} (BT-146).",
                        p.raw
                    ),
                ))
            }
            Some(_) => {}
        }
    }
    if f.vat.is_empty() {
        missing(
            out,
            "BR-CO-18",
            "BG-23",
            "A VAT breakdown",
            "Eine Aufschlüsselung der Umsatzsteuer",
        );
    }
    let seller = &f.seller;
    if seller.present
        && seller.vat_id.is_none()
        && seller.identifiers.is_empty()
        && seller.legal_registration.is_none()
    {
        out.push(finding(
            "BR-CO-26",
            "BT-29/30/31",
            "The seller has neither an identifier (BT-29), a legal registration (BT-30) nor a VAT identifier (BT-31).".into(),
            "Der Verkäufer hat weder eine Kennung (BT-29) noch eine Registernummer (BT-30) noch eine USt-IdNr. (BT-31).".into(),
        ));
    }
}

/// `stated` against `computed`: a finding of `rule` when they differ.
fn compare(
    out: &mut Vec<Finding>,
    rule: &str,
    term: &str,
    stated: &Number,
    computed: Decimal,
    en: &str,
    de: &str,
) {
    if stated.value.is_some_and(|v| v != computed) {
        out.push(finding(
            rule,
            term,
            format!(
                "{en} ({term}) is {} but {computed} is computed from the document.",
                stated.raw
            ),
            format!(
                "{de} ({term}) ist {}, aus dem Dokument ergibt sich aber {computed}.",
                stated.raw
            ),
        ));
    }
}

/// BR-CO-10 … BR-CO-17 and the category rules BR-S/Z/E/AE/IC/G/O-08 and -09.
pub fn calculations(f: &Facts, syntax: Syntax, out: &mut Vec<Finding>) {
    let t = &f.totals;
    let lines = round2(sum(f.lines.iter().map(|l| Number::or_zero(&l.net))));
    let allowances = sum(f.allowances.iter().map(|a| Number::or_zero(&a.amount)));
    let charges = sum(f.charges.iter().map(|a| Number::or_zero(&a.amount)));
    if f.totals_present {
        if let Some(s) = &t.line_net {
            compare(
                out,
                "BR-CO-10",
                "BT-106",
                s,
                lines,
                "The sum of line net amounts",
                "Die Summe der Positionsnettobeträge",
            );
        }
        for (stated, actual, any, rule, term, en, de) in [
            (
                &t.allowances,
                allowances,
                !f.allowances.is_empty(),
                "BR-CO-11",
                "BT-107",
                "The sum of allowances",
                "Die Summe der Nachlässe",
            ),
            (
                &t.charges,
                charges,
                !f.charges.is_empty(),
                "BR-CO-12",
                "BT-108",
                "The sum of charges",
                "Die Summe der Zuschläge",
            ),
        ] {
            match stated {
                Some(s) => compare(out, rule, term, s, round2(actual), en, de),
                None if any => out.push(finding(
                    rule,
                    term,
                    format!("{en} ({term}) is missing although the document has them ({actual})."),
                    format!("{de} ({term}) fehlt, obwohl das Dokument welche enthält ({actual})."),
                )),
                None => {}
            }
        }
        if let (Some(s), Some(net)) = (&t.tax_exclusive, value(&t.line_net)) {
            let computed =
                round2(net + Number::or_zero(&t.charges) - Number::or_zero(&t.allowances));
            compare(
                out,
                "BR-CO-13",
                "BT-109",
                s,
                computed,
                "The total without VAT",
                "Der Gesamtbetrag ohne Umsatzsteuer",
            );
        }
        if let Some(s) = &t.tax {
            if !f.vat.is_empty() {
                let computed = round2(sum(f.vat.iter().map(|v| Number::or_zero(&v.tax))));
                compare(
                    out,
                    "BR-CO-14",
                    "BT-110",
                    s,
                    computed,
                    "The VAT total",
                    "Die Umsatzsteuer gesamt",
                );
            }
        }
        // BR-CO-15 is checked for each invoice currency (BT-5): not at all without one.
        if let (Some(inclusive), Some(_)) = (&t.tax_inclusive, &f.currency) {
            let computed = round2(Number::or_zero(&t.tax_exclusive) + Number::or_zero(&t.tax));
            if t.tax_in_currency != 1 {
                out.push(finding(
                    "BR-CO-15",
                    "BT-110",
                    format!("The document states the VAT total (BT-110) in its currency {} times instead of once.", t.tax_in_currency),
                    format!("Das Dokument nennt die Umsatzsteuer gesamt (BT-110) in seiner Währung {}-mal statt einmal.", t.tax_in_currency),
                ));
            } else {
                compare(
                    out,
                    "BR-CO-15",
                    "BT-112",
                    inclusive,
                    computed,
                    "The total with VAT",
                    "Der Gesamtbetrag mit Umsatzsteuer",
                );
            }
        }
        if let (Some(payable), Some(inclusive)) = (&t.payable, value(&t.tax_inclusive)) {
            let computed =
                round2(inclusive - Number::or_zero(&t.prepaid) + Number::or_zero(&t.rounding));
            if payable.value.is_some_and(|p| round2(p) != computed) {
                compare(
                    out,
                    "BR-CO-16",
                    "BT-115",
                    payable,
                    computed,
                    "The amount due",
                    "Der fällige Betrag",
                );
            }
        }
    }
    for v in &f.vat {
        let (Some(taxable), Some(tax)) = (value(&v.taxable), value(&v.tax)) else {
            continue;
        };
        let rate = value(&v.rate);
        // BR-CO-17: the tax of a breakdown is its taxable amount times the rate, within one
        // unit (UBL: strictly within, CII: up to one).
        let co17 = match rate.map(round0) {
            Some(r) if !r.is_zero() => {
                let expected =
                    round2(taxable.abs() * rate.unwrap_or_default() / Decimal::ONE_HUNDRED);
                let diff = (tax.abs() - expected).abs();
                match syntax {
                    Syntax::Ubl => diff < Decimal::ONE,
                    Syntax::Cii => diff <= Decimal::ONE,
                }
            }
            _ => round0(tax).is_zero(),
        };
        if !co17 {
            out.push(finding(
                "BR-CO-17",
                "BT-117",
                format!(
                    "The VAT of the breakdown {} {} % (BT-117) is {} but the taxable amount {} gives {}.",
                    v.category.as_deref().unwrap_or("?"),
                    rate.map(|r| r.normalize().to_string()).unwrap_or_default(),
                    v.tax.as_ref().map(|n| n.raw.as_str()).unwrap_or(""),
                    taxable,
                    round2(taxable * rate.unwrap_or_default() / Decimal::ONE_HUNDRED)
                ),
                format!(
                    "Die Umsatzsteuer der Aufschlüsselung {} {} % (BT-117) ist {}, der steuerpflichtige Betrag {} ergibt aber {}.",
                    v.category.as_deref().unwrap_or("?"),
                    rate.map(|r| r.normalize().to_string()).unwrap_or_default(),
                    v.tax.as_ref().map(|n| n.raw.as_str()).unwrap_or(""),
                    taxable,
                    round2(taxable * rate.unwrap_or_default() / Decimal::ONE_HUNDRED)
                ),
            ));
        }
        category_rules(f, syntax, v, (rate, taxable, tax), out);
    }
}

/// The VAT categories' rules on who is named and which rates are given (EN 16931 BR-x-01 …
/// 07 for x = S, Z, E, AE, IC (code K), G, O):
/// - 01: a category used by a line (BT-151), an allowance (BT-95) or a charge (BT-102) has a
///   VAT breakdown (BG-23) — for S at least one, for the others exactly one; in CII (and for
///   the others also in UBL) a breakdown of a category no line, allowance or charge uses
///   breaks it too (the artefacts' tests differ by syntax here; this follows each);
/// - 02/03/04 (line/allowance/charge of the category): S, Z, E: the seller's VAT identifier
///   (BT-31), tax registration (BT-32) or tax representative's VAT identifier (BT-63); AE:
///   that and the buyer's VAT identifier (BT-48) or legal registration (BT-47); K: BT-31 or
///   BT-63 and BT-48; G: BT-31 or BT-63; O: none of BT-31, BT-63, BT-48;
/// - 05/06/07 (line/allowance/charge rate, BT-152/96/103): S above 0; Z, E, AE, K, G exactly
///   0; O none.
pub fn category_parties(f: &Facts, syntax: Syntax, out: &mut Vec<Finding>) {
    const CATEGORIES: [(&str, &str, &str); 7] = [
        ("S", "BR-S", "Standard rated"),
        ("Z", "BR-Z", "Zero rated"),
        ("E", "BR-E", "Exempt from VAT"),
        ("AE", "BR-AE", "Reverse charge"),
        ("K", "BR-IC", "Intra-community supply"),
        ("G", "BR-G", "Export outside the EU"),
        ("O", "BR-O", "Not subject to VAT"),
    ];
    let is = |c: &Option<String>, code: &str| c.as_deref().map(str::trim) == Some(code);
    let seller_vat = f.seller.vat_id.is_some();
    let seller_any = seller_vat || f.seller.tax_registration.is_some();
    let representative_vat = f.tax_representative.vat_id.is_some();
    let buyer_vat = f.buyer.vat_id.is_some();
    for (code, prefix, name) in CATEGORIES {
        let line_rates = rates_of(f.lines.iter().map(|l| (&l.category, &l.rate)), code);
        let allowance_rates = rates_of(f.allowances.iter().map(|a| (&a.category, &a.rate)), code);
        let charge_rates = rates_of(f.charges.iter().map(|a| (&a.category, &a.rate)), code);
        let (lines, allowances, charges) = (
            !line_rates.is_empty(),
            !allowance_rates.is_empty(),
            !charge_rates.is_empty(),
        );
        let users = line_rates.len() + allowance_rates.len() + charge_rates.len();
        let used = users > 0;
        let breakdowns = f.vat.iter().filter(|v| is(&v.category, code)).count();
        let breakdown_holds = match (code, syntax) {
            ("S", Syntax::Ubl) => (used && breakdowns > 0) || (!used && breakdowns == 0),
            ("S", Syntax::Cii) => !used || breakdowns > 0,
            (_, Syntax::Ubl) => !used && breakdowns == 0 || breakdowns == 1,
            (_, Syntax::Cii) => (!used && breakdowns == 0) || (used && breakdowns == 1),
        };
        if !breakdown_holds {
            out.push(finding(
                &format!("{prefix}-01"),
                "BG-23",
                format!("The VAT category {code} (\"{name}\") is used by {users} line(s), allowance(s) or charge(s) but has {breakdowns} VAT breakdown(s) (BG-23)."),
                format!("Die Umsatzsteuerkategorie {code} wird von {users} Position(en), Nachlässen oder Zuschlägen verwendet, hat aber {breakdowns} Aufschlüsselung(en) (BG-23)."),
            ));
        }
        let (parties_hold, needed_en, needed_de) = match code {
            "S" | "Z" | "E" => (
                seller_any || representative_vat,
                "the seller's VAT identifier (BT-31), tax registration (BT-32) or the tax representative's VAT identifier (BT-63)",
                "die USt-IdNr. des Verkäufers (BT-31), seine Steuernummer (BT-32) oder die USt-IdNr. des Steuervertreters (BT-63)",
            ),
            "AE" => (
                (seller_any || representative_vat)
                    && (buyer_vat || f.buyer.legal_registration.is_some()),
                "the seller's VAT identifier or tax registration (BT-31/32, or BT-63) and the buyer's VAT identifier (BT-48) or legal registration (BT-47)",
                "die USt-IdNr. oder Steuernummer des Verkäufers (BT-31/32 oder BT-63) und die USt-IdNr. (BT-48) oder Registernummer (BT-47) des Käufers",
            ),
            "K" => (
                (seller_vat || representative_vat) && buyer_vat,
                "the seller's (BT-31) or tax representative's (BT-63) VAT identifier and the buyer's VAT identifier (BT-48)",
                "die USt-IdNr. des Verkäufers (BT-31) oder Steuervertreters (BT-63) und die USt-IdNr. des Käufers (BT-48)",
            ),
            "G" => (
                seller_vat || representative_vat,
                "the seller's (BT-31) or tax representative's (BT-63) VAT identifier",
                "die USt-IdNr. des Verkäufers (BT-31) oder des Steuervertreters (BT-63)",
            ),
            _ => (
                !seller_vat && !representative_vat && !buyer_vat,
                "no VAT identifier of the seller (BT-31), tax representative (BT-63) or buyer (BT-48)",
                "keine USt-IdNr. des Verkäufers (BT-31), Steuervertreters (BT-63) oder Käufers (BT-48)",
            ),
        };
        if !parties_hold {
            for (any, n, en_what, de_what) in [
                (lines, "02", "an invoice line", "eine Position"),
                (
                    allowances,
                    "03",
                    "a document-level allowance",
                    "ein Nachlass",
                ),
                (charges, "04", "a document-level charge", "ein Zuschlag"),
            ] {
                if any {
                    out.push(finding(
                        &format!("{prefix}-{n}"),
                        "BT-31",
                        format!("With {en_what} in the VAT category {code} (\"{name}\") the invoice must name {needed_en}."),
                        format!("Hat {de_what} die Umsatzsteuerkategorie {code}, muss die Rechnung {needed_de} enthalten."),
                    ));
                }
            }
        }
        let rate_holds = |rate: &Option<Number>| match code {
            "S" => value(rate).is_some_and(|r| r > Decimal::ZERO),
            "O" => rate.is_none(),
            _ => value(rate).is_some_and(|r| r.is_zero()),
        };
        let (en_rate, de_rate) = match code {
            "S" => ("greater than zero", "größer als null sein"),
            "O" => ("absent", "fehlen"),
            _ => ("0", "0 sein"),
        };
        let groups = [
            ("05", "BT-152", "an invoice line", line_rates),
            ("06", "BT-96", "a document-level allowance", allowance_rates),
            ("07", "BT-103", "a document-level charge", charge_rates),
        ];
        for (n, term, en_what, rates) in groups {
            if let Some(bad) = rates.into_iter().find(|r| !rate_holds(r)) {
                let found = bad
                    .as_ref()
                    .map(|r| r.raw.clone())
                    .unwrap_or_else(|| "none".into());
                out.push(finding(
                    &format!("{prefix}-{n}"),
                    term,
                    format!("The VAT rate ({term}) of {en_what} in the VAT category {code} must be {en_rate}; found {found}."),
                    format!("Der Umsatzsteuersatz ({term}) in der Kategorie {code} muss {de_rate}; gefunden: {found}."),
                ));
            }
        }
    }
}

/// The rates (BT-152/96/103) of the lines, allowances or charges `items` (category, rate)
/// in the VAT category `code`.
fn rates_of<'a>(
    items: impl Iterator<Item = (&'a Option<String>, &'a Option<Number>)>,
    code: &str,
) -> Vec<&'a Option<Number>> {
    items
        .filter(|(category, _)| category.as_deref().map(str::trim) == Some(code))
        .map(|(_, rate)| rate)
        .collect()
}

/// BR-x-08 (the taxable amount of a category is its lines plus charges minus allowances),
/// BR-x-09 (its tax: the rate for S, 0 for the others) and BR-x-10 (an exemption reason for
/// E, AE, K, G, O; none for S and Z).
fn category_rules(
    f: &Facts,
    syntax: Syntax,
    breakdown: &VatFacts,
    (rate, taxable, tax): (Option<Decimal>, Decimal, Decimal),
    out: &mut Vec<Finding>,
) {
    let Some(code) = breakdown.category.as_deref().map(str::trim) else {
        return;
    };
    let prefix = match code {
        "S" => "BR-S",
        "Z" => "BR-Z",
        "E" => "BR-E",
        "AE" => "BR-AE",
        "K" => "BR-IC",
        "G" => "BR-G",
        "O" => "BR-O",
        _ => return,
    };
    let standard = code == "S";
    // Lines and allowances/charges of this category (and, for S, this rate).
    let matches = |c: &Option<String>, r: &Option<Number>| {
        c.as_deref().map(str::trim) == Some(code) && (!standard || value(r) == rate)
    };
    let line_sum = sum(f
        .lines
        .iter()
        .filter(|l| matches(&l.category, &l.rate))
        .map(|l| Number::or_zero(&l.net)));
    let charge_sum = sum(f
        .charges
        .iter()
        .filter(|a| matches(&a.category, &a.rate))
        .map(|a| Number::or_zero(&a.amount)));
    let allowance_sum = sum(f
        .allowances
        .iter()
        .filter(|a| matches(&a.category, &a.rate))
        .map(|a| Number::or_zero(&a.amount)));
    let (computed, tolerant) = match syntax {
        // UBL sums unrounded; only S has a tolerance of one unit.
        Syntax::Ubl => (line_sum + charge_sum - allowance_sum, standard),
        // CII rounds each sum; S and O are exact, the others within one unit.
        Syntax::Cii => (
            round2(line_sum) + round2(charge_sum) - round2(allowance_sum),
            !matches!(code, "S" | "O"),
        ),
    };
    let exists = !standard
        || f.lines.iter().any(|l| matches(&l.category, &l.rate))
        || f.allowances
            .iter()
            .chain(&f.charges)
            .any(|a| matches(&a.category, &a.rate));
    let holds = if tolerant {
        (taxable - computed).abs() < Decimal::ONE
    } else {
        taxable == computed
    };
    let rate_text = rate
        .map(|r| format!(" {} %", r.normalize()))
        .unwrap_or_default();
    if !(holds && exists) {
        out.push(finding(
            &format!("{prefix}-08"),
            "BT-116",
            format!("The taxable amount of the VAT category {code}{rate_text} (BT-116) is {taxable} but its lines, allowances and charges give {computed}."),
            format!("Der steuerpflichtige Betrag der Kategorie {code}{rate_text} (BT-116) ist {taxable}, ihre Positionen, Nachlässe und Zuschläge ergeben aber {computed}."),
        ));
    }
    let tax_holds = if standard {
        let expected = round2(taxable.abs() * rate.unwrap_or_default() / Decimal::ONE_HUNDRED);
        (tax.abs() - expected).abs() < Decimal::ONE
    } else {
        tax.is_zero()
    };
    // BR-x-10: an exemption reason (BT-120/121) for the exempt categories, none for S and Z.
    let has_reason = breakdown.exemption_reason.is_some() || breakdown.exemption_code.is_some();
    let needs_reason = !matches!(code, "S" | "Z");
    if has_reason != needs_reason {
        let (en, de) = if needs_reason {
            (
                format!("The VAT category {code} (BG-23) has no exemption reason (BT-120/121)."),
                format!("Die Kategorie {code} (BG-23) hat keinen Befreiungsgrund (BT-120/121)."),
            )
        } else {
            (
                format!("The VAT category {code} (BG-23) must not have an exemption reason (BT-120/121)."),
                format!("Die Kategorie {code} (BG-23) darf keinen Befreiungsgrund (BT-120/121) haben."),
            )
        };
        out.push(finding(&format!("{prefix}-10"), "BT-120/121", en, de));
    }
    if !tax_holds {
        out.push(finding(
            &format!("{prefix}-09"),
            "BT-117",
            format!("The VAT of the category {code}{rate_text} (BT-117) is {tax}, which does not fit its taxable amount {taxable}."),
            format!("Die Umsatzsteuer der Kategorie {code}{rate_text} (BT-117) ist {tax} und passt nicht zum steuerpflichtigen Betrag {taxable}."),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_is_xpaths() {
        assert_eq!(round2(Decimal::new(1005, 3)), Decimal::new(101, 2));
        assert_eq!(round2(Decimal::new(-1005, 3)), Decimal::new(-100, 2));
        assert_eq!(round0(Decimal::new(-5, 1)), Decimal::ZERO);
        assert_eq!(round0(Decimal::new(5, 1)), Decimal::ONE);
    }
}
