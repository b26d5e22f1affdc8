//! Rows that bill time sheet entries and project expenses: built from an [`Activity`] or
//! an [`Expense`] (quantity, unit, unit price, and the id in `activity_ids` /
//! `expense_ids`), plus a short note in the row saying what it bills.
//!
//! One item per activity: its description as the title, its date as the description,
//! hours × hourly rate. One item per expense: its title, quantity, unit and unit price.

use super::row::PositionRow;
use crate::components::date::format_date;
use crate::components::locale::format_input;
use crate::i18n::{fill, t};
use kontor_model::billing::{Activity, Expense};
use kontor_model::position::PositionType;
use leptos::prelude::*;

fn text(d: kontor_model::Decimal) -> String {
    format_input(d.normalize())
}

impl PositionRow {
    /// An item billing `activity`: title = description, quantity = hours, unit `h`,
    /// unit price = hourly rate, `activity_ids = [id]`.
    pub fn from_activity(activity: &Activity) -> Self {
        let title = if activity.description.trim().is_empty() {
            fill(
                t().invoice_form_billing().work_on,
                &[("date", &format_date(activity.date))],
            )
        } else {
            activity.description.clone()
        };
        let row = Self::item(
            &title,
            &text(activity.hours),
            "h",
            &text(activity.hourly_rate),
        );
        row.description.set(activity.date.to_string());
        row.activity_ids.set(vec![activity.id]);
        row
    }

    /// An item billing `expense`: its title, quantity, unit and unit price,
    /// `expense_ids = [id]`.
    pub fn from_expense(expense: &Expense) -> Self {
        let row = Self::item(
            &expense.title,
            &text(expense.quantity),
            &expense.unit,
            &text(expense.unit_price),
        );
        row.expense_ids.set(vec![expense.id]);
        row
    }

    /// The row's typed texts: title, description, quantity, unit, unit price, net total.
    fn text_fields(&self) -> [RwSignal<String>; 6] {
        [
            self.title,
            self.description,
            self.quantity,
            self.unit,
            self.unit_price,
            self.net_total,
        ]
    }

    /// True for an item row with nothing typed and nothing billed (a blank form's row).
    pub fn is_blank(&self) -> bool {
        self.kind.get_untracked() == PositionType::Item
            && self
                .text_fields()
                .iter()
                .all(|s| s.with_untracked(|t| t.trim().is_empty()))
            && self.activity_ids.with_untracked(Vec::is_empty)
            && self.expense_ids.with_untracked(Vec::is_empty)
    }

    /// Subscribes the current observer to every field of the row (the live preview
    /// follows any change).
    pub fn track(&self) {
        self.kind.track();
        for s in self.text_fields() {
            s.track();
        }
        self.optional.track();
        self.activity_ids.track();
        self.expense_ids.track();
    }

    /// "Bills 1 time entry" / "Bills 2 expenses"; `None` when the row bills nothing.
    /// Reactive.
    pub fn billed_note(&self) -> Option<String> {
        let (a, e) = (
            self.activity_ids.with(Vec::len),
            self.expense_ids.with(Vec::len),
        );
        let n = t().invoice_form_billing();
        let plural = |count: usize, one: &str, other: &str| {
            if count == 1 {
                one.to_string()
            } else {
                fill(other, &[("n", &count.to_string())])
            }
        };
        match (a, e) {
            (0, 0) => None,
            (a, 0) => Some(plural(a, n.bills_time_one, n.bills_time_other)),
            (0, e) => Some(plural(e, n.bills_expenses_one, n.bills_expenses_other)),
            (a, e) => Some(fill(
                n.bills_both,
                &[
                    ("time", &plural(a, n.time_one, n.time_other)),
                    ("expenses", &plural(e, n.expenses_one, n.expenses_other)),
                ],
            )),
        }
    }
}
