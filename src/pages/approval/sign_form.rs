//! The forms of the public approval page: sign (name, e-mail, signature pad, consent,
//! Accept) and decline (name, reason). Both check the body with the model's rules first
//! ([`SignApproval::check`], [`DeclineApproval::check`]) and show the server's field
//! messages under the fields otherwise.

use crate::api::approvals::{decline_public_approval, sign_public_approval};
use crate::api::ApiError;
use crate::components::field::{error_of, Field};
use crate::components::signature_pad::SignaturePad;
use crate::components::task::Task;
use crate::i18n::t;
use kontor_model::approval::{DeclineApproval, PublicApproval, SignApproval};
use kontor_model::error::FieldErrors;
use kontor_model::offer::OfferItem;
use leptos::prelude::*;
use std::collections::BTreeSet;

/// The answer handler of both forms: the new state, or the field errors and the message.
fn answered(
    errors: RwSignal<FieldErrors>,
    failure: RwSignal<Option<String>>,
    on_answer: Callback<PublicApproval>,
) -> impl Fn(Result<PublicApproval, ApiError>) {
    move |answer| match answer {
        Ok(a) => {
            on_answer.run(a);
            window().scroll_to_with_x_and_y(0.0, 0.0);
        }
        Err(e) => {
            errors.set(e.errors.clone());
            failure.set(Some(e.message));
        }
    }
}

/// "Accept and sign": name, e-mail, the signature pad, the consent checkbox.
#[component]
pub fn SignForm(
    /// The approval link's token.
    token: String,
    /// The optional positions ticked on the page.
    chosen: Signal<BTreeSet<i64>>,
    /// The offer's items (for the model's check of the chosen options).
    items: StoredValue<Vec<OfferItem>>,
    /// Called with the answer after signing.
    on_answer: Callback<PublicApproval>,
) -> impl IntoView {
    let texts = t().approval_page();
    let name = RwSignal::new(String::new());
    let email = RwSignal::new(String::new());
    let consent = RwSignal::new(false);
    let signature = RwSignal::new(None::<String>);
    let errors = RwSignal::new(FieldErrors::new());
    let failure = RwSignal::new(None::<String>);
    let task = Task::new();
    let token = StoredValue::new(token);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let body = SignApproval {
            customer_full_name: Some(name.get_untracked()),
            customer_email: Some(email.get_untracked()),
            accepted_terms: Some(consent.get_untracked()),
            signature: signature.get_untracked(),
            optional_item_ids: Some(chosen.get_untracked().into_iter().collect()),
        };
        failure.set(None);
        if let Err(e) = items.with_value(|items| body.check(items)) {
            errors.set(e);
            return;
        }
        errors.set(FieldErrors::new());
        let token = token.get_value();
        task.run(
            async move { sign_public_approval(&token, &body).await },
            answered(errors, failure, on_answer),
        );
    };
    view! {
        <section class="approval-sign" aria-labelledby="approval-sign-title">
            <h2 id="approval-sign-title">{texts.sign_title}</h2>
            <p class="muted">{texts.sign_intro}</p>
            <form novalidate on:submit=submit id="approval-sign-form">
                <div class="form-grid">
                    <Field id="signer-name" label=texts.full_name required=true error=error_of(errors, "customer_full_name")>
                        <input id="signer-name" type="text" autocomplete="name" bind:value=name />
                    </Field>
                    <Field id="signer-email" label=texts.email required=true hint=texts.email_hint error=error_of(errors, "customer_email")>
                        <input id="signer-email" type="email" autocomplete="email" bind:value=email />
                    </Field>
                </div>
                <SignaturePad signature=signature />
                {move || error_of(errors, "signature").get().map(|m| view! { <p class="field-error" role="alert">{m}</p> })}
                <div class="field field-check">
                    <label for="accept-terms" class="check-label">
                        <input type="checkbox" id="accept-terms" bind:checked=consent />
                        {texts.consent}
                    </label>
                    {move || error_of(errors, "accepted_terms").get().map(|m| view! { <p class="field-error" role="alert">{m}</p> })}
                    {move || error_of(errors, "optional_item_ids").get().map(|m| view! { <p class="field-error" role="alert">{m}</p> })}
                </div>
                {move || failure.get().map(|m| view! { <p class="field-error" role="alert">{m}</p> })}
                <button type="submit" class="btn btn-primary" id="approval-accept" disabled=move || task.pending.get()>
                    {move || if task.pending.get() { texts.signing } else { texts.accept }}
                </button>
            </form>
        </section>
    }
}

/// "Decline": behind a disclosure, name and reason.
#[component]
pub fn DeclineForm(
    /// The approval link's token.
    token: String,
    /// Called with the answer after declining.
    on_answer: Callback<PublicApproval>,
) -> impl IntoView {
    let texts = t().approval_page();
    let name = RwSignal::new(String::new());
    let reason = RwSignal::new(String::new());
    let errors = RwSignal::new(FieldErrors::new());
    let failure = RwSignal::new(None::<String>);
    let task = Task::new();
    let token = StoredValue::new(token);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let body = DeclineApproval {
            customer_full_name: Some(name.get_untracked()),
            reason: Some(reason.get_untracked()),
        };
        failure.set(None);
        if let Err(e) = body.check() {
            errors.set(e);
            return;
        }
        errors.set(FieldErrors::new());
        let token = token.get_value();
        task.run(
            async move { decline_public_approval(&token, &body).await },
            answered(errors, failure, on_answer),
        );
    };
    view! {
        <details class="approval-decline" id="approval-decline">
            <summary>{texts.decline_title}</summary>
            <form novalidate on:submit=submit>
                <Field id="decline-name" label=texts.full_name required=true error=error_of(errors, "customer_full_name")>
                    <input id="decline-name" type="text" autocomplete="name" bind:value=name />
                </Field>
                <Field id="decline-reason" label=texts.reason error=error_of(errors, "reason")>
                    <textarea id="decline-reason" rows="3" bind:value=reason></textarea>
                </Field>
                {move || failure.get().map(|m| view! { <p class="field-error" role="alert">{m}</p> })}
                <button type="submit" class="btn btn-danger" id="approval-decline-send" disabled=move || task.pending.get()>{texts.decline}</button>
            </form>
        </details>
    }
}
