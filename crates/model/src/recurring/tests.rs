//! Unit tests of `recurring` (kept apart so the module itself stays short).

use super::*;
use crate::invoice_input::NewInvoiceItem;
use crate::position::PositionType;
use rust_decimal::Decimal;

fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).unwrap()
}

fn template() -> NewInvoice {
    NewInvoice {
        customer_id: Some(1),
        recipient_address: Some("Kranzler GmbH\nMain St 1".into()),
        title: Some("Hosting {month} {year}".into()),
        tax: Some(Decimal::from(19)),
        currency: Some("EUR".into()),
        items: Some(vec![NewInvoiceItem {
            kind: Some(PositionType::Item),
            title: Some("Server {period}".into()),
            description: Some("<p>{quarter}</p>".into()),
            quantity: Some(Decimal::ONE),
            unit_price: Some(Decimal::from(50)),
            ..Default::default()
        }]),
        ..Default::default()
    }
}

fn body() -> NewRecurringInvoice {
    NewRecurringInvoice {
        template: Some(template()),
        interval: Some(Interval::Monthly),
        next_date: Some(d(2026, 11, 1)),
        end_date: None,
        mode: Some(RecurringMode::Draft),
    }
}

#[test]
fn periods_are_calendar_months_quarters_years() {
    let p = period_of(Interval::Monthly, d(2026, 2, 14)).unwrap();
    assert_eq!((p.start, p.end), (d(2026, 2, 1), d(2026, 2, 28)));
    let p = period_of(Interval::Monthly, d(2028, 2, 29)).unwrap();
    assert_eq!(p.end, d(2028, 2, 29));
    let p = period_of(Interval::Quarterly, d(2026, 11, 5)).unwrap();
    assert_eq!((p.start, p.end), (d(2026, 10, 1), d(2026, 12, 31)));
    let p = period_of(Interval::Quarterly, d(2026, 3, 31)).unwrap();
    assert_eq!((p.start, p.end), (d(2026, 1, 1), d(2026, 3, 31)));
    let p = period_of(Interval::Yearly, d(2026, 7, 1)).unwrap();
    assert_eq!((p.start, p.end), (d(2026, 1, 1), d(2026, 12, 31)));
}

#[test]
fn next_date_follows_the_anchor_without_drift() {
    let feb = advance(d(2026, 1, 31), Interval::Monthly, 31).unwrap();
    assert_eq!(feb, d(2026, 2, 28));
    assert_eq!(advance(feb, Interval::Monthly, 31).unwrap(), d(2026, 3, 31));
    // (from, interval, anchor day, next date)
    let cases = [
        (d(2028, 1, 31), Interval::Monthly, 31, d(2028, 2, 29)),
        (d(2026, 11, 30), Interval::Quarterly, 30, d(2027, 2, 28)),
        (d(2027, 2, 28), Interval::Quarterly, 30, d(2027, 5, 30)),
        (d(2028, 2, 29), Interval::Yearly, 29, d(2029, 2, 28)),
        (d(2026, 12, 15), Interval::Monthly, 15, d(2027, 1, 15)),
    ];
    for (from, interval, day, next) in cases {
        assert_eq!(
            advance(from, interval, day),
            Some(next),
            "{from} {interval:?} on day {day}"
        );
    }
    assert_eq!(advance(d(2026, 1, 1), Interval::Monthly, 0), None);
    assert_eq!(advance(d(2026, 1, 1), Interval::Monthly, 32), None);
}

#[test]
fn due_dates_catch_up_every_missed_period_until_today_and_the_end() {
    let today = d(2026, 11, 23);
    let all = due_dates(d(2026, 8, 31), Interval::Monthly, 31, None, today, 100);
    assert_eq!(
        all,
        vec![d(2026, 8, 31), d(2026, 9, 30), d(2026, 10, 31)],
        "November's 30th is after today"
    );
    let ended = due_dates(
        d(2026, 8, 31),
        Interval::Monthly,
        31,
        Some(d(2026, 9, 30)),
        today,
        100,
    );
    assert_eq!(ended, vec![d(2026, 8, 31), d(2026, 9, 30)]);
    assert!(due_dates(d(2026, 11, 24), Interval::Monthly, 24, None, today, 100).is_empty());
    assert_eq!(
        due_dates(d(2026, 11, 23), Interval::Yearly, 23, None, today, 100),
        vec![today]
    );
    assert_eq!(
        due_dates(d(2000, 1, 1), Interval::Monthly, 1, None, today, 5).len(),
        5
    );
}

#[test]
fn active_until_the_next_date_passes_the_end() {
    assert!(is_active(d(2026, 12, 1), None));
    assert!(is_active(d(2026, 12, 1), Some(d(2026, 12, 1))));
    assert!(!is_active(d(2027, 1, 1), Some(d(2026, 12, 1))));
}

#[test]
fn placeholders_follow_the_period_and_the_language() {
    let nov = period_of(Interval::Monthly, d(2026, 11, 1)).unwrap();
    let march = period_of(Interval::Monthly, d(2026, 3, 9)).unwrap();
    let q = period_of(Interval::Quarterly, d(2026, 11, 5)).unwrap();
    let y = period_of(Interval::Yearly, d(2026, 11, 5)).unwrap();
    // (template, period, interval, language, text)
    let cases = [
        (
            "{month} {year} {quarter} {period}",
            nov,
            Interval::Monthly,
            Language::En,
            "November 2026 Q4 11/2026",
        ),
        (
            "Hosting {month}",
            march,
            Interval::Monthly,
            Language::De,
            "Hosting März",
        ),
        (
            "Hosting {month}",
            march,
            Interval::Monthly,
            Language::En,
            "Hosting March",
        ),
        (
            "{period} / {month} / {x}",
            q,
            Interval::Quarterly,
            Language::De,
            "Q4 2026 / Oktober / {x}",
        ),
        ("{period}", y, Interval::Yearly, Language::De, "2026"),
    ];
    for (template, period, interval, language, text) in cases {
        assert_eq!(
            fill_placeholders(template, period, interval, language),
            text,
            "{template} {language:?}"
        );
    }
    assert_eq!(month_name(0, Language::De), "");
    assert_eq!(month_name(13, Language::En), "");
}

#[test]
fn the_run_body_is_dated_with_the_service_period_and_filled_texts() {
    let period = period_of(Interval::Monthly, d(2026, 11, 1)).unwrap();
    // The November run, dated the 1st, in German.
    let november_body = |due_date, mode| {
        let (date, interval) = (d(2026, 11, 1), Interval::Monthly);
        invoice_body(
            &template(),
            date,
            due_date,
            period,
            interval,
            mode,
            Language::De,
        )
    };
    let b = november_body(d(2026, 11, 15), RecurringMode::Finalize);
    assert_eq!(b.date, Some(d(2026, 11, 1)));
    assert_eq!(b.due_date, Some(d(2026, 11, 15)));
    assert_eq!(b.service_period_from, Some(d(2026, 11, 1)));
    assert_eq!(b.service_period_to, Some(d(2026, 11, 30)));
    assert_eq!(b.status, Some(InvoiceStatus::Created));
    assert_eq!(b.title.as_deref(), Some("Hosting November 2026"));
    let item = &b.items.as_ref().unwrap()[0];
    assert_eq!(item.title.as_deref(), Some("Server 11/2026"));
    assert_eq!(item.description.as_deref(), Some("<p>Q4</p>"));
    let draft = november_body(d(2026, 11, 1), RecurringMode::Draft);
    assert_eq!(draft.status, Some(InvoiceStatus::Draft));
}

#[test]
fn a_valid_schedule_has_no_errors() {
    assert_eq!(
        validate_recurring(&body(), &["EUR".into()]),
        FieldErrors::new()
    );
}

#[test]
fn missing_fields_are_named() {
    let e = validate_recurring(&NewRecurringInvoice::default(), &["EUR".into()]);
    for field in ["template", "interval", "next_date", "mode"] {
        assert!(e.contains_key(field), "{field}: {e:?}");
    }
}

#[test]
fn the_end_is_not_before_the_next_date() {
    let mut b = body();
    b.end_date = Some(d(2026, 10, 31));
    assert!(validate_recurring(&b, &["EUR".into()]).contains_key("end_date"));
    b.end_date = Some(d(2026, 11, 1));
    assert!(validate_recurring(&b, &["EUR".into()]).is_empty());
}

#[test]
fn template_errors_are_the_invoice_rules_prefixed() {
    let mut b = body();
    let t = b.template.as_mut().unwrap();
    t.customer_id = None;
    t.currency = Some("XYZ".into());
    t.items.as_mut().unwrap()[0].title = None;
    t.offer_id = Some(4);
    t.items.as_mut().unwrap()[0].activity_ids = Some(vec![1]);
    let e = validate_recurring(&b, &["EUR".into()]);
    for field in [
        "template.customer_id",
        "template.currency",
        "template.items[0].title",
        "template.offer_id",
        "template.items[0].activity_ids",
    ] {
        assert!(e.contains_key(field), "{field}: {e:?}");
    }
    // A draft-mode schedule still needs a complete template.
    let mut b = body();
    b.template.as_mut().unwrap().items = None;
    assert!(validate_recurring(&b, &["EUR".into()]).contains_key("template.items"));
}

#[test]
fn prefixing_names_the_template() {
    let mut e = FieldErrors::new();
    push_error(&mut e, "body", crate::error::Message::verbatim("x"));
    push_error(
        &mut e,
        "items[1].unit_price",
        crate::error::Message::verbatim("y"),
    );
    let p = prefix_errors(e, "template");
    assert!(p.contains_key("template"));
    assert!(p.contains_key("template.items[1].unit_price"));
}

#[test]
fn wire_names_round_trip() {
    for i in [Interval::Monthly, Interval::Quarterly, Interval::Yearly] {
        assert_eq!(Interval::parse(i.as_str()), Some(i));
        assert_eq!(
            serde_json::to_value(i).unwrap(),
            serde_json::json!(i.as_str())
        );
    }
    for m in [
        RecurringMode::Draft,
        RecurringMode::Finalize,
        RecurringMode::Send,
    ] {
        assert_eq!(RecurringMode::parse(m.as_str()), Some(m));
    }
    assert_eq!(Interval::parse("weekly"), None);
    let parsed: NewRecurringInvoice = serde_json::from_str(
        r#"{"template": {"customer_id": 1}, "interval": "quarterly", "next_date": "2026-12-01", "end_date": null, "mode": "send"}"#,
    )
    .unwrap();
    assert_eq!(parsed.interval, Some(Interval::Quarterly));
    assert_eq!(parsed.mode, Some(RecurringMode::Send));
    assert_eq!(parsed.end_date, None);
}

#[test]
fn emails_speak_the_customers_language() {
    assert_eq!(
        email_subject("R2611-001", Language::De),
        "Rechnung R2611-001"
    );
    assert_eq!(
        email_subject("R2611-001", Language::En),
        "Invoice R2611-001"
    );
    let text = |language| {
        let (date, due_date) = (d(2026, 11, 1), d(2026, 11, 15));
        email_text("R2611-001", date, due_date, "Kontor", language)
    };
    let t = text(Language::De);
    assert!(t.contains("01.11.2026") && t.contains("15.11.2026") && t.ends_with("Kontor"));
    let t = text(Language::En);
    assert!(t.contains("2026-11-15"));
}
