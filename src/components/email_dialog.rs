//! "Send by e-mail" for any document (invoices, offers): the button and its dialog with
//! the default recipients in editable To/CC/BCC fields, subject and text pre-filled, and
//! the letter paper of the attached PDF. The server's message shows in the dialog on 422
//! and 502; on success a toast (the page's text) names the recipients — or, when the
//! account has no SMTP server, says that the message was put in the outbox, not sent.

use crate::api::invoice_documents::Paper;
use crate::api::ApiError;
use crate::components::dialog::Dialog;
use crate::components::field::{error_of, Field};
use crate::components::frame::AccountContext;
use crate::components::paper_select::PaperSelect;
use crate::components::task::Task;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use futures::future::LocalBoxFuture;
use kontor_model::email::{SendEmail, SentEmail};
use kontor_model::error::FieldErrors;
use leptos::prelude::*;

/// The recipients and the address checks are the model's rules (one copy with the server).
pub use kontor_model::recipients::{check_recipients, wire_list, Recipients};

/// A recipients lookup for the dialog (started each time it opens).
pub type DefaultsFn = Box<dyn Fn() -> LocalBoxFuture<'static, Result<Recipients, ApiError>>>;
/// The request that sends the message.
pub type SendFn = Box<dyn Fn(SendEmail) -> LocalBoxFuture<'static, Result<SentEmail, ApiError>>>;

/// "Send by e-mail" for any document: the button and its dialog (To/CC/BCC pre-filled
/// from `defaults`, subject and text from `prefill`, the letter paper of the PDF).
#[component]
pub fn SendEmailDialog(
    /// The dialog's heading.
    title: &'static str,
    /// Subject and text for the account's name (the sender).
    prefill: Callback<String, (String, String)>,
    /// Looks up the default recipients.
    defaults: StoredValue<DefaultsFn, LocalStorage>,
    /// Sends the message.
    send: StoredValue<SendFn, LocalStorage>,
    /// The success toast for the message as sent.
    sent_message: Callback<SentEmail, String>,
    /// Called after it was sent (reload the record).
    on_changed: Callback<()>,
    /// The opening button's id (default `send-email`: one per page unless given).
    #[prop(optional)]
    button_id: Option<&'static str>,
    /// The opening button's text (default "Send by e-mail").
    #[prop(optional)]
    button_label: Option<&'static str>,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let sender = AccountContext::use_context().map(|c| c.account());
    let open = RwSignal::new(false);
    let fields @ [to, cc, bcc, subject, text] =
        std::array::from_fn(|_| RwSignal::new(String::new()));
    let paper = RwSignal::new(Paper::Default);
    let errors = RwSignal::new(FieldErrors::new());
    let failure = RwSignal::new(None::<String>);
    let lookup = Task::new();
    let sending_task = Task::new();
    let filled = move |answer: Result<Recipients, ApiError>| match answer {
        Ok(r) => {
            to.set(r.to);
            cc.set(r.cc);
        }
        Err(e) => failure.set(Some(fill(
            t().widgets_email().recipients_unknown,
            &[("message", &e.message)],
        ))),
    };
    let finished = move |answer: Result<SentEmail, ApiError>| match answer {
        Ok(sent) => {
            open.set(false);
            // Without an SMTP server the message only went to the outbox folder: say so,
            // never "sent" (issue 29).
            // The server says how it left (issue 33); an older answer: the account's SMTP.
            let outbox = match sent.transport {
                Some(transport) => transport == kontor_model::email::MailTransport::Outbox,
                None => sender
                    .and_then(|a| a.get_untracked())
                    .and_then(Result::ok)
                    .is_some_and(|a| a.smtp.is_none()),
            };
            if outbox {
                toasts.success(fill(
                    t().widgets_email().outbox_saved,
                    &[("to", &sent.emails_to)],
                ));
            } else {
                toasts.success(sent_message.run(sent));
            }
            on_changed.run(());
        }
        Err(e) => {
            failure.set(Some(crate::components::field::localized_sentence(
                &e.message,
            )));
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
        let (s, t) = prefill.run(name);
        subject.set(s);
        text.set(t);
        paper.set(Paper::Default);
        errors.set(FieldErrors::new());
        failure.set(None);
        lookup.run(defaults.with_value(|d| d()), filled);
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
        sending_task.run(send.with_value(|f| f(body)), finished);
    };
    let (sending, loading) = (sending_task.pending, lookup.pending);
    let list_hint = t().widgets_email().list_hint;
    view! {
        <button type="button" class="btn" id=button_id.unwrap_or("send-email") on:click=start>{button_label.unwrap_or(t().widgets_email().send_button)}</button>
        <Dialog open=open title=title class="dialog-wide">
            <form novalidate on:submit=submit>
                <Field id="email-to" label=t().widgets_email().to required=true hint=list_hint error=error_of(errors, "emails_to")>
                    <input id="email-to" type="text" autofocus bind:value=to placeholder=move || if loading.get() { t().widgets_email().looking_up } else { "" } />
                </Field>
                <div class="form-grid">
                    <Field id="email-cc" label=t().widgets_email().cc error=error_of(errors, "emails_cc")>
                        <input id="email-cc" type="text" bind:value=cc />
                    </Field>
                    <Field id="email-bcc" label=t().widgets_email().bcc error=error_of(errors, "emails_bcc")>
                        <input id="email-bcc" type="text" bind:value=bcc />
                    </Field>
                </div>
                <Field id="email-subject" label=t().widgets_email().subject required=true error=error_of(errors, "subject")>
                    <input id="email-subject" type="text" bind:value=subject />
                </Field>
                <Field id="email-text" label=t().widgets_email().text required=true error=error_of(errors, "text")>
                    <textarea id="email-text" rows="7" bind:value=text></textarea>
                    <crate::components::snippet_picker::SnippetPicker kind=kontor_model::article::SnippetKind::Email target=text field_id="email-text" />
                </Field>
                <div class="field">
                    <label for="email-paper">{t().widgets_email().paper}</label>
                    <PaperSelect id="email-paper" paper=paper />
                </div>
                <p class="field-error" role="alert">{move || failure.get()}</p>
                <div class="dialog-actions">
                    <button type="button" class="btn" on:click=move |_| open.set(false)>{t().common().cancel}</button>
                    <button type="submit" class="btn btn-primary" disabled=move || sending.get() || loading.get()>
                        {move || if sending.get() { t().widgets_email().sending } else { t().widgets_email().send }}
                    </button>
                </div>
            </form>
        </Dialog>
    }
}
