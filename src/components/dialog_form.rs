//! A form inside a [`Dialog`](crate::components::dialog::Dialog) that saves one record
//! (a company's contact person or project, issue 30: one place for what those dialogs did
//! alike): its field errors, its save request and its text inputs.

use crate::api::ApiError;
use crate::components::field::{error_of, Field};
use crate::components::task::Task;
use crate::components::toast::Toasts;
use kontor_model::error::FieldErrors;
use leptos::prelude::*;
use std::future::Future;

/// The state of a dialog's record form (Copy: handles).
#[derive(Clone, Copy)]
pub struct DialogForm {
    /// The fields' errors (wire path → messages), from the browser's check or a 422.
    pub errors: RwSignal<FieldErrors>,
    /// The save request (`pending` disables the save button).
    pub task: Task,
    open: RwSignal<bool>,
    on_saved: Callback<()>,
    toasts: Toasts,
}

impl DialogForm {
    /// A form without errors in the dialog `open`; `on_saved` runs after a save.
    pub fn new(open: RwSignal<bool>, on_saved: Callback<()>) -> Self {
        DialogForm {
            errors: RwSignal::new(FieldErrors::new()),
            task: Task::new(),
            open,
            on_saved,
            toasts: Toasts::use_context(),
        }
    }

    /// Sends `request`. Saved: the success toast `saved_text(&record)`, the dialog closed
    /// and `on_saved` run; refused with field errors: they are shown at the fields; any
    /// other failure: its message as an error toast.
    pub fn save<T: 'static>(
        &self,
        request: impl Future<Output = Result<T, ApiError>> + 'static,
        saved_text: impl FnOnce(&T) -> String + 'static,
    ) {
        let DialogForm {
            errors,
            open,
            on_saved,
            toasts,
            ..
        } = *self;
        self.task.run(request, move |answer| match answer {
            Ok(record) => {
                toasts.success(saved_text(&record));
                open.set(false);
                on_saved.run(());
            }
            Err(e) if !e.errors.is_empty() => errors.set(e.errors),
            Err(e) => toasts.error(e.message),
        });
    }

    /// A labelled `<input type=kind>` (`text`, `email`, `tel`) with id `id`, bound to
    /// `value`, showing the error of `path` (and `aria-invalid` while it has one).
    pub fn input(
        &self,
        id: String,
        path: &'static str,
        label: &'static str,
        kind: &'static str,
        value: RwSignal<String>,
        required: bool,
    ) -> impl IntoView {
        let errors = self.errors;
        view! {
            <Field id=id.clone() label=label required=required error=error_of(errors, path)>
                <input id=id type=kind bind:value=value aria-invalid=move || errors.with(|e| e.contains_key(path)).then_some("true") />
            </Field>
        }
    }
}
