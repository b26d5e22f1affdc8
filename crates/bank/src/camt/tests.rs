use super::*;
use crate::{read, ReadError};
use std::str::FromStr;

fn d(text: &str) -> Decimal {
    Decimal::from_str(text).unwrap()
}

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

const V02: &str = include_str!("../../tests/data/camt053_v02.xml");
const V08: &str = include_str!("../../tests/data/camt053_v08_batch.xml");

fn invalid(xml: &str) -> String {
    match parse(xml) {
        Err(ReadError::Invalid(m)) => m,
        other => panic!("expected Invalid, got {other:?}"),
    }
}

#[test]
fn camt053_001_02_statement_balances_and_entries() {
    let statements = read("auszug.xml", V02.as_bytes()).unwrap();
    assert_eq!(statements.len(), 1);
    let s = &statements[0];
    assert_eq!(s.format, Format::Camt053);
    assert_eq!(s.account_iban.as_deref(), Some("DE89370400440532013000"));
    assert_eq!(s.currency.as_deref(), Some("EUR"));
    assert_eq!(s.from_date, Some(day("2026-03-02")));
    assert_eq!(s.to_date, Some(day("2026-03-02")));
    assert_eq!(s.opening_balance, Some(d("1000.00")));
    assert_eq!(
        s.closing_balance,
        Some(d("-190.50")),
        "a DBIT balance is negative"
    );
    assert_eq!(s.entries.len(), 2);

    let credit = &s.entries[0];
    assert_eq!(credit.amount, d("119.00"));
    assert_eq!(credit.currency, "EUR");
    assert_eq!(credit.booking_date, day("2026-03-02"));
    assert_eq!(credit.value_date, Some(day("2026-03-02")));
    assert_eq!(
        credit.counterparty_name.as_deref(),
        Some("Müller & Söhne GmbH"),
        "the debtor of a credit"
    );
    assert_eq!(
        credit.counterparty_iban.as_deref(),
        Some("DE02120300000000202051")
    );
    assert_eq!(
        credit.remittance_information.as_deref(),
        Some("Rechnung RE-2026-0042 Kundennr. 77")
    );
    assert_eq!(credit.end_to_end_id, None, "NOTPROVIDED is no id");
    assert_eq!(credit.creditor_reference, None);
    assert_eq!(
        credit.bank_reference.as_deref(),
        Some("TX-REF-1"),
        "the TxDtls reference wins"
    );

    let debit = &s.entries[1];
    assert_eq!(debit.amount, d("-1309.50"));
    assert_eq!(
        debit.booking_date,
        day("2026-03-02"),
        "the date part of a DtTm"
    );
    assert_eq!(debit.value_date, Some(day("2026-03-03")));
    assert_eq!(
        debit.counterparty_name.as_deref(),
        Some("Vermieter AG"),
        "the creditor of a debit"
    );
    assert_eq!(
        debit.counterparty_iban.as_deref(),
        Some("DE12500105170648489890")
    );
    assert_eq!(debit.remittance_information, None);
    assert_eq!(debit.end_to_end_id.as_deref(), Some("E2E-4711"));
    assert_eq!(
        debit.creditor_reference.as_deref(),
        Some("RF18539007547034")
    );
    assert_eq!(
        debit.bank_reference.as_deref(),
        Some("ENTRY-REF-2"),
        "the entry's reference"
    );
}

#[test]
fn camt053_001_08_batch_entry_gives_one_transaction_per_txdtls() {
    let statements = parse(V08).unwrap();
    assert_eq!(statements.len(), 2, "two Stmt, two statements");
    let s = &statements[0];
    assert_eq!(
        s.opening_balance,
        Some(d("-50.00")),
        "PRCD when there is no OPBD"
    );
    assert_eq!(s.closing_balance, Some(d("300.00")));
    let amounts: Vec<Decimal> = s.entries.iter().map(|t| t.amount).collect();
    assert_eq!(amounts, [d("100.00"), d("200.00"), d("50.00")]);
    let names: Vec<_> = s
        .entries
        .iter()
        .map(|t| t.counterparty_name.as_deref())
        .collect();
    assert_eq!(
        names,
        [Some("Alpha GmbH"), Some("Beta KG"), Some("Gamma e.K.")],
        "Dbtr/Pty/Nm"
    );
    for t in &s.entries {
        assert_eq!(t.booking_date, day("2026-03-31"));
        assert_eq!(t.value_date, Some(day("2026-03-31")));
    }
    assert_eq!(s.entries[0].bank_reference.as_deref(), Some("B1-T1"));
    assert_eq!(s.entries[1].bank_reference.as_deref(), Some("BATCH-1"));
    assert_eq!(s.entries[1].end_to_end_id, None);
    assert_eq!(
        s.entries[1].creditor_reference.as_deref(),
        Some("RF712348231")
    );
    assert_eq!(s.entries[1].counterparty_iban, None);
    assert_eq!(
        s.entries[2].counterparty_iban.as_deref(),
        Some("GB29NWBK60161331926819")
    );
    assert_eq!(s.entries[2].end_to_end_id.as_deref(), Some("E2E-C"));

    let other = &statements[1];
    assert_eq!(other.account_iban, None, "Othr/Id is no IBAN");
    assert_eq!(other.currency.as_deref(), Some("CHF"), "from the balance");
    assert_eq!(other.opening_balance, Some(d("10.00")));
    assert_eq!(other.closing_balance, None);
    let fee = &other.entries[0];
    assert_eq!(fee.amount, d("-2.5"));
    assert_eq!(
        fee.booking_date,
        day("2026-03-31"),
        "no BookgDt: the value date"
    );
    assert_eq!(fee.counterparty_name, None);
}

#[test]
fn camt052_and_camt054_roots() {
    let report = parse(include_str!("../../tests/data/camt052.xml")).unwrap();
    assert_eq!(report[0].format, Format::Camt052);
    assert_eq!(
        report[0].account_iban.as_deref(),
        Some("DE89370400440532013000"),
        "upper case"
    );
    assert_eq!(report[0].entries[0].amount, d("42.42"));
    assert_eq!(
        report[0].entries[0].counterparty_name.as_deref(),
        Some("Delta")
    );
    assert_eq!(report[0].entries[0].value_date, None);

    let notification = parse(include_str!("../../tests/data/camt054.xml")).unwrap();
    assert_eq!(notification[0].format, Format::Camt054);
    assert_eq!(notification[0].currency, None);
    let fee = &notification[0].entries[0];
    assert_eq!(fee.amount, d("-7.00"));
    assert_eq!(fee.counterparty_name.as_deref(), Some("Bank fees"));
    assert_eq!(fee.remittance_information.as_deref(), Some("Kontofuehrung"));
}

#[test]
fn the_message_without_document_and_with_prefixes_reads_too() {
    let xml = r#"<c:BkToCstmrStmt xmlns:c="urn:iso:std:iso:20022:tech:xsd:camt.053.001.04"><c:Stmt><c:Acct><c:Id><c:IBAN>DE89370400440532013000</c:IBAN></c:Id></c:Acct>
<c:Ntry><c:Amt Ccy="EUR">1</c:Amt><c:CdtDbtInd>CRDT</c:CdtDbtInd><c:BookgDt><c:Dt>2026-01-01</c:Dt></c:BookgDt></c:Ntry></c:Stmt></c:BkToCstmrStmt>"#;
    let s = parse(xml).unwrap();
    assert_eq!(s[0].entries[0].amount, d("1"));
    // An unknown message element under a camt.054 namespace is read by the namespace.
    let by_ns = r#"<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.13"><Other><Ntfctn/></Other></Document>"#;
    assert_eq!(parse(by_ns).unwrap()[0].format, Format::Camt054);
}

#[test]
fn a_batch_without_amounts_is_invalid_not_split() {
    let xml = V08.replace(r#"<Amt Ccy="EUR">100.00</Amt>"#, "").replace(
        r#"<AmtDtls><TxAmt><Amt Ccy="EUR">200.00</Amt></TxAmt></AmtDtls>"#,
        "",
    );
    let m = invalid(&xml);
    assert!(
        m.contains("Stmt/Ntry[1]/NtryDtls/TxDtls[1]") && m.contains("Amt"),
        "{m}"
    );
}

#[test]
fn broken_fields_are_named() {
    let m = invalid(&V02.replace(
        "<CdtDbtInd>DBIT</CdtDbtInd>\n        <Sts>",
        "<CdtDbtInd>DEBIT</CdtDbtInd>\n        <Sts>",
    ));
    assert!(m.contains("Stmt/Ntry[2]/CdtDbtInd"), "{m}");
    let m = invalid(&V02.replace(">119.00<", ">119,00<"));
    assert!(m.contains("Stmt/Ntry[1]/Amt"), "{m}");
    let m = invalid(&V02.replace("<Dt>2026-03-03</Dt></ValDt>", "<Dt>2026-02-30</Dt></ValDt>"));
    assert!(m.contains("Stmt/Ntry[2]/ValDt"), "{m}");
    let m = invalid(&V02.replace(
        "<FrDtTm>2026-03-02T00:00:00</FrDtTm>",
        "<FrDtTm>gestern</FrDtTm>",
    ));
    assert!(m.contains("FrToDt/FrDtTm"), "{m}");
    let m = invalid(&V02.replace(r#"<Amt Ccy="EUR">119.00</Amt>"#, ""));
    assert!(m.contains("Stmt/Ntry[1]/Amt is missing"), "{m}");
}

#[test]
fn amounts_never_go_through_floats() {
    let xml = V02
        .replace(">119.00<", ">0.10<")
        .replace(">1309.50<", ">0.20<");
    let s = parse(&xml).unwrap();
    let sum = s[0].entries[0].amount + s[0].entries[1].amount;
    assert_eq!(sum, d("-0.10"));
    assert_eq!(sum.to_string(), "-0.10");
}
