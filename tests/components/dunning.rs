//! Issue 14 § App: the invoice list's stacked bars and the Dunning page's result lines.

use kontor_app::pages::dunning::{outcome_text, Outcome};
use kontor_app::pages::invoices::list_chart::{stacked_bars, PLOT, WIDTH};
use kontor_model::query::MonthAmounts;
use wasm_bindgen_test::*;

fn month(m: u32, paid: &str, open: &str, overdue: &str) -> MonthAmounts {
    serde_json::from_str(
        &(serde_json::json!({
            "month": format!("2026-{m:02}"),
            "paid": serde_json::from_str::<serde_json::Value>(paid).unwrap(),
            "open": serde_json::from_str::<serde_json::Value>(open).unwrap(),
            "overdue": serde_json::from_str::<serde_json::Value>(overdue).unwrap(),
        }))
        .to_string(),
    )
    .unwrap()
}

#[wasm_bindgen_test]
fn the_highest_month_fills_the_plot_and_parts_stack_paid_open_overdue() {
    let months = vec![
        month(10, "100", "50", "50"),
        month(11, "50", "0", "0"),
        month(12, "0", "0", "0"),
    ];
    let bars = stacked_bars(&months);
    assert_eq!(bars.len(), 3);
    let first = &bars[0];
    // 200 is the highest total: paid 100 is half the plot, at the bottom.
    assert_eq!(first.paid, (PLOT / 2.0, PLOT / 2.0));
    assert_eq!(first.open, (PLOT / 4.0, PLOT / 4.0));
    assert_eq!(first.overdue, (0.0, PLOT / 4.0));
    assert_eq!(bars[1].paid.1, PLOT / 4.0);
    assert_eq!(bars[2].paid.1 + bars[2].open.1 + bars[2].overdue.1, 0.0);
    let slot = WIDTH / 3.0;
    assert!(
        (bars[1].x - (slot + slot * 0.2)).abs() < 1e-9,
        "{}",
        bars[1].x
    );
    assert!(stacked_bars(&[month(1, "0", "0", "0")])[0].paid.1 == 0.0);
}

#[wasm_bindgen_test]
fn each_outcome_reads_as_a_sentence() {
    let sent = Outcome::Sent {
        reminder_id: 7,
        level: "First dunning".into(),
        to: "billing@example.com".into(),
    };
    assert_eq!(
        outcome_text(&sent),
        "First dunning created and sent to billing@example.com."
    );
    assert_eq!(sent.reminder_id(), Some(7));
    let refused = Outcome::Refused {
        message: "The invoice is paid.".into(),
    };
    assert_eq!(outcome_text(&refused), "Not created: The invoice is paid.");
    assert_eq!(refused.reminder_id(), None);
    let not_sent = Outcome::NotSent {
        reminder_id: 8,
        level: "Payment reminder".into(),
        message: "no recipient".into(),
    };
    assert_eq!(
        outcome_text(&not_sent),
        "Payment reminder created, but not sent: no recipient"
    );
}
