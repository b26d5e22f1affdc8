//! Component tests of the dashboard (issue 11 § Find and see) in headless Chromium: the
//! revenue chart's bars and labels for a fixed data set (heights to scale, a negative
//! month below the zero line, every month a link to its invoices, the hidden table), and
//! the cards' figures, links and empty states.
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target wasm32-unknown-unknown --test components -- dashboard::`.
#![cfg(target_arch = "wasm32")]

use chrono::NaiveDate;
use kontor_app::pages::dashboard::chart::{bars, baseline};
use kontor_app::pages::dashboard::{DashboardView, RevenueChart};
use kontor_model::dashboard::{
    last_twelve_months, todo_list, CurrencyAmount, Dashboard, MonthRevenue, OpenInvoice,
    Receivables, Revenue, SentOffers, TodoKind,
};
use kontor_model::party::IdName;
use leptos::prelude::*;
use wasm_bindgen_test::*;
use web_sys::HtmlElement;

use crate::support::dom;

use dom::{container, d, find, settle, texts};

fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 23).unwrap()
}

/// Dec 2025 … Nov 2026: 0 in most months, 1000 in November, 500 in October, −250 in
/// March (a reversal outweighing), 100 in December 2025.
fn months() -> Vec<MonthRevenue> {
    last_twelve_months(today())
        .into_iter()
        .map(|month| MonthRevenue {
            month,
            net_total: match (month.year, month.month) {
                (2026, 11) => d("1000.00"),
                (2026, 10) => d("500.00"),
                (2026, 3) => d("-250.00"),
                (2025, 12) => d("100.00"),
                _ => d("0.00"),
            },
        })
        .collect()
}

fn attr(el: &HtmlElement, name: &str) -> f64 {
    el.get_attribute(name)
        .unwrap_or_else(|| panic!("no {name}"))
        .parse()
        .unwrap()
}

#[wasm_bindgen_test]
fn bar_geometry_is_to_scale_with_negative_months_below_the_line() {
    let drawn = bars(&months());
    assert_eq!(drawn.len(), 12);
    let zero = baseline(&months());
    let nov = &drawn[11];
    let oct = &drawn[10];
    let mar = &drawn[3];
    assert_eq!((nov.label.as_str(), oct.label.as_str()), ("Nov", "Oct"));
    assert!(
        (nov.height - 2.0 * oct.height).abs() < 1e-9,
        "{nov:?} {oct:?}"
    );
    assert!((nov.height - 4.0 * mar.height).abs() < 1e-9, "{mar:?}");
    assert!(
        (nov.y + nov.height - zero).abs() < 1e-9,
        "positive bars stand on the line"
    );
    assert!((mar.y - zero).abs() < 1e-9, "negative bars hang from it");
    assert_eq!(drawn[1].height, 0.0);
    // Slots from left to right, oldest first.
    assert!(drawn.windows(2).all(|w| w[0].x < w[1].x));
    // The year under the first bar and under January only.
    let years: Vec<(String, Option<String>)> = drawn
        .iter()
        .filter(|b| b.year.is_some())
        .map(|b| (b.label.clone(), b.year.clone()))
        .collect();
    assert_eq!(
        years,
        [
            ("Dec".to_string(), Some("2025".to_string())),
            ("Jan".to_string(), Some("2026".to_string()))
        ]
    );
    // All zero: flat bars on the bottom line, no division by zero.
    let flat: Vec<MonthRevenue> = months()
        .into_iter()
        .map(|m| MonthRevenue {
            net_total: d("0"),
            ..m
        })
        .collect();
    assert!(bars(&flat).iter().all(|b| b.height == 0.0));
}

#[wasm_bindgen_test]
async fn the_chart_draws_twelve_linked_bars_with_labels_and_a_hidden_table() {
    let root = container();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <RevenueChart months=months() currency="EUR".to_string() /> }
    });
    settle().await;
    assert_eq!(texts(&root, ".chart-bar").len(), 12);
    assert_eq!(
        texts(&root, ".chart-label"),
        ["Dec", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov"]
    );
    assert_eq!(texts(&root, ".chart-year"), ["2025", "2026"]);
    let nov = find(&root, "[data-month='2026-11'] .chart-bar");
    let oct = find(&root, "[data-month='2026-10'] .chart-bar");
    assert!((attr(&nov, "height") - 2.0 * attr(&oct, "height")).abs() < 1e-6);
    assert!(find(&root, "[data-month='2026-03'] .chart-bar")
        .class_list()
        .contains("is-negative"));
    // Each month links to its finalized invoices.
    let link = find(&root, "[data-month='2026-11'] a");
    let href = link.get_attribute("href").unwrap();
    assert!(
        href.ends_with("/invoices?status=created,sent,partially_paid,paid,overdue,ignored&date_from=2026-11-01&date_to=2026-11-30"),
        "{href}"
    );
    let label = link.get_attribute("aria-label").unwrap();
    assert!(label.starts_with("Nov 2026: 1"), "{label}");
    // The same figures as a table for screen readers.
    let table = find(&root, "table.visually-hidden");
    assert_eq!(texts(&table, "tbody tr").len(), 12);
    let rows = texts(&table, "tbody th");
    assert_eq!(rows[0], "Dec 2025");
    assert_eq!(rows[11], "Nov 2026");
    assert!(
        texts(&table, "tbody td")[3].starts_with('-'),
        "March is negative"
    );
}

fn dashboard(empty: bool) -> Dashboard {
    if empty {
        return Dashboard {
            today: today(),
            receivables: Receivables::default(),
            revenue: Revenue {
                currency: "EUR".into(),
                months: months()
                    .into_iter()
                    .map(|m| MonthRevenue {
                        net_total: d("0.00"),
                        ..m
                    })
                    .collect(),
            },
            purchases_awaiting_approval: vec![],
            offers_awaiting_answer: vec![],
            todo: todo_list(today(), |_| 0),
        };
    }
    Dashboard {
        today: today(),
        receivables: Receivables {
            open: vec![CurrencyAmount {
                currency: "EUR".into(),
                count: 7,
                amount: d("8400.00"),
            }],
            overdue: vec![CurrencyAmount {
                currency: "EUR".into(),
                count: 2,
                amount: d("1200.00"),
            }],
            oldest: vec![OpenInvoice {
                id: 4,
                identifier: Some("R2611-004".into()),
                customer: IdName {
                    id: 1,
                    name: "Kranzler GmbH".into(),
                },
                due_date: NaiveDate::from_ymd_opt(2026, 11, 11).unwrap(),
                open_amount: d("600.00"),
                currency: "EUR".into(),
                days_overdue: 12,
            }],
        },
        revenue: Revenue {
            currency: "EUR".into(),
            months: months(),
        },
        purchases_awaiting_approval: vec![],
        offers_awaiting_answer: vec![SentOffers {
            currency: "EUR".into(),
            count: 1,
            net_total: d("250.00"),
        }],
        todo: todo_list(today(), |kind| match kind {
            TodoKind::OldDrafts => 2,
            TodoKind::BankTransactionsToReview => 3,
            _ => 0,
        }),
    }
}

#[wasm_bindgen_test]
async fn cards_link_every_figure_to_its_list_and_say_when_there_is_nothing() {
    let root = container();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <DashboardView dashboard=dashboard(false) /> }
    });
    settle().await;
    let open = find(&root, "[data-card=open] a.dash-figure");
    assert!(open
        .get_attribute("href")
        .unwrap()
        .ends_with("/invoices?open=true"));
    assert!(open.text_content().unwrap().contains("7 invoices"));
    let overdue = find(&root, "[data-card=overdue] a.dash-figure");
    assert!(overdue
        .get_attribute("href")
        .unwrap()
        .ends_with("/invoices?overdue=true"));
    assert!(overdue.text_content().unwrap().contains("2 invoices"));
    let offers = find(&root, "[data-card=offers] a.dash-figure");
    assert!(offers
        .get_attribute("href")
        .unwrap()
        .ends_with("/offers?status=sent"));
    assert!(offers.text_content().unwrap().contains("1 offer"));
    assert_eq!(
        texts(&root, "[data-card=purchases] .dash-empty"),
        ["No purchases waiting for approval."]
    );
    let row = find(&root, "[data-card=oldest] tbody tr");
    assert!(row.text_content().unwrap().contains("12 days overdue"));
    assert!(find(&row, "a")
        .get_attribute("href")
        .unwrap()
        .ends_with("/invoices/4"));
    assert_eq!(texts(&root, "[data-card=revenue] .chart-bar").len(), 12);
    assert!(root.query_selector(".dash-welcome").unwrap().is_none());
    // The to-do list (issue 33): only what is to do, each a link to its exact list.
    assert_eq!(
        texts(&root, ".dash-todo-list li"),
        [
            "2 invoice drafts older than 3 days",
            "3 bank transactions to review"
        ]
    );
    assert!(find(&root, "#dash-todo-old_drafts")
        .get_attribute("href")
        .unwrap()
        .contains("/invoices?status=draft&date_to="));
    assert!(find(&root, "#dash-bank-review")
        .get_attribute("href")
        .unwrap()
        .ends_with("/bank"));

    let empty = container();
    let _handle = leptos::mount::mount_to(empty.clone(), move || {
        view! { <DashboardView dashboard=dashboard(true) /> }
    });
    settle().await;
    assert!(empty.query_selector("a.dash-figure").unwrap().is_none());
    assert_eq!(texts(&empty, ".dash-empty").len(), 6, "every card says so");
    assert!(texts(&empty, ".dash-welcome")[0].contains("Nothing to show yet"));
    assert!(find(&empty, ".dash-welcome a.btn-primary")
        .get_attribute("href")
        .unwrap()
        .ends_with("/invoices/new"));
    assert!(empty.query_selector(".chart").unwrap().is_none());
    assert!(texts(&empty, "[data-card=revenue] .dash-empty")[0].contains("No revenue"));
    assert_eq!(texts(&empty, "#dash-todo-none"), ["Nothing to do today."]);
    assert!(empty.query_selector(".dash-todo-list").unwrap().is_none());
}
