//! Payment reminders: the list and "Add reminder" (date, new due date, fee, text).

use super::payment_dialog::open_amount;
use crate::api::payments::create_invoice_reminder;
use crate::api::ApiError;
use crate::components::date::{format_date, iso, parse_iso, today};
use crate::components::dialog::Dialog;
use crate::components::field::{error_of, Field};
use crate::components::locale::{format_input, parse_typed};
use crate::components::money::format_money;
use crate::components::task::Task;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use chrono::Days;
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::invoice::Invoice;
use kontor_model::payment::{NewReminder, Reminder};
use kontor_model::payment_rules::{can_remind, validate_reminder};
use leptos::prelude::*;

/// The reminder body from the dialog's texts (plain text becomes simple HTML), or the
/// field errors (`date`, `due_date`, `fee`) from the model's reminder rule.
pub fn reminder_body(
    invoice_id: i64,
    currency: &str,
    date_text: &str,
    due_text: &str,
    fee_text: &str,
    text: &str,
) -> Result<NewReminder, FieldErrors> {
    let (date, due_date) = (parse_iso(date_text), parse_iso(due_text));
    // The fee as the user writes numbers (`2,50` in German); blank is no fee.
    let parsed = parse_typed(fee_text).map(|f| f.unwrap_or(kontor_model::Decimal::ZERO));
    let fee = parsed.clone().ok();
    let mut errors = validate_reminder(date, due_date, fee, currency);
    if let Err(message) = parsed {
        errors.remove("fee");
        push_error(&mut errors, "fee", message);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(NewReminder {
        invoice_id: Some(invoice_id),
        date,
        due_date,
        fee,
        text: Some(text_to_html(text)),
        ..Default::default()
    })
}

/// Plain text as simple HTML: special characters escaped, blank lines separate
/// paragraphs, single line breaks become `<br>`.
pub fn text_to_html(text: &str) -> String {
    let escaped = text
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace("\r\n", "\n");
    escaped
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| format!("<p>{}</p>", p.replace('\n', "<br>")))
        .collect()
}

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
    let texts = t().invoice_detail_payments();
    let reminders = invoice.reminders.clone().unwrap_or_default();
    let currency = StoredValue::new(invoice.currency.clone());
    let id = invoice.id;
    let default_text = fill(
        texts.reminder_text,
        &[
            ("number", &invoice.identifier.clone().unwrap_or_default()),
            ("date", &format_date(invoice.date)),
            (
                "amount",
                &format_money(open_amount(&invoice), &invoice.currency),
            ),
        ],
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
            toasts.success(texts.reminder_recorded);
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
                <h2 class="section-title" id="reminders-title">{texts.reminders}</h2>
                {can_remind(invoice.status, invoice.reversed, invoice.reversal).then(|| view! {
                    <button type="button" class="btn section-head-end" id="add-reminder" on:click=start.clone()>{texts.add_reminder}</button>
                })}
            </div>
            {if empty {
                view! { <p class="muted">{texts.no_reminders}</p> }.into_any()
            } else {
                view! {
                    <table class="table">
                        <thead><tr><th scope="col">{texts.date}</th><th scope="col">{texts.new_due_date}</th><th scope="col" class="num">{texts.fee}</th><th scope="col">{texts.text}</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                }
                .into_any()
            }}
        </section>
        <Dialog open=open title=texts.add_reminder.to_string()>
            <form novalidate on:submit=submit>
                <div class="form-grid">
                    <Field id="reminder-date" label=texts.reminder_date required=true error=error_of(errors, "date")>
                        <input id="reminder-date" type="date" bind:value=date />
                    </Field>
                    <Field id="reminder-due" label=texts.new_due_date required=true error=error_of(errors, "due_date")>
                        <input id="reminder-due" type="date" bind:value=due />
                    </Field>
                </div>
                <Field id="reminder-fee" label=currency.with_value(|c| fill(texts.fee_currency, &[("currency", c)])) error=error_of(errors, "fee")>
                    <input id="reminder-fee" class="input-number" inputmode="decimal" placeholder=format_input(kontor_model::Decimal::ZERO) bind:value=fee />
                </Field>
                <Field id="reminder-text" label=texts.text error=error_of(errors, "text")>
                    <textarea id="reminder-text" rows="5" bind:value=text></textarea>
                </Field>
                <p class="field-error" role="alert">{move || failure.get()}</p>
                <div class="dialog-actions">
                    <button type="button" class="btn" on:click=move |_| open.set(false)>{t().common().cancel}</button>
                    <button type="submit" class="btn btn-primary" disabled=move || pending.get()>{texts.save_reminder}</button>
                </div>
            </form>
        </Dialog>
    }
}
