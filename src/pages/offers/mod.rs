//! Offer pages: the list with filters, the detail (positions with optional ones marked,
//! status, PDF preview, e-mail, attachments, "Create invoice") and the creation form with
//! the company / deal / project rules.

pub mod attachments;
mod detail;
mod detail_actions;
mod detail_approval;
mod detail_down_payment;
pub mod detail_email;
pub mod detail_sections;
pub mod form;
mod form_fields;
pub mod form_state;
mod list;
mod list_filters;

pub use detail::OfferDetail;
pub use form::{OfferCreate, OfferEdit};
pub use list::OfferList;

use crate::components::status_badge::Badge;
use kontor_model::offer::OfferStatus;
use leptos::prelude::*;

/// The badge of an offer status (accepted green, billed teal, archived muted).
#[component]
pub fn OfferBadge(
    /// The offer status to show.
    #[prop(into)]
    status: Signal<OfferStatus>,
) -> impl IntoView {
    view! {
        <Badge
            tone=Signal::derive(move || match status.get() {
                OfferStatus::PartiallyBilled => "partially_paid".to_string(),
                s => s.as_str().to_string(),
            })
            label=Signal::derive(move || crate::i18n::status_label(status.get().as_str()))
        />
    }
}
