//! The field groups of the invoice form: customer and project, dates, pricing, texts.

use crate::components::company_picker::CompanyPicker;
use crate::components::field::{error_of, Field};
use crate::components::invoice_form_state::{InvoiceFormState, PAYMENT_TERMS};
use crate::components::snippet_picker::SnippetPicker;
use crate::i18n::{fill, t};
use kontor_model::article::SnippetKind;
use kontor_model::error::FieldErrors;
use kontor_model::party::{Company, CompanyType, Project};
use leptos::prelude::*;

fn invalid(
    errors: RwSignal<FieldErrors>,
    path: &'static str,
) -> impl Fn() -> Option<&'static str> + Copy {
    move || errors.with(|e| e.contains_key(path)).then_some("true")
}

/// Customer, project, recipient address and title.
#[component]
pub fn PartyFields(
    /// The form state.
    state: InvoiceFormState,
    /// Field errors by path.
    errors: RwSignal<FieldErrors>,
    /// The chosen customer (picked, created inline, or the draft's).
    customer: RwSignal<Option<Company>>,
    /// The chosen customer's projects.
    #[prop(into)]
    projects: Signal<Vec<Project>>,
    /// The account's currencies.
    currencies: StoredValue<Vec<String>>,
    /// A hint under the title (the recurring invoice form explains its placeholders).
    #[prop(optional, into)]
    title_hint: Option<String>,
    /// A placeholder in the empty title field.
    #[prop(optional, into)]
    title_placeholder: Option<String>,
) -> impl IntoView {
    let on_customer = Callback::new(move |picked: Option<Company>| {
        state.customer_id.set(picked.as_ref().map(|c| c.id));
        state.project_id.set(None);
        if let Some(c) = &picked {
            currencies.with_value(|cur| state.apply_customer(c, cur));
        }
        customer.set(picked);
    });
    let on_project = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev).parse::<i64>().ok();
        state.project_id.set(id);
        let project =
            projects.with_untracked(|list| list.iter().find(|p| Some(p.id) == id).cloned());
        let customer = customer.get_untracked();
        currencies.with_value(|cur| state.apply_project(project.as_ref(), customer.as_ref(), cur));
    };
    // The customer's buyer reference (Leitweg-ID) shows as the placeholder: it applies
    // when this invoice gives none.
    let customer_reference = move || {
        customer.with(|c| {
            c.as_ref()
                .and_then(|c| c.buyer_reference.clone())
                .unwrap_or_default()
        })
    };
    view! {
        <section class="form-section" aria-labelledby="sec-party">
            <h2 class="section-title" id="sec-party">{t().invoice_form().customer_section}</h2>
            <div class="form-grid">
                <Field id="f-customer_id" label=t().invoice_form().customer required=true error=error_of(errors, "customer_id")>
                    <CompanyPicker id="f-customer_id" kind=CompanyType::Customer value=state.customer_id
                        on_pick=on_customer invalid=Signal::derive(move || invalid(errors, "customer_id")().is_some()) />
                </Field>
                <Field id="f-project_id" label=t().invoice_form().project error=error_of(errors, "project_id")>
                    <select id="f-project_id" on:change=on_project disabled=move || state.customer_id.get().is_none()>
                        <option value="" selected=move || state.project_id.get().is_none()>{t().invoice_form().no_project}</option>
                        <For each=move || projects.get() key=|p| p.id let:p>
                            <option value=p.id.to_string() selected=move || state.project_id.get() == Some(p.id)>{p.name.clone()}</option>
                        </For>
                    </select>
                </Field>
                <Field id="f-recipient_address" label=t().invoice_form().recipient_address required=true error=error_of(errors, "recipient_address") class="field-tall">
                    <textarea id="f-recipient_address" rows="4" bind:value=state.recipient_address aria-invalid=invalid(errors, "recipient_address")></textarea>
                </Field>
                <Field id="f-title" label=t().invoice_form().title required=true hint=title_hint.unwrap_or_default() error=error_of(errors, "title")>
                    <input id="f-title" type="text" bind:value=state.title placeholder=title_placeholder aria-invalid=invalid(errors, "title") />
                </Field>
                <Field id="f-buyer_reference" label=t().invoice_form().customer_reference hint=t().invoice_form().customer_reference_hint error=error_of(errors, "buyer_reference")>
                    <input id="f-buyer_reference" type="text" bind:value=state.buyer_reference
                        placeholder=customer_reference aria-invalid=invalid(errors, "buyer_reference") />
                </Field>
            </div>
        </section>
    }
}

/// Invoice date, payment term, due date and service period.
#[component]
pub fn DateFields(
    /// The form state.
    state: InvoiceFormState,
    /// Field errors by path.
    errors: RwSignal<FieldErrors>,
    /// An extra payment term offered (the customer's), in days.
    #[prop(into)]
    extra_term: Signal<Option<i64>>,
) -> impl IntoView {
    let terms = move || {
        let mut t = PAYMENT_TERMS.to_vec();
        if let Some(d) = extra_term.get().filter(|d| !t.contains(d)) {
            t.push(d);
            t.sort_unstable();
        }
        t
    };
    let on_term = move |ev: leptos::ev::Event| {
        state
            .term_days
            .set(event_target_value(&ev).parse::<i64>().ok());
        state.recompute_due_date();
    };
    view! {
        <section class="form-section" aria-labelledby="sec-dates">
            <h2 class="section-title" id="sec-dates">{t().invoice_form().dates}</h2>
            <div class="form-grid form-grid-5">
                <Field id="f-date" label=t().invoice_form().invoice_date required=true error=error_of(errors, "date")>
                    <input id="f-date" type="date" bind:value=state.date on:change=move |_| state.recompute_due_date() aria-invalid=invalid(errors, "date") />
                </Field>
                <Field id="f-term" label=t().invoice_form().payment_term>
                    <select id="f-term" on:change=on_term>
                        {move || terms().into_iter().map(|d| {
                            let label = match d {
                                0 => t().invoice_form().due_immediately.to_string(),
                                1 => t().invoice_form().days_one.to_string(),
                                d => fill(t().invoice_form().days, &[("n", &d.to_string())]),
                            };
                            view! { <option value=d.to_string() selected=move || state.term_days.get() == Some(d)>{label}</option> }
                        }).collect_view()}
                        <option value="" selected=move || state.term_days.get().is_none()>{t().invoice_form().custom_date}</option>
                    </select>
                </Field>
                <Field id="f-due_date" label=t().invoice_form().due_date required=true error=error_of(errors, "due_date")>
                    <input id="f-due_date" type="date" bind:value=state.due_date on:input=move |_| state.term_days.set(None) aria-invalid=invalid(errors, "due_date") />
                </Field>
                <Field id="f-service_period_from" label=t().invoice_form().service_from error=error_of(errors, "service_period_from")>
                    <input id="f-service_period_from" type="date" bind:value=state.service_from aria-invalid=invalid(errors, "service_period_from") />
                </Field>
                <Field id="f-service_period_to" label=t().invoice_form().service_to error=error_of(errors, "service_period_to")>
                    <input id="f-service_period_to" type="date" bind:value=state.service_to aria-invalid=invalid(errors, "service_period_to") />
                </Field>
            </div>
        </section>
    }
}

/// Currency, tax, reverse charge, discount and cash discount.
#[component]
pub fn PricingFields(
    /// The form state.
    state: InvoiceFormState,
    /// Field errors by path.
    errors: RwSignal<FieldErrors>,
    /// The account's currencies.
    currencies: StoredValue<Vec<String>>,
) -> impl IntoView {
    view! {
        <section class="form-section" aria-labelledby="sec-pricing">
            <h2 class="section-title" id="sec-pricing">{t().invoice_form().pricing}</h2>
            <div class="form-grid form-grid-6">
                <Field id="f-currency" label=t().invoice_form().currency required=true error=error_of(errors, "currency")>
                    <select id="f-currency" on:change=move |ev| state.currency.set(event_target_value(&ev))>
                        {currencies.with_value(|list| list.iter().map(|c| {
                            let code = c.clone();
                            view! { <option value=c.clone() selected=move || state.currency.with(|v| *v == code)>{c.clone()}</option> }
                        }).collect_view())}
                    </select>
                </Field>
                <Field id="f-tax" label=t().invoice_form().vat_percent required=true error=error_of(errors, "tax")>
                    <input id="f-tax" class="input-number" inputmode="decimal" bind:value=state.tax disabled=move || state.reverse_charge.get() aria-invalid=invalid(errors, "tax") />
                </Field>
                <div class="field field-check">
                    <label>
                        <input type="checkbox" bind:checked=state.reverse_charge />
                        " " {t().invoice_form().reverse_charge}
                    </label>
                    <p class="field-hint">{t().invoice_form().reverse_charge_hint}</p>
                </div>
                <Field id="f-discount" label=t().invoice_form().discount_percent error=error_of(errors, "discount")>
                    <input id="f-discount" class="input-number" inputmode="decimal" placeholder="0" bind:value=state.discount aria-invalid=invalid(errors, "discount") />
                </Field>
                <Field id="f-cash_discount" label=t().invoice_form().cash_discount_percent error=error_of(errors, "cash_discount")>
                    <input id="f-cash_discount" class="input-number" inputmode="decimal" placeholder="0" bind:value=state.cash_discount aria-invalid=invalid(errors, "cash_discount") />
                </Field>
                <Field id="f-cash_discount_days" label=t().invoice_form().cash_discount_days error=error_of(errors, "cash_discount_days")>
                    <input id="f-cash_discount_days" class="input-number" inputmode="numeric" placeholder="0" bind:value=state.cash_discount_days aria-invalid=invalid(errors, "cash_discount_days") />
                </Field>
            </div>
        </section>
    }
}

/// Salutation, footer and tags.
#[component]
pub fn TextFields(
    /// The form state.
    state: InvoiceFormState,
    /// Field errors by path.
    errors: RwSignal<FieldErrors>,
) -> impl IntoView {
    view! {
        <section class="form-section" aria-labelledby="sec-texts">
            <h2 class="section-title" id="sec-texts">{t().invoice_form().texts}</h2>
            <div class="form-grid">
                <Field id="f-salutation" label=t().invoice_form().salutation hint=t().invoice_form().salutation_hint error=error_of(errors, "salutation")>
                    <textarea id="f-salutation" rows="3" bind:value=state.salutation></textarea>
                    <SnippetPicker kind=SnippetKind::Salutation target=state.salutation field_id="f-salutation" />
                </Field>
                <Field id="f-footer" label=t().invoice_form().footer hint=t().invoice_form().footer_hint error=error_of(errors, "footer")>
                    <textarea id="f-footer" rows="3" bind:value=state.footer></textarea>
                    <SnippetPicker kind=SnippetKind::Footer target=state.footer field_id="f-footer" />
                </Field>
                <Field id="f-tags" label=t().invoice_form().tags hint=t().invoice_form().tags_hint error=error_of(errors, "tags")>
                    <input id="f-tags" type="text" placeholder=t().invoice_form().tags_placeholder bind:value=state.tags />
                </Field>
            </div>
        </section>
    }
}
