use super::*;
use crate::{read, ReadError};
use std::str::FromStr;

fn d(text: &str) -> Decimal {
    Decimal::from_str(text).unwrap()
}

fn day(y: i32, m: u32, dd: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, dd).unwrap()
}

const DE: &str = include_str!("../../tests/data/de_sepa.sta");

#[test]
fn german_mt940_with_subfields_and_sepa_tags() {
    let statements = read("umsatz.sta", DE.as_bytes()).unwrap();
    assert_eq!(statements.len(), 2);
    let s = &statements[0];
    assert_eq!(s.format, Format::Mt940);
    assert_eq!(s.account_iban, None, "BLZ/account is no IBAN");
    assert_eq!(s.currency.as_deref(), Some("EUR"));
    assert_eq!(s.opening_balance, Some(d("1000.00")));
    assert_eq!(s.closing_balance, Some(d("1068.75")));
    assert_eq!(s.from_date, Some(day(2026, 12, 30)));
    assert_eq!(s.to_date, Some(day(2027, 1, 2)));
    assert_eq!(s.entries.len(), 2);

    let credit = &s.entries[0];
    assert_eq!(credit.amount, d("119.00"));
    assert_eq!(credit.currency, "EUR");
    assert_eq!(credit.booking_date, day(2026, 12, 30));
    assert_eq!(
        credit.counterparty_name.as_deref(),
        Some("Mueller und Soehne GmbH")
    );
    assert_eq!(
        credit.counterparty_iban.as_deref(),
        Some("DE02120300000000202051")
    );
    assert_eq!(
        credit.remittance_information.as_deref(),
        Some("Rechnung RE-2026-0042 Danke")
    );
    assert_eq!(credit.end_to_end_id.as_deref(), Some("RE-2026-0042"));
    assert_eq!(credit.creditor_reference, None);
    assert_eq!(credit.bank_reference.as_deref(), Some("BANKREF0001"));

    let debit = &s.entries[1];
    assert_eq!(debit.amount, d("-50.25"));
    assert_eq!(debit.value_date, Some(day(2027, 1, 2)));
    assert_eq!(
        debit.booking_date,
        day(2026, 12, 31),
        "entry date 1231 belongs to the year before"
    );
    assert_eq!(
        debit.counterparty_name.as_deref(),
        Some("Stadtwerke Beispielstadt GmbH")
    );
    assert_eq!(
        debit.counterparty_iban.as_deref(),
        Some("DE12500105170648489890")
    );
    assert_eq!(debit.end_to_end_id, None, "EREF+NOTPROVIDED");
    assert_eq!(
        debit.remittance_information.as_deref(),
        Some("Strom Januar RF18 53900754 7034"),
        "?23 is a full 27-character subfield"
    );
    assert_eq!(
        debit.creditor_reference.as_deref(),
        Some("RF18539007547034")
    );
    assert_eq!(debit.bank_reference.as_deref(), Some("BANKREF0002"));

    let second = &statements[1];
    assert_eq!(
        second.account_iban.as_deref(),
        Some("DE89370400440532013000"),
        "IBAN + currency"
    );
    assert_eq!(second.opening_balance, Some(d("-20.00")));
    assert_eq!(second.closing_balance, Some(d("-16.50")));
    let cash = &second.entries[0];
    assert_eq!(cash.amount, d("5"));
    assert_eq!(
        cash.remittance_information.as_deref(),
        Some("Bareinzahlung Filiale Hauptstrasse")
    );
    assert_eq!(cash.counterparty_name, None);
    assert_eq!(cash.bank_reference, None);
    let storno = &second.entries[1];
    assert_eq!(storno.amount, d("-1.50"), "RC reverses a credit");
    assert_eq!(
        storno.remittance_information.as_deref(),
        Some("Gebuehr Korrektur")
    );
    // The sum of the entries matches the balances.
    for s in &statements {
        let sum: Decimal = s.entries.iter().map(|t| t.amount).sum();
        assert_eq!(s.opening_balance.unwrap() + sum, s.closing_balance.unwrap());
    }
}

#[test]
fn year_wrap_both_ways() {
    let wrap = |value: NaiveDate, mmdd: &str| entry_date(value, mmdd).unwrap();
    assert_eq!(wrap(day(2027, 1, 2), "1231"), day(2026, 12, 31));
    assert_eq!(wrap(day(2026, 12, 31), "0102"), day(2027, 1, 2));
    assert_eq!(wrap(day(2026, 6, 15), "0614"), day(2026, 6, 14));
    assert_eq!(entry_date(day(2026, 6, 15), "1332"), None);
}

#[test]
fn swift_envelope_full_subfield_chunks_and_tags() {
    let text = "{1:F01BANKDEFFAXXX0000000000}{2:O9401200260101BANKDEFFXXXX00000000002601011200N}{4:\r\n\
:20:940\r\n:25:DE89370400440532013000\r\n:28C:1/1\r\n:60F:C260101EUR0,\r\n\
:61:260102C1234,5NTRF//B-1\r\n\
:86:166?20EREF+E2E-9?21SVWZ+Rechnung Nummer RE-200?2212345 danke RF71 2348 231?23ABWA+Jemand Anderes\r\n\
?32ACME\r\n:62F:C260102EUR1234,5\r\n-}";
    assert!(looks_like(text));
    let s = parse(text).unwrap();
    assert_eq!(s.len(), 1);
    let t = &s[0].entries[0];
    assert_eq!(t.amount, d("1234.5"));
    assert_eq!(t.end_to_end_id.as_deref(), Some("E2E-9"));
    // "SVWZ+Rechnung Nummer RE-200" is a full 27-character subfield: no space after it.
    assert_eq!(
        t.remittance_information.as_deref(),
        Some("Rechnung Nummer RE-20012345 danke RF71 2348 231")
    );
    assert_eq!(t.creditor_reference.as_deref(), Some("RF712348231"));
    assert_eq!(t.counterparty_name.as_deref(), Some("ACME"));
    assert_eq!(t.bank_reference.as_deref(), Some("B-1"));
}

#[test]
fn purpose_without_tags_and_invalid_rf_is_no_reference() {
    let text = ":20:X\n:25:DE89370400440532013000\n:60F:C260101EUR0,00\n\
:61:260101D9,99NMSCNONREF\n:86:177?00UEBERWEISUNG?20RF19 5390 0754 7034?21Miete?31DE12500105170648489890?32Hausverwaltung\n-\n";
    let t = &parse(text).unwrap()[0].entries[0];
    assert_eq!(t.amount, d("-9.99"));
    assert_eq!(
        t.remittance_information.as_deref(),
        Some("RF19 5390 0754 7034 Miete")
    );
    assert_eq!(
        t.creditor_reference, None,
        "no SVWZ+ and a bad check anyway"
    );
    assert_eq!(
        t.counterparty_iban.as_deref(),
        Some("DE12500105170648489890")
    );
}

#[test]
fn broken_lines_are_named() {
    let base = ":20:X\n:25:DE89370400440532013000\n:60F:C260101EUR0,00\n";
    let err = |line: &str| match parse(&format!("{base}{line}\n-\n")) {
        Err(ReadError::Invalid(m)) => m,
        other => panic!("{line}: expected Invalid, got {other:?}"),
    };
    assert!(err(":61:261301C1,00NTRFNONREF").contains(":61: value date"));
    assert!(err(":61:260101X1,00NTRFNONREF").contains("C, D, RC or RD"));
    assert!(err(":61:260101C1,00,0NTRFNONREF").contains(":61: amount"));
    assert!(err(":61:260101C1,00").contains("transaction type"));
    assert!(err(":62F:X260101EUR1,00").contains(":62F:"));
    assert!(err(":62F:C260101EU1,00").contains(":62F:"));
    let no_opening = parse(":20:X\n:61:260101C1,00NTRFNONREF\n-\n").unwrap_err();
    assert!(matches!(no_opening, ReadError::Invalid(m) if m.contains(":60F:")));
}

#[test]
fn detection() {
    assert!(looks_like(DE));
    assert!(looks_like("\r\n:20:STARTUMSE\r\n:25:1/2\r\n"));
    assert!(!looks_like(":25:1/2\n:20:X\n"), ":20: must come first");
    assert!(!looks_like(":20:X\n"));
    assert!(!looks_like("Hallo Welt"));
}

#[test]
fn information_after_the_closing_balance_belongs_to_no_transaction() {
    let text = ":20:X\n:25:DE89370400440532013000\n:60F:C260101EUR0,00\n\
:61:260101C1,00NTRFNONREF\n:86:166?20SVWZ+Eins?32A\n:62F:C260101EUR1,00\n:86:Kontoinformation zum Abschluss\n-\n";
    let t = &parse(text).unwrap()[0].entries[0];
    assert_eq!(t.remittance_information.as_deref(), Some("Eins"));
    assert_eq!(t.counterparty_name.as_deref(), Some("A"));
}

#[test]
fn several_swift_envelopes_in_one_file() {
    let one = |n: u32| {
        format!(
            "{{1:F01BANKDEFFAXXX0000000000}}{{2:O940}}{{4:\r\n:20:S{n}\r\n:25:DE89370400440532013000\r\n\
:60F:C26010{n}EUR0,00\r\n:61:26010{n}C{n},00NTRFNONREF\r\n:86:Nummer {n}\r\n:62F:C26010{n}EUR{n},00\r\n-}}\r\n"
        )
    };
    let text = format!("{}{}", one(1), one(2));
    assert!(looks_like(&text));
    let s = parse(&text).unwrap();
    assert_eq!(s.len(), 2);
    assert_eq!(s[1].entries[0].amount, d("2"));
    assert_eq!(
        s[1].entries[0].remittance_information.as_deref(),
        Some("Nummer 2")
    );
    assert_eq!(s[1].from_date, Some(day(2026, 1, 2)));
}
