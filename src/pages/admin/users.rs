//! The Users page (admin, issue 12): every user with name, e-mail, role and whether
//! active; invite (a dialog → the one-time link with a Copy button, and whether it was
//! e-mailed), change role, deactivate (asks first) / reactivate, and a new invitation link.

use super::{admin_state, AdminOnly};
use crate::api::users::{create_user, list_users, new_invitation, update_user};
use crate::api::ApiError;
use crate::components::confirm_dialog::ConfirmDialog;
use crate::components::copy_field::CopyField;
use crate::components::date::format_date;
use crate::components::dialog::Dialog;
use crate::components::error_panel::ErrorPanel;
use crate::components::field::{blank_required, error_of, Field};
use crate::components::prefs::display_name;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use kontor_model::error::FieldErrors;
use kontor_model::users::{Invitation, Role, UpdateUser};
use kontor_model::users::{NewUser, User};
use leptos::prelude::*;

/// The role as the page says it.
pub fn role_label(role: Role) -> &'static str {
    match role {
        Role::Admin => t().people_users().role_admin,
        Role::Staff => t().people_users().role_staff,
        Role::ReadOnly => t().people_users().role_read_only,
    }
}

const ROLES: [Role; 3] = [Role::Admin, Role::Staff, Role::ReadOnly];

/// The Users page.
#[component]
pub fn UsersPage() -> impl IntoView {
    let admin = admin_state();
    view! {
        <div class="page-head">
            <h1>{t().nav().users}</h1>
        </div>
        {move || match admin.get() {
            Some(true) => view! { <UsersAdmin /> }.into_any(),
            Some(false) => view! { <AdminOnly /> }.into_any(),
            None => view! { <p class="muted">{t().common().loading}</p> }.into_any(),
        }}
    }
}

#[component]
fn UsersAdmin() -> impl IntoView {
    let toasts = Toasts::use_context();
    let users = LocalResource::new(list_users);
    let invite_open = RwSignal::new(false);
    let link = RwSignal::new(None::<(String, Invitation)>);
    let link_open = RwSignal::new(false);
    let confirm = RwSignal::new(false);
    let to_deactivate = RwSignal::new(None::<User>);
    let report = move |r: Result<User, ApiError>, done: String| match r {
        Ok(_) => {
            toasts.success(done);
            users.refetch();
        }
        Err(e) => toasts.error(
            e.errors
                .values()
                .flatten()
                .next()
                .map(crate::components::field::localized_message)
                .unwrap_or(e.message),
        ),
    };
    let on_role = Callback::new(move |(id, role): (i64, Role)| {
        leptos::task::spawn_local(async move {
            let r = update_user(
                id,
                &UpdateUser {
                    role: Some(role.as_str().into()),
                    ..UpdateUser::default()
                },
            )
            .await;
            report(
                r,
                fill(t().people_users().role_now, &[("role", role_label(role))]),
            );
        });
    });
    let set_active = move |id: i64, active: bool| {
        leptos::task::spawn_local(async move {
            let r = update_user(
                id,
                &UpdateUser {
                    active: Some(active),
                    ..UpdateUser::default()
                },
            )
            .await;
            report(
                r,
                if active {
                    t().people_users().reactivated.into()
                } else {
                    t().people_users().deactivated_done.into()
                },
            );
        });
    };
    let on_active = Callback::new(move |(user, active): (User, bool)| {
        if active {
            set_active(user.id, true);
        } else {
            to_deactivate.set(Some(user));
            confirm.set(true);
        }
    });
    let on_link = Callback::new(move |user: User| {
        leptos::task::spawn_local(async move {
            match new_invitation(user.id).await {
                Ok(inv) => {
                    link.set(Some((display_name(&user), inv)));
                    link_open.set(true);
                }
                Err(e) => toasts.error(e.message),
            }
        });
    });
    let on_invited = Callback::new(move |(user, inv): (User, Invitation)| {
        invite_open.set(false);
        users.refetch();
        link.set(Some((display_name(&user), inv)));
        link_open.set(true);
    });
    let list = Signal::derive(move || {
        users
            .get()
            .and_then(Result::ok)
            .map(|p| p.items)
            .unwrap_or_default()
    });
    view! {
        <div class="people-actions">
            <button type="button" class="btn btn-primary" id="invite-user" on:click=move |_| invite_open.set(true)>
                {t().people_users().invite_user}
            </button>
        </div>
        {move || match users.get() {
            None => view! { <p class="muted">{t().people_users().loading}</p> }.into_any(),
            Some(Err(e)) => view! { <ErrorPanel error=e on_retry=Callback::new(move |_| users.refetch()) /> }.into_any(),
            Some(Ok(_)) => view! {
                <UsersTable users=list read_only=false on_role=on_role on_active=on_active on_link=on_link />
            }.into_any(),
        }}
        <InviteDialog open=invite_open on_invited=on_invited />
        <Dialog open=link_open title=Signal::derive(move || link.get().map(|(n, _)| fill(t().people_users().invitation_for, &[("name", &n)])).unwrap_or_default())>
            {move || link.get().map(|(_, inv)| view! { <InvitationLink invitation=inv /> })}
            <div class="dialog-actions">
                <button type="button" class="btn btn-primary" on:click=move |_| link_open.set(false)>{t().people_common().done}</button>
            </div>
        </Dialog>
        <ConfirmDialog
            open=confirm
            title=Signal::derive(move || to_deactivate.get().map(|u| fill(t().people_users().deactivate_title, &[("name", &display_name(&u))])).unwrap_or_default())
            text=t().people_users().deactivate_text
            confirm_label=t().people_users().deactivate
            confirm_id="confirm-deactivate"
            on_confirm=Callback::new(move |_| {
                confirm.set(false);
                if let Some(u) = to_deactivate.get_untracked() {
                    set_active(u.id, false);
                }
            })
        />
    }
}

/// The one-time link with a Copy button, and whether it was e-mailed.
#[component]
pub fn InvitationLink(
    /// The invitation answered by the server.
    invitation: Invitation,
) -> impl IntoView {
    let expires = fill(
        t().people_users().link_expires,
        &[
            ("date", &format_date(invitation.expires_at.date_naive())),
            ("time", &invitation.expires_at.format("%H:%M").to_string()),
        ],
    );
    view! {
        <p id="invitation-emailed">
            {if invitation.emailed {
                t().people_users().emailed
            } else {
                t().people_users().not_emailed
            }}
        </p>
        <CopyField id="invitation-url" label=t().people_users().password_link value=invitation.url.clone() />
        <p class="muted">{expires}</p>
    }
}

/// The users table: name, e-mail, role, active, and (unless `read_only`) a role choice,
/// Deactivate/Reactivate and "New link" per user.
#[component]
pub fn UsersTable(
    /// The users.
    #[prop(into)]
    users: Signal<Vec<User>>,
    /// Hides every write control.
    read_only: bool,
    /// A new role was chosen for a user (id, role).
    on_role: Callback<(i64, Role)>,
    /// Deactivate (`false`) or reactivate (`true`) a user.
    on_active: Callback<(User, bool)>,
    /// A new invitation link for a user.
    on_link: Callback<User>,
) -> impl IntoView {
    view! {
        <table class="table table-users">
            <thead>
                <tr>
                    <th scope="col">{t().people_common().name}</th>
                    <th scope="col">{t().people_users().email}</th>
                    <th scope="col">{t().people_users().role}</th>
                    <th scope="col">{t().common().status}</th>
                    {(!read_only).then(|| view! { <th scope="col"><span class="visually-hidden">{t().people_common().actions}</span></th> })}
                </tr>
            </thead>
            <tbody>
                <For each=move || users.get() key=|u| (u.id, u.role, u.active, u.updated_at) let:user>
                    {
                        let id = user.id;
                        let name = display_name(&user);
                        let role = user.role;
                        let active = user.active;
                        let row_user = StoredValue::new(user.clone());
                        view! {
                            <tr data-user=id class=if active { "" } else { "row-inactive" }>
                                <td class="cell-name">{name.clone()}</td>
                                <td>{user.email.clone().unwrap_or_default()}</td>
                                <td>
                                    {if read_only {
                                        view! { <span>{role_label(role)}</span> }.into_any()
                                    } else {
                                        view! {
                                            <select class="role-select" aria-label=fill(t().people_users().role_of, &[("name", &name)])
                                                on:change=move |ev| {
                                                    if let Some(r) = Role::parse(&event_target_value(&ev)) {
                                                        if r != role { on_role.run((id, r)); }
                                                    }
                                                }>
                                                {ROLES.iter().map(|r| view! {
                                                    <option value=r.as_str() selected=*r == role>{role_label(*r)}</option>
                                                }).collect_view()}
                                            </select>
                                        }.into_any()
                                    }}
                                </td>
                                <td>
                                    {if active {
                                        view! { <span class="badge badge-paid">{t().people_users().active}</span> }
                                    } else {
                                        view! { <span class="badge badge-archived">{t().people_users().deactivated}</span> }
                                    }}
                                </td>
                                {(!read_only).then(|| view! {
                                    <td class="cell-actions">
                                        {if active {
                                            view! {
                                                <button type="button" class="btn btn-small" data-action="deactivate"
                                                    on:click=move |_| on_active.run((row_user.get_value(), false))>{t().people_users().deactivate}</button>
                                            }
                                        } else {
                                            view! {
                                                <button type="button" class="btn btn-small" data-action="reactivate"
                                                    on:click=move |_| on_active.run((row_user.get_value(), true))>{t().people_users().reactivate}</button>
                                            }
                                        }}
                                        <button type="button" class="btn btn-small btn-quiet" data-action="link"
                                            on:click=move |_| on_link.run(row_user.get_value())>{t().people_users().new_link}</button>
                                    </td>
                                })}
                            </tr>
                        }
                    }
                </For>
            </tbody>
        </table>
    }
}

/// The invite dialog: e-mail, first and last name, role → POST /users; the server's
/// field messages (e.g. a taken e-mail) at the fields.
#[component]
pub fn InviteDialog(
    /// Open state.
    open: RwSignal<bool>,
    /// The user was created; their invitation.
    on_invited: Callback<(User, Invitation)>,
) -> impl IntoView {
    let email = RwSignal::new(String::new());
    let firstname = RwSignal::new(String::new());
    let lastname = RwSignal::new(String::new());
    let role = RwSignal::new(Role::Staff);
    let errors = RwSignal::new(FieldErrors::new());
    Effect::new(move |_| {
        if open.get() {
            email.set(String::new());
            firstname.set(String::new());
            lastname.set(String::new());
            role.set(Role::Staff);
            errors.set(FieldErrors::new());
        }
    });
    let save = Action::new_local(move |body: &NewUser| {
        let body = body.clone();
        async move { create_user(&body).await }
    });
    let pending = save.pending();
    Effect::new(move |_| match save.value().get() {
        Some(Ok(invited)) => on_invited.run((invited.user, invited.invitation)),
        Some(Err(e)) => {
            let mut shown = e.errors.clone();
            if shown.is_empty() {
                shown.insert(
                    "general".into(),
                    vec![kontor_model::error::Message::verbatim(e.message)],
                );
            }
            errors.set(shown);
        }
        None => {}
    });
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let local = blank_required(&[
            ("email", email),
            ("firstname", firstname),
            ("lastname", lastname),
        ]);
        errors.set(local.clone());
        if local.is_empty() {
            save.dispatch_local(NewUser {
                email: Some(email.get_untracked().trim().to_string()),
                firstname: Some(firstname.get_untracked().trim().to_string()),
                lastname: Some(lastname.get_untracked().trim().to_string()),
                role: Some(role.get_untracked().as_str().to_string()),
            });
        }
    };
    let general = error_of(errors, "general");
    view! {
        <Dialog open=open title=t().people_users().invite_user>
            <form class="dialog-form" id="invite-form" on:submit=on_submit novalidate>
                {move || general.get().map(|e| view! { <p class="form-summary" role="alert">{e}</p> })}
                <Field id="invite-email" label=t().people_users().email required=true error=error_of(errors, "email")>
                    <input id="invite-email" type="email" autofocus=true bind:value=email />
                </Field>
                <Field id="invite-firstname" label=t().people_users().first_name required=true error=error_of(errors, "firstname")>
                    <input id="invite-firstname" type="text" bind:value=firstname />
                </Field>
                <Field id="invite-lastname" label=t().people_users().last_name required=true error=error_of(errors, "lastname")>
                    <input id="invite-lastname" type="text" bind:value=lastname />
                </Field>
                <Field id="invite-role" label=t().people_users().role required=true error=error_of(errors, "role")
                    hint=t().people_users().role_hint>
                    <select id="invite-role" on:change=move |ev| {
                        if let Some(r) = Role::parse(&event_target_value(&ev)) { role.set(r) }
                    }>
                        {ROLES.iter().map(|r| view! {
                            <option value=r.as_str() selected=move || role.get() == *r>{role_label(*r)}</option>
                        }).collect_view()}
                    </select>
                </Field>
                <div class="dialog-actions">
                    <button type="button" class="btn" on:click=move |_| open.set(false)>{t().common().cancel}</button>
                    <button type="submit" class="btn btn-primary" id="invite-save" disabled=move || pending.get()>
                        {move || if pending.get() { t().people_users().inviting } else { t().people_users().invite }}
                    </button>
                </div>
            </form>
        </Dialog>
    }
}
