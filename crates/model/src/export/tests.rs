//! Unit tests of `export` (kept apart so the module itself stays short).

use super::*;

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

fn invoice() -> Invoice {
    serde_json::from_str(
        r#"{
        "id": 4, "customer_id": 3, "project_id": null, "identifier": "R2611-004",
        "date": "2026-11-05", "due_date": "2026-11-19", "service_period": null,
        "service_period_from": null, "service_period_to": null, "status": "sent",
        "reversed": false, "reversal_invoice_id": null, "reversal": false,
        "reversed_invoice_id": null, "title": "Hosting; \"November\"", "recipient_address": "",
        "currency": "EUR", "net_total": 1100.00, "tax": 19,
        "vat": {"tax": 19, "reverse_charge": false, "intra_eu": false},
        "tax_breakdown": [
            {"tax_category": "standard", "tax": 19, "net_total": 1000.00, "tax_total": 190.00},
            {"tax_category": "reduced", "tax": 7, "net_total": 100.00, "tax_total": 7.00}
        ],
        "gross_total": 1297.00, "discount": 0, "cash_discount": 0,
        "cash_discount_days": 0, "debit_number": null, "credit_number": null,
        "locked": true, "activity_hours_modified": false, "custom_properties": {},
        "tags": [], "file_url": null, "user": null, "created_at": "2026-11-05T10:00:00Z",
        "updated_at": "2026-11-05T10:00:00Z"
    }"#,
    )
    .expect("invoice")
}

fn item(
    title: &str,
    net: &str,
    tax_total: &str,
    gross: &str,
    tax: &str,
    account: Option<&str>,
) -> String {
    let category = match account {
        Some(a) => format!(
            r#"{{"id": 1, "name": "Office", "credit_account": "{a}",
            "created_at": "2026-11-01T00:00:00Z", "updated_at": "2026-11-01T00:00:00Z"}}"#
        ),
        None => "null".into(),
    };
    format!(
        r#"{{"id": 1, "title": "{title}", "net_total": {net}, "tax_total": {tax_total}, "tax": {tax},
        "vat": {{"tax": {tax}, "reverse_charge": false, "intra_eu": false, "active": true}},
        "tax_included": false, "gross_total": {gross}, "category": {category},
        "supplier_credit_number": null, "expense": null}}"#
    )
}

fn purchase() -> Purchase {
    let items = [
        item("Paper", "100.00", "19.00", "119.00", "19", Some("4930")),
        item("Toner", "100.00", "19.00", "119.00", "19", None),
        item("Books", "100.00", "7.00", "107.00", "7", None),
        item("Stamps", "5.00", "0.00", "5.00", "0", None),
    ]
    .join(",");
    serde_json::from_str(&format!(
        r#"{{
        "id": 9, "identifier": "E2611-0001", "receipt_identifier": "INV-77", "title": "Paper",
        "info": null, "iban": "", "reference": null, "date": "2026-11-10", "due_date": null,
        "service_period_from": null, "service_period_to": null, "status": "pending",
        "payment_method": "bank_transfer", "net_total": 305.00, "gross_total": 350.00,
        "currency": "EUR", "file_url": null, "file_content_type": null,
        "custom_properties": {{}}, "tags": [], "company": null, "payments": [], "user": null,
        "items": [{items}],
        "created_at": "2026-11-10T00:00:00Z", "updated_at": "2026-11-10T00:00:00Z"
    }}"#
    ))
    .expect("purchase")
}

fn customer() -> Party {
    Party {
        id: 3,
        name: "Kranzler GmbH".into(),
        number: None,
        vat_identifier: Some("DE136308783".into()),
    }
}

#[test]
fn only_approved_purchases_are_booked() {
    let mut p = purchase();
    assert!(!purchase_is_bookable(&p), "pending");
    p.status = crate::purchase::PurchaseStatus::Approved;
    assert!(purchase_is_bookable(&p));
}

#[test]
fn periods_name_the_bad_parameter() {
    let p = parse_period(Some("2026-11-01"), Some("2026-11-30"), Some("de")).unwrap();
    assert_eq!(
        (p.from, p.to, p.locale),
        (date(2026, 11, 1), date(2026, 11, 30), Locale::De)
    );
    assert_eq!(
        parse_period(Some("2026-11-01"), Some("2026-11-01"), None)
            .unwrap()
            .locale,
        Locale::En
    );
    let keys = |e: FieldErrors| e.into_keys().collect::<Vec<_>>();
    assert_eq!(
        keys(parse_period(None, Some(""), None).unwrap_err()),
        ["from", "to"]
    );
    assert_eq!(
        keys(parse_period(Some("2026-13-01"), Some("x"), None).unwrap_err()),
        ["from", "to"]
    );
    assert_eq!(
        keys(parse_period(Some("2026-12-01"), Some("2026-11-30"), None).unwrap_err()),
        ["to"]
    );
    assert_eq!(
        keys(parse_period(Some("2026-11-01"), Some("2026-11-30"), Some("fr")).unwrap_err()),
        ["locale"]
    );
}

#[test]
fn quick_periods_seen_from_today() {
    use QuickPeriod::{LastMonth, LastYear, ThisMonth, ThisQuarter};
    let range = |from: &str, to: &str| (from.parse().unwrap(), to.parse().unwrap());
    let (today, late_nov, end_of_march) =
        (date(2026, 1, 15), date(2026, 11, 23), date(2026, 3, 31));
    // (period, today, its first and last day)
    let cases = [
        (ThisMonth, today, range("2026-01-01", "2026-01-31")),
        (LastMonth, today, range("2025-12-01", "2025-12-31")),
        (ThisQuarter, late_nov, range("2026-10-01", "2026-12-31")),
        (LastYear, today, range("2025-01-01", "2025-12-31")),
        (LastMonth, end_of_march, range("2026-02-01", "2026-02-28")),
    ];
    for (period, today, days) in cases {
        assert_eq!(period.range(today), days, "{period:?} on {today}");
    }
}

#[test]
fn headers_name_every_column_in_order() {
    // The header lines as the CSV files carry them (`;`-separated).
    assert_eq!(
        invoice_header(Locale::En).join(";"),
        "number;date;due_date;customer;debit_number;vat_identifier;\
         title;status;currency;tax_category;tax_rate;net;tax;gross"
    );
    assert_eq!(
        purchase_header(Locale::De).join(";"),
        "Belegnummer;Rechnungsnummer Lieferant;Belegdatum;Fälligkeit;Lieferant;Kreditor;\
         Titel;Status;Währung;Steuerart;Steuersatz;Netto;Steuer;Brutto"
    );
}

#[test]
fn names_of_files_and_entries() {
    let p = parse_period(Some("2026-11-01"), Some("2026-11-30"), None).unwrap();
    assert_eq!(
        file_name("invoices", &p, "csv"),
        "invoices_2026-11-01_2026-11-30.csv"
    );
    assert_eq!(
        entry_name("invoices", "R2611-004", date(2026, 11, 5), "pdf"),
        "invoices/R2611-004_2026-11-05.pdf"
    );
    assert_eq!(
        entry_name("purchases", "../x/y", date(2026, 11, 5), "png"),
        "purchases/___x_y_2026-11-05.png"
    );
    assert_eq!(extension("image/jpeg"), "jpg");
    assert_eq!(extension("application/xml"), "xml");
}

#[test]
fn numbers_and_dates_per_locale() {
    let a = Decimal::new(-123450, 2);
    assert_eq!(amount_text(a, "EUR", Locale::En), "-1234.50");
    assert_eq!(amount_text(a, "EUR", Locale::De), "-1234,50");
    assert_eq!(amount_text(Decimal::new(1235, 1), "JPY", Locale::De), "124");
    assert_eq!(rate_text(Decimal::new(550, 2), Locale::De), "5,5");
    assert_eq!(rate_text(Decimal::new(1900, 2), Locale::En), "19");
    assert_eq!(date_text(date(2026, 11, 5), Locale::De), "05.11.2026");
    assert_eq!(date_text(date(2026, 11, 5), Locale::En), "2026-11-05");
}

#[test]
fn an_invoice_with_two_rates_gives_two_rows() {
    let rows = invoice_rows(&invoice(), &customer(), Locale::De).unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0][0], "R2611-004");
    assert_eq!(rows[0][4], "10003");
    // In German the status and the VAT category are German words (issue 34).
    assert_eq!(
        &rows[0][9..],
        ["Regelsteuersatz", "19", "1000,00", "190,00", "1190,00"]
    );
    assert_eq!(
        &rows[1][9..],
        ["ermäßigter Steuersatz", "7", "100,00", "7,00", "107,00"]
    );
    assert_eq!(
        rows[0][7],
        status_text(invoice().status.as_str(), Locale::De)
    );
    assert_ne!(rows[0][7], invoice().status.as_str());
    let english = invoice_rows(&invoice(), &customer(), Locale::En).unwrap();
    assert_eq!(english[0][9], "standard");
    assert_eq!(english[0][7], invoice().status.as_str());
    assert_eq!(invoice_header(Locale::En).len(), rows[0].len());
}

#[test]
fn statuses_and_categories_read_german_in_german() {
    assert_eq!(
        status_text("partially_paid", Locale::De),
        "Teilweise bezahlt"
    );
    assert_eq!(status_text("approved", Locale::De), "Freigegeben");
    assert_eq!(status_text("partially_paid", Locale::En), "partially_paid");
    assert_eq!(status_text("something", Locale::De), "something");
    assert_eq!(
        category_text(TaxCategory::IntraEu, Locale::De),
        "innergemeinschaftlich"
    );
    assert_eq!(category_text(TaxCategory::IntraEu, Locale::En), "intra_eu");
}

#[test]
fn invoice_bookings_go_to_the_revenue_account_of_each_group() {
    let mut settings = DatevSettings::default();
    settings.revenue_accounts.reduced = 8000;
    let b = invoice_bookings(&invoice(), &customer(), &settings).unwrap();
    assert_eq!(b.len(), 2);
    assert_eq!(
        (b[0].account, b[0].contra_account, b[0].bu_key),
        (10003, 8400, None)
    );
    assert_eq!(b[0].gross, Decimal::new(119_000, 2));
    // A non-automatic account gets the BU-Schlüssel of its rate.
    assert_eq!((b[1].contra_account, b[1].bu_key), (8000, Some("2")));
    assert_eq!(b[0].text, "Kranzler GmbH Hosting; \"November\"");
    assert_eq!(b[0].vat_identifier, None);
}

#[test]
fn intra_eu_revenue_carries_the_vat_identifier() {
    let mut inv = invoice();
    inv.tax_breakdown.truncate(1);
    inv.tax_breakdown[0].tax_category = TaxCategory::IntraEu;
    inv.tax_breakdown[0].tax = Decimal::ZERO;
    inv.tax_breakdown[0].tax_total = Decimal::ZERO;
    let b = invoice_bookings(&inv, &customer(), &DatevSettings::default()).unwrap();
    assert_eq!(b[0].contra_account, 8125);
    assert_eq!(b[0].vat_identifier.as_deref(), Some("DE136308783"));
}

#[test]
fn purchases_group_by_rate_and_for_datev_by_account() {
    let p = purchase();
    let supplier = Party {
        id: 5,
        name: "Papier AG".into(),
        number: Some(70100),
        vat_identifier: None,
    };
    let rows = purchase_rows(&p, &supplier, Locale::En).unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(&rows[0][10..], ["19", "200.00", "38.00", "238.00"]);
    assert_eq!(rows[0][5], "70100");
    assert_eq!(rows[2][9], "zero");
    let b = purchase_bookings(&p, &supplier).unwrap();
    let accounts: Vec<(u32, Option<&str>)> =
        b.iter().map(|b| (b.contra_account, b.bu_key)).collect();
    assert_eq!(
        accounts,
        [(4930, Some("9")), (3400, None), (3300, None), (3200, None)]
    );
    assert!(b
        .iter()
        .all(|b| b.account == 70100 && b.side == Side::Expense));
    assert_eq!(b[0].text, "Papier AG INV-77");
}
