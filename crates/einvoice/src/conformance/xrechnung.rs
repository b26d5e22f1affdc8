//! The XRechnung 3.0 rules (KoSIT's schematron, BR-DE-…) for documents that claim
//! XRechnung, and EN 16931's electronic address rules BR-62 / BR-63 (a seller or buyer
//! electronic address needs its scheme).
//!
//! Checked: BR-DE-1 (payment instructions BG-16), BR-DE-2 (seller contact BG-6), BR-DE-3/4
//! (seller city and post code), BR-DE-5/6/7 (contact name, telephone, e-mail), BR-DE-8/9
//! (buyer city and post code), BR-DE-14 (a rate in every VAT breakdown), BR-DE-15 (BT-10
//! buyer reference), BR-DE-16 (the seller's VAT identifier or tax number when VAT is
//! charged). XRechnung 3.0's schematron makes neither electronic address (BT-34, BT-49)
//! mandatory, so neither does Kontor.

use super::facts::{Facts, PartyFacts};
use super::{finding, Finding};

fn missing(out: &mut Vec<Finding>, rule: &str, term: &str, en: &str, de: &str) {
    out.push(finding(
        rule,
        term,
        format!("XRechnung requires {en} ({term}); the document has none."),
        format!("XRechnung verlangt {de} ({term}); das Dokument enthält keine Angabe."),
    ));
}

/// BR-62 / BR-63: an electronic address without its scheme identifier.
pub fn electronic_addresses(f: &Facts, out: &mut Vec<Finding>) {
    for (party, rule, term, en, de) in [
        (&f.seller, "BR-62", "BT-34", "seller", "Verkäufers"),
        (&f.buyer, "BR-63", "BT-49", "buyer", "Käufers"),
    ] {
        if let Some((value, None)) = &party.electronic_address {
            out.push(finding(
                rule,
                term,
                format!("The {en}'s electronic address \"{value}\" ({term}) has no scheme identifier."),
                format!("Die elektronische Adresse „{value}“ des {de} ({term}) hat keine Schema-Kennung."),
            ));
        }
    }
}

/// The BR-DE rules of a document that claims XRechnung.
pub fn rules(f: &Facts, out: &mut Vec<Finding>) {
    if f.payment_means.is_empty() {
        missing(
            out,
            "BR-DE-1",
            "BG-16",
            "payment instructions",
            "Zahlungsanweisungen",
        );
    }
    let seller: &PartyFacts = &f.seller;
    if seller.present && !seller.contact {
        missing(
            out,
            "BR-DE-2",
            "BG-6",
            "the seller's contact",
            "einen Ansprechpartner des Verkäufers",
        );
    }
    if seller.address {
        if seller.city.is_none() {
            missing(
                out,
                "BR-DE-3",
                "BT-37",
                "the seller's city",
                "den Ort des Verkäufers",
            );
        }
        if seller.post_code.is_none() {
            missing(
                out,
                "BR-DE-4",
                "BT-38",
                "the seller's post code",
                "die Postleitzahl des Verkäufers",
            );
        }
    }
    if seller.contact {
        if seller.contact_name.is_none() {
            missing(
                out,
                "BR-DE-5",
                "BT-41",
                "the seller's contact point",
                "den Namen des Ansprechpartners",
            );
        }
        if seller.contact_phone.is_none() {
            missing(
                out,
                "BR-DE-6",
                "BT-42",
                "the seller's contact telephone",
                "die Telefonnummer des Ansprechpartners",
            );
        }
        if seller.contact_email.is_none() {
            missing(
                out,
                "BR-DE-7",
                "BT-43",
                "the seller's contact e-mail",
                "die E-Mail-Adresse des Ansprechpartners",
            );
        }
    }
    if f.buyer.address {
        if f.buyer.city.is_none() {
            missing(
                out,
                "BR-DE-8",
                "BT-52",
                "the buyer's city",
                "den Ort des Käufers",
            );
        }
        if f.buyer.post_code.is_none() {
            missing(
                out,
                "BR-DE-9",
                "BT-53",
                "the buyer's post code",
                "die Postleitzahl des Käufers",
            );
        }
    }
    if f.vat.iter().any(|v| v.rate.is_none()) {
        missing(
            out,
            "BR-DE-14",
            "BT-119",
            "a VAT rate in every VAT breakdown",
            "einen Steuersatz in jeder Aufschlüsselung der Umsatzsteuer",
        );
    }
    if f.buyer_reference.is_none() {
        missing(
            out,
            "BR-DE-15",
            "BT-10",
            "the buyer reference (Leitweg-ID)",
            "die Käuferreferenz (Leitweg-ID)",
        );
    }
    const TAXED: &[&str] = &["S", "Z", "E", "AE", "K", "G", "L", "M"];
    let taxed = f
        .lines
        .iter()
        .filter_map(|l| l.category.as_deref())
        .chain(
            f.allowances
                .iter()
                .chain(&f.charges)
                .filter_map(|a| a.category.as_deref()),
        )
        .any(|c| TAXED.contains(&c.trim()));
    if taxed && seller.vat_id.is_none() && seller.tax_registration.is_none() {
        missing(
            out,
            "BR-DE-16",
            "BT-31/32",
            "the seller's VAT identifier or tax number",
            "die USt-IdNr. oder Steuernummer des Verkäufers",
        );
    }
}
