//! Unit tests of `datev` (kept apart so the module itself stays short).

use super::*;

fn d(n: i64) -> Decimal {
    Decimal::from(n)
}

fn date(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).unwrap()
}

/// The export period of the file tests: November 2026.
fn november() -> (NaiveDate, NaiveDate) {
    (date(2026, 11, 1), date(2026, 11, 30))
}

fn settings() -> DatevSettings {
    DatevSettings {
        consultant_number: Some(29098),
        client_number: Some(55003),
        ..DatevSettings::default()
    }
}

#[test]
fn defaults_are_skr03() {
    let s = DatevSettings::default();
    let r = s.revenue_accounts;
    assert_eq!(
        [
            r.standard,
            r.reduced,
            r.intra_eu,
            r.reverse_charge,
            r.export,
            r.exempt
        ],
        [8400, 8300, 8125, 8337, 8120, 8100]
    );
    assert_eq!((s.fiscal_year_start, s.account_length), (1, 4));
    assert_eq!(r.of(TaxCategory::Zero), 8100);
    // An account stored before the field existed reads as the defaults.
    let read: DatevSettings = serde_json::from_str("{}").unwrap();
    assert_eq!(read, s);
}

#[test]
fn updates_are_checked_per_field() {
    let current = DatevSettings::default();
    let update: DatevUpdate = serde_json::from_str(
        r#"{"consultant_number": 1000, "client_number": 100000, "fiscal_year_start": 13,
            "account_length": 9, "revenue_accounts": {"standard": 84000, "reduced": 0}}"#,
    )
    .unwrap();
    let mut e = FieldErrors::new();
    check_update(&mut e, &update, &current);
    let keys: Vec<&str> = e.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "datev.account_length",
            "datev.client_number",
            "datev.consultant_number",
            "datev.fiscal_year_start",
            "datev.revenue_accounts.reduced",
            "datev.revenue_accounts.standard",
        ]
    );
    // A longer account length admits the five-digit account.
    let ok: DatevUpdate =
        serde_json::from_str(r#"{"account_length": 5, "revenue_accounts": {"standard": 84000}}"#)
            .unwrap();
    let mut e = FieldErrors::new();
    check_update(&mut e, &ok, &current);
    assert!(e.is_empty(), "{e:?}");
}

#[test]
fn updates_apply_and_null_removes_a_number() {
    let mut s = DatevSettings::default();
    let update: DatevUpdate = serde_json::from_str(
        r#"{"consultant_number": 29098, "client_number": 55003, "fiscal_year_start": 7,
            "revenue_accounts": {"export": 8150}}"#,
    )
    .unwrap();
    apply_update(&update, &mut s);
    assert_eq!(s.consultant_number, Some(29098));
    assert_eq!(s.fiscal_year_start, 7);
    assert_eq!(s.revenue_accounts.export, 8150);
    assert_eq!(s.revenue_accounts.standard, 8400);
    let clear: DatevUpdate = serde_json::from_str(r#"{"client_number": null}"#).unwrap();
    apply_update(&clear, &mut s);
    assert_eq!(s.client_number, None);
    assert_eq!(s.consultant_number, Some(29098));
}

#[test]
fn personal_accounts_fall_back_to_the_company_id() {
    assert_eq!(debtor_account(Some(12345), 3), 12345);
    assert_eq!(debtor_account(None, 3), 10003);
    assert_eq!(debtor_account(Some(70001), 3), 10003);
    assert_eq!(debtor_account(None, 60_000), 10000);
    assert_eq!(creditor_account(None, 7), 70007);
    assert_eq!(creditor_account(Some(80000), 7), 80000);
    assert_eq!(creditor_account(None, 30_000), 70000);
}

#[test]
fn expense_accounts_from_category_else_by_rate() {
    assert_eq!(expense_account(Some("4930"), d(19), false, false), 4930);
    assert_eq!(expense_account(Some(" "), d(19), false, false), 3400);
    assert_eq!(expense_account(Some("Büro"), d(7), false, false), 3300);
    assert_eq!(expense_account(None, d(0), false, false), 3200);
    assert_eq!(expense_account(None, d(16), false, false), 3200);
    assert_eq!(expense_account(None, d(19), true, false), 3125);
    assert_eq!(expense_account(None, d(19), false, true), 3425);
}

#[test]
fn bu_keys_only_off_automatic_accounts() {
    let std = TaxCategory::Standard;
    assert_eq!(bu_key(Side::Revenue, 8400, std, d(19)), None);
    assert_eq!(bu_key(Side::Revenue, 8000, std, d(19)), Some("3"));
    assert_eq!(
        bu_key(Side::Revenue, 8000, TaxCategory::Reduced, d(7)),
        Some("2")
    );
    assert_eq!(bu_key(Side::Expense, 4930, std, d(19)), Some("9"));
    assert_eq!(bu_key(Side::Expense, 4930, std, d(7)), Some("8"));
    assert_eq!(bu_key(Side::Expense, 3400, std, d(19)), None);
    assert_eq!(bu_key(Side::Expense, 4930, std, d(16)), None);
    assert_eq!(
        bu_key(Side::Revenue, 8000, TaxCategory::IntraEu, d(0)),
        None
    );
}

#[test]
fn fiscal_years_and_export_checks() {
    assert_eq!(
        fiscal_year(1, date(2026, 11, 5)),
        (date(2026, 1, 1), date(2026, 12, 31))
    );
    assert_eq!(
        fiscal_year(7, date(2026, 3, 5)),
        (date(2025, 7, 1), date(2026, 6, 30))
    );
    assert!(check_export(&settings(), date(2026, 11, 1), date(2026, 11, 30)).is_empty());
    let e = check_export(&settings(), date(2026, 12, 1), date(2027, 1, 31));
    assert_eq!(e.keys().collect::<Vec<_>>(), ["to"]);
    // Missing consultant and client numbers do not stop the export.
    assert!(check_export(
        &DatevSettings::default(),
        date(2026, 1, 1),
        date(2026, 1, 2),
    )
    .is_empty());
}

#[test]
fn header_line_has_31_fields_in_datev_order() {
    let created = date(2026, 12, 1).and_hms_milli_opt(9, 30, 5, 42).unwrap();
    let (from, to) = november();
    let line = header_line(&settings(), created, from, to, "EUR");
    assert_eq!(
        line,
        "\"EXTF\";700;21;\"Buchungsstapel\";13;20261201093005042;;\"RE\";\"Kontor\";\"\";29098;55003;\
         20260101;4;20261101;20261130;\"Kontor 01.11.2026-30.11.2026\";\"\";1;0;0;\"EUR\";;\"\";;;\"\";;;\"\";\"\""
    );
    assert_eq!(line.split(';').count(), 31);
}

#[test]
fn booking_lines_write_positive_amounts_with_the_side() {
    let b = Booking {
        gross: Decimal::new(119_000, 2),
        side: Side::Revenue,
        currency: "EUR".into(),
        account: 10003,
        contra_account: 8400,
        bu_key: None,
        date: date(2026, 11, 5),
        document: "R2611-004".into(),
        text: "Kranzler GmbH \"Hosting\"".into(),
        vat_identifier: None,
    };
    let line = booking_line(&b);
    let f: Vec<&str> = line.split(';').collect();
    assert_eq!(f.len(), 125);
    assert_eq!(columns().len(), 125);
    // Amount, side, currency, (rate, base amount, base currency), account, contra account,
    // (BU key), date DDMM, document number, (document field 2, discount), text.
    assert_eq!(
        f[..14].join(";"),
        "1190,00;\"S\";\"EUR\";;;;10003;8400;;0511;\"R2611-004\";;;\
         \"Kranzler GmbH \"\"Hosting\"\"\""
    );
    let reversal = Booking {
        gross: Decimal::new(-5_000, 2),
        ..b.clone()
    };
    let f2 = booking_line(&reversal);
    assert!(f2.starts_with("50,00;\"H\";"));
    let expense = Booking {
        side: Side::Expense,
        bu_key: Some("9"),
        ..b
    };
    let f3 = booking_line(&expense);
    assert!(f3.starts_with("1190,00;\"H\";"));
    assert_eq!(f3.split(';').nth(8), Some("\"9\""));
}

#[test]
fn numbered_columns_alternate_kind_and_content() {
    let c = columns();
    let at = |name: &str| c.iter().position(|x| x == name).expect(name);
    assert_eq!(at("Beleginfo - Inhalt 1"), at("Beleginfo - Art 1") + 1);
    assert_eq!(at("Beleginfo - Art 8"), at("Beleginfo - Art 1") + 14);
    assert_eq!(at("KOST1 - Kostenstelle"), at("Beleginfo - Inhalt 8") + 1);
    assert_eq!(
        at("Zusatzinformation- Inhalt 20"),
        at("Zusatzinformation - Art 1") + 39
    );
    assert_eq!(at("Stück"), at("Zusatzinformation- Inhalt 20") + 1);
}

#[test]
fn texts_are_quoted_and_cut() {
    assert_eq!(text_field("a\nb", 60), "\"a b\"");
    assert_eq!(text_field(&"x".repeat(70), 60).len(), 62);
    assert_eq!(document_field("R 2611_004/ä"), "\"R2611004/\"");
    assert_eq!(amount_field(Decimal::new(-12345, 3)), "12,35");
}

#[test]
fn windows_1252_encoding() {
    assert_eq!(
        to_windows_1252("Erlöse €5 „x“"),
        b"Erl\xf6se \x805 \x84x\x93".to_vec()
    );
    assert_eq!(to_windows_1252("日"), b"?".to_vec());
}

#[test]
fn the_file_is_header_columns_bookings_in_crlf_lines() {
    let created = date(2026, 12, 1).and_hms_opt(0, 0, 0).unwrap();
    let (from, to) = november();
    let text = buchungsstapel(&settings(), created, from, to, "EUR", &[]);
    let lines: Vec<&str> = text.split("\r\n").collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[1].starts_with("Umsatz (ohne Soll/Haben-Kz);Soll/Haben-Kennzeichen;"));
    assert_eq!(lines[2], "");
}
