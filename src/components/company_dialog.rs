//! "New customer…" / "New supplier…": a dialog with the company form's essential fields
//! ([`CompanyEssentialFields`]). The shared validation runs before sending, a 422 shows
//! at its field; the company created is handed to `on_created` (the picker selects it).

use crate::api::companies::create_company;
use crate::components::company_fields::CompanyEssentialFields;
use crate::components::company_form_state::{form_errors, CompanyFormState};
use crate::components::dialog::Dialog;
use crate::components::task::Task;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use kontor_model::error::FieldErrors;
use kontor_model::party::{Company, CompanyType};
use leptos::prelude::*;

/// The dialog's title for `kind`.
pub fn dialog_title(kind: CompanyType) -> &'static str {
    match kind {
        CompanyType::Customer => t().company_form().new_customer,
        CompanyType::Supplier => t().company_form().new_supplier,
        CompanyType::Organization => t().company_form().new_company,
    }
}

/// A modal form creating a company of `kind`.
#[component]
pub fn CompanyDialog(
    /// Open state.
    open: RwSignal<bool>,
    /// The role of the company created.
    kind: CompanyType,
    /// The name to start with (what was typed in the picker).
    #[prop(into)]
    name: Signal<String>,
    /// Called with the created company; the dialog closes.
    on_created: Callback<Company>,
) -> impl IntoView {
    view! {
        <Dialog open=open title=dialog_title(kind).to_string() class="dialog-wide">
            <DialogBody open=open kind=kind name=name.get_untracked() on_created=on_created />
        </Dialog>
    }
}

/// The dialog's content, built each time it opens (fresh state).
#[component]
fn DialogBody(
    open: RwSignal<bool>,
    kind: CompanyType,
    name: String,
    on_created: Callback<Company>,
) -> impl IntoView {
    let state = CompanyFormState::blank(kind);
    state.name.set(name);
    let errors = RwSignal::new(FieldErrors::new());
    let message = RwSignal::new(None::<String>);
    let task = Task::new();
    let toasts = use_context::<Toasts>();
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        ev.stop_propagation();
        let (body, found) = state.checked_body();
        if !found.is_empty() {
            errors.set(found);
            message.set(Some(t().form_common().correct_fields.into()));
            return;
        }
        errors.set(FieldErrors::new());
        message.set(None);
        task.run(
            async move { create_company(&body).await },
            move |answer| match answer {
                Ok(company) => {
                    if let Some(toasts) = toasts {
                        toasts
                            .success(fill(t().company_form().created, &[("name", &company.name)]));
                    }
                    open.set(false);
                    on_created.run(company);
                }
                Err(e) => {
                    errors.set(form_errors(&e.errors));
                    message.set(Some(e.message));
                }
            },
        );
    };
    view! {
        <form class="company-dialog" novalidate on:submit=submit>
            <p class="form-summary" role="alert" hidden=move || message.with(Option::is_none)>
                {move || message.get()}
            </p>
            <CompanyEssentialFields state=state errors=errors prefix="c-" />
            <p class="field-hint">{t().company_form().more_later}</p>
            <div class="dialog-actions">
                <button type="button" class="btn" on:click=move |_| open.set(false)>{t().common().cancel}</button>
                <button type="submit" class="btn btn-primary" id="company-dialog-save" disabled=move || task.pending.get()>
                    {move || if task.pending.get() { t().form_common().saving } else { t().company_form().create }}
                </button>
            </div>
        </form>
    }
}
