//! "Send by e-mail" for an invoice: the shared dialog ([`SendEmailDialog`]) with the
//! invoice's default recipients (project, else customer), subject and text. On success a
//! toast names the recipients and the invoice is fetched again (now sent and locked).

use crate::api::companies::get_company;
use crate::api::invoices::send_invoice_email;
use crate::api::projects::get_project;
use crate::api::ApiError;
use crate::components::date::format_date_in;
use crate::components::email_dialog::{DefaultsFn, Recipients, SendEmailDialog, SendFn};
use crate::components::money::format_money_in;
use crate::i18n::{fill, language, t, Lang};
use kontor_model::email::{split_addresses, SentEmail};
use kontor_model::invoice::Invoice;
use kontor_model::recipients::invoice_recipients;
use leptos::prelude::*;

/// `"Invoice R2611-001"` (German `"Rechnung R2611-001"`) in `lang`, the customer's
/// language.
pub fn email_subject(lang: Lang, invoice: &Invoice) -> String {
    fill(
        lang.catalogue().invoice_detail_email().subject,
        &[("number", invoice.identifier.as_deref().unwrap_or_default())],
    )
}

/// The pre-filled message text in `lang` — the customer's language, whatever the user's
/// (issue 29) — signed with the account's name.
pub fn email_text(lang: Lang, invoice: &Invoice, sender: &str) -> String {
    // Issue 32: the payment reference to quote, when the invoice has one.
    let reference = invoice
        .payment_reference
        .as_deref()
        .map(|r| {
            format!(
                " {}",
                fill(
                    lang.catalogue().invoice_detail_email().reference_sentence,
                    &[("reference", &kontor_model::payment_reference::printed(r))]
                )
            )
        })
        .unwrap_or_default();
    fill(
        lang.catalogue().invoice_detail_email().text,
        &[
            ("reference_sentence", &reference),
            ("number", invoice.identifier.as_deref().unwrap_or_default()),
            ("date", &format_date_in(lang, invoice.date)),
            (
                "amount",
                &format_money_in(lang, invoice.gross_total, &invoice.currency),
            ),
            ("due", &format_date_in(lang, invoice.due_date)),
            ("sender", sender),
        ],
    )
    .trim_end()
    .to_string()
}

/// The toast after sending: `"Invoice R2611-001 sent to a@x.example (CC b@y.example)."`
pub fn sent_message(invoice: &Invoice, sent: &SentEmail) -> String {
    let texts = t().invoice_detail_email();
    let list = |l: &str| split_addresses(l).join(", ");
    let (cc, bcc) = (list(&sent.emails_cc), list(&sent.emails_bcc));
    let template = match (cc.is_empty(), bcc.is_empty()) {
        (true, true) => texts.sent,
        (false, true) => texts.sent_cc,
        (true, false) => texts.sent_bcc,
        (false, false) => texts.sent_cc_bcc,
    };
    fill(
        template,
        &[
            ("number", invoice.identifier.as_deref().unwrap_or_default()),
            ("to", &list(&sent.emails_to)),
            ("cc", &cc),
            ("bcc", &bcc),
        ],
    )
}

/// The invoice's default recipients: the project's, else the customer's.
async fn load_defaults(project: Option<i64>, customer: i64) -> Result<Recipients, ApiError> {
    let project = match project {
        Some(id) => Some(get_project(id).await?),
        None => None,
    };
    let customer = get_company(customer).await?;
    Ok(invoice_recipients(project.as_ref(), Some(&customer)))
}

/// The button and its dialog for an invoice.
#[component]
pub fn SendEmailAction(
    /// The invoice to send (final, not a draft).
    invoice: Invoice,
    /// Called after it was sent (reload the invoice).
    on_changed: Callback<()>,
) -> impl IntoView {
    let (id, project, customer) = (invoice.id, invoice.project_id, invoice.customer_id);
    let invoice = StoredValue::new(invoice);
    // The message is written in the customer's language (the UI's until it is known).
    let company = LocalResource::new(move || get_company(customer));
    let lang = move || {
        company
            .get_untracked()
            .and_then(Result::ok)
            .map(|c| Lang::of_customer(c.language))
            .unwrap_or_else(language)
    };
    let defaults: DefaultsFn = Box::new(move || Box::pin(load_defaults(project, customer)));
    let send: SendFn =
        Box::new(move |body| Box::pin(async move { send_invoice_email(id, &body).await }));
    view! {
        <SendEmailDialog
            title=t().invoice_detail_email().title
            prefill=Callback::new(move |sender: String| invoice.with_value(|i| (email_subject(lang(), i), email_text(lang(), i, &sender))))
            defaults=StoredValue::new_local(defaults)
            send=StoredValue::new_local(send)
            sent_message=Callback::new(move |sent: SentEmail| invoice.with_value(|i| sent_message(i, &sent)))
            on_changed=on_changed
        />
    }
}
