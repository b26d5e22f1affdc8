//! The notice of a purchase imported from an e-invoice whose seller goes by another name
//! than the supplier it was matched to (by VAT ID or IBAN; issue 34): it names both and
//! offers to take the document's name for the supplier (`PUT /companies/{id}`).

use crate::api::companies::rename_company;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use kontor_model::purchase::{new_supplier_name, Purchase};
use leptos::prelude::*;

/// The notice, or nothing when the names agree (or the purchase was not imported).
#[component]
pub fn SupplierNameNotice(
    /// The purchase as loaded.
    purchase: Purchase,
    /// Called after the supplier was renamed (the page reloads the purchase).
    on_changed: Callback<()>,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let supplier = purchase.company.clone();
    let seller = purchase
        .e_invoice
        .as_ref()
        .and_then(|e| e.seller_name.clone());
    let (supplier, new_name) = match supplier {
        Some(s) => match new_supplier_name(&s.name, seller.as_deref()) {
            Some(name) => (s, name),
            None => return None,
        },
        None => return None,
    };
    let texts = t().purchase_detail();
    let rename = Action::new_local(move |name: &String| {
        let name = name.clone();
        let id = supplier.id;
        async move { rename_company(id, &name).await }
    });
    Effect::new(move |_| match rename.value().get() {
        Some(Ok(company)) => {
            toasts.success(fill(
                t().purchase_detail().supplier_renamed,
                &[("name", &company.name)],
            ));
            on_changed.run(());
        }
        Some(Err(e)) => toasts.error(e.to_string()),
        None => {}
    });
    let text = fill(
        texts.seller_name_differs,
        &[("document", &new_name), ("supplier", &supplier.name)],
    );
    Some(view! {
        <div class="notice notice-row" id="supplier-name-notice" role="status">
            <p>{text}</p>
            <button type="button" class="btn btn-small" id="take-seller-name"
                disabled=move || rename.pending().get()
                on:click=move |_| { rename.dispatch_local(new_name.clone()); }>
                {texts.take_seller_name}
            </button>
        </div>
    })
}
