//! The API keys page (admin, issue 12): every key with name, user, kind, read-only,
//! created, last used and revoked; create (name, read-only → the secret shown once with a
//! Copy button) and revoke (asks first). Sign-in session keys are listed too (kind
//! "Sign-in") so an admin can end a session.

use super::{admin_state, AdminOnly};
use crate::api::api_keys::{create_api_key, list_api_keys, revoke_api_key};
use crate::components::confirm_dialog::ConfirmDialog;
use crate::components::copy_field::CopyField;
use crate::components::date::format_date;
use crate::components::dialog::Dialog;
use crate::components::error_panel::ErrorPanel;
use crate::components::field::Field;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use chrono::{DateTime, Utc};
use kontor_model::users::ApiKey;
use leptos::prelude::*;

/// A timestamp as the key table shows it (UTC, to the minute; the date in the user's
/// language: `23.11.2026 14:05`, `23 Nov 2026 14:05`); "—" for none.
pub fn key_time(time: Option<DateTime<Utc>>) -> String {
    time.map(|at| format!("{} {}", format_date(at.date_naive()), at.format("%H:%M")))
        .unwrap_or_else(|| "—".into())
}

/// The kind as the page says it.
pub fn kind_label(kind: &str) -> &'static str {
    if kind == "session" {
        t().people_keys().kind_session
    } else {
        t().people_keys().kind_api
    }
}

/// The API keys page.
#[component]
pub fn ApiKeysPage() -> impl IntoView {
    let admin = admin_state();
    view! {
        <div class="page-head">
            <h1>{t().nav().api_keys}</h1>
        </div>
        {move || match admin.get() {
            Some(true) => view! { <KeysAdmin /> }.into_any(),
            Some(false) => view! { <AdminOnly /> }.into_any(),
            None => view! { <p class="muted">{t().common().loading}</p> }.into_any(),
        }}
    }
}

#[component]
fn KeysAdmin() -> impl IntoView {
    let toasts = Toasts::use_context();
    let keys = LocalResource::new(list_api_keys);
    let create_open = RwSignal::new(false);
    let name = RwSignal::new(String::new());
    let read_only = RwSignal::new(false);
    let name_error = RwSignal::new(None::<String>);
    let created = RwSignal::new(None::<ApiKey>);
    let confirm = RwSignal::new(false);
    let to_revoke = RwSignal::new(None::<ApiKey>);
    Effect::new(move |_| {
        if create_open.get() {
            name.set(String::new());
            read_only.set(false);
            name_error.set(None);
            created.set(None);
        }
    });
    let create = Action::new_local(move |(n, r): &(String, bool)| {
        let (n, r) = (n.clone(), *r);
        async move { create_api_key(&n, r).await }
    });
    let pending = create.pending();
    Effect::new(move |_| match create.value().get() {
        Some(Ok(key)) => {
            created.set(Some(key));
            keys.refetch();
        }
        Some(Err(e)) => name_error.set(Some(
            e.errors
                .get("name")
                .map(|m| crate::components::field::localized_joined(m, "; "))
                .unwrap_or(e.message),
        )),
        None => {}
    });
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let n = name.get_untracked();
        if n.trim().is_empty() {
            name_error.set(Some(t().people_common().required.into()));
            return;
        }
        name_error.set(None);
        create.dispatch_local((n, read_only.get_untracked()));
    };
    let on_revoke = Callback::new(move |key: ApiKey| {
        to_revoke.set(Some(key));
        confirm.set(true);
    });
    view! {
        <div class="people-actions">
            <button type="button" class="btn btn-primary" id="create-key" on:click=move |_| create_open.set(true)>
                {t().people_keys().create_key}
            </button>
        </div>
        {move || match keys.get() {
            None => view! { <p class="muted">{t().people_keys().loading}</p> }.into_any(),
            Some(Err(e)) => view! { <ErrorPanel error=e on_retry=Callback::new(move |_| keys.refetch()) /> }.into_any(),
            Some(Ok(list)) => view! { <KeysTable keys=list read_only=false on_revoke=on_revoke /> }.into_any(),
        }}
        <Dialog open=create_open title=t().people_keys().create_key>
            <Show
                when=move || created.with(Option::is_none)
                fallback=move || view! {
                    {created.get().and_then(|k| k.api_key).map(|secret| view! {
                        <p>{t().people_keys().copy_now}</p>
                        <CopyField id="new-key-secret" label=t().people_keys().kind_api value=secret />
                    })}
                    <div class="dialog-actions">
                        <button type="button" class="btn btn-primary" on:click=move |_| create_open.set(false)>{t().people_common().done}</button>
                    </div>
                }
            >
                <form class="dialog-form" id="key-form" on:submit=on_submit novalidate>
                    <Field id="key-name" label=t().people_common().name required=true error=name_error hint=t().people_keys().name_hint>
                        <input id="key-name" type="text" autofocus=true bind:value=name />
                    </Field>
                    <label class="check">
                        <input id="key-read-only" type="checkbox" bind:checked=read_only />
                        " " {t().people_keys().read_only_choice}
                    </label>
                    <div class="dialog-actions">
                        <button type="button" class="btn" on:click=move |_| create_open.set(false)>{t().common().cancel}</button>
                        <button type="submit" class="btn btn-primary" id="key-save" disabled=move || pending.get()>
                            {move || if pending.get() { t().people_keys().creating } else { t().people_keys().create }}
                        </button>
                    </div>
                </form>
            </Show>
        </Dialog>
        <ConfirmDialog
            open=confirm
            title=Signal::derive(move || to_revoke.get().map(|k| fill(t().people_keys().revoke_title, &[("name", &k.name)])).unwrap_or_default())
            text=t().people_keys().revoke_text
            confirm_label=t().people_keys().revoke
            confirm_id="confirm-revoke"
            on_confirm=Callback::new(move |_| {
                confirm.set(false);
                if let Some(k) = to_revoke.get_untracked() {
                    leptos::task::spawn_local(async move {
                        match revoke_api_key(k.id).await {
                            Ok(()) => {
                                toasts.success(fill(t().people_keys().revoked_done, &[("name", &k.name)]));
                                keys.refetch();
                            }
                            Err(e) => toasts.error(e.message),
                        }
                    });
                }
            })
        />
    }
}

/// The keys table; `read_only` hides Revoke.
#[component]
pub fn KeysTable(
    /// The keys.
    keys: Vec<ApiKey>,
    /// Hides every write control.
    read_only: bool,
    /// Revoke was pressed for a key.
    on_revoke: Callback<ApiKey>,
) -> impl IntoView {
    if keys.is_empty() {
        return view! { <p class="empty-state">{t().people_keys().none_yet}</p> }.into_any();
    }
    view! {
        <table class="table table-keys">
            <thead>
                <tr>
                    <th scope="col">{t().people_common().name}</th>
                    <th scope="col">{t().people_keys().user}</th>
                    <th scope="col">{t().people_keys().kind}</th>
                    <th scope="col">{t().people_keys().access}</th>
                    <th scope="col">{t().people_keys().created}</th>
                    <th scope="col">{t().people_keys().last_used}</th>
                    <th scope="col">{t().people_keys().revoked}</th>
                    {(!read_only).then(|| view! { <th scope="col"><span class="visually-hidden">{t().people_common().actions}</span></th> })}
                </tr>
            </thead>
            <tbody>
                {keys.into_iter().map(|key| {
                    let revoked = key.revoked_at.is_some();
                    let stored = StoredValue::new(key.clone());
                    view! {
                        <tr data-key=key.id class=if revoked { "row-inactive" } else { "" }>
                            <td class="cell-name">{key.name.clone()}</td>
                            <td>{key.user.name.clone()}</td>
                            <td>{kind_label(&key.kind)}</td>
                            <td>{if key.read_only { t().people_keys().read_only } else { t().people_keys().read_write }}</td>
                            <td class="cell-date">{key_time(Some(key.created_at))}</td>
                            <td class="cell-date">{key_time(key.last_used_at)}</td>
                            <td class="cell-date">{key_time(key.revoked_at)}</td>
                            {(!read_only).then(|| view! {
                                <td class="cell-actions">
                                    {(!revoked).then(|| view! {
                                        <button type="button" class="btn btn-small" data-action="revoke"
                                            on:click=move |_| on_revoke.run(stored.get_value())>{t().people_keys().revoke}</button>
                                    })}
                                </td>
                            })}
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}
