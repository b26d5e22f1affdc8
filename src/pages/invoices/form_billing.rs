//! "Bill time and expenses": once a project is chosen, a dialog lists its unbilled
//! billable time sheet entries and unbilled expenses with checkboxes; adding them creates
//! one item per entry (see [`PositionRow::from_activity`] / [`PositionRow::from_expense`])
//! carrying its id in `activity_ids` / `expense_ids`. Entries already on the form are
//! shown as added.

use crate::api::billing::{list_project_expenses, list_unbilled_activities};
use crate::api::ApiError;
use crate::components::date::format_date;
use crate::components::dialog::Dialog;
use crate::components::error_panel::ErrorPanel;
use crate::components::invoice_form_state::InvoiceFormState;
use crate::components::locale::format_input;
use crate::components::money::format_money;
use crate::components::position_editor::PositionRow;
use crate::components::skeleton::SkeletonBlock;
use crate::components::task::load_once;
use crate::i18n::{fill, t};
use kontor_model::billing::{Activity, Expense};
use leptos::prelude::*;
use std::collections::BTreeSet;

/// The activity and expense ids the rows already bill.
pub fn billed_in_rows(rows: &[PositionRow]) -> (BTreeSet<i64>, BTreeSet<i64>) {
    let mut out = (BTreeSet::new(), BTreeSet::new());
    for r in rows {
        out.0.extend(r.activity_ids.get_untracked());
        out.1.extend(r.expense_ids.get_untracked());
    }
    out
}

/// Adds `new_rows` at the end; a form holding only one blank item row gets them instead
/// of it.
pub fn append_rows(rows: RwSignal<Vec<PositionRow>>, new_rows: Vec<PositionRow>) {
    rows.update(|list| {
        if list.len() == 1 && list[0].is_blank() {
            list.clear();
        }
        list.extend(new_rows);
    });
}

async fn load(project: i64) -> Result<(Vec<Activity>, Vec<Expense>), ApiError> {
    let (activities, expenses) = futures::try_join!(
        list_unbilled_activities(project),
        list_project_expenses(project)
    )?;
    let expenses = expenses
        .into_iter()
        .filter(|e| e.billable && !e.billed)
        .collect();
    Ok((activities.items, expenses))
}

/// The button (shown once a project is chosen) and the picker dialog.
#[component]
pub fn BillTimeAndExpenses(
    /// The form state (project and rows).
    state: InvoiceFormState,
) -> impl IntoView {
    let open = RwSignal::new(false);
    // New rows must outlive the dialog: their signals belong to the form, not the picker.
    let owner = StoredValue::new(Owner::current().unwrap_or_default());
    view! {
        <Show when=move || state.project_id.get().is_some()>
            <button type="button" class="btn btn-small" id="bill-time" on:click=move |_| open.set(true)>
                {t().invoice_form_billing().button}
            </button>
        </Show>
        <Dialog open=open title=t().invoice_form_billing().title class="dialog-wide">
            <Picker state=state open=open owner=owner />
        </Dialog>
    }
}

fn choice(
    id: i64,
    added: bool,
    chosen: RwSignal<BTreeSet<i64>>,
    kind: &'static str,
    text: String,
    amount: String,
) -> impl IntoView {
    let toggle = move |ev: leptos::ev::Event| {
        let on = event_target_checked(&ev);
        chosen.update(|set| {
            if on {
                set.insert(id);
            } else {
                set.remove(&id);
            }
        });
    };
    view! {
        <li class:is-added=added>
            <label>
                <input type="checkbox" data-bill=format!("{kind}-{id}") disabled=added
                    prop:checked=move || added || chosen.with(|s| s.contains(&id)) on:change=toggle />
                <span>{text} {added.then(|| format!(" {}", t().invoice_form_billing().added))}</span>
                <span class="money">{amount}</span>
            </label>
        </li>
    }
}

/// The lists with checkboxes and the "Add" button.
#[component]
fn Picker(
    /// The form state.
    state: InvoiceFormState,
    /// The dialog's open state (closed after adding).
    open: RwSignal<bool>,
    /// The form's owner, which owns the new rows.
    owner: StoredValue<Owner>,
) -> impl IntoView {
    let project = state.project_id.get_untracked().unwrap_or_default();
    let currency = state.currency.get_untracked();
    let data = load_once(load(project));
    let (in_form_a, in_form_e) = billed_in_rows(&state.rows.get_untracked());
    let chosen_a = RwSignal::new(BTreeSet::new());
    let chosen_e = RwSignal::new(BTreeSet::new());
    let count = move || chosen_a.with(BTreeSet::len) + chosen_e.with(BTreeSet::len);
    let add = move |(activities, expenses): &(Vec<Activity>, Vec<Expense>)| {
        let (a, e) = (chosen_a.get_untracked(), chosen_e.get_untracked());
        let rows = owner.get_value().with(|| {
            let mut picked: Vec<&Activity> =
                activities.iter().filter(|x| a.contains(&x.id)).collect();
            picked.sort_by_key(|x| (x.date, x.id));
            let mut rows: Vec<PositionRow> =
                picked.into_iter().map(PositionRow::from_activity).collect();
            rows.extend(
                expenses
                    .iter()
                    .filter(|x| e.contains(&x.id))
                    .map(PositionRow::from_expense),
            );
            rows
        });
        append_rows(state.rows, rows);
        open.set(false);
    };
    let lists = move |(activities, expenses): (Vec<Activity>, Vec<Expense>)| {
        let money = |d| format_money(d, &currency);
        let a_items = activities
            .iter()
            .map(|x| {
                let text = format!(
                    "{} · {} · {} h",
                    format_date(x.date),
                    x.description,
                    format_input(x.hours.normalize())
                );
                choice(
                    x.id,
                    in_form_a.contains(&x.id),
                    chosen_a,
                    "activity",
                    text,
                    x.hours
                        .checked_mul(x.hourly_rate)
                        .map(money)
                        .unwrap_or_else(|| "—".into()),
                )
            })
            .collect_view();
        let e_items = expenses
            .iter()
            .map(|x| {
                let text = format!(
                    "{} · {} · {} {}",
                    format_date(x.date),
                    x.title,
                    format_input(x.quantity.normalize()),
                    x.unit
                );
                choice(
                    x.id,
                    in_form_e.contains(&x.id),
                    chosen_e,
                    "expense",
                    text,
                    money(x.price),
                )
            })
            .collect_view();
        let empty = activities.is_empty() && expenses.is_empty();
        let free_a: BTreeSet<i64> = activities
            .iter()
            .map(|x| x.id)
            .filter(|id| !in_form_a.contains(id))
            .collect();
        let free_e: BTreeSet<i64> = expenses
            .iter()
            .map(|x| x.id)
            .filter(|id| !in_form_e.contains(id))
            .collect();
        let all = move |chosen: RwSignal<BTreeSet<i64>>, free: BTreeSet<i64>| {
            (!free.is_empty()).then(|| view! {
                <button type="button" class="btn btn-small btn-quiet" on:click=move |_| chosen.set(free.clone())>{t().invoice_form_billing().select_all}</button>
            })
        };
        let listed = StoredValue::new((activities, expenses));
        view! {
            {empty.then(|| view! { <p class="muted">{t().invoice_form_billing().nothing_unbilled}</p> })}
            <h3 class="bill-group-title">{t().invoice_form_billing().time_entries} {all(chosen_a, free_a)}</h3>
            <ul class="bill-list" aria-label=t().invoice_form_billing().unbilled_time_entries>{a_items}</ul>
            <h3 class="bill-group-title">{t().invoice_form_billing().expenses} {all(chosen_e, free_e)}</h3>
            <ul class="bill-list" aria-label=t().invoice_form_billing().unbilled_expenses>{e_items}</ul>
            <p class="field-hint">{t().invoice_form_billing().hint}</p>
            <div class="dialog-actions">
                <button type="button" class="btn" on:click=move |_| open.set(false)>{t().common().cancel}</button>
                <button type="button" class="btn btn-primary" id="bill-add" disabled=move || count() == 0
                    on:click=move |_| listed.with_value(add)>
                    {move || match count() {
                        1 => t().invoice_form_billing().add_one.to_string(),
                        n => fill(t().invoice_form_billing().add_positions, &[("n", &n.to_string())]),
                    }}
                </button>
            </div>
        }
    };
    view! {
        {move || match data.get() {
            None => view! { <SkeletonBlock lines=5 /> }.into_any(),
            Some(Ok(d)) => lists(d).into_any(),
            Some(Err(e)) => view! { <ErrorPanel error=e /> }.into_any(),
        }}
    }
}
