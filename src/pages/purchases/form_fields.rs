//! The field groups of the purchase form: supplier and payment (supplier picker that
//! fills the IBAN, category, payment method, IBAN, reference), receipt (number, title,
//! dates, service period, currency, tags) and the attached document.

use super::form_state::PurchaseFormState;
use crate::components::company_picker::CompanyPicker;
use crate::components::drop_zone::{check_file, read_base64, DropZone};
use crate::components::field::{error_of, field_message, Field};
use crate::i18n::{fill, t};
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
    let tx = t().purchase_form();
    view! {
        <section class="form-section" aria-labelledby="sec-supplier">
            <h2 class="section-title" id="sec-supplier">{tx.sec_supplier}</h2>
            <div class="form-grid">
                <Field id="f-company_id" label=tx.supplier hint=tx.supplier_hint error=error_of(errors, "company_id")>
                    <CompanyPicker id="f-company_id" kind=CompanyType::Supplier value=state.company_id on_pick=on_supplier
                        invalid=Signal::derive(move || errors.with(|e| e.contains_key("company_id"))) />
                </Field>
                <Field id="f-category_id" label=tx.category error=error_of(errors, "category_id")>
                    <select id="f-category_id" on:change=move |ev| state.category_id.set(event_target_value(&ev).parse().ok())>
                        <option value="">{tx.no_category}</option>
                        {categories.with_value(|l| l.iter().map(|c| view! { <option value=c.id.to_string()>{c.name.clone()}</option> }).collect_view())}
                    </select>
                </Field>
                <Field id="f-payment_method" label=tx.payment_method required=true error=error_of(errors, "payment_method")>
                    <select id="f-payment_method" on:change=move |ev| {
                        if let Some(m) = PaymentMethod::parse(&event_target_value(&ev)) { state.payment_method.set(m) }
                    }>
                        {PaymentMethod::ALL.into_iter().map(|m| view! { <option value=m.as_str()>{t().payment_method().get(m.as_str()).unwrap_or(m.label())}</option> }).collect_view()}
                    </select>
                </Field>
                <Field id="f-iban" label=tx.iban error=error_of(errors, "iban")>{text_input("iban", state.iban, "text")}</Field>
                <Field id="f-reference" label=tx.reference error=error_of(errors, "reference")>{text_input("reference", state.reference, "text")}</Field>
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
    let tx = t().purchase_form();
    view! {
        <section class="form-section" aria-labelledby="sec-receipt">
            <h2 class="section-title" id="sec-receipt">{tx.sec_receipt}</h2>
            <div class="form-grid">
                <Field id="f-receipt_identifier" label=tx.receipt_no error=error_of(errors, "receipt_identifier")>{text_input("receipt_identifier", state.receipt_identifier, "text")}</Field>
                <Field id="f-title" label=tx.title hint=tx.title_hint error=error_of(errors, "title")>{text_input("title", state.title, "text")}</Field>
                <Field id="f-date" label=tx.date required=true error=error_of(errors, "date")>{text_input("date", state.date, "date")}</Field>
                <Field id="f-due_date" label=tx.due_date error=error_of(errors, "due_date")>{text_input("due_date", state.due_date, "date")}</Field>
                <Field id="f-service_period_from" label=tx.service_from error=error_of(errors, "service_period_from")>{text_input("service_period_from", state.service_from, "date")}</Field>
                <Field id="f-service_period_to" label=tx.service_to error=error_of(errors, "service_period_to")>{text_input("service_period_to", state.service_to, "date")}</Field>
                <Field id="f-currency" label=tx.currency required=true error=error_of(errors, "currency")>
                    <select id="f-currency" on:change=move |ev| state.currency.set(event_target_value(&ev))>
                        {currencies.with_value(|l| l.iter().map(|c| {
                            let c = c.clone();
                            let sel = state.currency.get_untracked() == c;
                            view! { <option value=c.clone() selected=sel>{c.clone()}</option> }
                        }).collect_view())}
                    </select>
                </Field>
                <Field id="f-tags" label=tx.tags hint=tx.tags_hint error=error_of(errors, "tags")>{text_input("tags", state.tags, "text")}</Field>
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
                e.insert(
                    "file".into(),
                    vec![kontor_model::error::Message::verbatim(problem)],
                );
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
                    x.insert(
                        "file".into(),
                        vec![kontor_model::error::Message::verbatim(e.message)],
                    );
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
            <h2 class="section-title" id="sec-document">{t().purchase_form().sec_document}</h2>
            <DropZone id="f-file" label=t().purchase_form().drop_label on_file=on_file busy=reading />
            <p class="attached" id="attached-name">
                {move || name().map(|n| view! {
                    <span>{fill(t().purchase_form().attached, &[("name", &n)])}</span> " "
                    <button type="button" class="btn btn-small btn-quiet" on:click=move |_| state.file.set(None)>{t().purchase_form().remove}</button>
                })}
            </p>
            <p class="field-error" role="alert">{move || errors.with(|e| field_message(e, "file"))}</p>
        </section>
    }
}
