//! "Send by e-mail" for an offer: the shared dialog ([`SendEmailDialog`]) with the
//! offer's default recipients (the contact person's e-mail, else the company's) and text,
//! which greets the contact person by name (issue 34, model `salutation::opening`).
//! The server attaches the offer PDF and every uploaded attachment.

use crate::api::companies::get_company;
use crate::api::contacts::list_people;
use crate::api::offers::send_offer_email;
use crate::api::ApiError;
use crate::components::date::format_date_in;
use crate::components::email_dialog::{DefaultsFn, Recipients, SendEmailDialog, SendFn};
use crate::components::money::format_money_in;
use crate::i18n::{fill, language, t, Lang};
use kontor_model::email::{split_addresses, SentEmail};
use kontor_model::offer::Offer;
use kontor_model::recipients::offer_recipients;
use leptos::prelude::*;

pub(super) async fn load_defaults(
    company: Option<i64>,
    contact: Option<i64>,
) -> Result<Recipients, ApiError> {
    let Some(company_id) = company else {
        return Ok(Recipients::default());
    };
    let company = get_company(company_id).await?;
    let person = match contact {
        Some(id) => list_people(Some(company_id), None)
            .await?
            .items
            .into_iter()
            .find(|p| p.id == id),
        None => None,
    };
    Ok(offer_recipients(
        person.as_ref().and_then(|p| p.email.as_deref()),
        Some(&company),
    ))
}

/// The button and its dialog for `offer`.
#[component]
pub fn OfferEmailAction(
    /// The offer to send.
    offer: Offer,
    /// Called after it was sent.
    on_changed: Callback<()>,
) -> impl IntoView {
    let (id, company, contact) = (
        offer.id,
        offer.company.as_ref().map(|c| c.id),
        offer.contact.as_ref().map(|c| c.id),
    );
    let offer = StoredValue::new(offer);
    // The message is written in the customer's language (the UI's until it is known).
    let customer = LocalResource::new(move || async move {
        match company {
            Some(id) => get_company(id).await.ok(),
            None => None,
        }
    });
    let lang = move || {
        customer
            .get_untracked()
            .flatten()
            .map(|c| Lang::of_customer(c.language))
            .unwrap_or_else(language)
    };
    // Issue 34: the message greets the offer's contact person by name.
    let person = LocalResource::new(move || async move {
        match (company, contact) {
            (Some(company), Some(id)) => list_people(Some(company), None)
                .await
                .ok()?
                .items
                .into_iter()
                .find(|p| p.id == id),
            _ => None,
        }
    });
    let defaults: DefaultsFn = Box::new(move || Box::pin(load_defaults(company, contact)));
    let send: SendFn =
        Box::new(move |body| Box::pin(async move { send_offer_email(id, &body).await }));
    let prefill = Callback::new(move |sender: String| {
        offer.with_value(|o| {
            let lang = lang();
            let texts = lang.catalogue().offer_email();
            let person = person.get_untracked().flatten();
            let greeting = kontor_model::salutation::opening(
                person
                    .as_ref()
                    .map(kontor_model::salutation::Addressee::from),
                lang.model_language(),
            );
            let subject = fill(texts.subject, &[("identifier", &o.identifier)]);
            let text = fill(
                texts.body,
                &[
                    ("greeting", &greeting),
                    ("identifier", &o.identifier),
                    ("date", &format_date_in(lang, o.date)),
                    ("amount", &format_money_in(lang, o.gross_total, &o.currency)),
                    ("valid_until", &format_date_in(lang, o.due_date)),
                    ("sender", &sender),
                ],
            );
            (subject, text.trim_end().to_string())
        })
    });
    let sent = Callback::new(move |sent: SentEmail| {
        offer.with_value(|o| {
            fill(
                t().offer_email().sent,
                &[
                    ("identifier", &o.identifier),
                    ("recipients", &split_addresses(&sent.emails_to).join(", ")),
                ],
            )
        })
    });
    view! {
        <SendEmailDialog title=t().offer_email().dialog_title prefill=prefill defaults=StoredValue::new_local(defaults)
            send=StoredValue::new_local(send) sent_message=sent on_changed=on_changed />
    }
}
