//! The form's live preview: the PDF the unsaved invoice would print, from
//! `POST /invoices/preview.pdf`, rendered at most [`PREVIEW_DELAY`] after typing stops.
//! A newer render cancels an older one (its request is aborted, its answer ignored) and
//! replaces its object URL (the old one is revoked). Typing never waits for it. It can be
//! hidden, which stops the renders.

use crate::api::invoice_documents::preview_invoice_pdf;
use crate::components::debounce::Debounce;
use crate::components::invoice_form_state::InvoiceFormState;
use crate::components::pdf_preview::{PdfDoc, PdfFrame};
use crate::components::position_editor::PositionRow;
use crate::i18n::t;
use kontor_model::status::InvoiceStatus;
use leptos::prelude::*;
use std::time::Duration;

/// Quiet time after the last change before the preview renders.
pub const PREVIEW_DELAY: Duration = Duration::from_millis(300);

/// Subscribes the current observer to every field of the form, positions included.
pub fn track_form(state: &InvoiceFormState) {
    state.customer_id.track();
    state.project_id.track();
    state.term_days.track();
    state.reverse_charge.track();
    for s in [
        state.recipient_address,
        state.date,
        state.due_date,
        state.title,
        state.currency,
        state.tax,
        state.discount,
        state.cash_discount,
        state.cash_discount_days,
        state.salutation,
        state.footer,
        state.tags,
        state.service_from,
        state.service_to,
    ] {
        s.track();
    }
    state
        .rows
        .with(|rows| rows.iter().for_each(PositionRow::track));
}

/// Renders the form's current body unless it is the one shown already.
pub fn refresh_preview(state: InvoiceFormState, doc: PdfDoc, shown_body: StoredValue<String>) {
    let (body, _) = state.body(InvoiceStatus::Draft);
    let json = serde_json::to_string(&body).unwrap_or_default();
    let current = doc.url.get_untracked().is_some() && doc.error.with_untracked(Option::is_none);
    if current && shown_body.with_value(|b| *b == json) {
        return;
    }
    shown_body.set_value(json);
    doc.load(Box::pin(async move { preview_invoice_pdf(&body).await }));
}

/// The preview panel with its "rendering" indicator and the hide/show toggle.
#[component]
pub fn LivePreview(
    /// The form state.
    state: InvoiceFormState,
    /// Whether the preview is shown (the form lays out beside it when it is).
    shown: RwSignal<bool>,
) -> impl IntoView {
    let doc = PdfDoc::new();
    let debounce = Debounce::new(PREVIEW_DELAY);
    let shown_body = StoredValue::new(String::new());
    Effect::new(move |_| {
        track_form(&state);
        if shown.get() {
            debounce.call(move || refresh_preview(state, doc, shown_body));
        } else {
            debounce.cancel();
            doc.cancel();
            doc.loading.set(false);
        }
    });
    view! {
        <aside class="live-preview section" aria-label=t().invoice_form().live_preview>
            <div class="live-preview-head">
                <h2 class="section-title">{t().invoice_form().preview}</h2>
                <span class="live-preview-state" aria-live="polite" data-rendering=move || doc.loading.get().to_string()>
                    {move || if doc.loading.get() { t().invoice_form().rendering } else { "" }}
                </span>
                <button type="button" class="btn btn-small btn-quiet" id="toggle-preview" aria-pressed=move || shown.get().to_string()
                    on:click=move |_| shown.update(|s| *s = !*s)>
                    {move || if shown.get() { t().invoice_form().hide_preview } else { t().invoice_form().show_preview }}
                </button>
            </div>
            <Show when=move || shown.get()>
                <PdfFrame doc=doc title=t().invoice_form().preview_title />
            </Show>
        </aside>
    }
}
