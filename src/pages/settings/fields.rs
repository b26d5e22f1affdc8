//! The building blocks of every Settings section: one input per [`FieldSpec`] (label
//! above, error below, `aria-invalid`), and the section card with its title, the fields,
//! "Unsaved changes" and its own Save button.
//!
//! Saving checks the section first ([`Section::body`] for what cannot be read, then the
//! section's shared validation from the model); with errors nothing is sent and they show
//! at the fields. Otherwise `on_save` gets the section's body (the page sends it).

use super::field_spec::{FieldSpec, Input};
use super::rules::message_text;
use super::section::Section;
use super::specs::label_of;
use crate::components::field::Field;
use crate::i18n::{fill, language, t, Lang};
use kontor_model::error::FieldErrors;
use leptos::prelude::*;
use serde_json::Value;

/// Checks a section's body with the shared model rules (the paths of the errors are the
/// wire paths).
pub type Validate = Callback<Value, FieldErrors>;

/// The input of one field.
#[component]
pub fn SettingsField(
    /// The section the field belongs to.
    section: Section,
    /// The field.
    spec: FieldSpec,
    /// Its text.
    value: RwSignal<String>,
) -> impl IntoView {
    let id = spec.id();
    let path = spec.path;
    let error = section.error_of(path);
    let invalid = move || error.with(Option::is_some).then_some("true");
    let described = format!("{id}-error");
    let on_input = move |ev: leptos::ev::Event| {
        value.set(event_target_value(&ev));
        section.clear_error(path);
    };
    let input = match spec.input {
        Input::Multiline => view! {
            <textarea id=id.clone() rows="3" prop:value=move || value.get() on:input=on_input
                aria-invalid=invalid aria-describedby=described.clone()></textarea>
        }
        .into_any(),
        Input::Choice(choices) => {
            let blank = (!spec.required()).then(|| view! { <option value="">"—"</option> });
            view! {
                <select id=id.clone() prop:value=move || value.get() on:change=on_input
                    aria-invalid=invalid aria-describedby=described.clone()>
                    {blank}
                    {choices.options().into_iter().map(|(v, label)| view! {
                        <option value=v selected=move || value.get() == v>{label}</option>
                    }).collect_view()}
                </select>
            }
            .into_any()
        }
        Input::OneOf(source) => {
            // The codes typed in the source field, and the current value even when it is
            // no longer among them (the validation then says so at this field).
            let options = Signal::derive(move || {
                let mut codes = super::field_spec::codes(&section.value(source).get());
                let current = value.get();
                if !current.is_empty() && !codes.contains(&current) {
                    codes.push(current);
                }
                codes
            });
            view! {
                <select id=id.clone() prop:value=move || value.get() on:change=on_input
                    aria-invalid=invalid aria-describedby=described.clone()>
                    {move || options.get().into_iter().map(|code| {
                        let selected = value.get() == code;
                        view! { <option value=code.clone() selected=selected>{code.clone()}</option> }
                    }).collect_view()}
                </select>
            }
            .into_any()
        }
        Input::Switch => view! {
            <span class="settings-switch">
                <input id=id.clone() type="checkbox" role="switch"
                    prop:checked=move || value.get() == "true"
                    on:change=move |ev| {
                        value.set(event_target_checked(&ev).to_string());
                        section.clear_error(path);
                    }
                    aria-invalid=invalid aria-describedby=described.clone() />
                <span aria-hidden="true">{move || if value.get() == "true" { t().settings_form().on } else { t().settings_form().off }}</span>
            </span>
        }
        .into_any(),
        other => {
            let (kind, mode, class) = match other {
                Input::Email => ("email", "email", ""),
                Input::Url => ("url", "url", ""),
                Input::Number => ("text", "decimal", "input-number"),
                Input::Password => ("password", "text", ""),
                _ => ("text", "text", ""),
            };
            let autocomplete = if other == Input::Password {
                "new-password"
            } else {
                "off"
            };
            view! {
                <input id=id.clone() type=kind inputmode=mode class=class autocomplete=autocomplete
                    prop:value=move || value.get() on:input=on_input
                    aria-invalid=invalid aria-describedby=described.clone() />
            }
            .into_any()
        }
    };
    let class = if spec.wide { "field-wide" } else { "" };
    view! {
        <Field id=id label=spec.label_text() required=spec.required() hint=spec.hint_text().to_string() error=error class=class>
            {input}
        </Field>
    }
}

/// The inputs of `section` in a grid (all its fields, in order).
#[component]
pub fn FieldGrid(
    /// The section.
    section: Section,
    /// Only the fields whose path starts with this ("" for all).
    #[prop(optional)]
    prefix: &'static str,
) -> impl IntoView {
    view! {
        <div class="form-grid settings-grid">
            {section
                .fields()
                .into_iter()
                .filter(|(spec, _)| spec.path.starts_with(prefix))
                .map(|(spec, value)| view! { <SettingsField section=section spec=spec value=value /> })
                .collect_view()}
        </div>
    }
}

/// Checks `section` and answers its body when nothing is wrong; otherwise shows the
/// errors at the fields and answers `None`.
pub fn checked_body(section: Section, validate: Validate) -> Option<Value> {
    let (body, mut errors) = section.body();
    for (path, messages) in validate.run(body.clone()) {
        errors.entry(path).or_insert(messages);
    }
    if errors.is_empty() {
        section.errors.set(FieldErrors::new());
        Some(body)
    } else {
        section.errors.set(errors);
        None
    }
}

/// One line of a section's problem for a field the section does not show: the model's
/// English line (`kontor_model::error::labels`), in German the field's label from the
/// specs with the message in German.
fn summary_line(path: &str, messages: &[kontor_model::error::Message]) -> String {
    use kontor_model::error::labels::{field_label, summary_line, Form};
    if language() != Lang::De {
        return summary_line(Form::Settings, path, messages);
    }
    let message = messages
        .iter()
        .map(message_text)
        .collect::<Vec<_>>()
        .join("; ");
    if path.is_empty() {
        return message;
    }
    let label = label_of(path)
        .map(str::to_string)
        .unwrap_or_else(|| field_label(Form::Settings, path));
    fill(
        t().settings_form().summary_line,
        &[("label", &label), ("message", &message)],
    )
}

/// Moves the focus to the first marked field of the card `id` (after the errors render).
fn focus_first_invalid(id: &'static str) {
    request_animation_frame(move || {
        let selector = format!("#{id} [aria-invalid=\"true\"]");
        if let Some(el) = document()
            .query_selector(&selector)
            .ok()
            .flatten()
            .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
        {
            let _ = el.focus();
        }
    });
}

/// A section of the Settings page: a titled card with the fields (`children`), its
/// problems, "Unsaved changes" and Save. The whole card is disabled for a read-only key.
#[component]
pub fn SectionCard(
    /// The id of the card (`settings-company`…); the title is `<id>-title`.
    id: &'static str,
    /// The title.
    title: &'static str,
    /// One sentence under the title (what the section is used for).
    #[prop(optional)]
    intro: &'static str,
    /// The section's state.
    section: Section,
    /// The shared validation of the section's body.
    validate: Validate,
    /// Sends the checked body (the page's PUT /account).
    on_save: Callback<Value>,
    /// True while the section is being saved.
    #[prop(into)]
    pending: Signal<bool>,
    /// True for a read-only key: nothing can be changed.
    #[prop(into)]
    read_only: Signal<bool>,
    /// Extra dirtiness the fields do not show (the SMTP switch).
    #[prop(optional, into)]
    extra_dirty: Signal<bool>,
    /// Builds and checks the body instead of [`checked_body`] (the E-mail section's
    /// switch); `None` when something is wrong.
    #[prop(optional)]
    check: Option<Callback<(), Option<Value>>>,
    /// The fields.
    children: Children,
) -> impl IntoView {
    let dirty = Signal::derive(move || section.is_dirty() || extra_dirty.get());
    // Errors of fields the section shows are marked there; others (a 422 about
    // something else) are spelled out.
    let problem = move || {
        section.errors.with(|e| {
            if e.is_empty() {
                return None;
            }
            let mut text = String::new();
            if e.keys().any(|p| section.has_field(p)) {
                text.push_str(t().settings_form().correct_marked);
            }
            for (path, messages) in e.iter().filter(|(p, _)| !section.has_field(p)) {
                let line = summary_line(path, messages);
                text.push(' ');
                text.push_str(&line);
            }
            Some(text.trim().to_string())
        })
    };
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let body = match check {
            Some(check) => check.run(()),
            None => checked_body(section, validate),
        };
        match body {
            Some(body) => on_save.run(body),
            None => focus_first_invalid(id),
        }
    };
    let title_id = format!("{id}-title");
    let labelled_by = title_id.clone();
    view! {
        <form class="form-section settings-section" id=id aria-labelledby=labelled_by novalidate on:submit=save>
            <fieldset class="settings-fieldset" disabled=move || read_only.get()>
                <div class="settings-head">
                    <h2 class="section-title" id=title_id>{title}</h2>
                    <span class="settings-dirty" class:is-shown=move || dirty.get()>
                        {move || dirty.get().then_some(t().settings_form().unsaved)}
                    </span>
                    <button type="submit" class="btn btn-primary" id=format!("{id}-save") aria-label=fill(t().settings_form().save_section, &[("title", title)])
                        disabled=move || pending.get() || read_only.get()>
                        {move || if pending.get() { t().settings_form().saving } else { t().common().save }}
                    </button>
                </div>
                {(!intro.is_empty()).then(|| view! { <p class="muted settings-intro">{intro}</p> })}
                <p class="field-error settings-problem" role="alert">{problem}</p>
                {children()}
            </fieldset>
        </form>
    }
}
