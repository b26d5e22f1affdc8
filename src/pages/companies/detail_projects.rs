//! A customer's projects: a table with "Add project", per row "Edit" (a dialog with name,
//! currency, billing recipients and address) and "Archive" / "Restore".

use super::list::active_badge;
use crate::api::create_or_update;
use crate::api::projects::{create_project, list_projects, set_project_active, update_project};
use crate::components::dialog::Dialog;
use crate::components::dialog_form::DialogForm;
use crate::components::field::{error_of, Field};
use crate::components::task::Task;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use kontor_model::party::{Company, NewProject, Project};
use leptos::prelude::*;

/// The projects section of `company` (a customer).
#[component]
pub fn ProjectsSection(company: Company) -> impl IntoView {
    let company_id = company.id;
    let projects = LocalResource::new(move || async move { list_projects(Some(company_id)).await });
    let reload = Callback::new(move |_: ()| projects.refetch());
    let editing = RwSignal::new(None::<Project>);
    let dialog_open = RwSignal::new(false);
    let toasts = Toasts::use_context();
    let task = Task::new();
    let tx = t().company_projects();
    let toggle = move |p: Project| {
        task.run(
            set_project_active(p.id, !p.active),
            move |answer| match answer {
                Ok(p) => {
                    let text = if p.active {
                        t().company_projects().restored
                    } else {
                        t().company_projects().archived
                    };
                    toasts.success(fill(text, &[("name", &p.name)]));
                    reload.run(());
                }
                Err(e) => toasts.error(e.message),
            },
        );
    };
    let rows = move || {
        match projects.get() {
        None => view! { <p class="muted">{tx.loading}</p> }.into_any(),
        Some(Err(e)) => view! { <p class="field-error">{e.message}</p> }.into_any(),
        Some(Ok(page)) if page.items.is_empty() => view! { <p class="muted">{tx.none}</p> }.into_any(),
        Some(Ok(page)) => view! {
            <table class="table table-projects">
                <thead><tr><th scope="col">{tx.project}</th><th scope="col">{tx.currency}</th><th scope="col">{tx.invoices_to}</th><th scope="col">{tx.status}</th><th scope="col"><span class="visually-hidden">{tx.actions}</span></th></tr></thead>
                <tbody>
                    {page.items.into_iter().map(|p| {
                        let (edit_p, toggle_p) = (p.clone(), p.clone());
                        view! {
                            <tr>
                                <td>{p.name.clone()}</td>
                                <td>{p.currency.clone().unwrap_or_default()}</td>
                                <td>{p.billing_email_to.clone().unwrap_or_default()}</td>
                                <td>{active_badge(p.active)}</td>
                                <td class="row-actions">
                                    <button type="button" class="btn btn-small btn-quiet" on:click=move |_| { editing.set(Some(edit_p.clone())); dialog_open.set(true); }>{t().common().edit}</button>
                                    <button type="button" class="btn btn-small btn-quiet" disabled=move || task.pending.get() on:click=move |_| toggle(toggle_p.clone())>
                                        {if p.active { tx.archive } else { tx.restore }}
                                    </button>
                                </td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        }.into_any(),
    }
    };
    let title = Signal::derive(move || match editing.get() {
        Some(p) => fill(t().company_projects().edit_title, &[("name", &p.name)]),
        None => t().company_projects().new_title.to_string(),
    });
    let currency = company.currency.clone();
    view! {
        <section class="section" aria-labelledby="sec-projects">
            <div class="section-head">
                <h2 class="section-title" id="sec-projects">{tx.title}</h2>
                <button type="button" class="btn btn-small" id="project-add" on:click=move |_| { editing.set(None); dialog_open.set(true); }>{tx.add}</button>
            </div>
            {rows}
        </section>
        <Dialog open=dialog_open title=title class="dialog-wide">
            <ProjectForm company_id=company_id currency=currency.clone() project=editing.get_untracked() open=dialog_open on_saved=reload />
        </Dialog>
    }
}

/// The project form inside the dialog.
#[component]
fn ProjectForm(
    company_id: i64,
    currency: Option<String>,
    project: Option<Project>,
    open: RwSignal<bool>,
    on_saved: Callback<()>,
) -> impl IntoView {
    let tx = t().company_projects();
    let text = |v: Option<String>| RwSignal::new(v.unwrap_or_default());
    let p = project.as_ref();
    let name = text(p.map(|p| p.name.clone()));
    let cur = text(p.and_then(|p| p.currency.clone()).or(currency));
    let to = text(p.and_then(|p| p.billing_email_to.clone()));
    let cc = text(p.and_then(|p| p.billing_email_cc.clone()));
    let address = text(p.and_then(|p| p.billing_address.clone()));
    let id = p.map(|p| p.id);
    let form = DialogForm::new(open, on_saved);
    let errors = form.errors;
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let val = |s: RwSignal<String>| Some(s.get_untracked().trim().to_string());
        let body = NewProject {
            name: val(name),
            customer_id: Some(company_id),
            currency: val(cur).filter(|c| !c.is_empty()),
            billing_email_to: val(to),
            billing_email_cc: val(cc),
            billing_address: val(address),
            active: None,
        };
        let found = kontor_model::master_data::validate_project(&body);
        if !found.is_empty() {
            errors.set(found);
            return;
        }
        form.save(
            async move { create_or_update(id, &body, create_project, update_project).await },
            |p| fill(t().company_projects().saved, &[("name", &p.name)]),
        );
    };
    let line =
        move |path: &'static str, label: &'static str, value: RwSignal<String>, required: bool| {
            form.input(format!("pr-{path}"), path, label, "text", value, required)
        };
    view! {
        <form novalidate on:submit=submit>
            <div class="form-grid">
                {line("name", tx.name, name, true)}
                {line("currency", tx.currency, cur, false)}
                {line("billing_email_to", tx.invoices_to, to, false)}
                {line("billing_email_cc", tx.invoices_cc, cc, false)}
                <Field id="pr-billing_address" label=tx.billing_address hint=tx.billing_address_hint error=error_of(errors, "billing_address") class="field-tall">
                    <textarea id="pr-billing_address" rows="4" bind:value=address></textarea>
                </Field>
            </div>
            <div class="dialog-actions">
                <button type="button" class="btn" on:click=move |_| open.set(false)>{t().common().cancel}</button>
                <button type="submit" class="btn btn-primary" disabled=move || form.task.pending.get()>{t().common().save}</button>
            </div>
        </form>
    }
}
