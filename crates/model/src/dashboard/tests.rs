//! Unit tests of `dashboard` (kept apart so the module itself stays short).

use super::*;
use InvoiceStatus::*;

fn d(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}
fn day(s: &str) -> NaiveDate {
    NaiveDate::from_str(s).unwrap()
}

#[test]
fn open_amount_is_gross_minus_payments_for_collectible_invoices() {
    let gross = d("119.00");
    assert_eq!(
        open_amount(Sent, false, gross, d("50"), "EUR").to_string(),
        "69.00"
    );
    assert_eq!(
        open_amount(PartiallyPaid, false, gross, d("119"), "EUR").to_string(),
        "0.00"
    );
    assert_eq!(
        open_amount(Paid, false, gross, d("200"), "EUR").to_string(),
        "0.00",
        "overpaid is 0, never negative"
    );
    assert_eq!(
        open_amount(Created, false, d("-119.00"), d("0"), "EUR").to_string(),
        "0.00",
        "a reversal owes nothing"
    );
    assert_eq!(
        open_amount(Overdue, false, gross, d("0"), "EUR").to_string(),
        "119.00"
    );
    for (status, reversed) in [(Draft, false), (Ignored, false), (Sent, true)] {
        assert_eq!(
            open_amount(status, reversed, gross, d("0"), "EUR").to_string(),
            "0.00",
            "{status} reversed={reversed}"
        );
    }
    assert_eq!(
        open_amount(Sent, false, d("1000"), d("1"), "JPY").to_string(),
        "999"
    );
    assert_eq!(
        open_amount(Sent, false, Decimal::MIN, Decimal::MAX, "EUR").to_string(),
        "0.00"
    );
}

#[test]
fn overdue_means_open_and_due_before_today() {
    let today = day("2026-11-23");
    assert!(is_overdue(day("2026-11-22"), today, d("0.01")));
    assert!(!is_overdue(day("2026-11-23"), today, d("10")), "due today");
    assert!(!is_overdue(day("2026-11-01"), today, d("0.00")), "settled");
    assert!(!is_overdue(day("2026-12-01"), today, d("10")));
    assert_eq!(days_overdue(day("2026-11-11"), today), 12);
    assert_eq!(days_overdue(day("2026-12-11"), today), 0);
    assert_eq!(days_overdue(day("2025-11-23"), today), 365);
}

#[test]
fn twelve_months_end_with_the_current_one() {
    let months = last_twelve_months(day("2026-11-23"));
    let text: Vec<String> = months.iter().map(|m| m.to_string()).collect();
    assert_eq!(text.len(), 12);
    assert_eq!(text[0], "2025-12");
    assert_eq!(text[11], "2026-11");
    assert_eq!(text[1], "2026-01");
    let jan = last_twelve_months(day("2026-01-31"));
    assert_eq!(
        (jan[0].to_string(), jan[11].to_string()),
        ("2025-02".into(), "2026-01".into())
    );
    assert_eq!(revenue_window_start(day("2026-11-23")), day("2025-12-01"));
    assert_eq!(
        YearMonth::of(day("2024-02-10")).last_day(),
        Some(day("2024-02-29"))
    );
    assert_eq!(
        YearMonth::of(day("2026-12-10")).last_day(),
        Some(day("2026-12-31"))
    );
}

#[test]
fn revenue_is_bucketed_by_invoice_month() {
    let today = day("2026-11-23");
    let months = revenue_by_month(
        today,
        [
            (day("2026-11-01"), d("100")),
            (day("2026-11-30"), d("50.5")),
            (day("2026-10-15"), d("200")),
            (day("2026-10-20"), d("-200")),
            (day("2025-12-01"), d("7")),
            (day("2025-11-30"), d("999")),
            (day("2026-12-01"), d("999")),
        ],
        "EUR",
    )
    .unwrap();
    assert_eq!(months.len(), 12);
    assert_eq!(months[11].month.to_string(), "2026-11");
    assert_eq!(months[11].net_total.to_string(), "150.50");
    assert_eq!(months[10].net_total.to_string(), "0.00");
    assert_eq!(months[0].net_total.to_string(), "7.00");
    assert_eq!(months[5].net_total.to_string(), "0.00");
    assert_eq!(
        revenue_by_month(today, [(today, Decimal::MAX), (today, Decimal::MAX)], "EUR"),
        None
    );
}

fn receivable(id: i64, due: &str, currency: &str, open: &str) -> Receivable {
    Receivable {
        id,
        identifier: Some(format!("R2611-{id:03}")),
        customer: IdName {
            id: 1,
            name: "Kranzler GmbH".into(),
        },
        due_date: day(due),
        currency: currency.into(),
        open_amount: d(open),
    }
}

#[test]
fn receivables_sum_open_and_overdue_per_currency_and_list_the_oldest() {
    let today = day("2026-11-23");
    let r = receivables(
        today,
        vec![
            receivable(1, "2026-12-01", "EUR", "100.00"),
            receivable(2, "2026-11-11", "EUR", "50.50"),
            receivable(3, "2026-11-23", "EUR", "10.00"),
            receivable(4, "2026-10-01", "CHF", "200.00"),
            receivable(5, "2026-09-01", "EUR", "0.00"),
            receivable(6, "2026-11-20", "EUR", "1.00"),
            receivable(7, "2026-11-21", "EUR", "2.00"),
            receivable(8, "2026-11-22", "EUR", "3.00"),
        ],
    )
    .unwrap();
    let figures = |v: &[CurrencyAmount]| {
        v.iter()
            .map(|c| (c.currency.clone(), c.count, c.amount.to_string()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        figures(&r.open),
        [
            ("CHF".to_string(), 1, "200.00".to_string()),
            ("EUR".to_string(), 6, "166.50".to_string())
        ]
    );
    assert_eq!(
        figures(&r.overdue),
        [
            ("CHF".to_string(), 1, "200.00".to_string()),
            ("EUR".to_string(), 4, "56.50".to_string())
        ]
    );
    let oldest: Vec<(i64, i64)> = r.oldest.iter().map(|o| (o.id, o.days_overdue)).collect();
    assert_eq!(oldest, [(4, 53), (2, 12), (6, 3), (7, 2), (8, 1)]);
    assert_eq!(receivables(today, vec![]), Some(Receivables::default()));
    assert_eq!(
        receivables(
            today,
            vec![
                receivable(1, "2026-11-01", "EUR", "1"),
                Receivable {
                    open_amount: Decimal::MAX,
                    ..receivable(2, "2026-11-01", "EUR", "1")
                }
            ]
        ),
        None
    );
}

#[test]
fn months_read_and_write_as_yyyy_mm() {
    let m: YearMonth = "2026-03".parse().unwrap();
    assert_eq!(
        m,
        YearMonth {
            year: 2026,
            month: 3
        }
    );
    assert_eq!(serde_json::to_string(&m).unwrap(), r#""2026-03""#);
    assert_eq!(
        serde_json::from_str::<YearMonth>(r#""2025-12""#).unwrap(),
        YearMonth {
            year: 2025,
            month: 12
        }
    );
    for bad in [
        "2026-13", "2026-3", "26-03", "2026/03", "2026-00", "abcd-ef",
    ] {
        assert!(bad.parse::<YearMonth>().is_err(), "{bad}");
    }
    assert_eq!(
        YearMonth {
            year: 2026,
            month: 1
        }
        .previous(),
        YearMonth {
            year: 2025,
            month: 12
        }
    );
}

#[test]
fn the_todo_list_names_every_kind_with_the_exact_list() {
    let today = NaiveDate::from_ymd_opt(2026, 11, 28).unwrap();
    let list = todo_list(today, |kind| match kind {
        TodoKind::OldDrafts => 2,
        TodoKind::BankTransactionsToReview => -1,
        _ => 0,
    });
    assert_eq!(list.len(), TodoKind::ALL.len());
    assert_eq!(list[1].kind, TodoKind::OldDrafts);
    assert_eq!(list[1].count, 2);
    assert_eq!(list[1].href, "/invoices?status=draft&date_to=2026-11-25");
    assert_eq!(
        list[2].href,
        "/offers?status=sent&due_date_from=2026-11-28&due_date_to=2026-12-05"
    );
    assert_eq!(list[5].count, 0, "never negative");
    for kind in TodoKind::ALL {
        assert_eq!(serde_json::to_value(kind).unwrap(), kind.as_str());
    }
    assert_eq!(
        serde_json::to_value(&list[0]).unwrap(),
        serde_json::json!({"kind": "invoices_to_remind", "count": 0, "href": "/dunning"})
    );
    // A month's end and a year's end.
    let (from, to) = offer_expiry_window(NaiveDate::from_ymd_opt(2026, 12, 28).unwrap());
    assert_eq!(
        (from.to_string(), to.to_string()),
        ("2026-12-28".into(), "2027-01-04".into())
    );
    assert_eq!(
        old_draft_cutoff(NaiveDate::from_ymd_opt(2027, 3, 1).unwrap()).to_string(),
        "2027-02-26"
    );
}
