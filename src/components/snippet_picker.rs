//! Text snippets in the forms (issue 33): beside a salutation, footer or e-mail text, a
//! menu "Insert text snippet…" lists the account's snippets of that kind (the customer's
//! language first, each named with its language); choosing one puts its text into an
//! empty field, or below the text already there — never replacing what was typed.
//! Nothing shows without snippets (or without a key, as in the component tests).

use crate::api::articles::text_snippets;
use crate::i18n::t;
use kontor_model::article::{insert_snippet, SnippetKind, TextSnippet};
use kontor_model::party::Language;
use leptos::prelude::*;

/// `snippets` in the order the menu offers them: `language`'s first, then by name.
fn ordered(mut snippets: Vec<TextSnippet>, language: Option<Language>) -> Vec<TextSnippet> {
    snippets.sort_by_key(|s| (Some(s.language) != language, s.name.to_lowercase()));
    snippets
}

/// The menu for field `target` (its id `{field_id}-snippets`).
#[component]
pub fn SnippetPicker(
    /// The kind of text the field holds.
    kind: SnippetKind,
    /// The field's text.
    target: RwSignal<String>,
    /// The id of the field (the menu is `{field_id}-snippets`).
    field_id: &'static str,
    /// The customer's language, when known (its snippets come first).
    #[prop(into, default = Signal::stored(None))]
    language: Signal<Option<Language>>,
) -> impl IntoView {
    let snippets = LocalResource::new(move || async move {
        if crate::api::client::has_key() {
            text_snippets(kind)
                .await
                .map(|p| p.items)
                .unwrap_or_default()
        } else {
            Vec::new()
        }
    });
    let texts = t().invoice_form();
    move || {
        let list = snippets.get().unwrap_or_default();
        (!list.is_empty()).then(|| {
            let list = ordered(list, language.get());
            let by_id = list.clone();
            view! {
                <select class="select-action snippet-picker" id=format!("{field_id}-snippets")
                    aria-label=texts.insert_snippet
                    prop:value=""
                    on:change=move |ev| {
                        let chosen = event_target_value(&ev).parse::<i64>().ok();
                        if let Some(s) = chosen.and_then(|id| by_id.iter().find(|s| s.id == id)) {
                            target.update(|t| *t = insert_snippet(t, &s.text));
                        }
                        // The menu reads "Insert text snippet…" again, ready for the next.
                        event_target::<web_sys::HtmlSelectElement>(&ev).set_value("");
                    }>
                    <option value="">{texts.insert_snippet}</option>
                    {list.into_iter().map(|s| view! {
                        <option value=s.id.to_string()>{format!("{} ({})", s.name, s.language.as_str().to_uppercase())}</option>
                    }).collect_view()}
                </select>
            }
        })
    }
}
