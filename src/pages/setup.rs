//! The first-run page (issue 12, `/setup`): while the server has no active admin
//! (`GET /setup` → `needed`), it creates the first admin with e-mail, names and a password
//! (POST /setup) and signs them in. Once an admin exists it says so and links to sign-in.

use crate::api::client::server_or_origin;
use crate::api::session::{post_setup, setup_needed};
use crate::components::field::{blank_required, error_of, Field};
use crate::components::password_rules::{password_hint, password_length_message};
use crate::components::prefs::start_session;
use crate::components::toast::Toasts;
use crate::i18n::t;
use crate::paths::href;
use kontor_model::error::FieldErrors;
use kontor_model::users::SignIn;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// The first-run page.
#[component]
pub fn SetupPage() -> impl IntoView {
    let navigate = use_navigate();
    let toasts = Toasts::use_context();
    let server = server_or_origin();
    let needed = LocalResource::new({
        let server = server.clone();
        move || {
            let server = server.clone();
            async move { setup_needed(&server).await }
        }
    });
    let email = RwSignal::new(String::new());
    let firstname = RwSignal::new(String::new());
    let lastname = RwSignal::new(String::new());
    let password = RwSignal::new(String::new());
    let errors = RwSignal::new(FieldErrors::new());
    let error = RwSignal::new(None::<String>);
    let server_v = StoredValue::new(server);
    let submit = Action::new_local(move |body: &SignIn| {
        let body = body.clone();
        let server = server_v.get_value();
        async move {
            let signed = post_setup(&server, &body).await?;
            start_session(&server, &signed);
            Ok::<_, crate::api::ApiError>(signed)
        }
    });
    let pending = submit.pending();
    Effect::new(move |_| match submit.value().get() {
        Some(Ok(_)) => {
            toasts.success(t().setup_page().done);
            navigate("/dashboard", Default::default());
        }
        Some(Err(e)) => {
            errors.set(e.errors.clone());
            error.set(Some(if e.status == 409 {
                t().setup_page().has_admin_sign_in.to_string()
            } else {
                e.message
            }));
        }
        None => {}
    });
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let mut local = blank_required(&[
            ("email", email),
            ("firstname", firstname),
            ("lastname", lastname),
        ]);
        if let Some(reason) = password_length_message(&password.get_untracked()) {
            local.insert(
                "password".into(),
                vec![kontor_model::error::Message::verbatim(reason)],
            );
        }
        errors.set(local.clone());
        error.set(None);
        if !local.is_empty() {
            return;
        }
        submit.dispatch_local(SignIn {
            email: Some(email.get_untracked().trim().to_string()),
            password: Some(password.get_untracked()),
            firstname: Some(firstname.get_untracked().trim().to_string()),
            lastname: Some(lastname.get_untracked().trim().to_string()),
        });
    };
    let hint = password_hint();
    view! {
        <div class="sign-in">
            <form class="sign-in-card" on:submit=on_submit novalidate>
                <h1>{t().setup_page().heading}</h1>
                {move || match needed.get() {
                    Some(Ok(false)) => Some(view! {
                        <p class="sign-in-note" role="status">
                            {t().setup_page().has_admin} " "
                            <a href=href("/sign-in")>{t().setup_page().sign_in}</a>
                        </p>
                    }.into_any()),
                    Some(Err(e)) => Some(view! { <p class="form-summary" role="alert">{e.message}</p> }.into_any()),
                    _ => Some(view! {
                        <p class="muted">{t().setup_page().intro}</p>
                    }.into_any()),
                }}
                {move || error.get().map(|e| view! { <p class="form-summary" role="alert" id="setup-error">{e}</p> })}
                <Field id="setup-email" label=t().sign_in().email required=true error=error_of(errors, "email")>
                    <input id="setup-email" type="email" autocomplete="username" bind:value=email />
                </Field>
                <Field id="setup-firstname" label=t().setup_page().first_name required=true error=error_of(errors, "firstname")>
                    <input id="setup-firstname" type="text" autocomplete="given-name" bind:value=firstname />
                </Field>
                <Field id="setup-lastname" label=t().setup_page().last_name required=true error=error_of(errors, "lastname")>
                    <input id="setup-lastname" type="text" autocomplete="family-name" bind:value=lastname />
                </Field>
                <Field id="setup-password" label=t().people_common().password required=true hint=hint error=error_of(errors, "password")>
                    <input id="setup-password" type="password" autocomplete="new-password" bind:value=password />
                </Field>
                <button type="submit" class="btn btn-primary" disabled=move || pending.get() || matches!(needed.get(), Some(Ok(false)))>
                    {move || if pending.get() { t().setup_page().setting_up } else { t().setup_page().submit }}
                </button>
            </form>
        </div>
    }
}
