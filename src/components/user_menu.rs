//! The user menu in the top bar (issue 12): the signed-in user's name, "Change password"
//! (a dialog; the server's reasons shown at the field), language, theme (applied at once)
//! and "Sign out" (DELETE /session, then the key is forgotten). Signed in with an API key
//! (`kind = api`), it shows the key's name and "Sign out" only.

use crate::api::client::clear_key;
use crate::api::session::{change_password, delete_session, update_me};
use crate::api::ApiError;
use crate::components::dialog::Dialog;
use crate::components::field::{error_of, Field};
use crate::components::password_rules::{check_new_password, password_hint};
use crate::components::prefs::{
    apply_language, apply_theme, display_name, stored_language, stored_theme,
};
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use kontor_model::account::Session;
use kontor_model::error::FieldErrors;
use kontor_model::users::{Theme, UpdateMe};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// Whether `session` is a person's sign-in (a session key with a user), not an API key.
pub fn is_person(session: &Session) -> bool {
    session.user.is_some() && session.kind.as_deref() != Some("api")
}

/// The label of the menu button: the user's name for a sign-in, the key's name (with
/// "read-only") for an API key.
pub fn menu_label(session: &Session) -> String {
    match session.user.as_ref().filter(|_| is_person(session)) {
        Some(user) => display_name(user),
        None => {
            let name = if session.name.is_empty() {
                t().user_menu().api_key
            } else {
                session.name.as_str()
            };
            if session.read_only {
                fill(t().user_menu().read_only_name, &[("name", name)])
            } else {
                name.to_string()
            }
        }
    }
}

/// The user menu: the button in the top bar; its panel (and the password dialog) is a
/// chunk of its own, loaded when the menu is first opened (issue 13).
#[component]
pub fn UserMenu(
    /// GET /session of the frame.
    session: LocalResource<Result<Session, ApiError>>,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let password_open = RwSignal::new(false);
    // Set (for good) by the first "Change password".
    let password_wanted = RwSignal::new(false);
    let theme = RwSignal::new(stored_theme());
    let language = RwSignal::new(stored_language());
    let current = move || session.get().and_then(Result::ok);
    let label = move || current().map(|s| menu_label(&s)).unwrap_or_default();
    // The server's stored choice wins over the browser's once the session is loaded.
    Effect::new(move |_| {
        if let Some(user) = current().filter(is_person).and_then(|s| s.user) {
            theme.set(user.theme);
            apply_theme(user.theme);
            if let Some(l) = user.language.filter(|l| l == "de" || l == "en") {
                language.set(l.clone());
                apply_language(&l);
                // Reloads when the page was shown in the other language (issue 12).
                crate::i18n::switch_language_code(&l);
            }
        }
    });
    let panel = MenuState {
        session,
        open,
        password_open,
        password_wanted,
        theme,
        language,
    };
    view! {
        <div class="user-menu" on:keydown=move |ev: web_sys::KeyboardEvent| if ev.key() == "Escape" { open.set(false) }>
            <button type="button" class="btn btn-small btn-quiet user-menu-button" id="user-menu-button"
                aria-haspopup="menu" aria-expanded=move || open.get().to_string()
                on:click=move |_| open.update(|o| *o = !*o)>
                <span class="topbar-key">{label}</span>
                <span aria-hidden="true">" ▾"</span>
            </button>
            {move || open.get().then(|| user_menu_panel(panel))}
            {move || password_wanted.get().then(|| password_dialog(password_open))}
        </div>
    }
}

/// The state the user menu's button shares with its panel.
#[derive(Clone, Copy)]
pub struct MenuState {
    /// GET /session of the frame.
    pub session: LocalResource<Result<Session, ApiError>>,
    /// Whether the panel is open.
    pub open: RwSignal<bool>,
    /// Whether the password dialog is open.
    pub password_open: RwSignal<bool>,
    /// Set by the first "Change password" (the dialog's chunk is loaded then).
    pub password_wanted: RwSignal<bool>,
    /// The theme shown as chosen.
    pub theme: RwSignal<Theme>,
    /// The language shown as chosen (`de`, `en`).
    pub language: RwSignal<String>,
}

crate::lazy::lazy_widget!(
    /// [`UserMenuPanel`] from the chunk `kontor_user_menu`, loaded on first use.
    fn user_menu_panel(state: MenuState),
    chunk = kontor_user_menu,
    fn = user_menu_panel_chunk,
    view! { <UserMenuPanel state=state /> }
);

/// The open user menu: the user's e-mail, "Change password", language, theme and "Sign
/// out" (a key's name and "Sign out" only for an API key).
#[component]
pub fn UserMenuPanel(
    /// The menu's state.
    state: MenuState,
) -> impl IntoView {
    let MenuState {
        session,
        open,
        theme,
        language,
        ..
    } = state;
    let navigate = use_navigate();
    let toasts = Toasts::use_context();
    let current = move || session.get().and_then(Result::ok);
    let person = move || current().is_some_and(|s| is_person(&s));
    let email = move || {
        current()
            .filter(is_person)
            .and_then(|s| s.user.and_then(|u| u.email))
            .unwrap_or_default()
    };
    let save_pref = move |body: UpdateMe| {
        leptos::task::spawn_local(async move {
            if let Err(e) = update_me(&body).await {
                toasts.error(fill(
                    t().user_menu().save_failed,
                    &[("message", &e.message)],
                ));
            }
        });
    };
    let choose_theme = move |t: Theme| {
        theme.set(t);
        apply_theme(t);
        save_pref(UpdateMe {
            theme: Some(t.as_str().into()),
            ..UpdateMe::default()
        });
    };
    let choose_language = move |l: &'static str| {
        let changed = crate::i18n::language().code() != l;
        language.set(l.into());
        apply_language(l);
        let body = UpdateMe {
            language: Some(l.into()),
            ..UpdateMe::default()
        };
        leptos::task::spawn_local(async move {
            if let Err(e) = update_me(&body).await {
                toasts.error(fill(
                    t().user_menu().save_failed,
                    &[("message", &e.message)],
                ));
            }
            // Every text, date and amount follows the new language (issue 12).
            if changed {
                let _ = window().location().reload();
            }
        });
    };
    let sign_out = move |_| {
        open.set(false);
        let navigate = navigate.clone();
        leptos::task::spawn_local(async move {
            // The key is forgotten even when the server cannot be reached.
            let _ = delete_session().await;
            clear_key();
            // Unsaved form states stay on no shared computer (issue 37).
            crate::components::local_draft_store::wipe_all();
            navigate("/sign-in", Default::default());
        });
    };
    let theme_button = move |t: Theme, text: &'static str| {
        view! {
            <button type="button" role="menuitemradio" class="user-menu-choice"
                id=format!("theme-{}", t.as_str())
                aria-checked=move || (theme.get() == t).to_string()
                on:click=move |_| choose_theme(t)>{text}</button>
        }
    };
    let language_button = move |l: &'static str, text: &'static str| {
        view! {
            <button type="button" role="menuitemradio" class="user-menu-choice"
                id=format!("language-{l}")
                aria-checked=move || (language.get() == l).to_string()
                on:click=move |_| choose_language(l)>{text}</button>
        }
    };
    view! {
        <div class="user-menu-backdrop" on:click=move |_| open.set(false)></div>
        <div class="user-menu-panel" role="menu" aria-label=t().user_menu().menu>
            <Show when=person fallback=|| view! { <p class="user-menu-note muted">{t().user_menu().signed_in_with_key}</p> }>
                <p class="user-menu-note muted">{email}</p>
                <button type="button" role="menuitem" id="change-password" on:click=move |_| { open.set(false); state.password_wanted.set(true); state.password_open.set(true); }>
                    {t().user_menu().change_password_item}
                </button>
                <div class="user-menu-group" role="group" aria-label=t().user_menu().language>
                    <span class="user-menu-heading">{t().user_menu().language}</span>
                    {language_button("en", "English")}
                    {language_button("de", "Deutsch")}
                </div>
                <div class="user-menu-group" role="group" aria-label=t().user_menu().theme>
                    <span class="user-menu-heading">{t().user_menu().theme}</span>
                    {theme_button(Theme::System, t().user_menu().theme_system)}
                    {theme_button(Theme::Light, t().user_menu().theme_light)}
                    {theme_button(Theme::Dark, t().user_menu().theme_dark)}
                </div>
            </Show>
            <button type="button" role="menuitem" id="sign-out" on:click=sign_out.clone()>{t().user_menu().sign_out}</button>
        </div>
    }
}

crate::lazy::lazy_widget!(
    /// [`PasswordDialog`] from the chunk `kontor_user_menu`, loaded on first use.
    fn password_dialog(open: RwSignal<bool>),
    chunk = kontor_user_menu,
    fn = password_dialog_chunk,
    view! { <PasswordDialog open=open /> }
);

/// The "Change password" dialog: current password, new password and its repetition; the
/// length rule is checked here, the strength and the current password by the server, whose
/// reasons are shown at the fields.
#[component]
pub fn PasswordDialog(
    /// Open state.
    open: RwSignal<bool>,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let current = RwSignal::new(String::new());
    let password = RwSignal::new(String::new());
    let repeat = RwSignal::new(String::new());
    let errors = RwSignal::new(FieldErrors::new());
    let general = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        if open.get() {
            current.set(String::new());
            password.set(String::new());
            repeat.set(String::new());
            errors.set(FieldErrors::new());
            general.set(None);
        }
    });
    let save = Action::new_local(move |(c, p): &(String, String)| {
        let (c, p) = (c.clone(), p.clone());
        async move { change_password(&c, &p).await }
    });
    let pending = save.pending();
    Effect::new(move |_| match save.value().get() {
        Some(Ok(())) => {
            open.set(false);
            toasts.success(t().user_menu().password_changed);
        }
        Some(Err(e)) => {
            if e.errors.is_empty() {
                general.set(Some(e.message));
            } else {
                errors.set(e.errors);
            }
        }
        None => {}
    });
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let (c, p, r) = (
            current.get_untracked(),
            password.get_untracked(),
            repeat.get_untracked(),
        );
        let mut local = FieldErrors::new();
        if c.is_empty() {
            local.insert(
                "current_password".into(),
                vec![kontor_model::error::Message::verbatim(
                    t().people_common().required,
                )],
            );
        }
        check_new_password(&mut local, &p, &r, t().user_menu().mismatch);
        errors.set(local.clone());
        general.set(None);
        if local.is_empty() {
            save.dispatch_local((c, p));
        }
    };
    let hint = password_hint();
    view! {
        <Dialog open=open title=t().user_menu().change_password>
            <form class="dialog-form" id="password-form" on:submit=on_submit novalidate>
                {move || general.get().map(|e| view! { <p class="form-summary" role="alert">{e}</p> })}
                <Field id="current-password" label=t().user_menu().current_password required=true error=error_of(errors, "current_password")>
                    <input id="current-password" type="password" autocomplete="current-password" autofocus=true bind:value=current />
                </Field>
                <Field id="new-password" label=t().user_menu().new_password required=true hint=hint.clone() error=error_of(errors, "password")>
                    <input id="new-password" type="password" autocomplete="new-password" bind:value=password />
                </Field>
                <Field id="repeat-password" label=t().user_menu().repeat required=true error=error_of(errors, "repeat")>
                    <input id="repeat-password" type="password" autocomplete="new-password" bind:value=repeat />
                </Field>
                <div class="dialog-actions">
                    <button type="button" class="btn" on:click=move |_| open.set(false)>{t().common().cancel}</button>
                    <button type="submit" class="btn btn-primary" id="password-save" disabled=move || pending.get()>
                        {move || if pending.get() { t().user_menu().saving } else { t().user_menu().change_password }}
                    </button>
                </div>
            </form>
        </Dialog>
    }
}
