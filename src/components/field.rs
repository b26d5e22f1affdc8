//! Form fields: the label above the input, a required mark, a hint and the field's errors
//! next to it (from validation or a 422).

use crate::components::locale::{parse_typed, typed_value};
use crate::i18n::{t, Lang};
use kontor_model::error::{push_error, FieldErrors, Message};
use leptos::prelude::*;
use rust_decimal::Decimal;

/// A field message in the current language: the shared model's rules and the server's
/// 422s carry their message codes (`kontor_model::error::messages`), which render in
/// German or English; a text without a code (the app's own, already in the current
/// language, or outside words) stays as it is.
pub fn localized_message(message: &Message) -> String {
    match crate::i18n::language() {
        Lang::De => message.german(),
        Lang::En => message.english().to_string(),
    }
}

/// A sentence the server answered without its code (a 502's message, a stored failure
/// reason) in the current language when the catalogue has it (`Message::from_english`),
/// else as it is.
pub fn localized_sentence(text: &str) -> String {
    localized_message(&Message::from_english(text))
}

/// `messages` in the current language, joined by `separator`.
pub fn localized_joined(messages: &[Message], separator: &str) -> String {
    messages
        .iter()
        .map(localized_message)
        .collect::<Vec<_>>()
        .join(separator)
}

/// Every message of `errors` found in the browser (the shared model's rules write them in
/// English) in the current language, as [`localized_message`] does for one.
pub fn localized_errors(errors: FieldErrors) -> FieldErrors {
    errors
        .into_iter()
        .map(|(path, messages)| {
            let messages = messages
                .iter()
                .map(|m| Message::verbatim(localized_message(m)))
                .collect();
            (path, messages)
        })
        .collect()
}

/// The messages for `path` in `errors`, joined into one sentence in the current language;
/// `None` when none.
pub fn field_message(errors: &FieldErrors, path: &str) -> Option<String> {
    errors.get(path).filter(|m| !m.is_empty()).map(|m| {
        m.iter()
            .map(localized_message)
            .collect::<Vec<_>>()
            .join("; ")
    })
}

/// The error of `path` as a signal for a [`Field`].
pub fn error_of(errors: RwSignal<FieldErrors>, path: &'static str) -> Signal<Option<String>> {
    Signal::derive(move || errors.with(|e| field_message(e, path)))
}

/// The typed tax, discount or other percentage as a number in the user's locale (0 when
/// empty or invalid), for the live totals.
pub fn percent_signal(text: RwSignal<String>) -> Signal<Decimal> {
    Signal::derive(move || text.with(|t| typed_value(t)).unwrap_or_default())
}

/// The trimmed text of the field `s` (read untracked); `None` when blank.
pub fn field_text(s: RwSignal<String>) -> Option<String> {
    Some(s.get_untracked().trim().to_string()).filter(|t| !t.is_empty())
}

/// The required-field message (`people_common.required`) for each of `fields` (wire
/// path, input) whose text is blank (read untracked); empty when all are filled.
pub fn blank_required(fields: &[(&str, RwSignal<String>)]) -> FieldErrors {
    let mut errors = FieldErrors::new();
    for (field, value) in fields {
        if value.get_untracked().trim().is_empty() {
            errors.insert(
                (*field).into(),
                vec![Message::verbatim(t().people_common().required)],
            );
        }
    }
    errors
}

/// The number typed in the field `s` (read untracked, in the user's locale:
/// [`parse_typed`]); `None` when blank, and when the text is not a number — then its
/// message is added to `errors` under `path`.
pub fn field_number(s: RwSignal<String>, path: &str, errors: &mut FieldErrors) -> Option<Decimal> {
    match s.with_untracked(|t| parse_typed(t)) {
        Ok(value) => value,
        Err(message) => {
            push_error(errors, path, message);
            None
        }
    }
}

/// A labelled field. The input inside must carry `id=<id>`; the error is linked to it
/// with `aria-describedby="<id>-error"` by the caller when wanted.
#[component]
pub fn Field(
    /// The id of the input inside (the label's `for`).
    #[prop(into)]
    id: String,
    /// The label text.
    #[prop(into)]
    label: String,
    /// Marks the field as required.
    #[prop(optional)]
    required: bool,
    /// A hint below the input.
    #[prop(optional, into)]
    hint: Option<String>,
    /// The error to show below the input, if any.
    #[prop(optional, into)]
    error: Signal<Option<String>>,
    /// Extra classes for the wrapper (e.g. `"field-wide"`).
    #[prop(optional, into)]
    class: String,
    /// The input.
    children: Children,
) -> impl IntoView {
    let error_id = format!("{id}-error");
    view! {
        <div class=move || {
            let invalid = if error.with(Option::is_some) { " field-invalid" } else { "" };
            format!("field {class}{invalid}")
        }>
            <label for=id.clone()>
                {label} {required.then(|| view! { <span class="required" title=t().form_common().required>" *"</span> })}
            </label>
            {children()}
            {hint.filter(|h| !h.is_empty()).map(|h| view! { <p class="field-hint">{h}</p> })}
            <p class="field-error" id=error_id aria-live="polite">
                {move || error.get()}
            </p>
        </div>
    }
}
