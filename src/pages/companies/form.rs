//! Create and edit a customer or supplier (`/customers/new`, `/customers/:id/edit`, and
//! the same under `/suppliers`). The shared validation runs before sending; a 422's field
//! errors show at their fields; both are summarized at the top. Leaving with unsaved
//! changes asks first.

use super::detail::use_company_id;
use super::{base_path, new_title};
use crate::api::companies::{create_company, get_company, update_company};
use crate::api::create_or_update;
use crate::api::outbox::{create_or_queue, QueueAs, Saved};
use crate::api::session::get_account;
use crate::api::ApiError;
use crate::components::company_fields::{CompanyEssentialFields, CompanyMoreFields};
use crate::components::company_form_state::{form_errors, CompanyFormState, TypedCompany};
use crate::components::error_panel::loaded_view;
use crate::components::form_summary::{
    clear_field_error, field_entries, scroll_to_summary, ErrorSummary, Form, SummaryEntry,
};
use crate::components::leave_guard::use_snapshot_guard;
use crate::components::local_draft::{use_local_draft, LocalDraftNotice};
use crate::components::task::Task;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use crate::paths::href;
use kontor_model::error::FieldErrors;
use kontor_model::outbox::OutboxKind;
use kontor_model::party::{Company, CompanyType};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// The summary lines in the company form's words, each focusing its field (`#f-<path>`).
pub fn summary_entries(errors: &FieldErrors) -> Vec<SummaryEntry> {
    field_entries(Form::Company, errors)
}

/// The account's currencies, its country and (editing) the company.
type FormData = (Vec<String>, Option<String>, Option<Company>);

async fn load(id: Option<i64>) -> Result<FormData, ApiError> {
    let company = async {
        match id {
            Some(id) => get_company(id).await.map(Some),
            None => Ok(None),
        }
    };
    let (account, company) = futures::try_join!(get_account(), company)?;
    Ok((account.currencies, account.country_code, company))
}

/// `/customers/new`, `/suppliers/new`.
#[component]
pub fn CompanyCreate(
    /// Customers or suppliers.
    kind: CompanyType,
) -> impl IntoView {
    let data = LocalResource::new(|| load(None));
    form_page(kind, data)
}

/// `/customers/:id/edit`, `/suppliers/:id/edit`.
#[component]
pub fn CompanyEdit(
    /// Customers or suppliers.
    kind: CompanyType,
) -> impl IntoView {
    let id = use_company_id();
    let data = LocalResource::new(move || load(id.get()));
    form_page(kind, data)
}

fn form_page(kind: CompanyType, data: LocalResource<Result<FormData, ApiError>>) -> impl IntoView {
    loaded_view(data, 12, move |(currencies, country, company)| {
        view! { <CompanyForm kind=kind currencies=currencies country=country company=company /> }
    })
}

/// The form, once loaded.
#[component]
fn CompanyForm(
    kind: CompanyType,
    currencies: Vec<String>,
    /// The account's country code: a new company starts with it.
    country: Option<String>,
    company: Option<Company>,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let navigate = use_navigate();
    let editing = company.as_ref().map(|c| c.id);
    let state = match &company {
        Some(c) => CompanyFormState::from_company(c),
        None => {
            // Issue 34: a new company starts in the account's own country.
            let state = CompanyFormState::blank(kind);
            if let Some(code) = country.filter(|c| !c.trim().is_empty()) {
                state.country_code.set(code);
            }
            state
        }
    };
    let errors = RwSignal::new(FieldErrors::new());
    let summary = RwSignal::new(None::<(String, Vec<SummaryEntry>)>);
    let guard = use_snapshot_guard(Callback::new(move |_| format!("{:?}", state.body().0)));
    // What is typed is kept in the browser until it is saved (issue 37).
    let local = use_local_draft(
        match editing {
            Some(id) => format!("company.{id}"),
            None => format!("company.new.{}", base_path(kind).trim_start_matches('/')),
        },
        Callback::new(move |_| serde_json::to_value(state.typed()).unwrap_or_default()),
        Callback::new(move |value: serde_json::Value| {
            if let Ok(typed) = serde_json::from_value::<TypedCompany>(value) {
                state.restore_typed(&typed);
            }
        }),
    );
    let save = Task::new();
    let show_errors = move |message: String, found: FieldErrors| {
        summary.set(Some((message, summary_entries(&found))));
        errors.set(found);
        scroll_to_summary();
    };
    let base = base_path(kind);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let (body, found) = state.checked_body();
        if !found.is_empty() {
            show_errors(t().company_page_form().correct_fields.into(), found);
            return;
        }
        errors.set(FieldErrors::new());
        summary.set(None);
        let navigate = navigate.clone();
        // A new company saved while the server cannot be reached waits in the outbox
        // (issue 37).
        let queue_as = editing.is_none().then(|| QueueAs {
            kind: OutboxKind::Company,
            label: body.name.clone().unwrap_or_default(),
            form_name: format!("company.new.{}", base.trim_start_matches('/')),
            form_path: format!("{base}/new"),
            form: serde_json::to_value(state.typed()).unwrap_or_default(),
        });
        save.run(
            async move {
                match queue_as {
                    Some(queue_as) => create_or_queue(&body, queue_as).await,
                    None => create_or_update(editing, &body, create_company, update_company)
                        .await
                        .map(Saved::Stored),
                }
            },
            move |answer| match answer {
                Ok(Saved::Queued) => {
                    local.queued(&guard, &toasts);
                    navigate(base, Default::default());
                }
                Ok(Saved::Stored(saved)) => {
                    guard.mark_saved();
                    local.saved();
                    toasts.success(fill(
                        t().company_page_form().saved,
                        &[("name", &saved.name)],
                    ));
                    navigate(&format!("{base}/{}", saved.id), Default::default());
                }
                Err(e) if !e.errors.is_empty() => show_errors(e.message, form_errors(&e.errors)),
                Err(e) => {
                    toasts.error(fill(
                        t().company_page_form().not_saved,
                        &[("message", &e.message)],
                    ));
                    summary.set(Some((e.message, Vec::new())));
                }
            },
        );
    };
    let title = match &company {
        Some(c) => fill(t().company_page_form().edit_title, &[("name", &c.name)]),
        None => new_title(kind).to_string(),
    };
    let cancel = href(&match editing {
        Some(id) => format!("{base}/{id}"),
        None => base.to_string(),
    });
    let buttons = move || {
        view! {
            <a class="btn btn-quiet" href=cancel.clone()>{t().common().cancel}</a>
            <button type="submit" class="btn btn-primary" disabled=move || save.pending.get()>
                {move || if save.pending.get() { t().company_page_form().saving } else { t().common().save }}
            </button>
        }
    };
    let clear_error = move |ev: leptos::ev::Event| clear_field_error(errors, &ev);
    view! {
        <p class="breadcrumb"><a href=href(base)>{format!("← {}", super::plural(kind))}</a></p>
        <form class="company-form" novalidate on:submit=submit on:input=clear_error on:change=clear_error>
            <div class="page-head">
                <h1>{title}</h1>
                <div class="page-actions">{buttons.clone()}</div>
            </div>
            <LocalDraftNotice draft=local />
            <ErrorSummary summary=summary />
            <section class="form-section" aria-labelledby="sec-company">
                <h2 class="section-title" id="sec-company">{t().company_page_form().company}</h2>
                <CompanyEssentialFields state=state errors=errors prefix="f-" />
            </section>
            <CompanyMoreFields state=state errors=errors currencies=currencies />
            <div class="form-actions">{buttons}</div>
        </form>
    }
}
