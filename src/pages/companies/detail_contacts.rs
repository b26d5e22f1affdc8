//! The company's contact people: a table with the billing-contact mark, "Add contact",
//! and per row "Edit" (a dialog) and "Delete" (with confirmation). Marking one person
//! as billing contact clears the mark on the others (the server does; the list reloads).

use crate::api::contacts::{create_person, delete_person, list_people, update_person};
use crate::api::create_or_update;
use crate::components::confirm_dialog::ConfirmDialog;
use crate::components::dialog::Dialog;
use crate::components::dialog_form::DialogForm;
use crate::components::field::{error_of, Field};
use crate::components::task::Task;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use kontor_model::party::{Gender, NewPerson, Person};
use leptos::prelude::*;

/// The contacts section of company `company_id`.
#[component]
pub fn ContactsSection(company_id: i64) -> impl IntoView {
    let people =
        LocalResource::new(move || async move { list_people(Some(company_id), None).await });
    let reload = Callback::new(move |_: ()| people.refetch());
    // `Some(None)`: adding; `Some(Some(p))`: editing p.
    let editing = RwSignal::new(None::<Option<Person>>);
    let dialog_open = RwSignal::new(false);
    let deleting = RwSignal::new(None::<Person>);
    let delete_open = RwSignal::new(false);
    let toasts = Toasts::use_context();
    let task = Task::new();
    let tx = t().company_contacts();
    Effect::new(move |_| {
        if !dialog_open.get() {
            editing.set(None);
        }
    });
    let confirm_delete = Callback::new(move |_| {
        let Some(p) = deleting.get_untracked() else {
            return;
        };
        task.run(delete_person(p.id), move |answer| {
            delete_open.set(false);
            match answer {
                Ok(()) => {
                    toasts.success(fill(
                        t().company_contacts().deleted,
                        &[("name", &p.full_name())],
                    ));
                    reload.run(());
                }
                Err(e) => toasts.error(e.message),
            }
        });
    });
    let rows = move || {
        match people.get() {
        None => view! { <p class="muted">{t().company_contacts().loading}</p> }.into_any(),
        Some(Err(e)) => view! { <p class="field-error">{e.message}</p> }.into_any(),
        Some(Ok(page)) if page.items.is_empty() => view! { <p class="muted">{t().company_contacts().none}</p> }.into_any(),
        Some(Ok(page)) => view! {
            <table class="table table-contacts">
                <thead><tr><th scope="col">{tx.name}</th><th scope="col">{tx.job_title}</th><th scope="col">{tx.email}</th><th scope="col">{tx.phone}</th><th scope="col"><span class="visually-hidden">{tx.actions}</span></th></tr></thead>
                <tbody>
                    {page.items.into_iter().map(|p| {
                        let name = [p.salutation.clone().unwrap_or_default(), p.full_name()].join(" ").trim().to_string();
                        let (edit_p, del_p) = (p.clone(), p.clone());
                        view! {
                            <tr>
                                <td>{name} {p.billing_contact.then(|| view! { " " <span class="badge badge-created">{tx.billing_contact}</span> })}</td>
                                <td>{p.job_position.clone().unwrap_or_default()}</td>
                                <td>{p.email.clone().unwrap_or_default()}</td>
                                <td>{p.phone.clone().unwrap_or_default()}</td>
                                <td class="row-actions">
                                    <button type="button" class="btn btn-small btn-quiet" on:click=move |_| { editing.set(Some(Some(edit_p.clone()))); dialog_open.set(true); }>{t().common().edit}</button>
                                    <button type="button" class="btn btn-small btn-danger-quiet" on:click=move |_| { deleting.set(Some(del_p.clone())); delete_open.set(true); }>{t().common().delete}</button>
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
        Some(Some(p)) => fill(
            t().company_contacts().edit_title,
            &[("name", &p.full_name())],
        ),
        _ => t().company_contacts().new_title.to_string(),
    });
    view! {
        <section class="section" aria-labelledby="sec-contacts">
            <div class="section-head">
                <h2 class="section-title" id="sec-contacts">{t().company_contacts().title}</h2>
                <button type="button" class="btn btn-small" id="contact-add" on:click=move |_| { editing.set(Some(None)); dialog_open.set(true); }>{t().company_contacts().add}</button>
            </div>
            {rows}
        </section>
        <Dialog open=dialog_open title=title class="dialog-wide">
            <PersonForm company_id=company_id person=editing.get_untracked().flatten() open=dialog_open on_saved=reload />
        </Dialog>
        <ConfirmDialog open=delete_open title=Signal::derive(move || fill(t().company_contacts().delete_title, &[("name", &deleting.get().map(|p| p.full_name()).unwrap_or_default())]))
            text=t().company_contacts().delete_text.to_string() confirm_label=t().common().delete.to_string()
            pending=task.pending on_confirm=confirm_delete />
    }
}

/// The person form inside the dialog (new or edit).
#[component]
fn PersonForm(
    company_id: i64,
    person: Option<Person>,
    open: RwSignal<bool>,
    on_saved: Callback<()>,
) -> impl IntoView {
    let tx = t().company_contacts();
    let text = |v: Option<&String>| RwSignal::new(v.cloned().unwrap_or_default());
    let p = person.as_ref();
    let gender = RwSignal::new(
        p.and_then(|p| p.gender)
            .map(|g| g.as_str().to_string())
            .unwrap_or_default(),
    );
    let salutation = text(p.and_then(|p| p.salutation.as_ref()));
    let firstname = text(p.map(|p| &p.firstname));
    let lastname = text(p.map(|p| &p.lastname));
    let job = text(p.and_then(|p| p.job_position.as_ref()));
    let email = text(p.and_then(|p| p.email.as_ref()));
    let phone = text(p.and_then(|p| p.phone.as_ref()));
    let billing = RwSignal::new(p.is_some_and(|p| p.billing_contact));
    let id = p.map(|p| p.id);
    let form = DialogForm::new(open, on_saved);
    let errors = form.errors;
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let val = |s: RwSignal<String>| Some(s.get_untracked().trim().to_string());
        let body = NewPerson {
            firstname: val(firstname),
            lastname: val(lastname),
            email: val(email),
            company_id: Some(company_id),
            gender: Gender::parse(&gender.get_untracked()),
            salutation: val(salutation),
            job_position: val(job),
            phone: val(phone),
            billing_contact: Some(billing.get_untracked()),
        };
        let found = kontor_model::master_data::validate_person(&body);
        if !found.is_empty() {
            errors.set(found);
            return;
        }
        form.save(
            async move { create_or_update(id, &body, create_person, update_person).await },
            |p| fill(t().company_contacts().saved, &[("name", &p.full_name())]),
        );
    };
    let line = move |path: &'static str,
                     label: &'static str,
                     value: RwSignal<String>,
                     kind: &'static str,
                     required: bool| {
        form.input(format!("p-{path}"), path, label, kind, value, required)
    };
    view! {
        <form novalidate on:submit=submit>
            <div class="form-grid">
                <Field id="p-gender" label=tx.gender error=error_of(errors, "gender")>
                    <select id="p-gender" prop:value=move || gender.get() on:change=move |ev| gender.set(event_target_value(&ev))>
                        <option value="" selected=move || gender.with(String::is_empty)>"—"</option>
                        <option value="F" selected=move || gender.with(|g| g == "F")>{tx.female}</option>
                        <option value="M" selected=move || gender.with(|g| g == "M")>{tx.male}</option>
                        <option value="U" selected=move || gender.with(|g| g == "U")>{tx.diverse}</option>
                    </select>
                </Field>
                {line("salutation", tx.salutation, salutation, "text", false)}
                {line("firstname", tx.firstname, firstname, "text", true)}
                {line("lastname", tx.lastname, lastname, "text", true)}
                {line("job_position", tx.job_title, job, "text", false)}
                {line("email", tx.email, email, "email", false)}
                {line("phone", tx.phone, phone, "tel", false)}
                <div class="field field-check">
                    <label><input type="checkbox" id="p-billing_contact" bind:checked=billing />" " {tx.billing_contact}</label>
                    <p class="field-hint">{tx.billing_hint}</p>
                </div>
            </div>
            <div class="dialog-actions">
                <button type="button" class="btn" on:click=move |_| open.set(false)>{t().common().cancel}</button>
                <button type="submit" class="btn btn-primary" disabled=move || form.task.pending.get()>{t().common().save}</button>
            </div>
        </form>
    }
}
