//! The warning of the finalize question for a backdated invoice (issue 34): an invoice
//! dated before one that already has a number gets the next number all the same, so the
//! question says so and names the later invoice (model `backdating`).

use crate::api::invoices::list_invoices;
use crate::components::date::format_date;
use crate::i18n::{fill, t};
use chrono::NaiveDate;
use kontor_model::backdating::{is_backdated, later_numbered_invoices};
use leptos::prelude::*;
use serde::Deserialize;

/// The part of a listed invoice the warning names.
#[derive(Deserialize)]
struct Numbered {
    identifier: Option<String>,
    date: NaiveDate,
}

/// The warning for an invoice dated `date`, or `None` when no numbered invoice is dated
/// later (or the list cannot be read: the question is advice, the number is given anyway).
pub async fn backdated_warning(date: NaiveDate) -> Option<String> {
    let filter = later_numbered_invoices(date)?;
    let later = list_invoices::<Numbered>(&filter)
        .await
        .ok()?
        .items
        .into_iter()
        .next()?;
    is_backdated(date, Some(later.date)).then(|| {
        fill(
            t().invoice_form().backdated_warning,
            &[
                ("date", &format_date(date)),
                ("number", later.identifier.as_deref().unwrap_or_default()),
                ("later", &format_date(later.date)),
            ],
        )
    })
}

/// Loads the warning for `date` into `into` (cleared first), for a dialog about to open.
pub fn load_backdated_warning(date: Option<NaiveDate>, into: RwSignal<Option<String>>) {
    into.set(None);
    if let Some(date) = date {
        leptos::task::spawn_local(async move { into.set(backdated_warning(date).await) });
    }
}
