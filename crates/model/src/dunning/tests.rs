//! Unit tests of `dunning` (kept apart so the module itself stays short).

use super::*;

fn d(s: &str) -> Decimal {
    s.parse().unwrap()
}

fn date(s: &str) -> NaiveDate {
    s.parse().unwrap()
}

#[test]
fn the_worked_example_of_the_issue() {
    // 1,190.00 € invoice, 500.00 € paid, 45 days overdue, base rate 1.27 %.
    let open = crate::payment_rules::unpaid_amount(d("1190.00"), &[d("500.00")], "EUR");
    assert_eq!(open, d("690.00"));
    let base = base_rate_on(&published_base_rates(), date("2026-11-24")).unwrap();
    assert_eq!(base, d("1.27"));
    let rate = default_interest_rate(base, false);
    assert_eq!(rate, d("10.27"));
    let interest = default_interest(open, rate, 45, "EUR").unwrap();
    assert_eq!(interest.to_string(), "8.74");
}

#[test]
fn interest_rounds_half_away_from_zero_and_is_zero_without_days() {
    // 100.00 × 3.65 % × 1 / 365 = 0.01 exactly; 50.00 × 3.65 % × 1 / 365 = 0.005 → 0.01.
    // (open amount, rate in percent, days, currency, interest)
    let cases = [
        ("100.00", "3.65", 1, "EUR", "0.01"),
        ("50.00", "3.65", 1, "EUR", "0.01"),
        ("690.00", "10.27", 0, "EUR", "0.00"),
        ("0", "10.27", 45, "EUR", "0.00"),
        ("690", "10.27", 45, "JPY", "9"),
    ];
    for (open, rate, days, currency, interest) in cases {
        assert_eq!(
            default_interest(d(open), d(rate), days, currency),
            Some(d(interest)),
            "{open} {currency} at {rate} % for {days} days"
        );
    }
    assert_eq!(default_interest(Decimal::MAX, d("30"), 365, "EUR"), None);
}

#[test]
fn consumers_pay_five_points_and_a_negative_base_rate_counts() {
    assert_eq!(default_interest_rate(d("1.27"), true), d("6.27"));
    let base_2021 = base_rate_on(&published_base_rates(), date("2021-03-01")).unwrap();
    assert_eq!(base_2021, d("-0.88"));
    assert_eq!(default_interest_rate(base_2021, false), d("8.12"));
    assert_eq!(default_interest_rate(d("-6"), true), d("0"));
    assert_eq!(
        base_rate_on(&published_base_rates(), date("2019-12-31")),
        None
    );
    // The rate changes on 1 July.
    let table = published_base_rates();
    assert_eq!(base_rate_on(&table, date("2024-06-30")), Some(d("3.62")));
    assert_eq!(base_rate_on(&table, date("2024-07-01")), Some(d("3.37")));
}

#[test]
fn interest_rates_outside_0_to_30_percent_are_refused() {
    assert!(check_interest_rate(d("0")).is_ok());
    assert!(check_interest_rate(d("30")).is_ok());
    assert!(check_interest_rate(d("-0.01")).is_err());
    assert!(check_interest_rate(d("30.01")).is_err());
}

#[test]
fn overdue_from_the_day_after_the_due_date_while_something_is_open() {
    let due = date("2026-11-16");
    let sent = InvoiceStatus::Sent;
    assert_eq!(
        effective_status(sent, false, due, date("2026-11-16"), d("1")),
        sent
    );
    assert_eq!(
        effective_status(sent, false, due, date("2026-11-17"), d("1")),
        InvoiceStatus::Overdue
    );
    assert_eq!(
        effective_status(
            InvoiceStatus::Created,
            false,
            due,
            date("2026-12-01"),
            d("1")
        ),
        InvoiceStatus::Overdue
    );
    // Nothing open, reversed, paid, partially paid or a draft: as stored.
    assert_eq!(
        effective_status(sent, false, due, date("2026-12-01"), d("0")),
        sent
    );
    assert_eq!(
        effective_status(sent, true, due, date("2026-12-01"), d("1")),
        sent
    );
    for status in [
        InvoiceStatus::Paid,
        InvoiceStatus::PartiallyPaid,
        InvoiceStatus::Draft,
    ] {
        assert_eq!(
            effective_status(status, false, due, date("2026-12-01"), d("1")),
            status
        );
    }
}

#[test]
fn a_payment_within_the_cash_discount_days_of_gross_minus_discount_settles() {
    let (gross, pct, days) = (d("1190.00"), d("2"), 10);
    let dated = date("2026-11-02");
    assert_eq!(cash_discount_amount(gross, pct, "EUR"), Some(d("23.80")));
    let pay = d("1166.20");
    // (cash discount %, days, paid on, amount, settles); a day late, the wrong amount, no
    // discount agreed or no days: no.
    let cases = [
        (pct, days, date("2026-11-12"), pay, true),
        (pct, days, date("2026-11-13"), pay, false),
        (pct, days, dated, d("1166.19"), false),
        (d("0"), days, dated, gross, false),
        (pct, 0, dated, pay, false),
    ];
    for (pct, days, paid_on, amount, settles) in cases {
        assert_eq!(
            settles_with_cash_discount(gross, pct, days, dated, paid_on, amount, "EUR"),
            settles,
            "{amount} paid on {paid_on} with {pct} % in {days} days"
        );
    }
}

/// A payment: when and how much.
type Paid = (NaiveDate, Decimal);

#[test]
fn the_payments_together_take_the_cash_discount_when_they_settle_in_time() {
    let (gross, pct, days) = (d("1190.00"), d("2"), 10);
    let dated = date("2026-11-02");
    let one = [(date("2026-11-12"), d("1166.20"))];
    let two = [
        (date("2026-11-05"), d("1000")),
        (date("2026-11-10"), d("166.20")),
    ];
    // The second part a day late, too little, the full amount, none: no discount.
    let late = [
        (date("2026-11-05"), d("1000")),
        (date("2026-11-13"), d("166.20")),
    ];
    let short = [(date("2026-11-05"), d("1000"))];
    let full = [(date("2026-11-05"), gross)];
    let huge = [(dated, Decimal::MAX), (dated, Decimal::MAX)];
    let cases: [(&[Paid], Option<Decimal>); 7] = [
        (&one, Some(d("23.80"))),
        (&two, Some(d("23.80"))),
        (&late, None),
        (&short, None),
        (&full, None),
        (&[], None),
        (&huge, None),
    ];
    for (payments, taken) in cases {
        assert_eq!(
            cash_discount_taken(gross, pct, days, dated, payments, "EUR"),
            taken,
            "{payments:?}"
        );
    }
}

#[test]
fn the_amount_due_adds_fees_and_interest_to_the_open_amount() {
    // The worked example: 690.00 open, 5.00 fee, 40.00 flat fee, 8.74 interest.
    assert_eq!(
        amount_due(d("690.00"), d("5.00"), d("40.00"), d("8.74")),
        Some(d("743.74"))
    );
    assert_eq!(amount_due(d("1"), d("0"), d("0"), d("0")), Some(d("1")));
    assert_eq!(amount_due(Decimal::MAX, d("1"), d("0"), d("0")), None);
}

#[test]
fn levels_follow_each_other_from_the_due_date() {
    let levels = default_levels();
    assert!(validate_levels(&levels).is_ok());
    assert_eq!(next_level(0, &levels), Some(1));
    assert_eq!(next_level(2, &levels), Some(3));
    assert_eq!(next_level(3, &levels), None);
    let due = date("2026-11-16");
    assert_eq!(
        level_due_on(1, &levels, due, None),
        Some(date("2026-11-23"))
    );
    assert_eq!(
        level_due_on(2, &levels, due, Some(date("2026-11-24"))),
        Some(date("2026-12-08"))
    );
    assert_eq!(level_due_on(4, &levels, due, None), None);
    // Only level 2 and above carry a fee by default.
    assert_eq!(levels[0].fee, Decimal::ZERO);
    assert!(levels[1..].iter().all(|l| l.fee > Decimal::ZERO));
}

#[test]
fn bad_levels_are_refused_with_the_field_named() {
    let mut levels = default_levels();
    levels[1].level = 5;
    levels[2].fee = d("-1");
    levels[0].days = 400;
    levels[0].text.de = "Bitte zahlen Sie {betrag}".into();
    levels[2].name.en = " ".into();
    let errors = validate_levels(&levels).unwrap_err();
    for field in [
        "levels[1].level",
        "levels[2].fee",
        "levels[0].days",
        "levels[0].text.de",
        "levels[2].name.en",
    ] {
        assert!(errors.contains_key(field), "{field}: {errors:?}");
    }
    assert!(errors["levels[0].text.de"][0].contains("{betrag}"));
    assert!(validate_levels(&[]).unwrap_err().contains_key("levels"));
}

#[test]
fn texts_are_filled_with_the_invoice_s_figures() {
    let text = &default_levels()[1].text.en;
    let filled = fill_text(
        text,
        &[
            ("invoice_number", "R2611-001"),
            ("invoice_date", "2 Nov 2026"),
            ("open_amount", "690.00 EUR"),
            ("fees", "5.00 EUR"),
            ("interest", "8.74 EUR"),
            ("new_due_date", "8 Dec 2026"),
        ],
    );
    assert!(filled.contains("R2611-001 of 2 Nov 2026 is still open: 690.00 EUR"));
    assert!(filled.contains("5.00 EUR") && filled.contains("8.74 EUR"));
    assert!(!filled.contains('{'));
}

fn request<'a>(levels: &'a [DunningLevel], rates: &'a [BaseRate]) -> ClaimRequest<'a> {
    ClaimRequest {
        levels,
        base_rates: rates,
        last_level: 0,
        dunning_level: None,
        fee: None,
        charge_interest: false,
        interest_rate: None,
        date: date("2026-11-24"),
        due_date: None,
        invoice_due_date: date("2026-10-10"),
        open_amount: d("690.00"),
        currency: "EUR",
        consumer: false,
    }
}

#[test]
fn a_reminder_claims_the_next_level_its_fees_and_the_worked_interest() {
    let levels = default_levels();
    let rates = published_base_rates();
    // The first reminder: level 1, no fee, no interest unless asked; due again when
    // level 2 would be (14 days later).
    let first = reminder_claim(&request(&levels, &rates)).unwrap();
    assert_eq!(first.dunning_level, 1);
    assert_eq!(first.fee.to_string(), "0.00");
    assert_eq!(first.days_overdue, 45);
    assert_eq!(first.interest_rate, None);
    assert_eq!(first.interest.to_string(), "0.00");
    assert_eq!(first.due_date, date("2026-12-08"));
    // After level 1: level 2 with its fee and, asked for, 10.27 % for 45 days = 8.74.
    let mut second = request(&levels, &rates);
    second.last_level = 1;
    second.charge_interest = true;
    let claim = reminder_claim(&second).unwrap();
    assert_eq!(claim.dunning_level, 2);
    assert_eq!(claim.fee.to_string(), "5.00");
    assert_eq!(claim.interest_rate, Some(d("10.27")));
    assert_eq!(claim.interest.to_string(), "8.74");
    assert_eq!(
        claim.flat_fee.to_string(),
        "0.00",
        "not a flat-fee level by default"
    );
    // A consumer pays base + 5 points; a rate of the request wins; a fee too.
    second.consumer = true;
    assert_eq!(
        reminder_claim(&second).unwrap().interest_rate,
        Some(d("6.27"))
    );
    second.interest_rate = Some(d("8"));
    second.fee = Some(d("2.5"));
    let chosen = reminder_claim(&second).unwrap();
    assert_eq!(chosen.interest_rate, Some(d("8")));
    assert_eq!(chosen.fee.to_string(), "2.5");
}

#[test]
fn a_flat_fee_level_charges_businesses_in_euro_only() {
    let mut levels = default_levels();
    levels[1].flat_fee = true;
    let rates = published_base_rates();
    let mut req = request(&levels, &rates);
    req.dunning_level = Some(2);
    assert_eq!(reminder_claim(&req).unwrap().flat_fee.to_string(), "40.00");
    req.consumer = true;
    assert_eq!(reminder_claim(&req).unwrap().flat_fee.to_string(), "0.00");
    req.consumer = false;
    req.currency = "CHF";
    assert_eq!(reminder_claim(&req).unwrap().flat_fee.to_string(), "0.00");
}

#[test]
fn claims_are_refused_by_field() {
    let levels = default_levels();
    let rates = published_base_rates();
    let mut past_last = request(&levels, &rates);
    past_last.last_level = 3;
    let errors = reminder_claim(&past_last).unwrap_err();
    assert!(errors.contains_key("dunning_level"), "{errors:?}");
    past_last.dunning_level = Some(3);
    assert_eq!(
        reminder_claim(&past_last).unwrap().dunning_level,
        3,
        "a level may be repeated"
    );
    let mut unknown = request(&levels, &rates);
    unknown.dunning_level = Some(4);
    assert!(reminder_claim(&unknown)
        .unwrap_err()
        .contains_key("dunning_level"));
    let mut rate = request(&levels, &rates);
    rate.charge_interest = true;
    rate.interest_rate = Some(d("31"));
    assert!(reminder_claim(&rate)
        .unwrap_err()
        .contains_key("interest_rate"));
    let mut no_base = request(&levels, &[]);
    no_base.charge_interest = true;
    assert!(reminder_claim(&no_base)
        .unwrap_err()
        .contains_key("interest_rate"));
    let mut settled = request(&levels, &rates);
    settled.open_amount = d("0.00");
    assert!(reminder_claim(&settled)
        .unwrap_err()
        .contains_key("invoice_id"));
    // Not overdue on the reminder's date (before or on the due date): refused; the
    // day after the due date: one day overdue.
    for day in ["2026-10-01", "2026-10-10"] {
        let mut early = request(&levels, &rates);
        early.date = date(day);
        let errors = reminder_claim(&early).unwrap_err();
        assert!(
            errors["invoice_id"][0].contains("not overdue"),
            "{day}: {errors:?}"
        );
    }
    let mut next_day = request(&levels, &rates);
    next_day.date = date("2026-10-11");
    assert_eq!(reminder_claim(&next_day).unwrap().days_overdue, 1);
}

#[test]
fn base_rate_tables_are_checked_by_row() {
    assert!(validate_base_rates(&published_base_rates()).is_ok());
    let row = |from: &str, rate: &str| BaseRate {
        from: date(from),
        rate: d(rate),
    };
    let errors = validate_base_rates(&[
        row("2026-07-01", "1.27"),
        row("2026-01-01", "25"),
        row("2027-01-01", "1.234"),
    ])
    .unwrap_err();
    assert!(errors.contains_key("base_rates[1].from"), "{errors:?}");
    assert!(errors.contains_key("base_rates[1].rate"), "{errors:?}");
    assert!(errors.contains_key("base_rates[2].rate"), "{errors:?}");
    assert!(validate_base_rates(&[])
        .unwrap_err()
        .contains_key("base_rates"));
}

#[test]
fn every_shown_status_comes_from_a_stored_status_that_may_show_as_it() {
    // Every combination effective_status distinguishes: reversed or not, due before, on
    // or after today, nothing or something open.
    let today = date("2026-11-30");
    let mut seen = std::collections::BTreeSet::new();
    for stored in InvoiceStatus::ALL {
        for reversed in [false, true] {
            for due in ["2026-11-29", "2026-11-30", "2026-12-01"] {
                for open in ["0", "0.01", "-5"] {
                    let shown = effective_status(stored, reversed, date(due), today, d(open));
                    assert!(may_show_as(stored, shown), "{stored:?} shown as {shown:?}");
                    seen.insert((stored.as_str(), shown.as_str()));
                }
            }
        }
    }
    // And nothing more: a stored status that may show as another one does for some case.
    for stored in InvoiceStatus::ALL {
        for shown in InvoiceStatus::ALL {
            assert_eq!(
                may_show_as(stored, shown),
                seen.contains(&(stored.as_str(), shown.as_str())),
                "{stored:?} as {shown:?}"
            );
        }
    }
}
