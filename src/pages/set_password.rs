//! The invitation page (issue 12, `/set-password?token=…`): the invited person chooses a
//! password (POST /session/invitation) and is signed in. With `&reset=1` (issue 33, the
//! forgotten-password link) it is worded for a new password and confirms through POST
//! /session/password_reset/confirm. A bad, used or expired link shows the server's message
//! at the top with a link to sign-in.

use crate::api::client::server_or_origin;
use crate::api::session::{accept_invitation, confirm_password_reset};
use crate::components::field::{error_of, Field};
use crate::components::password_rules::{check_new_password, password_hint};
use crate::components::prefs::{display_name, start_session};
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use crate::paths::href;
use kontor_model::error::FieldErrors;
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};

/// The set-password page.
#[component]
pub fn SetPasswordPage() -> impl IntoView {
    let navigate = use_navigate();
    let toasts = Toasts::use_context();
    let query = use_query_map();
    let token = Memo::new(move |_| query.with(|q| q.get("token").unwrap_or_default()));
    let reset = Memo::new(move |_| query.with(|q| q.get("reset").is_some_and(|r| r == "1")));
    let password = RwSignal::new(String::new());
    let repeat = RwSignal::new(String::new());
    let errors = RwSignal::new(FieldErrors::new());
    let submit = Action::new_local(move |(token, password): &(String, String)| {
        let (token, password) = (token.clone(), password.clone());
        async move {
            let server = server_or_origin();
            let signed = if reset.get_untracked() {
                confirm_password_reset(&server, &token, &password).await?
            } else {
                accept_invitation(&server, &token, &password).await?
            };
            start_session(&server, &signed);
            Ok::<_, crate::api::ApiError>(signed)
        }
    });
    let pending = submit.pending();
    Effect::new(move |_| match submit.value().get() {
        Some(Ok(signed)) => {
            let texts = t().set_password();
            toasts.success(fill(
                if reset.get_untracked() {
                    texts.reset_welcome
                } else {
                    texts.welcome
                },
                &[("name", &display_name(&signed.user))],
            ));
            navigate("/dashboard", Default::default());
        }
        Some(Err(e)) => {
            let mut shown = e.errors.clone();
            if shown.is_empty() {
                shown.insert(
                    "token".into(),
                    vec![kontor_model::error::Message::verbatim(e.message)],
                );
            }
            errors.set(shown);
        }
        None => {}
    });
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let (p, r) = (password.get_untracked(), repeat.get_untracked());
        let mut local = FieldErrors::new();
        check_new_password(&mut local, &p, &r, t().set_password().mismatch);
        errors.set(local.clone());
        if local.is_empty() {
            submit.dispatch_local((token.get_untracked(), p));
        }
    };
    let token_error = error_of(errors, "token");
    let hint = password_hint();
    view! {
        <div class="sign-in">
            <form class="sign-in-card" on:submit=on_submit novalidate>
                <h1>{move || if reset.get() { t().set_password().reset_heading } else { t().set_password().heading }}</h1>
                <p class="muted">{move || if reset.get() { t().set_password().reset_intro } else { t().set_password().intro }}</p>
                {move || token.with(String::is_empty).then(|| view! {
                    <p class="form-summary" role="alert">{t().set_password().no_token}</p>
                })}
                {move || token_error.get().map(|e| view! {
                    <p class="form-summary" role="alert" id="token-error">
                        {e} " " <a href=href("/sign-in")>{t().set_password().go_sign_in}</a>
                    </p>
                })}
                <Field id="new-password" label=t().people_common().password required=true hint=hint error=error_of(errors, "password")>
                    <input id="new-password" type="password" autocomplete="new-password" autofocus=true bind:value=password />
                </Field>
                <Field id="repeat-password" label=t().set_password().repeat required=true error=error_of(errors, "repeat")>
                    <input id="repeat-password" type="password" autocomplete="new-password" bind:value=repeat />
                </Field>
                <button type="submit" class="btn btn-primary" disabled=move || pending.get() || token.with(String::is_empty)>
                    {move || if pending.get() { t().set_password().saving } else { t().set_password().submit }}
                </button>
            </form>
        </div>
    }
}
