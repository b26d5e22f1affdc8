//! The inputs of a company form, labels above, each field's error below it (from the
//! shared validation before sending and from a 422): [`CompanyEssentialFields`] (also the
//! "New customer…" dialog) and [`CompanyMoreFields`] (the full create / edit page).
//! Input ids are `<prefix><wire path>` (`f-vat_identifier`), so an error's path finds
//! its input.

use crate::components::company_form_state::{CompanyFormState, PropertyRow};
use crate::components::field::{error_of, Field};
use crate::i18n::t;
use kontor_model::error::FieldErrors;
use kontor_model::party::EinvoiceFormat;
use leptos::prelude::*;

fn invalid(
    errors: RwSignal<FieldErrors>,
    path: &'static str,
) -> impl Fn() -> Option<&'static str> + Copy {
    move || errors.with(|e| e.contains_key(path)).then_some("true")
}

/// A one-line text input bound to `value` with the id `<prefix><path>`.
fn line(
    prefix: &'static str,
    path: &'static str,
    value: RwSignal<String>,
    errors: RwSignal<FieldErrors>,
    kind: &'static str,
) -> impl IntoView {
    view! {
        <input id=format!("{prefix}{path}") type=kind bind:value=value aria-invalid=invalid(errors, path)
            aria-describedby=format!("{prefix}{path}-error") />
    }
}

/// Name, country, address, e-mail and VAT ID: what a company needs to be invoiced.
#[component]
pub fn CompanyEssentialFields(
    /// The form state.
    state: CompanyFormState,
    /// Field errors by wire path.
    errors: RwSignal<FieldErrors>,
    /// Prefix of the input ids (`f-` on the page, `c-` in the dialog).
    prefix: &'static str,
) -> impl IntoView {
    let id = move |path: &str| format!("{prefix}{path}");
    view! {
        <div class="form-grid">
            <Field id=id("name") label=t().company_form().name required=true error=error_of(errors, "name")>
                <input id=id("name") type="text" bind:value=state.name aria-invalid=invalid(errors, "name") autofocus />
            </Field>
            <Field id=id("country_code") label=t().company_form().country error=error_of(errors, "country_code")>
                <select id=id("country_code") prop:value=move || state.country_code.get()
                    on:change=move |ev| state.country_code.set(event_target_value(&ev)) aria-invalid=invalid(errors, "country_code")>
                    <option value="" selected=move || state.country_code.with(String::is_empty)>"—"</option>
                    {super::countries::options().into_iter().map(|(code, name)| {
                        view! { <option value=code selected=move || state.country_code.with(|c| c == code)>{format!("{name} ({code})")}</option> }
                    }).collect_view()}
                </select>
            </Field>
            <Field id=id("address") label=t().company_form().address hint=t().company_form().address_hint error=error_of(errors, "address") class="field-tall">
                <textarea id=id("address") rows="4" bind:value=state.address aria-invalid=invalid(errors, "address")></textarea>
            </Field>
            <Field id=id("email") label=t().company_form().billing_email error=error_of(errors, "email")>
                {line(prefix, "email", state.email, errors, "email")}
            </Field>
            <Field id=id("vat_identifier") label=t().company_form().vat_id hint=t().company_form().vat_id_hint error=error_of(errors, "vat_identifier")>
                {line(prefix, "vat_identifier", state.vat_identifier, errors, "text")}
            </Field>
        </div>
    }
}

/// Contact, tax and bank, billing defaults, tags and notes.
#[component]
pub fn CompanyMoreFields(
    /// The form state.
    state: CompanyFormState,
    /// Field errors by wire path.
    errors: RwSignal<FieldErrors>,
    /// The account's currencies.
    currencies: Vec<String>,
) -> impl IntoView {
    let p = "f-";
    view! {
        <section class="form-section" aria-labelledby="sec-contact">
            <h2 class="section-title" id="sec-contact">{t().company_form().contact}</h2>
            <div class="form-grid">
                <Field id="f-phone" label=t().company_form().phone error=error_of(errors, "phone")>{line(p, "phone", state.phone, errors, "tel")}</Field>
                <Field id="f-website" label=t().company_form().website error=error_of(errors, "website")>{line(p, "website", state.website, errors, "url")}</Field>
                <Field id="f-billing_email_cc" label=t().company_form().billing_cc hint=t().company_form().billing_cc_hint error=error_of(errors, "billing_email_cc")>
                    {line(p, "billing_email_cc", state.billing_email_cc, errors, "text")}
                </Field>
            </div>
        </section>
        <section class="form-section" aria-labelledby="sec-tax">
            <h2 class="section-title" id="sec-tax">{t().company_form().tax_and_bank}</h2>
            <div class="form-grid">
                <Field id="f-tax_number" label=t().company_form().tax_number error=error_of(errors, "tax_number")>{line(p, "tax_number", state.tax_number, errors, "text")}</Field>
                <Field id="f-iban" label=t().company_form().iban error=error_of(errors, "iban")>{line(p, "iban", state.iban, errors, "text")}</Field>
                <Field id="f-bic" label=t().company_form().bic error=error_of(errors, "bic")>{line(p, "bic", state.bic, errors, "text")}</Field>
                <Field id="f-debtor_number" label=t().company_form().debtor_number hint=t().company_form().debtor_number_hint error=error_of(errors, "debit_number")>
                    <input id="f-debtor_number" class="input-number" inputmode="numeric" bind:value=state.debtor_number aria-invalid=invalid(errors, "debit_number") />
                </Field>
                <Field id="f-creditor_number" label=t().company_form().creditor_number hint=t().company_form().creditor_number_hint error=error_of(errors, "credit_number")>
                    <input id="f-creditor_number" class="input-number" inputmode="numeric" bind:value=state.creditor_number aria-invalid=invalid(errors, "credit_number") />
                </Field>
            </div>
        </section>
        <section class="form-section" aria-labelledby="sec-einvoice">
            <h2 class="section-title" id="sec-einvoice">{t().company_form().einvoices}</h2>
            <div class="form-grid">
                <Field id="f-buyer_reference" label=t().company_form().buyer_reference hint=t().company_form().buyer_reference_hint error=error_of(errors, "buyer_reference")>
                    {line(p, "buyer_reference", state.buyer_reference, errors, "text")}
                </Field>
                <Field id="f-electronic_address" label=t().company_form().electronic_address hint=t().company_form().electronic_address_hint error=error_of(errors, "electronic_address")>
                    {line(p, "electronic_address", state.electronic_address, errors, "text")}
                </Field>
                <Field id="f-einvoice_format" label=t().company_form().einvoice_format hint=t().company_form().einvoice_format_hint error=error_of(errors, "einvoice_format")>
                    <select id="f-einvoice_format" prop:value=move || state.einvoice_format.get().as_str()
                        on:change=move |ev| {
                            if let Some(f) = EinvoiceFormat::parse(&event_target_value(&ev)) {
                                state.einvoice_format.set(f);
                            }
                        }>
                        {[
                            (EinvoiceFormat::Pdf, "PDF"),
                            (EinvoiceFormat::XrechnungCii, "XRechnung CII"),
                            (EinvoiceFormat::XrechnungUbl, "XRechnung UBL"),
                        ].into_iter().map(|(f, label)| view! {
                            <option value=f.as_str() selected=move || state.einvoice_format.get() == f>{label}</option>
                        }).collect_view()}
                    </select>
                </Field>
                <Field id="f-sepa_mandate_reference" label=t().company_form().sepa_mandate hint=t().company_form().sepa_mandate_hint error=error_of(errors, "sepa_mandate_reference")>
                    {line(p, "sepa_mandate_reference", state.sepa_mandate_reference, errors, "text")}
                </Field>
            </div>
        </section>
        <section class="form-section" aria-labelledby="sec-defaults">
            <h2 class="section-title" id="sec-defaults">{t().company_form().billing_defaults}</h2>
            <div class="form-grid form-grid-6">
                <Field id="f-currency" label=t().company_form().currency error=error_of(errors, "currency")>
                    <select id="f-currency" prop:value=move || state.currency.get() on:change=move |ev| state.currency.set(event_target_value(&ev))>
                        <option value="" selected=move || state.currency.with(String::is_empty)>{t().company_form().account_default}</option>
                        {currencies.into_iter().map(|c| {
                            let (code, value) = (c.clone(), c.clone());
                            view! { <option value=value selected=move || state.currency.with(|v| *v == code)>{c}</option> }
                        }).collect_view()}
                    </select>
                </Field>
                <Field id="f-language" label=t().company_form().document_language error=error_of(errors, "language")>
                    <select id="f-language" prop:value=move || state.language.get() on:change=move |ev| state.language.set(event_target_value(&ev))>
                        <option value="de" selected=move || state.language.with(|l| l == "de")>{t().company_form().german}</option>
                        <option value="en" selected=move || state.language.with(|l| l == "en")>{t().company_form().english}</option>
                    </select>
                </Field>
                <Field id="f-default_invoice_due_days" label=t().company_form().payment_term_days error=error_of(errors, "default_invoice_due_days")>
                    <input id="f-default_invoice_due_days" class="input-number" inputmode="numeric" bind:value=state.due_days aria-invalid=invalid(errors, "default_invoice_due_days") />
                </Field>
                <Field id="f-customer_vat.tax" label=t().company_form().vat_percent hint=t().company_form().vat_percent_hint error=error_of(errors, "customer_vat.tax")>
                    <input id="f-customer_vat.tax" class="input-number" inputmode="decimal" bind:value=state.tax aria-invalid=invalid(errors, "customer_vat.tax") />
                </Field>
                <Field id="f-default_discount" label=t().company_form().discount_percent error=error_of(errors, "default_discount")>
                    <input id="f-default_discount" class="input-number" inputmode="decimal" bind:value=state.discount aria-invalid=invalid(errors, "default_discount") />
                </Field>
                <Field id="f-default_cash_discount" label=t().company_form().cash_discount_percent error=error_of(errors, "default_cash_discount")>
                    <input id="f-default_cash_discount" class="input-number" inputmode="decimal" bind:value=state.cash_discount aria-invalid=invalid(errors, "default_cash_discount") />
                </Field>
                <Field id="f-default_cash_discount_days" label=t().company_form().cash_discount_days error=error_of(errors, "default_cash_discount_days")>
                    <input id="f-default_cash_discount_days" class="input-number" inputmode="numeric" bind:value=state.cash_discount_days aria-invalid=invalid(errors, "default_cash_discount_days") />
                </Field>
                <div class="field field-check">
                    <label><input type="checkbox" id="f-reverse_charge" bind:checked=state.reverse_charge />" " {t().company_form().reverse_charge}</label>
                    <label><input type="checkbox" id="f-intra_eu" bind:checked=state.intra_eu />" " {t().company_form().intra_eu}</label>
                    <label><input type="checkbox" id="f-consumer" bind:checked=state.consumer />" " {t().company_form().consumer}</label>
                </div>
            </div>
        </section>
        <section class="form-section" aria-labelledby="sec-notes">
            <h2 class="section-title" id="sec-notes">{t().company_form().tags_and_notes}</h2>
            <div class="form-grid">
                <Field id="f-tags" label=t().company_form().tags hint=t().company_form().tags_hint error=error_of(errors, "tags")>{line(p, "tags", state.tags, errors, "text")}</Field>
                <Field id="f-info" label=t().company_form().notes error=error_of(errors, "info")>
                    <textarea id="f-info" rows="3" bind:value=state.info></textarea>
                </Field>
            </div>
            <CustomPropertiesEditor state=state errors=errors />
        </section>
    }
}

/// "Custom properties": one Name / Value row per property (labels above the inputs),
/// "Add property" and "Remove" per row. An empty row is ignored when sending; a blank name
/// or a name used twice is the field error `custom_properties`, shown below the rows
/// (`#f-custom_properties-error`); typing in the rows clears it.
#[component]
fn CustomPropertiesEditor(
    /// The form state.
    state: CompanyFormState,
    /// Field errors by wire path.
    errors: RwSignal<FieldErrors>,
) -> impl IntoView {
    let rows = state.custom_properties;
    let clear = move |_| {
        if errors.with_untracked(|e| e.contains_key("custom_properties")) {
            errors.update(|e| {
                e.remove("custom_properties");
            });
        }
    };
    let add = move |_| {
        rows.update(|r| r.push(PropertyRow::new("", "")));
        clear(());
    };
    view! {
        <div class="custom-properties" id="f-custom_properties" tabindex="-1" role="group"
            aria-labelledby="f-custom_properties-title" aria-describedby="f-custom_properties-error"
            on:input=move |_| clear(())>
            <h3 class="subsection-title" id="f-custom_properties-title">{t().company_form().custom_properties}</h3>
            <For each=move || rows.get() key=|row| row.key let:row>
                {
                    let name_id = format!("f-custom_property-name-{}", row.key);
                    let value_id = format!("f-custom_property-value-{}", row.key);
                    let key = row.key;
                    view! {
                        <div class="form-grid custom-property-row">
                            <Field id=name_id.clone() label=t().company_form().property_name>
                                <input id=name_id class="custom-property-name" type="text" bind:value=row.name
                                    aria-invalid=invalid(errors, "custom_properties") />
                            </Field>
                            <Field id=value_id.clone() label=t().company_form().property_value>
                                <input id=value_id class="custom-property-value" type="text" bind:value=row.value />
                            </Field>
                            <div class="field field-action">
                                <button type="button" class="btn btn-quiet custom-property-remove"
                                    on:click=move |_| { rows.update(|r| r.retain(|x| x.key != key)); clear(()); }>
                                    {t().company_form().remove}
                                </button>
                            </div>
                        </div>
                    }
                }
            </For>
            <p class="field-error" id="f-custom_properties-error" aria-live="polite">
                {move || errors.with(|e| crate::components::field::field_message(e, "custom_properties"))}
            </p>
            <button type="button" class="btn btn-quiet" id="f-custom_properties-add" on:click=add>{t().company_form().add_property}</button>
        </div>
    }
}
