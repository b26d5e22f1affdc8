//! "Forgot your password?" (issue 33 § Forgotten passwords, `/forgot-password`): the
//! person types their e-mail address; POST /session/password_reset answers 202 whatever
//! the address, so the page says the same for every address — a link is on its way *if*
//! it belongs to a user. The link opens `/set-password?token=…&reset=1`.

use crate::api::client::server_or_origin;
use crate::api::session::request_password_reset;
use crate::components::field::{field_message, Field};
use crate::i18n::{fill, t};
use crate::paths::href;
use leptos::prelude::*;

/// The forgotten-password page.
#[component]
pub fn ForgotPasswordPage() -> impl IntoView {
    let email = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let sent = RwSignal::new(None::<String>);
    let submit = Action::new_local(move |address: &String| {
        let address = address.clone();
        async move {
            request_password_reset(&server_or_origin(), &address)
                .await
                .map(|_| address)
        }
    });
    let pending = submit.pending();
    Effect::new(move |_| match submit.value().get() {
        Some(Ok(address)) => sent.set(Some(address)),
        // The server names only `email`; anything else (429, no connection) is its message.
        Some(Err(e)) => error.set(Some(field_message(&e.errors, "email").unwrap_or(e.message))),
        None => {}
    });
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let address = email.get_untracked();
        if address.trim().is_empty() {
            error.set(Some(t().sign_in().enter_email.to_string()));
            return;
        }
        error.set(None);
        submit.dispatch_local(address.trim().to_string());
    };
    let texts = t().set_password();
    view! {
        <div class="sign-in">
            <form class="sign-in-card" on:submit=on_submit novalidate>
                <h1>{texts.forgot_heading}</h1>
                <Show
                    when=move || sent.with(Option::is_some)
                    fallback=move || view! {
                        <p class="muted">{t().set_password().forgot_intro}</p>
                        <Field id="email" label=t().sign_in().email required=true error=error>
                            <input id="email" type="email" autocomplete="username" autofocus=true bind:value=email />
                        </Field>
                        <button type="submit" id="forgot-submit" class="btn btn-primary" disabled=move || pending.get()>
                            {move || if pending.get() { t().set_password().forgot_sending } else { t().set_password().forgot_submit }}
                        </button>
                    }
                >
                    <p class="sign-in-note" role="status" id="forgot-sent">
                        {move || fill(t().set_password().forgot_sent, &[("email", &sent.get().unwrap_or_default())])}
                    </p>
                </Show>
                <a class="btn-link sign-in-more" href=href("/sign-in")>{texts.back_to_sign_in}</a>
            </form>
        </div>
    }
}
