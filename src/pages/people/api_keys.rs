//! The API keys page (admin, issue 12): every key with name, user, kind, read-only,
//! created, last used and revoked; create (name, read-only → the secret shown once with a
//! Copy button) and revoke (asks first). Sign-in session keys are listed too (kind
//! "Sign-in") so an admin can end a session.

use super::copy::CopyField;
use super::{admin_state, AdminOnly};
use crate::api::api_keys::{create_api_key, list_api_keys, revoke_api_key};
use crate::components::confirm_dialog::ConfirmDialog;
use crate::components::dialog::Dialog;
use crate::components::error_panel::ErrorPanel;
use crate::components::field::Field;
use crate::components::toast::Toasts;
use chrono::{DateTime, Utc};
use kontor_model::people::ApiKey;
use leptos::prelude::*;

/// A timestamp as the key table shows it (UTC, to the minute); "—" for none.
pub fn key_time(time: Option<DateTime<Utc>>) -> String {
    time.map(|t| t.format("%Y-%m-%d %H:%M").to_string())
        .unwrap_or_else(|| "—".into())
}

/// The kind as the page says it.
pub fn kind_label(kind: &str) -> &'static str {
    if kind == "session" {
        "Sign-in"
    } else {
        "API key"
    }
}

/// The API keys page.
#[component]
pub fn ApiKeysPage() -> impl IntoView {
    let admin = admin_state();
    view! {
        <div class="page-head">
            <h1>"API keys"</h1>
        </div>
        {move || match admin.get() {
            Some(true) => view! { <KeysAdmin /> }.into_any(),
            Some(false) => view! { <AdminOnly /> }.into_any(),
            None => view! { <p class="muted">"Loading…"</p> }.into_any(),
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
                .map(|m| m.join("; "))
                .unwrap_or(e.message),
        )),
        None => {}
    });
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let n = name.get_untracked();
        if n.trim().is_empty() {
            name_error.set(Some("is required".into()));
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
                "Create API key"
            </button>
        </div>
        {move || match keys.get() {
            None => view! { <p class="muted">"Loading keys…"</p> }.into_any(),
            Some(Err(e)) => view! { <ErrorPanel error=e on_retry=Callback::new(move |_| keys.refetch()) /> }.into_any(),
            Some(Ok(list)) => view! { <KeysTable keys=list read_only=false on_revoke=on_revoke /> }.into_any(),
        }}
        <Dialog open=create_open title="Create API key">
            <Show
                when=move || created.with(Option::is_none)
                fallback=move || view! {
                    {created.get().and_then(|k| k.api_key).map(|secret| view! {
                        <p>"Copy the key now: it is shown only once."</p>
                        <CopyField id="new-key-secret" label="API key" value=secret />
                    })}
                    <div class="dialog-actions">
                        <button type="button" class="btn btn-primary" on:click=move |_| create_open.set(false)>"Done"</button>
                    </div>
                }
            >
                <form class="dialog-form" id="key-form" on:submit=on_submit novalidate>
                    <Field id="key-name" label="Name" required=true error=name_error hint="What uses it, e.g. “Accounting export”">
                        <input id="key-name" type="text" autofocus=true bind:value=name />
                    </Field>
                    <label class="check">
                        <input id="key-read-only" type="checkbox" bind:checked=read_only />
                        " Read-only (may only read)"
                    </label>
                    <div class="dialog-actions">
                        <button type="button" class="btn" on:click=move |_| create_open.set(false)>"Cancel"</button>
                        <button type="submit" class="btn btn-primary" id="key-save" disabled=move || pending.get()>
                            {move || if pending.get() { "Creating…" } else { "Create" }}
                        </button>
                    </div>
                </form>
            </Show>
        </Dialog>
        <ConfirmDialog
            open=confirm
            title=Signal::derive(move || to_revoke.get().map(|k| format!("Revoke “{}”?", k.name)).unwrap_or_default())
            text="Everything using this key stops working at once. This cannot be undone."
            confirm_label="Revoke"
            confirm_id="confirm-revoke"
            on_confirm=Callback::new(move |_| {
                confirm.set(false);
                if let Some(k) = to_revoke.get_untracked() {
                    leptos::task::spawn_local(async move {
                        match revoke_api_key(k.id).await {
                            Ok(()) => {
                                toasts.success(format!("“{}” is revoked.", k.name));
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
        return view! { <p class="empty-state">"No API keys yet."</p> }.into_any();
    }
    view! {
        <table class="table table-keys">
            <thead>
                <tr>
                    <th scope="col">"Name"</th>
                    <th scope="col">"User"</th>
                    <th scope="col">"Kind"</th>
                    <th scope="col">"Access"</th>
                    <th scope="col">"Created"</th>
                    <th scope="col">"Last used"</th>
                    <th scope="col">"Revoked"</th>
                    {(!read_only).then(|| view! { <th scope="col"><span class="visually-hidden">"Actions"</span></th> })}
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
                            <td>{if key.read_only { "Read-only" } else { "Read and write" }}</td>
                            <td class="cell-date">{key_time(Some(key.created_at))}</td>
                            <td class="cell-date">{key_time(key.last_used_at)}</td>
                            <td class="cell-date">{key_time(key.revoked_at)}</td>
                            {(!read_only).then(|| view! {
                                <td class="cell-actions">
                                    {(!revoked).then(|| view! {
                                        <button type="button" class="btn btn-small" data-action="revoke"
                                            on:click=move |_| on_revoke.run(stored.get_value())>"Revoke"</button>
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
