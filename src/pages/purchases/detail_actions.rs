//! The actions of a purchase: edit (while the model's `purchase_edit_refusal` allows it),
//! approve (for an e-invoice with a formal or content defect: an admin's override with a
//! reason, issue 36) or back to pending, and delete — offered only while
//! it is pending without payments, after a confirmation that says what happens.

use crate::api::purchases::{delete_purchase, update_purchase_status};
use crate::components::dialog::Dialog;
use crate::components::field::Field;
use crate::components::frame::admin_state;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use crate::paths::href;
use kontor_model::edit::purchase_edit_refusal;
use kontor_model::purchase::{Purchase, PurchaseStatus};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// Why `purchase` cannot be edited, in the user's language (the model's
/// `purchase_edit_refusal` decides); `None` when it can.
pub fn edit_refusal(purchase: &Purchase) -> Option<&'static str> {
    purchase_edit_refusal(purchase.status).map(|_| t().purchase_actions().edit_refused_approved)
}

/// Whether the rules allow deleting `purchase`: pending and no payments.
pub fn can_delete_purchase(purchase: &Purchase) -> bool {
    purchase.status == PurchaseStatus::Pending && purchase.payments.is_empty()
}

/// The action buttons of a purchase, with the delete dialog.
#[component]
pub fn PurchaseActions(
    /// The purchase acted on.
    purchase: Purchase,
    /// Called after a successful status change.
    on_changed: Callback<()>,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let navigate = use_navigate();
    let id = purchase.id;
    let name = purchase.identifier.clone();
    let target = match purchase.status {
        PurchaseStatus::Pending => PurchaseStatus::Approved,
        PurchaseStatus::Approved => PurchaseStatus::Pending,
    };
    let change = Action::new_local(move |(to, reason): &(PurchaseStatus, Option<String>)| {
        let (to, reason) = (*to, reason.clone());
        async move { update_purchase_status(id, to, reason).await }
    });
    // Issue 36: an e-invoice with a formal or content defect is approved only by an admin
    // giving a reason (the model's `approval_refusal`; the server decides again).
    let held = target == PurchaseStatus::Approved
        && purchase
            .einvoice_check
            .as_ref()
            .is_some_and(|c| c.holds_approval());
    let admin = admin_state();
    let override_open = RwSignal::new(false);
    let reason = RwSignal::new(String::new());
    let override_error = RwSignal::new(None::<String>);
    Effect::new(move |_| match change.value().get() {
        Some(Ok(p)) => {
            override_open.set(false);
            let text = match p.status {
                PurchaseStatus::Approved => t().purchase_actions().now_approved,
                PurchaseStatus::Pending => t().purchase_actions().now_pending,
            };
            toasts.success(fill(text, &[("identifier", &p.identifier)]));
            on_changed.run(());
        }
        Some(Err(e)) if override_open.get_untracked() => override_error.set(Some(e.message)),
        Some(Err(e)) => toasts.error(fill(
            t().purchase_actions().status_failed,
            &[("message", &e.message)],
        )),
        None => {}
    });
    let deletable = can_delete_purchase(&purchase);
    let editable = purchase_edit_refusal(purchase.status).is_none();
    let open = RwSignal::new(false);
    let failure = RwSignal::new(None::<String>);
    let delete = Action::new_local(move |_: &()| async move { delete_purchase(id).await });
    let name_ = name.clone();
    Effect::new(move |_| match delete.value().get() {
        Some(Ok(())) => {
            open.set(false);
            toasts.success(fill(
                t().purchase_actions().deleted,
                &[("identifier", &name_)],
            ));
            navigate("/purchases", Default::default());
        }
        Some(Err(e)) => failure.set(Some(e.message)),
        None => {}
    });
    let pending = change.pending();
    let deleting = delete.pending();
    let (label, class) = match target {
        PurchaseStatus::Approved => (t().purchase_actions().approve, "btn btn-primary"),
        PurchaseStatus::Pending => (t().purchase_actions().back_to_pending, "btn"),
    };
    view! {
        <div class="page-actions">
            {editable.then(|| view! {
                <a class="btn" id="purchase-edit" href=href(&format!("/purchases/{id}/edit"))>{t().common().edit}</a>
            })}
            <button type="button" class=class id="purchase-status" disabled=move || pending.get()
                on:click=move |_| {
                    if held {
                        override_error.set(None);
                        override_open.set(true);
                    } else {
                        change.dispatch_local((target, None));
                    }
                }>
                {label}
            </button>
            {deletable.then(|| view! {
                <button type="button" class="btn btn-danger-quiet" id="purchase-delete"
                    on:click=move |_| { failure.set(None); open.set(true); }>
                    {t().common().delete}
                </button>
            })}
        </div>
        <Dialog open=override_open title=t().purchase_actions().override_title.to_string()>
            <p>{t().purchase_actions().override_text}</p>
            {move || if admin.get().unwrap_or(false) {
                view! {
                    <Field id="override-reason" label=t().purchase_actions().override_reason required=true
                        error=Signal::derive(move || override_error.get())>
                        <textarea id="override-reason" rows="3" prop:value=move || reason.get()
                            on:input=move |ev| reason.set(event_target_value(&ev))></textarea>
                    </Field>
                    <div class="dialog-actions">
                        <button type="button" class="btn" on:click=move |_| override_open.set(false)>{t().common().cancel}</button>
                        <button type="button" class="btn btn-primary" id="override-approve"
                            disabled=move || pending.get() || reason.get().trim().is_empty()
                            on:click=move |_| { change.dispatch_local((target, Some(reason.get_untracked()))); }>
                            {t().purchase_actions().override_approve}
                        </button>
                    </div>
                }.into_any()
            } else {
                view! {
                    <p class="field-error" role="alert">{t().purchase_actions().override_admin_only}</p>
                    <div class="dialog-actions">
                        <button type="button" class="btn" on:click=move |_| override_open.set(false)>{t().common().cancel}</button>
                    </div>
                }.into_any()
            }}
        </Dialog>
        <Dialog open=open title=fill(t().purchase_actions().delete_title, &[("identifier", &name)])>
            <p>{t().purchase_actions().delete_text}</p>
            <p class="field-error" role="alert">{move || failure.get()}</p>
            <div class="dialog-actions">
                <button type="button" class="btn" on:click=move |_| open.set(false)>{t().common().cancel}</button>
                <button type="button" class="btn btn-danger" disabled=move || deleting.get()
                    on:click=move |_| { delete.dispatch_local(()); }>
                    {t().purchase_actions().delete_purchase}
                </button>
            </div>
        </Dialog>
    }
}
