//! The edit, delete and copy actions of an offer (issue 11 § Edit, delete, copy): "Edit"
//! while the model's `offer_edit_refusal` allows it (created or sent), "Delete" while
//! `offer_delete_refusal` allows it (created; after a confirmation, back to the list) and
//! "Copy" always (the new offer opens in its edit page).

use crate::api::offers::{copy_offer, delete_offer};
use crate::components::confirm_dialog::ConfirmDialog;
use crate::components::task::Task;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use crate::paths::href;
use kontor_model::edit::{offer_delete_refusal, offer_edit_refusal};
use kontor_model::offer::Offer;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// "Edit", "Copy" and "Delete" for `offer`.
#[component]
pub fn OfferEditActions(
    /// The offer acted on.
    offer: Offer,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let navigate = use_navigate();
    let id = offer.id;
    let editable = offer_edit_refusal(offer.status).is_none();
    let deletable = offer_delete_refusal(offer.status).is_none();
    let copying = Task::new();
    let nav = navigate.clone();
    let copy = move |_| {
        let nav = nav.clone();
        copying.run(copy_offer(id), move |r| match r {
            Ok(o) => {
                toasts.success(fill(
                    t().offer_actions().copied,
                    &[("identifier", &o.identifier)],
                ));
                nav(&format!("/offers/{}/edit", o.id), Default::default());
            }
            Err(e) => toasts.error(fill(
                t().offer_actions().copy_failed,
                &[("message", &e.message)],
            )),
        });
    };
    let open = RwSignal::new(false);
    let deleting = Task::new();
    let identifier = StoredValue::new(offer.identifier.clone());
    let delete = Callback::new(move |_: ()| {
        let navigate = navigate.clone();
        deleting.run(delete_offer(id), move |r| match r {
            Ok(()) => {
                open.set(false);
                toasts.success(fill(
                    t().offer_actions().deleted,
                    &[("identifier", &identifier.get_value())],
                ));
                navigate("/offers", Default::default());
            }
            Err(e) => {
                open.set(false);
                toasts.error(fill(
                    t().offer_actions().delete_failed,
                    &[("message", &e.message)],
                ));
            }
        });
    });
    view! {
        {editable.then(|| view! {
            <a class="btn" id="offer-edit" href=href(&format!("/offers/{id}/edit"))>{t().common().edit}</a>
        })}
        <button type="button" class="btn" id="offer-copy" disabled=move || copying.pending.get() on:click=copy>
            {move || if copying.pending.get() { t().offer_actions().copying } else { t().common().copy }}
        </button>
        {deletable.then(|| view! {
            <button type="button" class="btn btn-danger-quiet" id="offer-delete" on:click=move |_| open.set(true)>
                {t().common().delete}
            </button>
            <ConfirmDialog open=open title=fill(t().offer_actions().delete_title, &[("identifier", &identifier.get_value())])
                text=t().offer_actions().delete_text.to_string()
                confirm_label=t().offer_actions().delete_confirm.to_string() pending=deleting.pending confirm_id="offer-delete-confirm"
                on_confirm=delete />
        })}
    }
}
