//! The recurring invoice form: new (`/recurring_invoices/new`) and edit
//! (`/recurring_invoices/:id/edit`). The invoice's fields and positions are the invoice
//! form's (shared widgets from `src/components/`); the schedule replaces its dates. Field
//! errors come from validation on submit and from a 422 (`template.items[0].title` is
//! shown at position 1's title), summarized at the top. Leaving with unsaved changes asks
//! first.

use super::detail::use_recurring_id;
use super::form_state::{form_errors, RecurringFormState, TypedRecurring};
use super::schedule_fields::ScheduleFields;
use crate::api::companies::get_company;
use crate::api::create_or_update;
use crate::api::recurring::{
    create_recurring_invoice, get_recurring_invoice, update_recurring_invoice, NewRecurringInvoice,
    RecurringInvoice,
};
use crate::api::session::get_account;
use crate::api::ApiError;
use crate::components::date::today;
use crate::components::error_panel::loaded_view;
use crate::components::field::localized_errors;
use crate::components::field::{field_message, percent_signal};
use crate::components::form_summary::{
    clear_field_error, scroll_to_summary, ErrorSummary, Form, PositionFormErrors,
};
use crate::components::invoice_fields::{PartyFields, PricingFields, TextFields};
use crate::components::leave_guard::use_snapshot_guard;
use crate::components::local_draft::{use_local_draft, LocalDraftNotice};
use crate::components::position_editor::PositionEditor;
use crate::components::route_record::route_record;
use crate::components::toast::Toasts;
use crate::i18n::t;
use crate::paths::href;
use kontor_model::account::Account;
use kontor_model::error::FieldErrors;
use kontor_model::party::Company;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// Everything the form needs before it can show.
#[derive(Clone)]
pub struct RecurringFormData {
    /// GET /account (currencies, default currency, default texts).
    pub account: Account,
    /// The schedule being edited; `None` for a new one.
    pub record: Option<RecurringInvoice>,
    /// The template's customer.
    pub customer: Option<Company>,
}

async fn load(id: Option<i64>) -> Result<RecurringFormData, ApiError> {
    let record = async {
        match id {
            Some(id) => get_recurring_invoice(id).await.map(Some),
            None => Ok(None),
        }
    };
    let (account, record) = futures::try_join!(get_account(), record)?;
    let customer = match record.as_ref().and_then(|r| r.template.customer_id) {
        Some(id) => get_company(id).await.ok(),
        None => None,
    };
    Ok(RecurringFormData {
        account,
        record,
        customer,
    })
}

/// `/recurring_invoices/new`.
#[component]
pub fn RecurringCreate() -> impl IntoView {
    let data = LocalResource::new(|| load(None));
    form_page(t().recurring().new_recurring, data)
}

/// `/recurring_invoices/:id/edit`.
#[component]
pub fn RecurringEdit() -> impl IntoView {
    let id = use_recurring_id();
    let data = route_record(
        id,
        || t().recurring_detail().bad_address,
        |id| load(Some(id)),
    );
    form_page(t().recurring_form().edit_heading, data)
}

fn form_page(
    title: &'static str,
    data: LocalResource<Result<RecurringFormData, ApiError>>,
) -> impl IntoView {
    loaded_view(
        data,
        12,
        move |d| view! { <RecurringForm title=title data=d /> },
    )
}

/// The form itself, once its data is loaded.
#[component]
pub fn RecurringForm(
    /// The page title.
    title: &'static str,
    /// The account, the customer and (when editing) the schedule.
    data: RecurringFormData,
) -> impl IntoView {
    let RecurringFormData {
        account,
        record,
        customer,
    } = data;
    let toasts = Toasts::use_context();
    let navigate = use_navigate();
    let editing = record.as_ref().map(|r| r.id);
    let state = match &record {
        Some(r) => RecurringFormState::from_record(r),
        None => RecurringFormState::blank(&account.default_currency, today()),
    };
    let invoice = state.invoice;
    if editing.is_none() {
        invoice.default_texts.set(account.document_texts.clone());
    }
    let currencies = StoredValue::new(account.currencies.clone());
    let customer = RwSignal::new(customer);
    let error_state = PositionFormErrors::new();
    let (errors, row_errors, summary) = (error_state.fields, error_state.rows, error_state.summary);
    let guard = use_snapshot_guard(Callback::new(move |_| state.snapshot()));
    // What is typed is kept in the browser until it is saved (issue 37).
    let local = use_local_draft(
        editing
            .map(|id| format!("recurring.{id}"))
            .unwrap_or_else(|| "recurring.new".into()),
        Callback::new(move |_| serde_json::to_value(state.typed()).unwrap_or_default()),
        Callback::new(move |value: serde_json::Value| {
            let Ok(typed) = serde_json::from_value::<TypedRecurring>(value) else {
                return;
            };
            state.restore_typed(&typed);
            match typed.invoice.customer_id {
                Some(id) => leptos::task::spawn_local(async move {
                    if let Ok(c) = get_company(id).await {
                        if invoice.customer_id.get_untracked() == Some(id) {
                            customer.set(Some(c));
                        }
                    }
                }),
                None => customer.set(None),
            }
        }),
    );

    let projects = invoice.customer_projects();

    let show_errors = move |message: String, all: FieldErrors| {
        let rows = invoice.rows.get_untracked();
        error_state.show_all(Form::Recurring, message, &all, &rows);
        scroll_to_summary();
    };

    let save = Action::new_local(move |body: &NewRecurringInvoice| {
        let body = body.clone();
        async move {
            create_or_update(
                editing,
                &body,
                create_recurring_invoice,
                update_recurring_invoice,
            )
            .await
        }
    });
    Effect::new(move |_| match save.value().get() {
        Some(Ok(saved)) => {
            guard.mark_saved();
            local.saved();
            toasts.success(if editing.is_some() {
                t().recurring_form().saved
            } else {
                t().recurring_form().created
            });
            navigate(
                &format!("/recurring_invoices/{}", saved.id),
                Default::default(),
            );
        }
        Some(Err(e)) if e.is_unprocessable() && !e.errors.is_empty() => {
            show_errors(e.message, form_errors(e.errors))
        }
        Some(Err(e)) => error_state.failed(toasts, t().recurring_form().not_saved, e.message),
        None => {}
    });

    let submit = move || {
        let (body, all) = currencies.with_value(|c| state.validate(c));
        if !all.is_empty() {
            show_errors(
                t().recurring_form().correct_fields.into(),
                localized_errors(all),
            );
            return;
        }
        error_state.clear();
        save.dispatch_local(body);
    };
    let pending = save.pending();
    let cancel_href = href(
        &editing
            .map(|id| format!("/recurring_invoices/{id}"))
            .unwrap_or_else(|| "/recurring_invoices".into()),
    );
    let save_label = if editing.is_some() {
        t().common().save
    } else {
        t().recurring_form().create
    };
    let buttons = move || {
        view! {
            <a class="btn btn-quiet" href=cancel_href.clone()>{t().common().cancel}</a>
            <button type="submit" class="btn btn-primary" disabled=move || pending.get()>
                {move || if pending.get() { t().recurring_form().saving } else { save_label }}
            </button>
        }
    };
    let clear_error = move |ev: leptos::ev::Event| clear_field_error(errors, &ev);
    let tax = percent_signal(invoice.tax);
    let discount = percent_signal(invoice.discount);
    view! {
        <form
            class="invoice-form recurring-form"
            novalidate
            on:input=clear_error
            on:change=clear_error
            on:submit=move |ev| {
                ev.prevent_default();
                submit();
            }
        >
            <div class="page-head">
                <h1>{title}</h1>
                <div class="page-actions">{buttons.clone()}</div>
            </div>
            <LocalDraftNotice draft=local />
            <ErrorSummary summary=summary />
            <PartyFields state=invoice errors=errors customer=customer projects=projects currencies=currencies
                title_hint=t().recurring_form().title_hint title_placeholder=t().recurring_form().title_placeholder />
            <ScheduleFields state=state errors=errors />
            <PricingFields state=invoice errors=errors currencies=currencies />
            <section class="form-section" aria-labelledby="sec-items" id="f-items" tabindex="-1">
                <div class="section-head">
                    <h2 class="section-title" id="sec-items">{t().recurring_form().positions}</h2>
                </div>
                <p class="field-error">{move || errors.with(|e| field_message(e, "items"))}</p>
                <PositionEditor
                    rows=invoice.rows
                    currency=invoice.currency
                    discount=discount
                    tax=tax
                    reverse_charge=invoice.reverse_charge
                    row_errors=row_errors
                />
            </section>
            <TextFields state=invoice errors=errors />
            <div class="form-actions">{buttons}</div>
        </form>
    }
}
