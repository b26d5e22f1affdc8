//! Sign-in (issue 12): e-mail and password (POST /session), the server address prefilled
//! with this page's origin behind {t().sign_in().another_server}, and "Sign in with an API key" for
//! integrations (verified with GET /session before it is stored). A server without an
//! admin links to the first-run page (`GET /setup`); "Forgot your password?" links to
//! `/forgot-password` (issue 33).

use crate::api::client::{has_key, server_or_origin, store_credentials};
use crate::api::session::{setup_needed, sign_in, verify_key};
use crate::api::ApiError;
use crate::components::field::Field;
use crate::components::prefs::{apply_user_prefs, display_name, start_session};
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use crate::paths::href;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// How the sign-in form signs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignInMode {
    /// E-mail and password (people).
    Password,
    /// An API key (integrations).
    ApiKey,
}

/// The sign-in page.
#[component]
pub fn SignIn() -> impl IntoView {
    let navigate = use_navigate();
    let toasts = Toasts::use_context();
    let server = RwSignal::new(server_or_origin());
    let show_server = RwSignal::new(server.get_untracked() != origin());
    let mode = RwSignal::new(SignInMode::Password);
    let email = RwSignal::new(String::new());
    let password = RwSignal::new(String::new());
    let key = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let email_error = RwSignal::new(None::<String>);
    let secret_error = RwSignal::new(None::<String>);
    let setup = RwSignal::new(false);

    // A server without an admin offers the first-run page. It is a link, not a
    // redirect: API-key sign-in (integrations, tests) still works on such a server.
    Effect::new(move |_| {
        let s = server.get();
        leptos::task::spawn_local(async move {
            setup.set(matches!(setup_needed(&s).await, Ok(true)));
        });
    });

    let submit = Action::new_local(
        move |(mode, server, first, second): &(SignInMode, String, String, String)| {
            let (mode, server, first, second) =
                (*mode, server.clone(), first.clone(), second.clone());
            async move {
                match mode {
                    SignInMode::Password => sign_in(&server, &first, &second).await.map(|signed| {
                        start_session(&server, &signed);
                        fill(
                            t().sign_in().signed_in_as,
                            &[("name", &display_name(&signed.user))],
                        )
                    }),
                    SignInMode::ApiKey => verify_key(&server, &second).await.map(|session| {
                        store_credentials(&server, &second);
                        if let Some(user) = session.user.as_ref() {
                            apply_user_prefs(user);
                        }
                        if session.name.is_empty() {
                            t().sign_in().signed_in.to_string()
                        } else {
                            fill(t().sign_in().signed_in_with, &[("name", &session.name)])
                        }
                    }),
                }
            }
        },
    );
    let pending = submit.pending();
    Effect::new(move |_| match submit.value().get() {
        Some(Ok(who)) => {
            toasts.success(who);
            navigate("/dashboard", Default::default());
        }
        Some(Err(e)) => error.set(Some(sign_in_message(&e, mode.get_untracked()))),
        None => {}
    });
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        error.set(None);
        let m = mode.get_untracked();
        let (first, second) = match m {
            SignInMode::Password => (email.get_untracked(), password.get_untracked()),
            SignInMode::ApiKey => (String::new(), key.get_untracked()),
        };
        let missing_email = m == SignInMode::Password && first.trim().is_empty();
        email_error.set(missing_email.then(|| t().sign_in().enter_email.to_string()));
        let missing_secret = second.trim().is_empty();
        secret_error.set(missing_secret.then(|| match m {
            SignInMode::Password => t().sign_in().enter_password.to_string(),
            SignInMode::ApiKey => t().sign_in().enter_key.to_string(),
        }));
        if missing_email || missing_secret {
            return;
        }
        // The frame and the dashboard are fetched while the server checks the sign-in.
        if let Some(preloads) = crate::lazy::Preloads::use_context() {
            preloads.signing_in.run(());
        }
        submit.dispatch_local((m, server.get_untracked(), first, second));
    };
    let switch_mode = move |_| {
        error.set(None);
        secret_error.set(None);
        email_error.set(None);
        mode.update(|m| {
            *m = match m {
                SignInMode::Password => SignInMode::ApiKey,
                SignInMode::ApiKey => SignInMode::Password,
            }
        });
    };
    view! {
        <div class="sign-in">
            <form class="sign-in-card" on:submit=on_submit novalidate>
                <h1>{t().sign_in().heading}</h1>
                {move || error.get().map(|e| view! { <p class="form-summary" role="alert" id="sign-in-error">{e}</p> })}
                <Show when=move || setup.get()>
                    <p class="sign-in-note" id="setup-note">
                        {t().sign_in().no_admin} " "
                        <a href=href("/setup")>{t().sign_in().set_up}</a>
                    </p>
                </Show>
                <Show
                    when=move || mode.get() == SignInMode::Password
                    fallback=move || view! {
                        <Field id="api-key" label=t().sign_in().api_key required=true error=secret_error>
                            <input id="api-key" type="password" autocomplete="off" autofocus=!has_key() bind:value=key />
                        </Field>
                    }
                >
                    <Field id="email" label=t().sign_in().email required=true error=email_error>
                        <input id="email" type="email" autocomplete="username" autofocus=true bind:value=email />
                    </Field>
                    <Field id="password" label=t().sign_in().password required=true error=secret_error>
                        <input id="password" type="password" autocomplete="current-password" bind:value=password />
                    </Field>
                    <a class="sign-in-forgot" id="forgot-password" href=href("/forgot-password")>{t().sign_in().forgot}</a>
                </Show>
                <Show
                    when=move || show_server.get()
                    fallback=move || view! {
                        <button type="button" class="btn-link sign-in-more" id="another-server" on:click=move |_| show_server.set(true)>
                            {t().sign_in().another_server}
                        </button>
                    }
                >
                    <Field id="server" label=t().sign_in().server_address required=true hint=t().sign_in().server_hint>
                        <input id="server" type="url" autocomplete="url" bind:value=server />
                    </Field>
                </Show>
                <button type="submit" id="sign-in-submit" class="btn btn-primary" disabled=move || pending.get()>
                    {move || if pending.get() { t().sign_in().signing_in } else { t().sign_in().submit }}
                </button>
                <button type="button" class="btn-link sign-in-more" id="sign-in-mode" on:click=switch_mode>
                    {move || match mode.get() {
                        SignInMode::Password => t().sign_in().with_key,
                        SignInMode::ApiKey => t().sign_in().with_password,
                    }}
                </button>
            </form>
        </div>
    }
}

fn origin() -> String {
    window().location().origin().unwrap_or_default()
}

/// The sentence shown for a failed sign-in: the server's own message on 401 (the same for
/// every wrong e-mail or password) and 429 (the server's "Too many sign-in attempts. Try
/// again in N minutes.", in the language asked for by `Accept-Language`), the
/// network message when the server could not be reached.
pub fn sign_in_message(e: &ApiError, mode: SignInMode) -> String {
    match (e.status, mode) {
        (401, SignInMode::ApiKey) => t().sign_in().key_refused.into(),
        (401 | 429 | 0, _) => e.message.clone(),
        // The server wrote these in the language the request asked for (`Accept-Language`),
        // so they are shown as they came: rendering them again from their codes would put
        // the message catalogue into the main module (issue 35, the first visit's bytes).
        (422, _) if !e.errors.is_empty() => e
            .errors
            .values()
            .flatten()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" "),
        _ => fill(t().sign_in().server_answered, &[("message", &e.message)]),
    }
}
