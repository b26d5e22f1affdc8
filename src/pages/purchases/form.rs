//! The form for a new purchase (`/purchases/new`), also editing a pending one
//! (`/purchases/{id}/edit`, prefilled, saved with `PUT /purchases/{id}`). Field errors come from
//! `validate_new_purchase` and the form state's own reading (IBAN checksum, numbers) on
//! submit, and from a 422's `errors` (same paths); they show at the field and in a summary
//! at the top. Leaving with unsaved changes asks first.

use super::detail_actions::edit_refusal;
use super::form_fields::{AttachDocument, ReceiptFields, SupplierFields};
use super::form_items::PurchaseItems;
use super::form_state::{PurchaseFormState, TypedPurchase};
use crate::api::create_or_update;
use crate::api::outbox::{create_or_queue, QueueAs, Saved};
use crate::api::purchases::{
    create_purchase, get_purchase, list_purchase_categories, update_purchase,
};
use crate::api::session::get_account;
use crate::api::ApiError;
use crate::components::confirm_dialog::ConfirmDialog;
use crate::components::date::{iso, today};
use crate::components::einvoice_import::EInvoiceImport;
use crate::components::error_panel::loaded_view;
use crate::components::field::field_message;
use crate::components::form_summary::{
    clear_field_error, field_entries, scroll_to_summary, ErrorSummary, Form, SummaryEntry,
};
use crate::components::leave_guard::use_snapshot_guard;
use crate::components::local_draft::{use_local_draft, LocalDraftNotice};
use crate::components::route_record::{route_record, use_route_id};
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use crate::paths::href;
use kontor_model::account::Account;
use kontor_model::error::FieldErrors;
use kontor_model::outbox::OutboxKind;
use kontor_model::purchase::{NewPurchase, Purchase, PurchaseCategory};
use kontor_model::validation::validate_new_purchase;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

#[derive(Clone)]
struct FormData {
    account: Account,
    categories: Vec<PurchaseCategory>,
    /// The purchase being edited (`None`: a new one).
    purchase: Option<Purchase>,
}

/// The outbox list's label of a new purchase: its title, else the receipt number.
fn outbox_label(body: &NewPurchase) -> String {
    body.title
        .as_deref()
        .filter(|t| !t.trim().is_empty())
        .or(body.receipt_identifier.as_deref())
        .unwrap_or_default()
        .to_string()
}

async fn load() -> Result<FormData, ApiError> {
    let (account, categories) = futures::try_join!(get_account(), list_purchase_categories())?;
    Ok(FormData {
        account,
        categories: categories.items,
        purchase: None,
    })
}

/// `/purchases/{id}/edit`: the creation form filled from the purchase; one the model's
/// `purchase_edit_refusal` refuses shows the reason and a link back instead.
#[component]
pub fn PurchaseEdit() -> impl IntoView {
    let id = use_route_id();
    let data = route_record(
        id,
        || t().purchase_form().invalid_address,
        |id| async move {
            let (data, purchase) = futures::try_join!(load(), get_purchase(id))?;
            Ok(FormData {
                purchase: Some(purchase),
                ..data
            })
        },
    );
    loaded_view(data, 12, |d| {
        match d.purchase.as_ref().and_then(|p| edit_refusal(p).map(|reason| (p.id, reason))) {
            Some((id, reason)) => view! {
                <div class="empty-state">
                    <p>{reason}</p>
                    <a class="btn" href=href(&format!("/purchases/{id}"))>{t().purchase_form().back}</a>
                </div>
            }
            .into_any(),
            None => view! { <PurchaseForm data=d /> }.into_any(),
        }
    })
}

/// `/purchases/new`.
#[component]
pub fn PurchaseCreate() -> impl IntoView {
    let data = LocalResource::new(load);
    loaded_view(data, 12, |d| view! { <PurchaseForm data=d /> })
}

/// The form, once its data is loaded.
#[component]
fn PurchaseForm(
    /// Account (currencies) and categories.
    data: FormData,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let navigate = use_navigate();
    let state = match &data.purchase {
        Some(p) => PurchaseFormState::from_purchase(p),
        None => PurchaseFormState::blank(&iso(today()), &data.account.default_currency),
    };
    // Fields the form does not show are sent back unchanged (PUT replaces the purchase).
    let kept = data
        .purchase
        .as_ref()
        .map(|p| (p.id, p.info.clone(), p.custom_properties.clone()));
    let edit_id = kept.as_ref().map(|k| k.0);
    let kept = StoredValue::new(kept);
    let cancel_to = match edit_id {
        Some(id) => format!("/purchases/{id}"),
        None => "/purchases".to_string(),
    };
    let cancel_to = StoredValue::new(href(&cancel_to));
    let currencies = StoredValue::new(data.account.currencies.clone());
    let categories = StoredValue::new(data.categories);
    let errors = RwSignal::new(FieldErrors::new());
    let summary = RwSignal::new(None::<(String, Vec<SummaryEntry>)>);
    let guard = use_snapshot_guard(Callback::new(move |_| state.snapshot()));
    // What is typed is kept in the browser until it is saved (issue 37; not the file).
    let local = use_local_draft(
        edit_id
            .map(|id| format!("purchase.{id}"))
            .unwrap_or_else(|| "purchase.new".into()),
        Callback::new(move |_| serde_json::to_value(state.typed()).unwrap_or_default()),
        Callback::new(move |value: serde_json::Value| {
            if let Ok(typed) = serde_json::from_value::<TypedPurchase>(value) {
                state.restore_typed(&typed);
            }
        }),
    );
    let show = move |message: String, all: FieldErrors| {
        summary.set(Some((message, field_entries(Form::Purchase, &all))));
        errors.set(all);
        scroll_to_summary();
    };
    let duplicate = RwSignal::new(String::new());
    let duplicate_open = RwSignal::new(false);
    let held = StoredValue::new(None::<NewPurchase>);
    // A new purchase (with its receipt) saved while the server cannot be reached waits in
    // the outbox (issue 37).
    let save = Action::new_local(move |body: &NewPurchase| {
        let body = body.clone();
        async move {
            if edit_id.is_none() {
                let queue_as = QueueAs {
                    kind: OutboxKind::Purchase,
                    label: outbox_label(&body),
                    form_name: "purchase.new".into(),
                    form_path: "/purchases/new".into(),
                    form: serde_json::to_value(state.typed()).unwrap_or_default(),
                };
                return create_or_queue(&body, queue_as).await;
            }
            create_or_update(edit_id, &body, create_purchase, update_purchase)
                .await
                .map(Saved::Stored)
        }
    });
    Effect::new(move |_| match save.value().get() {
        Some(Ok(Saved::Queued)) => {
            local.queued(&guard, &toasts);
            navigate("/purchases", Default::default());
        }
        Some(Ok(Saved::Stored(p))) => {
            guard.mark_saved();
            local.saved();
            let text = if edit_id.is_some() {
                t().purchase_form().saved
            } else {
                t().purchase_form().created
            };
            toasts.success(fill(text, &[("identifier", &p.identifier)]));
            navigate(&format!("/purchases/{}", p.id), Default::default());
        }
        // Same supplier and receipt number as another purchase: ask, then resend with
        // `allow_duplicate` (`docs/decisions.md` § Polish (issue 11)).
        Some(Err(e)) if e.status == 409 => {
            duplicate.set(e.message);
            duplicate_open.set(true);
        }
        Some(Err(e)) if !e.errors.is_empty() => show(e.message, e.errors),
        Some(Err(e)) => {
            toasts.error(fill(
                t().purchase_form().not_saved,
                &[("message", &e.message)],
            ));
            summary.set(Some((e.message, Vec::new())));
        }
        None => {}
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let (mut body, read_errors) = state.body();
        kept.with_value(|k| {
            if let Some((_, info, props)) = k {
                body.info = info.clone();
                body.custom_properties = Some(props.clone());
            }
        });
        let mut all = currencies.with_value(|c| validate_new_purchase(&body, c));
        all.extend(read_errors);
        if !all.is_empty() {
            show(t().purchase_form().correct_fields.into(), all);
            return;
        }
        errors.set(FieldErrors::new());
        summary.set(None);
        held.set_value(Some(body.clone()));
        save.dispatch_local(body);
    };
    let save_anyway = Callback::new(move |_| {
        duplicate_open.set(false);
        if let Some(body) = held.get_value() {
            save.dispatch_local(NewPurchase {
                allow_duplicate: Some(true),
                ..body
            });
        }
    });
    let pending = save.pending();
    let buttons = move || {
        view! {
            <a class="btn btn-quiet" href=cancel_to.get_value()>{t().common().cancel}</a>
            <button type="submit" class="btn btn-primary" disabled=move || pending.get()>
                {move || match (pending.get(), edit_id.is_some()) {
                    (true, _) => t().purchase_form().saving,
                    (false, true) => t().purchase_form().save,
                    (false, false) => t().purchase_form().create,
                }}
            </button>
        }
    };
    view! {
        <form
            class="purchase-form"
            novalidate
            on:submit=submit
            on:input=move |ev| clear_field_error(errors, &ev)
            on:change=move |ev| clear_field_error(errors, &ev)
        >
            <div class="page-head">
                <h1>{if edit_id.is_some() { t().purchase_form().edit_title } else { t().purchase_form().new_title }}</h1>
                <div class="page-actions">{buttons}</div>
            </div>
            <LocalDraftNotice draft=local />
            <ErrorSummary summary=summary />
            <EInvoiceImport id="f-einvoice" label=t().purchase_form().einvoice_label />
            <SupplierFields state=state errors=errors categories=categories />
            <ReceiptFields state=state errors=errors currencies=currencies />
            <section class="form-section" aria-labelledby="sec-items" id="f-items">
                <h2 class="section-title" id="sec-items">{t().purchase_form().positions}</h2>
                <p class="field-error">{move || errors.with(|e| field_message(e, "items"))}</p>
                <PurchaseItems state=state errors=errors />
            </section>
            <AttachDocument state=state errors=errors />
            <div class="form-actions">{buttons}</div>
            <ConfirmDialog open=duplicate_open title=t().purchase_form().duplicate_title
                text=Signal::derive(move || fill(t().purchase_form().duplicate_text, &[("message", &duplicate.get())]))
                confirm_label=t().purchase_form().save_anyway confirm_id="duplicate-save" pending=pending
                on_confirm=save_anyway />
        </form>
    }
}
