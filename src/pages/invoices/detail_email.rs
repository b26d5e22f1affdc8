//! "Send by e-mail": a dialog with the default recipients (project, else customer) in
//! editable To/CC/BCC fields, subject and text pre-filled, and the letter paper of the
//! attached PDF. The server's message shows in the dialog on 422 and 502; on success a
//! toast names the recipients and the invoice is fetched again (now sent and locked).

use super::detail_document::PaperSelect;
use super::email_rules::{
    check_recipients, default_recipients, email_subject, email_text, sent_message, wire_list,
    Recipients,
};
use super::form_fields::error_of;
use crate::api::companies::get_company;
use crate::api::invoice_documents::Paper;
use crate::api::invoices::send_invoice_email;
use crate::api::projects::get_project;
use crate::api::ApiError;
use crate::components::dialog::Dialog;
use crate::components::field::Field;
use crate::components::frame::AccountContext;
use crate::components::task::Task;
use crate::components::toast::Toasts;
use kontor_model::email::{SendEmail, SentEmail};
use kontor_model::error::FieldErrors;
use kontor_model::invoice::Invoice;
use leptos::prelude::*;

async fn load_defaults(project: Option<i64>, customer: i64) -> Result<Recipients, ApiError> {
    let project = match project {
        Some(id) => Some(get_project(id).await?),
        None => None,
    };
    let customer = get_company(customer).await?;
    Ok(default_recipients(project.as_ref(), Some(&customer)))
}

/// The button and its dialog.
#[component]
pub fn SendEmailAction(
    /// The invoice to send (final, not a draft).
    invoice: Invoice,
    /// Called after it was sent (reload the invoice).
    on_changed: Callback<()>,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let sender = AccountContext::use_context().map(|c| c.account);
    let (id, project, customer) = (invoice.id, invoice.project_id, invoice.customer_id);
    let invoice = StoredValue::new(invoice);
    let open = RwSignal::new(false);
    let fields @ [to, cc, bcc, subject, text] =
        std::array::from_fn(|_| RwSignal::new(String::new()));
    let paper = RwSignal::new(Paper::Default);
    let errors = RwSignal::new(FieldErrors::new());
    let failure = RwSignal::new(None::<String>);
    let defaults = Task::new();
    let send = Task::new();
    let filled = move |answer: Result<Recipients, ApiError>| match answer {
        Ok(r) => {
            to.set(r.to);
            cc.set(r.cc);
        }
        Err(e) => failure.set(Some(format!("Default recipients unknown: {}", e.message))),
    };
    let finished = move |answer: Result<SentEmail, ApiError>| match answer {
        Ok(sent) => {
            open.set(false);
            toasts.success(invoice.with_value(|i| sent_message(i, &sent)));
            on_changed.run(());
        }
        Err(e) => {
            failure.set(Some(e.message));
            errors.set(e.errors);
        }
    };
    let start = move |_| {
        let name = sender
            .and_then(|a| a.get_untracked())
            .and_then(Result::ok)
            .map(|a| a.name)
            .unwrap_or_default();
        fields.iter().for_each(|f| f.set(String::new()));
        invoice.with_value(|i| {
            subject.set(email_subject(i));
            text.set(email_text(i, &name));
        });
        paper.set(Paper::Default);
        errors.set(FieldErrors::new());
        failure.set(None);
        defaults.run(load_defaults(project, customer), filled);
        open.set(true);
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        failure.set(None);
        let [t, c, b] = [to, cc, bcc].map(|s| s.get_untracked());
        let found = check_recipients(&t, &c, &b);
        if !found.is_empty() {
            errors.set(found);
            return;
        }
        errors.set(FieldErrors::new());
        let body = SendEmail {
            subject: Some(subject.get_untracked()),
            text: Some(text.get_untracked()),
            emails_to: Some(wire_list(&t)),
            emails_cc: Some(wire_list(&c)),
            emails_bcc: Some(wire_list(&b)),
            letter_paper_id: match paper.get_untracked() {
                Paper::Id(id) => Some(id),
                _ => None,
            },
        };
        send.run(async move { send_invoice_email(id, &body).await }, finished);
    };
    let (sending, loading) = (send.pending, defaults.pending);
    let list_hint = "Separate addresses with semicolons.";
    view! {
        <button type="button" class="btn" id="send-email" on:click=start>"Send by e-mail"</button>
        <Dialog open=open title="Send invoice by e-mail" class="dialog-wide">
            <form novalidate on:submit=submit>
                <Field id="email-to" label="To" required=true hint=list_hint error=error_of(errors, "emails_to")>
                    <input id="email-to" type="text" autofocus bind:value=to placeholder=move || if loading.get() { "Looking up the default recipients…" } else { "" } />
                </Field>
                <div class="form-grid">
                    <Field id="email-cc" label="CC" error=error_of(errors, "emails_cc")>
                        <input id="email-cc" type="text" bind:value=cc />
                    </Field>
                    <Field id="email-bcc" label="BCC" error=error_of(errors, "emails_bcc")>
                        <input id="email-bcc" type="text" bind:value=bcc />
                    </Field>
                </div>
                <Field id="email-subject" label="Subject" required=true error=error_of(errors, "subject")>
                    <input id="email-subject" type="text" bind:value=subject />
                </Field>
                <Field id="email-text" label="Text" required=true error=error_of(errors, "text")>
                    <textarea id="email-text" rows="7" bind:value=text></textarea>
                </Field>
                <div class="field">
                    <label for="email-paper">"Letter paper of the attached PDF"</label>
                    <PaperSelect id="email-paper" paper=paper />
                </div>
                <p class="field-error" role="alert">{move || failure.get()}</p>
                <div class="dialog-actions">
                    <button type="button" class="btn" on:click=move |_| open.set(false)>"Cancel"</button>
                    <button type="submit" class="btn btn-primary" disabled=move || sending.get() || loading.get()>
                        {move || if sending.get() { "Sending…" } else { "Send" }}
                    </button>
                </div>
            </form>
        </Dialog>
    }
}
