//! The Documents section: the logo (stored at once when dropped or chosen, with a preview
//! and "Remove"), the letter papers, the default salutation and footer texts per
//! language, and the number formats with a live example each. Save sends the texts and
//! formats.

use super::env::{account_json, SettingsEnv};
use super::field_spec::input_id;
use super::fields::{SectionCard, SettingsField};
use super::rules::{message_text, number_example};
use super::section::Section;
use crate::api::account::{delete_account_logo, store_account_logo};
use crate::components::confirm_dialog::ConfirmDialog;
use crate::components::date::today;
use crate::components::drop_zone::DropZone;
use crate::components::field::field_message;
use crate::components::task::Task;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use kontor_model::number_format::{NumberFormat, Period};
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use serde_json::Value;

/// Logo types the server takes.
const LOGO_TYPES: &str = "image/png,image/svg+xml";
/// Largest logo the server takes (1 MiB).
const LOGO_MAX_BYTES: f64 = 1024.0 * 1024.0;

/// The logo as `GET /account` has it: `(content_type, file_url)`.
fn logo_of(account: &Value) -> Option<(String, String)> {
    let logo = account.get("logo")?;
    Some((
        logo.get("content_type")?.as_str()?.to_string(),
        logo.get("file_url")?.as_str()?.to_string(),
    ))
}

/// A message when `file` is obviously not a logo the server takes (type or size).
pub fn check_logo(file: &web_sys::File) -> Option<String> {
    if file.size() > LOGO_MAX_BYTES {
        return Some(t().settings_documents().logo_too_large.into());
    }
    let kind = file.type_();
    (!kind.is_empty() && !LOGO_TYPES.split(',').any(|a| a == kind))
        .then(|| t().settings_documents().logo_wrong_type.into())
}

/// The example under a number format field, from the model's pattern rules.
pub fn example_text(pattern: &str) -> String {
    let texts = t().settings_documents();
    let template = match NumberFormat::parse(pattern.trim()).map(|f| f.period()) {
        Ok(Period::Month) => texts.example_month,
        Ok(Period::Year) => texts.example_year,
        _ => texts.example_never,
    };
    match number_example(pattern, today()) {
        Ok(number) => fill(template, &[("number", &number)]),
        Err(message) => fill(
            texts.no_example,
            &[(
                "message",
                &message_text(&kontor_model::error::Message::verbatim(message)),
            )],
        ),
    }
}

/// The logo: preview, drop zone and "Remove".
#[component]
fn LogoPanel(
    /// The logo as loaded.
    initial: Option<(String, String)>,
    /// True for a read-only key.
    read_only: Signal<bool>,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let logo = RwSignal::new(initial);
    let error = RwSignal::new(None::<String>);
    let progress = RwSignal::new(0u8);
    let upload = Task::new();
    let remove = Task::new();
    let confirm = RwSignal::new(false);
    let on_file = Callback::new(move |file: SendWrapper<web_sys::File>| {
        if read_only.get_untracked() {
            return;
        }
        error.set(check_logo(&file));
        if error.get_untracked().is_some() {
            return;
        }
        upload.run(
            async move { store_account_logo(&file, progress).await },
            move |answer| match answer {
                Ok(account) => {
                    logo.set(logo_of(&account_json(&account)));
                    toasts.success(t().settings_documents().logo_stored);
                }
                Err(e) => error.set(Some(field_message(&e.errors, "file").unwrap_or(e.message))),
            },
        );
    });
    let on_remove = Callback::new(move |_| {
        remove.run(delete_account_logo(), move |answer| {
            confirm.set(false);
            match answer {
                Ok(()) => {
                    logo.set(None);
                    toasts.success(t().settings_documents().logo_removed);
                }
                Err(e) => toasts.error(fill(
                    t().settings_documents().logo_not_removed,
                    &[("message", &e.message)],
                )),
            }
        })
    });
    let texts = t().settings_documents();
    view! {
        <div class="settings-block" id="settings-logo">
            <h3 class="settings-subtitle">{texts.logo}</h3>
            <div class="logo-row">
                <div class="logo-preview">
                    {move || match logo.get() {
                        Some((kind, url)) => view! {
                            <img id="logo-image" src=url alt=texts.logo_alt data-type=kind />
                        }.into_any(),
                        None => view! { <p class="muted" id="logo-none">{texts.no_logo}</p> }.into_any(),
                    }}
                </div>
                <div class="logo-actions">
                    <DropZone id="logo-file" label=texts.logo_drop
                        on_file=on_file busy=upload.pending progress=progress accept=LOGO_TYPES />
                    <Show when=move || logo.with(Option::is_some)>
                        <button type="button" class="btn btn-small" id="logo-remove"
                            disabled=move || remove.pending.get() || read_only.get()
                            on:click=move |_| confirm.set(true)>{texts.remove_logo}</button>
                    </Show>
                    <p class="field-error" role="alert" id="logo-error">{move || error.get()}</p>
                </div>
            </div>
            <ConfirmDialog open=confirm title=texts.remove_title.to_string()
                text=texts.remove_text.to_string()
                confirm_label=texts.remove_logo pending=remove.pending confirm_id="logo-remove-confirm"
                on_confirm=on_remove />
        </div>
    }
}

/// The configured letter papers (set in the account file; shown here).
#[component]
fn LetterPapers(
    /// The account as loaded.
    account: Value,
) -> impl IntoView {
    let papers: Vec<(String, bool)> = account["letter_papers"]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|p| {
                    (
                        p["name"].as_str().unwrap_or_default().to_string(),
                        p["default"].as_bool().unwrap_or(false),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let texts = t().settings_documents();
    view! {
        <div class="settings-block" id="settings-papers">
            <h3 class="settings-subtitle">{texts.letter_papers}</h3>
            <ul class="paper-list">
                {papers.into_iter().map(|(name, default)| view! {
                    <li>{crate::components::paper_select::paper_name(&name)}{default.then(|| view! { <span class="tag">{texts.default_paper}</span> })}</li>
                }).collect_view()}
            </ul>
            <p class="field-hint">{texts.papers_hint}</p>
        </div>
    }
}

/// The default texts of one language.
#[component]
fn LanguageTexts(
    /// The section.
    section: Section,
    /// `de` or `en`.
    lang: &'static str,
    /// The column's heading.
    heading: &'static str,
) -> impl IntoView {
    let prefix = format!("document_texts.{lang}.");
    view! {
        <div class="settings-texts-column" lang=lang>
            <h4 class="settings-lang">{heading}</h4>
            {section
                .fields()
                .into_iter()
                .filter(|(spec, _)| spec.path.starts_with(&prefix))
                .map(|(spec, value)| view! { <SettingsField section=section spec=spec value=value /> })
                .collect_view()}
        </div>
    }
}

/// The three number formats, each with its live example.
#[component]
pub fn NumberFormats(
    /// The Documents section.
    section: Section,
) -> impl IntoView {
    view! {
        <div class="form-grid settings-formats">
            {section
                .fields()
                .into_iter()
                .filter(|(spec, _)| spec.path.ends_with("_number_format"))
                .map(|(spec, value)| {
                    let example_id = format!("{}-example", input_id(spec.path));
                    view! {
                        <div class="number-format">
                            <SettingsField section=section spec=spec value=value />
                            <p class="number-example" id=example_id aria-live="polite">
                                {move || example_text(&value.get())}
                            </p>
                        </div>
                    }
                })
                .collect_view()}
        </div>
    }
}

/// The Documents section.
#[component]
pub fn DocumentsSection(
    /// The section's state (texts and number formats).
    section: Section,
    /// The account as loaded (logo, letter papers).
    account: Value,
    /// The page's shared state.
    env: SettingsEnv,
) -> impl IntoView {
    let texts = t().settings_documents();
    let (save, pending) = env.saver(section, t().settings_page().documents_saved_as, None);
    let read_only = env.read_only;
    view! {
        <SectionCard id="settings-documents" title=texts.title section=section validate=env.validate
            intro=texts.intro
            on_save=save pending=pending read_only=read_only>
            <LogoPanel initial=logo_of(&account) read_only=read_only />
            <LetterPapers account=account />
            <div class="settings-block">
                <h3 class="settings-subtitle">{texts.default_texts}</h3>
                <p class="field-hint">{texts.texts_hint}</p>
                <div class="settings-texts">
                    <LanguageTexts section=section lang="de" heading=texts.german />
                    <LanguageTexts section=section lang="en" heading=texts.english />
                </div>
            </div>
            <div class="settings-block">
                <h3 class="settings-subtitle">{texts.number_formats}</h3>
                <p class="field-hint">{texts.formats_hint}</p>
                <NumberFormats section=section />
            </div>
        </SectionCard>
    }
}
