//! The actions of a purchase: edit (while the model's `purchase_edit_refusal` allows it),
//! approve or back to pending, and delete — offered only while
//! it is pending without payments, after a confirmation that says what happens.

use crate::api::purchases::{delete_purchase, update_purchase_status};
use crate::components::dialog::Dialog;
use crate::components::toast::Toasts;
use crate::paths::href;
use kontor_model::edit::purchase_edit_refusal;
use kontor_model::purchase::{Purchase, PurchaseStatus};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

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
    let change = Action::new_local(move |to: &PurchaseStatus| {
        let to = *to;
        async move { update_purchase_status(id, to).await }
    });
    Effect::new(move |_| match change.value().get() {
        Some(Ok(p)) => {
            toasts.success(format!(
                "{} is now {}.",
                p.identifier,
                p.status.label().to_lowercase()
            ));
            on_changed.run(());
        }
        Some(Err(e)) => toasts.error(format!("The status could not be changed: {}", e.message)),
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
            toasts.success(format!("Deleted purchase {name_}."));
            navigate("/purchases", Default::default());
        }
        Some(Err(e)) => failure.set(Some(e.message)),
        None => {}
    });
    let pending = change.pending();
    let deleting = delete.pending();
    let (label, class) = match target {
        PurchaseStatus::Approved => ("Approve", "btn btn-primary"),
        PurchaseStatus::Pending => ("Back to pending", "btn"),
    };
    view! {
        <div class="page-actions">
            {editable.then(|| view! {
                <a class="btn" id="purchase-edit" href=href(&format!("/purchases/{id}/edit"))>"Edit"</a>
            })}
            <button type="button" class=class id="purchase-status" disabled=move || pending.get()
                on:click=move |_| { change.dispatch_local(target); }>
                {label}
            </button>
            {deletable.then(|| view! {
                <button type="button" class="btn btn-danger-quiet" id="purchase-delete"
                    on:click=move |_| { failure.set(None); open.set(true); }>
                    "Delete"
                </button>
            })}
        </div>
        <Dialog open=open title=format!("Delete purchase {name}?")>
            <p>"The purchase, its positions and its document are removed. This cannot be undone."</p>
            <p class="field-error" role="alert">{move || failure.get()}</p>
            <div class="dialog-actions">
                <button type="button" class="btn" on:click=move |_| open.set(false)>"Cancel"</button>
                <button type="button" class="btn btn-danger" disabled=move || deleting.get()
                    on:click=move |_| { delete.dispatch_local(()); }>
                    "Delete purchase"
                </button>
            </div>
        </Dialog>
    }
}
