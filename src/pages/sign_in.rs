//! Sign-in: the server address (default: this page's origin) and an API key, verified
//! with GET /session before they are stored.

use crate::api::client::{has_key, server_or_origin, store_credentials};
use crate::api::session::verify_key;
use crate::api::ApiError;
use crate::components::field::Field;
use crate::components::toast::Toasts;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// The sign-in page.
#[component]
pub fn SignIn() -> impl IntoView {
    let navigate = use_navigate();
    let toasts = Toasts::use_context();
    let server = RwSignal::new(server_or_origin());
    let key = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let verify = Action::new_local(move |(server, key): &(String, String)| {
        let (server, key) = (server.clone(), key.clone());
        async move {
            verify_key(&server, &key)
                .await
                .map(|session| (server, key, session))
        }
    });
    let pending = verify.pending();
    Effect::new(move |_| match verify.value().get() {
        Some(Ok((server, key, session))) => {
            store_credentials(&server, &key);
            let who = if session.name.is_empty() {
                "Signed in.".to_string()
            } else {
                format!("Signed in as {}.", session.name)
            };
            toasts.success(who);
            navigate("/dashboard", Default::default());
        }
        Some(Err(e)) => error.set(Some(sign_in_message(&e))),
        None => {}
    });
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let (s, k) = (server.get_untracked(), key.get_untracked());
        if k.trim().is_empty() {
            error.set(Some("Enter your API key.".into()));
            return;
        }
        error.set(None);
        verify.dispatch_local((s, k));
    };
    view! {
        <div class="sign-in">
            <form class="sign-in-card" on:submit=on_submit novalidate>
                <h1>"Sign in to Kontor"</h1>
                <p class="muted">"Use an API key created on the server (kontor-server keys create)."</p>
                {move || error.get().map(|e| view! { <p class="form-summary" role="alert">{e}</p> })}
                <Field id="server" label="Server address" required=true hint="For example https://kontor.example.com">
                    <input id="server" type="url" autocomplete="url" bind:value=server />
                </Field>
                <Field id="api-key" label="API key" required=true>
                    <input id="api-key" type="password" autocomplete="current-password" autofocus=!has_key() bind:value=key />
                </Field>
                <button type="submit" class="btn btn-primary" disabled=move || pending.get()>
                    {move || if pending.get() { "Checking…" } else { "Sign in" }}
                </button>
            </form>
        </div>
    }
}

fn sign_in_message(e: &ApiError) -> String {
    match e.status {
        401 => "This API key was not accepted by the server.".into(),
        0 => e.message.clone(),
        _ => format!("The server answered: {}", e.message),
    }
}
