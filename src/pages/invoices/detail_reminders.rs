//! Payment reminders (issue 14): the list with level, claimed amount, fees, interest and
//! whether it was sent; each letter can be shown as PDF, sent by e-mail (confirmed) and,
//! while unsent, deleted (confirmed); "Add reminder" (date, new due date, fee — empty for
//! the level's —, default interest, text).

use super::payment_dialog::unpaid_amount;
use crate::api::dunning::create_invoice_reminder;
use crate::api::dunning::{delete_invoice_reminder, get_reminder_pdf, send_reminder_email};
use crate::api::ApiError;
use crate::components::date::{format_date, iso, parse_iso, today};
use crate::components::dialog::Dialog;
use crate::components::field::{error_of, Field};
use crate::components::locale::{format_input, parse_typed};
use crate::components::money::format_money;
use crate::components::pdf_preview::{PdfDialog, PdfDoc};
use crate::components::task::Task;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use chrono::Days;
use kontor_model::dunning::{can_remind, validate_reminder, NewReminder, Reminder};
use kontor_model::email::{SendEmail, SentEmail};
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::invoice::Invoice;
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
    charge_interest: bool,
) -> Result<NewReminder, FieldErrors> {
    let (date, due_date) = (parse_iso(date_text), parse_iso(due_text));
    // The fee as the user writes numbers (`2,50` in German); blank is the level's fee.
    let parsed = parse_typed(fee_text);
    let fee = parsed.clone().ok().flatten();
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
        charge_interest: charge_interest.then_some(true),
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

/// The reminders of `invoice` with their actions and, when it is still open, "Add
/// reminder".
#[component]
pub fn RemindersSection(
    /// The invoice with its reminders.
    invoice: Invoice,
    /// Called after a reminder was added, sent or deleted (reload the invoice).
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
                &format_money(unpaid_amount(&invoice), &invoice.currency),
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
    let interest = RwSignal::new(false);
    let errors = RwSignal::new(FieldErrors::new());
    let failure = RwSignal::new(None::<String>);
    let save = Task::new();
    let finished = move |answer: Result<Reminder, ApiError>| match answer {
        Ok(_) => {
            open.set(false);
            toasts.success(texts.reminder_recorded);
            on_changed.run(());
        }
        Err(e) if e.is_unprocessable() && !e.errors.is_empty() => {
            // A refusal of the invoice itself (e.g. not overdue) has no field here.
            if let Some(message) = e.errors.get("invoice_id").and_then(|m| m.first()) {
                failure.set(Some(crate::components::field::localized_message(message)));
            }
            errors.set(e.errors)
        }
        Err(e) => failure.set(Some(e.message)),
    };
    let start = move |_| {
        let now = today();
        date.set(iso(now));
        due.set(iso(now + Days::new(REMINDER_TERM)));
        fee.set(String::new());
        text.set(default_text.clone());
        interest.set(false);
        errors.set(FieldErrors::new());
        failure.set(None);
        open.set(true);
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let (d, u, f, t, i) = (
            date.get_untracked(),
            due.get_untracked(),
            fee.get_untracked(),
            text.get_untracked(),
            interest.get_untracked(),
        );
        match currency.with_value(|c| reminder_body(id, c, &d, &u, &f, &t, i)) {
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

    // The letter, sending and deleting of one reminder.
    let pdf_open = RwSignal::new(false);
    let pdf_title = RwSignal::new(String::new());
    let doc = PdfDoc::new();
    let chosen = RwSignal::new(None::<Reminder>);
    let send_open = RwSignal::new(false);
    let delete_open = RwSignal::new(false);
    let act = Task::new();
    let acting = act.pending;
    let show_pdf = move |r: Reminder| {
        pdf_title.set(fill(
            texts.reminder_pdf_title,
            &[("date", &format_date(r.date))],
        ));
        doc.load(Box::pin(get_reminder_pdf(r.id)));
        pdf_open.set(true);
    };
    let send = move |_| {
        let Some(r) = chosen.get_untracked() else {
            return;
        };
        act.run(
            async move { send_reminder_email(r.id, &SendEmail::default()).await },
            move |answer: Result<SentEmail, ApiError>| {
                send_open.set(false);
                match answer {
                    Ok(sent) => {
                        toasts.success(fill(texts.reminder_sent, &[("to", &sent.emails_to)]));
                        on_changed.run(());
                    }
                    Err(e) => toasts.error(fill(texts.send_failed, &[("message", &e.message)])),
                }
            },
        );
    };
    let delete = move |_| {
        let Some(r) = chosen.get_untracked() else {
            return;
        };
        act.run(
            async move { delete_invoice_reminder(r.id).await },
            move |answer: Result<(), ApiError>| {
                delete_open.set(false);
                match answer {
                    Ok(()) => {
                        toasts.success(texts.reminder_deleted);
                        on_changed.run(());
                    }
                    Err(e) => toasts.error(fill(
                        texts.reminder_delete_failed,
                        &[("message", &e.message)],
                    )),
                }
            },
        );
    };
    let chosen_date =
        move || chosen.with(|r| r.as_ref().map(|r| format_date(r.date)).unwrap_or_default());

    let rows = reminders
        .iter()
        .map(|r| {
            let money = |v| currency.with_value(|c| format_money(v, c));
            let fees = r.fee.checked_add(r.flat_fee).unwrap_or(r.fee);
            let claimed = r.open_amount.map(money).unwrap_or_else(|| "–".into());
            let interest = match r.interest_rate {
                Some(rate) => format!("{} ({} %)", money(r.interest), format_input(rate)),
                None => "–".into(),
            };
            let sent = r.sent_on.map(format_date).unwrap_or_else(|| texts.not_sent.into());
            let when = format_date(r.date);
            let (for_pdf, for_send, for_delete) = (r.clone(), r.clone(), r.clone());
            let unsent = r.sent_on.is_none();
            view! {
                <tr data-reminder-id=r.id.to_string()>
                    <td class="cell-date">{when.clone()}</td>
                    <td class="num">{r.dunning_level}</td>
                    <td class="cell-date">{format_date(r.due_date)}</td>
                    <td class="num money">{claimed}</td>
                    <td class="num money">{money(fees)}</td>
                    <td class="num money">{interest}</td>
                    <td class="cell-date">{sent}</td>
                    <td class="num reminder-actions">
                        <button type="button" class="btn btn-small" aria-label=fill(texts.pdf_label, &[("date", &when)])
                            on:click=move |_| show_pdf(for_pdf.clone())>{texts.pdf}</button>
                        " "
                        <button type="button" class="btn btn-small"
                            on:click=move |_| { chosen.set(Some(for_send.clone())); send_open.set(true); }>{texts.send}</button>
                        {unsent.then(|| view! {
                            " "
                            <button type="button" class="btn btn-small btn-danger-quiet" aria-label=fill(texts.delete_reminder_label, &[("date", &when)])
                                on:click=move |_| { chosen.set(Some(for_delete.clone())); delete_open.set(true); }>{texts.delete}</button>
                        })}
                    </td>
                </tr>
            }
        })
        .collect::<Vec<_>>();
    let empty = rows.is_empty();
    view! {
        <section class="section" aria-labelledby="reminders-title">
            <div class="section-head">
                <h2 class="section-title" id="reminders-title">{texts.reminders}</h2>
                // Only an overdue invoice is reminded of (from the day after its due date).
                {(can_remind(invoice.status, invoice.reversed, invoice.reversal) && invoice.due_date < today()).then(|| view! {
                    <button type="button" class="btn section-head-end" id="add-reminder" on:click=start.clone()>{texts.add_reminder}</button>
                })}
            </div>
            {if empty {
                view! { <p class="muted">{texts.no_reminders}</p> }.into_any()
            } else {
                view! {
                    <div class="table-wrap">
                        <table class="table reminders-table">
                            <thead><tr>
                                <th scope="col">{texts.date}</th>
                                <th scope="col" class="num">{texts.level}</th>
                                <th scope="col">{texts.new_due_date}</th>
                                <th scope="col" class="num">{texts.claimed}</th>
                                <th scope="col" class="num">{texts.fee}</th>
                                <th scope="col" class="num">{texts.interest}</th>
                                <th scope="col">{texts.sent}</th>
                                <th scope="col" class="num"><span class="visually-hidden">{texts.actions}</span></th>
                            </tr></thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </div>
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
                    <input id="reminder-fee" class="input-number" inputmode="decimal" placeholder=texts.fee_hint bind:value=fee />
                </Field>
                <label class="check"><input type="checkbox" id="reminder-interest" bind:checked=interest />" "{texts.charge_interest}</label>
                <p class="field-error" role="alert">{move || error_of(errors, "interest_rate").get()}</p>
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
        <PdfDialog open=pdf_open title=pdf_title doc=doc />
        <Dialog open=send_open title=texts.send_title.to_string()>
            <p>{texts.send_text}</p>
            <div class="dialog-actions">
                <button type="button" class="btn" on:click=move |_| send_open.set(false)>{t().common().cancel}</button>
                <button type="button" class="btn btn-primary" id="send-reminder" disabled=move || acting.get() on:click=send>{texts.send_reminder}</button>
            </div>
        </Dialog>
        <Dialog open=delete_open title=texts.delete_reminder_title.to_string()>
            <p>{move || fill(texts.delete_reminder_text, &[("date", &chosen_date())])}</p>
            <div class="dialog-actions">
                <button type="button" class="btn" on:click=move |_| delete_open.set(false)>{t().common().cancel}</button>
                <button type="button" class="btn btn-danger" disabled=move || acting.get() on:click=delete>{texts.delete_reminder}</button>
            </div>
        </Dialog>
    }
}
