//! The invoice form for a new invoice (`/invoices/new`) and for editing a draft
//! (`/invoices/:id/edit`). Field errors come from the shared validation on submit and from
//! a 422's `errors` (same paths), shown at the field and summarized at the top. Leaving
//! with unsaved changes asks first.

use super::detail::use_invoice_id;
use super::form_billing::BillTimeAndExpenses;
use super::form_from_offer;
use super::form_preview::LivePreview;
use crate::api::companies::get_company;
use crate::api::create_or_update;
use crate::api::einvoices::get_invoice_readiness;
use crate::api::invoices::{create_invoice, get_invoice, update_invoice};
use crate::api::outbox::{create_or_queue, QueueAs, Saved};
use crate::api::session::get_account;
use crate::api::ApiError;
use crate::components::confirm_dialog::{finalize_text, finalize_title, ConfirmDialog};
use crate::components::down_payment_fields::KindFields;
use crate::components::einvoice_missing::MissingDialog;
use crate::components::error_panel::loaded_view;
use crate::components::field::percent_signal;
use crate::components::form_summary::{
    clear_field_error, scroll_to_summary, ErrorSummary, Form, PositionFormErrors,
};
use crate::components::invoice_fields::{DateFields, PartyFields, PricingFields, TextFields};
use crate::components::invoice_form_state::{InvoiceFormState, TypedInvoice};
use crate::components::leave_guard::use_snapshot_guard;
use crate::components::local_draft::{use_local_draft, LocalDraftNotice};
use crate::components::position_editor::{split_row_errors, PositionEditor};
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use crate::paths::href;
use kontor_model::account::Account;
use kontor_model::down_payment_share::Share;
use kontor_model::einvoice::MissingField;
use kontor_model::error::FieldErrors;
use kontor_model::invoice::Invoice;
use kontor_model::invoice_input::NewInvoice;
use kontor_model::outbox::OutboxKind;
use kontor_model::party::Company;
use kontor_model::status::InvoiceStatus;
use kontor_model::validation::validate_new_invoice;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// The share of an offer a new down-payment invoice bills (from the page's query).
#[derive(Clone, Copy)]
struct DownPaymentShare(Option<Share>);

/// Everything the form needs before it can show.
#[derive(Clone)]
struct FormData {
    account: Account,
    /// The customer of the draft or offer the form starts from.
    customer: Option<Company>,
    invoice: Option<Invoice>,
    offer: Option<kontor_model::offer::Offer>,
}

async fn load(id: Option<i64>) -> Result<FormData, ApiError> {
    load_from(id, None, None).await
}

/// `customer`: the customer to start with (`/invoices/new?customer_id=`, from the
/// customer's page).
async fn load_from(
    id: Option<i64>,
    from_offer: Option<i64>,
    customer: Option<i64>,
) -> Result<FormData, ApiError> {
    let invoice = async {
        match id {
            Some(id) => get_invoice(id).await.map(Some),
            None => Ok(None),
        }
    };
    let (account, invoice, offer) = futures::try_join!(
        get_account(),
        invoice,
        form_from_offer::load_offer(from_offer)
    )?;
    let customer_id = invoice
        .as_ref()
        .map(|i| i.customer_id)
        .or_else(|| {
            offer
                .as_ref()
                .and_then(|o| o.company.as_ref().map(|c| c.id))
        })
        .or(customer);
    let customer = match customer_id {
        Some(id) => get_company(id).await.ok(),
        None => None,
    };
    Ok(FormData {
        account,
        customer,
        invoice,
        offer,
    })
}

/// `/invoices/new` (`?from_offer=<id>` starts from an offer, `?customer_id=<id>` with a
/// customer).
#[component]
pub fn InvoiceCreate() -> impl IntoView {
    let query = leptos_router::hooks::use_query_map();
    let number = |name: &str| query.with_untracked(|q| q.get(name).and_then(|v| v.parse().ok()));
    let (from_offer, customer) = (number("from_offer"), number("customer_id"));
    let data = LocalResource::new(move || load_from(None, from_offer, customer));
    // "Create down-payment invoice" on an offer (issue 33): `down_payment_percent` or
    // `down_payment_net` say the share.
    let decimal = |name: &str| {
        query.with_untracked(|q| {
            q.get(name)
                .and_then(|v| v.parse::<kontor_model::Decimal>().ok())
        })
    };
    let share = decimal("down_payment_percent")
        .map(Share::Percent)
        .or_else(|| decimal("down_payment_net").map(Share::Net));
    provide_context(DownPaymentShare(share));
    form_page(t().invoice_form().new_invoice, data)
}

/// `/invoices/:id/edit` (drafts only).
#[component]
pub fn InvoiceEdit() -> impl IntoView {
    let id = use_invoice_id();
    let data = LocalResource::new(move || load(id.get()));
    form_page(t().invoice_form().edit_draft, data)
}

fn form_page(
    title: &'static str,
    data: LocalResource<Result<FormData, ApiError>>,
) -> impl IntoView {
    loaded_view(data, 12, move |d| {
        let not_draft = d
            .invoice
            .as_ref()
            .filter(|inv| inv.status != InvoiceStatus::Draft);
        match not_draft.map(|inv| inv.id) {
            Some(id) => view! {
                <div class="empty-state">
                    <p>{t().invoice_form().only_drafts}</p>
                    <a class="btn" href=href(&format!("/invoices/{id}"))>{t().invoice_form().back_to_invoice}</a>
                </div>
            }
            .into_any(),
            None => view! { <InvoiceForm title=title data=d /> }.into_any(),
        }
    })
}

/// The form itself, once its data is loaded.
#[component]
fn InvoiceForm(
    /// The page title ("New invoice", "Edit draft").
    title: &'static str,
    /// The account, the customer and (when editing) the draft.
    data: FormData,
) -> impl IntoView {
    let FormData {
        account,
        customer,
        invoice,
        offer,
    } = data;
    let toasts = Toasts::use_context();
    let navigate = use_navigate();
    let editing = invoice.as_ref().map(|i| i.id);
    let state = match &invoice {
        Some(inv) => InvoiceFormState::from_invoice(inv),
        None => InvoiceFormState::blank(&account.default_currency),
    };
    if editing.is_none() {
        state.default_texts.set(account.document_texts.clone());
    }
    if let Some(offer) = &offer {
        form_from_offer::apply_offer(&state, offer);
        let share = use_context::<DownPaymentShare>().and_then(|s| s.0);
        let language = customer.as_ref().map(|c| c.language).unwrap_or_default();
        form_from_offer::apply_down_payment(&state, offer, share, language);
        // The offer brings its customer; the customer's payment term and Skonto still
        // apply to the invoice (issue 29).
        if let Some(c) = customer
            .as_ref()
            .filter(|c| Some(c.id) == state.customer_id.get_untracked())
        {
            state.apply_customer_terms(c);
        }
    }
    if let (None, Some(c)) = (state.customer_id.get_untracked(), &customer) {
        state.customer_id.set(Some(c.id));
        state.apply_customer(c, &account.currencies);
    }
    let currencies = StoredValue::new(account.currencies.clone());
    let customer = RwSignal::new(customer);
    let error_state = PositionFormErrors::new();
    let (errors, row_errors, summary) = (error_state.fields, error_state.rows, error_state.summary);
    let guard = use_snapshot_guard(Callback::new(move |_| state.snapshot()));
    // What is typed is kept in the browser until it is saved (issue 34).
    let local = use_local_draft(
        editing
            .map(|id| format!("invoice.{id}"))
            .unwrap_or_else(|| "invoice.new".into()),
        Callback::new(move |_| serde_json::to_value(state.typed()).unwrap_or_default()),
        Callback::new(move |value: serde_json::Value| {
            let Ok(typed) = serde_json::from_value::<TypedInvoice>(value) else {
                return;
            };
            state.restore_typed(&typed);
            match typed.customer_id {
                Some(id) => leptos::task::spawn_local(async move {
                    if let Ok(c) = get_company(id).await {
                        if state.customer_id.get_untracked() == Some(id) {
                            customer.set(Some(c));
                        }
                    }
                }),
                None => customer.set(None),
            }
        }),
    );

    let projects = state.customer_projects();
    let extra_term = Signal::derive(move || {
        customer.with(|c| {
            c.as_ref()
                .and_then(|c| c.default_invoice_due_days.or(c.payment_term_days))
        })
    });

    let show_errors = move |message: String, all: FieldErrors| {
        let rows = state.rows.get_untracked();
        let (mut fields, by_row) = split_row_errors(&all, &rows);
        let tag_messages: Vec<kontor_model::error::Message> = fields
            .iter()
            .filter(|(k, _)| k.starts_with("tags["))
            .flat_map(|(_, v)| v.clone())
            .collect();
        if !tag_messages.is_empty() {
            fields.retain(|k, _| !k.starts_with("tags["));
            fields.insert("tags".into(), tag_messages);
        }
        error_state.show(Form::Invoice, message, fields, by_row, &rows);
        scroll_to_summary();
    };

    // One request per save: editing a draft with `status: created` finalizes it in the
    // same request and transaction (PUT /invoices/{id}, `docs/decisions.md` § Invoices).
    // A new draft saved while the server cannot be reached waits in the outbox (issue 37);
    // finalizing needs the server (numbers stay gap-free).
    let save = Action::new_local(move |body: &NewInvoice| {
        let body = body.clone();
        async move {
            if editing.is_none() && body.status == Some(InvoiceStatus::Draft) {
                let queue_as = QueueAs {
                    kind: OutboxKind::Invoice,
                    label: customer
                        .with_untracked(|c| c.as_ref().map(|c| c.name.clone()))
                        .unwrap_or_default(),
                    form_name: "invoice.new".into(),
                    form_path: "/invoices/new".into(),
                    form: serde_json::to_value(state.typed()).unwrap_or_default(),
                };
                return create_or_queue(&body, queue_as).await;
            }
            create_or_update(editing, &body, create_invoice, update_invoice)
                .await
                .map(Saved::Stored)
        }
    });
    Effect::new(move |_| match save.value().get() {
        Some(Ok(Saved::Queued)) => {
            local.queued(&guard, &toasts);
            navigate("/invoices", Default::default());
        }
        Some(Ok(Saved::Stored(saved))) => {
            guard.mark_saved();
            local.saved();
            let done = match (&saved.identifier, editing) {
                (Some(n), None) => fill(t().invoice_form().created, &[("number", n)]),
                (Some(n), Some(_)) => fill(t().invoice_form().finalized, &[("number", n)]),
                (None, _) => t().invoice_form().draft_saved.to_string(),
            };
            toasts.success(done);
            navigate(&format!("/invoices/{}", saved.id), Default::default());
        }
        Some(Err(e)) if e.is_unprocessable() && !e.errors.is_empty() => {
            show_errors(e.message, e.errors)
        }
        Some(Err(e)) => error_state.failed(toasts, t().form_common().not_saved, e.message),
        None => {}
    });

    // Finalizing a stored draft: its edits are stored as the draft first, then the server
    // says what an e-invoice of it still lacks; with gaps the missing fields are shown
    // ("Finalize anyway", or blocked for XRechnung customers), else it is finalized.
    let missing = RwSignal::new(Vec::<MissingField>::new());
    let missing_open = RwSignal::new(false);
    let held = StoredValue::new(None::<NewInvoice>);
    let check = Action::new_local(move |body: &NewInvoice| {
        let body = body.clone();
        async move {
            let Some(id) = editing else {
                return Ok((body, Vec::new()));
            };
            let draft = NewInvoice {
                status: Some(InvoiceStatus::Draft),
                ..body.clone()
            };
            update_invoice(id, &draft).await?;
            // The check is advice: when it cannot run, finalizing goes ahead (the server
            // still refuses what XRechnung customers must not get).
            let gaps = get_invoice_readiness(id)
                .await
                .map(|r| r.missing_before_finalizing())
                .unwrap_or_default();
            Ok::<_, ApiError>((body, gaps))
        }
    });
    Effect::new(move |_| match check.value().get() {
        Some(Ok((body, gaps))) => {
            if gaps.is_empty() {
                save.dispatch_local(body);
            } else {
                guard.mark_saved();
                held.set_value(Some(body));
                missing.set(gaps);
                missing_open.set(true);
            }
        }
        Some(Err(e)) if e.is_unprocessable() && !e.errors.is_empty() => {
            show_errors(e.message, e.errors)
        }
        Some(Err(e)) => error_state.failed(toasts, t().form_common().not_saved, e.message),
        None => {}
    });
    let xrechnung_customer = Signal::derive(move || {
        customer.with(|c| c.as_ref().is_some_and(|c| c.einvoice_format.is_xrechnung()))
    });
    let customer_of_draft = Signal::derive(move || state.customer_id.get().unwrap_or_default());

    let finalize_open = RwSignal::new(false);
    let finalize_confirmed = RwSignal::new(false);
    let backdated = RwSignal::new(None::<String>);
    // `finalize`: the invoice must be complete (validated as `created`).
    let submit = move |finalize: bool| {
        let (body, parse_errors) = state.body(if finalize {
            InvoiceStatus::Created
        } else {
            InvoiceStatus::Draft
        });
        let mut all = currencies.with_value(|c| validate_new_invoice(&body, c));
        all.extend(parse_errors);
        if !all.is_empty() {
            show_errors(t().form_common().correct_fields.into(), all);
            return;
        }
        error_state.clear();
        // A number is assigned only after the same question "Finalize" asks.
        if finalize && !finalize_confirmed.get_untracked() {
            let date =
                chrono::NaiveDate::parse_from_str(&state.date.get_untracked(), "%Y-%m-%d").ok();
            crate::components::backdating::load_backdated_warning(date, backdated);
            finalize_open.set(true);
            return;
        }
        finalize_confirmed.set(false);
        finalize_open.set(false);
        if finalize && editing.is_some() {
            check.dispatch_local(body);
        } else {
            save.dispatch_local(body);
        }
    };
    let saving = save.pending();
    let checking = check.pending();
    let pending = Signal::derive(move || saving.get() || checking.get());
    let cancel_href = href(
        &editing
            .map(|id| format!("/invoices/{id}"))
            .unwrap_or_else(|| "/invoices".into()),
    );
    let (draft_label, final_label) = if editing.is_some() {
        (
            t().invoice_form().save_draft,
            t().invoice_form().save_and_finalize,
        )
    } else {
        (
            t().invoice_form().save_as_draft,
            t().invoice_form().create_invoice,
        )
    };
    let buttons = move || {
        view! {
            <a class="btn btn-quiet" href=cancel_href.clone()>{t().common().cancel}</a>
            <button type="button" class="btn" disabled=move || pending.get() on:click=move |_| submit(false)>
                {draft_label}
            </button>
            <button type="submit" class="btn btn-primary" disabled=move || pending.get()>
                {move || if pending.get() { t().form_common().saving } else { final_label }}
            </button>
        }
    };
    let clear_error = move |ev: leptos::ev::Event| clear_field_error(errors, &ev);
    let tax = percent_signal(state.tax);
    let discount = percent_signal(state.discount);
    let preview_shown = RwSignal::new(true);
    view! {
        <form
            class="invoice-form"
            class:has-preview=move || preview_shown.get()
            novalidate
            on:input=clear_error
            on:change=clear_error
            on:submit=move |ev| {
                ev.prevent_default();
                submit(true);
            }
        >
            <div class="page-head">
                <h1>{title}</h1>
                <div class="page-actions">{buttons.clone()}</div>
            </div>
            <LocalDraftNotice draft=local />
            <ErrorSummary summary=summary />
            <PartyFields state=state errors=errors customer=customer projects=projects currencies=currencies />
            <KindFields state=state errors=errors editing=editing />
            <DateFields state=state errors=errors extra_term=extra_term />
            <PricingFields state=state errors=errors currencies=currencies />
            <section class="form-section" aria-labelledby="sec-items" id="f-items" tabindex="-1">
                <div class="section-head">
                    <h2 class="section-title" id="sec-items">{t().invoice_form().positions}</h2>
                    <BillTimeAndExpenses state=state />
                </div>
                <p class="field-error">{move || errors.with(|e| crate::components::field::field_message(e, "items"))}</p>
                <PositionEditor
                    rows=state.rows
                    currency=state.currency
                    discount=discount
                    tax=tax
                    reverse_charge=state.reverse_charge
                    row_errors=row_errors
                />
            </section>
            <LivePreview state=state shown=preview_shown />
            <TextFields state=state errors=errors />
            <div class="form-actions">{buttons}</div>
        </form>
        <ConfirmDialog open=finalize_open title=finalize_title() text=finalize_text() warning=backdated
            confirm_label=final_label.to_string() confirm_id="finalize-confirm" pending=pending
            on_confirm=Callback::new(move |_| { finalize_confirmed.set(true); submit(true); }) />
        {editing.map(|id| view! {
            <MissingDialog open=missing_open missing=missing customer_id=customer_of_draft invoice_id=id
                blocked=xrechnung_customer pending=pending
                on_finalize=Callback::new(move |_| {
                    if let Some(body) = held.get_value() {
                        save.dispatch_local(body);
                    }
                }) />
        })}
    }
}
