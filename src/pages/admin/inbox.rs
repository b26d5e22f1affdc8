//! Settings → Inbox `/settings/inbox` (admins, issue 36): the IMAP mailbox Kontor reads —
//! on/off, server, port, security, user, password (write-only: "A password is stored"),
//! the folder read and the processed folder — saved with `PUT /inbox/settings` (field
//! errors under their inputs) and tried with "Test connection" (`POST /inbox/test`).

use super::{admin_state, AdminOnly};
use crate::api::inbox::{get_inbox_settings, test_inbox, update_inbox_settings};
use crate::components::error_panel::ErrorPanel;
use crate::components::field::{localized_joined, localized_sentence, Field};
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use kontor_model::inbox::{InboxSecurity, InboxSettings, InboxSettingsUpdate};
use leptos::prelude::*;

/// The page.
#[component]
pub fn InboxSettingsPage() -> impl IntoView {
    let admin = admin_state();
    view! {
        <div class="page-head">
            <h1>{t().nav().inbox_settings}</h1>
        </div>
        {move || match admin.get() {
            Some(true) => view! { <InboxSettingsLoader /> }.into_any(),
            Some(false) => view! { <AdminOnly /> }.into_any(),
            None => view! { <p class="muted">{t().common().loading}</p> }.into_any(),
        }}
    }
}

#[component]
fn InboxSettingsLoader() -> impl IntoView {
    let settings = LocalResource::new(get_inbox_settings);
    move || match settings.get() {
        None => view! { <p class="muted">{t().common().loading}</p> }.into_any(),
        Some(Err(e)) => {
            view! { <ErrorPanel error=e on_retry=Callback::new(move |_| settings.refetch()) /> }
                .into_any()
        }
        Some(Ok(s)) => view! { <InboxSettingsForm settings=s /> }.into_any(),
    }
}

#[component]
fn InboxSettingsForm(settings: InboxSettings) -> impl IntoView {
    let texts = t().inbox();
    let toasts = Toasts::use_context();
    let enabled = RwSignal::new(settings.enabled);
    let host = RwSignal::new(settings.host.clone());
    let port = RwSignal::new(settings.port.to_string());
    let security = RwSignal::new(settings.security.as_str().to_string());
    let user = RwSignal::new(settings.user.clone());
    let password = RwSignal::new(String::new());
    let password_set = RwSignal::new(settings.password_set);
    let folder = RwSignal::new(settings.folder.clone());
    let processed = RwSignal::new(settings.processed_folder.clone());
    let errors = RwSignal::new(kontor_model::error::FieldErrors::new());
    let error_of = move |field: &'static str| {
        Signal::derive(move || errors.with(|e| e.get(field).map(|m| localized_joined(m, "; "))))
    };
    let saving = RwSignal::new(false);
    let testing = RwSignal::new(false);
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let typed_port = port.get_untracked().trim().parse::<u16>().ok();
        let update = InboxSettingsUpdate {
            enabled: Some(enabled.get_untracked()),
            host: Some(host.get_untracked()),
            port: typed_port,
            security: InboxSecurity::parse(&security.get_untracked()),
            user: Some(user.get_untracked()),
            password: Some(password.get_untracked()).filter(|p| !p.is_empty()),
            folder: Some(folder.get_untracked()),
            processed_folder: Some(processed.get_untracked()),
        };
        saving.set(true);
        leptos::task::spawn_local(async move {
            match update_inbox_settings(&update).await {
                Ok(s) => {
                    errors.set(Default::default());
                    port.set(s.port.to_string());
                    password.set(String::new());
                    password_set.set(s.password_set);
                    toasts.success(texts.saved.to_string());
                }
                Err(e) if !e.errors.is_empty() => errors.set(e.errors),
                Err(e) => toasts.error(localized_sentence(&e.message)),
            }
            saving.set(false);
        });
    };
    let on_test = move |_| {
        testing.set(true);
        leptos::task::spawn_local(async move {
            match test_inbox().await {
                Ok(r) => {
                    toasts.success(fill(texts.tested, &[("messages", &r.messages.to_string())]))
                }
                Err(e) => toasts.error(fill(
                    texts.test_failed,
                    &[("message", &localized_sentence(&e.message))],
                )),
            }
            testing.set(false);
        });
    };
    view! {
        <p class="muted">{texts.settings_intro}</p>
        <form class="form-section settings-section" id="inbox-settings" on:submit=on_submit novalidate>
            <label class="check">
                <input id="inbox-enabled" type="checkbox" bind:checked=enabled />
                " " {texts.enabled}
            </label>
            <div class="form-grid settings-grid">
            <Field id="inbox-host" label=texts.host error=error_of("host")>
                <input id="inbox-host" type="text" autocomplete="off" bind:value=host />
            </Field>
            <Field id="inbox-security" label=texts.security error=error_of("security")>
                <select id="inbox-security" prop:value=move || security.get()
                    on:change=move |ev| security.set(event_target_value(&ev))>
                    <option value="tls">{texts.security_tls}</option>
                    <option value="starttls">{texts.security_starttls}</option>
                    <option value="none">{texts.security_none}</option>
                </select>
            </Field>
            <Field id="inbox-port" label=texts.port error=error_of("port")>
                <input id="inbox-port" type="text" inputmode="numeric" bind:value=port />
            </Field>
            <Field id="inbox-user" label=texts.user error=error_of("user")>
                <input id="inbox-user" type="text" autocomplete="off" bind:value=user />
            </Field>
            <Field id="inbox-password" label=texts.password error=error_of("password")>
                <input id="inbox-password" type="password" autocomplete="new-password" bind:value=password />
                {move || password_set.get().then(|| view! { <p class="field-hint">{texts.password_kept}</p> })}
            </Field>
            <Field id="inbox-folder" label=texts.folder error=error_of("folder")>
                <input id="inbox-folder" type="text" bind:value=folder />
            </Field>
            <Field id="inbox-processed" label=texts.processed_folder error=error_of("processed_folder")>
                <input id="inbox-processed" type="text" bind:value=processed />
            </Field>
            </div>
            <div class="form-actions">
                <button type="button" class="btn" id="inbox-test" disabled=move || testing.get() on:click=on_test>
                    {move || if testing.get() { texts.testing } else { texts.test }}
                </button>
                <button type="submit" class="btn btn-primary" id="inbox-save" disabled=move || saving.get()>
                    {move || if saving.get() { texts.saving } else { texts.save }}
                </button>
            </div>
        </form>
    }
}
