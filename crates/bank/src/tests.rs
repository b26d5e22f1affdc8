use super::*;
use rust_decimal::Decimal;
use std::str::FromStr;

fn d(text: &str) -> Decimal {
    Decimal::from_str(text).unwrap()
}

fn not_a_statement(name: &str, bytes: &[u8]) -> String {
    match read(name, bytes) {
        Err(ReadError::NotAStatement(m)) => m,
        other => panic!("expected NotAStatement, got {other:?}"),
    }
}

#[test]
fn format_names() {
    assert_eq!(Format::Camt052.as_str(), "camt.052");
    assert_eq!(Format::Camt053.as_str(), "camt.053");
    assert_eq!(Format::Camt054.as_str(), "camt.054");
    assert_eq!(Format::Mt940.as_str(), "mt940");
    assert_eq!(Format::Mt940.to_string(), "mt940");
}

#[test]
fn a_png_random_text_and_an_empty_file_are_no_statements() {
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01";
    assert!(not_a_statement("bild.png", png).contains("expected camt.052/053/054 XML, MT940"));
    not_a_statement("notes.txt", b"Lorem ipsum dolor sit amet\n:20: late\n");
    not_a_statement("empty.sta", b"");
    not_a_statement("blank.sta", b"  \n\t ");
}

#[test]
fn xml_that_is_not_camt_names_its_root() {
    let xml = br#"<?xml version="1.0"?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>1</ID></Invoice>"#;
    let m = not_a_statement("invoice.xml", xml);
    assert!(m.contains("<Invoice>"), "{m}");
    let pain = br#"<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"><CstmrCdtTrfInitn/></Document>"#;
    assert!(not_a_statement("pain.xml", pain).contains("Document"));
    not_a_statement("broken.xml", b"<Document><BkToCstmrStmt>");
}

#[test]
fn dtds_and_entities_are_unsafe() {
    let billion = br#"<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>&lol2;</BkToCstmrStmt></Document>"#;
    assert!(matches!(read("a.xml", billion), Err(ReadError::Unsafe(_))));
    let external =
        br#"<?xml version="1.0"?><!doctype Document SYSTEM "file:///etc/passwd"><Document/>"#;
    assert!(matches!(read("a.xml", external), Err(ReadError::Unsafe(_))));
    let entity_only = b"<Document><!ENTITY x 'y'></Document>";
    let err = read("a.xml", entity_only).unwrap_err();
    assert!(matches!(err, ReadError::Unsafe(_)), "{err}");
    assert!(err.to_string().starts_with("unsafe statement file: "));
}

#[test]
fn oversized_files_and_deep_or_wide_xml_are_too_large() {
    let mut big = b"<Document>".to_vec();
    big.resize(MAX_STATEMENT_BYTES + 1, b' ');
    assert!(matches!(read("big.xml", &big), Err(ReadError::TooLarge(_))));
    let deep = format!("{}{}", "<a>".repeat(100_000), "</a>".repeat(100_000));
    assert!(matches!(
        read("deep.xml", deep.as_bytes()),
        Err(ReadError::TooLarge(_))
    ));
    let wide: String = (0..10_000).map(|i| format!(" a{i}=\"1\"")).collect();
    let wide = format!("<Document{wide}/>");
    let started = std::time::Instant::now();
    assert!(matches!(
        read("wide.xml", wide.as_bytes()),
        Err(ReadError::TooLarge(_))
    ));
    assert!(started.elapsed().as_secs() < 2);
}

#[test]
fn mod97_ibans_and_creditor_references() {
    assert_eq!(
        iban("de89 3704 0044 0532 0130 00").as_deref(),
        Some("DE89370400440532013000")
    );
    assert_eq!(iban("DE89370400440532013001"), None);
    assert_eq!(iban("37040044/0532013000"), None);
    assert_eq!(
        creditor_reference("RF18 5390 0754 7034").as_deref(),
        Some("RF18539007547034")
    );
    assert_eq!(
        creditor_reference("RF712348231").as_deref(),
        Some("RF712348231")
    );
    assert_eq!(creditor_reference("RF19539007547034"), None);
    assert_eq!(creditor_reference("RF18"), None);
    assert_eq!(creditor_reference("XX18539007547034"), None);
}

#[test]
fn amounts_are_decimal_text_with_at_most_five_decimals() {
    assert_eq!(amount("119.00", '.', "x").unwrap(), d("119.00"));
    assert_eq!(amount("1309,5", ',', "x").unwrap(), d("1309.5"));
    assert_eq!(amount("5,", ',', "x").unwrap(), d("5"));
    assert_eq!(amount(" 0.12345 ", '.', "x").unwrap(), d("0.12345"));
    assert_eq!(
        amount("999999999999999999.99999", '.', "x").unwrap(),
        d("999999999999999999.99999")
    );
    for bad in [
        "",
        "-1.00",
        "1.123456",
        "1,00",
        "1e5",
        "1.2.3",
        ".5",
        "1 000.00",
        "9999999999999999999",
    ] {
        let err = amount(bad, '.', "Ntry/Amt").unwrap_err();
        assert!(
            matches!(&err, ReadError::Invalid(m) if m.contains("Ntry/Amt")),
            "{bad}: {err}"
        );
    }
}

#[test]
fn too_many_transactions_are_too_large() {
    let mut text = String::from(":20:X\n:25:DE89370400440532013000\n:60F:C260101EUR0,00\n");
    for _ in 0..=MAX_ENTRIES {
        text.push_str(":61:260101C1,00NTRFNONREF\n");
    }
    assert!(matches!(
        read("many.sta", text.as_bytes()),
        Err(ReadError::TooLarge(_))
    ));
}

#[test]
fn latin1_xml_is_read_when_declared() {
    let xml = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n\
<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\"><BkToCstmrStmt><Stmt>\
<Ntry><Amt Ccy=\"EUR\">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2026-01-01</Dt></BookgDt>\
<NtryDtls><TxDtls><RltdPties><Dbtr><Nm>M\u{fc}ller</Nm></Dbtr></RltdPties></TxDtls></NtryDtls></Ntry>\
</Stmt></BkToCstmrStmt></Document>";
    let latin1: Vec<u8> = xml.chars().map(|c| c as u8).collect();
    let s = read("latin1.xml", &latin1).unwrap();
    assert_eq!(s[0].entries[0].counterparty_name.as_deref(), Some("Müller"));
    let undeclared: Vec<u8> = xml
        .replace(" encoding=\"ISO-8859-1\"", "")
        .chars()
        .map(|c| c as u8)
        .collect();
    assert!(
        matches!(read("x.xml", &undeclared), Err(ReadError::Invalid(m)) if m.contains("UTF-8"))
    );
}

#[test]
fn an_empty_message_is_invalid() {
    let xml = br#"<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><GrpHdr/></BkToCstmrStmt></Document>"#;
    assert!(
        matches!(read("x.xml", xml), Err(ReadError::Invalid(m)) if m.contains("<BkToCstmrStmt> holds no <Stmt>"))
    );
}
