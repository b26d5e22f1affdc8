//! The E-mail section: whether documents go out through an SMTP server (off: messages
//! are written to the server's outbox folder), the server's host, port, security and
//! login, and "Send test e-mail".
//!
//! The password is write-only: the field starts empty, "A password is stored" says
//! when one is, and it is sent only when something was typed.

use super::env::SettingsEnv;
use super::fields::Validate;
use super::fields::{checked_body, SectionCard, SettingsField};
use super::section::Section;
use crate::api::account::send_test_email;
use crate::components::task::Task;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use kontor_model::account::SmtpSecurity;
use leptos::prelude::*;
use serde_json::{json, Value};

/// The body the E-mail section saves: `{"smtp": null}` when SMTP is off, else the checked
/// `smtp` fields (`None` when they have errors, which then show at the fields).
pub fn email_body(section: Section, validate: Validate, smtp_on: bool) -> Option<Value> {
    if smtp_on {
        checked_body(section, validate)
    } else {
        Some(json!({ "smtp": null }))
    }
}

/// While SMTP is on, keeps the port at the usual one of the chosen security (587
/// STARTTLS, 465 TLS, 25 none) as long as it is empty or one of those; a port typed by
/// hand stays.
fn follow_security_port(section: Section, smtp_on: RwSignal<bool>) {
    let (security, port) = (section.value("smtp.security"), section.value("smtp.port"));
    Effect::new(move |_| {
        if !smtp_on.get() {
            return;
        }
        let Some(chosen) = SmtpSecurity::parse(&security.get()) else {
            return;
        };
        let usual = chosen.default_port().to_string();
        let current = port.get_untracked();
        let is_usual = ["", "587", "465", "25"].contains(&current.trim());
        if is_usual && current != usual {
            port.set(usual);
        }
    });
}

/// "Send test e-mail": an address (the account's e-mail to start with) and the button;
/// the answer shows below it and as a toast.
#[component]
fn TestEmail(
    /// The address to start with.
    to: String,
    /// True while the section has unsaved changes (the test uses the saved settings).
    dirty: Signal<bool>,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let to = RwSignal::new(to);
    let result = RwSignal::new(None::<Result<String, String>>);
    let task = Task::new();
    let send = move |_| {
        let address = to.get_untracked();
        result.set(None);
        task.run(
            async move { send_test_email(address.trim()).await },
            move |answer| match answer {
                Ok(sent) => {
                    let text = fill(t().settings_email().test_sent, &[("to", &sent.emails_to)]);
                    toasts.success(text.clone());
                    result.set(Some(Ok(text)));
                }
                Err(e) => {
                    let detail = e
                        .errors
                        .get("to")
                        .map(|m| crate::components::field::localized_joined(m, "; "));
                    let text = match detail {
                        Some(d) => fill(t().settings_email().not_sent_address, &[("detail", &d)]),
                        None => fill(t().settings_email().not_sent, &[("message", &e.message)]),
                    };
                    result.set(Some(Err(text)));
                }
            },
        );
    };
    let texts = t().settings_email();
    view! {
        <div class="settings-block test-email">
            <h3 class="settings-subtitle">{texts.test}</h3>
            <div class="test-email-row">
                <div class="field">
                    <label for="test-email-to">{texts.test_to}</label>
                    <input id="test-email-to" type="email" autocomplete="email" bind:value=to />
                </div>
                <button type="button" class="btn" id="test-email-send" on:click=send
                    disabled=move || task.pending.get() || to.with(|t| t.trim().is_empty())>
                    {move || if task.pending.get() { texts.sending } else { texts.send_test }}
                </button>
            </div>
            <p class="field-hint">
                {move || if dirty.get() { texts.test_dirty } else { texts.test_saved }}
            </p>
            {move || result.get().map(|r| match r {
                Ok(text) => view! { <p class="test-email-ok" role="status" id="test-email-result">{text}</p> }.into_any(),
                Err(text) => view! { <p class="field-error" role="alert" id="test-email-result">{text}</p> }.into_any(),
            })}
        </div>
    }
}

/// The E-mail section.
#[component]
pub fn EmailSection(
    /// The section's state (`smtp.*` fields).
    section: Section,
    /// Whether SMTP is switched on (typed).
    smtp_on: RwSignal<bool>,
    /// Whether SMTP is on as saved.
    smtp_saved: RwSignal<bool>,
    /// The account's e-mail (the test's first address).
    account_email: String,
    /// True when a password is stored.
    password_set: bool,
    /// The page's shared state.
    env: SettingsEnv,
) -> impl IntoView {
    let (validate, read_only) = (env.validate, env.read_only);
    let password_set = RwSignal::new(password_set);
    let after = Callback::new(move |account: Value| {
        let on = !account["smtp"].is_null();
        smtp_on.set(on);
        smtp_saved.set(on);
        password_set.set(account["smtp"]["password_set"].as_bool().unwrap_or(false));
    });
    let texts = t().settings_email();
    let (save, pending) = env.saver(section, t().settings_page().email_saved_as, Some(after));
    let switch_dirty = Signal::derive(move || smtp_on.get() != smtp_saved.get());
    let dirty = Signal::derive(move || switch_dirty.get() || (smtp_on.get() && section.is_dirty()));
    let check = Callback::new(move |_| email_body(section, validate, smtp_on.get_untracked()));
    follow_security_port(section, smtp_on);
    let fields = section.fields();
    view! {
        <SectionCard id="settings-email" title=texts.title section=section validate=validate
            intro=texts.intro
            on_save=save pending=pending read_only=read_only extra_dirty=switch_dirty check=check>
            <div class="field field-check">
                <label>
                    <input type="checkbox" id="f-smtp_on" prop:checked=move || smtp_on.get()
                        on:change=move |ev| smtp_on.set(event_target_checked(&ev)) />
                    {texts.smtp_on}
                </label>
                <p class="field-hint">{texts.smtp_off_hint}</p>
            </div>
            <Show when=move || smtp_on.get()>
                <div class="form-grid settings-grid settings-smtp">
                    {fields.iter().copied().map(|(spec, value)| {
                        let stored = (spec.path == "smtp.password").then(|| view! {
                            <p class="field-hint" id="smtp-password-set">
                                {move || if password_set.get() { texts.password_stored } else { texts.no_password }}
                            </p>
                        });
                        view! {
                            <div class="settings-cell">
                                <SettingsField section=section spec=spec value=value />
                                {stored}
                            </div>
                        }
                    }).collect_view()}
                </div>
            </Show>
            <TestEmail to=account_email dirty=dirty />
        </SectionCard>
    }
}
