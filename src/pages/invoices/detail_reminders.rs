//! Payment reminders: the list and "Add reminder" (date, new due date, fee, text).

use super::form_fields::error_of;
use super::payment_rules::{can_remind, open_amount, reminder_body};
use crate::api::payments::create_invoice_reminder;
use crate::api::ApiError;
use crate::components::date::{format_date, iso, today};
use crate::components::dialog::Dialog;
use crate::components::field::Field;
use crate::components::money::format_money;
use crate::components::task::Task;
use crate::components::toast::Toasts;
use chrono::Days;
use kontor_model::error::FieldErrors;
use kontor_model::invoice::Invoice;
use kontor_model::payment::Reminder;
use leptos::prelude::*;

/// Days between a reminder and its new due date, by default.
const REMINDER_TERM: u64 = 7;

/// The reminders of `invoice` and, when it is still open, "Add reminder".
#[component]
pub fn RemindersSection(
    /// The invoice with its reminders.
    invoice: Invoice,
    /// Called after a reminder was added (reload the invoice).
    on_changed: Callback<()>,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let reminders = invoice.reminders.clone().unwrap_or_default();
    let currency = StoredValue::new(invoice.currency.clone());
    let id = invoice.id;
    let default_text = format!(
        "Our records show that invoice {} of {} is still open.\n\nPlease pay the open amount of {} by the new due date.",
        invoice.identifier.clone().unwrap_or_default(),
        format_date(invoice.date),
        format_money(open_amount(&invoice), &invoice.currency)
    );
    let open = RwSignal::new(false);
    let (date, due, fee, text) = (
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
    );
    let errors = RwSignal::new(FieldErrors::new());
    let failure = RwSignal::new(None::<String>);
    let save = Task::new();
    let finished = move |answer: Result<Reminder, ApiError>| match answer {
        Ok(_) => {
            open.set(false);
            toasts.success("Reminder recorded.");
            on_changed.run(());
        }
        Err(e) if e.is_unprocessable() && !e.errors.is_empty() => errors.set(e.errors),
        Err(e) => failure.set(Some(e.message)),
    };
    let start = move |_| {
        let now = today();
        date.set(iso(now));
        due.set(iso(now + Days::new(REMINDER_TERM)));
        fee.set(String::new());
        text.set(default_text.clone());
        errors.set(FieldErrors::new());
        failure.set(None);
        open.set(true);
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let (d, u, f, t) = (
            date.get_untracked(),
            due.get_untracked(),
            fee.get_untracked(),
            text.get_untracked(),
        );
        match currency.with_value(|c| reminder_body(id, c, &d, &u, &f, &t)) {
            Ok(body) => {
                errors.set(FieldErrors::new());
                save.run(
                    async move { create_invoice_reminder(&body).await },
                    finished,
                );
            }
            Err(e) => errors.set(e),
        }
    };
    let pending = save.pending;
    let rows = reminders
        .iter()
        .map(|r| {
            view! {
                <tr>
                    <td>{format_date(r.date)}</td>
                    <td>{format_date(r.due_date)}</td>
                    <td class="num money">{currency.with_value(|c| format_money(r.fee, c))}</td>
                    <td><div class="rich" inner_html=r.text.clone()></div></td>
                </tr>
            }
        })
        .collect::<Vec<_>>();
    let empty = rows.is_empty();
    view! {
        <section class="section" aria-labelledby="reminders-title">
            <div class="section-head">
                <h2 class="section-title" id="reminders-title">"Reminders"</h2>
                {can_remind(&invoice).then(|| view! {
                    <button type="button" class="btn section-head-end" id="add-reminder" on:click=start.clone()>"Add reminder"</button>
                })}
            </div>
            {if empty {
                view! { <p class="muted">"No reminders."</p> }.into_any()
            } else {
                view! {
                    <table class="table">
                        <thead><tr><th scope="col">"Date"</th><th scope="col">"New due date"</th><th scope="col" class="num">"Fee"</th><th scope="col">"Text"</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                }
                .into_any()
            }}
        </section>
        <Dialog open=open title="Add reminder">
            <form novalidate on:submit=submit>
                <div class="form-grid">
                    <Field id="reminder-date" label="Reminder date" required=true error=error_of(errors, "date")>
                        <input id="reminder-date" type="date" bind:value=date />
                    </Field>
                    <Field id="reminder-due" label="New due date" required=true error=error_of(errors, "due_date")>
                        <input id="reminder-due" type="date" bind:value=due />
                    </Field>
                </div>
                <Field id="reminder-fee" label=currency.with_value(|c| format!("Fee ({c})")) error=error_of(errors, "fee")>
                    <input id="reminder-fee" class="input-number" inputmode="decimal" placeholder="0" bind:value=fee />
                </Field>
                <Field id="reminder-text" label="Text" error=error_of(errors, "text")>
                    <textarea id="reminder-text" rows="5" bind:value=text></textarea>
                </Field>
                <p class="field-error" role="alert">{move || failure.get()}</p>
                <div class="dialog-actions">
                    <button type="button" class="btn" on:click=move |_| open.set(false)>"Cancel"</button>
                    <button type="submit" class="btn btn-primary" disabled=move || pending.get()>"Save reminder"</button>
                </div>
            </form>
        </Dialog>
    }
}
