//! The account's default salutation and footer in a new invoice or offer form
//! (`docs/decisions.md` § Default document texts (issue 9)): picking a customer fills an
//! empty salutation / footer with the account's texts in the customer's correspondence
//! language (the model's `DocumentTexts::defaults_for`, the same texts the server would
//! store). Text the user typed stays; a text this filled in is replaced when another
//! customer (another language) is picked.

use kontor_model::account::{DocumentKind, DocumentTexts};
use kontor_model::party::Language;
use leptos::prelude::*;

/// The default texts of one form (Copy: signal handles). Without texts (a stored draft
/// being edited) picking a customer changes nothing.
#[derive(Clone, Copy)]
pub struct DefaultTexts {
    kind: DocumentKind,
    texts: RwSignal<Option<DocumentTexts>>,
    /// The salutation and footer last filled in, to tell them from typed text.
    filled: RwSignal<(String, String)>,
}

impl DefaultTexts {
    /// No texts yet: [`DefaultTexts::apply`] does nothing until [`DefaultTexts::set`].
    pub fn new(kind: DocumentKind) -> Self {
        DefaultTexts {
            kind,
            texts: RwSignal::new(None),
            filled: RwSignal::new((String::new(), String::new())),
        }
    }

    /// Uses the account's `texts` (`document_texts` of GET /account) for a new document.
    pub fn set(&self, texts: DocumentTexts) {
        self.texts.set(Some(texts));
    }

    /// A customer in `language` was picked: an empty `salutation` / `footer`, or one that
    /// still holds the text filled in before, gets the default of `language`.
    pub fn apply(
        &self,
        language: Language,
        salutation: RwSignal<String>,
        footer: RwSignal<String>,
    ) {
        let Some((new_salutation, new_footer)) = self
            .texts
            .with_untracked(|t| t.as_ref().map(|t| t.defaults_for(language, self.kind)))
        else {
            return;
        };
        let (old_salutation, old_footer) = self.filled.get_untracked();
        let replace = |field: RwSignal<String>, old: &str, new: String| {
            let current = field.get_untracked();
            if current.trim().is_empty() || current == old {
                field.set(new);
            }
        };
        replace(salutation, &old_salutation, new_salutation.clone());
        replace(footer, &old_footer, new_footer.clone());
        self.filled.set((new_salutation, new_footer));
    }
}
