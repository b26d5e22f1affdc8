//! Importing a supplier's e-invoice (issue 10): a drop zone for an XRechnung XML (UBL or
//! CII) or a Factur-X/ZUGFeRD PDF that posts it to `POST /purchases/import` and opens the
//! new purchase. A document imported before (409) gets a link to its purchase; a file the
//! server cannot read (422) gets the server's reason. Used by the purchase list and the
//! purchase form.

use crate::api::einvoices::{import_purchase, ImportError};
use crate::components::drop_zone::DropZone;
use crate::components::field::field_message;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use crate::paths::href;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use send_wrapper::SendWrapper;

/// File types the import accepts (the picker's `accept` list).
pub const EINVOICE_ACCEPT: &str = "application/pdf,application/xml,text/xml,.xml,.pdf";
/// Largest file the import sends (10 MiB, as for receipt documents).
pub const EINVOICE_MAX_BYTES: f64 = 10.0 * 1024.0 * 1024.0;

/// A message when a file of `name`, MIME type `kind` and `size` bytes is obviously not an
/// e-invoice (before sending): larger than 10 MiB, or neither XML nor PDF by type or name.
pub fn check_einvoice_file(name: &str, kind: &str, size: f64) -> Option<String> {
    if size > EINVOICE_MAX_BYTES {
        return Some(t().widgets_files().too_large.into());
    }
    let lower = name.to_lowercase();
    let by_name = lower.ends_with(".xml") || lower.ends_with(".pdf");
    let by_type = matches!(kind, "application/pdf" | "application/xml" | "text/xml");
    (!by_name && !by_type).then(|| t().widgets_files().only_einvoices.into())
}

/// What the page shows after a failed import.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportProblem {
    /// The sentence shown.
    pub message: String,
    /// The purchase that already holds the document (409).
    pub existing: Option<i64>,
}

/// The problem shown for a failed import: `errors.file` when the server named it, else its
/// message; a 409 keeps the existing purchase's id for the link.
pub fn import_problem(failure: &ImportError) -> ImportProblem {
    let e = &failure.error;
    let message = match (failure.existing, field_message(&e.errors, "file")) {
        (Some(_), _) => t().widgets_files().imported_before.to_string(),
        (None, Some(m)) => fill(t().widgets_files().not_imported, &[("reason", &m)]),
        (None, None) => fill(t().widgets_files().not_imported, &[("reason", &e.message)]),
    };
    ImportProblem {
        message,
        existing: failure.existing,
    }
}

/// The import drop zone: drop or pick a file; on success the new purchase opens.
#[component]
pub fn EInvoiceImport(
    /// The file input's id.
    #[prop(into)]
    id: String,
    /// The text in the zone.
    #[prop(into, default = t().widgets_files().import_label.into())]
    label: String,
    /// A file dropped anywhere on the page is imported too (the purchase list), instead of
    /// the browser opening it.
    #[prop(optional)]
    whole_page: bool,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let navigate = use_navigate();
    let progress = RwSignal::new(0u8);
    let problem = RwSignal::new(None::<ImportProblem>);
    let import = Action::new_local(move |file: &SendWrapper<web_sys::File>| {
        let file = file.clone();
        async move { import_purchase(&file, progress).await }
    });
    Effect::new(move |_| match import.value().get() {
        Some(Ok(purchase)) => {
            problem.set(None);
            toasts.success(fill(
                t().widgets_files().imported,
                &[("receipt", &purchase.receipt_identifier)],
            ));
            navigate(&format!("/purchases/{}", purchase.id), Default::default());
        }
        Some(Err(failure)) => problem.set(Some(import_problem(&failure))),
        None => {}
    });
    let on_file =
        Callback::new(move |file: SendWrapper<web_sys::File>| {
            match check_einvoice_file(&file.name(), &file.type_(), file.size()) {
                Some(message) => problem.set(Some(ImportProblem {
                    message,
                    existing: None,
                })),
                None => {
                    problem.set(None);
                    import.dispatch_local(file);
                }
            }
        });
    if whole_page {
        let has_files = |ev: &web_sys::DragEvent| {
            ev.data_transfer()
                .is_some_and(|d| d.types().includes(&"Files".into(), 0))
        };
        let over = window_event_listener(leptos::ev::dragover, move |ev| {
            if has_files(&ev) {
                ev.prevent_default();
            }
        });
        // The zone's own drop handler runs first and prevents the default: skipped here.
        let dropped = window_event_listener(leptos::ev::drop, move |ev| {
            if ev.default_prevented() || !has_files(&ev) {
                return;
            }
            ev.prevent_default();
            if let Some(file) = ev
                .data_transfer()
                .and_then(|d| d.files())
                .and_then(|f| f.get(0))
            {
                on_file.run(SendWrapper::new(file));
            }
        });
        on_cleanup(move || {
            over.remove();
            dropped.remove();
        });
    }
    let busy = import.pending();
    view! {
        <div class="einvoice-import">
            <DropZone id=id label=label on_file=on_file busy=busy progress=progress accept=EINVOICE_ACCEPT />
            <p class="field-error einvoice-import-error" role="alert">
                {move || {
                    problem
                        .get()
                        .map(|p| {
                            view! {
                                {p.message}
                                {p.existing.map(|existing| view! {
                                    " "
                                    <a class="einvoice-existing" href=href(&format!("/purchases/{existing}"))>{t().widgets_files().open_existing}</a>
                                })}
                            }
                        })
                }}
            </p>
        </div>
    }
}
