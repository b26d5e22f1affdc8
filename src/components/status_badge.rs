//! Status badges: one fixed colour per status (UI.md § Lists), always with the status text
//! so colour is never the only signal.

use crate::i18n::status_label;
use kontor_model::status::{invoice_badge, InvoiceStatus};
use leptos::prelude::*;

/// A badge for any status: `tone` picks the colour class (`badge-<tone>`), `label` is the
/// text. Tones: draft, created, sent, partially_paid, paid, overdue, ignored (invoices),
/// accepted, billed, archived (offers), pending, approved (purchases).
#[component]
pub fn Badge(
    /// The colour class suffix, e.g. `"paid"`.
    #[prop(into)]
    tone: Signal<String>,
    /// The text shown.
    #[prop(into)]
    label: Signal<String>,
) -> impl IntoView {
    view! { <span class=move || format!("badge badge-{}", tone.get())>{move || label.get()}</span> }
}

/// The badge of an invoice status (`Partially paid` in amber, ...), labelled in the
/// user's language; a reversed invoice reads "Storniert" / "Reversed" whatever its status
/// (`kontor_model::status::invoice_badge`).
#[component]
pub fn StatusBadge(
    /// The invoice status to show.
    #[prop(into)]
    status: Signal<InvoiceStatus>,
    /// The invoice has been reversed.
    #[prop(into, default = Signal::stored(false))]
    reversed: Signal<bool>,
) -> impl IntoView {
    let wire = move || invoice_badge(status.get(), reversed.get());
    view! {
        <Badge
            tone=Signal::derive(move || wire().to_string())
            label=Signal::derive(move || status_label(wire()))
        />
    }
}
