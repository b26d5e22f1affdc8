//! The offer page's "Online approval" section (issue 31 § App): activate the link, copy
//! it, send it by e-mail, deactivate it; once the customer answered, who signed (or
//! declined) when, the signature and the options taken; and the order confirmation:
//! create, preview, send.

use super::detail_email::load_defaults;
use crate::api::approvals::{
    activate_customer_approval, create_offer_confirmation, deactivate_customer_approval,
    get_customer_approval, get_offer_confirmation_pdf, send_offer_confirmation_email,
};
use crate::api::companies::get_company;
use crate::api::invoice_documents::Paper;
use crate::api::offers::send_offer_email;
use crate::api::ApiError;
use crate::components::copy_field::CopyField;
use crate::components::date::{format_date, format_date_in};
use crate::components::email_dialog::{DefaultsFn, SendEmailDialog, SendFn};
use crate::components::pdf_preview::{PdfDoc, PdfDownload, PdfFrame};
use crate::components::task::{load_once, Task};
use crate::components::toast::Toasts;
use crate::i18n::{fill, language, t, Lang};
use chrono::{DateTime, Utc};
use kontor_model::approval::CustomerApprovalDetail;
use kontor_model::confirmation::{confirmation_refusal, default_email};
use kontor_model::email::{split_addresses, SentEmail};
use kontor_model::offer::{Offer, OfferConfirmation};
use kontor_model::party::Language;
use leptos::prelude::*;

/// A moment as staff read it: the date in the UI's format and the time in UTC.
fn moment(at: DateTime<Utc>) -> String {
    format!(
        "{} {} UTC",
        format_date(at.date_naive()),
        at.format("%H:%M")
    )
}

/// The section for `offer`.
#[component]
pub fn ApprovalSection(
    /// The offer shown.
    offer: Offer,
    /// Called after a change that alters the offer (sent, confirmation created).
    on_changed: Callback<()>,
) -> impl IntoView {
    let offer_id = offer.id;
    let loaded = load_once(get_customer_approval(offer_id));
    let toasts = Toasts::use_context();
    let task = Task::new();
    let offer = StoredValue::new(offer);
    // The customer's correspondence language (the UI's until it is known).
    let company = offer.with_value(|o| o.company.as_ref().map(|c| c.id));
    let customer_language = LocalResource::new(move || async move {
        match company {
            Some(id) => get_company(id).await.ok().map(|c| c.language),
            None => None,
        }
    });
    let lang = move || {
        customer_language
            .get_untracked()
            .flatten()
            .map(Lang::of_customer)
            .unwrap_or_else(language)
    };
    let switch = move |activate: bool| {
        let request = async move {
            if activate {
                activate_customer_approval(offer_id).await
            } else {
                deactivate_customer_approval(offer_id).await
            }
        };
        task.run(
            request,
            move |answer: Result<CustomerApprovalDetail, ApiError>| match answer {
                Ok(detail) => {
                    toasts.success(if detail.active {
                        t().offer_approval().activated
                    } else {
                        t().offer_approval().deactivated
                    });
                    loaded.set(Some(Ok(Some(detail))));
                }
                Err(e) => toasts.error(fill(
                    t().offer_approval().failed,
                    &[("message", &e.message)],
                )),
            },
        );
    };
    view! {
        <section class="section" aria-labelledby="approval-title" id="offer-approval">
            <h2 class="section-title" id="approval-title">{t().offer_approval().title}</h2>
            {move || match loaded.get() {
                None => view! { <p class="muted">{t().offer_approval().loading}</p> }.into_any(),
                Some(Err(e)) => view! { <p class="field-error" role="alert">{e.message}</p> }.into_any(),
                Some(Ok(None)) => view! {
                    <p class="muted">{t().offer_approval().intro}</p>
                    <button type="button" class="btn btn-primary" id="approval-activate" disabled=move || task.pending.get()
                        on:click=move |_| switch(true)>{t().offer_approval().activate}</button>
                }.into_any(),
                Some(Ok(Some(detail))) => view! {
                    <ApprovalState detail=detail offer=offer switch=Callback::new(switch) pending=task.pending
                        lang=Callback::new(move |_| lang()) on_changed=on_changed />
                }.into_any(),
            }}
            <ConfirmationPart offer=offer lang=Callback::new(move |_| lang()) on_changed=on_changed />
        </section>
    }
}

/// The approval once it exists: the link and its actions, or what the customer answered.
#[component]
fn ApprovalState(
    detail: CustomerApprovalDetail,
    offer: StoredValue<Offer>,
    switch: Callback<bool>,
    pending: RwSignal<bool>,
    lang: Callback<(), Lang>,
    on_changed: Callback<()>,
) -> impl IntoView {
    let texts = t().offer_approval();
    if detail.signed_at.is_some() {
        let options: Vec<String> = offer.with_value(|o| {
            o.items
                .iter()
                .flatten()
                .filter(|i| detail.optional_item_ids.contains(&i.id))
                .map(|i| i.title.clone().unwrap_or_default())
                .collect()
        });
        let name = detail.customer_full_name.clone().unwrap_or_default();
        return view! {
            <p class="notice" id="approval-signed-note" role="status">{fill(texts.signed, &[("name", &name), ("time", &detail.signed_at.map(moment).unwrap_or_default())])}</p>
            <dl class="facts">
                <div><dt>{texts.signer}</dt><dd id="approval-signer">{name.clone()}</dd></div>
                <div><dt>{texts.signer_email}</dt><dd>{detail.customer_email.clone().unwrap_or_default()}</dd></div>
                <div><dt>{texts.options}</dt><dd id="approval-options">{if options.is_empty() { texts.no_options.to_string() } else { options.join(", ") }}</dd></div>
            </dl>
            {detail.signature_url.clone().map(|src| view! {
                <figure class="approval-signature">
                    <img id="approval-signature" src=src alt=fill(texts.signature_alt, &[("name", &name)]) />
                    <figcaption class="muted">{texts.signature}</figcaption>
                </figure>
            })}
        }
        .into_any();
    }
    if let Some(at) = detail.declined_at {
        let name = detail.customer_full_name.clone().unwrap_or_default();
        return view! {
            <p class="notice" id="approval-declined-note" role="status">{fill(texts.declined, &[("name", &name), ("time", &moment(at))])}</p>
            {detail.decline_reason.clone().filter(|r| !r.is_empty()).map(|r| view! {
                <dl class="facts"><div><dt>{texts.reason}</dt><dd id="approval-reason">{r}</dd></div></dl>
            })}
        }
        .into_any();
    }
    if !detail.active {
        return view! {
            <p class="muted" id="approval-inactive">{texts.inactive}</p>
            <button type="button" class="btn" id="approval-activate" disabled=move || pending.get()
                on:click=move |_| switch.run(true)>{texts.activate_again}</button>
        }
        .into_any();
    }
    let url = StoredValue::new(detail.approval_url.clone());
    let defaults: DefaultsFn = Box::new(move || {
        let (company, contact) = offer.with_value(|o| {
            (
                o.company.as_ref().map(|c| c.id),
                o.contact.as_ref().map(|c| c.id),
            )
        });
        Box::pin(load_defaults(company, contact))
    });
    let id = offer.with_value(|o| o.id);
    let send: SendFn =
        Box::new(move |body| Box::pin(async move { send_offer_email(id, &body).await }));
    let prefill = Callback::new(move |sender: String| {
        offer.with_value(|o| {
            let lang = lang.run(());
            let texts = lang.catalogue().offer_approval();
            let subject = fill(texts.email_subject, &[("identifier", &o.identifier)]);
            let text = fill(
                texts.email_body,
                &[
                    ("identifier", &o.identifier),
                    ("url", &url.get_value()),
                    ("valid_until", &format_date_in(lang, o.due_date)),
                    ("sender", &sender),
                ],
            );
            (subject, text.trim_end().to_string())
        })
    });
    let sent = Callback::new(move |sent: SentEmail| {
        fill(
            t().offer_approval().link_sent,
            &[("recipients", &split_addresses(&sent.emails_to).join(", "))],
        )
    });
    view! {
        <p class="muted">{texts.active_intro}</p>
        <CopyField id="approval-link" label=texts.link value=detail.approval_url.clone() />
        <div class="page-actions">
            <SendEmailDialog title=texts.email_title prefill=prefill defaults=StoredValue::new_local(defaults)
                send=StoredValue::new_local(send) sent_message=sent on_changed=on_changed
                button_id="approval-send" button_label=texts.send_link />
            <a class="btn" id="approval-open" href=detail.approval_url.clone() target="_blank" rel="noopener">{texts.open}</a>
            <button type="button" class="btn btn-danger-quiet" id="approval-deactivate" disabled=move || pending.get()
                on:click=move |_| switch.run(false)>{texts.deactivate}</button>
        </div>
    }
    .into_any()
}

/// The order confirmation: "Create" for an accepted offer without one; its title, the
/// preview (on demand) and "Send by e-mail" once it exists.
#[component]
fn ConfirmationPart(
    offer: StoredValue<Offer>,
    lang: Callback<(), Lang>,
    on_changed: Callback<()>,
) -> impl IntoView {
    let texts = t().offer_approval();
    let (offer_id, status, identifier, confirmation) = offer.with_value(|o| {
        (
            o.id,
            o.status,
            o.identifier.clone(),
            o.offer_confirmation.clone(),
        )
    });
    let Some(confirmation) = confirmation else {
        if confirmation_refusal(status).is_some() {
            return ().into_any();
        }
        let toasts = Toasts::use_context();
        let task = Task::new();
        let create = move |_| {
            task.run(
                create_offer_confirmation(offer_id),
                move |answer: Result<OfferConfirmation, ApiError>| match answer {
                    Ok(c) => {
                        toasts.success(fill(
                            t().offer_approval().confirmation_created,
                            &[("title", &c.title)],
                        ));
                        on_changed.run(());
                    }
                    Err(e) => toasts.error(fill(
                        t().offer_approval().failed,
                        &[("message", &e.message)],
                    )),
                },
            );
        };
        return view! {
            <h3 class="subsection-title">{texts.confirmation}</h3>
            <p class="muted">{texts.confirmation_intro}</p>
            <button type="button" class="btn" id="confirmation-create" disabled=move || task.pending.get() on:click=create>{texts.confirmation_create}</button>
        }
        .into_any();
    };
    let showing = RwSignal::new(false);
    let doc = PdfDoc::new();
    let title = confirmation.title.clone();
    let defaults: DefaultsFn = Box::new(move || {
        let (company, contact) = offer.with_value(|o| {
            (
                o.company.as_ref().map(|c| c.id),
                o.contact.as_ref().map(|c| c.id),
            )
        });
        Box::pin(load_defaults(company, contact))
    });
    let send: SendFn = Box::new(move |body| {
        Box::pin(async move { send_offer_confirmation_email(offer_id, &body).await })
    });
    let title_for_mail = title.clone();
    let prefill = Callback::new(move |sender: String| {
        let language = match lang.run(()) {
            Lang::De => Language::De,
            Lang::En => Language::En,
        };
        let (subject, text) = default_email(&title_for_mail, &identifier, language);
        (subject, format!("{text}\n{sender}"))
    });
    let sent = Callback::new(move |sent: SentEmail| {
        fill(
            t().offer_approval().confirmation_sent,
            &[("recipients", &split_addresses(&sent.emails_to).join(", "))],
        )
    });
    view! {
        <h3 class="subsection-title">{texts.confirmation}</h3>
        <p id="confirmation-title">{title.clone()}</p>
        <div class="page-actions">
            <button type="button" class="btn" id="confirmation-preview" on:click=move |_| {
                showing.set(true);
                doc.load(Box::pin(get_offer_confirmation_pdf(offer_id, Paper::Default)));
            }>{texts.confirmation_preview}</button>
            <SendEmailDialog title=texts.confirmation_email_title prefill=prefill defaults=StoredValue::new_local(defaults)
                send=StoredValue::new_local(send) sent_message=sent on_changed=on_changed
                button_id="confirmation-send" button_label=texts.confirmation_send />
        </div>
        <Show when=move || showing.get()>
            <div class="doc-toolbar"><PdfDownload doc=doc file_name=format!("{title}.pdf") /></div>
            <PdfFrame doc=doc title=title.clone() />
        </Show>
    }
    .into_any()
}
