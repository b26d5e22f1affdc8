//! The field groups of the offer form: company, deal, project and contact pickers with
//! the rules of [`OfferFormState`], then address, title, dates and pricing.

use super::form_state::OfferFormState;
use crate::api::companies::get_company;
use crate::api::contacts::list_people;
use crate::components::company_picker::CompanyPicker;
use crate::components::field::{error_of, Field};
use crate::components::task::Task;
use crate::i18n::t;
use kontor_model::error::FieldErrors;
use kontor_model::party::{Company, CompanyType, Deal, Project};
use leptos::prelude::*;

/// Everything the pickers choose from.
#[derive(Clone)]
pub struct Choices {
    /// All deals.
    pub deals: Vec<Deal>,
    /// All projects.
    pub projects: Vec<Project>,
    /// The account's currencies.
    pub currencies: Vec<String>,
}

fn options<T>(
    list: &[T],
    none: &'static str,
    chosen: impl Fn() -> Option<i64> + Copy + Send + Sync + 'static,
    row: impl Fn(&T) -> (i64, String),
) -> impl IntoView {
    let none_view = view! { <option value="" selected=move || chosen().is_none()>{none}</option> };
    let rest = list.iter().map(|t| {
        let (id, label) = row(t);
        view! { <option value=id.to_string() selected=move || chosen() == Some(id)>{label}</option> }
    }).collect_view();
    (none_view, rest)
}

/// Company, deal, project, contact, recipient address and title.
#[component]
pub fn OfferPartyFields(
    /// The form state.
    state: OfferFormState,
    /// Field errors by path.
    errors: RwSignal<FieldErrors>,
    /// What the pickers offer.
    choices: StoredValue<Choices>,
) -> impl IntoView {
    let id_of = |ev: &leptos::ev::Event| event_target_value(ev).parse::<i64>().ok();
    let on_company = Callback::new(move |c: Option<Company>| state.pick_company(c.as_ref()));
    // A deal or project brings its company: it is loaded first, so its address and VAT
    // treatment apply as when it is picked by hand.
    let owner_task = Task::new();
    let with_owner = move |owner: Option<i64>, then: Box<dyn FnOnce(Vec<Company>)>| match owner {
        Some(id) => owner_task.run(get_company(id), move |c| then(c.into_iter().collect())),
        None => then(Vec::new()),
    };
    let on_deal = move |ev: leptos::ev::Event| {
        let id = id_of(&ev);
        let deal = choices.with_value(|c| c.deals.iter().find(|x| Some(x.id) == id).cloned());
        let owner = deal.as_ref().and_then(|d| d.company.as_ref().map(|c| c.id));
        with_owner(
            owner,
            Box::new(move |companies| state.pick_deal(deal, &companies)),
        );
    };
    let on_project = move |ev: leptos::ev::Event| {
        let id = id_of(&ev);
        let project = choices.with_value(|c| c.projects.iter().find(|x| Some(x.id) == id).cloned());
        let owner = project
            .as_ref()
            .and_then(|p| p.customer.as_ref().map(|c| c.id));
        with_owner(
            owner,
            Box::new(move |companies| state.pick_project(project, &companies)),
        );
    };
    let people = LocalResource::new(move || {
        let company = state.company_id.get();
        async move {
            match company {
                Some(id) => list_people(Some(id), None)
                    .await
                    .map(|p| p.items)
                    .unwrap_or_default(),
                None => Vec::new(),
            }
        }
    });
    let company_id = move || state.company_id.get();
    let deal_id = move || state.deal.with(|d| d.as_ref().map(|d| d.id));
    let project_id = move || state.project.with(|p| p.as_ref().map(|p| p.id));
    let contact_id = move || state.contact_id.get();
    let c = choices.get_value();
    view! {
        <section class="form-section" aria-labelledby="sec-party">
            <h2 class="section-title" id="sec-party">{t().offer_form().customer}</h2>
            <div class="form-grid">
                <Field id="f-company_id" label=t().offer_form().company error=error_of(errors, "company_id") hint=t().offer_form().company_hint>
                    <CompanyPicker id="f-company_id" kind=CompanyType::Customer value=Signal::derive(company_id) on_pick=on_company
                        invalid=Signal::derive(move || errors.with(|e| e.contains_key("company_id"))) />
                </Field>
                <Field id="f-deal_id" label=t().offer_form().deal error=error_of(errors, "deal_id") hint=t().offer_form().deal_hint>
                    <select id="f-deal_id" on:change=on_deal>
                        {options(&c.deals, t().offer_form().no_deal, deal_id, |x| (x.id, format!("{} ({})", x.name, x.company.as_ref().map(|c| c.name.as_str()).unwrap_or("-"))))}
                    </select>
                </Field>
                <Field id="f-project_id" label=t().offer_form().project error=error_of(errors, "project_id") hint=t().offer_form().project_hint>
                    <select id="f-project_id" on:change=on_project>
                        {options(&c.projects, t().offer_form().no_project, project_id, |x| (x.id, format!("{} ({})", x.name, x.customer.as_ref().map(|c| c.name.as_str()).unwrap_or("-"))))}
                    </select>
                </Field>
                <Field id="f-contact_id" label=t().offer_form().contact_person error=error_of(errors, "contact_id")>
                    <select id="f-contact_id" disabled=move || state.company_id.get().is_none()
                        on:change=move |ev| state.contact_id.set(id_of(&ev))>
                        {move || options(&people.get().unwrap_or_default(), t().offer_form().no_contact, contact_id, |p| (p.id, format!("{} {}", p.firstname, p.lastname)))}
                    </select>
                </Field>
                <Field id="f-recipient_address" label=t().offer_form().recipient_address required=true error=error_of(errors, "recipient_address") class="field-tall">
                    <textarea id="f-recipient_address" rows="4" bind:value=state.recipient_address></textarea>
                </Field>
                <Field id="f-title" label=t().offer_form().title required=true error=error_of(errors, "title")>
                    <input id="f-title" type="text" bind:value=state.title />
                </Field>
            </div>
        </section>
    }
}

/// Dates, currency (with the conflict shown before sending), tax and discount.
#[component]
pub fn OfferTermsFields(
    /// The form state.
    state: OfferFormState,
    /// Field errors by path.
    errors: RwSignal<FieldErrors>,
    /// The account's currencies.
    currencies: Vec<String>,
) -> impl IntoView {
    let server_error = error_of(errors, "currency");
    let currency_error =
        Signal::derive(move || state.currency_conflict().or_else(|| server_error.get()));
    view! {
        <section class="form-section" aria-labelledby="sec-terms">
            <h2 class="section-title" id="sec-terms">{t().offer_form().terms}</h2>
            <div class="form-grid">
                <Field id="f-date" label=t().offer_form().offer_date required=true error=error_of(errors, "date")>
                    <input id="f-date" type="date" bind:value=state.date />
                </Field>
                <Field id="f-due_date" label=t().offer_form().valid_until required=true error=error_of(errors, "due_date")>
                    <input id="f-due_date" type="date" bind:value=state.due_date />
                </Field>
                <Field id="f-currency" label=t().offer_form().currency required=true error=currency_error>
                    <select id="f-currency" prop:value=move || state.currency.get() on:change=move |ev| state.currency.set(event_target_value(&ev))>
                        {currencies.into_iter().map(|c| {
                            let (v, value) = (c.clone(), c.clone());
                            view! { <option value=value selected=move || state.currency.get() == v>{c}</option> }
                        }).collect_view()}
                    </select>
                </Field>
                <Field id="f-tax" label=t().offer_form().vat_percent required=true error=error_of(errors, "tax")>
                    <input id="f-tax" type="text" inputmode="decimal" bind:value=state.tax disabled=move || state.reverse_charge.get() />
                </Field>
                <div class="field field-check">
                    <label>
                        <input type="checkbox" id="f-reverse_charge" bind:checked=state.reverse_charge />
                        " " {t().offer_form().reverse_charge}
                    </label>
                    <p class="field-hint">{t().offer_form().reverse_charge_hint}</p>
                </div>
                <Field id="f-discount" label=t().offer_form().discount_percent error=error_of(errors, "discount")>
                    <input id="f-discount" type="text" inputmode="decimal" bind:value=state.discount />
                </Field>
            </div>
        </section>
    }
}
