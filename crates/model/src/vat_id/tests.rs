//! Unit tests of `vat_id` (kept apart so the module itself stays short).

use super::*;

/// Real VAT identifiers as printed by their holders (public registers, invoices).
const VALID: &[&str] = &[
    "ATU 142 43 102",
    "ATU13585627",
    "ATU46080404",
    "BE 0202.239.951",
    "BE0428759497",
    "BE 444.503.092",
    "BG 103873594",
    "BG7111042925",
    "CY 10246672X",
    "CY-10189098G",
    "CZ 25123891",
    "CZ 640903926",
    "DE 118619592",
    "DE 811 363 057",
    "DE136308783",
    "DE812847601",
    "DK 10 50 32 80",
    "DK-27630308",
    "EE 100 931 558",
    "EE101256753",
    "EL 039868210",
    "EL 94051189",
    "ES A-28184661",
    "ES B64240914",
    "ES 54362315K",
    "ES X5277343Q",
    "ES Q-2818015-F",
    "FI 02459042",
    "FI 0982651-1",
    "FR 04409414364",
    "FR 13 393 892 815",
    "FR K 7399859412",
    "HU 10672101",
    "IE 6433435F",
    "IE 8D79739I",
    "IE6433435OA",
    "IT 00118439991",
    "IT 01404480202",
    "IT 00743110157",
    "LT 100001354118",
    "LT 119511515",
    "LU 10059929",
    "LV 40003189718",
    "MT 1039-6417",
    "MT 20630321",
    "NL 806753742B01",
    "NL.8143.26.584.B.01",
    "NL001545668B01",
    "PL 5211355116",
    "PL 584-030-44-72",
    "PT 500 019 720",
    "PT 502448911",
    "RO 11358544",
    "RO 1822964",
    "SE 556058115801",
    "SE-556666-4438-01",
    "SI 26808498",
    "SI-83815201",
    "SK 2020 237 945",
    "SK2022193459",
    "GB 980 7806 84",
    "GB999999973",
    "GBGD001",
    "GBHA599",
    "XI 980780684",
    "CHE-107.787.577 IVA",
    "CHE-107.787.577",
    "HR 33392005961",
];

#[test]
fn real_identifiers_pass() {
    for id in VALID {
        assert!(
            check_vat_identifier(id).is_ok(),
            "{id}: {:?}",
            check_vat_identifier(id)
        );
    }
}

#[test]
fn a_changed_digit_is_a_checksum_error() {
    for id in [
        "ATU 143 43 102",
        "ATU46080904",
        "BE 0406.139.583",
        "BG 131 172 009",
        "CY 10246672F",
        "DE 125014855",
        "DE136308784",
        "DK 11 96 56 58",
        "EE 100525487",
        "EL 094013834",
        "ES 54362415K",
        "ES-x-2322300w",
        "Es-a48951310",
        "FI 02459043",
        "FR 04409414264",
        "HU 10672102",
        "IE 4731823H",
        "IT 00118439992",
        "LT 100001354119",
        "LU 10059928",
        "LV 40003189715",
        "MT 20630322",
        "NL 806753743B01",
        "PL 5211355117",
        "PT 500019721",
        "RO 11358545",
        "SE 556058115901",
        "SI 26808499",
        "SK 2020457679",
        "GB 980 7806 85",
        "GB802311781",
        "CHE-107.787.578 IVA",
        "HR 33392005962",
    ] {
        assert_eq!(check_vat_identifier(id), Err(VatIdError::Checksum), "{id}");
    }
}

#[test]
fn wrong_forms_and_prefixes_are_named() {
    for id in [
        "AT1 142 43 102",
        "ATU 1515B209",
        "BE 2202239951",
        "DE 011125440",
        "DE 246X595 415",
        "DE12345678",
        "NL 001241643801",
        "NL 009122746B00",
        "SK 012 274 96 19",
        "IT 00687129980",
        "GBGD599",
        "GBHA001",
        "CHE-107.787.57",
        "SE 556058115802",
    ] {
        assert!(
            matches!(check_vat_identifier(id), Err(VatIdError::Format(_))),
            "{id}: {:?}",
            check_vat_identifier(id)
        );
    }
    for id in [
        "",
        "118619592",
        "GR 094013834",
        "US123456789",
        "UK980780684",
    ] {
        assert_eq!(check_vat_identifier(id), Err(VatIdError::Prefix), "{id}");
    }
    for id in [
        "DEÜ12345678",
        "NL12345678ÜB01",
        "CY1234567Ü",
        "FRÜ1234567890",
    ] {
        assert!(
            matches!(check_vat_identifier(id), Err(VatIdError::Format(_))),
            "{id}"
        );
    }
    assert_eq!(
        check_vat_identifier("DE12").unwrap_err().to_string(),
        "must be DE + 9 digits"
    );
}

#[test]
fn identifiers_are_normalized() {
    assert_eq!(
        check_vat_identifier(" de 136.308.783 ").as_deref(),
        Ok("DE136308783")
    );
    assert_eq!(
        check_vat_identifier("nl.8143.26.584.b.01").as_deref(),
        Ok("NL814326584B01")
    );
    assert_eq!(
        check_vat_identifier("CHE-107.787.577 MWST").as_deref(),
        Ok("CHE107787577MWST")
    );
}
