//! The field groups of the purchase form: supplier and payment (supplier picker that
//! fills the IBAN, category, payment method, IBAN, reference), receipt (number, title,
//! dates, service period, currency, tags) and the attached document.

use super::form_state::PurchaseFormState;
use crate::components::company_picker::CompanyPicker;
use crate::components::drop_zone::{check_file, read_base64, DropZone};
use crate::components::field::{error_of, field_message, Field};
use kontor_model::error::FieldErrors;
use kontor_model::offer::FileUpload;
use kontor_model::party::{Company, CompanyType};
use kontor_model::purchase::{PaymentMethod, PurchaseCategory};
use leptos::prelude::*;
use leptos::task::spawn_local;
use send_wrapper::SendWrapper;

/// A text input bound to `value`, with the id `f-<path>`.
fn text_input(path: &'static str, value: RwSignal<String>, kind: &'static str) -> impl IntoView {
    view! { <input id=format!("f-{path}") type=kind bind:value=value /> }
}

/// Supplier, category, payment method, IBAN and reference.
#[component]
pub fn SupplierFields(
    /// The form state.
    state: PurchaseFormState,
    /// Field errors by path.
    errors: RwSignal<FieldErrors>,
    /// Categories to choose from.
    categories: StoredValue<Vec<PurchaseCategory>>,
) -> impl IntoView {
    let on_supplier = Callback::new(move |picked: Option<Company>| {
        state.company_id.set(picked.as_ref().map(|c| c.id));
        state.apply_supplier_iban(picked.and_then(|c| c.iban).as_deref());
    });
    view! {
        <section class="form-section" aria-labelledby="sec-supplier">
            <h2 class="section-title" id="sec-supplier">"Supplier and payment"</h2>
            <div class="form-grid">
                <Field id="f-company_id" label="Supplier" hint="Empty: without supplier." error=error_of(errors, "company_id")>
                    <CompanyPicker id="f-company_id" kind=CompanyType::Supplier value=state.company_id on_pick=on_supplier
                        invalid=Signal::derive(move || errors.with(|e| e.contains_key("company_id"))) />
                </Field>
                <Field id="f-category_id" label="Category" error=error_of(errors, "category_id")>
                    <select id="f-category_id" on:change=move |ev| state.category_id.set(event_target_value(&ev).parse().ok())>
                        <option value="">"No category"</option>
                        {categories.with_value(|l| l.iter().map(|c| view! { <option value=c.id.to_string()>{c.name.clone()}</option> }).collect_view())}
                    </select>
                </Field>
                <Field id="f-payment_method" label="Payment method" required=true error=error_of(errors, "payment_method")>
                    <select id="f-payment_method" on:change=move |ev| {
                        if let Some(m) = PaymentMethod::parse(&event_target_value(&ev)) { state.payment_method.set(m) }
                    }>
                        {PaymentMethod::ALL.into_iter().map(|m| view! { <option value=m.as_str()>{m.label()}</option> }).collect_view()}
                    </select>
                </Field>
                <Field id="f-iban" label="IBAN" error=error_of(errors, "iban")>{text_input("iban", state.iban, "text")}</Field>
                <Field id="f-reference" label="Payment reference" error=error_of(errors, "reference")>{text_input("reference", state.reference, "text")}</Field>
            </div>
        </section>
    }
}

/// Receipt number, title, dates, service period, currency and tags.
#[component]
pub fn ReceiptFields(
    /// The form state.
    state: PurchaseFormState,
    /// Field errors by path.
    errors: RwSignal<FieldErrors>,
    /// The account's currencies.
    currencies: StoredValue<Vec<String>>,
) -> impl IntoView {
    view! {
        <section class="form-section" aria-labelledby="sec-receipt">
            <h2 class="section-title" id="sec-receipt">"Receipt"</h2>
            <div class="form-grid">
                <Field id="f-receipt_identifier" label="Receipt no." error=error_of(errors, "receipt_identifier")>{text_input("receipt_identifier", state.receipt_identifier, "text")}</Field>
                <Field id="f-title" label="Title" hint="Default: the first position's title" error=error_of(errors, "title")>{text_input("title", state.title, "text")}</Field>
                <Field id="f-date" label="Date" required=true error=error_of(errors, "date")>{text_input("date", state.date, "date")}</Field>
                <Field id="f-due_date" label="Due date" error=error_of(errors, "due_date")>{text_input("due_date", state.due_date, "date")}</Field>
                <Field id="f-service_period_from" label="Service from" error=error_of(errors, "service_period_from")>{text_input("service_period_from", state.service_from, "date")}</Field>
                <Field id="f-service_period_to" label="Service to" error=error_of(errors, "service_period_to")>{text_input("service_period_to", state.service_to, "date")}</Field>
                <Field id="f-currency" label="Currency" required=true error=error_of(errors, "currency")>
                    <select id="f-currency" on:change=move |ev| state.currency.set(event_target_value(&ev))>
                        {currencies.with_value(|l| l.iter().map(|c| {
                            let c = c.clone();
                            let sel = state.currency.get_untracked() == c;
                            view! { <option value=c.clone() selected=sel>{c.clone()}</option> }
                        }).collect_view())}
                    </select>
                </Field>
                <Field id="f-tags" label="Tags" hint="Comma-separated" error=error_of(errors, "tags")>{text_input("tags", state.tags, "text")}</Field>
            </div>
        </section>
    }
}

/// The receipt document sent with the purchase (picked or dropped, read as base64).
#[component]
pub fn AttachDocument(
    /// The form state (its `file`).
    state: PurchaseFormState,
    /// Field errors by path (`file`).
    errors: RwSignal<FieldErrors>,
) -> impl IntoView {
    let reading = RwSignal::new(false);
    let on_file = Callback::new(move |file: SendWrapper<web_sys::File>| {
        if let Some(problem) = check_file(&file) {
            errors.update(|e| {
                e.insert("file".into(), vec![problem]);
            });
            return;
        }
        errors.update(|e| {
            e.remove("file");
        });
        reading.set(true);
        spawn_local(async move {
            let result = read_base64(&file).await;
            reading.set(false);
            match result {
                Ok(b64) => state.file.set(Some(FileUpload {
                    filename: Some(file.name()),
                    base64: Some(b64),
                })),
                Err(e) => errors.update(|x| {
                    x.insert("file".into(), vec![e.message]);
                }),
            }
        });
    });
    let name = move || {
        state
            .file
            .with(|f| f.as_ref().and_then(|f| f.filename.clone()))
    };
    view! {
        <section class="form-section" aria-labelledby="sec-document">
            <h2 class="section-title" id="sec-document">"Receipt document"</h2>
            <DropZone id="f-file" label="Drop the receipt (PDF, PNG or JPEG, up to 10 MiB) here" on_file=on_file busy=reading />
            <p class="attached" id="attached-name">
                {move || name().map(|n| view! {
                    <span>{format!("Attached: {n}")}</span> " "
                    <button type="button" class="btn btn-small btn-quiet" on:click=move |_| state.file.set(None)>"Remove"</button>
                })}
            </p>
            <p class="field-error" role="alert">{move || errors.with(|e| field_message(e, "file"))}</p>
        </section>
    }
}
